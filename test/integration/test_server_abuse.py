# SPDX-License-Identifier: BSD-3-Clause
"""wirerate serve against clients that do not play by the rules: a flood of TCP connections
that never log in, wrong tokens as fast as a script can send them, a client acting as
another's session, clients that send and never read.  Each asserts what the others still
get (answers in milliseconds, memory bounded) and prints what it measured."""

import json
import os
import re
import socket
import statistics
import subprocess
import sys
import time
import unittest

from wrtest import ROOT, WIRERATE, wait_for
from test_server import ServerCase, stream

sys.path.insert(0, os.path.join(ROOT, "python"))
import wirerate  # noqa: E402
from wirerate import RpcError  # noqa: E402

TOKEN = "0123456789abcdef0123"
INFO = b'{"jsonrpc": "2.0", "id": 1, "method": "server.info"}\n'


def free_tcp_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def timed(fn):
    t0 = time.monotonic()
    r = fn()
    return r, time.monotonic() - t0


class Abuse(ServerCase):

    def tcp_server(self, extra=()):
        token = self.write("token", TOKEN + "\n")
        os.chmod(token, 0o600)
        port = free_tcp_port()
        p, sock = self.serve(extra=("--listen", str(port), "--token-file", token, *extra))
        return p, sock, port, token

    def logs(self, p):
        """Everything the server printed, once it has stopped."""
        p.send_signal(2)
        out, err = p.communicate(timeout=10)
        return out + err

    def test_preauth_flood(self):
        """Connections that never log in fill a pool of their own and are closed after the
        login deadline; the Unix socket and TCP clients that log in still get in at once."""
        p, sock, port, token = self.tcp_server(extra=("--max-clients", "64"))
        logged = wirerate.Client(host="127.0.0.1", port=port, token_file=token).connect()
        self.addCleanup(logged.close)
        flood = []
        t0 = time.monotonic()
        for _ in range(400):  # each sends one line, then holds its connection
            s = socket.create_connection(("127.0.0.1", port), 5)
            s.sendall(INFO)
            flood.append(s)
        for s in flood:
            self.addCleanup(s.close)
        flood_s = time.monotonic() - t0
        u = wirerate.Client(sock, timeout=5).connect()
        self.addCleanup(u.close)
        r, unix_s = timed(u.info)
        self.assertEqual(r["name"], "wirerate")
        r, tcp_s = timed(logged.info)
        self.assertEqual(r["name"], "wirerate")
        late, login_s = timed(lambda: wirerate.Client(host="127.0.0.1", port=port,
                                                      token_file=token, timeout=5).connect())
        self.addCleanup(late.close)
        self.assertEqual(late.info()["name"], "wirerate")
        print(f"\npre-auth flood of {len(flood)} connections in {flood_s:.2f} s: "
              f"unix server.info {unix_s * 1e3:.1f} ms, logged-in TCP {tcp_s * 1e3:.1f} ms, "
              f"a new login {login_s * 1e3:.1f} ms")
        for dt in (unix_s, tcp_s, login_s):
            self.assertLess(dt, 1.0)
        # Every flood connection is closed by the login deadline (doc/api.md: 3 s).
        t0 = time.monotonic()

        def closed(s):
            s.settimeout(max(0.1, 6 - (time.monotonic() - t0)))
            try:
                while s.recv(65536):
                    pass
            except (socket.timeout, ConnectionResetError):
                return False if time.monotonic() - t0 >= 6 else True
            return True
        self.assertTrue(all(closed(s) for s in flood), "pre-auth connections left open")
        print(f"all closed {time.monotonic() - t0:.2f} s after the flood")
        self.assertIsNone(p.poll())

    def test_failed_logins(self):
        """Wrong tokens: a few are checked, then the address backs off (its logins are
        refused unchecked); a line per source address, then a summary, not a line each."""
        p, sock, port, token = self.tcp_server()
        checked = refused = 0
        end = time.monotonic() + 2.0
        while time.monotonic() < end:
            s = socket.create_connection(("127.0.0.1", port), 5)
            s.sendall(b'{"jsonrpc": "2.0", "id": 1, "method": "auth.login", '
                      b'"params": {"token": "guess-guess-guess-1"}}\n')
            with s, s.makefile() as f:
                line = f.readline()
            err = json.loads(line)["error"]
            self.assertEqual(err["code"], -32005)
            if err["message"] == "wrong token":
                checked += 1
            else:
                self.assertRegex(err["message"], r"too many failed logins")
                refused += 1
        print(f"\n2 s of wrong tokens: {checked} checked, {refused} refused unchecked")
        self.assertGreater(refused, 0)
        self.assertLessEqual(checked, 10)
        # The right token is refused too while the address backs off: it is not checked.
        c = wirerate.Client(host="127.0.0.1", port=port, token_file=token)
        self.addCleanup(c.close)
        with self.assertRaises(RpcError) as e:
            c.connect()
        self.assertIn("too many failed logins", e.exception.message)
        self.assertGreater(e.exception.data["retry_after_s"], 0)
        # The Unix socket is not affected.
        with wirerate.Client(sock).connect() as u:
            self.assertEqual(u.info()["name"], "wirerate")
        time.sleep(5.5)  # one summary period
        log = self.logs(p)
        lines = [l for l in log.splitlines() if "login" in l]
        print("\n".join(lines))
        self.assertRegex(log, r"failed login from 127\.0\.0\.1:\d+")
        self.assertRegex(log, r"\d+ failed logins? in the last [\d.]+ s .*127\.0\.0\.1")
        self.assertLess(len(lines), 10, log)

    def test_impersonation(self):
        """A session is bound to the secret the server gave its owner: its name, which
        anyone reads from ports.info, is not enough to act as it."""
        p, sock = self.serve()
        alice = wirerate.connect(sock, session="alice")
        self.addCleanup(alice.close)
        alice.load(stream(rate="100 kpps"))
        alice.start()
        self.assertTrue(alice.secret)
        m = self.client(sock)
        self.assertEqual(m.ports()[0]["owner"], "alice")
        for params in ({"session": "alice"}, {"session": "alice", "force": True},
                       {"session": "alice", "secret": "0" * 32}):
            with self.assertRaises(RpcError) as e:
                m.call("ports.acquire", **params)
            self.assertEqual(e.exception.code, -32001, params)
            self.assertIn("secret", e.exception.message)
        with self.assertRaises(RpcError) as e:
            m.stop()
        self.assertEqual(e.exception.code, -32001)
        self.assertEqual(m.stats()["state"], "running")
        seen = json.dumps([m.info(), m.ports(), m.events(since=0), m.stats(), m.streams()])
        self.assertNotIn(alice.secret, seen)
        # Another process of alice's, with her secret, acts as her session.
        again = self.client(sock, session="alice", secret=alice.secret)
        self.assertEqual(again.acquire(ports=[])["session"], "alice")
        again.update(rate="200 kpps")
        # The console acts as her session only with her secret (in the environment).
        con = [WIRERATE, "console", "--socket", sock, "--session", "alice", "-c", "acquire"]
        env = {k: v for k, v in os.environ.items() if k != "WIRERATE_SECRET"}
        r = subprocess.run(con, capture_output=True, text=True, timeout=30, env=env)
        self.assertIn('error: session "alice" is another client\'s', r.stdout)
        r = subprocess.run(con + ["-c", "update 150 kpps"], capture_output=True, text=True,
                           timeout=30, env=dict(env, WIRERATE_SECRET=alice.secret))
        self.assertIn("'session': 'alice'", r.stdout)
        self.assertRegex(r.stdout, r"s\s+port 0 running\s+150.000 kpps")
        # alice's own client reconnects into her session without a change of code.
        alice.close()
        self.assertEqual(alice.stop()["state"], "done")
        self.assertEqual(alice.ports()[0]["owner"], "alice")

    def test_non_readers(self):
        """Twelve clients send requests and never read the replies: another client's
        server.info still answers in milliseconds and the server's memory stays bounded.
        (Its socket path held a socket left by a server that died: replaced.)"""
        stale = socket.socket(socket.AF_UNIX)
        stale.bind(self.path("a.sock"))
        stale.close()
        os.chmod(self.path("a.sock"), 0o600)
        p, sock = self.serve()

        def answers():
            try:
                with wirerate.Client(sock, timeout=5).connect() as c:
                    return c.info()["name"] == "wirerate"
            except OSError:
                return False
        self.assertTrue(wait_for(answers, 20), "the server did not replace the dead socket")
        owner = wirerate.connect(sock)
        self.addCleanup(owner.close)
        owner.load(stream(rate="100 kpps", extra="latency: true", size=128))
        owner.start()
        probe = self.client(sock)
        base = [timed(probe.info)[1] for _ in range(20)]
        rss0 = rss_kb(p.pid)
        floods = []
        for _ in range(12):
            s = socket.socket(socket.AF_UNIX)
            s.connect(sock)
            s.setblocking(False)
            self.addCleanup(s.close)
            floods.append(s)
        req = b'{"jsonrpc": "2.0", "id": 1, "method": "stats.get", ' \
              b'"params": {"histogram": true}}\n' * 500
        lat = []
        sent = 0
        end = time.monotonic() + 3.0
        while time.monotonic() < end:
            for s in floods:
                try:
                    sent += s.send(req)
                except (BlockingIOError, BrokenPipeError, ConnectionResetError):
                    pass
            lat.append(timed(probe.info)[1])
        rss1 = rss_kb(p.pid)
        lat.sort()
        print(f"\n12 non-readers sent {sent >> 20} MiB of requests in 3 s: server.info "
              f"before {statistics.median(base) * 1e3:.2f} ms median; during: "
              f"{len(lat)} calls, median {statistics.median(lat) * 1e3:.2f} ms, "
              f"p99 {lat[int(len(lat) * 0.99)] * 1e3:.1f} ms, max {lat[-1] * 1e3:.1f} ms; "
              f"RSS {rss0 >> 10} -> {rss1 >> 10} MiB")
        self.assertLess(statistics.median(lat), 0.05)
        # A server blocked on a non-reader never answers (the client gives up after 5 s);
        # one that answers late was only preempted (97 ms beside two busy loops).
        self.assertLess(lat[-1], 2.5)
        self.assertLess(rss1 - rss0, 64 << 10)
        self.assertEqual(owner.stop()["state"], "done")


if __name__ == "__main__":
    unittest.main()
