# SPDX-License-Identifier: BSD-3-Clause
"""RFC 2544 at lengths closer to the RFC's (meson suite 'slow', WR_SLOW=1): the tbf router again."""

import json
import os
import unittest

import test_rates as tr
from test_rates import ns_exec
from wrtest import STREAMS


class Rfc2544KernelRouterLong(tr.Rfc2544KernelRouter):
    """Longer trials, more repeats: the same answers, within the resolution."""

    # The router's set-up, not its short tests (they run in the default suite).
    test_both_directions_loss = None
    test_frame_loss_matches_tc = None
    test_generator_limited = None
    test_ndr_pdr_one_search = None
    test_throughput_repeatable = None

    def test_all_tests_long(self):
        wirerate = os.environ.get("WIRERATE")
        if not wirerate:
            self.skipTest("WIRERATE not set")
        prof = self.afp_profile("long")
        out = self.path("long.json")
        p = ns_exec(self.GEN, wirerate, "rfc2544", os.path.join(STREAMS, "udp-64.yaml"),
                    "--config", prof, "--tx-port", "0", "--rx-port", "1", "--sizes", "512",
                    "--tests", "throughput,loss,b2b", "--trial", "5", "--first-trial", "1",
                    "--pdr", "1%", "--phases", "3", "--drain", "0.5", "--max-rate", "16 kpps",
                    "--resolution", "100 pps", "--b2b-trial", "0.01", "--b2b-repeats", "10",
                    "--json", out, check=False)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        with open(out) as f:
            r = json.load(f)["results"][0]
        limit = self.RATE_BPS / 8 / (512 - 4)
        # 5 s trials: tbf's 16 kB bucket adds little over its rate.
        self.assertGreaterEqual(r["throughput_pps"], limit - 200, p.stdout)
        self.assertLessEqual(r["throughput_pps"], limit * 1.05, p.stdout)
        # PDR at 1 %: near limit / 0.99, within the resolution (100 pps).
        self.assertGreaterEqual(r["pdr"]["pps"], r["throughput_pps"])
        self.assertGreaterEqual(r["pdr"]["pps"], limit / 0.99 - 200, p.stdout)
        self.assertLessEqual(r["pdr"]["pps"], limit / 0.99 * 1.05, p.stdout)
        self.assertEqual(r["back_to_back"]["repeats"], 10)
        self.assertLessEqual(r["back_to_back"]["max"] - r["back_to_back"]["min"],
                             0.1 * r["back_to_back"]["max"] + 2)
        steps = r["frame_loss"]["steps"]
        self.assertEqual([s["lost"] for s in steps[-2:]], [0, 0])
        print(f"\n    5 s trials, 512 B through tbf 20 Mbit/s: NDR {r['throughput_pps']:.0f}, "
              f"PDR(1 %) {r['pdr']['pps']:.0f}, b2b {r['back_to_back']['values']}")


if __name__ == "__main__":
    unittest.main(verbosity=2)
