# SPDX-License-Identifier: BSD-3-Clause
"""Errors of a TRex profile, each tied to the line of the profile that caused it."""

from __future__ import annotations

import os
import sys
from typing import Optional, Tuple

_PKG = os.path.dirname(os.path.abspath(__file__))

Site = Tuple[str, int]


def call_site(skip_files: Tuple[str, ...] = ()) -> Site:
    """The file and line of the innermost caller outside this package (the profile's line).

    Every recorded instruction keeps it, so a refusal long after the profile ran still names
    the line that asked for what cannot be done.
    """
    f = sys._getframe(1)
    while f is not None:
        path = os.path.abspath(f.f_code.co_filename)
        if not path.startswith(_PKG + os.sep) and path not in skip_files:
            return (f.f_code.co_filename, f.f_lineno)
        f = f.f_back
    return ("<profile>", 0)


class TRexError(Exception):
    """TRex's own exception class: profiles catch it (and raise it) by this name."""


STLError = TRexError


class ProfileError(TRexError):
    """What a profile asks that is wrong or cannot be sent exactly: ``file:line: message``."""

    def __init__(self, site: Optional[Site], message: str):
        self.site = site
        self.message = message
        super().__init__(self.line())

    def line(self) -> str:
        if self.site is None:
            return self.message
        return f"{self.site[0]}:{self.site[1]}: {self.message}"
