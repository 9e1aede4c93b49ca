# SPDX-License-Identifier: BSD-3-Clause
"""TRex stateless profile API, as recorded by wirerate: the objects a profile builds.

Profiles written for TRex (``from trex_stl_lib.api import *`` or ``from trex.stl.api import *``)
run against these classes with no TRex installed.  They check arguments as TRex's do, record
what the profile asks (and the profile line that asked it), and leave the meaning to
``wirerate.trex.convert``, which turns a list of STLStream into a stream file or refuses, naming
the line, what it cannot send exactly.
"""

from __future__ import annotations

import ipaddress
from typing import Any, Dict, List, Optional, Sequence

from .errors import ProfileError, Site, TRexError, call_site

# ---- values -----------------------------------------------------------------------------------

_SIZE_MAX = {1: 0xff, 2: 0xffff, 4: 0xffffffff, 8: 0xffffffffffffffff}


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _num(site: Site, what: str, v: Any) -> int:
    """An integer, or a dotted quad as TRex takes for IPv4 addresses."""
    if _is_int(v):
        return v
    if isinstance(v, str):
        try:
            return int(ipaddress.IPv4Address(v))
        except ValueError:
            pass
    raise ProfileError(site, f"{what}: expected an integer or an IPv4 address, got {v!r}")


# Warnings the profile's own calls leave (an HLT parameter TRex ignores, ...): the converter
# prints them with its own.  load() empties it before a profile runs.
NOTES: List[Any] = []


def note(site: Site, message: str) -> None:
    if (site, message) not in NOTES:
        NOTES.append((site, message))


def _check(site: Site, ok: bool, message: str) -> None:
    if not ok:
        raise ProfileError(site, message)


# ---- field engine ------------------------------------------------------------------------------

class _Instr:
    """One field-engine instruction, with the profile line that made it."""

    kind = "instruction"

    def __init__(self) -> None:
        self.site: Site = call_site()

    def var_names(self) -> List[str]:
        return []

    def var_ref(self) -> Optional[str]:
        return None


class STLVmFlowVar(_Instr):
    """A variable of 1, 2, 4 or 8 bytes: inc, dec or random over [min, max] or a value list."""

    kind = "STLVmFlowVar"

    def __init__(self, name: str, init_value: Any = None, min_value: Any = 0,
                 max_value: Any = 255, size: int = 4, step: Any = 1, op: str = "inc",
                 value_list: Optional[Sequence[Any]] = None, split_to_cores: bool = True,
                 next_var: Optional[str] = None):
        super().__init__()
        s = self.site
        _check(s, isinstance(name, str), f"{self.kind}: name must be a string, got {name!r}")
        _check(s, size in _SIZE_MAX, f"{self.kind} {name}: size must be 1, 2, 4 or 8, "
               f"got {size!r}")
        _check(s, op in ("inc", "dec", "random"), f"{self.kind} {name}: op must be inc, dec "
               f"or random, got {op!r}")
        _check(s, isinstance(split_to_cores, bool), f"{self.kind} {name}: split_to_cores "
               f"must be a bool")
        if next_var is not None:
            _check(s, isinstance(next_var, str), f"{self.kind} {name}: next_var must be a "
                   f"string")
            _check(s, op != "random", f"{self.kind} {name}: a random variable cannot have "
                   f"next_var")
            _check(s, next_var != name, f"{self.kind} {name}: next_var names itself")
        self.name = name
        self.size = size
        self.op = op
        self.split_to_cores = split_to_cores
        self.next_var = next_var
        self.step = _num(s, f"{self.kind} {name}: step", step)
        _check(s, self.step > 0, f"{self.kind} {name}: step must be more than 0")
        top = _SIZE_MAX[size]
        if value_list is None:
            self.value_list = None
            if init_value is None:
                init_value = max_value if op == "dec" else min_value
            self.min_value = _num(s, f"{self.kind} {name}: min_value", min_value)
            self.max_value = _num(s, f"{self.kind} {name}: max_value", max_value)
            self.init_value = _num(s, f"{self.kind} {name}: init_value", init_value)
            for what, v in (("min_value", self.min_value), ("max_value", self.max_value),
                            ("init_value", self.init_value), ("step", self.step)):
                _check(s, 0 <= v <= top, f"{self.kind} {name}: {what} {v} does not fit "
                       f"{size} bytes")
            _check(s, self.min_value <= self.max_value, f"{self.kind} {name}: max_value "
                   f"{self.max_value} is lower than min_value {self.min_value}")
            _check(s, self.min_value <= self.init_value <= self.max_value,
                   f"{self.kind} {name}: init_value must lie in [min_value, max_value]")
        else:
            _check(s, isinstance(value_list, (list, tuple)) and len(value_list) > 0,
                   f"{self.kind} {name}: value_list must be a non-empty list")
            _check(s, len(value_list) <= 0xffff, f"{self.kind} {name}: value_list of "
                   f"{len(value_list)} values: at most 65535")
            self.value_list = [_num(s, f"{self.kind} {name}: value_list", v)
                               for v in value_list]
            for v in self.value_list:
                _check(s, 0 <= v <= top, f"{self.kind} {name}: value {v} does not fit "
                       f"{size} bytes")
            self.init_value = self.min_value = self.max_value = None

    def var_names(self) -> List[str]:
        return [self.name]


