# SPDX-License-Identifier: BSD-3-Clause
"""TRex stateless profiles in wirerate: the profile API, its loader and the converter.

``python3 -m wirerate.trex PROFILE.py [-t TUNABLE ...] [-o FILE]`` (what ``wirerate
import-trex`` runs) writes the stream file; from Python::

    from wirerate.trex import load, convert
    streams = load("udp_range.py", tunables=["size=128"])
    print(convert(streams, "udp_range.py").yaml)

The classes a profile uses (STLStream, STLPktBuilder, STLVM, STLVmFlowVar, ...) are in
``wirerate.trex.api``; a profile imports them under TRex's module names (``trex_stl_lib.api``,
``trex.stl.api``), which the loader provides.  Scapy is needed for profiles that build packets
with it, as TRex's are; nothing else in the wirerate package needs it.
"""

from .convert import Note, Options, Result, convert
from .errors import ProfileError, TRexError
from .load import load, parse_tunables

__all__ = ["Note", "Options", "ProfileError", "Result", "TRexError", "convert", "load",
           "parse_tunables"]
