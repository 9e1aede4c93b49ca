# SPDX-License-Identifier: BSD-3-Clause
"""The web console of `wirerate serve --http`: refusals byte for byte (a wrong token, another
site's Origin or Host, paths outside the page, huge uploads and messages, malformed requests),
each time with the server still answering; then the page in a real headless Chromium (Debian's
chromium and chromium-driver through python3-selenium) against servers on net_null and on
memif with dpdk-testpmd reflecting: no console errors, the charts and the figures shown against
stats.get, live rate control, YAML errors at line:col, a second window that sees everything
and changes nothing until it takes over.  The checks on net_null run again in headless Firefox
(Debian's firefox-esr through its Marionette protocol: wrfirefox.py).  Screenshots of each view
go to $WR_ARTIFACTS."""

import atexit
import copy
import csv
import hashlib
import io
import json
import math
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest

from wrtest import ROOT, wait_for
from test_server import ServerCase, START_S
from test_server_abuse import free_tcp_port as free_port
import wirerate  # noqa: E402  (test_server put python/ on the path)

sys.path.insert(0, os.path.join(ROOT, "tools"))
import wrweb  # noqa: E402  (the raw HTTP and WebSocket client)
import wrfirefox  # noqa: E402  (Firefox through Marionette: Debian has no geckodriver)

ARTIFACTS = os.environ.get("WR_ARTIFACTS", os.path.join(ROOT, "build", "test-artifacts"))
# How long a page may take to show what a test waits for: generous (CI shares two CPUs with
# two busy loops); a wait ends as soon as its condition holds, so it costs nothing then.
WAIT_S = 30
TOKEN = "console-token-0123456789"


def yaml_stream(name="s", rate="1 Mpps", size=64, extra=""):
    return (f"version: 1\nstreams:\n  - name: {name}\n    port: 0\n    size: {size}\n"
            f"    rate: {rate}\n{extra}")


# What our decoders (tshark, tcpdump) said of a file's bytes: {(sha256, the call): answer}.
DECODED = {}


def decoded(fn, path, *args):
    """fn(@path, *@args), a decoder we did not write (tshark, tcpdump) whose answer depends on
    the file's bytes and @args alone: run once per process for the same bytes.  Each browser's
    case writes the same reference files again, byte for byte, and a tshark start costs 1-2 s
    on a loaded machine; a file whose bytes differ is decoded anew."""
    with open(path, "rb") as f:
        key = (hashlib.sha256(f.read()).hexdigest(), fn.__module__, fn.__qualname__, repr(args))
    if key not in DECODED:
        DECODED[key] = fn(path, *args)
    return copy.deepcopy(DECODED[key])


def need_browser(case, browser):
    """Skip @case unless @browser ("chromium": Debian's chromium, chromium-driver and
    python3-selenium; "firefox": Debian's firefox-esr, through wrfirefox) is installed."""
    if browser == "chromium":
        try:
            import selenium  # noqa: F401
        except ImportError:
            case.skipTest("needs python3-selenium (Debian; run with /usr/bin/python3)")
        if shutil.which("chromedriver") is None or shutil.which("chromium") is None:
            case.skipTest("needs chromium and chromium-driver (Debian)")
    elif browser == "firefox" and shutil.which(wrfirefox.BINARY) is None:
        case.skipTest(f"needs {wrfirefox.BINARY} (Debian)")


class WebCase(ServerCase):
    """A server with the console on a port of its own; a class with a `browser` ("chromium",
    "firefox") is skipped where that browser is not installed."""

    def setUp(self):
        super().setUp()
        need_browser(self, getattr(self, "browser", None))

    def web_serve(self, extra=(), **kw):
        port = free_port()
        p, sock = self.serve(extra=("--http", str(port), *extra), **kw)
        self.assertTrue(wait_for(lambda: self.listening(port), START_S))
        return p, sock, port

    @staticmethod
    def listening(port):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            return False

    def assert_alive(self, p, sock):
        self.assertIsNone(p.poll(), "the server exited")
        c = wirerate.Client(sock).connect()
        try:
            self.assertEqual(c.info()["name"], "wirerate")
        finally:
            c.close()


