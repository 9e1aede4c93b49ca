# SPDX-License-Identifier: BSD-3-Clause
"""Seed 002's command (tools/wr-seed-002), short: 2 transfers of 8 MiB each way between
wirerate's TCP and the kernel's nc in a namespace.  The tool checks every transfer's bytes
(sha256 of what nc wrote; wirerate's server's data check); here its figures are checked
against the kernel's own counts in the namespace: the sender's frames are the segments the
kernel counted (TcpInSegs going forward; back, TcpOutSegs and TcpRetransSegs: the first
leaves out what the kernel sent again), their bytes the file's and the
headers of that many frames."""

import json
import os
import subprocess
import unittest

from wrtest import ROOT, WIRERATE, EalCase

TOOL = os.path.join(ROOT, "tools", "wr-seed-002")
# The suite's slice: 2 transfers of 8 MiB; the slow tier (integration-tcp-seed002-slow,
# WR_SLOW=1) the study's 10 of 500 MiB.
SIZE = int(os.environ.get("WR_SEED002_SIZE", str(8 << 20)))
RUNS = int(os.environ.get("WR_SEED002_RUNS", "2"))


@unittest.skipUnless(os.geteuid() == 0, "needs root for a network namespace")
class Seed002(EalCase):

    def seed(self, *args):
        out = self.path("s.json")
        p = subprocess.run([TOOL, "--size", str(SIZE), "--runs", str(RUNS), "--wirerate",
                            WIRERATE, "--json", out, *args], capture_output=True, text=True,
                           timeout=120 + RUNS * SIZE / 5e6)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        with open(out) as f:
            r = json.load(f)
        lines = p.stdout.splitlines()
        rows = [ln.split() for ln in lines if ln.split() and ln.split()[0].isdigit()]
        self.assertEqual(len(rows), RUNS, p.stdout)
        for w in ("min", "median", "max"):
            self.assertTrue(any(ln.split()[:1] == [w] for ln in lines), p.stdout)
        self.assertEqual((r["size"], len(r["runs"])), (SIZE, RUNS), r)
        for k, run in enumerate(r["runs"]):
            # The frames the sender counted are the ones the kernel counted.
            self.assertEqual(run["frames"], run["kernel_segs"], run)
            # Their bytes: the payload and, a frame, at least Ethernet, IPv4 and TCP headers and
            # the FCS (58), at most those with 20 bytes of options (78).  (The kernel's
            # IpExt*Octets, read too, say less than the headers and payload it sent.)
            self.assertGreaterEqual(run["frame_bytes"], SIZE + 58 * run["frames"], run)
            self.assertLessEqual(run["frame_bytes"], SIZE + 78 * run["frames"], run)
            # What the table says is what the figures make.
            t = run["time_s"]
            self.assertGreater(t, 0)
            self.assertAlmostEqual(run["MB_s"], SIZE / (1 << 20) / t, places=6)
            self.assertAlmostEqual(run["study_Mbps"], SIZE / (1 << 20) * 8 / t / 0.95,
                                   places=6)
            l1 = (run["frame_bytes"] + 20 * run["frames"]) * 8 / t / 1e6
            self.assertAlmostEqual(run["frames_Mbps"], l1, places=6)
            # At least a header of 54 bytes + 20 of L1 on every 1460 bytes of payload.
            self.assertGreater(run["overhead"], 74 / 1460 * 0.99, run)
            self.assertEqual(rows[k][1], f"{t:.3f}", (rows[k], run))
        return r

    def test_forward(self):
        """wirerate's client sends the file to `nc -l`."""
        self.seed()

    def test_reverse(self):
        """The kernel's `nc -N` sends the file to wirerate's server."""
        self.seed("--reverse")


if __name__ == "__main__":
    unittest.main()
