# SPDX-License-Identifier: BSD-3-Clause
"""The host engine's frames decoded by Scapy, a decoder we did not write.

Scapy writes what a peer says to 130 hosts on three kinds of link
(802.1Q, QinQ with a VLAN a host, untagged): an ARP request and an ICMP
echo to every host, an NS and an ICMPv6 echo to every IPv6 one.  host_pcap
(test/host/host_pcap.c, the engine without EAL) runs the hosts on it and
writes what they send; Scapy reads that back, and every frame is checked
field by field, its checksums recomputed by Scapy, and counted exactly:
announcements, DAD probes, unsolicited NAs, gateway solicitations,
answers.  Runs under Debian's /usr/bin/python3 (python3-scapy).
"""

import ipaddress
import os
import subprocess
import tempfile
import unittest

try:
    from scapy.all import (ARP, ICMP, IP, Dot1Q, Ether, ICMPv6EchoReply, ICMPv6EchoRequest,
                           ICMPv6ND_NA, ICMPv6ND_NS, ICMPv6NDOptDstLLAddr, ICMPv6NDOptSrcLLAddr,
                           IPv6, rdpcap, wrpcap)
    HAVE_SCAPY = True
except ImportError:
    HAVE_SCAPY = False

PEER_MAC = "0a:1b:2c:3d:4e:5f"
PEER4 = "10.9.9.9"
PEER6 = "2001:db8::9999"

STREAMS = """version: 1
hosts:
  - name: tagged
    port: 0
    count: 50
    mac: 02:10:00:00:00:01
    vlan: [100]
    ipv4: {addr: 10.0.0.10, prefix: 16, gateway: 10.0.0.1}
    ipv6: {addr: "2001:db8::10", step: "::2", gateway: "2001:db8::1"}
  - name: qinq
    port: 0
    count: 20
    mac: 02:20:00:00:00:01
    mac_step: 16
    vlan: [{id: 10, tpid: 0x88a8}, {id: 200, step: 1, pcp: 3}]
    ipv4: {addr: 10.1.0.10, step: 0.0.1.0, prefix: 8}
  - name: plain
    port: 0
    count: 10
    mac: 02:30:00:00:00:01
    ipv4: {addr: 10.2.0.10, prefix: 24}
streams:
  - name: x
"""


def mac_of(base, step, k):
    v = int(base.replace(":", ""), 16) + k * step
    return ":".join("%02x" % ((v >> (8 * i)) & 0xff) for i in range(5, -1, -1))


def hosts():
    """Every host: (mac, tags [(tpid, vid, pcp)], ipv4, ipv6 or None)."""
    out = []
    for k in range(50):
        out.append((mac_of("02:10:00:00:00:01", 1, k), [(0x8100, 100, 0)],
                    str(ipaddress.IPv4Address("10.0.0.10") + k),
                    str(ipaddress.IPv6Address("2001:db8::10") + 2 * k)))
    for k in range(20):
        out.append((mac_of("02:20:00:00:00:01", 16, k), [(0x88a8, 10, 0), (0x8100, 200 + k, 3)],
                    str(ipaddress.IPv4Address("10.1.0.10") + 256 * k), None))
    for k in range(10):
        out.append((mac_of("02:30:00:00:00:01", 1, k), [],
                    str(ipaddress.IPv4Address("10.2.0.10") + k), None))
    return out


def link_local(mac):
    b = bytes.fromhex(mac.replace(":", ""))
    iid = bytes([b[0] ^ 2]) + b[1:3] + b"\xff\xfe" + b[3:]
    return str(ipaddress.IPv6Address(b"\xfe\x80" + bytes(6) + iid))


def tagged(src, dst, tags, payload):
    """Ether / tags / payload, as the engine's tags: (tpid, vid, pcp)."""
    if not tags:
        return Ether(src=src, dst=dst) / payload
    p = Ether(src=src, dst=dst, type=tags[0][0])
    for i, (_, vid, pcp) in enumerate(tags):
        nxt = tags[i + 1][0] if i + 1 < len(tags) else None
        t = Dot1Q(vlan=vid, prio=pcp)
        if nxt is not None:
            t.type = nxt
        p = p / t
    return p / payload


def tags_of(p):
    """(tpid, vid, pcp) of each tag of a decoded frame, outer first."""
    out, tpid, layer = [], p[Ether].type, p[Ether].payload
    while isinstance(layer, Dot1Q):
        out.append((tpid, layer.vlan, layer.prio))
        tpid, layer = layer.type, layer.payload
    return out