class STLVmFlowVarRepeatableRandom(_Instr):
    """A random variable that repeats its first ``limit`` values, drawn from its own ``seed``."""

    kind = "STLVmFlowVarRepeatableRandom"

    def __init__(self, name: str, size: int = 4, limit: int = 100, seed: Optional[int] = None,
                 min_value: Any = 0, max_value: Any = None, split_to_cores: bool = True,
                 next_var: Optional[str] = None):
        super().__init__()
        s = self.site
        _check(s, isinstance(name, str), f"{self.kind}: name must be a string")
        _check(s, size in _SIZE_MAX, f"{self.kind} {name}: size must be 1, 2, 4 or 8")
        _check(s, _is_int(limit) and limit > 0, f"{self.kind} {name}: limit must be an "
               f"integer more than 0, got {limit!r}")
        _check(s, limit <= _SIZE_MAX[size], f"{self.kind} {name}: limit {limit} does not "
               f"fit {size} bytes")
        _check(s, isinstance(split_to_cores, bool), f"{self.kind} {name}: split_to_cores "
               f"must be a bool")
        if next_var is not None:
            _check(s, isinstance(next_var, str) and next_var != name,
                   f"{self.kind} {name}: next_var must name another variable")
        self.name = name
        self.size = size
        self.limit = limit
        # TRex draws a seed at random when none is given: the frames then differ from run to
        # run.  The converter says so and uses its own.
        self.seed_given = seed is not None
        self.seed = seed if seed is not None else 0
        _check(s, _is_int(self.seed), f"{self.kind} {name}: seed must be an integer")
        self.min_value = _num(s, f"{self.kind} {name}: min_value", min_value)
        self.max_value = (_SIZE_MAX[size] if max_value is None
                          else _num(s, f"{self.kind} {name}: max_value", max_value))
        for what, v in (("min_value", self.min_value), ("max_value", self.max_value)):
            _check(s, 0 <= v <= _SIZE_MAX[size], f"{self.kind} {name}: {what} {v} does not "
                   f"fit {size} bytes")
        _check(s, self.min_value <= self.max_value, f"{self.kind} {name}: max_value is lower "
               f"than min_value")
        self.split_to_cores = split_to_cores
        self.next_var = next_var

    def var_names(self) -> List[str]:
        return [self.name]


class STLVmTupleGen(_Instr):
    """Two linked variables NAME.ip and NAME.port: the port moves when the address wraps."""

    kind = "STLVmTupleGen"

    def __init__(self, name: str, ip_min: Any = "0.0.0.1", ip_max: Any = "0.0.0.10",
                 port_min: int = 1025, port_max: int = 65535, limit_flows: int = 100000,
                 flags: int = 0):
        super().__init__()
        s = self.site
        _check(s, isinstance(name, str), f"{self.kind}: name must be a string")
        self.name = name
        self.ip_min = _num(s, f"{self.kind} {name}: ip_min", ip_min)
        self.ip_max = _num(s, f"{self.kind} {name}: ip_max", ip_max)
        for what, v in (("port_min", port_min), ("port_max", port_max),
                        ("limit_flows", limit_flows), ("flags", flags)):
            _check(s, _is_int(v), f"{self.kind} {name}: {what} must be an integer")
        _check(s, 0 <= self.ip_min <= self.ip_max <= 0xffffffff,
               f"{self.kind} {name}: expected ip_min <= ip_max, IPv4 addresses")
        _check(s, 0 <= port_min <= port_max <= 0xffff,
               f"{self.kind} {name}: expected port_min <= port_max in 0..65535")
        _check(s, 0 <= limit_flows <= 0xffffffff, f"{self.kind} {name}: limit_flows must "
               f"fit 32 bits")
        self.port_min = port_min
        self.port_max = port_max
        self.limit_flows = limit_flows
        self.flags = flags

    def var_names(self) -> List[str]:
        return [self.name + ".ip", self.name + ".port"]