class Refusals(WebCase):
    """What a browser must not get away with, sent by hand (tools/wrweb.py)."""

    def test_token_origin_paths_uploads(self):
        tok = self.write("http-token", TOKEN + "\n")
        os.chmod(tok, 0o600)
        p, sock, port = self.web_serve(extra=("--http-token-file", tok))
        # The page itself is public: the same bytes as web/.
        status, headers, body = wrweb.get(port, "/")
        self.assertEqual(status, 200)
        with open(os.path.join(ROOT, "web", "index.html"), "rb") as f:
            self.assertEqual(body, f.read())
        self.assertIn("default-src 'self'", headers["content-security-policy"])
        self.assertEqual(headers["x-content-type-options"], "nosniff")
        status, headers, _ = wrweb.get(port, "/", extra=f'If-None-Match: {headers["etag"]}\r\n')
        self.assertEqual(status, 304)
        # Paths outside the page: nothing but its compiled-in files.
        for path in ("/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/web/index.html",
                     "/embed.py", "/meson.build", "//etc/passwd", "/index.html/"):
            self.assertEqual(wrweb.get(port, path)[0], 404, path)
        # The API needs the token: nothing before auth.login, a wrong one closes.
        ws = wrweb.WebSocket(port)
        self.assertTrue(ws.ok, ws.status)
        self.assertEqual(ws.call("server.info")["error"]["code"], -32005)
        self.assertEqual(ws.call("auth.login", token="wrong-token-0123456789")["error"]["code"],
                         -32005)
        with self.assertRaises(ConnectionError):
            ws.call("server.info")
        ws.close()
        ws = wrweb.WebSocket(port)
        self.assertTrue(ws.call("auth.login", token=TOKEN)["result"]["authenticated"])
        self.assertEqual(ws.call("server.info")["result"]["name"], "wirerate")
        # Another site's page open in the same browser: its Origin, or none.
        for origin in ("http://evil.example", f"http://127.0.0.1:{port + 1}", "null", ""):
            bad = wrweb.WebSocket(port, origin=origin)
            self.assertEqual(bad.status, 403, origin)
            bad.close()
        # Huge uploads: a body is refused from its head (413), never read.
        big = (f"POST / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 100000000\r\n\r\n"
               .encode() + b"x" * (1 << 20))
        status = wrweb.http(port, big)[0]
        self.assertIn(status, (413, 0))  # 0: reset while the client still sent
        self.assertEqual(wrweb.http(port, f"POST /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                                          "Transfer-Encoding: chunked\r\n\r\n".encode())[0], 413)
        # A WebSocket message over 1 MiB: closed (1009) from its header; before the
        # login 4 KiB is the most.
        ws.send_frame(0x1, b"", length=100 << 20)
        self.assertEqual(ws.recv_frame(), (0x8, b"\x03\xf1"))
        ws.close()
        pre = wrweb.WebSocket(port)
        pre.send_text("x" * 5000)
        self.assertEqual(pre.recv_frame(), (0x8, b"\x03\xf1"))
        pre.close()
        # Malformed requests: each its status, the connection closed.
        cases = [
            (b"GET / HTTP/1.1\r\nHost: a\r\n" + b"X-Pad: " + b"y" * 9000 + b"\r\n\r\n", 431),
            (b"GET / HTTP/9.9\r\nHost: a\r\n\r\n", 505),
            (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 400),  # TLS hello
            (b"GET /" + b"a" * 2000 + b" HTTP/1.1\r\nHost: a\r\n\r\n", 414),
            (b"DELETE / HTTP/1.1\r\nHost: a\r\n\r\n", 405),
            (b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
            (b"GET / HTTP/1.1\r\n\r\n", 400),
        ]
        for raw, want in cases:
            self.assertEqual(wrweb.http(port, raw)[0], want, raw[:40])
        # Binary frames and unmasked frames close the socket with their codes.
        ws = wrweb.WebSocket(port)
        ws.send_frame(0x2, b"\x00\x01")
        self.assertEqual(ws.recv_frame(), (0x8, b"\x03\xeb"))
        ws.close()
        ws = wrweb.WebSocket(port)
        ws.send_frame(0x1, b"{}", mask=False)
        self.assertEqual(ws.recv_frame(), (0x8, b"\x03\xea"))
        ws.close()
        # Connections that never finish their head: the pre-login pool and its 3 s.
        slow = [socket.create_connection(("127.0.0.1", port)) for _ in range(80)]
        for s in slow:
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        self.assertEqual(wrweb.get(port, "/app.js")[0], 200)
        end = time.monotonic() + 3 + WAIT_S   # each closed by the server (its 3 s), not timed here
        for s in slow:
            s.settimeout(max(0.1, end - time.monotonic()))
            try:
                self.assertEqual(s.recv(100), b"")
            except ConnectionResetError:
                pass  # closed with its bytes unread: a reset is a close too
            s.close()
        self.assert_alive(p, sock)

    def test_loopback_only(self):
        """Without a token the console answers the loopback's names only: a site whose name
        was rebound to 127.0.0.1 gets nothing, its page cannot open the WebSocket."""
        p, sock, port = self.web_serve()
        self.assertEqual(wrweb.get(port, "/", host=f"localhost:{port}")[0], 200)
        self.assertEqual(wrweb.get(port, "/", host=f"[::1]:{port}")[0], 200)
        self.assertEqual(wrweb.get(port, "/", host=f"rebound.example:{port}")[0], 403)
        bad = wrweb.WebSocket(port, host=f"rebound.example:{port}")
        self.assertEqual(bad.status, 403)
        ws = wrweb.WebSocket(port)
        r = ws.call("server.info")["result"]
        self.assertTrue(r["session"].startswith("conn-"))
        self.assertIn("streams.check", r["methods"])
        # streams.check: the loader's verdict, nothing loaded, no ports needed.
        r = ws.call("streams.check", yaml=yaml_stream(rate="fast"), name="x.yaml")["result"]
        self.assertFalse(r["valid"])
        self.assertEqual((r["error"]["line"], r["error"]["col"]), (6, 11))
        self.assertTrue(r["error"]["message"].startswith("x.yaml:6:11: streams[0].rate:"))
        r = ws.call("streams.check", yaml=yaml_stream())["result"]
        self.assertTrue(r["valid"])
        self.assertIn("stream s: port 0, 64-byte frames", r["streams"][0]["summary"])
        self.assertIsNone(ws.call("streams.list", source=True)["result"]["source"])
        self.assert_alive(p, sock)


class OtherUser(WebCase):
    """Without a token the console is its server's user's, as the Unix socket (0600) is:
    another uid on the same machine gets nothing, not the page, not the API over HTTP or
    the WebSocket, and so takes no port (issue 31: uid 65534 took root's ports with force
    and read a root-only capture back)."""

    def test_other_uid_gets_nothing(self):
        if shutil.which("setpriv") is None or os.geteuid() != 0:
            self.skipTest("needs setpriv (util-linux) and root to act as uid 65534")
        p, sock, port = self.web_serve()
        owner = self.client(sock)
        owner.acquire()
        owner.load(yaml_stream(rate="1 kpps"))
        # The server's user: the page, and the WebSocket as before.
        self.assertEqual(wrweb.get(port, "/")[0], 200)
        ws = wrweb.WebSocket(port)
        self.assertTrue(ws.ok, ws.status)
        ws.close()
        with open(os.path.join(ROOT, "tools", "wrweb.py")) as f:
            wrweb_src = f.read()
        probe = wrweb_src + """
import sys
port = int(sys.argv[1])
out = {}
for path in ("/", "/app.js", "/ws", "/index.html"):
    st, _, body = get(port, path)
    out[path] = [st, body.decode("latin-1")]
ws = WebSocket(port)
out["upgrade"] = ws.status
try:
    out["acquire"] = ws.call("ports.acquire", session="nobody", force=True)
except Exception as e:
    out["acquire"] = type(e).__name__
try:
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[2])
    out["unix"] = "connected"
except OSError as e:
    out["unix"] = type(e).__name__
print(json.dumps(out))
"""
        r = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                            "/usr/bin/python3", "-", str(port), sock], input=probe, cwd="/",
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = json.loads(r.stdout)
        why = (f"403 Forbidden: this console is its server's user's (uid {os.geteuid()}) only, not uid "
               "65534's: with a token (--http-token-file) anyone with it may log in\n")
        for path in ("/", "/app.js", "/ws", "/index.html"):
            self.assertEqual(out[path], [403, why], path)
        self.assertEqual(out["upgrade"], 403)
        self.assertEqual(out["acquire"], "ConnectionError")
        self.assertEqual(out["unix"], "PermissionError")
        # Nothing changed hands: the owner still owns its port and drives it.
        self.assertEqual(owner.ports()[0]["owner"], owner.session)
        self.assertEqual([e for e in owner.events(since=0) if e["type"] == "owner_changed"], [])
        owner.start(count=10)
        self.assertEqual(owner.wait(timeout=30)["stop_reason"], "count")
        self.assert_alive(p, sock)


class SocketGroup(WebCase):
    """serve --socket-group GROUP: the socket is 0660 in that group and its members drive
    the server, over the socket and through the console without a token; anyone else still
    gets nothing (uid 65534 is a member of nogroup by its primary group, 65533 is not)."""

    def test_group_members_only(self):
        if shutil.which("setpriv") is None or os.geteuid() != 0:
            self.skipTest("needs setpriv (util-linux) and root to act as other uids")
        gid = 65534  # nogroup
        rundir = tempfile.mkdtemp(prefix="wrgrp-")
        self.addCleanup(shutil.rmtree, rundir, True)
        os.chown(rundir, 0, gid)
        os.chmod(rundir, 0o750)
        sock = os.path.join(rundir, "g.sock")
        port = free_port()
        p, _ = self.serve(tag="g", extra=("--http", str(port), "--socket-group", "nogroup"),
                          sock=sock, mode=0o660)
        st = os.stat(sock)
        self.assertEqual((st.st_mode & 0o777, st.st_gid), (0o660, gid))
        self.assertTrue(wait_for(lambda: self.listening(port), START_S))
        with open(os.path.join(ROOT, "tools", "wrweb.py")) as f:
            probe = f.read() + """
import sys
port, path = int(sys.argv[1]), sys.argv[2]
out = {"page": get(port, "/")[0], "upgrade": WebSocket(port).status}
try:
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    s.sendall(b'{"jsonrpc": "2.0", "id": 1, "method": "ports.acquire"}\\n')
    out["unix"] = json.loads(s.makefile().readline())["result"]["ports"]
except OSError as e:
    out["unix"] = type(e).__name__
print(json.dumps(out))
"""

        def as_uid(uid):
            r = subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                                "/usr/bin/python3", "-", str(port), sock], input=probe, cwd="/",
                               capture_output=True, text=True, timeout=60)
            self.assertEqual(r.returncode, 0, r.stderr)
            return json.loads(r.stdout)
        self.assertEqual(as_uid(65533), {"page": 403, "upgrade": 403, "unix": "PermissionError"})
        self.assertEqual(as_uid(65534), {"page": 200, "upgrade": 101, "unix": [0]})
        self.assert_alive(p, sock)