def checksums_ok(p):
    """Scapy recomputes every checksum of the frame: the same bytes."""
    q = p.copy()
    for layer in (IP, ICMP, ICMPv6EchoReply, ICMPv6ND_NA, ICMPv6ND_NS):
        if layer in q:
            if hasattr(q[layer], "chksum"):
                del q[layer].chksum
            if hasattr(q[layer], "cksum"):
                del q[layer].cksum
    return bytes(Ether(bytes(q))) == bytes(p)


@unittest.skipUnless(HAVE_SCAPY, "needs python3-scapy (run with /usr/bin/python3)")
class HostFramesScapy(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        exe = os.environ.get("WR_HOST_PCAP")
        if not exe:
            raise unittest.SkipTest("WR_HOST_PCAP names build/test/host_pcap (meson sets it)")
        cls.dir = tempfile.TemporaryDirectory(prefix="host-scapy-")
        d = cls.dir.name
        with open(os.path.join(d, "h.yaml"), "w") as f:
            f.write(STREAMS)
        ask = []
        for mac, tags, v4, v6 in hosts():
            ask.append(tagged(PEER_MAC, "ff:ff:ff:ff:ff:ff", tags,
                              ARP(op=1, hwsrc=PEER_MAC, psrc=PEER4, pdst=v4)))
            ask.append(tagged(PEER_MAC, mac, tags,
                              IP(src=PEER4, dst=v4) / ICMP(id=7, seq=1) / b"wirerate"))
            if v6:
                tgt = ipaddress.IPv6Address(v6).packed
                snm = "ff02::1:ff%02x:%02x%02x" % (tgt[13], tgt[14], tgt[15])
                ask.append(tagged(PEER_MAC, "33:33:ff:%02x:%02x:%02x" % tuple(tgt[13:]), tags,
                                  IPv6(src=PEER6, dst=snm, hlim=255) / ICMPv6ND_NS(tgt=v6) /
                                  ICMPv6NDOptSrcLLAddr(lladdr=PEER_MAC)))
                ask.append(tagged(PEER_MAC, mac, tags,
                                  IPv6(src=PEER6, dst=v6) /
                                  ICMPv6EchoRequest(id=7, seq=1, data=b"wirerate")))
        wrpcap(os.path.join(d, "in.pcap"), ask)
        subprocess.run([exe, os.path.join(d, "h.yaml"), os.path.join(d, "in.pcap"),
                        os.path.join(d, "out.pcap")], check=True, timeout=60)
        cls.sent = rdpcap(os.path.join(d, "out.pcap"))
        cls.by_mac = {h[0]: h for h in hosts()}

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def host(self, p):
        h = self.by_mac.get(p[Ether].src)
        self.assertIsNotNone(h, "a frame from %s, no host's MAC" % p[Ether].src)
        self.assertEqual(tags_of(p), h[1], p.summary())
        return h

    def frames(self, pred):
        return [p for p in self.sent if pred(p)]

    def test_announcements(self):
        """RFC 5227: one ARP announcement a host, sender = target = its address."""
        garps = self.frames(lambda p: ARP in p and p[ARP].op == 1 and p[ARP].psrc == p[ARP].pdst)
        self.assertEqual(len(garps), 80)
        for p in garps:
            mac, _, v4, _ = self.host(p)
            self.assertEqual(p[Ether].dst, "ff:ff:ff:ff:ff:ff")
            self.assertEqual((p[ARP].hwsrc, p[ARP].psrc, p[ARP].hwdst), (mac, v4, "00:00:00:00:00:00"))
        self.assertEqual(len({p[Ether].src for p in garps}), 80)

    def test_dad_and_unsolicited_na(self):
        """RFC 4862: one NS from :: to the solicited-node group for each
        address (link-local and static), no source link-layer option; then
        an NA to all nodes, override set, not solicited."""
        dad = self.frames(lambda p: ICMPv6ND_NS in p and p[IPv6].src == "::")
        self.assertEqual(len(dad), 100)
        want = set()
        for mac, _, _, v6 in hosts()[:50]:
            want |= {(mac, v6), (mac, link_local(mac))}
        got = set()
        for p in dad:
            mac = self.host(p)[0]
            tgt = ipaddress.IPv6Address(p[ICMPv6ND_NS].tgt).packed
            self.assertEqual(ipaddress.IPv6Address(p[IPv6].dst),
                             ipaddress.IPv6Address("ff02::1:ff%02x:%02x%02x" % tuple(tgt[13:])))
            self.assertEqual(p[Ether].dst, "33:33:ff:%02x:%02x:%02x" % tuple(tgt[13:]))
            self.assertEqual(p[IPv6].hlim, 255)
            self.assertNotIn(ICMPv6NDOptSrcLLAddr, p)
            self.assertTrue(checksums_ok(p), p.summary())
            got.add((mac, str(ipaddress.IPv6Address(tgt))))
        self.assertEqual(got, want)
        na = self.frames(lambda p: ICMPv6ND_NA in p and p[IPv6].dst == "ff02::1")
        self.assertEqual(len(na), 100)
        got = set()
        for p in na:
            mac = self.host(p)[0]
            self.assertEqual(p[Ether].dst, "33:33:00:00:00:01")
            self.assertEqual((p[ICMPv6ND_NA].R, p[ICMPv6ND_NA].S, p[ICMPv6ND_NA].O), (0, 0, 1))
            self.assertEqual(p[ICMPv6ND_NA].tgt, p[IPv6].src)
            self.assertEqual(p[ICMPv6NDOptDstLLAddr].lladdr, mac)
            self.assertTrue(checksums_ok(p), p.summary())
            self.assertGreaterEqual(float(p.time), 1.0)   # after RetransTimer
            got.add((mac, p[ICMPv6ND_NA].tgt))
        self.assertEqual(got, want)

    def test_gateways(self):
        """The tagged hosts ask for their gateways: ARP at 0, 1, 2 s, NS
        from the link-local address at 1 and 2 s (after DAD)."""
        arp = self.frames(lambda p: ARP in p and p[ARP].op == 1 and p[ARP].pdst == "10.0.0.1")
        self.assertEqual(len(arp), 150)
        for p in arp:
            mac, _, v4, _ = self.host(p)
            self.assertEqual((p[ARP].hwsrc, p[ARP].psrc), (mac, v4))
        self.assertEqual(sorted({round(float(p.time), 3) for p in arp}), [0.0, 1.0, 2.0])
        ns = self.frames(lambda p: ICMPv6ND_NS in p and p[ICMPv6ND_NS].tgt == "2001:db8::1")
        self.assertEqual(len(ns), 100)
        for p in ns:
            mac = self.host(p)[0]
            self.assertEqual(p[IPv6].src, link_local(mac))
            self.assertEqual(p[IPv6].dst, "ff02::1:ff00:1")
            self.assertEqual(p[ICMPv6NDOptSrcLLAddr].lladdr, mac)
            self.assertTrue(checksums_ok(p), p.summary())
        self.assertEqual(sorted({round(float(p.time), 3) for p in ns}), [1.0, 2.0])

    def test_answers(self):
        """Every question answered once, by the host asked, on its VLANs."""
        rep = self.frames(lambda p: ARP in p and p[ARP].op == 2)
        self.assertEqual(len(rep), 80)
        for p in rep:
            mac, _, v4, _ = self.host(p)
            self.assertEqual((p[Ether].dst, p[ARP].hwdst, p[ARP].pdst), (PEER_MAC, PEER_MAC, PEER4))
            self.assertEqual((p[ARP].hwsrc, p[ARP].psrc), (mac, v4))
        echo = self.frames(lambda p: ICMP in p)
        self.assertEqual(len(echo), 80)
        for p in echo:
            mac, _, v4, _ = self.host(p)
            self.assertEqual((p[IP].src, p[IP].dst, p[ICMP].type), (v4, PEER4, 0))
            self.assertEqual((p[ICMP].id, p[ICMP].seq, bytes(p[ICMP].payload)[:8]), (7, 1, b"wirerate"))
            self.assertTrue(checksums_ok(p), p.summary())
        na = self.frames(lambda p: ICMPv6ND_NA in p and p[IPv6].dst == PEER6)
        self.assertEqual(len(na), 50)
        for p in na:
            mac, _, _, v6 = self.host(p)
            self.assertEqual((p[ICMPv6ND_NA].S, p[ICMPv6ND_NA].O, p[ICMPv6ND_NA].tgt), (1, 1, v6))
            self.assertEqual((p[IPv6].src, p[ICMPv6NDOptDstLLAddr].lladdr), (v6, mac))
            self.assertTrue(checksums_ok(p), p.summary())
        echo6 = self.frames(lambda p: ICMPv6EchoReply in p)
        self.assertEqual(len(echo6), 50)
        for p in echo6:
            mac, _, _, v6 = self.host(p)
            self.assertEqual((p[IPv6].src, p[IPv6].dst), (v6, PEER6))
            self.assertEqual(p[ICMPv6EchoReply].data, b"wirerate")
            self.assertTrue(checksums_ok(p), p.summary())

    def test_nothing_else(self):
        """Announcements 80 + DAD 100 + NA 100 + gateway ARP 150 + NS 100 +
        answers 80 + 80 + 50 + 50: every frame sent is one of these."""
        self.assertEqual(len(self.sent), 790)
        for p in self.sent:
            self.assertGreaterEqual(len(p), 60 + 4 * len(tags_of(p)))


if __name__ == "__main__":
    unittest.main()
