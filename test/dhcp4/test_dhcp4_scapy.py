# SPDX-License-Identifier: BSD-3-Clause
"""The DHCPv4 client's frames decoded by Scapy, a decoder we did not write: test_dhcp4's
lease cycle (DISCOVER, REQUEST, T1's unicast REQUESTs, T2's broadcast ones, the DISCOVER
after the lease ran out, a second lease, RELEASE) written to a pcap and read back field by
field, checksums recomputed by Scapy."""

import os
import subprocess
import sys
import tempfile
import unittest

from scapy.all import BOOTP, DHCP, IP, UDP, Dot1Q, Ether, rdpcap  # noqa: E402

# test_dhcp4, the CUnit runner (meson gives its path).
TEST_DHCP4 = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("WR_TEST_DHCP4", "")
MAC = "02:10:00:00:00:01"
SRV_MAC = "02:aa:00:00:00:01"
BCAST = "ff:ff:ff:ff:ff:ff"


def options(p):
    return {o[0]: o[1:] if len(o) > 2 else o[1] for o in p[DHCP].options
            if isinstance(o, tuple)}


class Dhcp4Scapy(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="wrdhcp4-")
        path = os.path.join(cls.tmp, "lease.pcap")
        subprocess.run([TEST_DHCP4, "--pcap", path], check=True, timeout=60)
        cls.frames = rdpcap(path)

    @classmethod
    def tearDownClass(cls):
        for f in os.listdir(cls.tmp):
            os.unlink(os.path.join(cls.tmp, f))
        os.rmdir(cls.tmp)

    def check_sums(self, p):
        """Scapy's own checksums of the same headers equal ours."""
        ip, udp = p[IP].chksum, p[UDP].chksum
        q = p.copy()
        del q[IP].chksum
        del q[UDP].chksum
        q = Ether(bytes(q))
        self.assertEqual((q[IP].chksum, q[UDP].chksum), (ip, udp))

    def test_sequence(self):
        f = self.frames
        types = [options(p)["message-type"] for p in f]
        # DISCOVER, REQUEST, 6 renewing and 4 rebinding REQUESTs, DISCOVER after the
        # lease's end, REQUEST of the second lease, RELEASE.
        self.assertEqual(types, [1, 3] + [3] * 10 + [1, 3, 7])
        for p in f:
            self.check_sums(p)
            self.assertEqual(p[Ether].src, MAC)
            self.assertEqual(p[Dot1Q].vlan, 100)
            self.assertEqual((p[UDP].sport, p[UDP].dport), (68, 67))
            self.assertEqual(p[BOOTP].op, 1)
            self.assertEqual(p[BOOTP].chaddr[:6], bytes.fromhex("021000000001"))
            self.assertEqual(options(p)["client_id"], b"\x01" + bytes.fromhex("021000000001"))
            # RFC 3046: option 82 last, circuit-id "port0/100", remote-id the MAC's hex.
            last = [o for o in p[DHCP].options if isinstance(o, tuple)][-1]
            self.assertEqual(last, ("relay_agent_information",
                                    b"\x01\x09port0/100\x02\x0c021000000001"))
            # RFC 1542: at least 300 bytes of BOOTP.
            self.assertGreaterEqual(len(p[BOOTP]), 300)

    def test_discover_request(self):
        d, r = self.frames[0], self.frames[1]
        self.assertEqual((d[Ether].dst, d[IP].src, d[IP].dst), (BCAST, "0.0.0.0",
                                                                  "255.255.255.255"))
        o = options(d)
        self.assertEqual(o["hostname"], b"cpe-0")
        self.assertEqual(list(o["param_req_list"]), [1, 3, 6, 15, 28, 51, 58, 59])
        self.assertEqual(r[BOOTP].xid, d[BOOTP].xid)
        o = options(r)
        self.assertEqual((o["requested_addr"], o["server_id"]), ("10.0.0.50", "10.0.0.1"))
        self.assertEqual(r[BOOTP].ciaddr, "0.0.0.0")

    def test_renew_rebind_release(self):
        renew, rebind = self.frames[2:8], self.frames[8:12]
        for p in renew:
            self.assertEqual((p[Ether].dst, p[IP].src, p[IP].dst, p[BOOTP].ciaddr),
                             (SRV_MAC, "10.0.0.50", "10.0.0.1", "10.0.0.50"))
            self.assertNotIn("requested_addr", options(p))
            self.assertNotIn("server_id", options(p))
        for p in rebind:
            self.assertEqual((p[Ether].dst, p[IP].src, p[IP].dst, p[BOOTP].ciaddr),
                             (BCAST, "10.0.0.50", "255.255.255.255", "10.0.0.50"))
        # T1 1800 s after the REQUEST at 0.5 s; T2 at 3150.5 s (pcap's microseconds).
        self.assertAlmostEqual(float(renew[0].time), 1800.5, places=3)
        self.assertAlmostEqual(float(rebind[0].time), 3150.5, places=3)
        rel = self.frames[-1]
        self.assertEqual((rel[Ether].dst, rel[IP].src, rel[IP].dst, rel[BOOTP].ciaddr),
                         (SRV_MAC, "10.0.0.51", "10.0.0.1", "10.0.0.51"))
        self.assertEqual(options(rel)["server_id"], "10.0.0.1")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