class STLVmWrFlowVar(_Instr):
    """Write a variable (its size, plus add_val) at a packet offset or field name."""

    kind = "STLVmWrFlowVar"

    def __init__(self, fv_name: str, pkt_offset: Any, offset_fixup: int = 0, add_val: int = 0,
                 is_big: bool = True):
        super().__init__()
        s = self.site
        _check(s, isinstance(fv_name, str), f"{self.kind}: fv_name must be a string")
        _check(s, _is_int(pkt_offset) or isinstance(pkt_offset, str),
               f"{self.kind} {fv_name}: pkt_offset must be an offset or a field name")
        for what, v in (("offset_fixup", offset_fixup), ("add_val", add_val)):
            _check(s, _is_int(v), f"{self.kind} {fv_name}: {what} must be an integer")
        _check(s, isinstance(is_big, bool), f"{self.kind} {fv_name}: is_big must be a bool")
        self.fv_name = fv_name
        self.pkt_offset = pkt_offset
        self.offset_fixup = offset_fixup
        self.add_val = add_val
        self.is_big = is_big

    def var_ref(self) -> Optional[str]:
        return self.fv_name


class STLVmWrMaskFlowVar(_Instr):
    """Read-modify-write of 1, 2 or 4 packet bytes: (var + add) shifted, under a mask."""

    kind = "STLVmWrMaskFlowVar"

    def __init__(self, fv_name: str, pkt_offset: Any, pkt_cast_size: int = 1,
                 mask: int = 0xff, shift: int = 0, add_value: int = 0, offset_fixup: int = 0,
                 is_big: bool = True):
        super().__init__()
        s = self.site
        _check(s, isinstance(fv_name, str), f"{self.kind}: fv_name must be a string")
        _check(s, pkt_cast_size in (1, 2, 4), f"{self.kind} {fv_name}: pkt_cast_size must "
               f"be 1, 2 or 4, got {pkt_cast_size!r}")
        for what, v in (("mask", mask), ("shift", shift), ("add_value", add_value),
                        ("offset_fixup", offset_fixup)):
            _check(s, _is_int(v), f"{self.kind} {fv_name}: {what} must be an integer")
        _check(s, _is_int(pkt_offset) or isinstance(pkt_offset, str),
               f"{self.kind} {fv_name}: pkt_offset must be an offset or a field name")
        _check(s, isinstance(is_big, bool), f"{self.kind} {fv_name}: is_big must be a bool")
        self.fv_name = fv_name
        self.pkt_offset = pkt_offset
        self.pkt_cast_size = pkt_cast_size
        self.mask = mask
        self.shift = shift
        self.add_value = add_value
        self.offset_fixup = offset_fixup
        self.is_big = is_big

    def var_ref(self) -> Optional[str]:
        return self.fv_name


class STLVmFixIpv4(_Instr):
    """Recompute the IPv4 header checksum of the header at an offset (or "IP", "IP:1")."""

    kind = "STLVmFixIpv4"

    def __init__(self, offset: Any):
        super().__init__()
        _check(self.site, _is_int(offset) or isinstance(offset, str),
               f"{self.kind}: offset must be an offset or a layer name such as IP")
        self.offset = offset


class STLVmFixChecksumHw(_Instr):
    """The IPv4 header and TCP/UDP checksums, as the NIC computes them when the frame leaves."""

    kind = "STLVmFixChecksumHw"

    def __init__(self, l3_offset: Any, l4_offset: Any, l4_type: int):
        super().__init__()
        s = self.site
        _check(s, l4_type in (CTRexVmInsFixHwCs.L4_TYPE_UDP, CTRexVmInsFixHwCs.L4_TYPE_TCP,
                              CTRexVmInsFixHwCs.L4_TYPE_IP),
               f"{self.kind}: l4_type must be CTRexVmInsFixHwCs.L4_TYPE_UDP, L4_TYPE_TCP or "
               f"L4_TYPE_IP, got {l4_type!r}")
        self.l3_offset = l3_offset
        self.l4_offset = l4_offset
        self.l4_type = l4_type


class STLVmFixIcmpv6(_Instr):
    """Recompute the ICMPv6 checksum (IPv6 header at l3_offset, ICMPv6 at l4_offset)."""

    kind = "STLVmFixIcmpv6"

    def __init__(self, l3_offset: Any, l4_offset: Any):
        super().__init__()
        self.l3_offset = l3_offset
        self.l4_offset = l4_offset


