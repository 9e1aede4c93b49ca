# SPDX-License-Identifier: BSD-3-Clause
"""The client of ``wirerate serve``: JSON-RPC 2.0, one request per line, over a Unix or TCP socket."""

from __future__ import annotations

import collections
import base64
import json
import os
import socket
import time
import uuid
from typing import Any, Callable, Deque, Dict, Iterable, List, Optional, Sequence, Tuple, Union



def runtime_dir() -> str:
    """The user's runtime directory, where ``wirerate serve`` listens by default: the
    rule of lib/core/control/wr_runtime.h, restated here because the client needs no binary:
    ``$WIRERATE_RUNTIME_DIR`` when set, ``/run/wirerate`` for root,
    ``$XDG_RUNTIME_DIR/wirerate`` for other users when set, else ``/tmp/wirerate-UID``."""
    if os.environ.get("WIRERATE_RUNTIME_DIR"):
        return os.environ["WIRERATE_RUNTIME_DIR"]
    uid = os.geteuid()
    if uid == 0:
        return "/run/wirerate"
    if os.environ.get("XDG_RUNTIME_DIR"):
        return os.path.join(os.environ["XDG_RUNTIME_DIR"], "wirerate")
    return f"/tmp/wirerate-{uid}"


def default_socket() -> str:
    """``$WIRERATE_SOCKET``, else the server's default socket in :func:`runtime_dir`."""
    return os.environ.get("WIRERATE_SOCKET") or os.path.join(runtime_dir(), "wirerate.sock")


# The default when this module was imported (default_socket() reads the environment now).
DEFAULT_SOCKET = default_socket()

Rate = Union[str, int, float]
Result = Dict[str, Any]


class RpcError(Exception):
    """A JSON-RPC error from the server: ``code``, ``message`` and ``data`` (e.g. file/line/col)."""

    def __init__(self, code: int, message: str, data: Optional[Dict[str, Any]] = None):
        super().__init__(f"{message} (code {code})")
        self.code = code
        self.message = message
        self.data = data or {}


