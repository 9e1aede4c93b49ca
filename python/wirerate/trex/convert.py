# SPDX-License-Identifier: BSD-3-Clause
"""Turn a TRex profile's streams into a wirerate stream file, exactly, or refuse.

Each stream becomes:

- a ``stack:`` when it has no field-engine program and Scapy rebuilds its packet from the
  layers and values wirerate's stack can express (every length and checksum then computed as
  Scapy computed them), with its payload as a pattern;
- otherwise ``frame:`` (the packet's bytes, without FCS, as TRex sends them) with the program
  as ``vars:`` (TRex's flow variables, tuple generator and repeatable random, with TRex's
  value rules), ``fields:`` (the writes, masked or not), ``checksums:`` (only those the profile
  fixes), ``trim:`` and ``cache:`` (doc/trex.md).

MAC addresses the packet leaves to TRex's port configuration become ``port`` (the wirerate
profile's port: its src_mac/dst_mac, else the port's own MAC; doc/trex.md).  Modes, rates,
``isg`` and ``next`` chains map onto count, rate, bursts, isg and sequences.  Whatever has no
exact equivalent raises ProfileError naming the profile line and the instruction.
"""

from __future__ import annotations

import ipaddress
import os
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import api
from . import registry as reg
from .errors import ProfileError, Site
from .regions import Region, regions
from .yamlout import Lines, hexint, stream_file

FRAME_MIN = 14          # bytes of a frame: stream, without FCS
FRAME_MAX = 9014
FCS = 4
TRIM_MIN = 60           # TRex raises a trimmed size below 60 to 60
CACHE_MAX = 10000       # TRex's limit on cache_size
LCG_SPLIT = 514229      # TRex multiplies seeds by (core + 1) * 514229; one core: x 514229


@dataclass
class Options:
    port: int = 0
    src_mac: str = "port"      # "port" or a MAC written into every stream that left it to TRex
    dst_mac: str = "port"      # the same, or arp / nd (resolved when a run starts: stacks)
    fix_checksums: bool = False
    mult: Optional[str] = None  # TRex console's -m: 2, 10mpps, 1gbps, 5gbpsl1, 50%


@dataclass
class Note:
    site: Optional[Site]
    message: str

    def line(self) -> str:
        return f"{self.site[0]}:{self.site[1]}: {self.message}" if self.site else self.message


@dataclass
class Var:
    name: str
    size: int
    kind: str                     # inc, dec, random, repeat, tuple
    site: Site
    spec: Dict[str, Any] = field(default_factory=dict)
    next_var: Optional[str] = None
    is_ip: bool = False           # written to an IPv4 address: shown as dotted quads


@dataclass
class Write:
    var: str
    offset: int
    width: int
    site: Site
    instr: str
    add: int = 0
    mask: Optional[int] = None
    shift: int = 0
    little: bool = False
    desc: str = ""
    pos: int = 0                  # place in TRex's execution order


@dataclass
class Fix:
    regions: List[Region]
    site: Site
    instr: str
    software: bool
    pos: int


@dataclass
class Plan:
    """One stream, compiled: what the stream file says about it."""

    stream: api.STLStream
    name: str
    frame: bytes
    pkt: Any
    src_default: bool
    dst_default: bool
    vars: List[Var] = field(default_factory=list)
    writes: List[Write] = field(default_factory=list)
    fixes: List[Fix] = field(default_factory=list)
    trim: Optional[str] = None
    trim_range: Tuple[int, int] = (0, 0)
    trim_avg: float = 0.0
    cache: int = 0
    seed: int = 0
    has_random: bool = False


# ---- packet ---------------------------------------------------------------------------------

def _read_pcap_first(path: str, site: Site) -> bytes:
    """The first record of a pcap or pcapng file (TRex takes the first packet)."""
    try:
        from scapy.utils import RawPcapReader
    except ImportError:
        raise ProfileError(site, f"STLPktBuilder: reading {path} needs Scapy") from None
    try:
        for data, _meta in RawPcapReader(path):
            return bytes(data)
    except (OSError, Exception) as e:  # Scapy raises its own for a non-capture
        raise ProfileError(site, f"STLPktBuilder: {path}: {e}") from None
    raise ProfileError(site, f"STLPktBuilder: {path}: the capture holds no packet")


# What the MACs left to the port are in a frame until a run resolves them (dump and
# check show these; doc/trex.md).
PORT_SRC_MAC = "02:00:00:00:00:01"
PORT_DST_MAC = "02:00:00:00:00:02"


def leave_macs_to_port(pkt: Any) -> Tuple[Any, bool, bool]:
    """The one rule for a Scapy packet's MACs, import-trex's and the Python client's
    add_stream's alike: an Ethernet source or destination the packet does not set is the
    port's (TRex fills it from its port configuration; wirerate from the port's profile,
    src_mac/dst_mac), never what Scapy would resolve on this host (its interface's MAC, its
    gateway's by ARP).  Returns (a copy with those MACs set to PORT_SRC_MAC/PORT_DST_MAC,
    so that Scapy asks no network for them, src left to the port, dst left to the port);
    a packet that does not start with Ethernet is returned as it is, with (True, True):
    its bytes are a frame TRex parses as Ethernet whatever they hold."""
    from scapy.layers.l2 import Ether

    if not isinstance(pkt, Ether):
        return pkt, True, True
    pkt = pkt.copy()
    src_left = "src" not in pkt.fields
    dst_left = "dst" not in pkt.fields
    if src_left:
        pkt.src = PORT_SRC_MAC
    if dst_left:
        pkt.dst = PORT_DST_MAC
    return pkt, src_left, dst_left


