# SPDX-License-Identifier: BSD-3-Clause
"""The TCP programs' HTTP bytes against real peers over the loopback (kernel sockets, no EAL):
wirerate's client (tcp_app_sock, wr_tcp_app) against python3 -m http.server (HTTP/1.0 and 1.1),
nginx and a chunked python server; curl and wget against wirerate's server, the bodies' sha256
equal to doc/tcp.md's pattern's."""

import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest

SOCK = os.environ.get("WR_TCP_APP_SOCK", "")


def pattern(n):
    """doc/tcp.md: byte i of a body is i % 251."""
    return (bytes(range(251)) * (n // 251 + 1))[:n]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, proc, secs=10):
    end = time.monotonic() + secs
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited: {proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


def client(port, *keys):
    p = subprocess.run([SOCK, "client", str(port), *keys], capture_output=True, text=True,
                       timeout=30)
    if p.returncode != 0:
        raise AssertionError(f"tcp_app_sock: {p.returncode} {p.stderr}")
    return json.loads(p.stdout)


CHUNKED = r'''
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        self.send_response(200)
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Trailer", "X-Sum")
        self.end_headers()
        for piece in (b"a" * 10, b"b" * 4000, b"c"):
            self.wfile.write(b"%x;ext=1\r\n" % len(piece) + piece + b"\r\n")
        self.wfile.write(b"0\r\nX-Sum: 4011\r\n\r\n")
    def log_message(self, *a):
        pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
'''


@unittest.skipUnless(SOCK, "WR_TCP_APP_SOCK: the tcp_app_sock binary")
class ClientAgainstServers(unittest.TestCase):
    """wirerate's HTTP client against servers we did not write."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="wr-app-")
        with open(os.path.join(self.dir, "f"), "wb") as f:
            f.write(pattern(100000))
        self.procs = []

    def tearDown(self):
        for p in self.procs:
            p.kill()
            p.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    def serve(self, args, port):
        p = subprocess.Popen(args, cwd=self.dir, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        self.procs.append(p)
        wait_port(port, p)

    def test_python_http10(self):
        port = free_port()
        self.serve([sys.executable, "-m", "http.server", "-b", "127.0.0.1", str(port)], port)
        r = client(port, "path=/f")
        self.assertEqual((r["responses"], r["status"], r["done"], r["close"]),
                         (1, 200, 1, "fin"), r)
        self.assertGreater(r["received"], 100000)
        # Three requests asked, the HTTP/1.0 server closes after one: the program's
        # close path, not a hang, not done.
        r = client(port, "path=/f", "requests=3")
        self.assertEqual((r["requests"], r["responses"], r["done"], r["close"]),
                         (1, 1, 0, "fin"), r)
        r = client(port, "path=/nothing")
        self.assertEqual((r["status"], r["done"]), (404, 1), r)

    def test_python_http11_keepalive(self):
        port = free_port()
        self.serve([sys.executable, "-m", "http.server", "-p", "HTTP/1.1", "-b", "127.0.0.1",
                    str(port)], port)
        r = client(port, "path=/f", "requests=5", "think_ns=1000000")
        self.assertEqual((r["requests"], r["responses"], r["status"], r["done"], r["close"]),
                         (5, 5, 200, 1, "fin"), r)

    def test_python_chunked(self):
        port = free_port()
        self.serve([sys.executable, "-c", CHUNKED, str(port)], port)
        r = client(port, "requests=3")
        self.assertEqual((r["requests"], r["responses"], r["status"], r["done"], r["close"]),
                         (3, 3, 200, 1, "fin"), r)

    @unittest.skipUnless(os.path.exists("/usr/sbin/nginx"), "nginx")
    def test_nginx(self):
        port = free_port()
        conf = os.path.join(self.dir, "nginx.conf")
        with open(conf, "w") as f:
            f.write(f"""daemon off; master_process off; pid {self.dir}/nginx.pid;
error_log {self.dir}/error.log;
events {{ worker_connections 64; }}
http {{ access_log off; client_body_temp_path {self.dir}; proxy_temp_path {self.dir};
  fastcgi_temp_path {self.dir}; uwsgi_temp_path {self.dir}; scgi_temp_path {self.dir};
  server {{ listen 127.0.0.1:{port}; root {self.dir}; keepalive_requests 1000; }} }}
""")
        self.serve(["/usr/sbin/nginx", "-c", conf, "-p", self.dir], port)
        r = client(port, "path=/f", "requests=10")
        self.assertEqual((r["requests"], r["responses"], r["status"], r["done"], r["close"]),
                         (10, 10, 200, 1, "fin"), r)
        r = client(port, "path=/f", "requests=2", "close_by_server=1")
        self.assertEqual((r["responses"], r["done"], r["close"]), (2, 1, "fin"), r)
        r = client(port, "path=/f", "method=HEAD", "requests=3")
        self.assertEqual((r["responses"], r["status"], r["done"]), (3, 200, 1), r)
        r = client(port, "path=/none", "requests=2")
        self.assertEqual((r["responses"], r["status"], r["status_classes"][4], r["done"]),
                         (2, 404, 2, 1), r)
        # A POST with a body nginx's static module refuses (405) and reads.
        r = client(port, "path=/f", "method=POST", "request_body=5000")
        self.assertEqual((r["responses"], r["status"], r["done"]), (1, 405, 1), r)


@unittest.skipUnless(SOCK, "WR_TCP_APP_SOCK: the tcp_app_sock binary")
class ServerForClients(unittest.TestCase):
    """curl and wget against wirerate's HTTP server: the bodies are the pattern."""

    def start(self, conns, *keys):
        self.srv = subprocess.Popen([SOCK, "server", "0", str(conns), *keys],
                                    stdout=subprocess.PIPE, text=True)
        self.port = int(self.srv.stdout.readline())
        self.dir = tempfile.mkdtemp(prefix="wr-app-")

    def results(self):
        out, _ = self.srv.communicate(timeout=30)
        return [json.loads(line) for line in out.splitlines()]

    def tearDown(self):
        if self.srv.poll() is None:
            self.srv.kill()
            self.srv.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    def sha(self, path):
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()

    @unittest.skipUnless(shutil.which("curl"), "curl")
    def test_curl(self):
        n = 123457
        self.start(3, f"response_body={n}")
        url = f"http://127.0.0.1:{self.port}/x"
        a, b = os.path.join(self.dir, "a"), os.path.join(self.dir, "b")
        # Two URLs: one connection, kept alive.
        subprocess.run(["curl", "-sSf", "-o", a, url, "-o", b, url], check=True, timeout=30)
        want = hashlib.sha256(pattern(n)).hexdigest()
        self.assertEqual((self.sha(a), self.sha(b)), (want, want))
        # HTTP/1.0, and an upload of a body.
        subprocess.run(["curl", "-sSf", "-0", "-o", a, url], check=True, timeout=30)
        self.assertEqual(self.sha(a), want)
        with open(b, "wb") as f:
            f.write(os.urandom(70000))
        subprocess.run(["curl", "-sSf", "-o", a, "--data-binary", "@" + b, url], check=True,
                       timeout=30)
        self.assertEqual(self.sha(a), want)
        res = self.results()
        self.assertEqual([(r["requests"], r["responses"], r["done"], r["close"]) for r in res],
                         [(2, 2, 1, "fin"), (1, 1, 1, "fin"), (1, 1, 1, "fin")], res)

    @unittest.skipUnless(shutil.which("wget"), "wget")
    def test_wget(self):
        self.start(1, "response_body=5000", "status=201")
        a = os.path.join(self.dir, "a")
        subprocess.run(["wget", "-q", "-O", a, f"http://127.0.0.1:{self.port}/"], check=True,
                       timeout=30)
        self.assertEqual(self.sha(a), hashlib.sha256(pattern(5000)).hexdigest())
        res = self.results()
        self.assertEqual([(r["requests"], r["done"], r["close"]) for r in res],
                         [(1, 1, "fin")], res)

    @unittest.skipUnless(shutil.which("curl"), "curl")
    def test_close_by_server(self):
        self.start(1, "response_body=10", "requests=1", "close_by_server=1")
        a = os.path.join(self.dir, "a")
        p = subprocess.run(["curl", "-sSf", "-v", "-o", a, f"http://127.0.0.1:{self.port}/"],
                           check=True, timeout=30, capture_output=True, text=True)
        self.assertIn("Connection:      close", p.stderr)
        self.assertEqual(self.sha(a), hashlib.sha256(pattern(10)).hexdigest())
        self.assertEqual([(r["requests"], r["done"], r["close"]) for r in self.results()],
                         [(1, 1, "fin")])


if __name__ == "__main__":
    unittest.main()