class Client:
    """One connection to a server.

    ``path`` is the Unix socket (default :func:`default_socket`); with
    ``host``/``port`` the client uses TCP and logs in with ``token`` (or the first line of
    ``token_file``).  ``session`` names the ownership session.  The server gives the
    session's ``secret`` to the client that makes it (on ``acquire()``); only with it does
    another connection act as that session.  This client keeps it: when it reconnects
    (``connect()``, or any call after ``close()``), it joins its session again and keeps
    its ports (within the server's owner timeout).  Another process takes the session
    over with ``Client(session=..., secret=...)``.
    """

    def __init__(self, path: Optional[str] = None, host: Optional[str] = None,
                 port: Optional[int] = None, token: Optional[str] = None,
                 token_file: Optional[str] = None, session: Optional[str] = None,
                 timeout: float = 30.0, secret: Optional[str] = None):
        self.path = path or default_socket()
        self.host = host
        self.port = port
        self.token = token
        if token is None and token_file is not None:
            with open(token_file) as f:
                self.token = f.readline().strip()
        self.session = session or "py-" + uuid.uuid4().hex[:12]
        self.secret = secret
        self.timeout = timeout
        self._sock: Optional[socket.socket] = None
        self._buf = b""
        self._id = 0
        self._events: Deque[Dict[str, Any]] = collections.deque()
        self.last_event = 0
        self._added: List[Tuple[str, List[Tuple[str, Any, str]]]] = []

    # -- connection ---------------------------------------------------------------------

    def connect(self) -> "Client":
        """Open the socket (and log in over TCP)."""
        if self.host is not None:
            s = socket.create_connection((self.host, self.port or 4500), self.timeout)
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        else:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(self.timeout)
            try:
                s.connect(self.path)
            except OSError:
                s.close()
                raise
        self._sock = s
        if self.host is not None:
            self.call("auth.login", token=self.token or "")
        if self.secret is not None:
            # Back into the session this client made or was given (no port changes).
            self.acquire(ports=[])
        return self

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _readline(self, timeout: Optional[float]) -> bytes:
        assert self._sock is not None
        self._sock.settimeout(timeout)
        while b"\n" not in self._buf:
            chunk = self._sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError("the server closed the connection")
            self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        return line

    def call(self, method: str, _timeout: Optional[float] = -1.0, **params: Any) -> Any:
        """Call ``method`` with named ``params`` (None values left out); return its result.

        Raises RpcError for an error reply.  ``_timeout`` (seconds to wait for the reply)
        None waits for ever; the default is the client's.
        """
        if self._sock is None:
            self.connect()
        assert self._sock is not None
        self._id += 1
        req = {"jsonrpc": "2.0", "id": self._id, "method": method,
               "params": {k: v for k, v in params.items() if v is not None}}
        self._sock.sendall(json.dumps(req).encode() + b"\n")
        wait = self.timeout if _timeout is not None and _timeout < 0 else _timeout
        while True:
            msg = json.loads(self._readline(wait))
            if "id" not in msg:  # a notification (events.subscribe)
                self._events.append(msg.get("params", {}))
                continue
            if msg.get("id") != self._id:
                continue
            if "error" in msg:
                e = msg["error"]
                raise RpcError(e.get("code", 0), e.get("message", ""), e.get("data"))
            return msg.get("result")

    # -- server and ports ------------------------------------------------------------------

    def info(self) -> Result:
        """server.info: version, state, ports, loaded stream names."""
        return self.call("server.info")

    def ports(self) -> List[Result]:
        """ports.info: one dict per port (device, driver, link, owner)."""
        return self.call("ports.info")

    def acquire(self, ports: Optional[Sequence[int]] = None, force: bool = False) -> Result:
        """Own ``ports`` (default all; ``[]`` none: only act as the session) under this
        client's session; ``force`` takes them over from another session.  The result's
        ``secret`` is kept (``self.secret``) for reconnecting."""
        r = self.call("ports.acquire", ports=list(ports) if ports is not None else None,
                      force=force or None, session=self.session, secret=self.secret)
        self.secret = r.get("secret", self.secret)
        return r

    def release(self, ports: Optional[Sequence[int]] = None) -> Result:
        return self.call("ports.release", ports=list(ports) if ports is not None else None)

    def reset(self) -> Result:
        """As TRex's reset: take the ports (forced), stop traffic, remove streams, clear."""
        self.acquire(force=True)
        return self.call("server.reset")

    # -- streams -----------------------------------------------------------------------------

    def load(self, yaml_text: str, name: Optional[str] = None) -> List[Result]:
        """Load streams from stream-file text (replaces the loaded set, and the streams
        add_stream() gathered).

        A bad file raises RpcError with ``data`` = {file, line, col, path, message}.
        """
        self._added = []
        return self.call("streams.load", yaml=yaml_text, name=name)["streams"]

    def check(self, yaml_text: str, name: Optional[str] = None) -> Result:
        """streams.check: what streams.load would say of the text, without loading it:
        {"valid": true, "streams": [{name, port, count, rate, latency, summary}], ...} or
        {"valid": false, "error": {file, line, col, path, message}}.  Needs no ports."""
        return self.call("streams.check", yaml=yaml_text, name=name)

    def load_file(self, path: str, tunables: Sequence[str] = (),
                  mult: Optional[str] = None) -> List[Result]:
        """Load a stream file, or a TRex profile (``*.py``, see load_profile())."""
        if path.endswith(".py"):
            return self.load_profile(path, tunables, mult)
        with open(path) as f:
            return self.load(f.read(), name=path)

    def load_profile(self, path: str, tunables: Sequence[str] = (),
                     mult: Optional[str] = None, port: int = 0,
                     fix_checksums: bool = False) -> List[Result]:
        """Load a TRex stateless profile, converted here as TRex's own client loads it
        (doc/trex.md): ``tunables`` as TRex's console -t takes them (``"size=128"`` or
        ``"--size 128"``), ``mult`` as its -m.  The server never runs profile code; it
        gets the stream file, and fills the MACs the profile leaves to the port from its
        own profile (src_mac, dst_mac).  Needs Scapy for profiles that use it.
        """
        from .trex import Options, convert, load as load_profile

        streams = load_profile(path, list(tunables), port)
        res = convert(streams, path, Options(port=port, fix_checksums=fix_checksums,
                                             mult=mult), list(tunables))
        return self.load(res.yaml, name=path)

    def add_stream(self, packet: Any, vary: Optional[Dict[str, Any]] = None,
                   rate: Optional[Rate] = None, name: Optional[str] = None,
                   count: Optional[int] = None, port: Optional[int] = None) -> List[Result]:
        """Add a stream of Scapy packet ``packet``, its fields varied by ``vary`` (keys in
        Scapy's names, "IP.src", "IPv6.src", "MPLS:1.label"; values as stream files vary
        fields: ``{"inc": {"from": ..., "to": ...}}``, ``{"random": {...}}``,
        ``{"list": [...]}``), and load every stream added so far (the loaded set becomes
        them).  ``stream_file()`` is their stream file; ``save(path)`` writes it.  Needs
        Scapy; nothing else in the client does.
        """
        from .pktstream import stream_items

        name = name or f"s{len(self._added)}"
        items = [("name", name, "")]
        if port:
            items.append(("port", port, ""))
        items += stream_items(packet, vary)
        if rate is not None:
            items.append(("rate", rate if isinstance(rate, str) else f"{rate} pps", ""))
        if count is not None:
            items.append(("count", count, ""))
        added = self._added + [(name, items)]
        text = _stream_file(added)
        r = self.call("streams.load", yaml=text, name="<add_stream>")["streams"]
        self._added = added
        return r

    def stream_file(self) -> str:
        """The stream file of the streams add_stream() added."""
        return _stream_file(self._added)

    def save(self, path: str) -> None:
        """Write stream_file() to ``path``."""
        with open(path, "w") as f:
            f.write(self.stream_file())

    def remove(self, streams: Optional[Iterable[str]] = None) -> List[Result]:
        return self.call("streams.remove", streams=_names(streams))["streams"]

    def streams(self) -> List[Result]:
        return self.call("streams.list")["streams"]

    # -- traffic ------------------------------------------------------------------------------

    def start(self, streams: Optional[Iterable[str]] = None, rate: Optional[Rate] = None,
              count: Optional[int] = None, duration: Optional[float] = None,
              start_at: Optional[float] = None, drain: Optional[float] = None) -> Result:
        """Start all (or the named) streams.

        ``rate`` as in stream files ("1 Mpps", "10 Gbps L1", "50%", "max") or pps as a
        number; ``count`` frames per stream; ``duration`` seconds; ``start_at`` a Unix time
        (time.time() scale) at which the first frame goes out; ``drain`` seconds echoes
        are waited for after the last frame (default 0.2).
        """
        return self.call("traffic.start", streams=_names(streams), rate=rate, count=count,
                         duration=duration, start_at=start_at, drain=drain)

    def stop(self, streams: Optional[Iterable[str]] = None) -> Result:
        return self.call("traffic.stop", streams=_names(streams))

    def pause(self, streams: Optional[Iterable[str]] = None) -> Result:
        return self.call("traffic.pause", streams=_names(streams))

    def resume(self, streams: Optional[Iterable[str]] = None) -> Result:
        return self.call("traffic.resume", streams=_names(streams))

    def update(self, rate: Optional[Rate] = None, multiplier: Optional[float] = None,
               streams: Optional[Iterable[str]] = None) -> Result:
        """Change the rate of running streams: an absolute ``rate`` or a ``multiplier``."""
        return self.call("traffic.update", rate=rate, multiplier=multiplier,
                         streams=_names(streams))

    def wait(self, timeout: Optional[float] = None) -> Result:
        """Block until traffic ends (count, duration, stop): {"state", "stop_reason", "timeout"}."""
        return self.call("traffic.wait", _timeout=None if timeout is None else timeout + 5.0,
                         timeout=timeout)

    # -- captures ---------------------------------------------------------------------------

    def capture_start(self, port: int, dir: str = "rx", filter: Optional[str] = None,
                      count: Optional[int] = None, size: Optional[int] = None,
                      duration: Optional[float] = None, snaplen: Optional[int] = None,
                      files: Optional[int] = None) -> Result:
        """Capture what ``port`` receives ("rx"), sends ("tx") or both, in pcapng.

        ``filter`` is tcpdump's language; ``count`` frames, ``size`` bytes or ``duration``
        seconds end it (with ``files`` > 1: each file of a ring of that many).  Armed until
        the next traffic.start when no traffic runs; it ends with its run or capture_stop().
        Returns the capture's status, its "id" among it."""
        return self.call("capture.start", port=port, dir=dir, filter=filter, count=count,
                         size=size, duration=duration, snaplen=snaplen, files=files)

    def capture_stop(self, capture_id: int) -> Result:
        return self.call("capture.stop", id=capture_id)

    def capture_status(self, capture_id: Optional[int] = None) -> Any:
        """One capture's status, or {"captures": [...]} for all."""
        return self.call("capture.status", id=capture_id)

    def capture_fetch(self, capture_id: int, path: str, part: Optional[int] = None,
                      chunk: int = 1 << 20) -> int:
        """Copy a finished capture's file (``part`` k of a ring) to local ``path``, written to
        a temporary name and renamed when whole; returns its size in bytes."""
        tmp = path + ".part"
        offset = 0
        try:
            with open(tmp, "wb") as f:
                while True:
                    r = self.call("capture.fetch", id=capture_id, part=part, offset=offset,
                                  length=chunk)
                    data = base64.b64decode(r["data"])
                    f.write(data)
                    offset += len(data)
                    if r["eof"] or not data:
                        break
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        return offset

    # -- statistics and events --------------------------------------------------------------

    def stats(self, histogram: bool = False, counters: bool = False) -> Result:
        """The results document of ``wirerate run --json``, live, plus state and time;
        ``counters``: with the server's counter table (``counters``: key, group, scope,
        type, metric, help of each)."""
        return self.call("stats.get", histogram=histogram or None, counters=counters or None)

    def clear(self) -> Result:
        return self.call("stats.clear")

    # -- emulated hosts (doc/hosts.md) -------------------------------------------------------

    def hosts(self, port: int = 0, group: Optional[str] = None, state: Optional[str] = None,
              offset: Optional[int] = None, limit: Optional[int] = None) -> Result:
        """hosts.list: one page of ``port``'s emulated hosts, in table order.

        ``group`` keeps one host group's, ``state`` ("idle", "pending", "up", "failed")
        those in that state; ``offset`` counts the hosts matching, ``limit`` is 1 to 1000
        (default 100).  Returns {"port", "total", "matched", "offset", "hosts",
        "next_offset"} (``next_offset`` None on the last page); each host is {"index",
        "group", "state", "mac", "vlans", "ipv4", "ipv6", "gateway6", "neighbours",
        "modules"}, a neighbour {"ip", "state", "mac", "age_ms", "probes"}.  A port that
        does not exist, an unknown group or an offset past ``matched`` raise RpcError whose
        ``data["param"]`` names the parameter."""
        return self.call("hosts.list", port=port, group=group, state=state, offset=offset,
                         limit=limit)

    def hosts_all(self, port: int = 0, group: Optional[str] = None,
                  state: Optional[str] = None, page: int = 1000) -> List[Result]:
        """Every host of ``port`` matching ``group``/``state``, page by page (hosts())."""
        out: List[Result] = []
        offset: Optional[int] = 0
        while offset is not None:
            r = self.hosts(port, group=group, state=state, offset=offset, limit=page)
            out.extend(r["hosts"])
            offset = r["next_offset"]
        return out

    def host_counters(self, ports: Optional[Sequence[int]] = None) -> List[Result]:
        """hosts.counters: per port with hosts (``ports`` to choose), {"port", "hosts",
        "idle", "pending", "up", "failed", "counters": {name: value}}: the host engine's
        counters and each protocol module's (prefixed with its name: "dhcp4_...");
        stats.get carries the same list as "hosts"."""
        return self.call("hosts.counters",
                         ports=list(ports) if ports is not None else None)["ports"]

    # -- stateful classes (the stream file's tcp:, doc/tcp.md) ------------------------------

    def tcp_classes(self) -> List[Result]:
        """tcp.list: the loaded file's classes as declared, each {"name", "client" ({"hosts",
        "port", "sport"} or None), "server" ({"hosts", "port", "dport"}, a real server's
        {"addr", "dport"}, or None), "ip", "rate", "ramp", "concurrency", "count", "duration",
        "kind"}, and while a run has them "rate_now", "concurrency_now", "stopped"."""
        return self.call("tcp.list")["classes"]

    def tcp_stats(self, classes: Optional[Sequence[str]] = None,
                  histogram: bool = False) -> Result:
        """tcp.stats: {"state", "classes", "ports"}: each class {"name", "stopped", "rate",
        "concurrency", "client", "server"}, a side every counter by name (doc/tcp.md) and,
        with ``histogram``, "histograms_ns" {"handshake", "ttfb", "complete"} (summaries as
        "latency_ns"); each port with a TCP engine its engine's counters.  stats.get carries
        the same object as "tcp"."""
        return self.call("tcp.stats", classes=list(classes) if classes is not None else None,
                         histogram=histogram or None)

    def tcp_set(self, cls: str, rate: Optional[float] = None,
                concurrency: Optional[int] = None, pause: bool = False,
                resume: bool = False) -> Result:
        """tcp.set: class ``cls``'s connection rate (a second; 0: as fast as the
        concurrency allows), its cap on open connections, or pause/resume its opening, while
        it runs (taken at each lcore's next poll).  RpcError: -32003 no such class, -32602
        a value out of range (data["param"]), -32002 nothing running."""
        return self.call("tcp.set", **{"class": cls}, rate=rate, concurrency=concurrency,
                         pause=pause or None, resume=resume or None)

    def tcp_pause(self, cls: str) -> Result:
        return self.tcp_set(cls, pause=True)

    def tcp_resume(self, cls: str) -> Result:
        return self.tcp_set(cls, resume=True)

    def events(self, since: Optional[int] = None) -> List[Result]:
        """Events after ``since`` (default: after the last one this client saw)."""
        r = self.call("events.poll", since=self.last_event if since is None else since)
        self.last_event = r["last"]
        return r["events"]

    def subscribe(self) -> Result:
        return self.call("events.subscribe")

    def next_event(self, timeout: Optional[float] = None) -> Optional[Result]:
        """The next pushed event (after subscribe()), or None after ``timeout`` seconds."""
        if self._events:
            return self._events.popleft()
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if end is None else max(0.0, end - time.monotonic())
            if left == 0.0:
                return None
            try:
                msg = json.loads(self._readline(left))
            except socket.timeout:
                return None
            if "id" not in msg:
                return msg.get("params", {})

    # -- benchmarks -------------------------------------------------------------------------

    def bench_start(self, kind: str, options: Optional[Dict[str, Any]] = None,
                    yaml: Optional[str] = None, name: Optional[str] = None) -> Result:
        """bench.start: run ``kind`` ("sweep", "rfc2544" or "rtt") on this server as a job,
        with the command line's options by their names (``{"tx-port": 0, "rx-port": 1,
        "trial": "1s", "sizes": [64, 128], "max-rate": "1 Mpps", "search": "mlr"}``); the
        loaded streams, or ``yaml``'s.  The ports it uses must be this client's.
        Returns the job's status; its ``"job"`` is the id the other bench_* calls take."""
        return self.call("bench.start", kind=kind, options=options, yaml=yaml, name=name)

    def bench_status(self, job: Optional[int] = None) -> Result:
        """bench.status: state, progress (test, size, done of ~estimate, rate, ETA), the
        last trial's line; the last job's when ``job`` is None."""
        return self.call("bench.status", job=job)

    def bench_list(self) -> List[Result]:
        """bench.list: every job the server keeps, oldest first."""
        return self.call("bench.list")["jobs"]

    def bench_cancel(self, job: Optional[int] = None) -> Result:
        """bench.cancel: as Ctrl-C stops the command (a second cancel cuts the drain)."""
        return self.call("bench.cancel", job=job)

    def bench_result(self, job: Optional[int] = None, format: str = "json") -> Any:
        """bench.result: a finished job's "json" (parsed: the CLI's --json document),
        "csv" (the CLI's --csv bytes), "table" (what the CLI prints), "log" or "html"."""
        text = self.call("bench.result", job=job, format=format)["text"]
        return json.loads(text) if format == "json" else text

    def bench_wait(self, job: Optional[int] = None, timeout: Optional[float] = None,
                   progress: Optional[Callable[[Result], None]] = None,
                   poll: float = 0.5) -> Result:
        """Wait until the job has ended (done, failed, cancelled); call ``progress`` with
        its status at each trial (status["progress"]: test, size, done, estimate, rate_pps,
        eta_s; status["line"]: the trial's log line).  Returns the final status;
        TimeoutError after ``timeout`` seconds."""
        end = None if timeout is None else time.monotonic() + timeout
        seen = None
        while True:
            st = self.bench_status(job)
            job = st["job"]
            mark = (st["progress"]["done"], st["line"])
            if progress is not None and st["line"] and mark != seen:
                progress(st)
            seen = mark
            if st["state"] in ("done", "failed", "cancelled"):
                return st
            if end is not None and time.monotonic() >= end:
                raise TimeoutError(f"benchmark job {job} still {st['state']}")
            time.sleep(poll)

    def runs_list(self, kind: Optional[str] = None, limit: Optional[int] = None) -> List[Result]:
        """runs.list: the runs the server kept (trials, benchmark jobs), newest first."""
        return self.call("runs.list", kind=kind, limit=limit)["runs"]

    def runs_get(self, run_id: int) -> Result:
        """runs.get: a kept run's whole document (samples, final counters, result)."""
        return self.call("runs.get", id=run_id)

    def runs_delete(self, ids: Sequence[int]) -> Result:
        """runs.delete: delete kept runs (the caller owns the ports)."""
        return self.call("runs.delete", ids=list(ids))


