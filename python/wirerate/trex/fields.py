# SPDX-License-Identifier: BSD-3-Clause
"""Where a Scapy field lies in a packet's bytes: "IP.src", "IP:1.src", "MPLS:1.label", "802|1Q.vlan".

The names are TRex's (and the issue's): ``LAYER[:N].FIELD``, the layer matched by its class
name (``Dot1Q``) or its Scapy name (``802.1Q``, written ``802|1Q`` since a dot separates the
field), N counting layers of that name from 0.  Offsets are those of the packet as Scapy builds
it; a bit field's offset is the byte holding its first bit.  Needs Scapy (only here).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Tuple


@dataclass
class FieldLoc:
    """A field: the byte its first bit is in, its first bit there (0 = most significant),
    its width in bits, and the layer and Scapy field it is."""

    name: str
    offset: int
    bit: int
    bits: int
    layer_index: int
    layer: Any
    field: Any

    @property
    def width(self) -> int:
        """Bytes its bits span."""
        return (self.bit + self.bits + 7) // 8


def layer_list(pkt: Any) -> List[Tuple[Any, int]]:
    """Each layer of ``pkt`` with its offset in ``bytes(pkt)``."""
    from scapy.packet import NoPayload

    out = []
    off = 0
    layer = pkt
    while layer is not None and not isinstance(layer, NoPayload):
        out.append((layer, off))
        # The header's length as built (post_build may pad options), not self_build's.
        off += len(bytes(layer)) - len(bytes(layer.payload))
        layer = layer.payload
    return out


def _parse_layer(desc: str) -> Tuple[str, int]:
    name, _, idx = desc.partition(":")
    name = name.replace("|", ".")
    if idx == "":
        return name, 0
    if not idx.isdigit():
        raise ValueError(f"layer index in {desc!r} is not a number")
    return name, int(idx)


def find_layer(pkt: Any, desc: str) -> Tuple[int, Any, int]:
    """``IP`` or ``IP:1``: (its index in the stack, the layer, its offset)."""
    name, nth = _parse_layer(desc)
    seen = 0
    for i, (layer, off) in enumerate(layer_list(pkt)):
        if name in (layer.name, layer.__class__.__name__):
            if seen == nth:
                return i, layer, off
            seen += 1
    raise ValueError(f"the packet has no layer {desc!r}")


def _field_bits(layer: Any, fld: Any) -> int:
    size = getattr(fld, "size", None)
    if type(size) is int and hasattr(fld, "rev"):  # a BitField (and its subclasses)
        return size
    sz = getattr(fld, "sz", None)
    if sz is not None and float(sz).is_integer() and sz > 0:
        return int(sz) * 8
    # Variable-length fields: as long as their value is built.
    return 8 * len(fld.i2m(layer, layer.getfieldval(fld.name)) or b"")


def _walk_fields(layer: Any):
    """Each field of ``layer`` with the byte and bit it starts at (Scapy's own field walk)."""
    s: Any = b""
    for fld in layer.fields_desc:
        if isinstance(s, tuple):
            pos = (len(s[0]), s[1])
        else:
            pos = (len(s), 0)
        cond = getattr(fld, "_evalcond", None)
        present = cond(layer) if cond is not None else True
        yield fld, pos, present
        s = fld.addfield(layer, s, layer.getfieldval(fld.name))


def locate(pkt: Any, desc: str) -> FieldLoc:
    """``LAYER[:N].FIELD`` in ``pkt``."""
    parts = desc.split(".")
    if len(parts) != 2 or not parts[0] or not parts[1]:
        raise ValueError(f"{desc!r}: expected LAYER.FIELD or LAYER:N.FIELD, such as IP.src "
                         f"or MPLS:1.label")
    idx, layer, off = find_layer(pkt, parts[0])
    for fld, (byte, bit), present in _walk_fields(layer):
        if fld.name != parts[1]:
            continue
        if not present:
            raise ValueError(f"{desc!r}: the field is not present in this packet")
        inner = getattr(fld, "fld", fld)  # ConditionalField, Emph
        return FieldLoc(desc, off + byte, bit, _field_bits(layer, inner), idx, layer, inner)
    names = ", ".join(f.name for f in layer.fields_desc)
    raise ValueError(f"{desc!r}: layer {layer.name} has no field {parts[1]!r} (it has {names})")