def _packet(b: api.STLPktBuilder, profile: str) -> Tuple[bytes, Any, bool, bool]:
    """(bytes, Scapy packet or None, src MAC left to TRex, dst MAC left to TRex)."""
    pkt = b.pkt
    if pkt is None and b.pkt_buffer is None:
        from scapy.layers.inet import IP
        from scapy.layers.l2 import Ether
        pkt = Ether() / IP()  # TRex's packet when a stream gives none
    if isinstance(pkt, str):
        path = pkt
        if not os.path.isabs(path) and b.path_relative_to_profile:
            path = os.path.join(os.path.dirname(os.path.abspath(profile)), path)
        raw = _read_pcap_first(path, b.site)
        return raw, None, True, True
    if pkt is not None:
        from scapy.packet import Packet
        if not isinstance(pkt, Packet):
            raise ProfileError(b.site, f"STLPktBuilder: pkt must be a Scapy packet or a "
                               f"pcap path, got {type(pkt).__name__}")
        pkt, src_def, dst_def = leave_macs_to_port(pkt)
        last = pkt.lastlayer()
        if b.remove_fcs and last.name == "Padding" and last.underlayer is not None:
            last.underlayer.remove_payload()
        try:
            raw = bytes(pkt)
        except Exception as e:
            raise ProfileError(b.site, f"STLPktBuilder: Scapy cannot build the packet: "
                               f"{e}") from None
        return raw, pkt, src_def, dst_def
    assert b.pkt_buffer is not None
    return bytes(b.pkt_buffer), None, True, True


def _scapy_of(plan: Plan) -> Any:
    """The packet to look field names up in (TRex parses a buffer as Ethernet)."""
    if plan.pkt is None:
        try:
            from scapy.layers.l2 import Ether
        except ImportError:
            raise ProfileError(plan.stream.site, "field names in a program over a packet "
                               "given as bytes need Scapy") from None
        plan.pkt = Ether(plan.frame)
    return plan.pkt


def _offset(plan: Plan, where: Any, site: Site, instr: str) -> Tuple[int, str]:
    """A packet offset or a field name ("IP.src", "IP:1.dst") -> (offset, name)."""
    if isinstance(where, int):
        return where, ""
    from .fields import locate
    try:
        loc = locate(_scapy_of(plan), where)
    except ValueError as e:
        raise ProfileError(site, f"{instr}: {e}") from None
    return loc.offset, where


def _layer_offset(plan: Plan, where: Any, site: Site, instr: str) -> int:
    if isinstance(where, int):
        return where
    if not isinstance(where, str):
        raise ProfileError(site, f"{instr}: expected an offset or a layer name, got {where!r}")
    from .fields import find_layer
    try:
        return find_layer(_scapy_of(plan), where)[2]
    except ValueError as e:
        raise ProfileError(site, f"{instr}: {e}") from None


# ---- the field-engine program -------------------------------------------------------------

def _fastrand_avg(rng: int) -> float:
    """TRex's expected value of a random size over [min, min + rng]: the mean of 10000 draws
    of its generator from seed 1, each mod (rng + 1)."""
    seed, total = 1, 0
    for _ in range(10000):
        seed = (214013 * seed + 2531011) & 0xFFFFFFFF
        total += ((seed >> 16) & 0x7FFF) % (rng + 1)
    return total / 10000.0


def _var_of(ins: api._Instr, has_prev: bool) -> Var:
    if isinstance(ins, api.STLVmFlowVar):
        v = Var(ins.name, ins.size, ins.op, ins.site, next_var=ins.next_var)
        if ins.value_list is not None:
            v.spec = {"list": list(ins.value_list)}
            if ins.op != "random":
                v.spec["step"] = ins.step
        else:
            v.spec = {"min": ins.min_value, "max": ins.max_value}
            if ins.op != "random":
                v.spec["step"] = ins.step
                v.spec["init"] = ins.init_value
        return v
    if isinstance(ins, api.STLVmFlowVarRepeatableRandom):
        # TRex's splitter multiplies the seed of a variable split between cores, on one
        # core too (phase 0); a variable after a next_var is not split.
        split = ins.split_to_cores and not has_prev
        seed = (ins.seed * LCG_SPLIT if split else ins.seed) & 0xFFFFFFFF
        v = Var(ins.name, ins.size, "repeat", ins.site, next_var=ins.next_var)
        v.spec = {"min": ins.min_value, "max": ins.max_value, "limit": ins.limit,
                  "seed": seed}
        return v
    assert isinstance(ins, api.STLVmTupleGen)
    v = Var(ins.name, 6, "tuple", ins.site)
    v.spec = {"ip": {"min": ins.ip_min, "max": ins.ip_max},
              "port": {"min": ins.port_min, "max": ins.port_max},
              "flows": ins.limit_flows}
    return v


_FLOW_VARS = (api.STLVmFlowVar, api.STLVmFlowVarRepeatableRandom)
_KNOWN = (api.STLVmFlowVar, api.STLVmFlowVarRepeatableRandom, api.STLVmTupleGen,
          api.STLVmWrFlowVar, api.STLVmWrMaskFlowVar, api.STLVmFixIpv4,
          api.STLVmFixChecksumHw, api.STLVmFixIcmpv6, api.STLVmTrimPktSize)


def _order(cmds: List[api._Instr]) -> List[api._Instr]:
    """TRex's execution order: flow variables first, each next_var chain head then its chain,
    in the order the heads were declared; then every other instruction as written."""
    flow = {c.name: c for c in cmds if isinstance(c, _FLOW_VARS)}
    prev: Dict[str, str] = {}
    for name, c in flow.items():
        nv = c.next_var
        if nv is None:
            continue
        if nv not in flow:
            raise ProfileError(c.site, f"{c.kind} {name}: next_var {nv!r} is not a flow "
                               f"variable of this program")
        if nv in prev:
            raise ProfileError(c.site, f"{c.kind} {name}: {nv} is already the next_var of "
                               f"{prev[nv]}")
        prev[nv] = name
    ordered: List[api._Instr] = []
    for name, c in flow.items():
        if name in prev:
            continue
        head: Any = c
        seen = set()
        while True:
            ordered.append(head)
            seen.add(head.name)
            if head.next_var is None:
                break
            head = flow[head.next_var]
            if head.name in seen:
                break
    if len(ordered) != len(flow):
        bad = next(c for n, c in flow.items() if c not in ordered)
        raise ProfileError(bad.site, f"{bad.kind} {bad.name}: next_var chains form a loop")
    return ordered + [c for c in cmds if not isinstance(c, _FLOW_VARS)]


