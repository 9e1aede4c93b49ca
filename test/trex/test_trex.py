# SPDX-License-Identifier: BSD-3-Clause
"""TRex profiles through `wirerate import-trex` and `wirerate dump`, against a reference.

Each profile in profiles/ is wirerate's own, written in TRex's style for one instruction or
mode.  Its frames, as `wirerate dump` writes them from the imported stream file (no EAL), must
equal byte for byte the frames the test computes itself: the same Scapy packet, built here,
run through trexsim (TRex's field engine, packet by packet, with Scapy computing checksums).
Bad profiles must be one line naming the file and line, exit status 2.

Runs under Debian's /usr/bin/python3 (python3-scapy).  No hugepages, no EAL.
"""

import ipaddress
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("WR_SOURCE_ROOT", os.path.abspath(os.path.join(HERE, "..", "..")))
WIRERATE = os.environ.get("WIRERATE", os.path.join(ROOT, "build", "app", "wirerate"))
PROFILES = os.path.join(HERE, "profiles")
BAD = os.path.join(HERE, "bad")

sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from wrtest import pcap_frames as read_pcap  # noqa: E402

try:
    from scapy.all import (ICMPv6EchoRequest, IP, IPOption_NOP, IPv6, TCP, UDP, Dot1Q,
                           Ether, Raw, wrpcap, wrpcapng)
    import trexsim as ts
    HAVE_SCAPY = True
except ImportError:  # pragma: no cover - reported by the skip below
    HAVE_SCAPY = False

SRC = "02:00:00:00:00:01"   # what `port` MACs are until a run resolves them
DST = "02:00:00:00:00:02"


def ip(text):
    return int(ipaddress.IPv4Address(text))


# Each conversion starts Python with Scapy (about 1.4 s): a profile converted once with the
# same options serves every test that dumps or reads it (tearDownModule removes them).
CONVERTED = {}
CONVERTED_DIR = tempfile.mkdtemp(prefix="wr-trex-conv-")


def tearDownModule():
    shutil.rmtree(CONVERTED_DIR, True)


class TrexCase(unittest.TestCase):
    def setUp(self):
        if not HAVE_SCAPY:
            self.skipTest("needs python3-scapy (run with /usr/bin/python3)")
        self.tmp = tempfile.mkdtemp(prefix="wr-trex-")
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def run_wr(self, *args, check=0):
        p = subprocess.run([WIRERATE, *args], capture_output=True, text=True, timeout=120,
                           env={**os.environ, "WIRERATE_PYTHON": sys.executable})
        if check is not None and p.returncode != check:
            self.fail(f"wirerate {' '.join(args)}: exit {p.returncode}, expected {check}\n"
                      f"{p.stdout}\n{p.stderr}")
        return p

    def converted(self, profile, *opts):
        """(the path of the stream file import-trex wrote for @profile with @opts, its
        stderr): converted on the first call, the same file after."""
        key = (profile, opts)
        if key not in CONVERTED:
            out = os.path.join(CONVERTED_DIR, f"{len(CONVERTED)}-{profile}.yaml")
            p = self.run_wr("import-trex", os.path.join(PROFILES, profile), "-o", out, *opts)
            CONVERTED[key] = (out, p.stderr)
        return CONVERTED[key]

    def imported(self, profile, *opts):
        """The stream file import-trex writes (and its stderr)."""
        out, err = self.converted(profile, *opts)
        with open(out) as f:
            return f.read(), err

    def frames(self, profile, n, *opts, stream=None, direct=False):
        """The first n frames of a stream of a profile, converted by import-trex and dumped
        by wirerate from that stream file; with @direct, dumped from the profile itself
        (dump converts it, @opts on its command line)."""
        out = os.path.join(self.tmp, "out.pcap")
        src = os.path.join(PROFILES, profile) if direct else self.converted(profile, *opts)[0]
        args = ["dump", src, "--count", str(n), "--pcap", out]
        if stream:
            args += ["--stream", stream]
        self.run_wr(*args, *(opts if direct else ()))
        return read_pcap(out)

    def same(self, got, want, fixed=True):
        """Frame by frame equal; with @p fixed, the first frames' checksums Scapy's too
        (where the profile fixes them all: the reference computes them itself)."""
        self.assertEqual(len(got), len(want))
        for k, (g, w) in enumerate(zip(got, want)):
            if g != w:
                self.fail(f"frame {k} differs:\n got  {g.hex()}\n want {w.hex()}")
        for g in got[:20] if fixed else ():
            self.assertEqual(ts.checked_by_scapy(g), g)


