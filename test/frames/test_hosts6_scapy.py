# SPDX-License-Identifier: BSD-3-Clause
"""The DHCPv6 and SLAAC frames emulated hosts send (test_dhcp6's and
test_slaac's runs, written to a pcap), decoded by Scapy (a decoder we did not
write): every message type, option and checksum is what RFC 8415 and RFC 4861
say, as Scapy reads them."""

import os
import subprocess
import tempfile
import unittest

from scapy.all import rdpcap  # noqa: E402
from scapy.layers.dhcp6 import (DHCP6_Rebind, DHCP6_Release, DHCP6_Renew, DHCP6_Request,
                                DHCP6_Solicit, DHCP6OptClientId, DHCP6OptElapsedTime,
                                DHCP6OptIA_NA, DHCP6OptIA_PD, DHCP6OptIAAddress,
                                DHCP6OptIAPrefix, DHCP6OptOptReq, DHCP6OptRapidCommit,
                                DHCP6OptServerId, DUID_EN, DUID_LL, DUID_LLT)
from scapy.layers.inet import UDP
from scapy.layers.inet6 import ICMPv6ND_RS, ICMPv6NDOptSrcLLAddr, IPv6
from scapy.layers.l2 import Ether

MAC0 = "02:00:00:00:01:00"
LL0 = "fe80::ff:fe00:100"


def frames(binary):
    """Every frame @binary's test runs send, read back by Scapy."""
    with tempfile.TemporaryDirectory() as d:
        pcap = os.path.join(d, "f.pcap")
        p = subprocess.run([binary], env=dict(os.environ, WR_HOSTS6_PCAP=pcap),
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stdout + p.stderr
        return list(rdpcap(pcap))


def checksum_ok(pkt, layer, field="chksum"):
    """Scapy's own checksum of @layer equals the one sent."""
    sent = getattr(pkt[layer], field)
    again = Ether(bytes(pkt))
    delattr(again[layer], field)
    return getattr(Ether(bytes(again))[layer], field) == sent


class Dhcp6(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.pkts = frames(os.environ["WR_TEST_DHCP6"])
        cls.msgs = [p for p in cls.pkts if UDP in p and p[UDP].dport == 547]

    def test_every_message(self):
        """Each message: from a link-local address to ff02::1:2, hop limit 1, UDP
        546 -> 547 with a good checksum, DUID-LL or DUID-LLT of the sender's MAC."""
        self.assertGreater(len(self.msgs), 300)
        kinds, llt = set(), 0
        for p in self.msgs:
            self.assertEqual(p[Ether].dst, "33:33:00:01:00:02")
            self.assertEqual(p[IPv6].dst, "ff02::1:2")
            self.assertTrue(p[IPv6].src.startswith("fe80::"), p[IPv6].src)
            self.assertEqual(p[IPv6].hlim, 1)
            self.assertEqual(p[UDP].sport, 546)
            self.assertTrue(checksum_ok(p, UDP), p.summary())
            duid = p[DHCP6OptClientId].duid
            self.assertIsInstance(duid, (DUID_LL, DUID_LLT))
            self.assertEqual(duid.lladdr, p[Ether].src)
            self.assertEqual(duid.hwtype, 1)
            if isinstance(duid, DUID_LLT):
                # Time 0 (seconds since 2000-01-01 00:00 UTC, RFC 8415 11.2:
                # Scapy shows it as that date).
                self.assertEqual(duid.timeval, 0)
                llt += 1
            self.assertIn(DHCP6OptElapsedTime, p)
            kinds.add(type(p[UDP].payload))
        self.assertEqual(kinds, {DHCP6_Solicit, DHCP6_Request, DHCP6_Renew, DHCP6_Rebind,
                                 DHCP6_Release})
        self.assertGreater(llt, 0)      # test_dhcp6's duid_llt

    def test_solicit(self):
        """The exchange's first SOLICIT: IA_NA and IA_PD with the MAC's last four bytes
        as IAID, ORO asking for DNS servers and SOL_MAX_RT, elapsed time 0."""
        s = [p for p in self.msgs if DHCP6_Solicit in p and DHCP6OptIA_PD in p
             and p[Ether].src == MAC0]
        self.assertTrue(s)
        p = s[0]
        self.assertEqual(p[IPv6].src, LL0)
        self.assertEqual(p[DHCP6OptIA_NA].iaid, 0x100)
        self.assertEqual(p[DHCP6OptIA_PD].iaid, 0x100)
        self.assertEqual(p[DHCP6OptElapsedTime].elapsedtime, 0)
        self.assertEqual(list(p[DHCP6OptOptReq].reqopts), [23, 82])
        self.assertNotIn(DHCP6OptServerId, p)
        self.assertNotIn(DHCP6OptRapidCommit, p)
        rapid = [q for q in self.msgs if DHCP6_Solicit in q and DHCP6OptRapidCommit in q]
        self.assertTrue(rapid)

    def test_request_renew_release(self):
        """REQUEST, RENEW and RELEASE name the chosen server (DUID-EN 32473, "srv" 2)
        and the leases: 2001:db8::1001 and 2001:db8:100::/56; REBIND names none."""
        for kind in (DHCP6_Request, DHCP6_Renew, DHCP6_Release):
            m = [p for p in self.msgs if kind in p and DHCP6OptIA_PD in p]
            self.assertTrue(m, kind.__name__)
            p = m[0]
            sid = p[DHCP6OptServerId].duid
            self.assertIsInstance(sid, DUID_EN)
            self.assertEqual(sid.enterprisenum, 32473)
            self.assertEqual(bytes(sid.id), b"srv\x02")
            self.assertEqual(p[DHCP6OptIAAddress].addr, "2001:db8::1001")
            self.assertEqual(p[DHCP6OptIAPrefix].prefix, "2001:db8:100::")
            self.assertEqual(p[DHCP6OptIAPrefix].plen, 56)
        renew = [p for p in self.msgs if DHCP6_Renew in p and DHCP6OptIA_PD in p][0]
        self.assertEqual(renew[DHCP6OptIAAddress].validlft, 300)
        self.assertEqual(renew[DHCP6OptIAAddress].preflft, 200)
        rebind = [p for p in self.msgs if DHCP6_Rebind in p and DHCP6OptIA_PD in p][0]
        self.assertNotIn(DHCP6OptServerId, rebind)


class Slaac(unittest.TestCase):
    def test_router_solicitation(self):
        """Every RS: hop limit 255, to ff02::2, ICMPv6 checksum good, the source
        link-layer option carrying the sender's MAC."""
        rs = [p for p in frames(os.environ["WR_TEST_SLAAC"]) if ICMPv6ND_RS in p]
        self.assertGreaterEqual(len(rs), 3)
        for p in rs:
            self.assertEqual(p[Ether].dst, "33:33:00:00:00:02")
            self.assertEqual(p[IPv6].dst, "ff02::2")
            self.assertEqual(p[IPv6].hlim, 255)
            self.assertTrue(p[IPv6].src.startswith("fe80::"))
            self.assertEqual(p[ICMPv6ND_RS].code, 0)
            self.assertEqual(p[ICMPv6NDOptSrcLLAddr].lladdr, p[Ether].src)
            self.assertTrue(checksum_ok(p, ICMPv6ND_RS, "cksum"), p.summary())


if __name__ == "__main__":
    unittest.main()
