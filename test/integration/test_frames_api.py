# SPDX-License-Identifier: BSD-3-Clause
"""Frames decoded by the server (streams.frame, capture.open/read/frame: doc/api.md) against
decoders we did not write: a mixed capture made by Scapy (Ethernet/IPv4/UDP, TCP, 802.1Q,
802.1ad+802.1Q, IPv6/ICMPv6, ARP, MPLS, GRE, VXLAN, a frame cut inside its IPv4 header, an
unknown EtherType) uploaded with capture.open lists the records, lengths and protocol chains
`tshark -r` gives; every field the decode shows occupies exactly the bits tshark's `-T json
-x` `_raw` positions say (where tshark has that field) and has its value; the filter counts
what tcpdump counts with the same expression; streams.frame's frame N is `wirerate dump`'s
frame N byte for byte, and its fields are where tshark finds them in that dump; bad inputs are
one line each and the server answers after them."""

import base64
import json
import os
import random
import shutil
import socket
import struct
import subprocess
import time
import unittest

from wrtest import WIRERATE, pcap_frames
from test_server import ServerCase
import wirerate  # noqa: E402  (test_server put python/ on the path)
from wirerate import RpcError  # noqa: E402

try:
    from scapy.all import ARP, Dot1AD, Dot1Q, Ether, GRE, ICMPv6EchoRequest, IP, IPv6, Raw, TCP, UDP, wrpcap
    from scapy.contrib.mpls import MPLS
except ImportError:  # Debian's python3-scapy is under /usr/bin/python3
    Ether = None

# Our layer -> the names tshark gives that layer (an 802.1ad S-tag is ieee8021ad).
TS_LAYER = {"eth": ("eth",), "vlan": ("vlan", "ieee8021ad"), "mpls": ("mpls",), "arp": ("arp",),
            "ipv4": ("ip",), "ipv6": ("ipv6",), "udp": ("udp",), "tcp": ("tcp",),
            "icmp": ("icmp",), "icmp6": ("icmpv6",), "gre": ("gre",), "vxlan": ("vxlan",),
            "geneve": ("geneve",), "gtpu": ("gtp",), "sctp": ("sctp",)}
TS_NAMES = {n for v in TS_LAYER.values() for n in v}
# Our field -> tshark's field ("{L}": the tshark layer's name; a list: the first present).
TS_FIELD = {
    "eth.dst": "eth.dst", "eth.src": "eth.src", "eth.type": "eth.type",
    "vlan.pcp": "{L}.priority", "vlan.dei": "{L}.dei", "vlan.id": "{L}.id",
    "vlan.type": ["{L}.etype", "ieee8021ah.etype"],
    "ipv4.dscp": "ip.dsfield.dscp", "ipv4.ecn": "ip.dsfield.ecn", "ipv4.length": "ip.len",
    "ipv4.id": "ip.id", "ipv4.df": "ip.flags.df", "ipv4.ttl": "ip.ttl", "ipv4.proto": "ip.proto",
    "ipv4.checksum": "ip.checksum", "ipv4.src": "ip.src", "ipv4.dst": "ip.dst",
    "ipv6.tc": "ipv6.tclass", "ipv6.flow": "ipv6.flow", "ipv6.length": "ipv6.plen",
    "ipv6.next": "ipv6.nxt", "ipv6.hop": "ipv6.hlim", "ipv6.src": "ipv6.src", "ipv6.dst": "ipv6.dst",
    "udp.src": "udp.srcport", "udp.dst": "udp.dstport", "udp.length": "udp.length",
    "udp.checksum": "udp.checksum",
    "tcp.src": "tcp.srcport", "tcp.dst": "tcp.dstport", "tcp.seq": "tcp.seq_raw",
    "tcp.ack": "tcp.ack_raw", "tcp.window": "tcp.window_size_value", "tcp.checksum": "tcp.checksum",
    "tcp.urg": "tcp.urgent_pointer",
    "icmp6.type": "icmpv6.type", "icmp6.code": "icmpv6.code", "icmp6.checksum": "icmpv6.checksum",
    "icmp6.id": "icmpv6.echo.identifier", "icmp6.seq": "icmpv6.echo.sequence_number",
    "arp.op": "arp.opcode", "arp.sha": "arp.src.hw_mac", "arp.spa": "arp.src.proto_ipv4",
    "arp.tha": "arp.dst.hw_mac", "arp.tpa": "arp.dst.proto_ipv4",
    "mpls.label": "mpls.label", "mpls.tc": "mpls.exp", "mpls.s": "mpls.bottom", "mpls.ttl": "mpls.ttl",
    "gre.proto": "gre.proto", "gre.key": "gre.key", "gre.seq": "gre.sequence_number",
    "gre.c": "gre.flags.checksum", "gre.checksum": "gre.checksum",
    "vxlan.vni": "vxlan.vni",
}
# VXLAN's header as RFC 7348 writes it (Scapy 2.5 binds VXLAN-GPE's next protocol field).
VXLAN_HDR = bytes.fromhex("080000000000" "2a00")