def _stream_file(added: Sequence[Tuple[str, List[Tuple[str, Any, str]]]]) -> str:
    from .trex.yamlout import stream_file

    return stream_file(["streams added by the Python client (add_stream)"],
                       [("version", 1, "")], [([], items) for _, items in added])


def _names(streams: Optional[Iterable[str]]) -> Optional[List[str]]:
    if streams is None:
        return None
    if isinstance(streams, str):
        return [streams]
    return list(streams)


def connect(path: Optional[str] = None, acquire: bool = True, force: bool = False,
            **kw: Any) -> Client:
    """Connect (Unix socket by default, TCP with host=/port=/token=) and acquire every port."""
    c = Client(path, **kw).connect()
    if acquire:
        c.acquire(force=force)
    return c


# -- helpers on results dicts --------------------------------------------------------------------

def stream_row(stats: Result, name: str) -> Result:
    """The row of stream ``name`` in a results dict."""
    for s in stats.get("streams", []):
        if s["name"] == name:
            return s
    raise KeyError(name)


def port_row(stats: Result, index: int) -> Result:
    return stats.get("ports", [])[index]


# A paced stream that sends more than this far below its set rate is flagged: the rate
# tests (test_rates) hold a paced stream whose TX lcore keeps its CPU within 0.1 %.
RATE_SHORT_PCT = 1.0


