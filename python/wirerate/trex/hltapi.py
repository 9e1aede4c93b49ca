# SPDX-License-Identifier: BSD-3-Clause
"""TRex's HLT API for profiles: ``STLHltStream(**parameters)``, built on wirerate's TRex API.

A profile written for TRex's HLT layer (``from trex.stl.trex_stl_hltapi import
STLHltStream``) describes a stream by named parameters (``l3_protocol='ipv4'``,
``ip_src_mode='increment'``, ``length_mode='imix'``, ...) instead of a packet and a program.
This module turns them into what TRex's HLT layer gives TRex's STL layer: a Scapy packet, a
field-engine program of STLVmFlowVar/STLVmWrFlowVar/STLVmWrMaskFlowVar/STLVmTrimPktSize/
STLVmFixIpv4, a mode and a rate; the converter then treats the stream as any other.  The
parameters, their defaults and what each one does are TRex's (doc/trex.md lists them and the
few places where what TRex does is not what its parameter's name says: it is kept, so that the
frames are TRex's).
"""

from __future__ import annotations

import ipaddress
import re
from typing import Any, Dict, List, Optional, Tuple

from . import api
from .errors import ProfileError, Site, call_site

# The stream parameters of TRex's traffic_config, with TRex's defaults.  Sizes ending in
# _size, _size_min and _size_max are L2 sizes with the FCS (4 bytes less are built).
DEFAULTS: Dict[str, Any] = {
    # what is not about the packet
    "mode": None, "split_by_cores": "split", "load_profile": None, "consistent_random": False,
    "ignore_macs": False, "disable_flow_stats": False, "flow_stats_id": None,
    "port_handle": None, "port_handle2": None, "bidirectional": False,
    "transmit_mode": "continuous", "rate_pps": None, "rate_bps": None, "rate_percent": 10,
    "stream_id": None, "name": None, "direction": 0, "pkts_per_burst": 1,
    "burst_loop_count": 1, "inter_burst_gap": 12,
    # sizes
    "length_mode": "fixed",
    "l3_imix1_size": 64, "l3_imix1_ratio": 7, "l3_imix2_size": 570, "l3_imix2_ratio": 4,
    "l3_imix3_size": 1518, "l3_imix3_ratio": 1, "l3_imix4_size": 9230, "l3_imix4_ratio": 0,
    "frame_size": 64, "frame_size_min": 64, "frame_size_max": 64, "frame_size_step": 1,
    "l3_length_min": 110, "l3_length_max": 238, "l3_length_step": 1, "l3_length": None,
    # L2
    "l2_encap": "ethernet_ii",
    "mac_src": "00:00:01:00:00:01", "mac_dst": "00:00:00:00:00:00",
    "mac_src2": "00:00:01:00:00:01", "mac_dst2": "00:00:00:00:00:00",
    "vlan_user_priority": 1, "vlan_priority_mode": "fixed", "vlan_priority_count": 1,
    "vlan_priority_step": 1, "vlan_id": 0, "vlan_id_mode": "fixed", "vlan_id_count": 1,
    "vlan_id_step": 1, "vlan_cfi": 1, "vlan_protocol_tag_id": None,
    # L3
    "l3_protocol": None,
    "ip_precedence": 0, "ip_tos_field": 0, "ip_mbz": 0, "ip_delay": 0, "ip_throughput": 0,
    "ip_reliability": 0, "ip_cost": 0, "ip_reserved": 0, "ip_dscp": 0, "ip_cu": 0,
    "ip_id": 0, "ip_fragment_offset": 0, "ip_ttl": 64, "ip_checksum": None,
    "ip_src_addr": "0.0.0.0", "ip_dst_addr": "192.0.0.1",
    "ipv6_traffic_class": 0, "ipv6_flow_label": 0, "ipv6_length": None,
    "ipv6_next_header": None, "ipv6_hop_limit": 64,
    "ipv6_src_addr": "fe80:0:0:0:0:0:0:12", "ipv6_dst_addr": "fe80:0:0:0:0:0:0:22",
    # L4
    "l4_protocol": None,
    "tcp_src_port": 1024, "tcp_dst_port": 80, "tcp_seq_num": 1, "tcp_ack_num": 1,
    "tcp_data_offset": 5, "tcp_fin_flag": 0, "tcp_syn_flag": 0, "tcp_rst_flag": 0,
    "tcp_psh_flag": 0, "tcp_ack_flag": 0, "tcp_urg_flag": 0, "tcp_window": 4069,
    "tcp_checksum": None, "tcp_urgent_ptr": 0,
    "udp_src_port": 1024, "udp_dst_port": 80, "udp_length": None,
}
# Every varying field has a mode, a step and a count: fixed for addresses, increment for
# ports (a count of 1 varies nothing either way).
for _f in ("mac_src", "mac_dst", "mac_src2", "mac_dst2", "ip_src", "ip_dst", "ipv6_src",
           "ipv6_dst"):
    DEFAULTS.update({_f + "_mode": "fixed", _f + "_step": 1, _f + "_count": 1})