def mixed_frames():
    e = Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02")
    cut = bytes(e / IP(src="10.0.0.7", dst="10.1.0.7") / UDP(sport=11, dport=12) / Raw(b"f" * 30))
    return [
        e / IP(src="10.0.0.1", dst="10.1.0.1", tos=0xb9) / UDP(sport=1024, dport=5000) / Raw(b"x" * 18),
        e / IP(src="10.0.0.1", dst="10.1.0.1", flags="DF") / TCP(sport=1025, dport=80, flags="S", seq=1000),
        e / Dot1Q(vlan=10, prio=3) / IP(src="10.0.0.2", dst="10.1.0.2") / UDP(sport=1, dport=2) / Raw(b"a" * 10),
        e / Dot1AD(vlan=100, prio=5) / Dot1Q(vlan=200, id=1) / IP(src="10.0.0.3", dst="10.1.0.3") /
        UDP(sport=3, dport=4) / Raw(b"b" * 10),
        e / IPv6(src="2001:db8::1", dst="2001:db8::2", tc=0x28, fl=0x12345) / ICMPv6EchoRequest(id=7, seq=9),
        Ether(src="02:00:00:00:00:01", dst="ff:ff:ff:ff:ff:ff") /
        ARP(psrc="10.0.0.1", pdst="10.0.0.2", hwsrc="02:00:00:00:00:01"),
        Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02", type=0x8847) / MPLS(label=100, cos=2, s=1, ttl=63) /
        IP(src="10.0.0.4", dst="10.1.0.4") / UDP(sport=5, dport=6) / Raw(b"c" * 8),
        e / IP(src="10.0.0.5", dst="10.1.0.5") / GRE() / IP(src="192.168.0.1", dst="192.168.0.2") /
        UDP(sport=7000, dport=8000) / Raw(b"d" * 8),
        e / IP(src="10.0.0.6", dst="10.1.0.6") / UDP(sport=49152, dport=4789) / Raw(VXLAN_HDR) /
        Ether(src="02:00:00:00:01:01", dst="02:00:00:00:01:02") / IP(src="172.16.0.1", dst="172.16.0.2") /
        UDP(sport=9, dport=10) / Raw(b"e" * 8),
        Ether(cut[:30]),                                       # cut inside its IPv4 header
        Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02", type=0x88b5) / Raw(b"\x01" * 46),
        # GRE with its checksum, key and sequence number: where the module's layout puts them
        e / IP(src="10.0.0.8", dst="10.1.0.8") /
        GRE(chksum_present=1, key_present=1, seqnum_present=1, key=77, seqence_number=5) /
        IP(src="192.168.3.1", dst="192.168.3.2") / UDP(sport=11, dport=12) / Raw(b"g" * 8),
    ]


def big_pcap(path, n):
    """@n records (nanosecond pcap): Ethernet/IPv4/UDP, wire length 64, captured 42 (the
    headers), record i at i µs, from source port 1000 + i % 1000; every 10th to port 53."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b23c4d, 2, 4, 0, 0, 65535, 1))
        for i in range(n):
            ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 50, i & 0xffff, 0, 64, 17, 0,
                             bytes([10, 0, 0, 1]), bytes([10, 0, (i >> 8) & 255, i & 255]))
            udp = struct.pack("!HHHH", 1000 + i % 1000, 53 if i % 10 == 0 else 2000, 30, 0)
            fr = b"\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x08\x00" + ip + udp
            f.write(struct.pack("<IIII", i // 1000000, (i % 1000000) * 1000, len(fr), 64) + fr)


def pairs(o):
    return o  # json object_pairs_hook: keep repeated keys (a VXLAN frame has two "eth")


def tshark_json(path):
    out = subprocess.run(["tshark", "-n", "-r", path, "-T", "json", "-x"], capture_output=True,
                         text=True, check=True).stdout
    return [dict(dict(p)["_source"])["layers"] for p in json.loads(out, object_pairs_hook=pairs)]


def ts_layer_list(layers):
    """tshark's protocol layers of one frame, in order, those we register."""
    return [(k, v) for k, v in layers if k in TS_NAMES]