class Jobs(WebCase):
    """Benchmarks as server jobs through the Python client: progress, refusals while one
    runs, the server answering meanwhile, cancel, results, the command line's checks."""

    def test_jobs(self):
        p, sock, port = self.web_serve(vdev="net_ring0", tag="j")
        c = self.client(sock)
        c.acquire()
        c.load(yaml_stream(rate="max"), name="s.yaml")
        # The command line's parser and checks: its error lines.
        with self.assertRaises(wirerate.RpcError) as e:
            c.bench_start("rfc2544", {"tx-port": 7, "rx-port": 0})
        self.assertEqual(e.exception.code, -32602)
        self.assertIn("--tx-port: expected a port index 0..0", e.exception.message)
        with self.assertRaises(wirerate.RpcError) as e:
            c.bench_start("rfc2544", {"bogus": 1})
        self.assertIn('unknown option "bogus"', e.exception.message)
        with self.assertRaises(wirerate.RpcError) as e:
            c.bench_start("rfc2544", {"tx-port": 0, "rx-port": 0, "sizes": [64],
                                      "pdr": "0.1%", "loss-tolerance": "0.2%"})
        self.assertIn("--pdr: expected a loss tolerance above", e.exception.message)
        # A job of many sizes: progress, the server answering, refusals, cancel.
        job = c.bench_start("rfc2544", {"tx-port": 0, "rx-port": 0, "trial": "0.1",
                                        "drain": "0.02", "max-rate": "10 kpps",
                                        "sizes": "64,128,256,512,1024,1280,1518"})["job"]
        seen, rtts = [], []
        other = self.client(sock)

        def progress(st):
            seen.append(st)
            t = time.perf_counter()
            other.info()
            rtts.append(time.perf_counter() - t)
            if len(seen) == 2:
                with self.assertRaises(wirerate.RpcError) as e2:
                    c.start(rate="1 Mpps")
                self.assertEqual(e2.exception.code, -32002)
                with self.assertRaises(wirerate.RpcError) as e2:
                    c.bench_start("sweep")
                self.assertEqual(e2.exception.code, -32002)
                self.assertEqual(other.info()["state"], "bench")
                with self.assertRaises(wirerate.RpcError) as e2:
                    other.bench_cancel(job)  # not its session's
                self.assertEqual(e2.exception.code, -32001)
                c.bench_cancel(job)

        st = c.bench_wait(job, timeout=60, progress=progress, poll=0.1)
        self.assertEqual(st["state"], "cancelled", st)
        self.assertEqual(st["stop_reason"], "signal")
        self.assertGreaterEqual(len(seen), 2)
        self.assertEqual(seen[0]["progress"]["test"], "throughput")
        self.assertGreater(seen[0]["progress"]["estimate"], 1)
        self.assertLess(max(rtts), 0.1, rtts)  # answered between a trial's checks
        res = c.bench_result(job, "json")
        self.assertLess(len(res["results"]), 7)
        self.assertEqual(res["stop_reason"], "signal")
        self.assertIn("throughput_pps", c.bench_result(job, "csv").splitlines()[0])
        self.assertIn("64 bytes: trial", c.bench_result(job, "log"))
        self.assertTrue(c.bench_result(job, "html").startswith("<!DOCTYPE html>"))
        # A sweep and an rtt (net_ring returns every frame: round trips) run to the end;
        # the sweep counts its echoes (and so drains the ring, which would else stay full).
        job = c.bench_start("sweep", {"sizes": [64, 128], "duration": "0.2",
                                      "rx-port": 0})["job"]
        self.assertEqual(c.bench_wait(job, timeout=60)["state"], "done")
        doc = c.bench_result(job, "json")
        self.assertEqual(doc["schema"], "wirerate-sweep-repeat/1")
        rows = doc["sizes"]
        self.assertEqual([r["frame_size"] for r in rows], [64, 128])
        for r in rows:
            self.assertGreater(r["tx_pkts"], 0, r)
            self.assertEqual((r["returned"]["rx_pkts"], r["returned"]["lost"]),
                             (r["tx_pkts"], 0), r)
        job = c.bench_start("rtt", {"sizes": "50:100:50", "count": 200})["job"]
        self.assertEqual(c.bench_wait(job, timeout=60)["state"], "done")
        sizes = c.bench_result(job, "json")["sizes"]
        self.assertEqual([x["round_trips"] for x in sizes], [200, 200])
        self.assertEqual([j["kind"] for j in c.bench_list()], ["rfc2544", "sweep", "rtt"])
        # Traffic again once the jobs are done.
        c.start(rate="10 kpps", count=1000)
        self.assertEqual(c.wait(timeout=30)["stop_reason"], "count")
        self.assert_alive(p, sock)


