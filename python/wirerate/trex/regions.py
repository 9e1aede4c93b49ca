# SPDX-License-Identifier: BSD-3-Clause
"""The checksums a frame holds and the bytes each covers, found through wirerate's registry.

The walk is the C receiver's (wr_pkt_parse, wr_pkt_csums) over the registry's data
(registry.py): from the link header, each layer's protocol is the one the layer below names (its
field of role next_ethertype, next_ipproto or next_udp_port, an MPLS label's bottom bit, an IP
version, an SCTP chunk's type), its length what its rx_hlen says (IHL, data offset, extension
header lengths, GRE's flags), where its checksum is, what it covers and what its IP layer's
pseudo-header holds are the registry's, and headers after a fragmenting one (rx_hlen.frag_mask)
are in a fragment.  A layer whose length is no such rule (GTP-U's extension chain) ends the
walk.  No Scapy.  Used to warn about a varying field under a checksum the profile leaves stale.
"""

from __future__ import annotations

from dataclasses import dataclass, field as dc_field
from typing import Any, Dict, List, Optional, Tuple

from . import registry as reg

# Deepest stack walked (wr_pkt.h's WR_PKT_LAYERS_MAX).
_LAYERS_MAX = 16


@dataclass
class Region:
    """One checksum: its kind (the registered protocol's name: ipv4, udp, tcp, icmp, icmp6,
    ...), its rule (header, pseudo, plain, crc32c), the offset of the checksum field, the bytes
    it covers [start, end) and, over a datagram, the IP header at ip_off of protocol ip."""

    kind: str
    csum_off: int
    start: int
    end: int
    ip_off: Optional[int] = None
    rule: str = "header"
    ip: Optional[Dict[str, Any]] = dc_field(default=None, repr=False)

    def _pseudo_spans(self) -> List[Tuple[int, int]]:
        """The IP header's bytes in the pseudo-header: its addresses, and its length and
        protocol fields (a write there changes what the pseudo-header holds)."""
        ip, o = self.ip, self.ip_off
        if self.rule != "pseudo" or ip is None or o is None:
            return []
        src, dst = reg.role(ip, "src_addr"), reg.role(ip, "dst_addr")
        nxt = reg.role(ip, "next_ipproto")
        spans = [(o + f["off"], o + f["off"] + f["span"]) for f in (src, dst, nxt) if f]
        if ip["len_off"] >= 0:
            spans.append((o + ip["len_off"], o + ip["len_off"] + 2))
        return spans

    def covers(self, off: int, width: int) -> bool:
        lo, hi = off, off + width
        if lo < self.end and hi > self.start:
            return True
        return any(lo < b and hi > a for a, b in self._pseudo_spans())


def _next(p: Dict[str, Any], frame: bytes, off: int, nxt: int) -> Optional[Dict[str, Any]]:
    """The protocol the header of ``p`` at ``off`` names for the bytes at ``nxt``."""
    carry = p["carry"]
    if carry in ("ethertype", "ipproto", "udp_port"):
        f = reg.role(p, "next_" + carry)
        return reg.named_by(carry, reg.read_field(frame, off, f)) if f else None
    if carry == "eth":
        return reg.named_by("eth", 0)
    if carry == "mpls":
        f = reg.role(p, "bottom")
        if f is not None and not reg.read_field(frame, off, f):
            return p
        carry = "ip"
    if nxt >= len(frame):
        return None
    if carry == "ip":
        return reg.named_by("ip", frame[nxt] >> 4)
    if carry == "chunk":
        return reg.named_by("chunk", frame[nxt])
    return None


def _u16(b: bytes, o: int) -> int:
    return int.from_bytes(b[o:o + 2], "big") if o + 2 <= len(b) else 0


def _hlen(p: Dict[str, Any], frame: bytes, off: int) -> int:
    """The length of ``p``'s header at ``off`` by its rx_hlen (wr_proto_rx_hlen); 0 when the
    frame ends first or the length is no rule the registry states."""
    r = p["rx_hlen"]
    if r["chain"]:
        return 0
    if r["unit"] == 0:
        hl = p["hlen"]
    elif off + r["off"] >= len(frame):
        return 0
    else:
        v = frame[off + r["off"]] & r["mask"]
        hl = r["base"] + r["unit"] * (bin(v).count("1") if r["bits"] else v >> r["shift"])
    return hl if 0 < hl and off + hl <= len(frame) else 0


def regions(frame: bytes) -> List[Region]:
    """Every checksum ``frame`` (an Ethernet frame without FCS) holds, outermost first."""
    out: List[Region] = []
    p: Optional[Dict[str, Any]] = reg.named_by("eth", 0)
    off, ip, ip_off, end, whole = 0, None, 0, 0, True
    for _ in range(_LAYERS_MAX):
        hl = _hlen(p, frame, off) if p is not None else 0
        if p is None or hl == 0:
            break
        if p["l3"] and p["len_off"] >= 0:
            ip, ip_off = p, off
            end = off + p["len_base"] + _u16(frame, off + p["len_off"])
            end = end if off + hl <= end <= len(frame) else 0
        rule = p["csum"]
        if rule == "header":
            out.append(Region(p["name"], off + p["csum_off"], off, off + hl, rule=rule))
        elif rule != "none" and ip is not None and end and whole and \
                off + p["csum_off"] + (4 if rule == "crc32c" else 2) <= end:
            out.append(Region(p["name"], off + p["csum_off"], off, end, ip_off, rule, ip))
        r = p["rx_hlen"]
        if r["frag_mask"] and _u16(frame, off + r["frag_off"]) & r["frag_mask"]:
            whole = False
        p, off = _next(p, frame, off, off + hl), off + hl
    return out