class FieldEngine(TrexCase):
    """Every field-engine instruction against the reference."""

    def test_inc_step_init(self):
        base = Ether(src=SRC, dst=DST) / IP(src="16.0.0.1", dst="48.0.0.1") / \
            UDP(dport=12, sport=1025)
        pkt = base / (b"x" * (124 - len(base)))
        prog = ts.Program([
            ts.Var("src", 4, "inc", ip("16.0.0.1"), ip("16.0.0.254")),
            ts.Var("sport", 2, "inc", 1025, 1124, step=3, init=1100),
            ts.Write("src", 26), ts.FixIpv4(14), ts.Write("sport", 34)])
        self.same(self.frames("udp_clients.py", 700, "-t", "size=128"),
                  ts.frames(bytes(pkt), prog, 700), fixed=False)

    def test_random_syn(self):
        pkt = Ether(src=SRC, dst=DST) / IP(dst="48.0.0.1") / TCP(dport=80, flags="S")
        prog = ts.Program([
            ts.Var("ip_src", 4, "random", ip("16.0.0.0"), ip("18.0.0.254")),
            ts.Var("src_port", 2, "random", 1025, 65000),
            ts.Write("ip_src", 26), ts.FixIpv4(14), ts.Write("src_port", 34)],
            random_seed=0x1234)
        got = self.frames("syn_flood.py", 2000)
        self.same(got, ts.frames(bytes(pkt), prog, 2000), fixed=False)
        # TRex leaves TCP's checksum stale: so do the frames.
        self.assertTrue(all(g[50:52] == bytes(pkt)[50:52] for g in got))

    def test_hw_checksums_and_tunables_argparse(self):
        base = Ether(src=SRC, dst=DST) / IP(src="16.0.0.1", dst="48.0.0.1") / \
            UDP(dport=12, sport=1025)
        pkt = base / (b"x" * (124 - len(base)))
        prog = ts.Program([
            ts.Var("ip_src", 4, "inc", ip("16.0.0.1"), ip("16.0.0.10")),
            ts.Var("port_src", 2, "inc", 1025, 65000),
            ts.Write("ip_src", 26), ts.Write("port_src", 34), ts.FixHw(14, 34, "udp")])
        got = self.frames("range_clients.py", 300, "-t", "--size 128 --clients 10")
        self.same(got, ts.frames(bytes(pkt), prog, 300))

    def test_dec_lists_sizes_endianness(self):
        pkt = Ether(src=SRC, dst=DST) / IP(src="10.0.0.1", dst="10.0.0.2", ttl=7) / \
            UDP(sport=1, dport=2) / (b"\xab" * 40)
        prog = ts.Program([
            ts.Var("ttl", 1, "dec", 3, 250, step=7, init=9),
            ts.Var("dport", 2, "inc", values=[53, 80, 443, 8080, 9999], step=2),
            ts.Var("sport", 2, "dec", values=[7, 5, 3]),
            ts.Var("tos", 1, "random", values=[0, 4, 8, 16]),
            ts.Var("big", 8, "random", 0, 0xFFFFFFFFFFFFFFFF),
            ts.Var("cnt", 8, "inc", 0xFFFFFFFFFFFFFF00, 0xFFFFFFFFFFFFFFFF, step=100),
            ts.Write("ttl", 22), ts.Write("dport", 36), ts.Write("sport", 34, add=-3),
            ts.Write("tos", 15), ts.FixIpv4(14), ts.Write("big", 42),
            ts.Write("cnt", 50, big=False)], random_seed=77)
        self.same(self.frames("lists.py", 500), ts.frames(bytes(pkt), prog, 500), fixed=False)

    def test_masked_writes(self):
        pkt = Ether(src=SRC, dst=DST) / Dot1Q(vlan=1, prio=0) / \
            IP(src="1.1.1.1", dst="2.2.2.2", tos=0x3) / UDP(sport=1000, dport=2000) / \
            (b"\0" * 18)
        prog = ts.Program([
            ts.Var("vid", 2, "inc", 100, 110),
            ts.Var("prio", 1, "dec", 0, 7),
            ts.Var("w", 4, "inc", 0, 0xfffff, step=3333),
            ts.WriteMask("vid", 14, 2, 0x0fff),
            ts.WriteMask("prio", 14, 2, 0xe000, shift=13, add=1),
            ts.WriteMask("w", 19, 1, 0xf0, shift=-4),
            ts.WriteMask("w", 22, 2, 0x00ff, add=-5),
            ts.FixIpv4(18)])
        self.same(self.frames("masks.py", 400), ts.frames(bytes(pkt), prog, 400),
                  fixed=False)

    def test_tuple_generator(self):
        pkt = Ether(src=SRC, dst=DST) / IP(src="16.0.0.1", dst="48.0.0.1") / \
            UDP(dport=12, sport=1025) / (b"x" * 22)
        prog = ts.Program([
            ts.Tuple("tuple", ip("16.0.0.1"), ip("16.0.0.3"), 1025, 1027, 7),
            ts.Write("tuple.ip", 26), ts.Write("tuple.port", 34), ts.FixHw(14, 34, "udp")])
        got = self.frames("tuple_gen.py", 50)
        self.same(got, ts.frames(bytes(pkt), prog, 50))
        # TRex's documented table: the port moves when the address wraps, and the
        # flows restart after limit_flows.
        self.assertEqual([(Ether(g)[IP].src, Ether(g)[UDP].sport) for g in got[:8]],
                         [("16.0.0.1", 1025), ("16.0.0.2", 1025), ("16.0.0.3", 1025),
                          ("16.0.0.1", 1026), ("16.0.0.2", 1026), ("16.0.0.3", 1026),
                          ("16.0.0.1", 1027), ("16.0.0.1", 1025)])

    def test_repeatable_random_and_chains(self):
        pkt = Ether(src=SRC, dst=DST) / IP(src="10.0.0.1", dst="10.0.0.2") / \
            UDP(sport=1, dport=2) / (b"y" * 30)
        prog = ts.Program([
            ts.Repeat("r2", 2, 100, 60000, seed=7, limit=5),
            ts.Repeat("r4", 4, 0, 0x7fffffff, seed=99, limit=13, split_to_cores=False),
            ts.Var("a", 1, "inc", 0, 4, step=3, init=2, next_var="b"),
            ts.Var("b", 1, "dec", 10, 12, next_var="c"),
            ts.Repeat("c", 1, 0, 200, seed=3, limit=2),
            ts.Write("r2", 34), ts.Write("r4", 46), ts.Write("a", 50), ts.Write("b", 51),
            ts.Write("c", 52), ts.FixHw(14, 34, "udp")])
        # the multi-burst mode's count: 5 bursts of 20
        self.same(self.frames("repeat_chain.py", 100), ts.frames(bytes(pkt), prog, 100))

    def test_trimmed_sizes(self):
        l2, l3, l4 = Ether(src=SRC, dst=DST), IP(src="16.0.0.1", dst="48.0.0.1"), \
            UDP(dport=12, sport=1025)
        base = l2 / l3 / l4 / (b"\x55" * (300 - len(l2 / l3 / l4)))
        for op in ("inc", "random"):
            prog = ts.Program([
                ts.Var("fv", 2, op, 60, 300), ts.Trim("fv"),
                ts.Write("fv", 16, add=-14), ts.FixIpv4(14), ts.Write("fv", 38, add=-34),
                ts.FixHw(14, 34, "udp")], random_seed=5)
            got = self.frames("trim_sizes.py", 600, stream="trim-" + op)
            self.same(got, ts.frames(bytes(base), prog, 600))
            self.assertEqual(min(map(len, got)), 60)
            self.assertEqual(max(map(len, got)), 300)

    def test_cache(self):
        pkt = Ether(src=SRC, dst=DST) / IP(dst="48.0.0.1") / UDP(dport=12, sport=1025) / \
            (b"z" * 20)
        prog = ts.Program([
            ts.Var("src", 4, "random", ip("10.0.0.1"), ip("10.0.255.254")),
            ts.Write("src", 26), ts.FixIpv4(14)], random_seed=3, cache=17)
        got = self.frames("cached.py", 100)
        self.same(got, ts.frames(bytes(pkt), prog, 100), fixed=False)
        self.assertEqual(got[:17], got[17:34])

    def test_ipv6_and_icmpv6(self):
        udp = Ether(src=SRC, dst=DST) / IPv6(src="2001:db8::1", dst="2001:db8::2") / \
            UDP(sport=1, dport=2) / (b"q" * 10)
        prog = ts.Program([ts.Var("lo", 4, "inc", 1, 1000, step=7),
                           ts.Write("lo", 34), ts.FixHw(14, 54, "udp")])
        self.same(self.frames("ipv6.py", 300, stream="udp6"),
                  ts.frames(bytes(udp), prog, 300))
        icmp = Ether(src=SRC, dst=DST) / IPv6(src="2001:db8::1", dst="2001:db8::3") / \
            ICMPv6EchoRequest(id=1, seq=1)
        prog = ts.Program([ts.Var("id", 2, "random", 1, 60000), ts.Write("id", 58),
                           ts.FixIcmpv6(14, 54)], random_seed=9)
        self.same(self.frames("ipv6.py", 300, stream="icmp6"),
                  ts.frames(bytes(icmp), prog, 300))