for _f in ("tcp_src_port", "tcp_dst_port", "udp_src_port", "udp_dst_port"):
    DEFAULTS.update({_f + "_mode": "increment", _f + "_step": 1, _f + "_count": 1})
# Internal parameters TRex's HLT layer takes beside those.
_INTERNAL = ("save_to_yaml", "save_to_pcap", "pg_id")

# Varying fields: TRex counts from the middle of the variable's range and adds the
# difference to the field's value when it writes (the write wraps in the field's width).
_MID = {4: 0x7FFFFFFF, 2: 0x7FFF}
_TPIDS = (0x8100, 0x88A8, 0x9100, 0x9200, 0x9300)
_TRUE = (True, "True", "true", 1, "1", "enable", "Enable", "Yes", "yes", "y", "Y", "enabled",
         "Enabled")


class _Hlt:
    """One STLHltStream call: its parameters, the profile line, the notes it leaves."""

    def __init__(self, site: Site, user: Dict[str, Any]):
        self.site = site
        self.user = dict(user)

    def fail(self, message: str) -> ProfileError:
        return ProfileError(self.site, f"STLHltStream: {message}")

    def merged(self) -> Dict[str, Any]:
        kw = dict(DEFAULTS)
        for key, value in self.user.items():
            if key in DEFAULTS or key in _INTERNAL:
                kw[key] = value
            else:
                api.note(self.site, f"STLHltStream: {key} is not a parameter of TRex's HLT "
                                    f"API: ignored, as TRex ignores it")
        return kw

    def num(self, kw: Dict[str, Any], key: str) -> int:
        try:
            return int(kw[key])
        except (TypeError, ValueError):
            raise self.fail(f"{key}={kw[key]!r}: expected an integer") from None

    def number(self, kw: Dict[str, Any], key: str) -> float:
        try:
            return float(kw[key])
        except (TypeError, ValueError):
            raise self.fail(f"{key}={kw[key]!r}: expected a number") from None


def _mac(h: _Hlt, key: str, value: Any) -> str:
    """A MAC in any of TRex's HLT spellings (01:23:.., 01-23-.., 0123.4567.89ab, {01 23 ..})."""
    if not isinstance(value, str):
        raise h.fail(f"{key} must be a string, got {value!r}")
    t = value.replace("{", "").replace("}", "").strip()
    t = t.replace("-", " ").replace(":", " ").replace(".", " ")
    if len(t) == 14 and t[4] == " " and t[9] == " ":   # 0123 4567 89ab
        t = t[0:2] + " " + t[2:7] + " " + t[7:12] + " " + t[12:14]
    parts = t.split()
    if len(parts) != 6 or not all(re.fullmatch(r"[0-9a-fA-F]{1,2}", p) for p in parts):
        raise h.fail(f"{key}={value!r}: expected a MAC such as 01:23:45:67:89:10, "
                     f"01-23-45-67-89-10, 0123.4567.8910 or {{01 23 45 67 89 10}}")
    return ":".join(p.zfill(2).lower() for p in parts)


