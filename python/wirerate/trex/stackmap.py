# SPDX-License-Identifier: BSD-3-Clause
"""A Scapy packet as a wirerate ``stack:`` (doc/stack.md), when the stack rebuilds it exactly.

A packet is a stack when every layer is one wirerate's stack has (Ether, Dot1Q/Dot1AD, MPLS,
IP without options, IPv6 without extension headers, UDP, TCP without options, ICMP echo,
ICMPv6 echo, VXLAN), its lengths and checksums are the ones computed from its bytes (Scapy's
automatic values: the test is that Scapy, asked to compute them again, gives the same bytes),
and whatever follows the last header is its payload.  Values are written where they differ
from the stack's defaults, next-protocol fields only where they differ from what the stack
derives from the layer above.
"""

from __future__ import annotations

import ipaddress
from typing import Any, Dict, List, Optional, Tuple

from . import registry as reg
from .yamlout import hexint

# Fields Scapy computes when left None: set to None, rebuilt, compared.
_AUTO = {
    "IP": ("len", "chksum", "ihl"),
    "IPv6": ("plen",),
    "UDP": ("len", "chksum"),
    "TCP": ("chksum", "dataofs"),
    "ICMP": ("chksum",),
    "ICMPv6EchoRequest": ("cksum",),
    "ICMPv6EchoReply": ("cksum",),
}


def _mac(v: str) -> str:
    return v.lower()


def _layer(layer: Any) -> Optional[Tuple[str, Dict[str, Any]]]:
    """One Scapy layer as (stack layer name, fields), None if the stack has no such layer."""
    cls = layer.__class__.__name__
    f = layer.fields  # after dissection every field is set
    g = layer.getfieldval
    if cls == "Ether":
        return "eth", {"src": _mac(g("src")), "dst": _mac(g("dst"))}
    if cls in ("Dot1Q", "Dot1AD"):
        d: Dict[str, Any] = {"id": g("vlan")}
        if g("prio"):
            d["pcp"] = g("prio")
        if g("id"):
            d["dei"] = g("id")
        return "vlan", d
    if cls == "MPLS":
        d = {"label": g("label"), "s": g("s")}
        if g("cos"):
            d["tc"] = g("cos")
        if g("ttl") != 64:
            d["ttl"] = g("ttl")
        return "mpls", d
    if cls == "IP":
        if g("version") != 4 or g("ihl") != 5 or g("options") or g("frag") != 0:
            return None
        flags = int(g("flags"))
        if flags & ~0x2:
            return None
        d = {"src": g("src"), "dst": g("dst")}
        tos = g("tos")
        if tos >> 2:
            d["dscp"] = tos >> 2
        if tos & 3:
            d["ecn"] = tos & 3
        if g("id"):
            d["id"] = g("id")
        if g("ttl") != 64:
            d["ttl"] = g("ttl")
        if not flags & 0x2:
            d["df"] = 0  # the stack's default is 1, as Linux sets it
        d["proto"] = g("proto")
        return "ipv4", d
    if cls == "IPv6":
        if g("version") != 6:
            return None
        d = {"src": str(ipaddress.IPv6Address(g("src"))),
             "dst": str(ipaddress.IPv6Address(g("dst")))}
        if g("tc"):
            d["tc"] = g("tc")
        if g("fl"):
            d["flow"] = g("fl")
        if g("hlim") != 64:
            d["hop"] = g("hlim")
        d["next"] = g("nh")
        return "ipv6", d
    if cls == "UDP":
        return "udp", {"src": g("sport"), "dst": g("dport")}
    if cls == "TCP":
        if g("dataofs") != 5 or g("options") or g("reserved"):
            return None
        d = {"src": g("sport"), "dst": g("dport"), "seq": g("seq"), "ack": g("ack"),
             "flags": int(g("flags")), "window": g("window")}
        if g("urgptr"):
            d["urg"] = g("urgptr")
        return "tcp", d
    if cls == "ICMP":
        if g("type") not in (0, 8):
            return None
        return "icmp", {"type": g("type"), "code": g("code"), "id": g("id"),
                        "seq": g("seq")}
    if cls in ("ICMPv6EchoRequest", "ICMPv6EchoReply"):
        return "icmp6", {"type": g("type"), "code": g("code"), "id": g("id"),
                         "seq": g("seq")}
    if cls == "VXLAN":
        if g("flags") != 0x08 or any(f.get(k) for k in ("reserved0", "reserved1",
                                                         "reserved2", "gpflags", "gpid")):
            return None
        return "vxlan", {"vni": g("vni")}
    return None


