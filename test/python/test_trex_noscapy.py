# SPDX-License-Identifier: BSD-3-Clause
"""wirerate.trex without Scapy: a profile that gives its packet as bytes and its offsets as
numbers converts; tunables, multipliers, names; and the client never imports Scapy."""

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

PY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python")
sys.path.insert(0, PY)

from wirerate.trex import Options, ProfileError, convert, load, parse_tunables  # noqa: E402

# Ethernet / IPv4 / UDP, 60 bytes, IPv4 checksum 0x7ce4 as the bytes say.
FRAME = bytes.fromhex("ffffffffffff000000000000080045000032000100004011"
                      "7ce40a0000010a00000204000035001e000000000000000000000000000000000000")

PROFILE = textwrap.dedent('''
    from trex.stl.api import *

    class P:
        def get_streams(self, direction=0, port_id=0, count=3):
            vm = STLVM()
            vm.var(name="x", min_value=1, max_value=200, size=1, op="inc")
            vm.write(fv_name="x", pkt_offset=22)
            vm.fix_chksum(offset=14)
            return [STLStream(name="raw stream", packet=STLPktBuilder(pkt_buffer=%r, vm=vm),
                              mode=STLTXSingleBurst(total_pkts=count, pps=5))]

    def register():
        return P()
    ''' % FRAME)


class NoScapy(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory(prefix="wr-trex-")
        self.addCleanup(self.dir.cleanup)
        self.path = os.path.join(self.dir.name, "raw.py")
        with open(self.path, "w") as f:
            f.write(PROFILE)

    def test_bytes_profile(self):
        res = convert(load(self.path, ["count=7"]), self.path, Options(mult="4"))
        y = res.yaml
        self.assertIn("name: raw_stream", y)
        self.assertIn("count: 7", y)
        self.assertIn("rate: 20 pps", y)
        self.assertIn("{offset: 22, var: x}", y)
        self.assertIn("checksums: [{ipv4: 14}]", y)
        self.assertIn("eth: {src: port, dst: port}", y)  # bytes leave MACs to the port
        self.assertNotIn("scapy", sys.modules)

    def test_errors_name_the_line(self):
        with self.assertRaises(ProfileError) as e:
            load(self.path, ["colour=red"])
        self.assertRegex(e.exception.line(), r"raw\.py:5: the profile takes no tunable "
                                             r"'colour'")
        with self.assertRaises(ProfileError) as e:
            convert(load(self.path), self.path, Options(mult="10 parsecs"))
        self.assertIn("-m 10 parsecs", str(e.exception))

    def test_tunables(self):
        self.assertEqual(parse_tunables(["a=1,b=x", "c=2.5"]),
                         (["--a", "1", "--b", "x", "--c", "2.5"], {"a": 1, "b": "x", "c": 2.5}))
        argv, kw = parse_tunables(["--size 64"])
        self.assertEqual(argv, ["--size", "64"])

    def test_client_imports_no_scapy(self):
        code = "import sys, wirerate, wirerate.console; assert 'scapy' not in sys.modules"
        subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ,
                       "PYTHONPATH": PY})


if __name__ == "__main__":
    unittest.main()
