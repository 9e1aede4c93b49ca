# SPDX-License-Identifier: BSD-3-Clause
"""Per-packet variation, size mixes, reproducibility and pcap output, decoded by tshark and the kernel.

The expected values come from a model written here in Python from the documented contract
(lib/core/model/wr_stream.h, wr_frame.h, wr_rng.h), not from wirerate's code: INC/DEC/LIST sequences,
the PRODUCT odometer (first field in stack order fastest), nginx's smooth weighted round-robin
for size mixes, SplitMix64 + Lemire for RANDOM fields and sizes, and the payload byte functions.
"""

import hashlib
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import unittest
from collections import Counter
from functools import reduce
from math import gcd

from wrtest import WIRERATE, EalCase, WrCase, tshark_fields, wait_for

# ---- the model --------------------------------------------------------------------------------

# The shorthand's fields in stack order (outermost layer first, each protocol's field order): the
# odometer order of `vary: product`, and the RNG tag of each (its index: legacy_tag - 1 in the
# protocol modules' field tables, so files of the first model draw the same values).
FIELD_ORDER = ["eth.src", "eth.dst", "vlan.id", "vlan.pcp", "ipv4.src", "ipv4.dst", "ipv4.id",
               "ipv4.ttl", "ipv4.dscp", "udp.src", "udp.dst"]
RNG_TAG_SIZE = 0x100  # WR_RNG_TAG_SIZE
M64 = (1 << 64) - 1
GAMMA = 0x9e3779b97f4a7c15  # SplitMix64's increment
IMIX = [(64, 7), (594, 4), (1518, 1)]  # simple IMIX, `size: imix`


def mix64(z):
    """SplitMix64's finalizer (Stafford variant 13)."""
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
    return z ^ (z >> 31)


def rng_values(seed, tag, lo, hi, n):
    """Draws 0..n-1 of sub-sequence @tag of @seed mapped onto [lo, hi] (wr_rng.h)."""
    key = mix64(mix64(seed) ^ mix64((tag + GAMMA) & M64))
    rng = hi - lo + 1
    thresh = (2 ** 64 - rng) % rng
    out = []
    for k in range(n):
        h = mix64((key + (k + 1) * GAMMA) & M64)
        m = h * rng
        while m & M64 < thresh:
            h = mix64((h + GAMMA) & M64)
            m = h * rng
        out.append(lo + (m >> 64))
    return out


def seq(mode, a, b=None, step=1):
    """One period of an INC, DEC or LIST field."""
    if mode == "inc":
        return list(range(a, b + 1, step))
    if mode == "dec":
        return list(range(a, b - 1, -step))
    return list(a)


def together(periods, n):
    """`vary: together`: field f takes value k mod period on packet k."""
    return [[vals[k % len(vals)] for k in range(n)] for vals in periods]


def product(periods, n):
    """`vary: product`: an odometer, the first field fastest."""
    cols = [[] for _ in periods]
    for k in range(n):
        q = k
        for i, vals in enumerate(periods):
            cols[i].append(vals[q % len(vals)])
            q //= len(vals)
    return cols