def rate_shortfall(row: Result) -> Optional[Result]:
    """A stream row sent more than RATE_SHORT_PCT below its set rate: {name, target_kpps,
    kpps, pct, pacer_skipped, tx_full, alloc_fail, text}, ``text`` the line ``wirerate run``
    prints (target, achieved, why); None for a row on its rate, unpaced or not measured."""
    target = row.get("target_kpps") or 0.0
    kpps = row.get("kpps")
    if target <= 0 or kpps is None or kpps >= target * (1 - RATE_SHORT_PCT / 100):
        return None
    skipped = row.get("pacer_skipped") or 0
    full = row.get("tx_full") or 0
    nombuf = row.get("alloc_fail") or 0
    pct = (kpps / target - 1) * 100
    why = []
    if skipped:
        why.append(f"{skipped} frames skipped after stalls of the TX lcore "
                   "(another thread on its CPU?)")
    if full:
        why.append(f"{full} bursts refused by the TX port (its ring was full)")
    if nombuf:
        why.append(f"{nombuf} frames without an mbuf (the pool was empty)")
    if not why:
        why.append("no frame skipped, no burst refused: the pacer's schedule fell short")
    text = (f"stream {row.get('name', '')}: target {target:.3f} Kpps, achieved {kpps:.3f} Kpps "
            f"({pct:+.3f} %); " + "; ".join(why))
    return {"name": row.get("name"), "target_kpps": target, "kpps": kpps, "pct": pct,
            "pacer_skipped": skipped, "tx_full": full, "alloc_fail": nombuf, "text": text}