def _compile_vm(plan: Plan, vm: api.STLScVmRaw) -> None:
    cmds = list(vm.commands)
    for c in cmds:
        if not isinstance(c, _KNOWN):
            what = type(c).__name__
            site = getattr(c, "site", vm.site)
            raise ProfileError(site, f"{vm.kind}: unknown field-engine instruction {what} "
                               f"(wirerate takes {', '.join(k.__name__ for k in _KNOWN)})")
    # Names: declared once, used after their declaration.
    declared: Dict[str, int] = {}
    for i, c in enumerate(cmds):
        for n in c.var_names():
            if n in declared:
                raise ProfileError(c.site, f"{c.kind}: variable {n} is declared twice")
            declared[n] = i
    for i, c in enumerate(cmds):
        ref = c.var_ref()
        if ref is None:
            continue
        if ref not in declared:
            raise ProfileError(c.site, f"{c.kind}: variable {ref!r} is not declared")
        if declared[ref] > i:
            decl = cmds[declared[ref]]
            raise ProfileError(c.site, f"{c.kind}: variable {ref} is written before it is "
                               f"declared (at line {decl.site[1]})")
    if cmds and not declared and any(c.var_ref() for c in cmds):
        raise ProfileError(vm.site, f"{vm.kind}: a program that writes needs a variable")
    targets = {c.next_var for c in cmds if isinstance(c, _FLOW_VARS) and c.next_var}
    sizes: Dict[str, int] = {}
    plan_vars: Dict[str, Var] = {}
    pos = 0
    for c in _order(cmds):
        pos += 1
        if isinstance(c, (api.STLVmFlowVar, api.STLVmFlowVarRepeatableRandom,
                          api.STLVmTupleGen)):
            if isinstance(c, api.STLVmTupleGen) and c.flags != 0:
                raise ProfileError(c.site, f"{c.kind} {c.name}: flags={c.flags} (ports "
                                   f"beyond port_min..port_max) is not supported")
            if (isinstance(c, api.STLVmFlowVar) and c.op == "random" and c.name in targets):
                raise ProfileError(c.site, f"{c.kind} {c.name}: a random variable after a "
                                   f"next_var draws only when the one before wraps, which "
                                   f"moves every later draw: not supported")
            v = _var_of(c, c.var_names()[0] in targets)
            plan.vars.append(v)
            plan_vars[v.name] = v
            if v.kind == "tuple":
                sizes[v.name + ".ip"] = 4
                sizes[v.name + ".port"] = 2
            else:
                sizes[v.name] = v.size
            if v.kind == "random":
                plan.has_random = True
            continue
        if isinstance(c, api.STLVmWrFlowVar):
            off, desc = _offset(plan, c.pkt_offset, c.site, c.kind)
            off += c.offset_fixup
            w = sizes[c.fv_name]
            _bounds(plan, c, off, w)
            plan.writes.append(Write(c.fv_name, off, w, c.site, c.kind, add=c.add_val,
                                     little=not c.is_big, desc=desc, pos=pos))
        elif isinstance(c, api.STLVmWrMaskFlowVar):
            off, desc = _offset(plan, c.pkt_offset, c.site, c.kind)
            off += c.offset_fixup
            if sizes[c.fv_name] == 8:
                raise ProfileError(c.site, f"{c.kind} {c.fv_name}: a masked write of an "
                                   f"8-byte variable (TRex reads 4 of its bytes, which ones "
                                   f"depends on the host) is not supported")
            if not c.is_big:
                raise ProfileError(c.site, f"{c.kind} {c.fv_name}: a little-endian masked "
                                   f"write is not supported")
            if not -31 <= c.shift <= 31:
                raise ProfileError(c.site, f"{c.kind} {c.fv_name}: shift {c.shift} is "
                                   f"outside -31..31")
            _bounds(plan, c, off, c.pkt_cast_size)
            plan.writes.append(Write(c.fv_name, off, c.pkt_cast_size, c.site, c.kind,
                                     add=c.add_value, mask=c.mask & 0xFFFFFFFF,
                                     shift=c.shift, desc=desc, pos=pos))
        elif isinstance(c, api.STLVmFixIpv4):
            off = _layer_offset(plan, c.offset, c.site, c.kind)
            plan.fixes.append(Fix([_region(plan, "ipv4", off, c)], c.site, c.kind, True, pos))
        elif isinstance(c, api.STLVmFixChecksumHw):
            plan.fixes.append(_hw_fix(plan, c, pos))
        elif isinstance(c, api.STLVmFixIcmpv6):
            l3 = _layer_offset(plan, c.l3_offset, c.site, c.kind)
            l4 = _layer_offset(plan, c.l4_offset, c.site, c.kind)
            if l4 - l3 != 40:
                raise ProfileError(c.site, f"{c.kind}: ICMPv6 {l4 - l3} bytes after the IPv6 "
                                   f"header (extension headers) is not supported")
            plan.fixes.append(Fix([_region(plan, "icmp6", l4, c, ip=l3)], c.site, c.kind,
                                  True, pos))
        elif isinstance(c, api.STLVmTrimPktSize):
            _trim(plan, c, plan_vars)
    if vm.cache_size > CACHE_MAX:
        raise ProfileError(vm.site, f"{vm.kind}: cache_size {vm.cache_size} is above TRex's "
                           f"{CACHE_MAX}")
    plan.cache = vm.cache_size
    _check_fix_order(plan)