def smooth_wrr(mix):
    """One MIX cycle: nginx's smooth weighted round-robin over weights divided by their GCD."""
    g = reduce(gcd, (w for _, w in mix))
    w = [wt // g for _, wt in mix]
    total = sum(w)
    cur = [0] * len(mix)
    out = []
    for _ in range(total):
        best = 0
        for j in range(len(mix)):
            cur[j] += w[j]
            if cur[j] > cur[best]:
                best = j
        cur[best] -= total
        out.append(mix[best][0])
    return out


def csum_words(b):
    """RFC 1071: the one's-complement sum of 16-bit big-endian words, folded."""
    if len(b) % 2:
        b += b"\0"
    s = sum(int.from_bytes(b[i:i + 2], "big") for i in range(0, len(b), 2))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s


def zero_csum_port():
    """The UDP source port that makes a 64-byte frame with the loader's defaults (198.18.0.1 ->
    198.19.0.1, destination port 1024, zero payload) sum to 0xffff: its checksum computes to 0,
    which RFC 768 sends as 0xffff (0 means "no checksum")."""
    length = 64 - 4 - 14 - 20
    pseudo = socket.inet_aton("198.18.0.1") + socket.inet_aton("198.19.0.1") + bytes([0, 17]) \
        + length.to_bytes(2, "big")
    rest = csum_words(pseudo + struct.pack(">HHH", 0, 1024, length) + bytes(length - 6))
    ports = [p for p in range(65536) if csum_words(struct.pack(">HH", rest, p)) == 0xffff]
    assert len(ports) == 1, ports
    return ports[0]


ZERO_CSUM_PORT = zero_csum_port()


def payload(kind, arg, n):
    """The first n payload bytes (wr_stream.h: byte k is a function of k alone)."""
    if kind == "inc":
        return bytes(k & 0xff for k in range(n))
    if kind == "pattern":
        p = bytes.fromhex(arg)
        return (p * (n // len(p) + 1))[:n]
    if kind == "string":
        s = arg.encode()
        return (s + bytes(max(0, n - len(s))))[:n]
    return bytes(n)


def ip(s):
    return int.from_bytes(socket.inet_aton(s), "big")


def ip_str(v):
    return socket.inet_ntoa(v.to_bytes(4, "big"))


def mac(s):
    return int(s.replace(":", ""), 16)


def mac_str(v):
    return ":".join(f"{b:02x}" for b in v.to_bytes(6, "big"))


def read_pcap(path):
    """The frames of a classic pcap file (libpcap's or tcpdump's), as bytes, in file order."""
    with open(path, "rb") as f:
        data = f.read()
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        e = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        e = ">"
    else:
        raise ValueError(f"{path}: not a pcap file")
    linktype = struct.unpack(e + "I", data[20:24])[0]
    if linktype != 1:
        raise ValueError(f"{path}: link type {linktype}, expected 1 (Ethernet)")
    frames, off = [], 24
    while off < len(data):
        _, _, caplen, wirelen = struct.unpack(e + "IIII", data[off:off + 16])
        if caplen != wirelen:
            raise ValueError(f"{path}: truncated record at {off}")
        frames.append(data[off + 16:off + 16 + caplen])
        off += 16 + caplen
    return frames


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def need_tool(case, *tools):
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        if os.environ.get("WR_REQUIRE_EAL") == "1":
            case.fail(f"missing {', '.join(missing)} (devtools/wr-test installs it)")
        case.skipTest(f"needs {', '.join(missing)}")


# ---- stream files -----------------------------------------------------------------------------

# Dumped whole, N frames of each stream, stream after stream.  Every varied field has a period
# that does not divide N's sub-cycles trivially; INC steps do not divide their ranges.
N = 120
DUMP_FILE = """version: 1
seed: 5
streams:
  - name: together
    vlan: {id: {inc: {from: 4090, to: 4095, step: 2}}, pcp: {list: [7, 0, 5]}}
    eth:
      src: {inc: {from: "02:00:00:00:00:fe", to: "02:00:00:00:01:02"}}
      dst: {dec: {from: "02:00:00:01:00:01", to: "02:00:00:00:ff:fe"}}
    ipv4:
      src: {inc: {from: 10.0.0.250, to: 10.0.1.4, step: 3}}
      dst: {dec: {from: 10.9.9.9, to: 10.9.9.2, step: 3}}
      id: {list: [7, 65535, 0, 300]}
      ttl: {inc: {from: 1, to: 255, step: 127}}
      dscp: {list: [46, 0, 10, 63]}
      ecn: 1
    udp:
      src: {inc: {from: 65530, to: 65535, step: 2}}
      dst: {dec: {from: 40000, to: 39990, step: 4}}
  - name: product
    vary: product
    eth: {dst: {list: ["02:00:00:00:00:aa", "02:00:00:00:00:bb"]}}
    ipv4: {ttl: {inc: {from: 60, to: 64, step: 2}}}
    udp: {src: {random: {min: 2000, max: 2999}}, dst: {list: [5001, 5003, 5005, 5007]}}
  - name: product-as-together
    vary: together
    eth: {dst: {list: ["02:00:00:00:00:aa", "02:00:00:00:00:bb"]}}
    ipv4: {ttl: {inc: {from: 60, to: 64, step: 2}}}
    udp: {src: {random: {min: 2000, max: 2999}}, dst: {list: [5001, 5003, 5005, 5007]}}
  - name: random
    size: {random: {min: 64, max: 1518}}
    eth: {src: {random: {min: "02:00:00:00:fe:00", max: "02:00:00:01:01:ff"}}}
    ipv4:
      src: {random: {min: 10.0.0.0, max: 10.0.3.255}}
      id: {random: {min: 0, max: 65535}}
      ttl: {random: {min: 10, max: 20}}
      dscp: {random: {min: 0, max: 63}}
    udp: {src: {random: {min: 1024, max: 65535}}}
    payload: inc
  - name: size-inc
    size: {inc: {from: 64, to: 1518, step: 100}}
    payload: {pattern: "deadbeef01"}
  - name: size-random-vlan
    vlan: {id: {list: [1, 4095, 2048]}, pcp: 6}
    size: {random: {min: 68, max: 1522}}
    payload: {string: "wirerate vary"}
  - name: imix
    size: imix
    vlan: {id: 3000, pcp: {list: [1, 7, 0, 4]}}
    payload: inc
  - name: mix-odd
    size: {mix: [{size: 65, weight: 3}, {size: 9018, weight: 1}, {size: 1001, weight: 2}]}
    payload: {pattern: "a5c3e7"}
  - name: csum-zero-fixed
    udp: {src: %(zero)d}
  - name: csum-zero-varying
    udp: {src: {list: [%(zero)d, %(zero1)d]}}
""" % {"zero": ZERO_CSUM_PORT, "zero1": ZERO_CSUM_PORT + 1}
STREAM_NAMES = ["together", "product", "product-as-together", "random", "size-inc",
                "size-random-vlan", "imix", "mix-odd", "csum-zero-fixed", "csum-zero-varying"]

PCAP_FIELDS = ["frame.len", "eth.src", "eth.dst", "vlan.id", "vlan.priority", "ip.src", "ip.dst",
               "ip.id", "ip.ttl", "ip.dsfield.dscp", "ip.dsfield.ecn", "udp.srcport", "udp.dstport", "ip.len",
               "udp.length", "ip.checksum.status", "udp.checksum.status", "data.data",
               "udp.checksum"]
COL = {f: i for i, f in enumerate(PCAP_FIELDS)}


class DumpDecode(WrCase):
    """`wirerate dump` frames decoded by tshark against the model."""

    @classmethod
    def setUpClass(cls):
        """One dump of the whole file and one tshark pass, shared by the tests of this class."""
        cls.rows = None
        if shutil.which("tshark") is None:
            return
        cls.dir = tempfile.mkdtemp(prefix="wrvary-")
        cls.file = os.path.join(cls.dir, "dump.yaml")
        with open(cls.file, "w") as f:
            f.write(DUMP_FILE)
        cls.pcap = os.path.join(cls.dir, "all.pcap")
        p = subprocess.run([WIRERATE, "dump", cls.file, "--count", str(N), "--pcap", cls.pcap],
                           capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            raise AssertionError(f"wirerate dump exited {p.returncode}: {p.stderr}")
        rows = tshark_fields(cls.pcap, PCAP_FIELDS)
        cls.rows = {name: rows[i * N:(i + 1) * N] for i, name in enumerate(STREAM_NAMES)}
        cls.nrows = len(rows)

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "dir", None):
            shutil.rmtree(cls.dir, True)

    def setUp(self):
        super().setUp()
        need_tool(self, "tshark")

    def col(self, stream, field, conv=str):
        return [conv(r[COL[field]]) for r in self.rows[stream]]

    def test_every_frame_decodes_with_good_checksums(self):
        self.assertEqual(self.nrows, N * len(STREAM_NAMES))
        for name, rows in self.rows.items():
            for k, r in enumerate(rows):
                self.assertEqual((r[COL["ip.checksum.status"]], r[COL["udp.checksum.status"]]),
                                 ("1", "1"), f"{name} frame {k}: {r[:14]}")
                # Every length field follows the frame's length (FCS excluded in a capture).
                l2 = 18 if r[COL["vlan.id"]] else 14
                self.assertEqual(int(r[COL["ip.len"]]), int(r[COL["frame.len"]]) - l2, name)
                self.assertEqual(int(r[COL["udp.length"]]), int(r[COL["ip.len"]]) - 20, name)

    def test_together_sequences(self):
        """INC with a step that does not divide the range, DEC, LIST, MAC across a byte boundary,
        VLAN id/pcp, ipv4 id/ttl/dscp, UDP ports: the exact sequences, wrapping."""
        periods = {
            "eth.src": seq("inc", mac("02:00:00:00:00:fe"), mac("02:00:00:00:01:02")),
            "eth.dst": seq("dec", mac("02:00:00:01:00:01"), mac("02:00:00:00:ff:fe")),
            "vlan.id": seq("inc", 4090, 4095, 2),
            "vlan.priority": [7, 0, 5],
            "ip.src": seq("inc", ip("10.0.0.250"), ip("10.0.1.4"), 3),
            "ip.dst": seq("dec", ip("10.9.9.9"), ip("10.9.9.2"), 3),
            "ip.id": [7, 65535, 0, 300],
            "ip.ttl": seq("inc", 1, 255, 127),
            "ip.dsfield.dscp": [46, 0, 10, 63],
            "udp.srcport": seq("inc", 65530, 65535, 2),
            "udp.dstport": seq("dec", 40000, 39990, 4),
        }
        # The model's periods, written out once so that a model error cannot hide a frame error.
        self.assertEqual(periods["ip.src"], [ip("10.0.0.250"), ip("10.0.0.253"), ip("10.0.1.0"),
                                             ip("10.0.1.3")])
        self.assertEqual(periods["ip.ttl"], [1, 128, 255])
        self.assertEqual(periods["udp.dstport"], [40000, 39996, 39992])
        self.assertEqual(len(periods["eth.dst"]), 4)
        expect = dict(zip(periods, together(list(periods.values()), N)))
        conv = {"eth.src": mac, "eth.dst": mac, "ip.src": ip, "ip.dst": ip,
                "ip.id": lambda v: int(v, 16)}
        for field, values in expect.items():
            got = self.col("together", field, conv.get(field, int))
            self.assertEqual(got, values, field)
        # The ECN bits share the byte with the varying DSCP and stay as the file says.
        self.assertEqual(set(self.col("together", "ip.dsfield.ecn")), {"1"})

    def test_product_odometer(self):
        """`vary: product`: eth.dst (first in stack order) fastest, then ttl, then udp.dst;
        every combination exactly once per 24-frame cycle.  The same fields `together` give only
        lcm(2, 3, 4) = 12 combinations.  RANDOM fields draw a fresh value on every packet."""
        periods = [[mac("02:00:00:00:00:aa"), mac("02:00:00:00:00:bb")], [60, 62, 64],
                   [5001, 5003, 5005, 5007]]
        fields = ["eth.dst", "ip.ttl", "udp.dstport"]
        convs = [mac, int, int]
        for stream, model, distinct in (("product", product, 24),
                                        ("product-as-together", together, 12)):
            got = [self.col(stream, f, c) for f, c in zip(fields, convs)]
            self.assertEqual(got, model(periods, N), stream)
            combos = list(zip(*got))
            for c in range(N // 24):
                cycle = combos[24 * c:24 * (c + 1)]
                self.assertEqual(len(set(cycle)), distinct, f"{stream} cycle {c}")
            ports = self.col(stream, "udp.srcport", int)
            self.assertEqual(ports, rng_values(5, FIELD_ORDER.index("udp.src"), 2000, 2999, N))
            if stream == "product":
                self.assertEqual(combos[:3], [(periods[0][0], 60, 5001),
                                              (periods[0][1], 60, 5001),
                                              (periods[0][0], 62, 5001)])

    def check_random(self, rows, seed):
        """The RANDOM stream's fields and sizes: inside their bounds and exactly the documented
        counter-based draws for @seed."""
        spec = [("eth.src", "eth.src", mac, "02:00:00:00:fe:00", "02:00:00:01:01:ff", mac),
                ("ip.src", "ipv4.src", ip, "10.0.0.0", "10.0.3.255", ip),
                ("ip.id", "ipv4.id", lambda v: int(v, 16), 0, 65535, int),
                ("ip.ttl", "ipv4.ttl", int, 10, 20, int),
                ("ip.dsfield.dscp", "ipv4.dscp", int, 0, 63, int),
                ("udp.srcport", "udp.src", int, 1024, 65535, int)]
        cols = {}
        for col, field, conv, lo, hi, parse in spec:
            got = [conv(r[COL[col]]) for r in rows]
            lo, hi = parse(lo), parse(hi)
            self.assertTrue(all(lo <= v <= hi for v in got), f"{field} out of [{lo}, {hi}]")
            self.assertEqual(got, rng_values(seed, FIELD_ORDER.index(field), lo, hi, len(rows)),
                             field)
            cols[field] = got
        sizes = [int(r[COL["frame.len"]]) + 4 for r in rows]
        self.assertTrue(all(64 <= s <= 1518 for s in sizes))
        self.assertEqual(sizes, rng_values(seed, RNG_TAG_SIZE, 64, 1518, len(rows)))
        # A narrow range is covered: all 11 TTLs appear in 120 draws.
        self.assertEqual(set(cols["ipv4.ttl"]), set(range(10, 21)))
        cols["size"] = sizes
        return cols

    def test_random_fields_and_seed(self):
        a = self.check_random(self.rows["random"], 5)
        out = self.path("seed6.pcap")
        self.wirerate("dump", self.file, "--count", str(N), "--pcap", out, "--stream", "random",
                      "--seed", "6", check=0)
        b = self.check_random(tshark_fields(out, PCAP_FIELDS), 6)
        for field in a:
            self.assertNotEqual(Counter(a[field]), Counter(b[field]), field)

    def check_sizes(self, stream, sizes, pay_kind, pay_arg):
        rows = self.rows[stream]
        self.assertEqual([int(r[COL["frame.len"]]) + 4 for r in rows], sizes, stream)
        full = payload(pay_kind, pay_arg, 9018)
        for k, r in enumerate(rows):
            data = bytes.fromhex(r[COL["data.data"]])
            self.assertEqual(len(data), int(r[COL["udp.length"]]) - 8, f"{stream} frame {k}")
            self.assertEqual(data, full[:len(data)], f"{stream} frame {k}: payload")

    def test_size_inc(self):
        self.check_sizes("size-inc", together([seq("inc", 64, 1518, 100)], N)[0],
                         "pattern", "deadbeef01")
        self.assertEqual(max(self.col("size-inc", "frame.len", int)), 1464 - 4)

    def test_size_random_vlan(self):
        sizes = rng_values(5, RNG_TAG_SIZE, 68, 1522, N)
        self.check_sizes("size-random-vlan", sizes, "string", "wirerate vary")
        # One half of the 802.1Q TCI varies, the other stays as the file says.
        self.assertEqual(self.col("size-random-vlan", "vlan.id", int),
                         together([[1, 4095, 2048]], N)[0])
        self.assertEqual(set(self.col("size-random-vlan", "vlan.priority")), {"6"})
        self.assertTrue(all(68 <= s <= 1522 for s in sizes))

    def check_mix(self, stream, mix, pay_kind, pay_arg):
        cycle = smooth_wrr(mix)
        g = reduce(gcd, (w for _, w in mix))
        self.assertEqual(N % len(cycle), 0)
        self.check_sizes(stream, cycle * (N // len(cycle)), pay_kind, pay_arg)
        # Proportions exact over every whole cycle, independently of the order.
        sizes = [int(r[COL["frame.len"]]) + 4 for r in self.rows[stream]]
        for c in range(N // len(cycle)):
            window = Counter(sizes[c * len(cycle):(c + 1) * len(cycle)])
            self.assertEqual(window, Counter({s: w // g for s, w in mix}), f"{stream} cycle {c}")

    def test_imix(self):
        # The model against wr_frame.h's own example (5:1:1 gives a a b a c a a) and a cycle
        # worked by hand.
        self.assertEqual(smooth_wrr([("a", 5), ("b", 1), ("c", 1)]), list("aabacaa"))
        self.assertEqual(smooth_wrr(IMIX), [64, 594, 64, 64, 594, 64, 1518, 64, 594, 64, 594, 64])
        self.check_mix("imix", IMIX, "inc", None)
        sizes = self.col("imix", "frame.len", int)
        self.assertEqual(Counter(sizes), Counter({60: 7 * N // 12, 590: 4 * N // 12,
                                                  1514: N // 12}))
        self.assertEqual(self.col("imix", "vlan.priority", int), together([[1, 7, 0, 4]], N)[0])
        self.assertEqual(set(self.col("imix", "vlan.id")), {"3000"})
        # Never two 594s or two 1518s in a row (wr_frame.h).
        for a, b in zip(sizes, sizes[1:]):
            self.assertFalse(a == b and a != 60, f"{a} twice in a row")

    def test_mix_odd_sizes_and_jumbo(self):
        self.check_mix("mix-odd", [(65, 3), (9018, 1), (1001, 2)], "pattern", "a5c3e7")

    def test_udp_checksum_zero_is_sent_as_ffff(self):
        """RFC 768: a UDP checksum that computes to 0 goes out as 0xffff, from the template
        (fixed port) and from the per-packet path (varying port)."""
        for stream in ("csum-zero-fixed", "csum-zero-varying"):
            for r in self.rows[stream]:
                zero = r[COL["udp.srcport"]] == str(ZERO_CSUM_PORT)
                self.assertEqual(r[COL["udp.checksum"]] == "0xffff", zero, f"{stream}: {r}")
                self.assertEqual(r[COL["udp.checksum.status"]], "1")
        self.assertEqual(self.col("csum-zero-varying", "udp.srcport", int),
                         together([[ZERO_CSUM_PORT, ZERO_CSUM_PORT + 1]], N)[0])

    def test_stream_option_and_reproducibility(self):
        """The same file dumped twice gives the same bytes; --seed equal to the file's changes
        nothing; another seed changes the file only through its random fields; --stream writes
        exactly that stream's frames."""
        h = sha256(self.pcap)
        again = self.path("again.pcap")
        self.wirerate("dump", self.file, "--count", str(N), "--pcap", again, check=0)
        self.assertEqual(sha256(again), h)
        self.wirerate("dump", self.file, "--count", str(N), "--pcap", again, "--seed", "5",
                      check=0)
        self.assertEqual(sha256(again), h)
        self.wirerate("dump", self.file, "--count", str(N), "--pcap", again, "--seed", "6",
                      check=0)
        self.assertNotEqual(sha256(again), h)
        frames, other = read_pcap(self.pcap), read_pcap(again)
        for i, name in enumerate(STREAM_NAMES):
            same = frames[i * N:(i + 1) * N] == other[i * N:(i + 1) * N]
            # Only the streams with a random field or size depend on the seed.
            self.assertEqual(same, name not in ("product", "product-as-together", "random",
                                                "size-random-vlan"), name)
        for i, name in enumerate(STREAM_NAMES):
            one = self.path(f"{name}.pcap")
            self.wirerate("dump", self.file, "--count", str(N), "--pcap", one, "--stream", name,
                          check=0)
            self.assertEqual(read_pcap(one), frames[i * N:(i + 1) * N], name)


# ---- a run on net_pcap with two TX lcores ------------------------------------------------------

LANES_FILE = """version: 1
seed: 21
streams:
  - name: lanes-a
    count: 3000
    size: {mix: [{size: 64, weight: 3}, {size: 700, weight: 2}, {size: 1518, weight: 1}]}
    eth: {src: "02:00:00:00:0a:01"}
    ipv4:
      src: {inc: {from: 10.1.0.1, to: 10.1.0.200, step: 3}}
      id: {inc: {from: 0, to: 65535, step: 7}}
      ttl: {list: [64, 32, 128, 1, 255]}
    udp: {src: {random: {min: 1024, max: 65535}}, dst: 7000}
    payload: {pattern: "0123456789abcdef"}
  - name: lanes-b
    count: 1001
    vary: product
    size: {inc: {from: 64, to: 1000, step: 37}}
    eth: {src: "02:00:00:00:0b:01", dst: {list: ["02:00:00:00:0c:01", "02:00:00:00:0c:02"]}}
    ipv4: {dscp: {random: {min: 0, max: 63}}}
    udp: {dst: {inc: {from: 8000, to: 8010}}}
    payload: inc
"""
SEEDS_FILE = """version: 1
seed: 3
streams:
  - name: file-seed
    count: 100
    udp: {src: {random: {min: 1, max: 65535}}}
  - name: own-seed
    count: 100
    seed: 11
    udp: {src: {random: {min: 1, max: 65535}}}
"""


class RunLanes(EalCase):
    """A run on net_pcap with two TX lcores sends exactly the frames of `wirerate dump`."""

    def test_two_lcores_send_the_dumped_frames(self):
        need_tool(self, "capinfos")
        sf = self.write("lanes.yaml", LANES_FILE)
        q = [self.path("q0.pcap"), self.path("q1.pcap")]
        # One tx_pcap per TX queue: queue j (the TX lcore of rank j) writes file j.  Both TX
        # lcores poll on CPU 1: slow, but a few thousand frames take well under a second.
        prof = self.write("lanes-prof.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix=wrv-lanes-{os.getpid()}",
      "--vdev=net_pcap0,tx_pcap={q[0]},tx_pcap={q[1]}", "--lcores=0@0,1@1,2@1"]
ports:
  - device: net_pcap0
    tx_lcores: [1, 2]
""")
        self.wirerate("run", sf, "--config", prof, "--quiet", "--seed", "77", "--json",
                      self.path("r.json"), check=0)
        res = self.json("r.json")
        self.assertEqual(res["seed"], 77)
        self.assertEqual(res["lcores"]["tx"], [1, 2])
        by_name = {s["name"]: s for s in res["streams"]}
        lanes = [read_pcap(p) for p in q]
        for name, src, count in (("lanes-a", bytes.fromhex("02000000 0a01"), 3000),
                                 ("lanes-b", bytes.fromhex("02000000 0b01"), 1001)):
            dump = self.path(name + ".pcap")
            self.wirerate("dump", sf, "--count", str(count), "--pcap", dump, "--stream", name,
                          "--seed", "77", check=0)
            expect = read_pcap(dump)
            self.assertEqual(len(expect), count)
            got = [[f for f in lane if f[6:12] == src] for lane in lanes]
            # Lane j sends frames j, j+2, j+4, ... of the stream's sequence, in order.
            self.assertEqual(got[0], expect[0::2], f"{name}: lane 0")
            self.assertEqual(got[1], expect[1::2], f"{name}: lane 1")
            self.assertEqual(sorted(got[0] + got[1]), sorted(expect), name)
            self.assertEqual(by_name[name]["seed"], 77)
            self.assertEqual(by_name[name]["tx_pkts"], count)
            self.assertEqual(by_name[name]["tx_bytes"], sum(len(f) + 4 for f in expect))
        self.assertEqual(sum(len(lane) for lane in lanes), 4001)
        self.assertEqual(res["ports"][0]["nic"]["opackets"], 4001)

    def test_json_records_the_seeds(self):
        """Without --seed: the file's seed at the top, each stream's own where it set one."""
        sf = self.write("seeds.yaml", SEEDS_FILE)
        prof = self.profile("net_null0", f"wrv-seed-{os.getpid()}")
        self.wirerate("run", sf, "--config", prof, "--quiet", "--json", self.path("r.json"),
                      check=0)
        res = self.json("r.json")
        self.assertEqual(res["seed"], 3)
        self.assertEqual([(s["name"], s["seed"]) for s in res["streams"]],
                         [("file-seed", 3), ("own-seed", 11)])


# ---- the Linux kernel as the decoder -----------------------------------------------------------

KERNEL_COUNT = 20000
KERNEL_PORT = 9999
KERNEL_PATTERN = "77aa5501"
KERNEL_MIX = [(64, 4), (512, 2), (1000, 1), (1518, 1)]  # 1518 fills the veth's MTU of 1500

# A UDP receiver inside the namespace: binds, says "ready", records every datagram (source
# address and port, payload length, TTL from IP_RECVTTL, whether the payload is the expected
# prefix) until told "stop" on stdin and then quiet for 0.3 s; prints the records as JSON.
RECEIVER = r"""
import json, select, socket, sys, time
addr, port, pattern = sys.argv[1], int(sys.argv[2]), bytes.fromhex(sys.argv[3])
full = pattern * (9018 // len(pattern) + 1)
IP_RECVTTL, IP_TTL, SO_RCVBUFFORCE = 12, 2, 33
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 1 << 27)
s.setsockopt(socket.IPPROTO_IP, IP_RECVTTL, 1)
s.bind((addr, port))
s.setblocking(False)
print("ready", flush=True)
recs, stop_at, hard = [], None, time.monotonic() + 60
while time.monotonic() < hard and (stop_at is None or time.monotonic() < stop_at):
    r, _, _ = select.select([s, sys.stdin], [], [], 0.05)
    if sys.stdin in r and stop_at is None:
        sys.stdin.readline()
        stop_at = time.monotonic() + 0.3
    while True:
        try:
            data, anc, _, src = s.recvmsg(65535, 64)
        except BlockingIOError:
            break
        ttl = [int.from_bytes(d, sys.byteorder) for lvl, t, d in anc if t == IP_TTL]
        recs.append([src[0], src[1], len(data), ttl[0] if ttl else -1,
                     data == full[:len(data)]])
        if stop_at is not None:
            stop_at = time.monotonic() + 0.3
print(json.dumps(recs), flush=True)
"""


def sh(*cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=30, **kw).stdout


class KernelVeth(EalCase):
    """af_packet into a veth pair in a namespace of our own: the kernel's IPv4 and UDP stack
    accepts every frame and delivers every datagram, with the fields the file describes."""

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0 or shutil.which("ip") is None:
            if os.environ.get("WR_REQUIRE_EAL") == "1":
                self.fail("needs root and iproute2 for a network namespace")
            self.skipTest("needs root and iproute2 for a network namespace")
        need_tool(self, "tcpdump", "tshark")

    def ns(self, *cmd, **kw):
        return sh("ip", "netns", "exec", self.netns, *cmd, **kw)

    def link_stats(self, dev):
        out = json.loads(sh("ip", "-n", self.netns, "-j", "-s", "link", "show", "dev", dev))
        return out[0]["stats64"]

    def kernel_state(self, gen, peer):
        """The peer's received frames, and the kernel's counters of frames dropped on the way (the
        veth pair's own and the per-CPU backlog's, /proc/net/softnet_stat column 2): for the
        message of a failure."""
        p, g = self.link_stats(peer), self.link_stats(gen)
        with open("/proc/net/softnet_stat") as f:
            backlog = sum(int(line.split()[1], 16) for line in f)
        return {"rx": p["rx"]["packets"],
                "drops": p["rx"]["dropped"] + g["tx"]["dropped"] + backlog}

    def udp_snmp(self):
        lines = [l.split() for l in self.ns("cat", "/proc/net/snmp").splitlines()
                 if l.startswith("Udp:")]
        return dict(zip(lines[0][1:], map(int, lines[1][1:])))

    def test_kernel_receives_every_frame(self):
        pid = os.getpid()
        self.netns = f"wrv-k{pid}"
        gen, peer = "wrv0", "wrv1"  # inside our own namespace: no clash with anyone's
        sh("ip", "netns", "add", self.netns)
        self.addCleanup(subprocess.run, ["ip", "netns", "del", self.netns], capture_output=True)
        self.ns("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
                "net.ipv6.conf.default.disable_ipv6=1")
        sh("ip", "-n", self.netns, "link", "set", "lo", "up")
        sh("ip", "-n", self.netns, "link", "add", gen, "type", "veth", "peer", "name", peer)
        sh("ip", "-n", self.netns, "addr", "add", "10.77.0.2/16", "dev", peer)
        sh("ip", "-n", self.netns, "link", "set", gen, "up")
        sh("ip", "-n", self.netns, "link", "set", peer, "up")
        peer_mac = json.loads(sh("ip", "-n", self.netns, "-j", "link", "show", "dev",
                                 peer))[0]["address"]
        # The receiver never answers, so the kernel needs no neighbour entry to deliver; one
        # for the first source makes a reply path exist, as a real peer would have.
        sh("ip", "-n", self.netns, "neigh", "add", "10.77.1.0", "lladdr", "02:00:00:00:77:01",
           "dev", peer, "nud", "permanent")

        sf = self.write("kernel.yaml", f"""version: 1
seed: 99
streams:
  - name: kernel
    count: {KERNEL_COUNT}
    size: {{mix: [{", ".join(f"{{size: {s}, weight: {w}}}" for s, w in KERNEL_MIX)}]}}
    eth: {{src: "02:00:00:00:77:01", dst: "{peer_mac}"}}
    ipv4:
      src: {{inc: {{from: 10.77.1.0, to: 10.77.1.255}}}}
      dst: 10.77.0.2
      id: {{inc: {{from: 1, to: 65535, step: 3}}}}
      ttl: {{random: {{min: 1, max: 255}}}}
    udp: {{src: {{random: {{min: 1024, max: 65535}}}}, dst: {KERNEL_PORT}}}
    payload: {{pattern: "{KERNEL_PATTERN}"}}
""")
        prof = self.write("kernel-prof.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix=wrv-k{pid}",
      "--vdev=net_af_packet0,iface={gen}", "--lcores=0@0,1@1"]
ports:
  - device: net_af_packet0
    tx_lcores: [1]
""")
        # The receiver and tcpdump; cleanups run in reverse, so they stop before the namespace goes.
        recv = subprocess.Popen(["ip", "netns", "exec", self.netns, sys.executable, "-c",
                                 RECEIVER, "10.77.0.2", str(KERNEL_PORT), KERNEL_PATTERN],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.addCleanup(lambda: recv.poll() is None and (recv.kill(), recv.wait()))
        self.assertEqual(recv.stdout.readline().strip(), "ready")
        # What the kernel must deliver, and tcpdump write: the frames of `wirerate dump`.
        dump = self.path("dump.pcap")
        self.wirerate("dump", sf, "--count", str(KERNEL_COUNT), "--pcap", dump, check=0)
        frames = read_pcap(dump)
        cap = self.path("kernel.pcap")
        # -U: each packet is written as it is read, so the file's size says when tcpdump has
        # caught up (stopping it earlier loses what is still in its ring).
        tcpdump = subprocess.Popen(["ip", "netns", "exec", self.netns, "tcpdump", "-n", "-U",
                                    "-i", peer, "-Q", "in", "-B", "65536", "-w", cap],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: tcpdump.poll() is None and (tcpdump.kill(), tcpdump.wait()))
        self.assertIn("listening on", tcpdump.stderr.readline())

        k0, snmp0 = self.kernel_state(gen, peer), self.udp_snmp()
        # The run takes well under a second.  --duration bounds it should frames stop going out:
        # a frame the peer cannot take (over its MTU) stays at the head of af_packet's TX ring,
        # re-sent and dropped forever, and the NIC then accepts nothing more.
        subprocess.run(["ip", "netns", "exec", self.netns, WIRERATE, "run", sf, "--config", prof,
                        "--quiet", "--duration", "20", "--json", self.path("r.json")],
                       cwd=self.tmp, check=True, capture_output=True, timeout=60)
        recv.stdin.write("stop\n")
        recv.stdin.flush()
        recs = json.loads(recv.communicate(timeout=30)[0])
        k1, snmp1 = self.kernel_state(gen, peer), self.udp_snmp()
        received = k1["rx"] - k0["rx"]
        cap_size = 24 + sum(16 + len(f) for f in frames)
        wait_for(lambda: os.path.exists(cap) and os.path.getsize(cap) >= cap_size, 10)
        tcpdump.send_signal(signal.SIGINT)
        tstats = tcpdump.communicate(timeout=30)[1]

        res = self.json("r.json")
        self.assertEqual(res["stop_reason"], "count")
        sent = res["streams"][0]["tx_pkts"]
        self.assertEqual(sent, KERNEL_COUNT)
        self.assertEqual(res["ports"][0]["nic"]["opackets"], KERNEL_COUNT)
        udp = {k: snmp1[k] - snmp0[k] for k in snmp1}
        # Every frame the veth received is a good UDP datagram, delivered to our socket.
        for k in ("InErrors", "InCsumErrors", "NoPorts", "RcvbufErrors"):
            self.assertEqual(udp.get(k, 0), 0, f"Udp {k}: {udp}")
        self.assertEqual(udp["InDatagrams"], received)
        self.assertEqual(len(recs), received)
        # Nothing is lost on the way.  af_packet hands each frame to the veth synchronously, and
        # when the veth drops one (its peer's backlog is full) the kernel leaves it in the
        # PACKET_TX_RING to be sent again (tpacket_snd on NET_XMIT_DROP): a drop shows in the
        # counters but not as a missing frame.
        self.assertEqual(received, sent,
                         f"kernel drop counters rose by {k1['drops'] - k0['drops']}")

        # What the kernel delivered is what `wirerate dump` says, frame by frame as a multiset:
        # source address and port, payload length, TTL, and the payload bytes.
        expect = []
        for f in frames:
            ipo, udpo = 14, 34
            expect.append((socket.inet_ntoa(f[ipo + 12:ipo + 16]),
                           int.from_bytes(f[udpo:udpo + 2], "big"), len(f) - 42, f[ipo + 8],
                           True))
        self.assertEqual(sorted(tuple(r) for r in recs), sorted(expect))
        # Every source of the /24 and the size mix, exactly, reached the socket.
        self.assertEqual(len({r[0] for r in recs}), 256)
        self.assertEqual(Counter(r[2] + 42 + 4 for r in recs),
                         Counter({s: KERNEL_COUNT * w // 8 for s, w in KERNEL_MIX}))
        # tcpdump on the peer saw exactly the dumped frames...
        self.assertRegex(tstats, rf"(?m)^{KERNEL_COUNT} packets captured")
        self.assertRegex(tstats, r"(?m)^0 packets dropped by kernel")
        self.assertEqual(sorted(read_pcap(cap)), sorted(frames))
        # ...and tshark finds every checksum good.
        status = tshark_fields(cap, ["ip.checksum.status", "udp.checksum.status"])
        self.assertEqual(Counter(tuple(r) for r in status), Counter({("1", "1"): KERNEL_COUNT}))


if __name__ == "__main__":
    unittest.main(verbosity=2)