def _low32_mac(mac: str) -> int:
    return int(mac.replace(":", "")[4:], 16)


def _ip4(h: _Hlt, key: str, value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    try:
        return int(ipaddress.IPv4Address(value))
    except (ValueError, TypeError):
        raise h.fail(f"{key}={value!r}: expected an IPv4 address or a number") from None


def _ip6_low32(h: _Hlt, key: str, value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    try:
        return int(ipaddress.IPv6Address(value)) & 0xFFFFFFFF
    except (ValueError, TypeError):
        raise h.fail(f"{key}={value!r}: expected an IPv6 address or a number") from None


class _Program:
    """The field-engine program being built: TRex's HLT layer shares one variable between
    fields that move the same way (same direction, size, count and step)."""

    def __init__(self) -> None:
        self.cmds: List[Any] = []
        self.shared: Dict[str, bool] = {}
        self.fix_ipv4 = False

    def ranged(self, h: _Hlt, kw: Dict[str, Any], field: str, size: int, base: int,
               step: int, where: Any, fixup: int = 0, mask: bool = False,
               share_as: Optional[str] = None) -> None:
        """The field ``field`` (its _mode, _count) over ``base``: increment, decrement or
        random, written at ``where`` (+ fixup) as a whole field or under the VLAN mask."""
        mode = kw[field + "_mode"]
        if mode == "fixed":
            return
        count = h.num(kw, field + "_count") - 1
        if count < 0:
            raise h.fail(f"{field}_count has to be at least 1")
        if count == 0 and mode != "random":
            return
        if mode in ("increment", "decrement"):
            if step < 1:
                raise h.fail(f"{field}_step has to be at least 1")
            mid = _MID[size]
            op = "inc" if mode == "increment" else "dec"
            name = f"{share_as or op}_{size}_{count}_{step}"
            if name not in self.shared:
                lo, hi = (mid, mid + count * step) if op == "inc" else (mid - count * step, mid)
                self.cmds.append(api.STLVmFlowVar(name=name, size=size, op=op, step=step,
                                                  min_value=lo, max_value=hi))
                self.shared[name] = True
            add = base - mid
        elif mode == "random":
            name = f"{field}_random"
            self.cmds.append(api.STLVmFlowVar(name=name, size=size, op="random",
                                              min_value=0, max_value=(1 << (8 * size)) - 1))
            add = 0
        else:
            raise h.fail(f"{field}_mode {mode!r}: expected fixed, increment, decrement or "
                         f"random")
        if mask:
            self.cmds.append(api.STLVmWrMaskFlowVar(fv_name=name, pkt_offset=where,
                                                    pkt_cast_size=2, mask=0xFFF,
                                                    add_value=add))
        else:
            self.cmds.append(api.STLVmWrFlowVar(fv_name=name, pkt_offset=where,
                                                offset_fixup=fixup, add_val=add))


def _step(h: _Hlt, kw: Dict[str, Any], field: str, kind: str) -> int:
    v = kw[field + "_step"]
    if isinstance(v, str):
        if kind == "mac":
            return _low32_mac(_mac(h, field + "_step", v))
        if kind == "ip4":
            return _ip4(h, field + "_step", v)
        if kind == "ip6":
            return _ip6_low32(h, field + "_step", v)
    return h.num(kw, field + "_step")


def _tos(h: _Hlt, kw: Dict[str, Any]) -> int:
    """TRex's three ways of giving the TOS byte (never mixed)."""
    given = set(h.user)
    old = {"ip_precedence", "ip_tos_field", "ip_mbz"}
    rfc791 = {"ip_precedence", "ip_delay", "ip_throughput", "ip_reliability", "ip_cost",
              "ip_reserved"}
    dscp = {"ip_dscp", "ip_cu"}
    for a, b in ((old, rfc791), (old, dscp), (rfc791, dscp)):
        if given & (a - b) and given & (b - a):
            raise h.fail(f"TOS given both as {sorted(a)} and as {sorted(b)}")
    g = {k: h.num(kw, k) for k in old | rfc791 | dscp}
    if given & (old - rfc791 - dscp):
        tos = (g["ip_precedence"] << 5) + (g["ip_tos_field"] << 1) + g["ip_mbz"]
    elif given & (rfc791 - dscp):
        tos = ((g["ip_precedence"] << 5) + (g["ip_delay"] << 4) + (g["ip_throughput"] << 3) +
               (g["ip_reliability"] << 2) + (g["ip_cost"] << 1) + g["ip_reserved"])
    else:
        tos = (g["ip_dscp"] << 2) + g["ip_cu"]
    if not 0 <= tos <= 255:
        raise h.fail(f"TOS {tos} is not in 0..255")
    return tos


def _vlan_tags(h: _Hlt, kw: Dict[str, Any]) -> List[Dict[str, Any]]:
    """vlan_* parameters, each a value or a list (a string of values: '100 200'), one
    Dot1Q tag per position; a list shorter than the longest takes the default after it."""
    lists: Dict[str, List[Any]] = {}
    for key, value in kw.items():
        if not key.startswith("vlan_"):
            continue
        if isinstance(value, list):
            lists[key] = value
        elif isinstance(value, str):
            lists[key] = value.replace("{", "").replace("}", "").split()
        elif value is None or (isinstance(value, int) and not isinstance(value, bool)):
            lists[key] = [value]
        else:
            raise h.fail(f"{key}={value!r}: expected a value, a list or a string of values")
    n = max(len(v) for v in lists.values())
    return [{k: (v[i] if i < len(v) else DEFAULTS[k]) for k, v in lists.items()}
            for i in range(n)]


def _swap_direction(kw: Dict[str, Any]) -> None:
    """direction=1: the second MACs, and sources and destinations exchanged."""
    kw["mac_src"], kw["mac_dst"] = kw["mac_src2"], kw["mac_dst2"]
    prefix = {"ipv4": "ip_", "ipv6": "ipv6_"}.get(kw["l3_protocol"])
    if prefix is None:
        return
    for key in [k for k in kw if k.startswith(prefix + "src_")]:
        other = prefix + "dst_" + key[len(prefix + "src_"):]
        kw[key], kw[other] = kw[other], kw[key]


def _packet(h: _Hlt) -> api.STLPktBuilder:
    """The packet and its program (TRex's generate_packet)."""
    from scapy.layers.inet import IP, TCP, UDP
    from scapy.layers.inet6 import IPv6
    from scapy.layers.l2 import Dot1Q, Ether

    for key in ("mac_src", "mac_dst", "mac_src2", "mac_dst2"):
        if key in h.user:
            h.user[key] = _mac(h, key, h.user[key])
    kw = h.merged()
    for key, value in list(kw.items()):  # L2 sizes with FCS: the packet is built without
        if (key.endswith(("_size", "_size_min", "_size_max")) and isinstance(value, int) and
                not isinstance(value, bool)):
            kw[key] = value - 4
    if h.num(kw, "direction") != 0:
        _swap_direction(kw)
    prog = _Program()

    # L2
    if kw["l2_encap"] not in ("ethernet_ii", "ethernet_ii_vlan"):
        raise h.fail(f"l2_encap {kw['l2_encap']!r}: expected ethernet_ii or "
                     f"ethernet_ii_vlan")
    if _is_true(kw["ignore_macs"]):
        kw.update(mac_src=None, mac_dst=None, mac_src_mode="fixed", mac_dst_mode="fixed")
    eth = {k: kw["mac_" + k] for k in ("src", "dst") if kw["mac_" + k]}
    l2 = Ether(**eth)
    for k, off in (("src", 6), ("dst", 0)):
        f = "mac_" + k
        if kw[f + "_mode"] != "fixed":
            base = _low32_mac(_mac(h, f, kw[f]))
            prog.ranged(h, kw, f, 4, base, _step(h, kw, f, "mac"), off + 2)
    if kw["l2_encap"] == "ethernet_ii_vlan" or any(k.startswith("vlan_") for k in h.user):
        for i, tag in enumerate(_vlan_tags(h, kw)):
            t = {k: tag[k] for k in tag}
            try:
                vid = int(t["vlan_id"])
                dot1q = Dot1Q(prio=int(t["vlan_user_priority"]), vlan=vid,
                              id=int(t["vlan_cfi"]))
            except (TypeError, ValueError):
                raise h.fail(f"VLAN tag {i}: vlan_id, vlan_user_priority and vlan_cfi must "
                             f"be integers") from None
            tpid = t["vlan_protocol_tag_id"]
            if tpid is not None:
                tpid = int(tpid, 16) if isinstance(tpid, str) else tpid
                if tpid not in _TPIDS:
                    raise h.fail(f"vlan_protocol_tag_id {tpid!r}: expected one of "
                                 f"{', '.join(f'0x{x:04x}' for x in _TPIDS)}")
                l2.lastlayer().type = tpid
            l2 = l2 / dot1q
            if t["vlan_id_mode"] != "fixed":
                # TRex's HLT layer names an incrementing VLAN variable as a decrementing
                # one: the two share it when their count and step agree.
                tk = {"vlan_id_mode": t["vlan_id_mode"], "vlan_id_count": t["vlan_id_count"]}
                off = 14 + 4 * i
                prog.ranged(h, tk, "vlan_id", 2, vid, int(t["vlan_id_step"]), off,
                            mask=True, share_as="dec" if t["vlan_id_mode"] in
                            ("increment", "decrement") else None)
    pkt = l2

    # L3
    l3: Any = None
    proto = kw["l3_protocol"]
    if proto == "ipv4":
        l3 = IP(tos=_tos(h, kw), id=h.num(kw, "ip_id"), frag=h.num(kw, "ip_fragment_offset"),
                ttl=h.num(kw, "ip_ttl"), chksum=kw["ip_checksum"], src=kw["ip_src_addr"],
                dst=kw["ip_dst_addr"])
        for f in ("ip_src", "ip_dst"):
            before = len(prog.cmds)
            prog.ranged(h, kw, f, 4, _ip4(h, f + "_addr", kw[f + "_addr"]),
                        _step(h, kw, f, "ip4"), "IP." + f[3:])
            prog.fix_ipv4 |= len(prog.cmds) != before
    elif proto == "ipv6":
        v6: Dict[str, Any] = {"tc": kw["ipv6_traffic_class"], "fl": kw["ipv6_flow_label"],
                              "plen": kw["ipv6_length"], "hlim": kw["ipv6_hop_limit"],
                              "src": kw["ipv6_src_addr"], "dst": kw["ipv6_dst_addr"]}
        if kw["ipv6_next_header"] is not None:
            v6["nh"] = kw["ipv6_next_header"]
        l3 = IPv6(**v6)
        for f in ("ipv6_src", "ipv6_dst"):
            prog.ranged(h, kw, f, 4, _ip6_low32(h, f + "_addr", kw[f + "_addr"]),
                        _step(h, kw, f, "ip6"), "IPv6." + f[5:], fixup=12)
    elif proto is not None:
        raise h.fail(f"l3_protocol {proto!r}: expected ipv4 or ipv6")
    if l3 is not None:
        pkt = pkt / l3

    # L4
    l4: Any = None
    l4proto = kw["l4_protocol"]
    if l4proto in ("tcp", "udp"):
        if l3 is None:
            raise h.fail(f"l4_protocol {l4proto} needs l3_protocol ipv4 or ipv6")
        if l4proto == "tcp":
            # TRex's HLT layer sets one flag: the first of FIN, SYN, RST, PSH, ACK, URG
            # given (its expression stops at the first), none when none is.
            flags = next((c for c, k in (("F", "fin"), ("S", "syn"), ("R", "rst"),
                                         ("P", "psh"), ("A", "ack"), ("U", "urg"))
                          if kw[f"tcp_{k}_flag"]), "")
            l4 = TCP(sport=h.num(kw, "tcp_src_port"), dport=h.num(kw, "tcp_dst_port"),
                     seq=h.num(kw, "tcp_seq_num"), ack=h.num(kw, "tcp_ack_num"),
                     dataofs=h.num(kw, "tcp_data_offset"), flags=flags,
                     window=h.num(kw, "tcp_window"), chksum=kw["tcp_checksum"],
                     urgptr=h.num(kw, "tcp_urgent_ptr"))
        else:
            l4 = UDP(sport=h.num(kw, "udp_src_port"), dport=h.num(kw, "udp_dst_port"),
                     len=kw["udp_length"], chksum=None)
        for end in ("src", "dst"):
            f = f"{l4proto}_{end}_port"
            before = len(prog.cmds)
            prog.ranged(h, kw, f, 2, h.num(kw, f), h.num(kw, f + "_step"),
                        f"{l4proto.upper()}.{end[0]}port")
            prog.fix_ipv4 |= len(prog.cmds) != before
        pkt = pkt / l4
    elif l4proto is not None:
        raise h.fail(f"l4_protocol {l4proto!r}: expected tcp or udp")

    # sizes
    mode = kw["length_mode"]
    ops = {"increment": "inc", "decrement": "dec", "random": "random"}
    if mode == "auto":
        pad = 0
    elif mode == "fixed":
        if "frame_size" not in h.user and "l3_length" in h.user:
            pad = h.num(kw, "l3_length") - (len(pkt) - len(l2))
        else:
            pad = h.num(kw, "frame_size") - len(pkt)
    elif mode in ops:
        if "frame_size_min" in h.user or "frame_size_max" in h.user:
            lo, hi = h.num(kw, "frame_size_min"), h.num(kw, "frame_size_max")
            if lo < 44 or hi < 44:
                raise h.fail("frame_size_min and frame_size_max must be at least 48")
            step, shift, what = h.num(kw, "frame_size_step"), 0, "frame_size"
        else:
            lo, hi = h.num(kw, "l3_length_min"), h.num(kw, "l3_length_max")
            if lo < 40 or hi < 40:
                raise h.fail("l3_length_min and l3_length_max must be at least 40")
            step, shift, what = h.num(kw, "l3_length_step"), len(l2), "l3_length"
        if lo > hi:
            raise h.fail(f"{what}_min is above {what}_max")
        if lo == hi:
            # TRex's HLT layer then writes a size variable it never declared, and
            # TRex refuses the stream.
            raise h.fail(f"length_mode {mode} with {what}_min equal to {what}_max: give "
                         f"length_mode fixed")
        prog.fix_ipv4 = True
        prog.cmds.append(api.STLVmFlowVar(name="pkt_len", size=2, op=ops[mode], step=step,
                                          min_value=lo + shift, max_value=hi + shift))
        prog.cmds.append(api.STLVmTrimPktSize("pkt_len"))
        pad = hi + shift - len(pkt)
        if isinstance(l3, IP):
            prog.cmds.append(api.STLVmWrFlowVar(fv_name="pkt_len", pkt_offset="IP.len",
                                                add_val=-len(l2)))
        if isinstance(l4, UDP):
            prog.cmds.append(api.STLVmWrFlowVar(fv_name="pkt_len", pkt_offset="UDP.len",
                                                add_val=-len(l2) - len(l3)))
    else:
        raise h.fail(f"length_mode {mode!r}: expected auto, fixed, increment, decrement, "
                     f"random or imix")
    if pad < 0:
        raise h.fail(f"the headers are {-pad} bytes longer than the size asked")
    pkt = pkt / (b"!" * pad)
    if prog.fix_ipv4 and isinstance(l3, IP) and kw["ip_checksum"] is None:
        prog.cmds.append(api.STLVmFixIpv4(offset="IP"))
    split = kw["split_by_cores"]
    if split not in ("split", "duplicate"):
        raise h.fail(f"split_by_cores {split!r}: expected split or duplicate")
    b = api.STLPktBuilder(pkt=pkt, vm=prog.cmds or None)
    b.site = h.site
    return b


def _is_true(v: Any) -> bool:
    return v in _TRUE


def _rate(h: _Hlt, kw: Dict[str, Any]) -> Tuple[str, float]:
    given = [k for k in ("rate_pps", "rate_bps", "rate_percent") if k in h.user]
    if len(given) > 1:
        raise h.fail(f"more than one rate: {', '.join(given)}")
    key = given[0] if given else "rate_percent"
    value = h.number(kw, key)
    if key == "rate_percent" and value > 100:
        raise h.fail("rate_percent above 100")
    return key, value


def _imix(h: _Hlt, kw: Dict[str, Any]) -> List[api.STLStream]:
    """length_mode imix: one fixed-size stream per l3_imixN with a ratio, the rate shared
    by packets (rate_pps), L2 bytes (rate_bps) or L1 bytes (rate_percent)."""
    key, total = _rate(h, kw)
    sizes = [h.num(kw, f"l3_imix{i}_size") for i in range(1, 5)]
    ratios = [h.num(kw, f"l3_imix{i}_ratio") for i in range(1, 5)]
    if min(sizes) < 32:
        raise h.fail("l3_imix*_size must be at least 32")
    extra = {"rate_pps": None, "rate_bps": 0, "rate_percent": 20}[key]
    weights = [r if extra is None else r * (s + extra) for r, s in zip(ratios, sizes)]
    if sum(weights) == 0:
        raise h.fail("length_mode imix with every l3_imix*_ratio 0")
    out = []
    for s, r, w in zip(sizes, ratios, weights):
        if r > 0:
            user = dict(h.user, length_mode="fixed", frame_size=s)
            user[key] = total * w / sum(weights)
            out.append(_stream(_Hlt(h.site, user)))
    return out


def _stream(h: _Hlt) -> api.STLStream:
    kw = h.merged()
    key, value = _rate(h, kw)
    rate = {{"rate_pps": "pps", "rate_bps": "bps_L2", "rate_percent": "percentage"}[key]:
            value}
    pkt = _packet(h)
    tm = kw["transmit_mode"]
    if tm == "continuous":
        mode: api.STLTXMode = api.STLTXCont(**rate)
    elif tm == "single_burst":
        mode = api.STLTXSingleBurst(total_pkts=h.num(kw, "pkts_per_burst"), **rate)
    elif tm == "multi_burst":
        mode = api.STLTXMultiBurst(pkts_per_burst=h.num(kw, "pkts_per_burst"),
                                   count=h.num(kw, "burst_loop_count"),
                                   ibg=h.number(kw, "inter_burst_gap"), **rate)
    else:
        raise h.fail(f"transmit_mode {tm!r}: expected continuous, single_burst or "
                     f"multi_burst")
    mode.site = h.site
    pg_id = None
    if kw["l3_protocol"] in ("ipv4", "ipv6") and not _is_true(kw["disable_flow_stats"]):
        pg_id = kw.get("pg_id", kw.get("flow_stats_id"))
    flow = api.STLFlowStats(pg_id=pg_id) if pg_id else None
    if flow is not None:
        flow.site = h.site
    s = api.STLStream(packet=pkt, mode=mode, flow_stats=flow,
                      random_seed=1 if _is_true(kw["consistent_random"]) else 0)
    s.site = h.site
    return s


def STLHltStream(**user_kwargs: Any) -> Any:
    """One stream (a list of them for length_mode imix) from TRex's HLT parameters."""
    h = _Hlt(call_site(), user_kwargs)
    kw = h.merged()
    if kw["length_mode"] == "imix":
        return _imix(h, kw)
    return _stream(h)


__all__ = ["STLHltStream"]