class Streams(TrexCase):
    """Packets, MACs, modes, rates and chains in the stream file."""

    def test_static_stack_and_bytes(self):
        text, _ = self.imported("static.py")
        self.assertIn("stack:", text)   # the TCP one is a stack
        self.assertIn("frame:", text)   # the one with IPv4 options is bytes
        a = Ether(src="00:11:22:33:44:55", dst="66:77:88:99:aa:bb") / Dot1Q(vlan=7, prio=5) / \
            IP(src="10.1.1.1", dst="10.2.2.2", ttl=33, tos=0xb8, flags="DF") / \
            TCP(sport=1234, dport=80, flags="PA", seq=1000, ack=2000, window=512) / \
            (b"hello" * 20)
        b = Ether(src=SRC, dst=DST) / IP(src="10.1.1.1", dst="10.2.2.2",
                                         options=IPOption_NOP()) / UDP() / (b"\x01" * 30)
        c = Ether(src=SRC, dst=DST) / IP() / UDP()
        for name, pkt in (("stack", a), ("options", b), ("short", c)):
            self.same(self.frames("static.py", 3, stream=name), [bytes(pkt)] * 3)

    def test_macs_from_options(self):
        got = self.frames("syn_flood.py", 1, "--src-mac", "02:aa:bb:cc:dd:ee",
                          "--dst-mac", "02:11:22:33:44:55", direct=True)
        self.assertEqual(got[0][:12].hex(), "021122334455" + "02aabbccddee")

    def test_modes_rates_isg_chains(self):
        text, _ = self.imported("chain.py")
        lines = [ln.split("#")[0].strip() for ln in text.splitlines()]
        # a single burst, then a multi-burst, then back to the first, twice
        self.assertIn("loops: 2", lines)
        self.assertIn("count: 10", lines)
        self.assertIn("count: 30", lines)
        self.assertIn("bursts: {frames: 10, gap: 50us}", lines)
        self.assertIn("isg: 20us", lines)
        self.assertIn("next: next", lines)
        self.assertIn("next: first", lines)
        self.assertIn("rate: 1 Gbps L1".replace("1 Gbps", "1000000000 bps"), lines)
        self.assertIn("rate: 500000 bps L2", lines)
        self.assertIn("rate: 25%", lines)
        # the stream file says so to wirerate check
        self.run_wr("check", os.path.join(PROFILES, "chain.py"))

    def test_stale_checksum_warning_and_fix(self):
        text, err = self.imported("syn_flood.py")
        self.assertIn("syn_flood.py:14: STLVmWrFlowVar ip_src varies IP.src (offset 26) "
                      "under the TCP checksum", err)
        got = self.frames("syn_flood.py", 50, "--fix-checksums", direct=True)
        for g in got:
            q = Ether(g)
            q[IP].chksum = None
            q[TCP].chksum = None
            self.assertEqual(g, bytes(q))  # Scapy's own checksums