def _measured_sum(rows: Sequence[Result], key: str) -> Optional[float]:
    """The sum of a rate over the rows that have it (null: too short to measure)."""
    got = [r[key] for r in rows if r.get(key) is not None]
    return sum(got) if got else None


def summary(stats: Result) -> Result:
    """tx, rx, loss and latency over every stream: the one line a trial prints.

    While traffic runs (``state`` "running") frames still on their way back are not lost
    yet: ``lost`` and ``loss_pct`` are None then and ``in_flight_or_lost`` counts the
    frames sent and not received; the run's end (after the drain) gives the loss.
    ``below_rate`` lists the streams that sent below their set rate (rate_shortfall()).
    Rates a run too short to measure (null) are left out of the sums: None when none has one.
    """
    streams = stats.get("streams", [])
    running = stats.get("state") == "running"
    tx = sum(s.get("tx_pkts", 0) for s in streams)
    with_rx = [s for s in streams if "rx_pkts" in s]
    rx = sum(s["rx_pkts"] for s in with_rx)
    lost = sum(s.get("lost", 0) for s in with_rx)
    sent_rx = sum(s.get("tx_pkts", 0) for s in with_rx)
    lat = [s["latency_ns"] for s in with_rx if (s.get("latency_ns") or {}).get("n")]
    final = bool(with_rx) and not running
    out: Result = {
        "tx_pkts": tx,
        "rx_pkts": rx if with_rx else None,
        "lost": lost if final else None,
        "loss_pct": (100.0 * lost / sent_rx) if final and sent_rx else None,
        "in_flight_or_lost": max(0, sent_rx - rx) if with_rx and running else None,
        "kpps": _measured_sum(streams, "kpps"),
        "mbps_l1": _measured_sum(streams, "mbps_l1"),
        "mbps_l2": _measured_sum(streams, "mbps_l2"),
        "duration_s": stats.get("duration_s"),
        "lat_min_ns": min(x["min"] for x in lat) if lat else None,
        "lat_avg_ns": (sum(x["avg"] * x["n"] for x in lat) // sum(x["n"] for x in lat))
        if lat else None,
        "lat_max_ns": max(x["max"] for x in lat) if lat else None,
        "lat_p99_ns": max(x["p99"] for x in lat) if lat else None,
        "below_rate": [b for b in (rate_shortfall(s) for s in streams) if b is not None],
    }
    return out


def merge_results(results: Sequence[Result], names: Optional[Sequence[str]] = None) -> Result:
    """One report from several servers' results: ports and streams concatenated, each row
    tagged with its server (``names`` or "server0", ...), totals summed."""
    merged: Result = {"schema": "wirerate-merged/1", "servers": [], "ports": [], "streams": []}
    for i, r in enumerate(results):
        tag = names[i] if names else f"server{i}"
        merged["servers"].append({"name": tag, "started_at": r.get("started_at"),
                                  "tx_started_at": r.get("tx_started_at"),
                                  "stop_reason": r.get("stop_reason"),
                                  "duration_s": r.get("duration_s")})
        for p in r.get("ports", []):
            merged["ports"].append(dict(p, server=tag))
        for s in r.get("streams", []):
            merged["streams"].append(dict(s, server=tag))
    starts = [s["tx_started_at"] for s in merged["servers"] if s.get("tx_started_at")]
    merged["start_spread_s"] = (max(starts) - min(starts)) if len(starts) > 1 else None
    merged["total"] = summary(merged)
    return merged
