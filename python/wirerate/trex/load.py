# SPDX-License-Identifier: BSD-3-Clause
"""Run a TRex profile as TRex's console does, against wirerate's recording API.

``load(path, tunables, port_id)`` compiles and runs the file, calls its ``register()`` and the
object's ``get_streams()`` with either of TRex's signatures (``get_streams(self, tunables,
**kwargs)`` with an argv list for argparse, or ``get_streams(self, direction=0, **kwargs)``
with the tunables as keyword arguments), and returns the STLStream objects.  Any failure is a
ProfileError naming the profile's line.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import logging
import os
import sys
import traceback
import types
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import api
from .errors import ProfileError, Site

# The module names TRex profiles import the API from (old and new layouts).
API_MODULES = (
    "trex_stl_lib", "trex_stl_lib.api", "trex_stl_lib.trex_stl_streams",
    "trex_stl_lib.trex_stl_packet_builder_scapy", "trex", "trex.stl", "trex.stl.api",
    "trex.stl.trex_stl_streams", "trex.stl.trex_stl_packet_builder_scapy",
    "trex.common", "trex.common.trex_types",
)
# TRex's HLT layer (STLHltStream), under both layouts.
HLT_MODULES = ("trex_stl_lib.trex_stl_hltapi", "trex.stl.trex_stl_hltapi")
# Modules TRex's API module imports and so exports to ``from ... import *`` (profiles use
# binascii, struct, random, ... without importing them).
STDLIB_EXPORTS = ("os", "sys", "string", "random", "time", "socket", "struct", "re", "json",
                  "binascii", "base64", "copy", "inspect", "collections")


def _api_namespace() -> Dict[str, Any]:
    """What ``from trex.stl.api import *`` gives: the STL classes and, as in TRex, Scapy."""
    ns: Dict[str, Any] = {}
    # Scapy warns on stderr when it cannot resolve a destination MAC: TRex's
    # packets leave that to the port, so do the converted streams.
    logging.getLogger("scapy.runtime").setLevel(logging.ERROR)
    try:
        scapy_all = importlib.import_module("scapy.all")
        # An Ether() without dst makes Scapy ask the network (ARP, Neighbor
        # Solicitation, seconds of timeout): TRex fills those MACs from its port,
        # so does wirerate; the packet's bytes there do not matter.
        scapy_all.conf.neighbor.resolve = lambda *args, **kwargs: None
        ns.update({k: v for k, v in vars(scapy_all).items() if not k.startswith("_")})
        for contrib in ("scapy.contrib.mpls", "scapy.contrib.gtp", "scapy.contrib.igmp"):
            try:
                mod = importlib.import_module(contrib)
            except Exception:  # a contrib module that does not load here: not offered
                continue
            ns.update({k: v for k, v in vars(mod).items()
                       if not k.startswith("_") and isinstance(v, type)})
    except ImportError:
        pass  # a profile that builds its packet from bytes needs no Scapy
    for name in STDLIB_EXPORTS:
        ns[name] = importlib.import_module(name)
    for name in api.__all__:
        ns[name] = getattr(api, name)
    return ns


def _install_api() -> None:
    ns = None
    for name in API_MODULES:
        if name in sys.modules and getattr(sys.modules[name], "__wirerate__", False):
            continue
        if ns is None:
            ns = _api_namespace()
        mod = types.ModuleType(name)
        mod.__dict__.update(ns)
        mod.__all__ = [k for k in ns]  # type: ignore[attr-defined]
        mod.__wirerate__ = True  # type: ignore[attr-defined]
        mod.__path__ = []  # type: ignore[attr-defined]  (a package: submodules import)
        sys.modules[name] = mod
    from . import hltapi
    for name in HLT_MODULES:
        if name not in sys.modules:
            mod = types.ModuleType(name)
            mod.__dict__.update({k: v for k, v in (ns or _api_namespace()).items()})
            mod.STLHltStream = hltapi.STLHltStream  # type: ignore[attr-defined]
            mod.__wirerate__ = True  # type: ignore[attr-defined]
            sys.modules[name] = mod
            parent, _, leaf = name.rpartition(".")
            setattr(sys.modules[parent], leaf, mod)


def _site_of(exc: BaseException, path: str) -> Site:
    """The innermost line of the profile in an exception's traceback."""
    if isinstance(exc, ProfileError) and exc.site is not None:
        return exc.site
    if isinstance(exc, SyntaxError) and exc.filename:
        return (exc.filename, exc.lineno or 0)
    real = os.path.realpath(path)
    site: Site = (path, 1)
    for fs in traceback.extract_tb(exc.__traceback__):
        if os.path.realpath(fs.filename) == real:
            site = (path, fs.lineno or 0)
    return site


def _message(exc: BaseException) -> str:
    if isinstance(exc, ProfileError):
        return exc.message
    if isinstance(exc, SyntaxError):
        return f"syntax error: {exc.msg}"
    if isinstance(exc, ModuleNotFoundError) and exc.name and exc.name.startswith("scapy"):
        return (f"{exc}: the profile needs Scapy (Debian: python3-scapy, run with "
                f"/usr/bin/python3)")
    text = str(exc).strip().replace("\n", " ")
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def parse_tunables(values: Sequence[str]) -> Tuple[List[str], Dict[str, Any]]:
    """``-t`` values: ``key=value[,key=value]`` or argv words (``--size 64``).

    Returns the argv list a new-style profile's argparse takes (key=value becomes
    ``--key value``) and, for old-style profiles, the keyword arguments (None when some value
    was written as argv words only).
    """
    import shlex

    argv: List[str] = []
    kwargs: Optional[Dict[str, Any]] = {}
    for v in values:
        words = shlex.split(v)
        if words and all("=" in w and not w.startswith("-") for w in words):
            for w in words:
                for part in w.split(","):
                    if not part:
                        continue
                    key, _, val = part.partition("=")
                    argv += ["--" + key, val]
                    if kwargs is not None:
                        kwargs[key] = _literal(val)
        else:
            argv += words
            kwargs = None
    return argv, kwargs if kwargs is not None else {"__argv_only__": True}