def mac_low(base, low):
    """A MAC whose 32 low bits are @p low (mod 2^32), its first two bytes @p base's."""
    head = bytes.fromhex(base.replace(":", ""))[:2]
    return ":".join(f"{b:02x}" for b in head + (low & 0xFFFFFFFF).to_bytes(4, "big"))


def checksums_right(frame):
    """The frame with its IPv4 header checksum recomputed by Scapy."""
    q = Ether(frame)
    q[IP].chksum = None
    return bytes(q)


class HltStreams(TrexCase):
    """TRex's HLT API (STLHltStream): the frames each parameter describes, by TRex's value
    rule for a range (doc/trex.md: base + (k x step mod (count - 1) x step + 1), a
    decrement likewise downwards), decoded by Scapy."""

    def test_ranges_and_direction(self):
        for port, src, mac, dst in ((0, "10.0.0.1", "00:00:c0:a8:00:03", "10.9.0.200"),
                                    (1, "10.9.0.200", "02:00:00:00:00:22", "10.0.0.1")):
            out = os.path.join(self.tmp, f"ranges{port}.yaml")
            self.run_wr("import-trex", os.path.join(PROFILES, "hlt_ranges.py"), "-p",
                        str(port), "-o", out, "-q")
            pcap = os.path.join(self.tmp, f"ranges{port}.pcap")
            self.run_wr("dump", out, "--count", "300", "--pcap", pcap)
            got = read_pcap(pcap)
            self.assertEqual(len(got), 300)
            first = Ether(got[0])
            for k, g in enumerate(got):
                p = Ether(g)
                self.assertEqual(len(g), 124, k)
                self.assertEqual(p.src, mac_low(mac, int(mac.replace(":", "")[4:], 16) +
                                                2 * k % 9), k)
                self.assertEqual(p.dst, "00:00:5e:00:01:01" if port == 0 else
                                 "02:00:00:00:00:33")
                self.assertEqual(p[Dot1Q].vlan, 100 + k % 4, k)
                self.assertEqual((p[Dot1Q].prio, p[Dot1Q].id), (1, 1))  # TRex's defaults
                up, down = (k % 10, 3 * k % 19)
                want_src = ipaddress.IPv4Address(src) + up if port == 0 else \
                    ipaddress.IPv4Address(src) - down
                want_dst = ipaddress.IPv4Address(dst) - down if port == 0 else \
                    ipaddress.IPv4Address(dst) + up
                self.assertEqual((p[IP].src, p[IP].dst), (str(want_src), str(want_dst)), k)
                self.assertEqual((p[UDP].sport, p[UDP].dport), (1000 + k % 6, 53), k)
                self.assertEqual(checksums_right(g), g, k)              # fixed by TRex
                self.assertEqual(p[UDP].chksum, first[UDP].chksum, k)   # left stale by TRex
                self.assertEqual(bytes(p[UDP].payload), b"!" * (124 - 46))

    def test_kinds(self):
        text, _ = self.imported("hlt_kinds.py", "-q")
        lines = [ln.split("#")[0].strip() for ln in text.splitlines()]
        # imix by packets: 7:4:1 of 120 pps, the sizes with FCS as TRex's HLT gives them
        for name, size, rate in (("s0", 64, 70), ("s1", 570, 40), ("s2", 1518, 10)):
            self.assertIn(f"rate: {rate} pps", lines)
            got = self.frames("hlt_kinds.py", 3, stream=name)
            want = Ether(src="00:00:01:00:00:01", dst="00:00:00:00:00:00") / \
                IP(src="16.0.0.1", dst="48.0.0.1", id=0) / UDP(sport=1024, dport=80)
            want = want / (b"!" * (size - 4 - len(want)))
            self.same(got, [bytes(want)] * 3)
        # sizes that grow by 7 from 66 (296 is never reached: 290 + 7 wraps) and shrink
        # by 1 from 196 to 60 (without FCS)
        for name, first, last, lens in (("s3", 66, 290, lambda k: 66 + 7 * k % 231),
                                        ("s4", 60, 196, lambda k: 196 - k % 137)):
            got = self.frames("hlt_kinds.py", 500, stream=name)
            for k, g in enumerate(got):
                p = Ether(g)
                self.assertEqual(len(g), lens(k), (name, k))
                self.assertEqual(p[IP].len, len(g) - 14)
                self.assertEqual(p[UDP].len, len(g) - 34)
                self.assertEqual(checksums_right(g), g, (name, k))
            self.assertEqual((min(map(len, got)), max(map(len, got))), (first, last))
        # TCP over IPv6: the 32 low bits of each address vary (and wrap there)
        got = self.frames("hlt_kinds.py", 100, stream="s5")
        for k, g in enumerate(got):
            p = Ether(g)
            self.assertEqual(p[IPv6].src, str(ipaddress.IPv6Address("2001:db8::10") + k % 9))
            low = (0xfffffffe + k % 4) & 0xFFFFFFFF
            self.assertEqual(p[IPv6].dst, str(ipaddress.IPv6Address(
                (int(ipaddress.IPv6Address("2001:db8:1::")) | low))), k)
            self.assertEqual((p[TCP].sport, p[TCP].dport), (4000, 443 - 10 * k % 21), k)
        # a multi-burst of TCP over IPv4: DSCP, TTL, and TRex's one flag (SYN of SYN+ACK)
        self.assertIn("count: 15", lines)
        self.assertIn("bursts: {frames: 5, gap: 100us}", lines)
        want = Ether(src="00:00:01:00:00:01", dst="00:00:00:00:00:00") / \
            IP(src="0.0.0.0", dst="192.0.0.1", tos=46 << 2, ttl=9, id=0) / \
            TCP(sport=1024, dport=80, seq=1, ack=1, flags="S", window=4069)
        want = want / (b"!" * (76 - len(want)))
        self.same(self.frames("hlt_kinds.py", 4, stream="s6"), [bytes(want)] * 4)