def _bounds(plan: Plan, c: Any, off: int, width: int) -> None:
    if off < 0 or off + width > len(plan.frame):
        raise ProfileError(c.site, f"{c.kind} {c.fv_name}: offset {off} + {width} bytes is "
                           f"past the packet's {len(plan.frame)} bytes")


def _region(plan: Plan, kind: str, off: int, c: Any, ip: Optional[int] = None) -> Region:
    for r in regions(plan.frame):
        if r.kind == kind and (r.start == off if kind != "ipv4" else r.start == off):
            if ip is None or r.ip_off == ip:
                return r
    where = f"an IPv4 header at {off}" if kind == "ipv4" else f"a {kind} header at {off}"
    raise ProfileError(c.site, f"{c.kind}: the packet has no {where}")


def _hw_fix(plan: Plan, c: api.STLVmFixChecksumHw, pos: int) -> Fix:
    l3 = _layer_offset(plan, c.l3_offset, c.site, c.kind)
    l4 = _layer_offset(plan, c.l4_offset, c.site, c.kind)
    f = plan.frame
    if l3 < 14 or l3 >= len(f):
        raise ProfileError(c.site, f"{c.kind}: l3_offset {l3} is not an IP header")
    ipp = reg.named_by("ip", f[l3] >> 4)
    got: List[Region] = []
    # TRex's L4 types, by the registry's names.
    l4_name = "tcp" if c.l4_type == api.CTRexVmInsFixHwCs.L4_TYPE_TCP else "udp"
    if ipp is not None and ipp["csum"] == "header":
        got.append(_region(plan, ipp["name"], l3, c))
        if c.l4_type != api.CTRexVmInsFixHwCs.L4_TYPE_IP:
            # TRex asks the NIC for the checksum of what the IPv4 header says follows.
            nxt = reg.named_by("ipproto", reg.read_field(f, l3, reg.role(ipp, "next_ipproto")))
            if nxt is not None and nxt["name"] in ("tcp", "udp"):
                got.append(_region(plan, nxt["name"], l4, c, ip=l3))
    elif ipp is not None:
        if c.l4_type == api.CTRexVmInsFixHwCs.L4_TYPE_IP:
            raise ProfileError(c.site, f"{c.kind}: L4_TYPE_IP over {ipp['title']} (no header "
                               f"checksum)")
        got.append(_region(plan, l4_name, l4, c, ip=l3))
    else:
        raise ProfileError(c.site, f"{c.kind}: no IPv4 or IPv6 header at {l3}")
    return Fix(got, c.site, c.kind, False, pos)


def _trim(plan: Plan, c: api.STLVmTrimPktSize, plan_vars: Dict[str, Var]) -> None:
    v = plan_vars.get(c.fv_name)
    if v is None or v.kind not in ("inc", "dec", "random") or v.size != 2:
        raise ProfileError(c.site, f"{c.kind}: {c.fv_name} must be a 2-byte STLVmFlowVar "
                           f"(its value is the packet size)")
    if plan.trim is not None:
        raise ProfileError(c.site, f"{c.kind}: the packet is already trimmed by {plan.trim}")
    n = len(plan.frame)
    if "list" in v.spec:
        for x in v.spec["list"]:
            if x > n or x < TRIM_MIN:
                raise ProfileError(c.site, f"{c.kind} {c.fv_name}: size {x} in value_list "
                                   f"is outside {TRIM_MIN}..{n} (the packet's size)")
        lo, hi = min(v.spec["list"]), max(v.spec["list"])
        avg = sum(v.spec["list"]) / len(v.spec["list"])
    else:
        lo, hi = v.spec["min"], v.spec["max"]
        # As TRex's compiler: the range is cut to the packet and raised to 60 bytes.
        hi = min(hi, n)
        lo = min(lo, n)
        if lo >= hi:
            raise ProfileError(c.site, f"{c.kind} {c.fv_name}: min size {lo} is not below max "
                               f"size {hi}")
        lo = max(lo, TRIM_MIN)
        if "init" in v.spec and not lo <= v.spec["init"] <= hi:
            raise ProfileError(c.site, f"{c.kind} {c.fv_name}: init_value {v.spec['init']} "
                               f"is outside the sizes TRex sends ({lo}..{hi})")
        v.spec["min"], v.spec["max"] = lo, hi
        avg = (lo + _fastrand_avg(hi - lo)) if v.kind == "random" else (lo + hi) / 2.0
    plan.trim = c.fv_name
    plan.trim_range = (lo, hi)
    plan.trim_avg = avg


def _check_fix_order(plan: Plan) -> None:
    """A software fix (STLVmFixIpv4, STLVmFixIcmpv6) sums the bytes as they are when it
    runs: a later write into what it covers leaves TRex's checksum wrong.  Refused."""
    for fx in plan.fixes:
        if not fx.software:
            continue
        for w in plan.writes:
            if w.pos > fx.pos and any(r.covers(w.offset, w.width) for r in fx.regions):
                raise ProfileError(w.site, f"{w.instr} {w.var}: writes offset {w.offset} "
                                   f"after {fx.instr} (line {fx.site[1]}) summed those bytes: "
                                   f"TRex sends that checksum without this write; put the fix "
                                   f"after the write")


# ---- the stream -------------------------------------------------------------------------------

_NAME_OK = re.compile(r"[^A-Za-z0-9_.-]")