def chromium_driver(width=1366, height=900, cpus=None):
    """Headless Chromium through chromedriver, a fresh profile; @cpus: where it may run."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    profile = tempfile.mkdtemp(prefix="wrchrome-")
    for a in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--no-first-run",
              f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    old = os.sched_getaffinity(0)
    if cpus:
        os.sched_setaffinity(0, cpus)  # inherited by chromedriver and chromium
    try:
        # chromedriver and Chromium die with this process, even killed (wrfirefox).
        d = webdriver.Chrome(service=wrfirefox.reaped_service(Service, shutil.which("chromedriver")),
                             options=opts)
    finally:
        os.sched_setaffinity(0, old)
    d.set_script_timeout(10)
    return d, profile


# Browsers a finished Page left, kept for the next Page of this process that asks for the same
# kind (a start-up costs seconds on a loaded machine): {(browser, cpus, Firefox's prefs):
# [(driver, profile)]}.  Each test's server listens on a port of its own, so a kept browser
# opens it as another origin (no storage of the last test's page); what else a page may
# change (its console's log, a viewport, a zoom, the download folder) is reset on reuse.
IDLE = {}


def close_browsers():
    for kept in IDLE.values():
        for d, profile in kept:
            try:
                d.quit()
            except Exception:  # noqa: BLE001  (already gone)
                pass
            if profile:
                shutil.rmtree(profile, True)
    IDLE.clear()


atexit.register(close_browsers)   # and if this process is killed: wrfirefox.die_with_parent


def browser_key(browser, cpus):
    return (browser, tuple(sorted(cpus or ())),
            json.dumps(wrfirefox.PREFS, sort_keys=True) if browser == "firefox" else "")


def new_browser(browser, cpus):
    """(driver, profile to remove after) of a new @browser that may run on @cpus."""
    if browser == "firefox":
        return wrfirefox.Firefox(cpus=cpus), None
    return chromium_driver(cpus=cpus)


def prestart(browser, cpus=None):
    """A browser for the next Page of that kind, started now (kept in IDLE) unless one is
    kept: before a test starts its busy pollers, so that the start does not share a CPU
    with one of them."""
    key = browser_key(browser, cpus)
    if not IDLE.get(key):
        IDLE.setdefault(key, []).append(new_browser(browser, cpus))


class InWindow:
    """A driver whose every call is made in one top-level window (@page's), switched to first
    when another window of the same browser was the last one used: two Pages in one browser,
    each in a window of its own (Page(beside=...))."""

    def __init__(self, page):
        self._page = page

    def __getattr__(self, name):
        v = getattr(self._page.raw, name)
        if not callable(v):
            return v

        def call(*args, **kw):
            self._page.here()
            return v(*args, **kw)
        return call


class Page:
    """One browser on the console: @browser "chromium" (Selenium and chromedriver) or
    "firefox" (wrfirefox: Marionette), behind the same Selenium-like calls.  The browser is
    one another Page of this process left (IDLE), else a new one; or, @beside another Page,
    a second window of that Page's browser: the console opened again beside the first, with a
    WebSocket, a session and a sessionStorage (where a tab keeps its ownership) of its own,
    without the seconds a browser's start costs (5 s for Chromium, 10 for Firefox, loaded)."""

    def __init__(self, case, port, cpus=None, name="a", browser="chromium", beside=None):
        self.case, self.port, self.name, self.browser = case, port, name, browser
        self.logged = []
        self.handle = None   # this page's window, once its browser has two
        if browser == "firefox":
            self.By, self.Stale = wrfirefox.By, wrfirefox.StaleElementReferenceException
            self.Missing = wrfirefox.NoSuchElementException
        else:
            from selenium.webdriver.common.by import By
            from selenium.common.exceptions import (NoSuchElementException,
                                                    StaleElementReferenceException)
            self.By, self.Stale, self.Missing = By, StaleElementReferenceException, NoSuchElementException
        if beside is not None:
            self._open_beside(beside)
            return
        self.key = browser_key(browser, cpus)
        self.windows = {"current": None}   # the window of the browser its calls go to now
        self.d = self.raw = self.profile = None
        while IDLE.get(self.key) and self.d is None:
            self.raw, self.profile = IDLE[self.key].pop()
            self.d = InWindow(self)
            try:
                self.reset()
            except Exception:  # noqa: BLE001  (it died meanwhile: another)
                self.quit(keep=False)
                self.d = None
        if self.d is None:
            self.raw, self.profile = new_browser(browser, cpus)
            self.d = InWindow(self)
        case.addCleanup(self.quit)
        self._open()

    def _open(self):
        self.d.get(f"http://127.0.0.1:{self.port}/")
        self.wait(lambda: self.text("#conn-state") == "connected", "the page did not connect")

    def _open_beside(self, other):
        """This page in a new window of @other's browser, as large as a new browser's."""
        self.key, self.profile, self.raw, self.windows = None, None, other.raw, other.windows
        raw = self.raw
        if other.handle is None:   # its browser's only window until now
            other.handle = (raw.call("WebDriver:GetWindowHandle") if self.browser == "firefox"
                            else raw.current_window_handle)
            self.windows["current"] = other.handle
        other.here()
        if self.browser == "firefox":
            self.handle = raw.call("WebDriver:NewWindow", type="window", focus=True)["handle"]
            raw.call("WebDriver:SwitchToWindow", handle=self.handle, focus=True)
            self.windows["current"] = self.handle
            raw.call("WebDriver:SetWindowRect", width=1366, height=900)
        else:
            raw.switch_to.new_window("window")
            self.handle = self.windows["current"] = raw.current_window_handle
            raw.set_window_rect(width=1366, height=900)
        self.d = InWindow(self)
        self.case.addCleanup(self.quit)
        self._open()

    def here(self):
        """The browser's calls go to this page's window from now on (switched to when
        another window of the browser had them)."""
        if self.handle is None or self.windows["current"] == self.handle:
            return
        if self.browser == "firefox":
            self.raw.call("WebDriver:SwitchToWindow", handle=self.handle, focus=True)
        else:
            self.raw.switch_to.window(self.handle)
        self.windows["current"] = self.handle

    def reset(self):
        """A kept browser as a new one starts: its last page's errors read and dropped, no
        viewport or zoom set, downloads as by default."""
        if self.browser == "firefox":
            self.d.call("Marionette:SetContext", value="chrome")
            try:
                self.d.execute_script("Services.console.reset(); gBrowser.selectedBrowser.fullZoom = 1;")
            finally:
                self.d.call("Marionette:SetContext", value="content")
            self.d.console.clear()
            self.d.call("WebDriver:SetWindowRect", width=1366, height=900)
        else:
            self.d.get_log("browser")
            self.d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            self.d.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "default"})

    def quit(self, keep=True):
        """Done with the page: its browser kept for the next Page (on a blank page, its
        WebSocket closed), or quit if it does not answer; a window beside another page's
        closed (the browser is that page's)."""
        if self.d is None:
            return
        d, self.d = self.d, None
        if self.key is None:
            try:
                d.close()
            except Exception:  # noqa: BLE001  (the browser is gone: its page's quit says)
                pass
            self.windows["current"] = None
            return
        if keep:
            try:
                d.get("about:blank")
                IDLE.setdefault(self.key, []).append((self.raw, self.profile))
                return
            except Exception:  # noqa: BLE001  (gone or stuck: not kept)
                pass
        try:
            self.raw.quit()
        except Exception:  # noqa: BLE001  (already gone)
            pass
        if self.profile:
            shutil.rmtree(self.profile, True)

    def q(self, css):
        return self.d.find_element(self.By.CSS_SELECTOR, css)

    def qa(self, css):
        return self.d.find_elements(self.By.CSS_SELECTOR, css)

    def click(self, css, tries=5):
        """Click what @css names now: a view that redraws itself each second (captures)
        may replace the element between finding and clicking it; then find it again."""
        for i in range(tries):
            try:
                return self.q(css).click()
            except self.Stale:
                if i == tries - 1:
                    raise

    def _read(self, css, read, tries=5):
        """@read of what @css names now, found again if a redraw replaced it in between;
        None if nothing matches."""
        for i in range(tries):
            try:
                return read(self.q(css))
            except self.Missing:
                return None
            except self.Stale:
                if i == tries - 1:
                    return None

    def text(self, css):
        return self._read(css, lambda e: e.text)

    def attr(self, css, name):
        return self._read(css, lambda e: e.get_attribute(name))

    def texts(self, css):
        """The text (textContent, trimmed) of every element @css names, read in one script:
        atomic in the page, so a view redrawn between a find and a read cannot fail it."""
        return self.d.execute_script(
            "return Array.from(document.querySelectorAll(arguments[0]), (e) => e.textContent.trim())", css)

    def attrs(self, css, *names):
        """[(each attribute of @names) for every element @css names], read in one script
        (atomic in the page, as texts())."""
        return [tuple(r) for r in self.d.execute_script(
            "return Array.from(document.querySelectorAll(arguments[0]),"
            " (e) => arguments[1].map((n) => e.getAttribute(n)))", css, list(names))]

    def settle(self):
        """Until the page has drawn twice (two animation frames): what a view switch or a
        viewport change laid out is on screen, without a fixed sleep."""
        self.d.execute_script("return new Promise((done) => requestAnimationFrame("
                              "() => requestAnimationFrame(() => done(true))))")

    def wait(self, pred, what, timeout=WAIT_S):
        """Until @pred holds; else fail saying @what (a callable: what it says then).  An
        element @pred reads that a redraw replaces, or that is not drawn yet, is a condition
        not met yet: asked again."""
        last = []

        def holds():
            try:
                return pred()
            except (self.Stale, self.Missing) as e:
                last[:] = [e]
                return False
        ok = wait_for(holds, timeout, 0.1)
        self.case.assertTrue(ok, f"{self.name}: {what() if callable(what) else what}"
                                 + (f" (last: {last[0]!r})" if last else ""))

    def view(self, name):
        self.q(f"#tab-{name}").click()
        self.wait(lambda: self.q(f"#view-{name}").is_displayed(), f"view {name}")

    def stream_cell(self, stream, col):
        return self.text(f'[data-row="stream:{stream}"] [data-col="{col}"]')

    def number(self, css):
        t = self.text(css)
        return None if t in (None, "", "–") else float(t.replace(",", "").split()[0])

    def shot(self, name):
        os.makedirs(ARTIFACTS, exist_ok=True)
        prefix = "web-" if self.browser == "chromium" else f"web-{self.browser}-"
        self.d.save_screenshot(os.path.join(ARTIFACTS, f"{prefix}{name}.png"))

    def errors(self):
        """What the page's console shows as errors: uncaught exceptions, console.error(),
        refused and failed loads."""
        if self.browser == "firefox":
            return self.d.errors(f"http://127.0.0.1:{self.port}")
        # chromedriver hands each entry once: keep them.
        self.logged += [e for e in self.d.get_log("browser") if e["level"] == "SEVERE"]
        return list(self.logged)

    def type_yaml(self, text):
        ta = self.q("#yaml")
        self.d.execute_script("arguments[0].value = ''", ta)
        ta.send_keys(text)

    def paste_yaml(self, text):
        """The editor's text replaced as a paste does: one input event, not one a key (typing
        a stream file key by key took 1-2 s; test_null and test_web_session's test_session
        still type theirs)."""
        self.d.execute_script("const t = document.getElementById('yaml'); t.value = arguments[0];"
                              "t.dispatchEvent(new Event('input', {bubbles: true}));", text)

    def owner_only_enabled(self):
        """The owner's controls enabled now, read in one script (the tables redraw theirs)."""
        return self.d.execute_script(
            "return Array.from(document.querySelectorAll('[data-owner-only]'))"
            ".filter((e) => !e.matches(':disabled'))"
            ".map((e) => e.id || e.getAttribute('aria-label') || e.getAttribute('name'))")