class FlowStatsAndOldNames(TrexCase):
    """TRex's flow statistics as wirerate's signatures, load_pcap, old names, many
    variables."""

    def test_flow_stats_signatures(self):
        text, _ = self.imported("flow_stats.py")
        lines = [ln.split("#")[0].strip() for ln in text.splitlines()]
        self.assertEqual(lines.count("latency: loss"), 2)    # STLFlowStats, STLTaggedPktGroup
        self.assertEqual(lines.count("latency: true"), 1)    # STLFlowLatencyStats
        for name, magic in (("counted", b"WRsl"), ("timed", b"WRsg"), ("tagged", b"WRsl")):
            got = self.frames("flow_stats.py", 5, stream=name)
            seqs = []
            for g in got:
                sig = bytes(Ether(g)[UDP].payload)
                self.assertEqual(sig[:4], magic, name)
                seqs.append(int.from_bytes(sig[8:16], "big"))
            self.assertEqual(seqs, list(range(5)), name)
        self.run_wr("check", os.path.join(PROFILES, "flow_stats.py"))

    def test_load_pcap(self):
        cap = os.path.join(self.tmp, "cap.pcap")
        pkts = [Ether(src="00:11:11:11:11:11", dst="00:22:22:22:22:22") /
                IP(src="1.1.1.1", dst="2.2.2.2") / UDP(sport=5, dport=6) / Raw(b"a" * n)
                for n in (20, 200, 60)]
        for p, t in zip(pkts, (100.0, 100.000250, 100.001250)):
            p.time = t
        wrpcap(cap, pkts)
        ng = os.path.join(self.tmp, "cap.pcapng")
        wrpcapng(ng, pkts)
        for opts, isgs in ((["--loop_count", "3"], [None, "250us", "1000us"]),
                           (["--ipg_usec", "10", "--loop_count", "0"], ["10us"] * 3)):
            if opts[0] == "--loop_count":   # the capture's own gaps, from pcapng too
                text, _ = self.imported("load_pcap.py", "-t", f"--pcap {ng} --loop_count 3")
                self.assertEqual([ln.split("#")[0].strip() for ln in text.splitlines()
                                  if ln.strip().startswith("isg:")],
                                 ["isg: 250us", "isg: 1000us"])
            text, _ = self.imported("load_pcap.py", "-t", " ".join(["--pcap", cap] + opts))
            lines = [ln.split("#")[0].strip() for ln in text.splitlines()]
            self.assertIn(f"loops: {opts[-1]}", lines)
            self.assertEqual([ln for ln in lines if ln.startswith("next:")],
                             ["next: next", "next: next", "next: first"])
            self.assertEqual([ln for ln in lines if ln.startswith("isg:")],
                             [f"isg: {i}" for i in isgs if i])
            self.assertEqual(lines.count("count: 1"), 3)
        for i, p in enumerate(pkts):
            got = self.frames("load_pcap.py", 1, "-t", f"--pcap {cap}", stream=str(i + 1))
            want = bytes(p)
            self.assertEqual(got, [bytes.fromhex(DST.replace(":", "") + SRC.replace(":", ""))
                                   + want[12:]])

    def test_old_names_and_trex_module_exports(self):
        head = bytes.fromhex("0200000000020200000000010800")
        got = self.frames("old_names.py", 100)
        for k, g in enumerate(got):
            want = Ether(head + bytes(IP(src="10.0.0.1", dst="10.0.0.2", id=1 + 4 * k % 30) /
                                      UDP(sport=7, dport=9) / (b"o" * 20)) + b"\0\x07")
            raw = bytearray(bytes(want))
            raw[40:42] = g[40:42]            # the UDP checksum as the profile's bytes hold it
            self.assertEqual(g, bytes(raw), k)
            self.assertEqual(checksums_right(g), g, k)

    def test_twenty_variables(self):
        pkt = Ether(src=SRC, dst=DST) / IP(src="16.0.0.1", dst="48.0.0.1") / \
            UDP(sport=1500, dport=1500) / (b"\xff" * 80)
        ins, writes, off = [], [], 42
        for i in range(20):
            size = (1, 2, 4)[i % 3]
            ins.append(ts.Var(f"v{i}", size, "inc" if i % 2 else "dec", i, i * 7 + 5,
                              step=1 + i % 4))
            writes.append(ts.Write(f"v{i}", off))
            off += size
        got = self.frames("many_vars.py", 400)
        self.same(got, ts.frames(bytes(pkt), ts.Program(ins + writes), 400), fixed=False)