def to_stack(pkt: Any, frame: bytes) -> Optional[Tuple[List[Dict[str, Any]], Any]]:
    """(stack layers, payload) for ``pkt`` whose bytes are ``frame``, or None."""
    from scapy.packet import Padding, Raw

    from .convert import _payload_yaml
    from .fields import layer_list

    # Lengths and checksums must be the computed ones: Scapy, asked to compute them
    # again, gives the same bytes.
    redo = pkt.copy()
    for ly in _iter(redo):
        for name in _AUTO.get(ly.__class__.__name__, ()):
            ly.setfieldval(name, None)
    try:
        if bytes(redo) != frame:
            return None
    except Exception:
        return None
    layers: List[Dict[str, Any]] = []
    names: List[str] = []
    concrete: List[Any] = []
    payload = b""
    below_type: Optional[int] = None
    for orig, off in layer_list(pkt):
        if isinstance(orig, (Raw, Padding)):
            payload = frame[off:]
            break
        try:
            # This layer's fields as its bytes hold them (its own dissector, not a
            # guess at what follows).
            ly = orig.__class__(frame[off:])
        except Exception:
            return None
        got1 = _layer(ly)
        if got1 is None:
            return None
        name, d = got1
        # TPIDs: written by the layer below in Scapy, a key of the tag in the stack.
        if name == "vlan" and below_type not in (None, reg.ethertype("vlan")):
            d["tpid"] = below_type
        names.append(name)
        concrete.append(ly)
        layers.append({name: d})
        below_type = ly.getfieldval("type") if name in ("eth", "vlan") else None
    if not layers or names[0] != "eth":
        return None
    _drop_derived(layers, names, concrete)
    return [(_flow(x)) for x in layers], _payload_yaml(payload)


def _iter(pkt: Any):
    from scapy.packet import NoPayload

    ly = pkt
    while ly is not None and not isinstance(ly, NoPayload):
        yield ly
        ly = ly.payload


def _drop_derived(layers: List[Dict[str, Any]], names: List[str],
                  scapy_layers: List[Any]) -> None:
    """Leave out next-protocol values the stack derives itself; keep them where they differ."""
    for i, name in enumerate(names):
        d = layers[i][name]
        above = names[i + 1] if i + 1 < len(names) else None
        sl = scapy_layers[i]
        if name in ("eth", "vlan"):
            et = sl.getfieldval("type")
            want = None
            if above == "vlan":
                want = layers[i + 1]["vlan"].get("tpid", reg.ethertype("vlan"))
            elif above is not None:
                # What the stack derives: the EtherType the layer above registers.
                want = reg.ethertype(above) or None
            if above is None or et != want:
                d["type"] = et
        elif name == "mpls":
            pass  # s is written as Scapy built it (Scapy does not set it automatically)
        elif name == "ipv4":
            if above is not None and d["proto"] == _ipproto(above):
                del d["proto"]
        elif name == "ipv6":
            if above is not None and d["next"] == _ipproto(above):
                del d["next"]
        elif name == "udp" and above is not None and d["dst"] == reg.udp_port(above) != 0:
            del d["dst"]


def _ipproto(name: str) -> Optional[int]:
    """The IP protocol number the stack derives for ``name`` (None: it derives none)."""
    p = reg.proto(name)
    return p["ipproto"] if p["ipproto"] or p["ipproto_zero"] else None


def _flow(layer: Dict[str, Any]) -> Any:
    (name, d), = layer.items()
    for key in ("type", "tpid"):
        if key in d:
            d[key] = hexint(d[key])
    return {name: d} if d else name