def stats_rate(c, name, window=1.0):
    """A stream's rate in Kpps from two stats.get documents @window s apart (TSC-timed)."""
    a = c.stats()
    time.sleep(window)
    return rate_between(a, c.stats(), name)


def rate_between(a, b, name):
    """A stream's TX rate in Kpps between the stats.get documents @a and @b."""
    ra, rb = wirerate.stream_row(a, name), wirerate.stream_row(b, name)
    return (rb["tx_pkts"] - ra["tx_pkts"]) / (rb["duration_s"] - ra["duration_s"]) / 1e3


def page_interval(case, page, css, c):
    """The page's TX figure at @css checked against the counters it comes from, over the
    same interval: the cell carries the frames and TX durations of the two stats.get
    documents the page read (data-tx-from/-to, data-d-from/-to); the figure is their rate
    (to its 0.1 shown), and those counters are the server's: on the trajectory of the
    counters this test reads itself before and after (more time, never fewer frames).
    Load moves both alike; nothing here is timed.  Returns (shown, from the counters)."""
    keys = ("tx-from", "tx-to", "d-from", "d-to")
    before = c.stats()
    # The figure and its counters in one read: the table is redrawn each second, and a
    # figure from one drawing with the counters of the next would not be their rate.
    page.wait(lambda: page.attrs(css, *(f"data-{k}" for k in keys)), f"no {css}")
    cell = page.d.execute_script("const e = document.querySelector(arguments[0]);"
                                 "return [e.textContent, ...arguments[1].map((k) => e.getAttribute(k))];",
                                 css, [f"data-{k}" for k in keys])
    after = c.stats()
    got = dict(zip(keys, cell[1:]))
    shown = float(cell[0].replace(",", "").split()[0])
    case.assertNotIn(None, got.values(), css)
    tx0, tx1 = int(got["tx-from"]), int(got["tx-to"])
    d0, d1 = float(got["d-from"]), float(got["d-to"])
    case.assertGreater(d1 - d0, 0.05, got)   # the page takes TX over its own duration then
    ref = (tx1 - tx0) / (d1 - d0) / 1e3
    case.assertLessEqual(abs(shown - ref), 0.05 + 1e-9, (shown, ref, got))
    rows = {"stream": "streams", "port": "ports"}
    kind, _, name = css.split('"')[1].partition(":")
    for doc in (before, after):
        row = [r for r in doc[rows[kind]] if kind == "port" or r["name"] == name][0]
        for tx, d in ((tx0, d0), (tx1, d1)):
            if d <= row["duration_s"]:
                case.assertLessEqual(tx, row["tx_pkts"], (got, row["tx_pkts"], row["duration_s"]))
            if d >= row["duration_s"]:
                case.assertGreaterEqual(tx, row["tx_pkts"], (got, row["tx_pkts"], row["duration_s"]))
    return shown, ref