class ProfileOutput(TrexCase):
    """What a profile prints never mixes with the stream file wirerate reads."""

    def test_prints_go_to_stderr(self):
        path = os.path.join(PROFILES, "prints.py")
        p = self.run_wr("import-trex", path)
        text, _ = self.imported("prints.py")
        self.assertEqual(p.stdout, text)      # the stream file only, as -o writes it
        for said in ("loading prints.py", "version: 2", "register()", "P() made",
                     "written below print()"):
            self.assertIn(said, p.stderr)
        self.run_wr("check", path)
        pkt = Ether(src=SRC, dst=DST) / IP(src="16.0.0.1", dst="48.0.0.1") / \
            UDP(sport=1025, dport=12) / (b"p" * 30)
        self.same(self.frames("prints.py", 5), [bytes(pkt)] * 5)


class ScapyClient(TrexCase):
    """Streams from Scapy packets and Scapy field names (the Python client's add_stream),
    saved as a stream file and dumped by wirerate."""

    def dump_items(self, streams, n):
        sys.path.insert(0, os.path.join(ROOT, "python"))
        from wirerate.client import _stream_file
        from wirerate.pktstream import stream_items

        added = [(name, [("name", name, "")] + stream_items(pkt, vary))
                 for name, pkt, vary in streams]
        path = os.path.join(self.tmp, "client.yaml")
        with open(path, "w") as f:
            f.write(_stream_file(added))
        out = {}
        for name, _, _ in streams:
            pcap = os.path.join(self.tmp, name + ".pcap")
            self.run_wr("dump", path, "--count", str(n), "--pcap", pcap, "--stream", name)
            out[name] = read_pcap(pcap)
        with open(path) as f:
            return f.read(), out

    def test_fields_by_scapy_name(self):
        from scapy.contrib.mpls import MPLS

        v6 = Ether(src=SRC, dst=DST) / IPv6(src="2001:db8::1", dst="2001:db8::2") / \
            UDP(sport=7, dport=53) / (b"q" * 20)
        mpls = Ether(src=SRC, dst=DST) / MPLS(label=100, s=0) / MPLS(label=200) / \
            IP(src="10.0.0.1", dst="10.0.0.2") / UDP(sport=1, dport=2) / (b"m" * 10)
        opts = Ether(src=SRC, dst=DST) / IP(src="10.0.0.1", dst="10.0.0.2",
                                            options=IPOption_NOP()) / UDP() / (b"o" * 30)
        text, got = self.dump_items([
            ("v6", v6, {"IPv6.src": {"inc": {"from": "2001:db8::1", "to": "2001:db8::ff",
                                             "step": 2}},
                        "UDP.sport": {"list": [10, 20, 30]}}),
            ("mpls", mpls, {"MPLS:1.label": {"list": [300, 400, 500]}}),
            ("opts", opts, {"IP.src": {"dec": {"from": "10.0.0.9", "to": "10.0.0.1"}}}),
        ], 300)
        self.assertEqual(text.count("stack:"), 2)  # IPv6/UDP and MPLS are stacks
        self.assertIn("frame:", text)               # IPv4 options are bytes
        for k in range(300):
            want = v6.copy()
            want[IPv6].src = str(ipaddress.IPv6Address("2001:db8::1") + 2 * (k % 128))
            want[UDP].sport = [10, 20, 30][k % 3]
            want[UDP].chksum = None
            self.assertEqual(got["v6"][k], bytes(want), k)
            want = mpls.copy()
            want[MPLS:2].label = [300, 400, 500][k % 3]
            self.assertEqual(got["mpls"][k], bytes(want), k)
            want = opts.copy()
            want[IP].src = str(ipaddress.IPv4Address("10.0.0.9") - k % 9)
            want[IP].chksum = None
            want[UDP].chksum = None
            self.assertEqual(got["opts"][k], bytes(want), k)


    def test_macs_left_to_the_port(self):
        """add_stream and import-trex have one rule for an Ether() that leaves its MACs
        unset: they are the port's (eth: port), not this host's interface's or gateway's
        as Scapy resolves them; both give the same frames, a stack and bytes alike."""
        packets = {
            "bare": "Ether() / IP(src='10.0.0.1', dst='192.0.2.1') / UDP(dport=53) / (b'x' * 30)",
            "half": "Ether(dst='00:11:22:33:44:55') / IP(src='10.0.0.1', dst='10.0.0.2') / "
                    "UDP() / (b'h' * 30)",
            "opts": "Ether() / IP(src='10.0.0.1', dst='10.0.0.2', options=IPOption_NOP()) / "
                    "UDP() / (b'o' * 30)",
        }
        ns = {"Ether": Ether, "IP": IP, "UDP": UDP, "IPOption_NOP": IPOption_NOP}
        text, client = self.dump_items([(n, eval(e, ns), None) for n, e in packets.items()], 2)
        self.assertEqual(text.count("src: port"), 3, text)
        self.assertEqual(text.count("dst: port"), 2, text)
        profile = os.path.join(self.tmp, "macs.py")
        with open(profile, "w") as f:
            f.write("from trex.stl.api import *\n\n\nclass P:\n"
                    "    def get_streams(self, **kw):\n        return [\n")
            for n, e in packets.items():
                f.write(f"            STLStream(name={n!r}, packet=STLPktBuilder(pkt={e}), "
                        "mode=STLTXCont()),\n")
            f.write("        ]\n\n\ndef register():\n    return P()\n")
        # Converted once (Python with Scapy each time), each stream dumped from that file.
        conv = os.path.join(self.tmp, "macs.yaml")
        self.run_wr("import-trex", profile, "-o", conv)
        for n in packets:
            out = os.path.join(self.tmp, f"trex-{n}.pcap")
            self.run_wr("dump", conv, "--count", "2", "--pcap", out, "--stream", n)
            self.assertEqual(read_pcap(out), client[n], n)
            self.assertEqual(client[n][0][6:12], bytes.fromhex(SRC.replace(":", "")), n)
        self.assertEqual(client["bare"][0][:6], bytes.fromhex(DST.replace(":", "")))
        self.assertEqual(client["half"][0][:6], bytes.fromhex("001122334455"))
        # Bytes varied by fields: cannot take the port's MACs: said, not sent with others.
        from wirerate.pktstream import stream_items
        from wirerate.trex.errors import TRexError
        with self.assertRaisesRegex(TRexError, r"give Ether\(src=\.\.\., dst=\.\.\.\)"):
            stream_items(eval(packets["opts"], ns), {"IP.src": {"list": ["10.0.0.3"]}})