def _literal(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    if text in ("True", "False"):
        return text == "True"
    return text


def _def_site(fn: Any, path: str) -> Site:
    """The line of the profile that defines @p fn (get_streams, register), or its first."""
    code = getattr(fn, "__code__", None)
    if code is not None and os.path.realpath(code.co_filename) == os.path.realpath(path):
        return (path, code.co_firstlineno)
    return (path, 1)


def _call_get_streams(obj: Any, path: str, argv: List[str], kwargs: Dict[str, Any],
                      port_id: int) -> Any:
    fn = getattr(obj, "get_streams", None)
    if not callable(fn):
        if callable(getattr(obj, "get_tpg_conf", None)):
            raise ProfileError(_def_site(getattr(obj, "get_tpg_conf", None), path),
                               "a TRex tagged-packet-group tag configuration "
                               "(get_tpg_conf()), not a stream profile: nothing to send")
        raise ProfileError(_def_site(getattr(obj, "__class__", None), path),
                           "register() returned an object without get_streams()")
    here = _def_site(fn, path)
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        sig = None
    params = sig.parameters if sig is not None else {}
    var_kw = any(p.kind == p.VAR_KEYWORD for p in params.values())

    def accepts(name: str) -> bool:
        return var_kw or name in params

    call: Dict[str, Any] = {}
    for key, val in (("direction", port_id % 2), ("port_id", port_id)):
        if accepts(key):
            call[key] = val
    if "tunables" in params:
        call["tunables"] = argv
    else:
        if "__argv_only__" in kwargs:
            raise ProfileError(here, "this profile's get_streams() takes its tunables "
                               "as keyword arguments: give -t key=value[,key=value]")
        for key, val in kwargs.items():
            if not accepts(key):
                names = [n for n in params if n not in ("direction", "port_id")]
                raise ProfileError(here, f"the profile takes no tunable {key!r} "
                                   f"(get_streams takes {', '.join(names) or 'none'})")
            call[key] = val
        if var_kw and "tunables" not in call:
            call["tunables"] = argv  # TRex passes it to every profile
    err = io.StringIO()
    argv0 = sys.argv[0] if sys.argv else None
    try:
        # argparse in the profile names itself after argv[0]: the profile, as in TRex
        if sys.argv:
            sys.argv[0] = os.path.basename(path)
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            return fn(**call)
    except SystemExit:
        # argparse in the profile refused the tunables (or printed --help).
        lines = [ln for ln in err.getvalue().strip().splitlines() if ln.strip()]
        why = lines[-1] if lines else "the profile exited while reading its tunables"
        raise ProfileError(here, f"tunables {' '.join(argv)!r}: {why}") from None
    finally:
        if argv0 is not None:
            sys.argv[0] = argv0


def load(path: str, tunables: Sequence[str] = (), port_id: int = 0) -> List[api.STLStream]:
    """The streams a TRex profile gives for ``port_id`` with ``tunables``."""
    _install_api()
    del api.NOTES[:]
    try:
        with open(path, "rb") as f:
            source = f.read()
    except OSError as e:
        raise ProfileError(None, f"{path}: {e.strerror}") from None
    argv, kwargs = parse_tunables(tunables)
    base = os.path.dirname(os.path.abspath(path))
    mod = types.ModuleType("__wirerate_profile__")
    mod.__file__ = path
    sys.path.insert(0, base)
    dont_write = sys.dont_write_bytecode
    sys.dont_write_bytecode = True
    try:
        try:
            code = compile(source, path, "exec")
            exec(code, mod.__dict__)
            reg = mod.__dict__.get("register")
            if not callable(reg):
                lines = source.count(b"\n") + (0 if source.endswith(b"\n") else 1)
                raise ProfileError((path, max(lines, 1)), "no register() function: a TRex "
                                   "profile ends with def register(): return <object with "
                                   "get_streams()>")
            obj = reg()
            streams = _call_get_streams(obj, path, argv, kwargs, port_id)
            got_site = _def_site(getattr(obj, "get_streams", None), path)
        except ProfileError:
            raise
        except BaseException as e:  # the profile's own failure, whatever it is
            if isinstance(e, KeyboardInterrupt):
                raise
            raise ProfileError(_site_of(e, path), _message(e)) from None
    finally:
        sys.dont_write_bytecode = dont_write
        if sys.path and sys.path[0] == base:
            del sys.path[0]
    if isinstance(streams, api.STLProfile):
        streams = streams.get_streams()
    if isinstance(streams, api.STLStream):
        streams = [streams]
    if not isinstance(streams, (list, tuple)) or not all(isinstance(s, api.STLStream)
                                                         for s in streams):
        raise ProfileError(got_site, "get_streams() must return STLStream objects (a list, "
                           "an STLProfile or one stream)")
    if not streams:
        raise ProfileError(got_site, "get_streams() returned no stream")
    return list(streams)