class Checks:
    """The checks every browser passes (a mixin of the browsers' test cases, each of which
    names its @browser): the same calls, through Selenium or through Marionette."""

    browser = None

    def page(self, port, **kw):
        return Page(self, port, browser=self.browser, **kw)

    def test_null(self):
        """net_null: two consoles (two windows of the browser), one in control, the other
        watching, then taking over."""
        p, sock, port = self.web_serve()
        c = self.client(sock)  # a script watching (it owns nothing)
        # The TX lcore has CPU 1: the browsers run on CPU 0 beside the sleeping main lcore.
        a = self.page(port, cpus={0}, name="a")
        a.view("streams")
        a.type_yaml(yaml_stream(rate="fast"))
        a.wait(lambda: a.q("#check").get_attribute("data-state") == "error", "no check error")
        where = a.q("#check .where")
        self.assertEqual((where.get_attribute("data-line"), where.get_attribute("data-col")),
                         ("6", "11"))
        self.assertIn("Line 6, column 11 (streams[0].rate)", a.text("#check"))
        self.assertIn("console.yaml:6:11: streams[0].rate: expected a rate", a.text("#check"))
        self.assertEqual(a.text("#gutter .err"), "▶6")
        a.shot("streams-error")
        a.type_yaml(yaml_stream(rate="2 Mpps"))
        a.wait(lambda: a.q("#check").get_attribute("data-state") == "valid", "no valid check")
        self.assertIn("stream s: port 0, 64-byte frames", a.text("#summary"))
        # A viewer cannot load; in control it can.
        self.assertFalse(a.q("#btn-load").is_enabled())
        a.q("#take-control").click()
        a.wait(lambda: a.text("#owner-state") == "in control", "not in control")
        a.wait(lambda: a.q("#btn-load").is_enabled(), "load stays disabled")
        a.q("#btn-load").click()
        a.wait(lambda: [s["name"] for s in c.streams()] == ["s"], "streams not loaded")
        a.shot("streams")
        # Start at 1 Mpps from the form: the chart rises, the figures agree with stats.get.
        a.view("traffic")
        a.wait(lambda: a.q("#btn-start").is_enabled(), "start stays disabled")
        # The set rate from the load on, not "max" until a start.
        a.wait(lambda: a.stream_cell("s", "rate") == "2.000 Mpps",
               lambda: f"rate after the load: {a.stream_cell('s', 'rate')!r}")
        a.q('#start-form input[name="rate"]').send_keys("1 Mpps")
        a.q("#btn-start").click()
        a.wait(lambda: a.stream_cell("s", "state") == "running", "not running")
        a.wait(lambda: (a.number('[data-row="stream:s"] [data-col="tx_kpps"]') or 0) > 0,
               "no rate shown")
        self.assertEqual(a.stream_cell("s", "rate"), "1.000 Mpps")
        for _ in range(3):
            page_interval(self, a, '[data-row="stream:s"] [data-col="tx_kpps"]', c)
        page_interval(self, a, '[data-row="port:0"] [data-col="tx_kpps"]', c)
        # The figures, the chart's axis and its line read at once: each is redrawn each second.
        kpps, mbps, ymax, points, base = a.d.execute_script(
            "const q = (css) => document.querySelector(css);"
            "const n = (css) => q(`[data-row=\"stream:s\"] [data-col=\"${css}\"]`).textContent;"
            "return [n('tx_kpps'), n('tx_l1'), q('#chart-tx').getAttribute('data-ymax'),"
            " q('#chart-tx polyline[data-series=\"stream:s\"]').getAttribute('points'),"
            " q('#chart-tx line.axis').getAttribute('y1')];")
        kpps, mbps = (float(t.replace(",", "").split()[0]) for t in (kpps, mbps))
        self.assertLess(abs(mbps - kpps * 84 * 8 / 1e3) / mbps, 0.002, (mbps, kpps))
        ymax = float(ymax)
        self.assertGreaterEqual(ymax, kpps)   # the axis holds the figure shown
        pts = [tuple(map(float, xy.split(","))) for xy in points.split()]
        self.assertGreaterEqual(len(pts), 2)
        base = float(base)
        self.assertLess(pts[-1][1], base - 10, "the line did not rise")  # SVG y grows downwards
        # The slider: a rate near 300 kpps applied live, measured within 1 s.
        slider = a.q('input[type="range"][data-stream="s"]')
        line_pps = 10000e6 / ((64 + 20) * 8)
        v = round(1000 * (math.log10(300e3) - 3) / (math.log10(line_pps) - 3))
        a.d.execute_script("arguments[0].value = arguments[1];"
                           "arguments[0].dispatchEvent(new Event('input'));"
                           "arguments[0].dispatchEvent(new Event('change'));", slider, str(v))
        self.assertTrue(wait_for(lambda: abs((c.streams()[0]["rate_pps"] or 1e6) - 300e3) < 6e3
                                 and c.streams()[0]["ctl_delay_ns"] is not None, WAIT_S),
                        c.streams())
        target = c.streams()[0]["rate_pps"]
        # The TX lcore has the new rate (ctl_delay_ns: picked up): what it sends from now
        # on is never above it, whatever a busy machine takes from it.
        self.assertAlmostEqual(wirerate.stream_row(c.stats(), "s")["target_kpps"],
                               target / 1e3, places=3)
        measured = stats_rate(c, "s", 0.5) * 1e3
        self.assertLessEqual(measured, target * 1.001, (measured, target))
        # A rate the server refuses: its message once, not "traffic.update: traffic.update:".
        a.q('[data-row="stream:s"] input[type="text"]').send_keys("fast\n")
        a.wait(lambda: "traffic.update:" in (a.text("#error-text") or ""), "no refusal shown")
        self.assertEqual(a.text("#error-text").count("traffic.update:"), 1, a.text("#error-text"))
        a.q("#error-close").click()
        # A second console, in a window of its own (a second WebSocket, session and
        # sessionStorage): sees everything, changes nothing.
        b = self.page(port, name="b", beside=a)
        b.wait(lambda: b.stream_cell("s", "state") == "running", "b: not running")
        owner = c.ports()[0]["owner"]
        self.assertTrue(owner.startswith("web-"), owner)
        b.wait(lambda: b.text("#owner-state") == f"viewer: {owner} in control", "b: owner")
        self.assertIn(owner, b.text('[data-row="port:0"] [data-col="owner"]'))
        self.assertEqual(b.owner_only_enabled(), [])
        for bid in ("btn-start", "btn-stop", "btn-pause", "btn-resume", "btn-load"):
            self.assertFalse(b.q(f"#{bid}").is_enabled(), bid)
        a.q('[data-row="stream:s"] input[type="text"]').send_keys("750 kpps\n")
        b.wait(lambda: b.stream_cell("s", "rate") == "750.0 kpps", "b did not see the new rate")
        b.view("streams")
        b.wait(lambda: "console.yaml: 1 stream (s)" in b.text("#loaded-info"), "b: loaded file")
        b.q("#btn-copy-loaded").click()
        b.wait(lambda: b.q("#check").get_attribute("data-state") == "valid", "b: copied text")
        self.assertIn("rate: 2 Mpps", b.q("#yaml").get_attribute("value"))
        b.view("traffic")
        # b takes over, after a confirmation: everyone sees it.
        b.q("#take-control").click()
        b.wait(lambda: b.q("#confirm-dialog").is_displayed(), "b: no confirmation")
        self.assertIn(owner, b.text("#confirm-text"))
        b.q("#confirm-ok").click()
        b.wait(lambda: b.text("#owner-state") == "in control", "b: not in control")
        a.wait(lambda: "You lost control of port 0" in (a.text("#error-text") or ""), "a: no notice")
        a.wait(lambda: a.owner_only_enabled() == [], "a: controls stay enabled")
        self.assertNotEqual(c.ports()[0]["owner"], owner)
        self.assertIn("taken over by", a.attr("#events li", "textContent"))
        b.wait(lambda: b.q("#btn-stop").is_enabled(), "b: stop disabled")
        b.q("#btn-stop").click()
        a.wait(lambda: a.stream_cell("s", "state") == "loaded" and "done" in a.text("#traffic-state"),
               "a: did not see the stop")
        self.assertEqual(c.info()["state"], "done")
        # Stopped: the page's last counters are the run's, frame for frame.
        final = wirerate.stream_row(c.stats(), "s")["tx_pkts"]
        tx_cell = '[data-row="stream:s"] [data-col="tx_kpps"]'
        a.wait(lambda: a.attr(tx_cell, "data-tx-to") == str(final),
               lambda: f"the page's counters end at {a.attr(tx_cell, 'data-tx-to')}, the run at {final}")
        for v in ("traffic", "latency", "captures", "bench", "events"):
            a.view(v)
            a.settle()
            a.shot(v)
        self.assertEqual(a.errors(), [])
        self.assertEqual(b.errors(), [])
        # The errors are seen when there are some: a console.error() and an exception thrown
        # by a timer of the page.
        b.d.execute_script('setTimeout(() => { console.error("wr-probe-1"); '
                           'throw new Error("wr-probe-2"); }, 0)')
        b.wait(lambda: [m for m in ("wr-probe-1", "wr-probe-2") if m in str(b.errors())] ==
               ["wr-probe-1", "wr-probe-2"], "no error seen on the page's console")
        self.assert_alive(p, sock)


