# SPDX-License-Identifier: BSD-3-Clause
"""The interactive console of ``wirerate serve`` (``python3 -m wirerate``, ``wirerate console``).

History (~/.wirerate_history) and tab completion through readline; rates in the
stream-file syntax ("1 Mpps", "10 Gbps L1", "50%", "max") or a multiplier ("x2").
"""

from __future__ import annotations

import argparse
import cmd
import json
import os
import shlex
import sys
import time
from typing import Any, Dict, List, Optional, Tuple

from .client import Client, RpcError, default_socket, summary
from .trex.errors import TRexError

try:
    import readline
except ImportError:  # pragma: no cover - readline is optional
    readline = None  # type: ignore

HISTORY = os.path.expanduser("~/.wirerate_history")
RATE_UNITS = ("pps", "kpps", "mpps", "gpps", "bps", "kbps", "mbps", "gbps", "tbps", "%",
              "l1", "l2")
START_KEYS = ("rate", "duration", "count", "at", "drain")
CAPTURE_KEYS = ("filter", "count", "size", "duration", "snaplen", "files")
HOSTS_KEYS = ("group", "state", "offset", "limit")


def redact(obj: Any) -> Any:
    """@p obj without its session secrets: what a reply shows on screen (a secret lets
    whoever reads it act as the session)."""
    if isinstance(obj, dict):
        return {k: redact(v) for k, v in obj.items() if k != "secret"}
    if isinstance(obj, list):
        return [redact(v) for v in obj]
    return obj


def show(obj: Any) -> None:
    """A reply as JSON (never a Python repr), its secrets left out."""
    print(json.dumps(redact(obj), indent=2))


def format_summary(s: Dict[str, Any]) -> str:
    """client.summary() in words: one line, then one per stream below its set rate."""
    parts = [f"tx {s['tx_pkts']} frames"]
    if s.get("kpps") is not None:
        parts.append(f"{s['kpps']:.3f} Kpps, {s.get('mbps_l1') or 0:.3f} Mbps L1")
    else:
        parts.append("rate not measured (too short a run)")
    if s.get("rx_pkts") is not None:
        parts.append(f"rx {s['rx_pkts']}")
    if s.get("lost") is not None:
        pct = f" ({s['loss_pct']:.4f} %)" if s.get("loss_pct") is not None else ""
        parts.append(f"lost {s['lost']}{pct}")
    if s.get("in_flight_or_lost") is not None:
        parts.append(f"{s['in_flight_or_lost']} in flight or lost (still running)")
    if s.get("lat_avg_ns") is not None:
        parts.append(f"latency min {s['lat_min_ns'] / 1e3:.2f} avg {s['lat_avg_ns'] / 1e3:.2f} "
                     f"p99 {s['lat_p99_ns'] / 1e3:.2f} max {s['lat_max_ns'] / 1e3:.2f} us")
    lines = ["summary: " + ", ".join(parts)]
    lines += ["below its rate: " + b["text"] for b in s.get("below_rate", [])]
    return "\n".join(lines)


def format_host(h: Dict[str, Any]) -> str:
    """One line for a host of hosts.list: index, group, state, MAC, VLANs, addresses, each
    gateway's neighbour entry (MAC learned or "-", state, age) and the modules' words."""
    v4 = h.get("ipv4") or {}
    addrs = [f"{v4['address']}/{v4['prefix']}"] if v4.get("address") else []
    addrs += [f"{a['address']}/{a['prefix']}" + ("" if a["state"] == "preferred" else f" ({a['state']})")
              for a in h.get("ipv6", []) if a.get("origin") != "link-local"]
    vl = ".".join(str(v["id"]) for v in h.get("vlans", [])) or "-"
    gws = [f"gw {n['ip']} {n['mac'] or '-'} {n['state']} {n['age_ms']} ms"
           for n in h.get("neighbours", [])]
    mods = [f"{m} {w}" for m, w in sorted(h.get("modules", {}).items())]
    return "  ".join([f"{h['index']:>6}", h.get("group") or "-", h["state"], h["mac"],
                      f"vlan {vl}", " ".join(addrs) or "no address", *gws, *mods])