def _names(streams: Sequence[api.STLStream]) -> List[str]:
    out: List[str] = []
    for i, s in enumerate(streams):
        base = str(s.name) if s.name is not None else f"s{i}"
        base = _NAME_OK.sub("_", base)[:56] or f"s{i}"
        name, n = base, 1
        while name in out:
            n += 1
            name = f"{base}-{n}"
        out.append(name)
    return out


def _refuse_stream(s: api.STLStream) -> None:
    if s.dummy_stream:
        raise ProfileError(s.site, "STLStream: dummy_stream (a delay that sends nothing) is "
                           "not supported")
    if s.start_paused:
        raise ProfileError(s.site, "STLStream: start_paused is not supported")


def _plan(s: api.STLStream, name: str, profile: str) -> Plan:
    _refuse_stream(s)
    builder = s.packet if s.packet is not None else api.STLPktBuilder()
    if s.packet is None:
        builder.site = s.site
    raw, pkt, src_def, dst_def = _packet(builder, profile)
    if len(raw) < FRAME_MIN or len(raw) > FRAME_MAX:
        raise ProfileError(builder.site, f"STLPktBuilder: a packet of {len(raw)} bytes: "
                           f"expected {FRAME_MIN}..{FRAME_MAX} (without FCS)")
    # TRex's own overrides of the MAC choice.
    if s.mac_src_override_by_pkt is not None:
        src_def = not s.mac_src_override_by_pkt
    if s.mac_dst_override_mode is not None:
        dst_def = s.mac_dst_override_mode != api.STLStreamDstMAC_PKT
    plan = Plan(s, name, raw, pkt, src_def, dst_def, seed=s.random_seed)
    if builder.vm is not None and builder.vm.commands:
        _compile_vm(plan, builder.vm)
    return plan


# ---- YAML -------------------------------------------------------------------------------------

def _val(v: Var, x: int) -> Any:
    return str(ipaddress.IPv4Address(x)) if v.is_ip and 0 <= x <= 0xFFFFFFFF else x


def _var_yaml(v: Var) -> Dict[str, Any]:
    d: Dict[str, Any] = {"name": v.name}
    if v.kind == "tuple":
        sp = v.spec
        d["tuple"] = {"ip": {"min": str(ipaddress.IPv4Address(sp["ip"]["min"])),
                             "max": str(ipaddress.IPv4Address(sp["ip"]["max"]))},
                      "port": dict(sp["port"]), "flows": sp["flows"]}
        return d
    d["size"] = v.size
    body: Dict[str, Any] = {}
    if "list" in v.spec:
        body["list"] = [_val(v, x) for x in v.spec["list"]]
        if "step" in v.spec and v.spec["step"] != 1:
            body["step"] = v.spec["step"]
    else:
        body["min"] = _val(v, v.spec["min"])
        body["max"] = _val(v, v.spec["max"])
        if v.kind in ("inc", "dec"):
            if v.spec["step"] != 1:
                body["step"] = v.spec["step"]
            first = v.spec["min"] if v.kind == "inc" else v.spec["max"]
            if v.spec["init"] != first:
                body["init"] = _val(v, v.spec["init"])
        if v.kind == "repeat":
            body["seed"] = v.spec["seed"]
            body["limit"] = v.spec["limit"]
    d[v.kind] = body
    if v.next_var:
        d["next_var"] = v.next_var
    return d


def _mark_ips(plan: Plan) -> None:
    """A 4-byte variable written whole to IPv4 addresses only is shown as addresses."""
    by_var: Dict[str, List[Write]] = {}
    for w in plan.writes:
        by_var.setdefault(w.var, []).append(w)
    for v in plan.vars:
        ws = by_var.get(v.name, [])
        v.is_ip = (v.size == 4 and bool(ws) and
                   all(w.mask is None and w.add == 0 and w.desc.split(".")[-1] in ("src", "dst")
                       and w.desc.split(".")[0].split(":")[0] == "IP" for w in ws))


def _checksum_yaml(plan: Plan) -> List[Dict[str, Any]]:
    out: List[Dict[str, Any]] = []
    seen = set()
    for fx in plan.fixes:
        for r in fx.regions:
            if (r.kind, r.start) in seen:
                continue
            seen.add((r.kind, r.start))
            if r.kind == "ipv4":
                out.append({"ipv4": r.start})
            else:
                out.append({r.kind: r.start, "ip": r.ip_off})
    return out


def _stale_notes(plan: Plan, notes: List[Note]) -> None:
    fixed = {(r.kind, r.start) for fx in plan.fixes for r in fx.regions}
    for r in regions(plan.frame):
        if (r.kind, r.start) in fixed:
            continue
        for w in plan.writes:
            if r.covers(w.offset, w.width):
                what = f"{w.desc} (offset {w.offset})" if w.desc else f"offset {w.offset}"
                notes.append(Note(w.site, f"{w.instr} {w.var} varies {what} under the "
                                  f"{r.kind.upper() if r.kind != 'icmp6' else 'ICMPv6'} "
                                  f"checksum at offset {r.csum_off}, which the profile does "
                                  f"not fix: TRex sends it stale, and so does this file "
                                  f"(--fix-checksums fixes every checksum)"))
                break
        if plan.trim and r.rule != "header":
            notes.append(Note(plan.stream.site, f"{plan.name}: trimmed sizes change what the "
                              f"{r.kind.upper()} checksum at offset {r.csum_off} covers, and "
                              f"the profile does not fix it: TRex sends it stale, so does "
                              f"this file"))