class Browser(Checks, WebCase):
    """The page in headless Chromium against real servers: the checks, then the views of
    benchmarks, captures and memif's echoes."""

    browser = "chromium"

    def test_bench(self):
        """A benchmark started from the page (RFC 2544 through net_ring's loopback, capped at
        10 kpps: a rate a busy machine still offers) finishes; the table it shows is what the command line finds on the same
        device with the same options; the result's files come from the API."""
        p, sock, port = self.web_serve(vdev="net_ring0", tag="r")
        c = self.client(sock)
        a = Page(self, port, cpus={0}, name="bench")
        a.view("streams")
        # The stream's own rate: the benchmark sets its trials' (RFC 2544 from max-rate).
        a.paste_yaml(yaml_stream(rate="200 kpps"))
        a.wait(lambda: a.q("#check").get_attribute("data-state") == "valid", "no valid check")
        a.q("#take-control").click()
        a.wait(lambda: a.q("#btn-load").is_enabled(), "load stays disabled")
        a.q("#btn-load").click()
        a.wait(lambda: [s["name"] for s in c.streams()] == ["s"], "streams not loaded")
        a.view("bench")
        form = {"tx-port": "0", "rx-port": "0", "sizes": "64,128", "trial": "0.2",
                "max-rate": "10 kpps", "extra": "--drain 0.05"}
        for name, value in form.items():
            a.q(f'#bench-form [name="{name}"]').send_keys(value)
        a.wait(lambda: a.q("#btn-bench").is_enabled(), "the benchmark button stays disabled")
        a.q("#btn-bench").click()
        a.wait(lambda: a.q("#bench-status").get_attribute("data-state") in ("running", "done"),
               "no progress shown")
        a.wait(lambda: not a.q("#bench-result").get_attribute("hidden") and
               len(a.qa('#result-table tbody tr')) == 2, "no result table", timeout=60)
        shown = dict(a.d.execute_script(   # the table in one read
            "return Array.from(document.querySelectorAll('#result-table tbody tr'), (tr) =>"
            " [+tr.dataset.size, tr.querySelector('[data-col=\"ndr_pps\"]').textContent.trim()])"))
        job = c.bench_list()[-1]
        self.assertEqual(job["state"], "done", job)
        # The job has ended: its state, not its last trial's ETA; the stream's set rate
        # again (it said "max" once the benchmark gave the engine back).
        a.wait(lambda: a.text("#bench-status") == f"Job {job['job']}: done",
               lambda: f"bench status: {a.text('#bench-status')!r}")
        a.view("traffic")
        a.wait(lambda: a.stream_cell("s", "rate") == "200.0 kpps",
               lambda: f"rate after the benchmark: {a.stream_cell('s', 'rate')!r}")
        a.view("bench")
        a.shot("bench-result")
        # The command line on the same device, the same stream and options.
        prefix = f"wrwebcli{os.getpid()}"
        self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", prefix), True)
        prof = self.write("cli.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={prefix}", "--vdev=net_ring0", "--lcores=0@0,1@1"]
ports:
  - device: net_ring0
    tx_lcores: [1]