class STLVmTrimPktSize(_Instr):
    """Cut the packet to the value of a variable (bytes without FCS)."""

    kind = "STLVmTrimPktSize"

    def __init__(self, fv_name: str):
        super().__init__()
        _check(self.site, isinstance(fv_name, str), f"{self.kind}: fv_name must be a string")
        self.fv_name = fv_name

    def var_ref(self) -> Optional[str]:
        return self.fv_name


class CTRexVmInsFixHwCs:
    """The l4_type constants of STLVmFixChecksumHw."""

    L4_TYPE_UDP = 11
    L4_TYPE_TCP = 13
    L4_TYPE_IP = 17


class STLScVmRaw:
    """A field-engine program: a list of instructions, optionally cached (cache_size frames)."""

    kind = "STLScVmRaw"

    def __init__(self, list_of_commands: Optional[Sequence[Any]] = None,
                 cache_size: Optional[int] = None, split_by_field: Optional[str] = None):
        self.site: Site = call_site()
        self.commands: List[Any] = list(list_of_commands or [])
        _check(self.site, cache_size is None or (_is_int(cache_size) and cache_size >= 0),
               f"{self.kind}: cache_size must be a non-negative integer")
        self.cache_size = cache_size or 0
        # Which variable TRex splits between its cores: nothing to do on one core.
        self.split_by_field = split_by_field

    def add_cmd(self, cmd: Any) -> None:
        self.commands.append(cmd)


class STLVM(STLScVmRaw):
    """The same program written with methods (vm.var(...), vm.write(...), ...)."""

    kind = "STLVM"

    def __init__(self) -> None:
        super().__init__()

    def set_cached(self, cache_size: int) -> None:
        self.cache_size = cache_size

    def var(self, name: str, min_value: Any, max_value: Any, size: int, op: str,
            step: Any = 1, split_to_cores: bool = True, next_var: Optional[str] = None,
            **k: Any) -> None:
        self.add_cmd(STLVmFlowVar(name=name, min_value=min_value, max_value=max_value,
                                  size=size, op=op, step=step, split_to_cores=split_to_cores,
                                  next_var=next_var, **k))

    def write(self, fv_name: str, pkt_offset: Any, offset_fixup: int = 0, add_val: int = 0,
              byte_order: str = "big") -> None:
        self.add_cmd(STLVmWrFlowVar(fv_name=fv_name, pkt_offset=pkt_offset,
                                    offset_fixup=offset_fixup, add_val=add_val,
                                    is_big=(byte_order == "big")))

    def tuple_var(self, name: str, ip_min: Any, ip_max: Any, port_min: int, port_max: int,
                  limit_flows: int = 0, **k: Any) -> None:
        self.add_cmd(STLVmTupleGen(name=name, ip_min=ip_min, ip_max=ip_max, port_min=port_min,
                                   port_max=port_max, limit_flows=limit_flows, **k))

    def fix_chksum(self, offset: Any = "IP") -> None:
        self.add_cmd(STLVmFixIpv4(offset))

    def fix_chksum_hw(self, l3_offset: Any, l4_offset: Any, l4_type: int) -> None:
        self.add_cmd(STLVmFixChecksumHw(l3_offset=l3_offset, l4_offset=l4_offset,
                                        l4_type=l4_type))

    def fix_chksum_icmpv6(self, l3_offset: Any, l4_offset: Any) -> None:
        self.add_cmd(STLVmFixIcmpv6(l3_offset=l3_offset, l4_offset=l4_offset))

    def trim(self, fv_name: str) -> None:
        self.add_cmd(STLVmTrimPktSize(fv_name=fv_name))

    def write_mask(self, fv_name: str, pkt_offset: Any, pkt_cast_size: int, mask: int,
                   shift: int = 0, offset_fixup: int = 0, add_val: int = 0,
                   byte_order: str = "big") -> None:
        self.add_cmd(STLVmWrMaskFlowVar(fv_name=fv_name, pkt_offset=pkt_offset,
                                        pkt_cast_size=pkt_cast_size, mask=mask, shift=shift,
                                        add_value=add_val, offset_fixup=offset_fixup,
                                        is_big=(byte_order == "big")))

    def repeatable_random_var(self, fv_name: str, size: int, limit: int,
                              seed: Optional[int] = None, min_value: Any = None,
                              max_value: Any = None, split_to_cores: bool = True,
                              next_var: Optional[str] = None) -> None:
        self.add_cmd(STLVmFlowVarRepeatableRandom(
            name=fv_name, size=size, limit=limit, seed=seed,
            min_value=0 if min_value is None else min_value, max_value=max_value,
            split_to_cores=split_to_cores, next_var=next_var))