def _frame_items(plan: Plan, opts: Options) -> List[Tuple[str, Any, str]]:
    items: List[Tuple[str, Any, str]] = []
    eth = _eth_override(plan, opts)
    # The bytes as dump and check show them: the MACs that eth: writes over are
    # written with what `port` stands for until a run starts.
    frame = bytearray(plan.frame)
    for key, off, default in (("dst", 0, PORT_DST_MAC), ("src", 6, PORT_SRC_MAC)):
        if key in eth:
            mac = default if eth[key] == "port" else eth[key]
            frame[off:off + 6] = bytes.fromhex(mac.replace(":", ""))
    items.append(("frame", frame.hex(), f"{len(plan.frame)} bytes without FCS"
                  + (f": {_layers(plan.pkt)}" if plan.pkt is not None else "")))
    if eth:
        items.append(("eth", eth, "the MACs TRex takes from its port configuration"))
    if plan.has_random:
        items.append(("seed", plan.seed if plan.seed else 1,
                      "STLStream random_seed" if plan.seed else
                      "TRex draws a seed at random here (random_seed=0)"))
    _mark_ips(plan)
    if plan.vars:
        vl = Lines()
        for v in plan.vars:
            vl.add(_var_yaml(v), f"{os.path.basename(v.site[0])}:{v.site[1]}")
        items.append(("vars", vl, ""))
    if plan.writes:
        fl = Lines()
        for w in plan.writes:
            d: Dict[str, Any] = {"offset": w.offset, "var": w.var}
            if w.mask is not None:
                d["width"] = w.width
                d["mask"] = hexint(w.mask)
                if w.shift:
                    d["shift"] = w.shift
            if w.add:
                d["add"] = w.add
            if w.little:
                d["order"] = "little"
            where = f"{w.desc}, " if w.desc else ""
            fl.add(d, f"{where}{os.path.basename(w.site[0])}:{w.site[1]}")
        items.append(("fields", fl, ""))
    if not opts.fix_checksums:
        items.append(("checksums", _checksum_yaml(plan),
                      "only those the profile fixes" if plan.fixes else
                      "the profile fixes none: every checksum as in the packet"))
    if plan.trim:
        items.append(("trim", plan.trim, f"frames cut to {plan.trim} bytes "
                      f"({plan.trim_range[0]}..{plan.trim_range[1]}) without FCS"))
    if plan.cache:
        items.append(("cache", plan.cache, "TRex's cache_size: the first N frames, again"))
    return items


def _layers(pkt: Any) -> str:
    try:
        from .fields import layer_list
        return " / ".join(layer.__class__.__name__ for layer, _ in layer_list(pkt))
    except Exception:
        return ""


def _eth_override(plan: Plan, opts: Options, stack: bool = False) -> Dict[str, str]:
    d: Dict[str, str] = {}
    if plan.src_default:
        d["src"] = opts.src_mac
    if plan.dst_default:
        if opts.dst_mac in ("arp", "nd") and not stack:
            raise ProfileError(plan.stream.site, f"--dst-mac {opts.dst_mac}: stream "
                               f"{plan.name} is sent as bytes (frame:), whose next hop "
                               f"wirerate cannot ask for; give the port's dst_mac "
                               f"(--dst-mac port) or a MAC")
        d["dst"] = opts.dst_mac
    return d


# ---- stacks (streams without a program) -------------------------------------------------------

def _payload_yaml(data: bytes) -> Any:
    if not data or all(b == 0 for b in data):
        return "zeros"
    if all(b == (i & 0xFF) for i, b in enumerate(data)):
        return "inc"
    for p in range(1, min(len(data), 64) + 1):
        if all(data[i] == data[i % p] for i in range(len(data))):
            return {"pattern": data[:p].hex()}
    return {"pattern": data.hex()}


def _stack(plan: Plan, opts: Options) -> Optional[List[Tuple[str, Any, str]]]:
    """The stack items when the packet is one wirerate's stack rebuilds byte for byte."""
    if plan.pkt is None or len(plan.frame) + FCS < 64:
        return None
    from . import stackmap
    got = stackmap.to_stack(plan.pkt, plan.frame)
    if got is None:
        return None
    layers, payload = got
    if layers and "eth" in layers[0]:
        eth = layers[0]["eth"]
        over = _eth_override(plan, opts, stack=True)
        eth.update(over)
    items: List[Tuple[str, Any, str]] = [
        ("size", len(plan.frame) + FCS, f"{len(plan.frame)} bytes + FCS"),
        ("stack", layers, ""),
    ]
    if payload != "zeros":
        items.append(("payload", payload, ""))
    return items


# ---- statistics ------------------------------------------------------------------------------

def _stats_items(plan: Plan, stack: bool,
                 notes: List[Note]) -> List[Tuple[str, Any, str]]:
    """TRex's flow statistics as wirerate's signatures: STLFlowLatencyStats is latency: true
    (latency, jitter, loss, order), STLFlowStats and STLTaggedPktGroup latency: loss (the
    stream's frames counted received, lost, late, repeated).  Either signature is written
    after the last header, where TRex writes its own at the end of the payload (and counts
    STLFlowStats by the IPv4 id): the frames differ there."""
    fs = plan.stream.flow_stats
    if fs is None:
        return []
    if not stack:
        raise ProfileError(fs.site, f"{fs.kind}: stream {plan.name} is sent as bytes "
                           f"(frame:, for its field-engine program or a packet wirerate's "
                           f"stack does not build), and wirerate's per-stream counters and "
                           f"latency need its signature in a stack stream")
    if fs.ieee_1588:
        notes.append(Note(fs.site, f"{fs.kind}: ieee_1588: wirerate times frames with the "
                          f"TSC (or the port's RX timestamps), not IEEE 1588"))
    what = {"true": "latency, jitter, loss", "loss": "per-stream counters"}[fs.latency]
    value: Any = True if fs.latency == "true" else "loss"
    return [("latency", value, f"TRex's {fs.kind}(pg_id={fs.pg_id}): {what}")]


# ---- modes, rates, chains ---------------------------------------------------------------------

def _fmt_num(x: float, places: int = 6) -> str:
    if abs(x - round(x)) < 1e-9:
        return str(int(round(x)))
    return f"{x:.{places}f}".rstrip("0").rstrip(".")


