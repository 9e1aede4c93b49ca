# SPDX-License-Identifier: BSD-3-Clause
"""A reference of TRex's stateless field engine on one core, for the tests: packet by packet.

Independent of wirerate's converter and of its C engine, which compute a frame's values as
closed forms of its index: this one keeps TRex's per-stream memory (each variable's previous
value, the shared random state, a repeatable random's counter, a tuple's flow counter) and
runs the program on every packet in TRex's order, as TRex's data path does (the rules are the
ones TRex documents and its field engine implements: inc/dec wrapping around the range,
init_value the first value, next_var moving a variable only when the one before it wrapped,
the random generator x' = 214013 x + 2531011 drawing 15 bits at a time, masked writes in 32
bits, ...).  Checksums are computed by Scapy, the frames' own decoder.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from scapy.layers.inet import IP
from scapy.layers.l2 import Ether

MASK32 = 0xFFFFFFFF


@dataclass
class Var:
    name: str
    size: int
    op: str                       # inc, dec, random
    min: int = 0
    max: int = 0
    step: int = 1
    init: Optional[int] = None
    values: Optional[List[int]] = None
    next_var: Optional[str] = None
    split_to_cores: bool = True


@dataclass
class Repeat:
    name: str
    size: int
    min: int
    max: int
    seed: int
    limit: int
    next_var: Optional[str] = None
    split_to_cores: bool = True


@dataclass
class Tuple:
    name: str
    ip_min: int
    ip_max: int
    port_min: int
    port_max: int
    flows: int


@dataclass
class Write:
    var: str
    offset: int
    add: int = 0
    big: bool = True


@dataclass
class WriteMask:
    var: str
    offset: int
    cast: int
    mask: int
    shift: int = 0
    add: int = 0


@dataclass
class FixIpv4:
    offset: int


@dataclass
class FixHw:                      # the NIC's: computed on the packet as it leaves
    l3: int
    l4: int
    kind: str                     # udp, tcp, ip


@dataclass
class FixIcmpv6:
    l3: int
    l4: int


@dataclass
class Trim:
    var: str


@dataclass
class Program:
    instructions: List[Any]
    random_seed: int = 0
    cache: int = 0
    state: Dict[str, Any] = field(default_factory=dict)


class Rand:
    """TRex's generator: one state, 15 bits per draw."""

    def __init__(self, seed: int):
        self.s = seed & MASK32

    def r16(self) -> int:
        self.s = (214013 * self.s + 2531011) & MASK32
        return (self.s >> 16) & 0x7FFF

    def r32(self) -> int:
        hi = self.r16()          # the left operand first, as GCC and clang build TRex
        return ((hi << 16) + self.r16()) & MASK32

    def r64(self) -> int:
        hi = self.r32()
        return ((hi << 32) + self.r32()) & 0xFFFFFFFFFFFFFFFF


def _draw(rnd: Rand, size: int) -> int:
    return rnd.r16() if size <= 2 else rnd.r32() if size == 4 else rnd.r64()


def _order(prog: List[Any]) -> List[Any]:
    """Flow variables first, each chain head followed by its chain; then the rest as written."""
    flows = [i for i in prog if isinstance(i, (Var, Repeat))]
    by = {i.name: i for i in flows}
    targets = {i.next_var for i in flows if i.next_var}
    out: List[Any] = []
    for v in flows:
        if v.name in targets:
            continue
        while True:
            out.append(v)
            if not v.next_var:
                break
            v = by[v.next_var]
    return out + [i for i in prog if not isinstance(i, (Var, Repeat))]


