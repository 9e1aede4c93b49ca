# SPDX-License-Identifier: BSD-3-Clause
"""The checksums a frame holds and the bytes each covers, found by walking its headers.

Ethernet, 802.1Q/802.1ad tags, MPLS, IPv4 (any IHL), IPv6 (hop-by-hop, routing and destination
options headers skipped), UDP, TCP, ICMP, ICMPv6, and inside them GRE and VXLAN (UDP 4789) and
IP in IP.  Used to warn about a varying field under a checksum the profile leaves stale.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Tuple

ETH_IPV4 = 0x0800
ETH_IPV6 = 0x86DD
ETH_TAGS = (0x8100, 0x88A8, 0x9100)
ETH_MPLS = (0x8847, 0x8848)
ETH_TEB = 0x6558
IPPROTO = {6: "tcp", 17: "udp", 1: "icmp", 58: "icmp6"}


@dataclass
class Region:
    """One checksum: its kind (ipv4, udp, tcp, icmp, icmp6), the offset of the checksum
    field, the bytes it covers [start, end) and, for L4, the IP header of its pseudo-header."""

    kind: str
    csum_off: int
    start: int
    end: int
    ip_off: Optional[int] = None
    ip6: bool = False

    def covers(self, off: int, width: int) -> bool:
        lo, hi = off, off + width
        if lo < self.end and hi > self.start:
            return True
        if self.ip_off is None or self.kind == "icmp":
            return False
        ip = self.ip_off
        # Pseudo-header: the addresses (and the length and protocol, which the profile's
        # writes into those bytes also change).
        spans: List[Tuple[int, int]]
        if self.ip6:
            spans = [(ip + 4, ip + 7), (ip + 8, ip + 40)]
        else:
            spans = [(ip + 2, ip + 4), (ip + 9, ip + 10), (ip + 12, ip + 20)]
        return any(lo < b and hi > a for a, b in spans)


def _u16(b: bytes, o: int) -> int:
    return (b[o] << 8) | b[o + 1]


def _l4(b: bytes, out: List[Region], proto: int, off: int, end: int, ip_off: int,
        ip6: bool, depth: int) -> None:
    kind = IPPROTO.get(proto)
    if proto == 4 and depth < 4:
        _ipv4(b, out, off, depth + 1)
    elif proto == 41 and depth < 4:
        _ipv6(b, out, off, depth + 1)
    elif proto == 47 and depth < 4 and off + 4 <= end:
        flags = b[off]
        hl = 4 + (4 if flags & 0x80 else 0) + (4 if flags & 0x20 else 0) + \
            (4 if flags & 0x10 else 0)
        _ether_type(b, out, _u16(b, off + 2), off + hl, depth + 1)
    if kind is None:
        return
    csum = {"udp": 6, "tcp": 16, "icmp": 2, "icmp6": 2}[kind]
    if off + csum + 2 > end:
        return
    out.append(Region(kind, off + csum, off, end, ip_off, ip6))
    if kind == "udp" and off + 8 <= end and _u16(b, off + 2) == 4789 and depth < 4:
        _ether(b, out, off + 16, depth + 1)


def _ipv4(b: bytes, out: List[Region], off: int, depth: int) -> None:
    if off + 20 > len(b) or b[off] >> 4 != 4:
        return
    ihl = (b[off] & 15) * 4
    end = min(len(b), off + max(_u16(b, off + 2), ihl))
    out.append(Region("ipv4", off + 10, off, off + ihl))
    if _u16(b, off + 6) & 0x1FFF == 0 and not _u16(b, off + 6) & 0x2000:
        _l4(b, out, b[off + 9], off + ihl, end, off, False, depth)


def _ipv6(b: bytes, out: List[Region], off: int, depth: int) -> None:
    if off + 40 > len(b) or b[off] >> 4 != 6:
        return
    end = min(len(b), off + 40 + _u16(b, off + 4))
    nh, p = b[off + 6], off + 40
    while nh in (0, 43, 60) and p + 8 <= end:
        nh, p = b[p], p + 8 * (b[p + 1] + 1)
    if nh != 44:
        _l4(b, out, nh, p, end, off, True, depth)


def _ether_type(b: bytes, out: List[Region], et: int, off: int, depth: int) -> None:
    while et in ETH_TAGS and off + 4 <= len(b):
        et, off = _u16(b, off + 2), off + 4
    if et in ETH_MPLS:
        while off + 4 <= len(b):
            bos = b[off + 2] & 1
            off += 4
            if bos:
                break
        if off < len(b):
            et = ETH_IPV4 if b[off] >> 4 == 4 else ETH_IPV6 if b[off] >> 4 == 6 else 0
    if et == ETH_IPV4:
        _ipv4(b, out, off, depth)
    elif et == ETH_IPV6:
        _ipv6(b, out, off, depth)
    elif et == ETH_TEB:
        _ether(b, out, off, depth + 1)


def _ether(b: bytes, out: List[Region], off: int, depth: int) -> None:
    if off + 14 <= len(b):
        _ether_type(b, out, _u16(b, off + 12), off + 14, depth)


def regions(frame: bytes) -> List[Region]:
    """Every checksum ``frame`` (an Ethernet frame without FCS) holds, outermost first."""
    out: List[Region] = []
    _ether(frame, out, 0, 0)
    return out