def STLIPRange(src: Optional[Dict[str, Any]] = None, dst: Optional[Dict[str, Any]] = None,
               fix_chksum: bool = True) -> List[_Instr]:
    """TRex's shortcut: inc over src and/or dst {'start', 'end', 'step'}, IPv4 checksum fixed."""
    vm: List[_Instr] = []
    for key, spec in (("src", src), ("dst", dst)):
        if spec:
            vm.append(STLVmFlowVar(name=key, min_value=spec["start"], max_value=spec["end"],
                                   size=4, op="inc", step=spec.get("step", 1)))
            vm.append(STLVmWrFlowVar(fv_name=key, pkt_offset="IP." + key))
    if fix_chksum:
        vm.append(STLVmFixIpv4(offset="IP"))
    return vm


# ---- packets ----------------------------------------------------------------------------------

class STLPktBuilder:
    """A template packet (Scapy, bytes, or a pcap's first frame) and its field-engine program."""

    kind = "STLPktBuilder"

    def __init__(self, pkt: Any = None, pkt_buffer: Optional[bytes] = None, vm: Any = None,
                 path_relative_to_profile: bool = False, build_raw: bool = False,
                 remove_fcs: bool = True):
        self.site: Site = call_site()
        _check(self.site, pkt is None or pkt_buffer is None,
               f"{self.kind}: give pkt or pkt_buffer, not both")
        _check(self.site, pkt_buffer is None or isinstance(pkt_buffer, bytes),
               f"{self.kind}: pkt_buffer must be bytes")
        self.pkt = pkt
        self.pkt_buffer = pkt_buffer
        self.path_relative_to_profile = path_relative_to_profile
        self.remove_fcs = remove_fcs
        if vm is None:
            self.vm: Optional[STLScVmRaw] = None
        elif isinstance(vm, STLScVmRaw):
            self.vm = vm
        elif isinstance(vm, (list, tuple)):
            self.vm = STLScVmRaw(list(vm))
            self.vm.site = self.site
        else:
            raise ProfileError(self.site, f"{self.kind}: vm must be a list of instructions "
                               f"or STLScVmRaw/STLVM, got {type(vm).__name__}")

    def get_pkt_len(self) -> int:
        if self.pkt_buffer is not None:
            return len(self.pkt_buffer)
        if self.pkt is not None and not isinstance(self.pkt, str):
            return len(bytes(self.pkt))
        raise TRexError("get_pkt_len: the packet is a pcap file, read when converting")


# ---- modes and streams --------------------------------------------------------------------------

class STLTXMode:
    """A rate in exactly one of pps, bps_L1, bps_L2 (Ethernet with FCS), percentage of line."""

    kind = "STLTXMode"

    def __init__(self, pps: Any = None, bps_L1: Any = None, bps_L2: Any = None,
                 percentage: Any = None):
        self.site: Site = call_site()
        given = [(k, v) for k, v in (("pps", pps), ("bps_L1", bps_L1), ("bps_L2", bps_L2),
                                     ("percentage", percentage)) if v is not None]
        if not given:
            given = [("pps", 1.0)]  # TRex's default rate
        _check(self.site, len(given) == 1, f"{self.kind}: give one of pps, bps_L1, bps_L2, "
               f"percentage, not {', '.join(k for k, _ in given)}")
        self.rate_type, self.rate_value = given[0]
        _check(self.site, isinstance(self.rate_value, (int, float)) and
               not isinstance(self.rate_value, bool) and self.rate_value > 0,
               f"{self.kind}: {self.rate_type} must be a number more than 0")
        if self.rate_type == "percentage":
            _check(self.site, self.rate_value <= 100, f"{self.kind}: percentage must be in "
                   f"(0, 100]")


class STLTXCont(STLTXMode):
    kind = "STLTXCont"


class STLTXSingleBurst(STLTXMode):
    kind = "STLTXSingleBurst"

    def __init__(self, total_pkts: int = 1, **kwargs: Any):
        super().__init__(**kwargs)
        _check(self.site, _is_int(total_pkts) and total_pkts > 0,
               f"{self.kind}: total_pkts must be an integer more than 0")
        self.total_pkts = total_pkts


