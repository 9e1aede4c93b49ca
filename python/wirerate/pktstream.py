# SPDX-License-Identifier: BSD-3-Clause
"""A stream from a Scapy packet and a vary mapping keyed by Scapy field names.

``stream_items(pkt, vary={"IPv6.src": {"inc": {...}}, "MPLS:1.label": {"list": [...]}})``
gives the keys of one stream of a stream file:

- a ``stack:`` when wirerate's stack rebuilds the packet byte for byte (wirerate.trex.stackmap),
  each varying Scapy field becoming its stack field (``IP.src`` -> ``ipv4.src``, ``Dot1Q.vlan``
  -> ``vlan.id``, ``MPLS:1.label`` -> the second ``mpls`` layer's ``label``), every length
  and checksum then right on every frame;
- else ``frame:`` (the bytes) with ``fields:`` at the fields' offsets, whole bytes of 1 to 8
  (or 16: an IPv6 address), every checksum the frame holds recomputed (doc/replay.md).

Values are wirerate's (doc/vary.md): ``{"inc": {"from", "to", "step"}}``, ``{"dec": ...}``,
``{"random": {"min", "max"} | {"prefix"}}``, ``{"list": [...]}`` or a fixed value.  Needs
Scapy; the rest of the package does not.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from .trex.convert import leave_macs_to_port
from .trex.errors import TRexError
from .trex.fields import locate
from .trex.stackmap import to_stack
from .trex.yamlout import Lines

# Scapy class and field -> wirerate stack layer and field.
FIELD_MAP: Dict[Tuple[str, str], Tuple[str, str]] = {
    ("Ether", "src"): ("eth", "src"), ("Ether", "dst"): ("eth", "dst"),
    ("Ether", "type"): ("eth", "type"),
    ("Dot1Q", "vlan"): ("vlan", "id"), ("Dot1Q", "prio"): ("vlan", "pcp"),
    ("Dot1Q", "id"): ("vlan", "dei"), ("Dot1Q", "type"): ("vlan", "type"),
    ("Dot1AD", "vlan"): ("vlan", "id"), ("Dot1AD", "prio"): ("vlan", "pcp"),
    ("Dot1AD", "id"): ("vlan", "dei"), ("Dot1AD", "type"): ("vlan", "type"),
    ("MPLS", "label"): ("mpls", "label"), ("MPLS", "cos"): ("mpls", "tc"),
    ("MPLS", "s"): ("mpls", "s"), ("MPLS", "ttl"): ("mpls", "ttl"),
    ("IP", "src"): ("ipv4", "src"), ("IP", "dst"): ("ipv4", "dst"),
    ("IP", "ttl"): ("ipv4", "ttl"), ("IP", "id"): ("ipv4", "id"),
    ("IP", "proto"): ("ipv4", "proto"),
    ("IPv6", "src"): ("ipv6", "src"), ("IPv6", "dst"): ("ipv6", "dst"),
    ("IPv6", "tc"): ("ipv6", "tc"), ("IPv6", "fl"): ("ipv6", "flow"),
    ("IPv6", "hlim"): ("ipv6", "hop"), ("IPv6", "nh"): ("ipv6", "next"),
    ("UDP", "sport"): ("udp", "src"), ("UDP", "dport"): ("udp", "dst"),
    ("TCP", "sport"): ("tcp", "src"), ("TCP", "dport"): ("tcp", "dst"),
    ("TCP", "seq"): ("tcp", "seq"), ("TCP", "ack"): ("tcp", "ack"),
    ("TCP", "flags"): ("tcp", "flags"), ("TCP", "window"): ("tcp", "window"),
    ("TCP", "urgptr"): ("tcp", "urg"),
    ("ICMP", "type"): ("icmp", "type"), ("ICMP", "code"): ("icmp", "code"),
    ("ICMP", "id"): ("icmp", "id"), ("ICMP", "seq"): ("icmp", "seq"),
    ("ICMPv6EchoRequest", "id"): ("icmp6", "id"), ("ICMPv6EchoRequest", "seq"): ("icmp6", "seq"),
    ("ICMPv6EchoReply", "id"): ("icmp6", "id"), ("ICMPv6EchoReply", "seq"): ("icmp6", "seq"),
    ("VXLAN", "vni"): ("vxlan", "vni"),
}

FCS = 4


def _is_ether(pkt: Any) -> bool:
    from scapy.layers.l2 import Ether
    return isinstance(pkt, Ether)


def stream_items(pkt: Any, vary: Optional[Dict[str, Any]] = None) -> List[Tuple[str, Any, str]]:
    """The stream-file keys (key, value, comment) of ``pkt`` varied by ``vary``.

    MACs the packet does not set are the port's, as import-trex has them
    (wirerate.trex.convert.leave_macs_to_port): ``eth: {src: port, dst: port}``."""
    vary = dict(vary or {})
    pkt, src_left, dst_left = leave_macs_to_port(pkt)
    frame = bytes(pkt)
    if len(frame) < 14 or len(frame) > 9014:
        raise TRexError(f"a packet of {len(frame)} bytes: expected 14..9014 (without FCS)")
    locs = {}
    for name in vary:
        try:
            locs[name] = locate(pkt, name)
        except ValueError as e:
            raise TRexError(f"vary: {e}") from None
    eth: Dict[str, str] = {}
    for key, left in (("src", src_left), ("dst", dst_left)):
        varied = any(loc.layer.__class__.__name__ == "Ether" and loc.field.name == key
                     for loc in locs.values())
        if left and not varied and _is_ether(pkt):
            eth[key] = "port"
    got = to_stack(pkt, frame) if len(frame) + FCS >= 64 else None
    if got is not None:
        layers, payload = got
        ok = True
        for name, loc in locs.items():
            key = (loc.layer.__class__.__name__, loc.field.name)
            if key not in FIELD_MAP or loc.layer_index >= len(layers):
                ok = False
                break
        if ok:
            for name, loc in locs.items():
                lname, fname = FIELD_MAP[(loc.layer.__class__.__name__, loc.field.name)]
                # one stack layer per Scapy layer (the payload aside)
                entry = layers[loc.layer_index]
                if isinstance(entry, str):
                    entry = {entry: {}}
                    layers[loc.layer_index] = entry
                (got_name, d), = entry.items()
                if got_name != lname:
                    ok = False
                    break
                d[fname] = vary[name]
        if ok and eth:
            first = layers[0] if layers else None
            if first == "eth":
                layers[0] = {"eth": dict(eth)}
            elif isinstance(first, dict) and isinstance(first.get("eth"), dict):
                first["eth"].update(eth)
            else:
                ok = False
        if ok:
            items: List[Tuple[str, Any, str]] = [
                ("size", len(frame) + FCS, f"{len(frame)} bytes + FCS"),
                ("stack", layers, "")]
            if payload != "zeros":
                items.append(("payload", payload, ""))
            return items
    fields = Lines()
    for name, loc in locs.items():
        if loc.bit != 0 or loc.bits % 8 != 0 or loc.bits // 8 not in (1, 2, 3, 4, 5, 6, 7, 8, 16):
            raise TRexError(f"vary: {name} is {loc.bits} bits at bit {loc.bit} of a packet "
                            f"wirerate's stack does not build: only whole bytes (1 to 8, or "
                            f"16) vary in a frame given as bytes")
        fields.add({"offset": loc.offset, "width": loc.bits // 8, "value": vary[name]}, name)
    if eth and fields:
        raise TRexError(f"vary: {', '.join(locs)} of a packet wirerate's stack does not build "
                        f"(sent as bytes), whose Ether() leaves its "
                        f"{' and '.join(eth)} MAC to the port: bytes varied by fields: cannot "
                        f"take the port's MACs; give Ether(src=..., dst=...)")
    items = [("frame", frame.hex(), f"{len(frame)} bytes without FCS")]
    if eth:
        # eth: applies to a frame program (doc/trex.md), as import-trex writes it;
        # checksums: all is what a frame: stream computes anyway.
        items.append(("eth", eth, "MACs the packet leaves to the port"))
        items.append(("checksums", "all", "every checksum the frame holds"))
    if fields:
        items.append(("fields", fields, ""))
    return items