class Engine:
    """One stream's engine: run() gives the next packet's bytes."""

    def __init__(self, pkt: bytes, prog: Program):
        self.base = bytearray(pkt)
        self.ins = _order(prog.instructions)
        self.rnd = Rand(prog.random_seed * 514229)
        self.mem: Dict[str, Any] = {}
        self.targets = {i.next_var for i in self.ins if isinstance(i, (Var, Repeat)) and
                        i.next_var}
        for i in self.ins:
            if isinstance(i, Var):
                init = i.init if i.init is not None else (i.max if i.op == "dec" else i.min)
                if i.values is not None:
                    n = len(i.values)
                    # the index memory starts one step before the first index
                    self.mem[i.name] = (n - i.step % n) % n if i.op == "inc" else \
                        (n - 1 + i.step % n) % n
                    self.mem[i.name + "#idx"] = 0 if i.op == "inc" else n - 1
                else:
                    r = i.max - i.min + 1
                    s = i.step % r
                    if i.op == "inc":
                        self.mem[i.name] = i.min + ((init - i.min - s) % r)
                    else:
                        self.mem[i.name] = i.max - ((i.max - init - s) % r)
            elif isinstance(i, Repeat):
                seed = i.seed * 514229 if (i.split_to_cores and i.name not in self.targets) \
                    else i.seed
                self.mem[i.name] = 0
                self.mem[i.name + "#rnd"] = Rand(seed)
                self.mem[i.name + "#seed"] = seed & MASK32
                self.mem[i.name + "#cnt"] = 0
            elif isinstance(i, Tuple):
                # TRex's memory starts one flow before the first: the address
                # one before ip_min (wrapped), so the port too
                self.mem[i.name + ".ip"] = i.ip_max
                self.mem[i.name + ".port"] = i.port_max
                self.mem[i.name + "#flow"] = 0
        self.cache: List[bytes] = []
        self.cache_size = prog.cache
        self.k = 0

    def _run_var(self, v: Var) -> bool:
        """Run a flow variable; True when the next one in its chain must run too."""
        if v.op == "random":
            if v.values is not None:
                self.mem[v.name] = v.values[self.rnd.r16() % len(v.values)]
            elif v.size == 8 and v.max - v.min == 0xFFFFFFFFFFFFFFFF:
                self.mem[v.name] = self.rnd.r64()
            else:
                self.mem[v.name] = v.min + _draw(self.rnd, v.size) % (v.max - v.min + 1)
            return False
        if v.values is not None:
            n = len(v.values)
            s = v.step % n
            idx = self.mem[v.name + "#idx"]
            self.mem[v.name] = v.values[idx]
            if v.op == "inc":
                moves = not idx >= s
                self.mem[v.name + "#idx"] = (idx + s) % n
            else:
                moves = not idx + s < n
                self.mem[v.name + "#idx"] = (idx - s) % n
            return moves
        r = v.max - v.min + 1
        s = v.step % r
        cur = self.mem[v.name]
        if v.op == "inc":
            wraps = v.max - cur < s
            self.mem[v.name] = cur + s if not wraps else v.min + (s - (v.max - cur) - 1)
        else:
            wraps = cur - v.min < s
            self.mem[v.name] = cur - s if not wraps else v.max - (s - (cur - v.min) - 1)
        return wraps

    def _run_repeat(self, v: Repeat) -> bool:
        if self.mem[v.name + "#cnt"] == v.limit:
            self.mem[v.name + "#rnd"] = Rand(self.mem[v.name + "#seed"])
            self.mem[v.name + "#cnt"] = 0
        moves = self.mem[v.name + "#cnt"] == 0
        rnd = self.mem[v.name + "#rnd"]
        if v.size == 8 and v.max - v.min == 0xFFFFFFFFFFFFFFFF:
            self.mem[v.name] = rnd.r64()
        else:
            self.mem[v.name] = v.min + _draw(rnd, v.size) % (v.max - v.min + 1)
        self.mem[v.name + "#cnt"] += 1
        return moves

    def _run_tuple(self, t: Tuple) -> None:
        ip, port = self.mem[t.name + ".ip"], self.mem[t.name + ".port"]
        wrapped = ip == t.ip_max
        ip = t.ip_min if wrapped else ip + 1
        if wrapped:
            port = t.port_min if port == t.port_max else port + 1
        flow = self.mem[t.name + "#flow"] + 1
        if t.flows and flow > t.flows:
            flow, ip, port = 1, t.ip_min, t.port_min
        self.mem[t.name + ".ip"], self.mem[t.name + ".port"] = ip, port
        self.mem[t.name + "#flow"] = flow

    def _size(self, name: str) -> int:
        for i in self.ins:
            if isinstance(i, (Var, Repeat)) and i.name == name:
                return i.size
            if isinstance(i, Tuple) and name.startswith(i.name + "."):
                return 4 if name.endswith(".ip") else 2
        raise KeyError(name)

    def _packet(self) -> bytes:
        p = bytearray(self.base)
        size = len(p)
        hw: List[FixHw] = []
        skip = set()
        for i in self.ins:
            if isinstance(i, (Var, Repeat)):
                if i.name in skip:
                    continue
                moves = self._run_var(i) if isinstance(i, Var) else self._run_repeat(i)
                if i.next_var and not moves:
                    # skip the rest of the chain
                    nxt = i.next_var
                    while nxt:
                        skip.add(nxt)
                        nxt = next((x.next_var for x in self.ins
                                    if isinstance(x, (Var, Repeat)) and x.name == nxt), None)
            elif isinstance(i, Tuple):
                self._run_tuple(i)
            elif isinstance(i, Write):
                w = self._size(i.var)
                v = (self.mem[i.var] + i.add) % (1 << (8 * w))
                p[i.offset:i.offset + w] = v.to_bytes(w, "big" if i.big else "little")
            elif isinstance(i, WriteMask):
                v = (self.mem[i.var] + i.add) & MASK32
                v = (v << i.shift) & MASK32 if i.shift > 0 else v >> -i.shift
                cur = int.from_bytes(p[i.offset:i.offset + i.cast], "big")
                m = i.mask & ((1 << (8 * i.cast)) - 1)
                new = (cur & ~m) | (v & m)
                p[i.offset:i.offset + i.cast] = (new & ((1 << (8 * i.cast)) - 1)).to_bytes(
                    i.cast, "big")
            elif isinstance(i, FixIpv4):
                p[i.offset + 10:i.offset + 12] = b"\0\0"
                ihl = (p[i.offset] & 15) * 4
                p[i.offset + 10:i.offset + 12] = _ones(bytes(p[i.offset:i.offset + ihl]))
            elif isinstance(i, FixIcmpv6):
                hw.append(FixHw(i.l3, i.l4, "icmp6"))
            elif isinstance(i, FixHw):
                hw.append(i)
            elif isinstance(i, Trim):
                size = self.mem[i.var]
        p = p[:size]
        for f in hw:  # the NIC's checksums are those of the packet as it leaves
            p = bytearray(_fix_hw(bytes(p), f))
        return bytes(p)

    def next(self) -> bytes:
        if self.cache_size:
            if len(self.cache) < self.cache_size:
                self.cache.append(self._packet())
            out = self.cache[self.k % self.cache_size]
        else:
            out = self._packet()
        self.k += 1
        return out