class BadProfiles(TrexCase):
    """One line, the profile's file and line, exit status 2, no output written."""

    def bad(self, name, line, words):
        out = os.path.join(self.tmp, "never.yaml")
        path = os.path.join(BAD, name)
        p = self.run_wr("import-trex", path, "-o", out, check=2)
        lines = p.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertTrue(lines[0].startswith(f"wirerate: {path}:{line}: "), lines[0])
        for w in words:
            self.assertIn(w, lines[0])
        self.assertFalse(os.path.exists(out))
        # the same line where a stream file goes
        p = self.run_wr("check", path, check=2)
        self.assertEqual(p.stderr.strip().splitlines(), lines)

    def test_syntax_error(self):
        self.bad("syntax.py", 7, ["syntax error"])

    def test_no_register(self):
        self.bad("no_register.py", 11, ["no register()"])

    def test_unknown_instruction(self):
        self.bad("unknown_instruction.py", 9, ["STLVmFlowVarNotAThing"])

    def test_written_before_declared(self):
        self.bad("write_before_declare.py", 10, ["written before it is declared",
                                                 "line 12"])

    def test_offset_past_packet(self):
        self.bad("offset_past.py", 11, ["offset 60 + 4 bytes is past the packet's 60 bytes"])

    def test_unmappable(self):
        self.bad("flow_stats.py", 13, ["STLFlowLatencyStats", "sent as bytes (frame:",
                                       "signature in a stack stream"])
        self.bad("hlt_bad.py", 8, ["STLHltStream: l3_protocol 'ipx': expected ipv4 or ipv6"])
        self.bad("fix_before_write.py", 13, ["after STLVmFixIpv4 (line 12)"])


if __name__ == "__main__":
    unittest.main()