""")
        sf = self.write("s.yaml", yaml_stream(rate="max"))
        cli = self.wirerate("rfc2544", sf, "--config", prof, "--tx-port", "0", "--rx-port", "0",
                            "--sizes", "64,128", "--trial", "0.2", "--max-rate", "10 kpps",
                            "--drain", "0.05", "--csv", "cli.csv", timeout=120)
        self.assertIn(cli.returncode, (0, 3), cli.stdout + cli.stderr)
        with open(self.path("cli.csv")) as f:
            rows = list(csv.DictReader(f))
        # The page shows the job's own result, row for row (the same run): a figure, or
        # "at least" what a busy CPU let the generator offer.
        doc = c.bench_result(job["job"], "json")
        mine = {}
        for r in doc["results"]:
            if r["throughput_pps"] is not None:
                mine[r["frame_size"]] = f'{r["throughput_pps"]:,.3f}'
            elif r.get("at_least_pps") is not None:
                mine[r["frame_size"]] = f'≥ {r["at_least_pps"]:,.3f}'
            else:
                mine[r["frame_size"]] = "–"
        self.assertEqual(shown, mine, doc["results"])
        # The command line, another run, agrees wherever both measured the device (one
        # of them may have been held by a busy CPU: said, not a figure).
        for r in rows:
            size = int(r["frame_size"])
            if r["throughput_pps"] and not shown[size].startswith("≥"):
                # The same ceiling passed; each figure is what its own trial offered
                # (never above it), which two runs' pacers give within 0.1 %.
                self.assertAlmostEqual(float(shown[size].replace(",", "")),
                                       float(r["throughput_pps"]),
                                       delta=float(r["throughput_pps"]) * 0.001,
                                       msg=cli.stdout)
        # The same files as the command line writes, through the API.
        server_csv = c.bench_result(job["job"], "csv")
        with open(self.path("cli.csv")) as f:
            self.assertEqual(server_csv.splitlines()[0], f.readline().rstrip("\n"))
        self.assertEqual(doc["schema"], "wirerate-rfc2544/1")
        # The job's JSON and CSV are one result (the same run).
        srows = list(csv.DictReader(io.StringIO(server_csv)))
        self.assertEqual([r["throughput_pps"] for r in doc["results"]],
                         [float(r["throughput_pps"]) if r["throughput_pps"] else None
                          for r in srows])
        self.assertIn("RFC 2544 throughput", c.bench_result(job["job"], "table"))
        self.assertEqual(a.errors(), [])

    def test_rate_shortfall(self):
        """A stream its port cannot carry (net_ring: its ring fills, nothing reads it back) is
        flagged on the page as the Python client's summary() flags it and wirerate run says
        it: target against achieved, and why.  The rate column shows the set rate from the
        load on (it said "max")."""
        p, sock, port = self.web_serve(vdev="net_ring0", tag="f")
        c = self.client(sock)
        c.acquire()
        c.load(yaml_stream(rate="1 Mpps"), name="s.yaml")
        a = Page(self, port, cpus={0}, name="short")
        a.wait(lambda: a.stream_cell("s", "rate") == "1.000 Mpps",
               lambda: f"rate column after a load: {a.stream_cell('s', 'rate')!r}")
        c.start(duration=1)
        self.assertEqual(c.wait(timeout=30)["stop_reason"], "duration")
        want = wirerate.summary(c.stats())["below_rate"]
        self.assertEqual([b["name"] for b in want], ["s"], c.stats()["streams"])
        self.assertIn("bursts refused by the TX port (its ring was full)", want[0]["text"])
        self.assertGreater(want[0]["tx_full"], 0)
        note = '#rate-notes li[data-stream="s"]'
        a.wait(lambda: a.text(note) == "Below its set rate: " + want[0]["text"],
               lambda: f"the page says {a.text(note)!r}, the client {want[0]['text']!r}")
        self.assertIn("below", a.attr('[data-row="stream:s"]', "class"))
        a.wait(lambda: a.text("#traffic-state") == "done (duration)",
               lambda: f"traffic state: {a.text('#traffic-state')!r}")
        a.shot("rate-shortfall")
        self.assertEqual(a.errors(), [])

    def test_captures(self):
        """The Captures view against capture.*: a bad filter refused with libpcap's words, a
        filtered capture started from the page (armed, then running with the traffic, its
        counts live), stopped from the page, listed as capture.status lists it, and downloaded:
        tshark decodes the file, every frame the filter's and nothing else, as many as the
        server says it wrote, the same bytes the Python client fetches."""
        p, sock, port = self.web_serve(vdev="net_ring0", tag="c")   # TX comes back as RX
        c = self.client(sock)
        a = Page(self, port, cpus={0}, name="cap")
        down = self.path("downloads")
        os.makedirs(down)
        a.d.execute_cdp_cmd("Browser.setDownloadBehavior",
                            {"behavior": "allow", "downloadPath": down})
        a.view("streams")
        a.paste_yaml("version: 1\nstreams:\n"
                    "  - {name: a, port: 0, size: 64, rate: 5 kpps, udp: {src: 1001, dst: 1001}}\n"
                    "  - {name: b, port: 0, size: 100, rate: 5 kpps, udp: {src: 1002, dst: 2000}}\n")
        a.wait(lambda: a.q("#check").get_attribute("data-state") == "valid", "no valid check")
        a.q("#take-control").click()
        a.wait(lambda: a.q("#btn-load").is_enabled(), "load stays disabled")
        a.q("#btn-load").click()
        a.wait(lambda: [s["name"] for s in c.streams()] == ["a", "b"], "streams not loaded")
        a.view("captures")
        form = a.q("#capture-form")
        flt = form.find_element(a.By.NAME, "filter")
        flt.send_keys("udp and")
        form.find_element(a.By.CSS_SELECTOR, 'button[type="submit"]').click()
        a.wait(lambda: "libpcap cannot compile" in (a.text("#error-text") or ""),
               "no error for a bad filter")
        self.assertEqual(c.capture_status()["captures"], [])
        flt.clear()
        flt.send_keys("udp dst port 2000")
        form.find_element(a.By.CSS_SELECTOR, 'button[type="submit"]').click()
        a.wait(lambda: a.qa('#captures-table tr[data-capture="0"][data-state="armed"]'),
               lambda: f"no armed capture listed: {a.text('#error-text')!r}, "
                       f"{a.text('#captures-table')!r}, {c.capture_status()}")
        a.view("traffic")
        a.q("#btn-start").click()
        a.wait(lambda: c.info()["state"] == "running", "not running")
        a.view("captures")
        row = '#captures-table tr[data-capture="0"]'
        a.wait(lambda: (a.number(f'{row} [data-col="written"]') or 0) > 500,
               "the running capture's counts do not grow")
        self.assertTrue(a.qa(f'{row}[data-state="running"]'), a.text("#captures-table"))
        a.click(f"{row} button")   # Stop
        a.wait(lambda: a.qa(f'{row}[data-state="done"]'), "not stopped")
        st = c.capture_status(0)
        self.assertEqual(st["state"], "done")
        self.assertEqual(c.info()["state"], "running")   # the traffic runs on
        # The list is capture.status's, its figures those of the server.
        self.assertEqual(len(a.qa("#captures-table tbody tr")), len(c.capture_status()["captures"]))
        self.assertEqual(a.number(f'{row} [data-col="written"]'), st["written"])
        self.assertEqual(a.number(f'{row} [data-col="bytes"]'), st["bytes"])
        a.shot("captures")
        a.click(f"{row} button")   # Download
        got = os.path.join(down, "capture-0.pcapng")
        a.wait(lambda: os.path.exists(got) and os.path.getsize(got) == st["bytes"],
               "nothing downloaded")
        fetched = self.path("fetched.pcapng")
        c.capture_fetch(0, fetched)
        with open(got, "rb") as f1, open(fetched, "rb") as f2:
            self.assertEqual(f1.read(), f2.read())
        out = subprocess.run(["tshark", "-r", got, "-T", "fields", "-e", "udp.dstport",
                              "-e", "frame.len", "-e", "_ws.malformed"],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        fields = [l.split("\t") for l in out.stdout.splitlines()]
        self.assertEqual(len(fields), st["written"])
        self.assertGreater(len(fields), 500)
        self.assertEqual({tuple(x) for x in fields}, {("2000", "96", "")}, fields[:3])
        a.view("traffic")
        a.q("#btn-stop").click()
        a.wait(lambda: c.info()["state"] == "done", "not stopped")
        self.assertEqual(a.errors(), [])
        self.assert_alive(p, sock)

    def test_memif(self):
        """memif with dpdk-testpmd reflecting: echoes on the RX chart, latency and its histogram."""
        # Its browser on CPU 1 (below) started before testpmd polls there.
        prestart("chromium", {1})
        port = free_port()
        p, sock, refl, c = self.serve_memif(extra=("--http", str(port)))
        self.assertTrue(wait_for(lambda: self.listening(port), START_S))
        time.sleep(0.3)
        c.load(yaml_stream(rate="50 kpps", size=128, extra="    latency: true\n"),
               name="echo.yaml")
        c.start()
        # Both CPUs have a busy poller: the browser shares the reflector's (CPU 1), so
        # that what wirerate sends is not disturbed; 50 kpps, so that memif's ring (16 K
        # frames: 330 ms) rides out the reflector's time off the CPU without pushing back.
        a = Page(self, port, cpus={1}, name="m")
        ok = wait_for(lambda: (a.number('[data-row="stream:s"] [data-col="rx_kpps"]') or 0) > 0, WAIT_S)
        self.assertTrue(ok, (a.text("#streams-table"), {k: v for k, v in c.stats()["streams"][0].items() if k != "histogram"}))
        page_interval(self, a, '[data-row="stream:s"] [data-col="tx_kpps"]', c)
        self.assertTrue(a.qa('#chart-rx polyline[data-series="stream:s"]'))
        # The dark theme (the default without a preference) and the last minute, for
        # the picture in the README.
        a.q("#theme").click()
        self.assertEqual(a.d.execute_script("return document.documentElement.dataset.theme"),
                         "dark")
        from selenium.webdriver.support.ui import Select
        Select(a.q("#chart-window")).select_by_value("60")
        a.settle()
        a.shot("memif-traffic")
        a.view("latency")
        a.wait(lambda: len(a.qa("#chart-hist rect.bar")) > 0, "no histogram drawn")
        # The second cell: the echoes received.
        a.wait(lambda: (a.text('[data-row="latency:s"] td:nth-of-type(2)') or "0") != "0",
               "no echoes in the latency table")
        st = c.stats()
        self.assertGreater(st["streams"][0]["latency_ns"]["n"], 0)
        a.shot("memif-latency")
        c.stop()
        self.assertEqual(a.errors(), [])


class Firefox(Checks, WebCase):
    """The same checks in headless Firefox (Debian's firefox-esr, through its Marionette
    protocol: test/integration/wrfirefox.py)."""

    browser = "firefox"


if __name__ == "__main__":
    unittest.main()