def format_capture(c: Dict[str, Any]) -> str:
    """One line for a capture's status (capture.status)."""
    text = (f"capture {c['id']}: port {c['port']} {c['dir']} {c['state']}, "
            f"{c['written']} frames, {c['bytes']} bytes in {c['file']}")
    if c.get("filter"):
        text += f", filter \"{c['filter']}\""
    text += f"; {c['seen']} matched, {c['capture_dropped']} capture dropped"
    if c.get("error"):
        text += f"; error: {c['error']}"
    return text


def parse_words(words: List[str], keys: Tuple[str, ...]) -> Tuple[Dict[str, str], List[str]]:
    """``rate 1 Mpps duration 5 a b`` -> ({"rate": "1 Mpps", "duration": "5"}, ["a", "b"]).

    A rate may span words ("1 Mpps", "10 Gbps L1"): unit words are joined to it.
    """
    opts: Dict[str, str] = {}
    rest: List[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w in keys and i + 1 < len(words):
            val = words[i + 1]
            i += 2
            while w == "rate" and i < len(words) and words[i].lower() in RATE_UNITS:
                val += " " + words[i]
                i += 1
            opts[w] = val
            continue
        rest.append(w)
        i += 1
    return opts, rest


def split_keywords(text: str, keys: Tuple[str, ...]) -> Dict[str, str]:
    """``EXPR vary {...} rate 1 Mpps`` -> {"": EXPR, "vary": "{...}", "rate": "1 Mpps"}: the
    keywords are words outside quotes and brackets."""
    out: Dict[str, str] = {}
    depth, quote, key, start, i = 0, "", "", 0, 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and ch == " ":
            for k in keys:
                if text.startswith(k + " ", i + 1):
                    out[key] = text[start:i].strip()
                    key, start = k, i + 1 + len(k)
                    i = start - 1
                    break
        i += 1
    out[key] = text[start:].strip()
    return out


def rate_arg(text: str) -> Any:
    """A rate as the server takes it: the stream-file string, or pps for a bare number."""
    t = text.strip()
    try:
        return float(t)
    except ValueError:
        return t


def seconds(text: str) -> float:
    t = text.strip().lower()
    for unit, mult in (("ms", 1e-3), ("us", 1e-6), ("s", 1.0), ("m", 60.0), ("h", 3600.0)):
        if t.endswith(unit):
            return float(t[: -len(unit)]) * mult
    return float(t)


def format_stats(st: Dict[str, Any], prev: Optional[Dict[str, Any]] = None) -> str:
    """A table of ports and streams; with ``prev``, rates over the interval between them."""
    dt = (st.get("time", 0) - prev.get("time", 0)) if prev else 0.0
    lines = [f"state {st.get('state')}  elapsed {st.get('duration_s', 0):.3f} s"
             + ("  (cleared)" if st.get("cleared") else "")]
    lines.append(f"{'':<2}{'name':<20} {'tx_pkts':>14} {'Kpps':>11} {'Mbps L2':>11} "
                 f"{'Mbps L1':>11} {'rx_pkts':>14} {'lost':>10} {'lat avg us':>10}")

    def row(kind: str, r: Dict[str, Any], old: Optional[Dict[str, Any]]) -> str:
        # null: a run too short to measure a rate (doc/api.md)
        kpps, l2, l1 = r.get("kpps"), r.get("mbps_l2"), r.get("mbps_l1")
        if old is not None and dt > 0:
            dp = r.get("tx_pkts", 0) - old.get("tx_pkts", 0)
            db = r.get("tx_bytes", 0) - old.get("tx_bytes", 0)
            kpps = dp / dt / 1e3
            l2 = db * 8 / dt / 1e6
            l1 = (db + 20 * dp) * 8 / dt / 1e6
        lat = r.get("latency_ns") or {}
        def rate(v: Optional[float]) -> str:
            return "-" if v is None else f"{v:.3f}"

        return (f"{kind:<2}{r.get('name', '')[:20]:<20} {r.get('tx_pkts', 0):>14} {rate(kpps):>11} "
                f"{rate(l2):>11} {rate(l1):>11} {str(r.get('rx_pkts', '-')):>14} "
                f"{str(r.get('lost', '-')):>10} "
                f"{(lat.get('avg', 0) / 1e3 if lat.get('n') else 0):>10.2f}")

    for i, p in enumerate(st.get("ports", [])):
        old = prev["ports"][i] if prev and i < len(prev.get("ports", [])) else None
        lines.append(row("P", p, old))
    for i, s in enumerate(st.get("streams", [])):
        old = prev["streams"][i] if prev and i < len(prev.get("streams", [])) else None
        lines.append(row("S", s, old))
    lines += ["below its rate: " + b["text"] for b in summary(st)["below_rate"]]
    return "\n".join(lines)


class Console(cmd.Cmd):
    """Commands: info ports acquire release load add save remove streams start stop pause
    resume update stats watch clear wait events reset bench quit.  ``help CMD`` explains each."""

    intro = "wirerate console: help lists the commands, Tab completes, Ctrl-D leaves."
    prompt = "wirerate> "

    def __init__(self, client: Client):
        super().__init__()
        self.c = client

    # -- plumbing -----------------------------------------------------------------------------

    def onecmd(self, line: str) -> bool:
        try:
            return super().onecmd(line)
        except RpcError as e:
            print(f"error: {e.message}")
            if e.data:
                print("       " + json.dumps(redact(e.data)))
        except (ValueError, OSError, TRexError) as e:
            print(f"error: {e}")
        return False

    def emptyline(self) -> bool:
        return False

    def _stream_names(self) -> List[str]:
        try:
            return [s["name"] for s in self.c.streams()]
        except (RpcError, OSError):
            return []

    def _complete_streams(self, text: str, *_: Any) -> List[str]:
        return [n for n in self._stream_names() + list(START_KEYS) if n.startswith(text)]

    complete_start = complete_stop = complete_pause = complete_resume = _complete_streams
    complete_update = complete_remove = _complete_streams

    def complete_load(self, text: str, line: str, *_: Any) -> List[str]:
        d, base = os.path.split(text)
        try:
            names = os.listdir(d or ".")
        except OSError:
            return []
        out = []
        for n in names:
            if n.startswith(base):
                p = os.path.join(d, n)
                out.append(p + "/" if os.path.isdir(p) else p)
        return out

    # -- commands -------------------------------------------------------------------------------

    def do_info(self, _: str) -> None:
        """info: server version, state, ports, loaded streams."""
        show(self.c.info())

    def do_ports(self, _: str) -> None:
        """ports: each port's device, link and owner."""
        for p in self.c.ports():
            print(f"{p['index']}: {p['device']} ({p['driver']}) {p['mac']} "
                  f"link {'up' if p['link_up'] else 'down'} {p['link_speed_mbps']} Mbps "
                  f"owner {p['owner'] or '-'}")

    def do_acquire(self, arg: str) -> None:
        """acquire [force] [PORT...]: own the ports (all by default); force takes them over."""
        words = arg.split()
        force = "force" in words
        ports = [int(w) for w in words if w != "force"]
        show(self.c.acquire(ports or None, force=force))

    def do_release(self, arg: str) -> None:
        """release [PORT...]"""
        show(self.c.release([int(w) for w in arg.split()] or None))

    def do_load(self, arg: str) -> None:
        """load FILE: load a stream file (replaces the loaded streams).
        load PROFILE.py [-t TUNABLE]... [-m MULT]: a TRex profile, converted here
        (doc/trex.md), tunables and multiplier as TRex's console takes them."""
        words = shlex.split(arg)
        if not words:
            print("load FILE | load PROFILE.py [-t TUNABLE]... [-m MULT]")
            return
        tunables: List[str] = []
        mult = None
        i = 1
        while i < len(words):
            if words[i] in ("-t", "-m") and i + 1 < len(words):
                if words[i] == "-t":
                    tunables.append(words[i + 1])
                else:
                    mult = words[i + 1]
                i += 2
                continue
            print(f"load: unexpected {words[i]!r}")
            return
        for s in self.c.load_file(words[0], tunables, mult):
            print(f"{s['name']}: port {s['port']}")

    def do_add(self, arg: str) -> None:
        """add NAME PACKET [vary JSON] [rate RATE] [count N]: a stream of a Scapy packet
        (an expression over scapy.all), fields varied by a JSON mapping keyed by Scapy
        names (doc/trex.md); the loaded streams become those added so far.
        add v6 Ether()/IPv6(src="2001:db8::1")/UDP(dport=53) vary {"IPv6.src": {"inc":
            {"from": "2001:db8::1", "to": "2001:db8::ff"}}} rate 1 Mpps"""
        name, _, rest = arg.strip().partition(" ")
        parts = split_keywords(rest, ("vary", "rate", "count"))
        if not name or not parts.get(""):
            print("add NAME PACKET [vary JSON] [rate RATE] [count N]")
            return
        try:
            import scapy.all as scapy_all
        except ImportError:
            print("error: add needs Scapy (python3-scapy)")
            return
        ns = {k: v for k, v in vars(scapy_all).items() if not k.startswith("_")}
        try:
            from scapy.contrib import mpls
            ns.update({k: v for k, v in vars(mpls).items() if not k.startswith("_")})
        except ImportError:
            pass
        try:
            pkt = eval(parts[""], ns)  # the user's own expression, in their own console
        except Exception as e:
            print(f"error: PACKET: {type(e).__name__}: {e}")
            return
        vary = json.loads(parts["vary"]) if "vary" in parts else None
        rate = parts.get("rate")
        count = int(parts["count"]) if "count" in parts else None
        for s in self.c.add_stream(pkt, vary=vary, rate=rate, name=name, count=count):
            print(f"{s['name']}: port {s['port']}")

    def do_save(self, arg: str) -> None:
        """save FILE: write the stream file of the streams add added."""
        if not arg.strip():
            print("save FILE")
            return
        self.c.save(arg.strip())

    def do_remove(self, arg: str) -> None:
        """remove [STREAM...]: remove streams (all by default)."""
        self.c.remove(arg.split() or None)

    def do_streams(self, _: str) -> None:
        """streams: loaded streams, their state and rate."""
        for s in self.c.streams():
            # null: max, or a rate only a start resolves (a ramp): the file's words then
            rate = (s.get("rate") or "max") if s["rate_pps"] is None else \
                f"{s['rate_pps'] / 1e3:.3f} kpps"
            print(f"{s['name']:<24} port {s['port']} {s['state']:<8} {rate}")

    def do_start(self, arg: str) -> None:
        """start [rate RATE] [duration S] [count N] [at UNIXTIME] [drain S] [STREAM...]
        RATE as in stream files: 1 Mpps, 10 Gbps L1, 50%, max."""
        opts, names = parse_words(shlex.split(arg), START_KEYS)
        r = self.c.start(names or None,
                         rate=rate_arg(opts["rate"]) if "rate" in opts else None,
                         count=int(opts["count"]) if "count" in opts else None,
                         duration=seconds(opts["duration"]) if "duration" in opts else None,
                         start_at=float(opts["at"]) if "at" in opts else None,
                         drain=seconds(opts["drain"]) if "drain" in opts else None)
        print(r["state"])

    def do_stop(self, arg: str) -> None:
        """stop [STREAM...]"""
        print(self.c.stop(arg.split() or None)["state"])

    def do_pause(self, arg: str) -> None:
        """pause [STREAM...]"""
        self.c.pause(arg.split() or None)

    def do_resume(self, arg: str) -> None:
        """resume [STREAM...]"""
        self.c.resume(arg.split() or None)

    def do_update(self, arg: str) -> None:
        """update RATE|xMULT [streams A B]: e.g. update 2 Mpps, update x1.5, update 50% streams a"""
        words = shlex.split(arg)
        names: List[str] = []
        if "streams" in words:
            i = words.index("streams")
            names, words = words[i + 1:], words[:i]
        text = " ".join(words)
        if text.startswith("x") or text.startswith("*"):
            self.c.update(multiplier=float(text[1:]), streams=names or None)
        else:
            self.c.update(rate=rate_arg(text), streams=names or None)
        self.do_streams("")

    def do_stats(self, arg: str) -> None:
        """stats [json]: the counters (json: the whole results document)."""
        st = self.c.stats(histogram="json" in arg)
        if "json" in arg:
            show(st)
        else:
            print(format_stats(st))

    def do_watch(self, arg: str) -> None:
        """watch [INTERVAL]: refresh the statistics every INTERVAL s (1) until Ctrl-C or the end."""
        interval = seconds(arg) if arg.strip() else 1.0
        prev = self.c.stats()
        tty = sys.stdout.isatty()
        try:
            while True:
                time.sleep(interval)
                st = self.c.stats()
                text = format_stats(st, prev)
                if tty:
                    sys.stdout.write("\x1b[H\x1b[2J")
                print(text, flush=True)
                prev = st
                if st.get("state") != "running":
                    break
        except KeyboardInterrupt:
            print()

    def do_clear(self, _: str) -> None:
        """clear: statistics count from now (baselines)."""
        self.c.clear()

    def do_wait(self, arg: str) -> None:
        """wait [TIMEOUT]: until traffic ends; then the one-line summary."""
        r = self.c.wait(seconds(arg) if arg.strip() else None)
        print(f"traffic {r.get('state')}" +
              (f", stopped by {r['stop_reason']}" if r.get("stop_reason") else "") +
              (" (the wait timed out)" if r.get("timeout") else ""))
        print(format_summary(summary(self.c.stats())))

    def do_events(self, _: str) -> None:
        """events: what happened since the last call (stream ended, link down, ...)."""
        for e in self.c.events():
            print(json.dumps(e))

    def do_bench(self, arg: str) -> None:
        """bench sweep|rfc2544|rtt [--OPTION VALUE]...: run a benchmark on the server, its
        progress shown until it ends, then its table (the command line's options: bench
        rfc2544 --tx-port 0 --rx-port 1 --sizes 64,1518 --trial 10 --search mlr)
        bench list | bench status [JOB] | bench wait [JOB] | bench cancel [JOB]
        bench result [JOB] [json|csv|table|log|html] [> FILE]"""
        words = shlex.split(arg)
        if not words:
            raise ValueError("bench: expected sweep, rfc2544, rtt, list, status, wait, "
                             "cancel or result (help bench)")
        verb, rest = words[0], words[1:]
        if verb == "list":
            for j in self.c.bench_list():
                print(f"{j['job']:>4} {j['kind']:<8} {j['state']:<10} {j['session']:<20} "
                      f"{j['stream_file']}")
            return
        if verb in ("status", "cancel"):
            job = int(rest[0]) if rest else None
            st = self.c.bench_status(job) if verb == "status" else self.c.bench_cancel(job)
            show(st)
            return
        if verb == "result":
            job = int(rest[0]) if rest and rest[0].isdigit() else None
            rest = rest[1:] if job is not None else rest
            fmt = rest[0] if rest and rest[0] != ">" else "table"
            out = rest[rest.index(">") + 1] if ">" in rest else None
            text = self.c.bench_result(job, fmt)
            text = json.dumps(text, indent=2) if fmt == "json" else text
            if out:
                with open(out, "w") as f:
                    f.write(text)
                print(f"written: {out}")
            else:
                print(text, end="" if text.endswith("\n") else "\n")
            return
        if verb == "wait":
            self._bench_wait(int(rest[0]) if rest else None)
            return
        if verb not in ("sweep", "rfc2544", "rtt"):
            raise ValueError(f"bench: unknown {verb!r} (help bench)")
        opts: Dict[str, Any] = {}
        i = 0
        while i < len(rest):
            if not rest[i].startswith("--") or i + 1 >= len(rest):
                raise ValueError(f"bench: expected --OPTION VALUE, got {rest[i]!r}")
            opts[rest[i][2:]] = rest[i + 1]
            i += 2
        st = self.c.bench_start(verb, opts)
        print(f"job {st['job']}: {st['state']}")
        self._bench_wait(st["job"])

    def _bench_wait(self, job: Optional[int]) -> None:
        tty = sys.stdout.isatty()

        def show(st: Dict[str, Any]) -> None:
            p = st["progress"]
            eta = f", ETA {p['eta_s']:.0f} s" if p["eta_s"] >= 0 else ""
            text = (f"{p['test']} {p['size']} B: trial {p['done']} of ~{p['estimate']}, "
                    f"{p['rate_pps']:.0f} pps{eta}")
            if tty:
                sys.stdout.write("\r\x1b[K" + text)
                sys.stdout.flush()
            else:
                print(st["line"])

        try:
            st = self.c.bench_wait(job, progress=show)
        except KeyboardInterrupt:
            print("\ncancelling (Ctrl-C again cuts the drain)")
            self.c.bench_cancel(job)
            st = self.c.bench_wait(job)
        if tty:
            print()
        print(f"job {st['job']}: {st['state']}" + (f": {st['error']}" if st["error"] else ""))
        if st["state"] in ("done", "cancelled") and st.get("stop_reason"):
            print(self.c.bench_result(st["job"], "table"), end="")

    def do_capture(self, arg: str) -> None:
        """capture start PORT [rx|tx|both] [filter "EXPR"] [count N] [size BYTES]
                 [duration S] [snaplen N] [files N]
        capture stop ID | capture status [ID] | capture fetch ID FILE [part K]
        A capture runs with the traffic (armed until traffic starts); fetch copies its
        pcapng file here once it is done."""
        words = shlex.split(arg)
        if not words:
            print(self.do_capture.__doc__)
            return
        cmd, rest = words[0], words[1:]
        if cmd == "start" and rest:
            port, rest = int(rest[0]), rest[1:]
            direction = rest.pop(0) if rest and rest[0] in ("rx", "tx", "both") else "rx"
            opts, extra = parse_words(rest, CAPTURE_KEYS)
            if extra:
                raise ValueError(f"capture start: unexpected {' '.join(extra)}")
            r = self.c.capture_start(
                port, direction, filter=opts.get("filter"),
                count=int(opts["count"]) if "count" in opts else None,
                size=int(opts["size"]) if "size" in opts else None,
                duration=seconds(opts["duration"]) if "duration" in opts else None,
                snaplen=int(opts["snaplen"]) if "snaplen" in opts else None,
                files=int(opts["files"]) if "files" in opts else None)
            print(f"capture {r['id']}: {r['state']}, {r['file']}")
        elif cmd == "stop" and len(rest) == 1:
            print(format_capture(self.c.capture_stop(int(rest[0]))))
        elif cmd == "status":
            if rest:
                print(format_capture(self.c.capture_status(int(rest[0]))))
            else:
                for c in self.c.capture_status()["captures"]:
                    print(format_capture(c))
        elif cmd == "fetch" and len(rest) in (2, 4):
            part = int(rest[3]) if len(rest) == 4 and rest[2] == "part" else None
            n = self.c.capture_fetch(int(rest[0]), rest[1], part=part)
            print(f"{rest[1]}: {n} bytes")
        else:
            print(self.do_capture.__doc__)

    def do_hosts(self, arg: str) -> None:
        """hosts [PORT] [group NAME] [state idle|pending|up|failed] [offset N] [limit N]
        hosts counters [PORT...]
        A page of a port's emulated hosts (hosts.list; the next page's offset follows), or
        each port's hosts by state and their counters (hosts.counters)."""
        words = shlex.split(arg)
        if words and words[0] == "counters":
            ports = [int(w) for w in words[1:]] or None
            for p in self.c.host_counters(ports):
                print(f"port {p['port']}: {p['hosts']} hosts: {p['up']} up, {p['pending']} "
                      f"pending, {p['failed']} failed, {p['idle']} idle")
                for k, v in p.get("counters", {}).items():
                    print(f"  {k} {v}")
            return
        port = int(words.pop(0)) if words and words[0].isdigit() else 0
        opts, extra = parse_words(words, HOSTS_KEYS)
        if extra:
            raise ValueError(f"hosts: unexpected {' '.join(extra)}")
        r = self.c.hosts(port, group=opts.get("group"), state=opts.get("state"),
                         offset=int(opts["offset"]) if "offset" in opts else None,
                         limit=int(opts["limit"]) if "limit" in opts else None)
        for h in r["hosts"]:
            print(format_host(h))
        nxt = r["next_offset"]
        print(f"{len(r['hosts'])} of {r['matched']} matching ({r['total']} on port {port})"
              + (f"; next: offset {nxt}" if nxt is not None else ""))

    def do_tcp(self, arg: str) -> None:
        """tcp [CLASS...]                 each class's sides: counters that moved
        tcp list                        the classes as the stream file declares them
        tcp set CLASS [rate N] [concurrency N] [pause|resume]
        The stream file's tcp: classes (tcp.stats, tcp.list, tcp.set)."""
        words = shlex.split(arg)
        if words and words[0] == "list":
            for c in self.c.tcp_classes():
                print(json.dumps(c))
            return
        if words and words[0] == "set":
            if len(words) < 3:
                raise ValueError("tcp set CLASS [rate N] [concurrency N] [pause|resume]")
            kw: Dict[str, Any] = {}
            rest = words[2:]
            while rest:
                w = rest.pop(0)
                if w in ("pause", "resume"):
                    kw[w] = True
                elif w in ("rate", "concurrency") and rest:
                    kw[w] = float(rest.pop(0)) if w == "rate" else int(rest.pop(0))
                else:
                    raise ValueError(f"tcp set: unexpected {w}")
            show(self.c.tcp_set(words[1], **kw))
            return
        r = self.c.tcp_stats(words or None)
        for c in r["classes"]:
            for side in ("client", "server"):
                x = c.get(side)
                if not x:
                    continue
                moved = " ".join(f"{k}={v}" for k, v in x.items()
                                 if isinstance(v, int) and v)
                print(f"{c['name']} {side}: {moved or 'nothing yet'}")

    def do_reset(self, _: str) -> None:
        """reset: take the ports, stop, remove every stream, clear."""
        show(self.c.reset())

    def do_quit(self, _: str) -> bool:
        """quit (or Ctrl-D)"""
        return True

    do_EOF = do_quit


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="wirerate console", description=__doc__)
    ap.add_argument("--socket", help="Unix socket of the server (default %(default)s)",
                    default=default_socket())
    ap.add_argument("--host", help="TCP server address (with --port and --token-file)")
    ap.add_argument("--port", type=int, default=4500)
    ap.add_argument("--token-file")
    ap.add_argument("--session", help="ownership session to use (keeps ports over "
                    "reconnects); an existing one takes its secret in $WIRERATE_SECRET")
    ap.add_argument("-c", "--command", action="append",
                    help="run this command and leave (repeatable)")
    a = ap.parse_args(argv)
    try:
        client = Client(a.socket, host=a.host, port=a.port, token_file=a.token_file,
                        session=a.session,
                        secret=os.environ.get("WIRERATE_SECRET") if a.session else None).connect()
    except (OSError, RpcError) as e:
        print(f"wirerate console: cannot connect to {a.host or a.socket}: {e}", file=sys.stderr)
        return 1
    con = Console(client)
    if a.command:
        for line in a.command:
            con.onecmd(line)
        return 0
    if readline is not None:
        try:
            readline.read_history_file(HISTORY)
        except OSError:
            pass
        readline.set_history_length(1000)
        readline.parse_and_bind("tab: complete")
    try:
        con.cmdloop()
    except KeyboardInterrupt:
        print()
    finally:
        if readline is not None:
            try:
                readline.write_history_file(HISTORY)
            except OSError:
                pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