class STLTXMultiBurst(STLTXMode):
    kind = "STLTXMultiBurst"

    def __init__(self, pkts_per_burst: int = 1, ibg: Any = 0.0, count: int = 1,
                 **kwargs: Any):
        super().__init__(**kwargs)
        _check(self.site, _is_int(pkts_per_burst) and pkts_per_burst > 0,
               f"{self.kind}: pkts_per_burst must be an integer more than 0")
        _check(self.site, isinstance(ibg, (int, float)) and ibg >= 0,
               f"{self.kind}: ibg (usec) must be a number >= 0")
        _check(self.site, _is_int(count) and count > 0,
               f"{self.kind}: count must be an integer more than 0")
        self.pkts_per_burst = pkts_per_burst
        self.ibg = ibg
        self.count = count


STLStreamDstMAC_CFG_FILE = 0
STLStreamDstMAC_PKT = 1
STLStreamDstMAC_ARP = 2


class STLFlowStats:
    """TRex's per-pg_id counters: wirerate's per-stream counters (``latency: loss``, a
    loss-only signature that counts every frame received, lost, late and repeated)."""

    kind = "STLFlowStats"
    latency = "loss"

    def __init__(self, pg_id: int, vxlan: bool = False, ieee_1588: bool = False):
        self.site: Site = call_site()
        _check(self.site, _is_int(pg_id) and pg_id >= 0,
               f"{self.kind}: pg_id must be an integer >= 0, got {pg_id!r}")
        self.pg_id = pg_id
        self.vxlan = vxlan
        self.ieee_1588 = ieee_1588


class STLFlowLatencyStats(STLFlowStats):
    """TRex's latency stream: wirerate's ``latency: true`` (a signature with the TX time:
    latency, jitter, loss, reordering and duplicates of every frame)."""

    kind = "STLFlowLatencyStats"
    latency = "true"


class STLTaggedPktGroup(STLFlowStats):
    """TRex's tagged packet group (sequence and loss per tpgid and VLAN tag): wirerate's
    per-stream counters (``latency: loss``); wirerate counts per stream, not per tag."""

    kind = "STLTaggedPktGroup"
    latency = "loss"

    def __init__(self, tpgid: int):
        super().__init__(pg_id=tpgid)
        self.site = call_site()


class STLStream:
    """One stream: packet and program, mode and rate, and its place in a next chain."""

    kind = "STLStream"

    def __init__(self, name: Any = None, packet: Optional[STLPktBuilder] = None,
                 mode: Optional[STLTXMode] = None, enabled: bool = True,
                 self_start: bool = True, isg: Any = 0.0, flow_stats: Any = None,
                 next: Any = None, stream_id: Optional[int] = None, action_count: int = 0,
                 random_seed: int = 0, mac_src_override_by_pkt: Optional[bool] = None,
                 mac_dst_override_mode: Optional[int] = None, dummy_stream: bool = False,
                 start_paused: bool = False, core_id: int = -1):
        self.site: Site = call_site()
        s = self.site
        _check(s, name is None or isinstance(name, (str, int)),
               f"{self.kind}: name must be a string")
        _check(s, next is None or isinstance(next, (str, int)),
               f"{self.kind}: next must be a stream name")
        _check(s, mode is None or isinstance(mode, STLTXMode),
               f"{self.kind}: mode must be STLTXCont, STLTXSingleBurst or STLTXMultiBurst")
        _check(s, packet is None or isinstance(packet, STLPktBuilder),
               f"{self.kind}: packet must be an STLPktBuilder")
        _check(s, flow_stats is None or isinstance(flow_stats, STLFlowStats),
               f"{self.kind}: flow_stats must be STLFlowStats, STLFlowLatencyStats or "
               f"STLTaggedPktGroup")
        for what, v in (("enabled", enabled), ("self_start", self_start),
                        ("dummy_stream", dummy_stream), ("start_paused", start_paused)):
            _check(s, isinstance(v, bool), f"{self.kind}: {what} must be a bool")
        _check(s, isinstance(isg, (int, float)) and not isinstance(isg, bool) and isg >= 0,
               f"{self.kind}: isg (usec) must be a number >= 0")
        for what, v in (("action_count", action_count), ("random_seed", random_seed),
                        ("core_id", core_id)):
            _check(s, _is_int(v), f"{self.kind}: {what} must be an integer")
        _check(s, 0 <= random_seed <= 0xffffffff, f"{self.kind}: random_seed must fit 32 bits")
        if mode is None:
            mode = STLTXCont(pps=1)
            mode.site = s
        _check(s, not (type(mode) is STLTXCont and next is not None),
               f"{self.kind}: a continuous stream cannot have a next stream")
        self.name = name
        self.packet = packet
        self.mode = mode
        self.enabled = enabled
        self.self_start = self_start
        self.isg = isg
        self.flow_stats = flow_stats
        self.next = next
        self.stream_id = stream_id
        self.action_count = action_count
        self.random_seed = random_seed
        self.mac_src_override_by_pkt = mac_src_override_by_pkt
        self.mac_dst_override_mode = mac_dst_override_mode
        self.dummy_stream = dummy_stream
        self.start_paused = start_paused
        self.core_id = core_id

    def get_name(self) -> Any:
        return self.name

    def get_next(self) -> Any:
        return self.next


