# SPDX-License-Identifier: BSD-3-Clause
"""python3 -m wirerate.trex PROFILE.py [-t TUNABLE ...] [-o FILE]: a TRex profile as a stream file.

What ``wirerate import-trex`` runs.  Errors are one line, ``wirerate: FILE:LINE: ...``, exit
status 2, and no output file is written; warnings (a checksum TRex leaves stale, a stream TRex
never sends) are ``wirerate: warning: FILE:LINE: ...`` lines on stderr.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from typing import List, Optional

from .convert import PORT_MAX, Options, check_mult, convert
from .errors import ProfileError
from .load import load

EXIT_USAGE = 2
_MAC = re.compile(r"^[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}$")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, as the rest of wirerate
        print(f"wirerate: import-trex: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _mac(text: str) -> str:
    if text == "port" or _MAC.match(text):
        return text.lower()
    raise argparse.ArgumentTypeError(f"expected a MAC such as 02:00:00:00:00:02 or port, "
                                     f"got {text!r}")


def _dst_mac(text: str) -> str:
    if text in ("arp", "nd"):
        return text
    return _mac(text)


def parser(prog: str = "wirerate import-trex") -> argparse.ArgumentParser:
    p = _Parser(prog=prog, description="Write a TRex stateless profile as a wirerate stream "
                "file (doc/trex.md).")
    p.add_argument("profile", help="the TRex profile (a Python file with register())")
    p.add_argument("-t", "--tunable", dest="tunables", action="append", default=[],
                   metavar="TUNABLE",
                   help="tunables as TRex's console takes them: key=value[,key=value] or "
                        "'--key value' (repeatable)")
    p.add_argument("-o", "--output", dest="output", metavar="FILE",
                   help="write the stream file here (default: standard output)")
    p.add_argument("-m", "--mult", metavar="MULT",
                   help="TRex's multiplier: a factor (2) or the port's total rate "
                        "(10mpps, 1gbps, 5gbpsl1, 50%%)")
    p.add_argument("-p", "--port", type=int, default=0, metavar="N",
                   help="the port the profile is loaded for (its port_id; direction = N mod "
                        "2), and the streams' port: (default 0)")
    p.add_argument("--src-mac", type=_mac, default="port", metavar="MAC|port",
                   help="source MAC of packets that leave it to TRex's port configuration "
                        "(default port: the wirerate profile's port)")
    p.add_argument("--dst-mac", type=_dst_mac, default="port", metavar="MAC|port|arp|nd",
                   help="destination MAC likewise (default port); arp or nd: resolved by "
                        "ARP or Neighbor Solicitation when a run starts, as TRex's L3 mode "
                        "(streams that are stacks)")
    p.add_argument("--fix-checksums", action="store_true",
                   help="recompute every checksum of every frame, also those the profile "
                        "leaves stale")
    p.add_argument("-q", "--quiet", action="store_true", help="no warnings")
    return p


def _write(path: str, text: str) -> None:
    """To a temporary file beside ``path``, renamed when complete."""
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".", dir=d)
    try:
        # as the umask says, as any file wirerate writes (mkstemp makes 0600)
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(fd, 0o666 & ~mask)
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def run(args: argparse.Namespace) -> int:
    # Options a stream file would refuse are refused here, before the profile runs and
    # before any file is written.
    if not 0 <= args.port <= PORT_MAX:
        print(f"wirerate: import-trex: -p {args.port}: expected a port in 0..{PORT_MAX}",
              file=sys.stderr)
        return EXIT_USAGE
    if args.mult is not None:
        try:
            check_mult(args.mult)
        except ProfileError as e:
            print(f"wirerate: import-trex: {e.line()}", file=sys.stderr)
            return EXIT_USAGE
    if args.output:
        d = os.path.dirname(os.path.abspath(args.output))
        why = None
        if not os.path.isdir(d) or not os.access(d, os.W_OK):
            why = f"cannot write in {d}"
        elif os.path.exists(args.output) and not os.path.isfile(args.output):
            why = "not a regular file (a device, a FIFO or a directory is never replaced)"
        elif os.path.exists(args.output) and os.path.samefile(args.output, args.profile):
            why = "that is the profile itself"
        if why is not None:
            print(f"wirerate: import-trex: -o {args.output}: {why}", file=sys.stderr)
            return EXIT_USAGE
    # The stream file goes to standard output, which wirerate reads as YAML: whatever the
    # profile prints (print(), sys.stdout, os.write(1, ...), a C extension) goes to standard
    # error instead, and the file to a descriptor the profile never sees.
    out = None
    if not args.output:
        sys.stdout.flush()
        out = os.fdopen(os.dup(1), "w")
        os.dup2(2, 1)
    try:
        try:
            streams = load(args.profile, args.tunables, args.port)
            opts = Options(port=args.port, src_mac=args.src_mac, dst_mac=args.dst_mac,
                           fix_checksums=args.fix_checksums, mult=args.mult)
            res = convert(streams, args.profile, opts, args.tunables)
        finally:
            sys.stdout.flush()
    except ProfileError as e:
        print(f"wirerate: {e.line()}", file=sys.stderr)
        if out is not None:
            out.close()
        return EXIT_USAGE
    if not args.quiet:
        for n in res.notes:
            print(f"wirerate: warning: {n.line()}", file=sys.stderr)
    if out is None:
        _write(args.output, res.yaml)
    else:
        with out:
            out.write(res.yaml)
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    return run(parser().parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
