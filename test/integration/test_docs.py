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


if __name__ == "__main__":
    unittest.main()