class STLProfile:
    """A list of streams (what get_streams() may return instead of a list)."""

    def __init__(self, streams: Any = None):
        if streams is None:
            streams = []
        if not isinstance(streams, list):
            streams = [streams]
        for st in streams:
            if not isinstance(st, STLStream):
                raise ProfileError(call_site(), f"STLProfile: expected STLStream objects, got "
                                   f"{type(st).__name__}")
        self.streams = streams

    def get_streams(self) -> List[STLStream]:
        return self.streams

    @staticmethod
    def load_pcap(pcap_file: str, ipg_usec: Any = None, speedup: Any = 1.0,
                  loop_count: int = 1, vm: Any = None, packet_hook: Any = None,
                  split_mode: Optional[str] = None, min_ipg_usec: Any = None,
                  src_mac_pcap: bool = False, dst_mac_pcap: bool = False) -> "STLProfile":
        """A capture as TRex plays it: one single-frame stream per packet, each the next's
        ``next``, the last looping back to the first ``loop_count`` times; the gap before
        each (isg) ``ipg_usec`` / speedup, or the capture's own gap / speedup (at least
        ``min_ipg_usec``).  The MACs are the port's unless src_mac_pcap / dst_mac_pcap."""
        site = call_site()
        _check(site, isinstance(speedup, (int, float)) and speedup > 0,
               "STLProfile.load_pcap: speedup must be more than 0")
        _check(site, min_ipg_usec is None or min_ipg_usec >= 0,
               "STLProfile.load_pcap: min_ipg_usec must not be negative")
        _check(site, ipg_usec is None or ipg_usec >= 0.001 * speedup or
               (min_ipg_usec is not None and min_ipg_usec >= 0.001),
               f"STLProfile.load_pcap: ipg_usec {ipg_usec}: at least 0.001 usec")
        _check(site, _is_int(loop_count) and loop_count >= 0,
               "STLProfile.load_pcap: loop_count must be an integer >= 0")
        _check(site, split_mode is None, "STLProfile.load_pcap: split_mode (a capture "
               "split between two ports by MAC or IP) is not supported: one port's streams "
               "only")
        try:
            from scapy.utils import RawPcapReader
        except ImportError:
            raise ProfileError(site, "STLProfile.load_pcap: reading a capture needs Scapy") \
                from None
        try:
            records = [(bytes(d), m) for d, m in RawPcapReader(pcap_file)]
        except (OSError, Exception) as e:  # Scapy raises its own for a non-capture
            raise ProfileError(site, f"STLProfile.load_pcap: {pcap_file}: {e}") from None
        _check(site, len(records) > 0, f"STLProfile.load_pcap: {pcap_file} holds no packet")
        pkts: List[Any] = []
        at = 0.0
        prev = None
        for data, meta in records:
            if ipg_usec is None:
                if hasattr(meta, "tsresol"):     # pcapng: ticks of 1/tsresol s
                    ts = ((meta.tshigh << 32) | meta.tslow) * 1e6 / meta.tsresol
                else:                             # pcap: seconds and microseconds
                    ts = meta[0] * 1e6 + meta[1]
                gap = 0.0 if prev is None else (ts - prev) / float(speedup)
                if min_ipg_usec and gap < min_ipg_usec:
                    gap = min_ipg_usec
                prev = ts
            else:
                gap = min_ipg_usec if min_ipg_usec else ipg_usec / float(speedup)
            at += gap
            pkts.append((data, at))
        if packet_hook is not None:
            pkts = [(packet_hook(d), t) for d, t in pkts]
        dst_mode = STLStreamDstMAC_PKT if dst_mac_pcap else STLStreamDstMAC_CFG_FILE
        streams = []
        last = 0.0
        n = len(pkts)
        for i, (data, t) in enumerate(pkts, start=1):
            builder = STLPktBuilder(pkt_buffer=bytes(data), vm=vm)
            builder.site = site
            st = STLStream(name=i, packet=builder,
                           mode=STLTXSingleBurst(total_pkts=1, percentage=100),
                           self_start=(i == 1), isg=t - last,
                           action_count=loop_count if i == n else 0,
                           next=1 if i == n else i + 1,
                           mac_src_override_by_pkt=src_mac_pcap,
                           mac_dst_override_mode=dst_mode)
            st.site = st.mode.site = site
            streams.append(st)
            last = t
        return STLProfile(streams)


