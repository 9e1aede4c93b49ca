# SPDX-License-Identifier: BSD-3-Clause
"""A small writer of stream-file YAML: flow mappings on one line each, quoted when needed.

The client stays standard-library only, so no YAML package: the values written here are
scalars (numbers, names, addresses, hex, rates), lists and mappings of them.
"""

from __future__ import annotations

import re
from typing import Any, List, Sequence, Tuple

_PLAIN = re.compile(r"^[A-Za-z0-9_./+%][A-Za-z0-9_./+%: -]*$")
_RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "~", "y", "n"}


def scalar(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, Raw):
        return v.text
    s = str(v)
    if (_PLAIN.match(s) and ": " not in s and not s.endswith(":") and not s.endswith(" ")
            and s.lower() not in _RESERVED and "," not in s and "::" not in s):
        return s
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Raw:
    """Text written as is (hex written 0x..., already-formatted values)."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return f"Raw({self.text!r})"


def hexint(v: int) -> Raw:
    return Raw(f"0x{v:x}")


def flow(v: Any) -> str:
    """One value in flow style: {a: 1, b: [2, 3]}."""
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {flow(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(flow(x) for x in v) + "]"
    return scalar(v)


Item = Tuple[str, Any, str]  # key, value, comment


def block(items: Sequence[Item], indent: int) -> List[str]:
    """Keys of one mapping, one per line; a list of mappings as "- {...}" lines."""
    pad = " " * indent
    out: List[str] = []
    for key, val, comment in items:
        tail = f"  # {comment}" if comment else ""
        if isinstance(val, Lines):
            out.append(f"{pad}{key}:{tail}")
            for text, c in val.rows:
                out.append(f"{pad}  - {text}" + (f"  # {c}" if c else ""))
        else:
            out.append(f"{pad}{key}: {flow(val)}{tail}")
    return out


class Lines:
    """A block list whose rows are flow values, each with its own comment."""

    def __init__(self) -> None:
        self.rows: List[Tuple[str, str]] = []

    def add(self, value: Any, comment: str = "") -> None:
        self.rows.append((flow(value), comment))

    def __bool__(self) -> bool:
        return bool(self.rows)


def stream_file(header: Sequence[str], top: Sequence[Item],
                streams: Sequence[Tuple[Sequence[str], Sequence[Item]]]) -> str:
    """The whole file: comment lines, top-level keys, then each stream's comments and keys."""
    out = [f"# {h}" if h else "#" for h in header]
    out += block(top, 0)
    out.append("streams:")
    for comments, items in streams:
        for c in comments:
            out.append(f"  # {c}")
        lines = block(items, 4)
        lines[0] = "  - " + lines[0][4:]
        out += lines
    return "\n".join(out) + "\n"