def _ones(data: bytes) -> bytes:
    if len(data) % 2:
        data += b"\0"
    s = sum(int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s & 0xFFFF).to_bytes(2, "big")


def _sum(data: bytes) -> int:
    if len(data) % 2:
        data += b"\0"
    s = sum(int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def _fix_hw(frame: bytes, f: FixHw) -> bytes:
    """The checksums a NIC computes as the packet leaves (RFC 768/793/4443 with the
    pseudo-header of the IP header at f.l3, the L4 bytes as the IP header counts them);
    the tests hold a sample of these to Scapy's own (checked_by_scapy)."""
    p = bytearray(frame)
    l3, l4 = f.l3, f.l4
    if p[l3] >> 4 == 4:
        ihl = (p[l3] & 15) * 4
        p[l3 + 10:l3 + 12] = b"\0\0"
        p[l3 + 10:l3 + 12] = (~_sum(bytes(p[l3:l3 + ihl])) & 0xFFFF).to_bytes(2, "big")
        proto = p[l3 + 9]
        if f.kind == "ip" or proto not in (6, 17):
            return bytes(p)
        end = l3 + int.from_bytes(p[l3 + 2:l3 + 4], "big")
        pseudo = bytes(p[l3 + 12:l3 + 20]) + bytes([0, proto]) + (end - l4).to_bytes(2, "big")
    else:
        proto = {"udp": 17, "tcp": 6, "icmp6": 58}[f.kind]
        end = l3 + 40 + int.from_bytes(p[l3 + 4:l3 + 6], "big")
        pseudo = bytes(p[l3 + 8:l3 + 40]) + (end - l4).to_bytes(4, "big") + bytes([0, 0, 0, proto])
    at = l4 + {17: 6, 6: 16, 58: 2}[proto]
    p[at:at + 2] = b"\0\0"
    c = ~_sum(pseudo + bytes(p[l4:end])) & 0xFFFF
    if proto == 17 and c == 0:
        c = 0xFFFF
    p[at:at + 2] = c.to_bytes(2, "big")
    return bytes(p)


def checked_by_scapy(frame: bytes) -> bytes:
    """The frame as Scapy builds it with every IPv4, UDP, TCP and ICMPv6 checksum left to
    compute: equal to the frame when they are all right."""
    pkt = Ether(frame)
    for layer in (IP, "UDP", "TCP", "ICMPv6EchoRequest"):
        lay = pkt.getlayer(layer)
        if lay is None:
            continue
        for name in ("chksum", "cksum"):
            if name in lay.fields:
                lay.setfieldval(name, None)
    return bytes(pkt)


def frames(pkt: bytes, prog: Program, n: int) -> List[bytes]:
    e = Engine(pkt, prog)
    return [e.next() for _ in range(n)]
