# SPDX-License-Identifier: BSD-3-Clause
"""The documents' examples as a newcomer types them, from the repository root."""

import os
import re
import subprocess
import unittest

from wrtest import ROOT, WIRERATE, EalCase, wait_for


def first_sh_block(path):
    with open(path) as f:
        return re.search(r"```sh\n(.*?)```", f.read(), re.S).group(1)


class ApiSnippet(EalCase):
    """doc/api.md's first snippet: a server, a client script, the console, the server stopped."""

    def test_runs_from_the_root(self):
        # Only the binary's place is ours to say (a build directory other than build/).
        script = first_sh_block(os.path.join(ROOT, "doc", "api.md")).replace(
            "build/app/wirerate", WIRERATE)
        rt = self.path("rt")
        p = subprocess.run(["bash", "-e", "-c", script], cwd=ROOT, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=120,
                           env={**os.environ, "WIRERATE_RUNTIME_DIR": rt})
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        # The client script's summary: a 2 s trial at 1 Mpps (fewer frames when another
        # process took the TX lcore's CPU: the rate's accuracy is test_server's subject).
        m = re.search(r"'tx_pkts': (\d+)", p.stdout)
        self.assertIsNotNone(m, p.stdout + p.stderr)
        self.assertTrue(0 < int(m.group(1)) <= 2_000_000, p.stdout)
        # The server stopped and took its socket with it.
        sock = os.path.join(rt, "wirerate.sock")
        self.assertTrue(wait_for(lambda: not os.path.exists(sock), 10), "socket left behind")


def lcore_cpus(spec):
    """EAL's --lcores=SPEC (L@C or L, comma-separated) as {lcore: cpu}."""
    out = {}
    for part in spec.split(","):
        m = re.fullmatch(r"(\d+)(?:@(\d+))?", part.strip())
        if m is None:
            raise ValueError(f"--lcores={spec}: a form this test does not read")
        out[int(m.group(1))] = int(m.group(2) if m.group(2) is not None else m.group(1))
    return out


def peer_commands(text):
    """The dpdk-testpmd commands a profile's comments give, continuation lines joined."""
    cmds, cur = [], None
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("#"):
            cur = None
            continue
        line = line[1:].strip()
        if cur is None and line.startswith("dpdk-testpmd"):
            cur = []
            cmds.append(cur)
        if cur is not None:
            cur.append(line.rstrip("\\").strip())
            if not line.endswith("\\"):
                cur = None
    return [" ".join(c) for c in cmds]


class ProfilePeers(unittest.TestCase):
    """Every shipped profile and the peer command it documents: no busy lcore of wirerate (TX,
    RX) on a CPU where one of the peer's forwarding lcores (all but its main) polls.  Two
    pollers on one CPU ran about 50 times slower (config/memif.yaml with its testpmd command:
    RTT p50 8 ms instead of 2.8 us)."""

    def test_no_shared_cpu(self):
        cfg = os.path.join(ROOT, "config")
        checked = 0
        for name in sorted(os.listdir(cfg)):
            if not name.endswith(".yaml"):
                continue
            with open(os.path.join(cfg, name)) as f:
                text = f.read()
            code = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
            m = re.search(r"--lcores=([^\"\s]+)", code)
            peers = peer_commands(text)
            if m is None or not peers:
                continue
            gen = lcore_cpus(m.group(1))
            busy = set()
            for lst in re.findall(r"(?:tx_lcores|rx_lcores):\s*\[([\d,\s]+)\]", code):
                busy |= {int(x) for x in lst.split(",") if x.strip()}
            busy |= {int(x) for x in re.findall(r"rx_lcore:\s*(\d+)", code)}
            gen_cpus = {gen[lc] for lc in busy}
            self.assertTrue(gen_cpus, f"{name}: no busy lcore found")
            for cmd in peers:
                pm = re.search(r"--lcores[= ](\S+)", cmd)
                self.assertIsNotNone(pm, f"{name}: the peer command gives no --lcores: {cmd}")
                peer = lcore_cpus(pm.group(1))
                main = re.search(r"--main-lcore[= ](\d+)", cmd)
                main = int(main.group(1)) if main else min(peer)
                peer_cpus = {cpu for lc, cpu in peer.items() if lc != main}
                self.assertFalse(gen_cpus & peer_cpus,
                                 f"{name}: wirerate polls on CPU {sorted(gen_cpus)} and the peer "
                                 f"it documents on CPU {sorted(peer_cpus)}: {cmd}")
                checked += 1
        self.assertGreaterEqual(checked, 2, "no profile with a peer command was read")


if __name__ == "__main__":
    unittest.main()
