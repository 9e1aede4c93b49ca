# SPDX-License-Identifier: BSD-3-Clause
"""wirerate's protocol registry, as the C library describes it (registry.json).

registry.json is what ``wr_proto_json()`` (lib/core/wire/wr_proto_json.c) writes from the
protocol modules of lib/core/wire/proto/ in the order of wr_protos.def; test_proto checks that
the file is its output byte for byte (``WR_REGEN=1 build/test/test_proto`` writes it again).  The
converter takes every protocol fact from here (what EtherType, IP protocol number or UDP port
announces a layer, where a layer's fields and checksum are, what its length field counts), so a
module added to the C registry reaches the converter with no table copied by hand.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from typing import Any, Dict, List, Optional


@lru_cache(maxsize=1)
def protocols() -> List[Dict[str, Any]]:
    """The registered protocols, in registry order."""
    with open(os.path.join(os.path.dirname(__file__), "registry.json"), encoding="utf-8") as f:
        return json.load(f)["protocols"]


@lru_cache(maxsize=None)
def proto(name: str) -> Dict[str, Any]:
    """The protocol registered as ``name`` ("ipv4")."""
    for p in protocols():
        if p["name"] == name:
            return p
    raise KeyError(f"no protocol {name!r} in wirerate's registry")


def field(p: Dict[str, Any], name: str) -> Dict[str, Any]:
    """Field ``name`` of protocol ``p``."""
    for f in p["fields"]:
        if f["name"] == name:
            return f
    raise KeyError(f"{p['name']} has no field {name!r}")


def role(p: Dict[str, Any], r: str) -> Optional[Dict[str, Any]]:
    """The first field of ``p`` with role ``r`` ("next_ipproto", "src_addr", ...), or None."""
    for f in p["fields"]:
        if f["role"] == r:
            return f
    return None


def ethertype(name: str) -> int:
    """The EtherType that announces ``name`` (0: none)."""
    return proto(name)["ethertype"]


def ipproto(name: str) -> int:
    """The IP protocol number that announces ``name`` (0: none, but for IPv6 hop-by-hop)."""
    return proto(name)["ipproto"]


def udp_port(name: str) -> int:
    """The UDP destination port that announces ``name`` (0: none)."""
    return proto(name)["udp_port"]


def read_field(b: bytes, off: int, f: Dict[str, Any]) -> int:
    """The value of field ``f`` of a header at ``off`` in ``b``."""
    v = int.from_bytes(b[off + f["off"]: off + f["off"] + f["span"]], "big")
    return (v >> f["shift"]) & ((1 << f["bits"]) - 1)


def named_by(carry: str, value: int) -> Optional[Dict[str, Any]]:
    """The protocol a header names as its next (``carry`` as the registry's: "ethertype",
    "ipproto", "udp_port", "ip" by version, "chunk" by type, "eth" a link header), the first
    in registry order, as wr_proto_rx_next does; None when none is."""
    for p in protocols():
        if carry == "ethertype" and value and value in (p["ethertype"], *p["rx_ethertypes"]):
            return p
        if carry == "ipproto" and (p["ipproto"] == value and (value or p["ipproto_zero"])):
            return p
        if carry == "udp_port" and value and p["udp_port"] == value:
            return p
        if carry == "ip" and value and p["ip_version"] == value:
            return p
        if carry == "chunk" and p["chunk"] and p["chunk_type"] == value:
            return p
        if carry == "eth" and p["link"]:
            return p
    return None