def find_raw(obj, name):
    """tshark's [hex, offset, length, bitmask, type] of field @name in a layer's tree."""
    for k, v in obj:
        if k == name + "_raw" and isinstance(v, list) and len(v) == 5 and isinstance(v[1], int):
            return v
        if isinstance(v, list) and v and isinstance(v[0], tuple):
            r = find_raw(v, name)
            if r is not None:
                return r
    return None


def find_val(obj, name):
    for k, v in obj:
        if k == name and isinstance(v, str):
            return v
        if isinstance(v, list) and v and isinstance(v[0], tuple):
            r = find_val(v, name)
            if r is not None:
                return r
    return None


def ts_bits(raw):
    off, n, mask = raw[1], raw[2], raw[3]
    if mask == 0:
        return set(range(off * 8, (off + n) * 8))
    # The mask is as wide as the field's type, which may be wider than the length tshark
    # gives (802.1ad's priority: 1 byte, mask 0xe000).
    w = max(n * 8, (mask.bit_length() + 7) // 8 * 8)
    return {off * 8 + i for i in range(w) if mask >> (w - 1 - i) & 1}


def our_bits(f):
    start = f["off"] * 8 + f["bit"]
    return set(range(start, start + f["bits"]))


def same_value(ours, theirs):
    for a, b in ((ours, theirs),):
        try:
            return int(a, 0) == int(b, 0)
        except ValueError:
            return a.lower() == b.lower()


class FramesApi(ServerCase):
    """The decode against tshark, Scapy, tcpdump and `wirerate dump`."""

    def setUp(self):
        super().setUp()
        if Ether is None:
            self.skipTest("needs Scapy (Debian's python3-scapy, under /usr/bin/python3)")
        for tool in ("tshark", "tcpdump"):
            if shutil.which(tool) is None:
                self.skipTest(f"needs {tool}")

    def compare_fields(self, dec, ts_layers, where):
        """Every field of @dec in a layer tshark has: the same bits and value.
        @return how many fields were compared."""
        ours = [y for y in dec["layers"] if y["proto"] != "payload"]
        theirs = ts_layer_list(ts_layers)
        self.assertEqual(len(ours), len(theirs),
                         f"{where}: {[y['proto'] for y in ours]} vs tshark {[n for n, _ in theirs]}")
        n = 0
        for y, (tname, tobj) in zip(ours, theirs):
            self.assertIn(tname, TS_LAYER[y["proto"]], f"{where}: our {y['proto']} is tshark's {tname}")
            for f in y["fields"]:
                names = TS_FIELD.get(f["key"])
                if names is None:
                    continue
                names = [x.format(L=tname) for x in (names if isinstance(names, list) else [names])]
                raw = next((r for r in (find_raw(tobj, x) for x in names) if r is not None), None)
                if raw is None:
                    # tshark shows every field of a whole header we name: a miss is ours
                    self.assertTrue(y.get("truncated"), f"{where}: tshark has no {names} for {f}")
                    continue
                self.assertEqual(sorted(our_bits(f)), sorted(ts_bits(raw)),
                                 f"{where}: {f['key']} at {f['off']}+{f['len']} bit {f['bit']}/{f['bits']}, "
                                 f"tshark {names[0]} {raw}")
                val = next(v for v in (find_val(tobj, x) for x in names) if v is not None)
                self.assertTrue(same_value(f["value"], val), f"{where}: {f['key']} {f['value']} vs {val}")
                n += 1
        return n

    def test_capture_like_tshark(self):
        path = self.path("mixed.pcap")
        wrpcap(path, mixed_frames())
        p, sock = self.serve(tag="fa")
        c = wirerate.connect(sock)
        self.addCleanup(c.close)
        with open(path, "rb") as fh:
            data = fh.read()
        # Two parts, as the page sends a large file.
        half = len(data) // 2
        r = c.call("capture.open", name="mixed.pcap", data=base64.b64encode(data[:half]).decode(),
                   part=0, eof=False)
        cid = r["id"]
        st = [x for x in c.call("capture.status")["captures"] if x["id"] == cid][0]
        self.assertEqual(st["state"], "uploading")
        r = c.call("capture.open", name="mixed.pcap", data=base64.b64encode(data[half:]).decode(),
                   part=1, eof=True)
        self.assertEqual((r["id"], r["bytes"], r["frames"]), (cid, len(data), 12))
        st = [x for x in c.call("capture.status")["captures"] if x["id"] == cid][0]
        self.assertEqual((st["state"], st["source"], st["name"], st["written"]),
                         ("done", "upload", "mixed.pcap", 12))
        # capture.fetch gives the file back byte for byte.
        self.assertEqual(base64.b64decode(c.call("capture.fetch", id=cid)["data"]), data)

        ts = tshark_json(path)
        lens = subprocess.run(["tshark", "-n", "-r", path, "-T", "fields", "-e", "frame.len",
                               "-e", "frame.cap_len"], capture_output=True, text=True,
                              check=True).stdout.split("\n")[:-1]
        page = c.call("capture.read", id=cid)
        self.assertEqual((page["total"], page["matched"], len(page["frames"])), (len(ts), len(ts), len(ts)))
        compared = 0
        for k, (row, layers) in enumerate(zip(page["frames"], ts)):
            self.assertEqual(row["n"], k + 1)
            self.assertEqual([str(row["len"]), str(row["caplen"])], lens[k].split("\t"))
            dec = c.call("capture.frame", id=cid, n=k + 1)
            self.assertEqual(dec["hex"], dict(layers)["frame_raw"][0])
            self.assertEqual((dec["summary"], dec["top"]), (row["summary"], row["top"]))
            chain = [y["proto"] for y in dec["layers"] if y["proto"] != "payload"]
            tchain = [n for n, _ in ts_layer_list(layers)]
            self.assertEqual(len(chain), len(tchain), f"frame {k + 1}: {chain} vs tshark {tchain}")
            for ours, theirs in zip(chain, tchain):
                self.assertIn(theirs, TS_LAYER[ours], f"frame {k + 1}: {chain} vs tshark {tchain}")
            # The top protocol: the innermost layer, cut short or not (tshark's
            # frame.protocols names a header the frame ends inside).
            self.assertEqual(row["top"], chain[-1] if chain else None, f"frame {k + 1}")
            compared += self.compare_fields(dec, layers, f"frame {k + 1}")
            # Every field inside its layer, every layer inside the frame.
            for y in dec["layers"]:
                self.assertLessEqual(y["off"] + y["len"], dec["len"])
                for f in y["fields"]:
                    self.assertTrue(y["off"] <= f["off"] and f["off"] + f["len"] <= y["off"] + y["len"], f)
        self.assertGreaterEqual(compared, 100, "too few fields compared with tshark")
        # The cut frame and the unknown EtherType.
        self.assertTrue(c.call("capture.frame", id=cid, n=10).get("truncated"))
        self.assertEqual([y["proto"] for y in c.call("capture.frame", id=cid, n=11)["layers"]],
                         ["eth", "payload"])

        # The filter: libpcap's, so tcpdump counts the same; paged.
        for expr in ("udp", "vlan", "arp or icmp6", "ip6", "mpls", "tcp[tcpflags] & tcp-syn != 0",
                     "ether proto 0x88b5", "not ip"):
            out = self.path("filtered.pcap")
            subprocess.run(["tcpdump", "-r", path, "-w", out, expr], capture_output=True, check=True)
            want = len(pcap_frames(out))
            r = c.call("capture.read", id=cid, filter=expr)
            self.assertEqual((r["total"], r["matched"], len(r["frames"])), (12, want, want), expr)
        r = c.call("capture.read", id=cid, filter="ip", first=2, count=3)
        all_ip = [x["n"] for x in c.call("capture.read", id=cid, filter="ip")["frames"]]
        self.assertEqual([x["n"] for x in r["frames"]], all_ip[2:5])

        # tshark's own decode beside ours, from a child the loop does not wait on: the
        # server answers another client meanwhile.
        d = c.call("capture.frame", id=cid, n=4, tshark=True, _timeout=30)
        t = d["tshark"]["_source"]["layers"]
        self.assertEqual(t["frame_raw"][0], d["hex"])
        self.assertIn("ieee8021ad", t)
        self.assertEqual(c.call("server.info")["name"], "wirerate")
        self.assertIsNone(p.poll())

    STREAMS = """version: 1
streams:
  - name: tagged
    port: 0
    size: 128
    latency: true
    stack:
      - eth: {src: "02:00:00:00:00:01", dst: "02:00:00:00:00:02"}
      - vlan: {id: {inc: {from: 10, to: 12}}, pcp: 3}
      - ipv4: {src: {inc: {from: 10.0.0.1, to: 10.0.0.9}}, dst: 10.1.0.1, dscp: 46, options: [{type: 148, data: "0000"}]}
      - udp: {src: 1024, dst: 5000}
  - name: qinq6
    port: 0
    size: {random: {min: 90, max: 200}}
    stack:
      - eth: {src: "02:00:00:00:00:01", dst: "02:00:00:00:00:02"}
      - vlan: {tpid: 0x88a8, id: 100}
      - vlan: {id: 200, pcp: 5}
      - ipv6: {src: {inc: {from: "2001:db8::1", to: "2001:db8::ff"}}, dst: "2001:db8:1::1", hop: 9}
      - udp: {src: {random: {min: 1000, max: 2000}}, dst: 6000}
  - name: tunnel
    port: 0
    size: 160
    stack:
      - eth: {src: "02:00:00:00:00:01", dst: "02:00:00:00:00:02"}
      - ipv4: {src: 10.0.0.1, dst: 10.0.0.2}
      - gre: {key: 77}
      - ipv4: {src: 192.168.1.1, dst: {list: [192.168.2.1, 192.168.2.2]}}
      - tcp: {src: 4000, dst: 80, flags: 0x12, seq: 5}
  - name: vx
    port: 0
    size: 150
    stack:
      - eth: {src: "02:00:00:00:00:01", dst: "02:00:00:00:00:02"}
      - ipv4: {src: 10.0.0.1, dst: 10.0.0.3}
      - udp: {src: 50000}
      - vxlan: {vni: 4242}
      - eth: {src: "02:00:00:00:01:01", dst: "02:00:00:00:01:02"}
      - ipv4: {src: 172.16.0.1, dst: 172.16.0.2}
      - udp: {src: 9, dst: 10}
"""

    def test_big_capture_pages(self):
        """A 100,000-record file read by pages through the capture's index: the last page,
        a page before it, the last page of a filter (its count as tcpdump's) and the last
        record's bytes are the file's."""
        n = 100000
        path = self.path("big.pcap")
        big_pcap(path, n)
        p, sock = self.serve(tag="fe")
        c = wirerate.connect(sock)
        self.addCleanup(c.close)
        with open(path, "rb") as fh:
            data = fh.read()
        part = 700 << 10
        for k, off in enumerate(range(0, len(data), part)):
            r = c.call("capture.open", name="big.pcap", part=k, eof=off + part >= len(data),
                       data=base64.b64encode(data[off:off + part]).decode())
        self.assertEqual(r["frames"], n)
        cid = r["id"]

        def check(page, recs):
            self.assertEqual([f["n"] for f in page], recs)
            for f in page:
                i = f["n"] - 1
                self.assertEqual((f["len"], f["caplen"], f["top"]), (64, 42, "udp"))
                self.assertAlmostEqual(f["t"], i * 1e-6, delta=1e-9)
                self.assertTrue(f["summary"].startswith(
                    f"10.0.0.1 \u2192 10.0.{(i >> 8) & 255}.{i & 255} ") and
                    f" {1000 + i % 1000} \u2192 {53 if i % 10 == 0 else 2000}" in f["summary"],
                    f["summary"])
        r = c.call("capture.read", id=cid, first=n - 1000, count=1000)
        self.assertEqual((r["total"], r["matched"], r["first"]), (n, n, n - 1000))
        check(r["frames"], list(range(n - 999, n + 1)))
        r = c.call("capture.read", id=cid, first=n - 1001, count=5)   # backwards, by a mark
        check(r["frames"], list(range(n - 1000, n - 995)))
        r = c.call("capture.read", id=cid, first=n, count=5)
        self.assertEqual((r["matched"], r["frames"]), (n, []))
        ts = subprocess.run(["tcpdump", "-nn", "-r", path, "udp dst port 53"], check=True,
                            capture_output=True, text=True).stdout.splitlines()
        for _ in range(2):   # made, then kept
            r = c.call("capture.read", id=cid, filter="udp dst port 53", first=len(ts) - 200,
                       count=1000)
            self.assertEqual((r["total"], r["matched"]), (n, len(ts)))
            check(r["frames"], list(range(n - 1999, n + 1, 10)))
        r = c.call("capture.read", id=cid, filter="udp dst port 2000", first=17, count=3)
        self.assertEqual(r["matched"], n - len(ts))
        check(r["frames"], [20, 22, 23])   # 1, 11, 21, ... go to port 53
        d = c.call("capture.frame", id=cid, n=n)
        self.assertEqual(bytes.fromhex(d["hex"]), data[-42:])
        self.assertEqual(c.call("capture.frame", id=cid, n=1)["hex"], data[24 + 16:24 + 16 + 42].hex())
        self.assertIsNone(p.poll())

    def test_tshark_answer_to_its_asker(self):
        """A client asks for tshark's decode and closes while tshark runs; another connects
        (its connection may take the closed one's memory) and asks its own: it gets its own
        answer and never the first one's, which goes nowhere."""
        path = self.path("mixed.pcap")
        wrpcap(path, mixed_frames())
        p, sock = self.serve(tag="ft")
        c = wirerate.connect(sock)
        self.addCleanup(c.close)
        with open(path, "rb") as fh:
            cid = c.call("capture.open", name="mixed.pcap",
                         data=base64.b64encode(fh.read()).decode())["id"]

        def conn():
            raw = socket.socket(socket.AF_UNIX)
            raw.settimeout(40)
            raw.connect(sock)
            return raw, raw.makefile("rwb")

        def ask(f, rid, n):
            f.write(json.dumps({"jsonrpc": "2.0", "id": rid, "method": "capture.frame",
                                "params": {"id": cid, "n": n, "tshark": True}}).encode() + b"\n")
            f.flush()
        for k in range(3):       # a few times: the memory is taken again, or not
            ra, fa = conn()
            ask(fa, f"a{k}", 2)
            time.sleep(0.05)     # taken in: tshark runs
            fa.close()
            ra.close()
            rb, fb = conn()
            ask(fb, f"b{k}", 3)
            msg = json.loads(fb.readline())
            self.assertEqual(msg["id"], f"b{k}", msg)
            self.assertEqual(msg["result"]["n"], 3)
            self.assertEqual(msg["result"]["tshark"]["_source"]["layers"]["frame_raw"][0],
                             msg["result"]["hex"])
            # The first one's tshark (started earlier) is done by now, or soon.
            rb.settimeout(2)
            with self.assertRaises((socket.timeout, TimeoutError)):
                extra = fb.readline()
                self.fail(f"another client's answer: {extra[:200]}")
            fb.close()
            rb.close()
        self.assertIsNone(p.poll())

    def test_stream_frame_is_dumps(self):
        yaml = self.write("streams.yaml", self.STREAMS)
        count = 4
        dump = self.path("dump.pcap")
        subprocess.run([WIRERATE, "dump", yaml, "--count", str(count), "--pcap", dump],
                       check=True, capture_output=True)
        frames = pcap_frames(dump)
        self.assertEqual(len(frames), 4 * count)
        ts = tshark_json(dump)
        p, sock = self.serve(tag="fb")
        c = wirerate.connect(sock)
        self.addCleanup(c.close)
        with open(yaml) as fh:
            text = fh.read()
        compared = 0
        for i, name in enumerate(("tagged", "qinq6", "tunnel", "vx")):
            for k in range(count):
                d = c.call("streams.frame", yaml=text, stream=name if k % 2 else i, frame=k)
                where = f"{name} frame {k}"
                self.assertEqual(d["hex"], frames[i * count + k].hex(), where)
                self.assertEqual(d["frame"], k)
                compared += self.compare_fields(d, ts[i * count + k], where)
                if name == "tagged":
                    self.assertEqual(d["stream"], {"index": 0, "name": "tagged", "seq": k, "lane": 0})
                    opt = [f for y in d["layers"] for f in y["fields"] if f["key"] == "ipv4.options"][0]
                    self.assertEqual((opt["off"], opt["len"], opt["value"]), (38, 4, "94040000"))
                else:
                    self.assertNotIn("stream", d)
        self.assertGreaterEqual(compared, 150)
        # The loaded streams, without yaml; a seed of its own changes random fields only.
        c.load(text)
        self.assertEqual(c.call("streams.frame", stream="qinq6", frame=2)["hex"], frames[count + 2].hex())
        other = c.call("streams.frame", stream="qinq6", frame=2, seed=12345)["hex"]
        self.assertNotEqual(other, frames[count + 2].hex())
        self.assertEqual(c.call("streams.frame", stream="tunnel", frame=1, seed=12345)["hex"],
                         frames[2 * count + 1].hex())

    def test_port_capture_read(self):
        """A capture of a port (net_ring0: what it sends comes back) read by record: each
        frame of the latency stream named by its signature, the others by none."""
        p, sock = self.serve(vdev="net_ring0", tag="fd")
        c = wirerate.connect(sock)
        self.addCleanup(c.close)
        c.load("""version: 1
streams:
  - name: plain
    port: 0
    size: 80
    count: 30
    rate: 2 kpps
    udp: {src: 1000, dst: 2000}
  - name: marked
    port: 0
    size: 128
    count: 50
    rate: 2 kpps
    latency: true
    udp: {src: 1001, dst: 2001}
  - name: rawl
    port: 0
    size: 96
    count: 20
    rate: 2 kpps
    latency: true
    stack:
      - eth: {type: 0x88b6}
      - raw: {hex: "0001020304050607"}
""")
        cid = c.call("capture.start", port=0, dir="rx")["id"]
        c.call("traffic.start")
        c.call("traffic.wait", timeout=30, _timeout=40)
        st = c.call("capture.status", id=cid)
        self.assertEqual((st["state"], st["source"], st["written"]), ("done", "port", 100))
        r = c.call("capture.read", id=cid, count=1000)
        self.assertEqual((r["total"], r["matched"], len(r["frames"])), (100, 100, 100))
        names = [f["stream"] for f in r["frames"]]
        self.assertEqual((names.count("marked"), names.count("rawl"), names.count(None)),
                         (50, 20, 30))
        self.assertEqual({(f["len"], f["top"]) for f in r["frames"] if f["stream"] == "marked"},
                         {(124, "udp")})
        seqs = sorted(c.call("capture.frame", id=cid, n=f["n"])["stream"]["seq"]
                      for f in r["frames"] if f["stream"] == "marked")
        self.assertEqual(seqs, list(range(50)))
        # The raw layer, which nothing on the wire names, read back by the loaded stream's
        # layers: its 8 bytes after Ethernet, then the signature; laid out as streams.frame
        # lays out the stream's frame of the same seq.
        seqs = []
        for f in (f for f in r["frames"] if f["stream"] == "rawl"):
            d = c.call("capture.frame", id=cid, n=f["n"])
            seqs.append(d["stream"]["seq"])
            b = c.call("streams.frame", stream="rawl", frame=d["stream"]["seq"])
            shape = [(y["proto"], y["off"], y["len"], [x["key"] for x in y["fields"]][:3])
                     for y in d["layers"]]
            self.assertEqual(shape, [(y["proto"], y["off"], y["len"],
                                      [x["key"] for x in y["fields"]][:3]) for y in b["layers"]])
            self.assertEqual([(y["proto"], y["off"], y["len"]) for y in d["layers"]][:2],
                             [("eth", 0, 14), ("raw", 14, 8)], d["layers"])
            self.assertEqual(d["hex"][28:44], "0001020304050607")
            self.assertEqual(d["hex"][:28], b["hex"][:28])
        self.assertEqual(sorted(seqs), list(range(20)))
        r = c.call("capture.read", id=cid, filter="udp dst port 2000", first=10, count=100)
        self.assertEqual((r["matched"], len(r["frames"])), (30, 20))
        self.assertTrue(all(f["stream"] is None for f in r["frames"]))
        self.assertIsNone(p.poll())

    def test_bad_inputs_one_line_each(self):
        p, sock = self.serve(tag="fc")
        c = wirerate.connect(sock)
        self.addCleanup(c.close)
        path = self.path("mixed.pcap")
        wrpcap(path, mixed_frames())
        with open(path, "rb") as fh:
            data = fh.read()
        b64 = lambda b: base64.b64encode(b).decode()  # noqa: E731
        bad = [
            ("streams.frame", {"stream": "s"}, -32002, "no streams loaded"),
            ("streams.frame", {"yaml": "version: 1\nstreams:\n  - name: s\n    bogus: 1\n", "stream": "s"},
             -32000, ":4:5: "),
            ("streams.frame", {"yaml": self.STREAMS, "stream": "nope"}, -32003, "no stream \"nope\""),
            ("streams.frame", {"yaml": self.STREAMS, "stream": 9}, -32003, "no stream 9"),
            ("capture.open", {"name": "x.pcap", "data": "not base64!"}, -32602, "expected base64"),
            ("capture.open", {"name": "x.pcap", "data": b64(b"hello, world")}, -32602, "x.pcap: "),
            ("capture.open", {"name": "cut.pcap", "data": b64(data[:-5])}, -32602, "record 12"),
            ("capture.open", {"name": "y.pcap", "data": b64(data), "part": 3}, -32602, "expected part 0"),
            ("capture.open", {"name": "", "data": b64(data)}, -32602, "name"),
            ("capture.read", {"id": 31}, -32003, "no capture 31"),
            ("capture.frame", {"id": 31, "n": 1}, -32003, "no capture 31"),
        ]
        for method, params, code, words in bad:
            with self.assertRaises(RpcError, msg=f"{method} {params}") as e:
                c.call(method, **params)
            self.assertEqual(e.exception.code, code, e.exception.message)
            self.assertIn(words, e.exception.message)
            self.assertNotIn("\n", e.exception.message)
        self.assertEqual(c.call("streams.frame", yaml=self.STREAMS, stream=0)["frame"], 0)
        with self.assertRaises(RpcError) as e2:
            c.call("streams.frame", yaml="version: 1\nstreams:\n  - name: s\n    bogus: 1\n", stream="s")
        self.assertEqual((e2.exception.data["line"], e2.exception.data["col"]), (4, 5))
        # An upload its client left half-way holds no slot once another one starts.
        a = wirerate.connect(sock, acquire=False)
        a.call("capture.open", name="half.pcap", data=b64(data[:100]), eof=False)
        self.assertEqual([(x["name"], x["state"]) for x in c.call("capture.status")["captures"]],
                         [("half.pcap", "uploading")])
        a.close()
        # A good upload (again until the server has seen that client go: its close
        # and this request race), then reads that are wrong.
        for _ in range(20):
            cid = c.call("capture.open", name="m.pcap", data=b64(data))["id"]
            names = [x["name"] for x in c.call("capture.status")["captures"]]
            if "half.pcap" not in names:
                break
            time.sleep(0.1)
        self.assertNotIn("half.pcap", names)
        for params, code, words in (({"id": cid, "filter": "udpx"}, -32602, "udpx"),
                                    ({"id": cid, "count": 5000}, -32602, "at most 1000")):
            with self.assertRaises(RpcError) as e:
                c.call("capture.read", **params)
            self.assertEqual(e.exception.code, code)
            self.assertIn(words, e.exception.message)
            self.assertNotIn("\n", e.exception.message)
        for n in (0, 13):
            with self.assertRaises(RpcError) as e:
                c.call("capture.frame", id=cid, n=n)
            self.assertEqual(e.exception.code, -32003)
        # Random parameters of every value kind: each call answered, the server up.
        rng = random.Random(36)
        values = [None, True, 0, -1, 1.5, "", "x", "udp", "AAAA", [], ["s"], {}, 2 ** 64, cid, 1,
                  "\u0000", "x" * 3000, b64(data[:40])]
        keys = {"streams.frame": ["yaml", "name", "stream", "frame", "seed"],
                "capture.open": ["name", "data", "part", "eof"],
                "capture.read": ["id", "filter", "first", "count"],
                "capture.frame": ["id", "n"]}
        answered = 0
        raw = socket.socket(socket.AF_UNIX)
        raw.settimeout(10)
        raw.connect(sock)
        f = raw.makefile("rwb")
        for i in range(400):
            method = rng.choice(sorted(keys))
            params = {k: rng.choice(values) for k in keys[method] if rng.random() < 0.7}
            req = {"jsonrpc": "2.0", "id": i, "method": method, "params": params}
            f.write(json.dumps(req).encode() + b"\n")
            f.flush()
            msg = json.loads(f.readline())
            # 2**64 is no JSON number the server's parser takes: a parse error, id null.
            if msg.get("id") is None:
                self.assertEqual(msg["error"]["code"], -32700, (req, msg))
            else:
                self.assertEqual(msg["id"], i, req)
            self.assertTrue("result" in msg or "\n" not in msg["error"]["message"], msg)
            answered += 1
        raw.close()
        self.assertEqual(answered, 400)
        c.call("server.reset")
        cid = c.call("capture.open", name="m.pcap", data=b64(data))["id"]
        # The failed uploads left no capture behind; the server answers.
        names = [x.get("name") for x in c.call("capture.status")["captures"]]
        self.assertEqual(set(names), {"m.pcap"})
        self.assertEqual(c.call("server.info")["name"], "wirerate")
        self.assertIsNone(p.poll())


if __name__ == "__main__":
    unittest.main()