def _avg_len(plan: Plan) -> float:
    return plan.trim_avg if plan.trim else float(len(plan.frame))


def _base_rate(plan: Plan) -> Tuple[str, float]:
    m = plan.stream.mode
    return m.rate_type, float(m.rate_value)


def _in_unit(plan: Plan, unit: str) -> Optional[float]:
    """The stream's rate in pps, bps (L2) or bpsl1, as TRex converts (average size + FCS)."""
    t, v = _base_rate(plan)
    size = _avg_len(plan) + FCS
    if t == "percentage":
        return None
    pps = v if t == "pps" else v / (8 * size) if t == "bps_L2" else v / (8 * (size + 20))
    return {"pps": pps, "bps": pps * size * 8, "bpsl1": pps * (size + 20) * 8}[unit]


PORT_MAX = 31          # wirerate's ports are 0..31 (WR_PORTS_MAX)


def check_mult(mult: str) -> "re.Match[str]":
    """TRex console's -m, checked before the profile runs: a factor, a rate or a percentage
    of the line, more than 0 (a percentage at most 100)."""
    m = re.match(r"^(\d+(?:\.\d+)?)(?:([kmg]?)(bpsl1|bps|pps)|(%))?$", mult.strip().lower())
    if not m:
        raise ProfileError(None, f"-m {mult}: expected a factor (2), a rate (10mpps, 1gbps, "
                           f"5gbpsl1) or a percentage (50%), as TRex's console takes")
    if float(m.group(1)) <= 0:
        raise ProfileError(None, f"-m {mult}: expected more than 0 (to send nothing, leave "
                           f"the profile out)")
    if m.group(4) and float(m.group(1)) > 100:
        raise ProfileError(None, f"-m {mult}: a percentage of the line is at most 100%")
    return m


def _mult_factor(plans: List[Plan], mult: Optional[str], sequenced: bool) -> float:
    if not mult:
        return 1.0
    m = check_mult(mult)
    value = float(m.group(1))
    if m.group(3) is None and m.group(4) is None:
        return value
    if m.group(4):
        if not all(_base_rate(p)[0] == "percentage" for p in plans):
            raise ProfileError(None, f"-m {mult}: a percentage of the line needs the port's "
                               f"speed; give -m in pps, bps or bpsl1 (or a factor)")
        base = [p.stream.mode.rate_value for p in plans]
    else:
        value *= {"": 1, "k": 1e3, "m": 1e6, "g": 1e9}[m.group(2)]
        unit = m.group(3)
        base = []
        for p in plans:
            r = _in_unit(p, unit)
            if r is None:
                raise ProfileError(p.stream.mode.site, f"-m {mult}: this stream's rate is a "
                                   f"percentage of the line, which needs the port's speed")
            base.append(r)
    total = max(base) if sequenced else sum(base)
    return value / total


def _rate(plan: Plan, factor: float, notes: Optional[List[Note]] = None) -> str:
    t, v = _base_rate(plan)
    v *= factor
    size = _avg_len(plan)
    if t == "percentage":
        if plan.trim:
            raise ProfileError(plan.stream.mode.site, f"{plan.stream.mode.kind}: a percentage "
                               f"rate with trimmed sizes (TRex converts with its average "
                               f"size and the port's speed): give pps or bps")
        # wirerate keeps a share of the line in millionths of it (0.0001 %)
        kept = round(v * 10000) / 10000
        if kept <= 0:
            raise ProfileError(plan.stream.mode.site, f"{plan.stream.mode.kind}: "
                               f"{plan.name}'s rate is {v:.3g}% of the line: wirerate's "
                               f"smallest share is 0.0001%")
        if notes is not None and abs(kept - v) > 1e-12:
            notes.append(Note(plan.stream.mode.site, f"{plan.name}: {_fmt_num(v, 9)}% of the "
                              f"line is sent as {_fmt_num(kept, 4)}% (wirerate's rates in "
                              f"millionths of the line)"))
        return f"{_fmt_num(kept, 4)}%"
    # Packet rates in whole milli-pps, as wirerate keeps them (TRex's are doubles).
    pps = v if t == "pps" else v / (8 * (size + FCS + (20 if t == "bps_L1" else 0)))
    if round(pps * 1000) < 1:
        raise ProfileError(plan.stream.mode.site, f"{plan.stream.mode.kind}: {plan.name}'s "
                           f"rate{' with -m' if factor != 1.0 else ''} is {pps:.3g} pps: "
                           f"wirerate's slowest is 0.001 pps")
    if t == "pps":
        return f"{_fmt_num(v, 3)} pps"
    # TRex converts bits to packets with its average size plus the FCS; wirerate's own
    # conversion agrees for fixed sizes of 60 bytes or more (below, the NIC pads: wirerate
    # counts the padded frame, TRex the packet).
    if plan.trim or len(plan.frame) < 60:
        pps = v / (8 * (size + FCS + (20 if t == "bps_L1" else 0)))
        return f"{_fmt_num(pps, 3)} pps"
    return f"{_fmt_num(v)} bps {'L1' if t == 'bps_L1' else 'L2'}"


def _mode_items(plan: Plan, factor: float,
                notes: Optional[List[Note]] = None) -> List[Tuple[str, Any, str]]:
    m = plan.stream.mode
    items: List[Tuple[str, Any, str]] = [("rate", _rate(plan, factor, notes), m.kind)]
    if isinstance(m, api.STLTXSingleBurst):
        items.append(("count", m.total_pkts, ""))
    elif isinstance(m, api.STLTXMultiBurst):
        items.append(("count", m.pkts_per_burst * m.count, f"{m.count} bursts"))
        if m.count > 1:
            items.append(("bursts", {"frames": m.pkts_per_burst,
                                     "gap": f"{_fmt_num(m.ibg)}us"}, "TRex's ibg"))
    if plan.stream.isg:
        items.append(("isg", f"{_fmt_num(plan.stream.isg)}us", ""))
    return items