# TRex's older name of STLScVmRaw, still in profiles written for it.
CTRexScRaw = STLScVmRaw


def is_valid_ipv4(addr: Any) -> bool:
    try:
        ipaddress.IPv4Address(addr)
        return True
    except (ValueError, TypeError):
        return False


def is_valid_ipv6(addr: Any) -> bool:
    try:
        ipaddress.IPv6Address(addr)
        return True
    except (ValueError, TypeError):
        return False


def is_valid_mac(mac: Any) -> bool:
    import re
    return isinstance(mac, str) and re.fullmatch(r"[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}",
                                                 mac) is not None


# Address helpers TRex's API module exports (profiles compute ranges with them).
def is_valid_ipv4_ret(addr: Any) -> bytes:
    """An IPv4 address (text, integer or 4 bytes) as 4 bytes in network order."""
    if isinstance(addr, bytes) and len(addr) == 4:
        return addr
    try:
        return ipaddress.IPv4Address(addr).packed
    except (ValueError, TypeError):
        raise TRexError(f"not a valid IPv4 address: {addr!r}") from None


def is_valid_ipv6_ret(addr: Any) -> bytes:
    if isinstance(addr, bytes) and len(addr) == 16:
        return addr
    try:
        return ipaddress.IPv6Address(addr).packed
    except (ValueError, TypeError):
        raise TRexError(f"not a valid IPv6 address: {addr!r}") from None


def ipv4_str_to_num(buf: bytes) -> int:
    if not isinstance(buf, bytes) or len(buf) != 4:
        raise TRexError(f"ipv4_str_to_num: expected 4 bytes, got {buf!r}")
    return int.from_bytes(buf, "big")


def mac_str_to_num(buf: bytes) -> int:
    if not isinstance(buf, bytes) or len(buf) != 6:
        raise TRexError(f"mac_str_to_num: expected 6 bytes, got {buf!r}")
    return int.from_bytes(buf, "big")


def int2ip(val: int) -> str:
    return str(ipaddress.IPv4Address(val & 0xFFFFFFFF))


def ip2int(ip: Any) -> int:
    return ipv4_str_to_num(is_valid_ipv4_ret(ip))


def int2mac(val: int) -> str:
    return ":".join(f"{b:02x}" for b in (val % (1 << 48)).to_bytes(6, "big"))


def increase_ip(ip: Any, val: int = 1) -> str:
    return int2ip(ip2int(ip) + val)


def increase_mac(mac: Any, val: int = 1) -> str:
    raw = bytes.fromhex(mac.replace(":", "")) if isinstance(mac, str) else mac
    return int2mac(mac_str_to_num(raw) + val)


__all__ = [
    "is_valid_ipv4_ret", "is_valid_ipv6_ret", "ipv4_str_to_num", "mac_str_to_num", "int2ip",
    "ip2int", "int2mac", "increase_ip", "increase_mac",
    "CTRexScRaw", "is_valid_ipv4", "is_valid_ipv6", "is_valid_mac", "STLTaggedPktGroup",
    "CTRexVmInsFixHwCs", "STLError", "STLFlowLatencyStats", "STLFlowStats", "STLIPRange",
    "STLPktBuilder", "STLProfile", "STLScVmRaw", "STLStream", "STLStreamDstMAC_ARP",
    "STLStreamDstMAC_CFG_FILE", "STLStreamDstMAC_PKT", "STLTXCont", "STLTXMode",
    "STLTXMultiBurst", "STLTXSingleBurst", "STLVM", "STLVmFixChecksumHw", "STLVmFixIcmpv6",
    "STLVmFixIpv4", "STLVmFlowVar", "STLVmFlowVarRepeatableRandom", "STLVmTrimPktSize",
    "STLVmTupleGen", "STLVmWrFlowVar", "STLVmWrMaskFlowVar", "TRexError",
]

from .errors import STLError  # noqa: E402  (re-exported under TRex's names)
