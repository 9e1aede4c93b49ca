# SPDX-License-Identifier: BSD-3-Clause
"""python3 -m wirerate: the interactive console."""

from .console import main

raise SystemExit(main())