def _schedule(plans: List[Plan], notes: List[Note]) -> Tuple[List[Plan], Dict[str, str], int]:
    """Which streams are sent and in what order: together, or as one next chain (a wirerate
    sequence).  Returns (plans in file order, next: per stream name, loops)."""
    by_name: Dict[str, Plan] = {}
    for p in plans:
        if p.stream.name is not None:
            by_name[str(p.stream.name)] = p
    for p in plans:
        nx = p.stream.next
        if nx is not None and str(nx) not in by_name:
            raise ProfileError(p.stream.site, f"STLStream {p.name}: next stream {nx!r} does "
                               f"not exist")
    enabled = [p for p in plans if p.stream.enabled]
    for p in plans:
        if not p.stream.enabled:
            refs = [q for q in enabled if q.stream.next is not None and
                    str(q.stream.next) == str(p.stream.name)]
            if refs:
                raise ProfileError(refs[0].stream.site, f"STLStream {refs[0].name}: next "
                                   f"stream {p.name} is disabled")
            notes.append(Note(p.stream.site, f"STLStream {p.name}: enabled=False, left out"))
    chained = [p for p in enabled if p.stream.next is not None]
    heads = [p for p in enabled if p.stream.self_start]
    if not chained:
        for p in enabled:
            if not p.stream.self_start:
                notes.append(Note(p.stream.site, f"STLStream {p.name}: self_start=False and no "
                                  f"stream's next starts it: TRex never sends it, left out"))
        return heads, {}, 0
    if len(heads) != 1:
        site = heads[1].stream.site if len(heads) > 1 else chained[0].stream.site
        raise ProfileError(site, f"STLStream: {len(heads)} self-starting streams with a next "
                           f"chain on one port: wirerate runs a port's streams either all "
                           f"together or one after another (one chain from one head)")
    order: List[Plan] = []
    nexts: Dict[str, str] = {}
    loops = 0
    cur: Optional[Plan] = heads[0]
    while cur is not None:
        order.append(cur)
        nx = cur.stream.next
        if nx is None:
            nexts[cur.name] = "stop"
            if cur.stream.action_count:
                raise ProfileError(cur.stream.site, f"STLStream {cur.name}: action_count "
                                   f"without a next stream")
            break
        nxt = by_name[str(nx)]
        if nxt in order:
            if nxt is not order[0]:
                raise ProfileError(cur.stream.site, f"STLStream {cur.name}: next {nx} goes "
                                   f"back to the middle of the chain: wirerate's sequences "
                                   f"loop to their first stream only")
            nexts[cur.name] = "first"
            loops = cur.stream.action_count
            break
        if cur.stream.action_count:
            raise ProfileError(cur.stream.site, f"STLStream {cur.name}: action_count on a "
                               f"stream that does not go back to the chain's first: not "
                               f"supported")
        if not nxt.stream.enabled:
            raise ProfileError(cur.stream.site, f"STLStream {cur.name}: next {nx} is disabled")
        nexts[cur.name] = "next"
        cur = nxt
    for p in order:
        if isinstance(p.stream.mode, api.STLTXCont):
            raise ProfileError(p.stream.site, f"STLStream {p.name}: a continuous stream in a "
                               f"next chain never ends: wirerate's sequences need every "
                               f"stream to end")
    for p in enabled:
        if p not in order:
            if p.stream.self_start:
                raise ProfileError(p.stream.site, f"STLStream {p.name}: runs beside a next "
                                   f"chain on the same port: not supported")
            notes.append(Note(p.stream.site, f"STLStream {p.name}: no next chain reaches it: "
                              f"TRex never sends it, left out"))
    return order, nexts, loops


# ---- entry point ------------------------------------------------------------------------------

@dataclass
class Result:
    yaml: str
    notes: List[Note]
    plans: List[Plan]


def convert(streams: Sequence[api.STLStream], profile: str,
            opts: Optional[Options] = None, tunables: Sequence[str] = ()) -> Result:
    """The stream file for ``streams`` (what ``profile``'s get_streams returned)."""
    opts = opts or Options()
    notes: List[Note] = [Note(site, msg) for site, msg in api.NOTES]
    del api.NOTES[:]
    names = _names(streams)
    plans = [_plan(s, n, profile) for s, n in zip(streams, names)]
    order, nexts, loops = _schedule(plans, notes)
    factor = _mult_factor(order, opts.mult, bool(nexts))
    out_streams = []
    for p in order:
        comments = [f"{p.name}: {os.path.basename(p.stream.site[0])}:{p.stream.site[1]}"]
        items: List[Tuple[str, Any, str]] = [("name", p.name, "")]
        if opts.port:
            items.append(("port", opts.port, ""))
        body = None
        if not p.vars and not p.writes and not p.fixes:
            body = _stack(p, opts)
        if body is None:
            body = _frame_items(p, opts)
            if not opts.fix_checksums:
                _stale_notes(p, notes)
        items += body
        items += _stats_items(p, body is not None and any(k == "stack" for k, _, _ in body),
                              notes)
        items += _mode_items(p, factor, notes)
        if p.name in nexts:
            items.append(("next", nexts[p.name], ""))
        out_streams.append((comments, items))
    header = [f"wirerate stream file from the TRex profile {profile}"
              + (f" (tunables: {' '.join(tunables)})" if tunables else ""),
              "written by wirerate import-trex; doc/trex.md says what each key means"]
    top: List[Tuple[str, Any, str]] = [("version", 1, "")]
    if nexts:
        top.append(("loops", loops, "the chain's action_count (0: for ever)"))
    return Result(stream_file(header, top, out_streams), notes, plans)

