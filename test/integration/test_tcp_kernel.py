# SPDX-License-Identifier: BSD-3-Clause
"""wirerate's TCP against the Linux kernel's, over a veth pair (wirerate on net_af_packet, the
kernel in a namespace of the test's): curl, wget, Python's http.client, nc and socat against
wirerate's servers; wirerate's clients against `python3 -m http.server`, nginx, `nc -l` and
socat.  The bytes are checked by sha256 against doc/tcp.md's pattern computed here, and every
connection count against the kernel's own (nstat in the namespace) and the peers' logs."""

import os
import shutil
import subprocess
import unittest

from wrtcp import (TcpNsCase, class_counters, file_sha256, pattern, pattern_sha256,
                   SCAPY_PYTHON)
from wrtest import kill, wait_for


def status_count(c, hundreds):
    """Responses of class @hundreds (2 = 2xx) in a side's counters (wr_tcp_counters_each's
    http_1xx..http_5xx)."""
    return c[f"http_{hundreds}xx"]


def quiet(c):
    """The failure counters of a side, all of which a clean run leaves at 0."""
    return {k: c[k] for k in ("failed_refused", "failed_timeout", "failed_reset",
                              "failed_other", "app_errors")}


ZERO_FAILS = {"failed_refused": 0, "failed_timeout": 0, "failed_reset": 0, "failed_other": 0,
              "app_errors": 0}

# (class, port, body bytes, connections curl opens to it)
HTTP_CLASSES = (("h64", 80, 64, 3), ("h100k", 8080, 100000, 2), ("h4m", 8081, 4 << 20, 1))
KA_PORT, KA_BODY, KA_REQS = 8082, 1000, 3
RAW_PORT, RAW_UP, RAW_DOWN = 9000, 300000, 500000


class WirerateServes(TcpNsCase):
    """wirerate's servers (a hosts group of one address) for the kernel's clients."""

    def classes(self):
        y = ""
        for name, port, body, _ in HTTP_CLASSES:
            y += f"""  - name: {name}
    server: {{hosts: w, port: {port}}}
    concurrency: 64
    http: {{status: 200, body: {body}}}
"""
        y += f"""  - name: ka
    server: {{hosts: w, port: {KA_PORT}}}
    concurrency: 64
    http: {{body: {KA_BODY}, requests: {KA_REQS}}}
  - name: raw
    server: {{hosts: w, port: {RAW_PORT}}}
    concurrency: 64
    program:
      - send: {RAW_UP}
      - recv: {RAW_DOWN}
      - close: {{by: server, with: fin}}
"""
        return y

    def url(self, port, path="/"):
        return f"http://{self.W4}:{port}{path}"

    def fetch(self, argv, out):
        p = self.nsrun(*argv, timeout=60, text=True)
        self.assertEqual(p.returncode, 0, f"{argv}: {p.stdout}{p.stderr}")
        self.assertTrue(os.path.exists(out), argv)
        return file_sha256(out)

    def test_http_clients(self):
        """curl (3, 2 and 1 connections to bodies of 64 B, 100,000 B and 4 MiB), wget and
        Python's http.client fetch bodies whose sha256 is the pattern's; curl fetches three
        URLs over one kept-alive connection.  Every connection the kernel opened
        (TcpActiveOpens) is one wirerate's servers established and closed; no resets either
        way (TcpEstabResets, TcpOutRsts)."""
        for tool in ("curl", "wget"):
            if shutil.which(tool) is None:
                self.fail(f"{tool} is needed (tools/lib/common.sh)")
        gen = self.start_wr(self.stream_file(self.classes()))
        before = self.nstat()
        want = {}
        conns = 0
        try:
            for name, port, body, n in HTTP_CLASSES:
                for k in range(n):
                    out = self.path(f"{name}-{k}.curl")
                    got = self.fetch(["curl", "-sS", "--fail", "--max-time", "30", "-o", out,
                                      self.url(port)], out)
                    self.assertEqual(got, pattern_sha256(body), f"curl {name} #{k}")
                want[name] = n
                conns += n
            out = self.path("wget.out")
            got = self.fetch(["wget", "-q", "-T", "30", "-t", "1", "-O", out,
                              self.url(8080)], out)
            self.assertEqual(got, pattern_sha256(100000), "wget")
            want["h100k"] += 1
            conns += 1
            # http.client: a request of its own (HTTP/1.1, Host, Accept-Encoding: identity).
            out = self.path("py.out")
            script = ("import http.client,sys\n"
                      f"c=http.client.HTTPConnection('{self.W4}',80,timeout=30)\n"
                      "c.request('GET','/py')\nr=c.getresponse()\n"
                      "assert r.status==200,r.status\n"
                      f"open('{out}','wb').write(r.read())\nc.close()\n")
            got = self.fetch([SCAPY_PYTHON, "-c", script], out)
            self.assertEqual(got, pattern_sha256(64), "http.client")
            want["h64"] += 1
            conns += 1
            # Keep-alive: three requests on one connection (curl reuses it).
            outs = [self.path(f"ka{k}.out") for k in range(KA_REQS)]
            argv = ["curl", "-sS", "--fail", "--max-time", "30"]
            for o in outs:
                argv += ["-o", o, self.url(KA_PORT, f"/{os.path.basename(o)}")]
            p = self.nsrun(*argv, "-w", "%{num_connects}\n", text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(sum(int(x) for x in p.stdout.split()), 1,
                             f"curl opened more than one connection: {p.stdout}")
            for o in outs:
                self.assertEqual(file_sha256(o), pattern_sha256(KA_BODY), o)
            conns += 1
            after = self.nstat()
            # Nothing left open or orphaned on the kernel's side (ss -s).
            ss = self.ss_tcp()
            self.assertEqual((ss["estab"], ss["orphaned"]), (0, 0), ss)
        finally:
            _, res = self.stop_wr(gen)
        d = self.delta(before, after)
        self.assertEqual((d["TcpActiveOpens"], d["TcpEstabResets"], d["TcpOutRsts"],
                          d["TcpAttemptFails"]), (conns, 0, 0, 0), d)
        total = 0
        for name, _, _, _ in HTTP_CLASSES:
            c = class_counters(res, name, "server")
            n = want[name]
            total += c["attempted"]
            # Statuses are counted where responses are read (doc/tcp.md): by clients.
            self.assertEqual((c["attempted"], c["established"], c["closed"],
                              c["http_requests"], c["http_responses"]),
                             (n, n, n, n, n), (name, c))
            self.assertEqual(quiet(c), ZERO_FAILS, (name, c))
            self.assertEqual(c["active"], 0, (name, c))
        c = class_counters(res, "ka", "server")
        total += c["attempted"]
        self.assertEqual((c["attempted"], c["established"], c["closed"], c["http_requests"],
                          c["http_responses"]), (1, 1, 1, KA_REQS, KA_REQS), c)
        self.assertEqual(quiet(c), ZERO_FAILS, c)
        self.assertEqual(total, d["TcpActiveOpens"], "wirerate's servers' connections are "
                         "not the kernel's")

    def test_raw_nc_socat(self):
        """nc and socat send 300,000 pattern bytes to wirerate's raw server and read its
        500,000 (the pattern) until it closes: sha256 of what each saved is the pattern's; the
        server took 600,000 bytes as the pattern (app_errors 0) and sent 1,000,000."""
        for tool in ("nc", "socat"):
            if shutil.which(tool) is None:
                self.fail(f"{tool} is needed (tools/lib/common.sh)")
        up = self.path("up.bin")
        with open(up, "wb") as f:
            f.write(pattern(RAW_UP))
        gen = self.start_wr(self.stream_file(self.classes()))
        before = self.nstat()
        try:
            outs = {}
            for tool, cmd in (
                    ("nc", f"nc -w 30 {self.W4} {RAW_PORT}"),
                    ("socat", f"socat -t 30 - TCP:{self.W4}:{RAW_PORT},shut-none")):
                out = self.path(f"{tool}.out")
                p = self.nsrun("sh", "-c", f"{cmd} < {up} > {out}", text=True, timeout=60)
                self.assertEqual(p.returncode, 0, f"{tool}: {p.stderr}")
                outs[tool] = out
            after = self.nstat()
            ss = self.ss_tcp()
            self.assertEqual((ss["estab"], ss["orphaned"]), (0, 0), ss)
        finally:
            _, res = self.stop_wr(gen)
        for tool, out in outs.items():
            self.assertEqual(os.path.getsize(out), RAW_DOWN, tool)
            self.assertEqual(file_sha256(out), pattern_sha256(RAW_DOWN), tool)
        d = self.delta(before, after)
        self.assertEqual((d["TcpActiveOpens"], d["TcpEstabResets"], d["TcpOutRsts"]),
                         (2, 0, 0), d)
        c = class_counters(res, "raw", "server")
        self.assertEqual((c["attempted"], c["established"], c["closed"], c["rx_bytes"],
                          c["tx_bytes"]), (2, 2, 2, 2 * RAW_UP, 2 * RAW_DOWN), c)
        self.assertEqual(quiet(c), ZERO_FAILS, c)


FILE_BYTES = 200000


class WirerateConnects(TcpNsCase):
    """wirerate's clients (source ports 20000..29999 of W4) against the kernel's servers."""

    def client_class(self, name, port, count, body, rate=100, extra=""):
        return f"""  - name: {name}
    client: {{hosts: w, sport: [20000, 29999]}}
    server: {{addr: [{self.K4}], port: {port}}}
    rate: {rate}
    count: {count}
{body}{extra}"""

    def test_http_python_server(self):
        """20 GETs of a 200,000-byte file from `python3 -m http.server` (HTTP/1.0: it closes
        after each response): 20 connections established and closed, 20 200s; the server's log
        has 20 GETs, the kernel 20 passive opens and no reset; what the clients took is 20
        times the response a plain socket read (head and file)."""
        d = self.path("www")
        os.makedirs(d)
        with open(os.path.join(d, "f.bin"), "wb") as f:
            f.write(os.urandom(FILE_BYTES))
        log = self.path("httpd.log")
        srv = self.peer("http.server", ["ip", "netns", "exec", self.ns, SCAPY_PYTHON, "-u", "-m",
                                        "http.server", "8000", "--bind", self.K4,
                                        "--directory", d])
        self.assertTrue(wait_for(lambda: "Serving HTTP" in srv.log(), 10), srv.log())
        # One response read whole by a plain socket: its length is what each of wirerate's
        # clients must take (http.server's head has a fixed length: its Date is RFC 7231's).
        one = self.nsrun(SCAPY_PYTHON, "-c", (
            "import socket\n"
            f"s=socket.create_connection(('{self.K4}',8000))\n"
            f"s.sendall(b'GET /f.bin HTTP/1.1\\r\\nHost: {self.K4}:8000\\r\\n\\r\\n')\n"
            "n=0\nwhile True:\n d=s.recv(65536)\n if not d: break\n n+=len(d)\nprint(n)\n"),
            text=True)
        self.assertEqual(one.returncode, 0, one.stderr)
        resp = int(one.stdout)
        self.assertGreater(resp, FILE_BYTES)
        before = self.nstat()
        sf = self.stream_file(self.client_class(
            "py", 8000, 20, "    http: {method: GET, path: /f.bin}\n", rate=50))
        p, res = self.run_wr(sf, timeout=90)
        after = self.nstat()
        kill(srv)
        gets = [ln for ln in srv.log().splitlines() if '"GET /f.bin HTTP/1.1" 200' in ln]
        self.assertEqual(len(gets), 21, srv.log()[-2000:])  # ours and the socket's
        c = class_counters(res, "py", "client")
        self.assertEqual((c["attempted"], c["established"], c["closed"], c["http_requests"],
                          c["http_responses"], status_count(c, 2)), (20,) * 6, c)
        self.assertEqual(quiet(c), ZERO_FAILS, c)
        self.assertEqual(c["rx_bytes"], 20 * resp, c)
        dd = self.delta(before, after)
        self.assertEqual((dd["TcpPassiveOpens"], dd["TcpEstabResets"], dd["TcpOutRsts"]),
                         (20, 0, 0), dd)

    def test_http_nginx_keepalive(self):
        """10 connections of 3 GETs each (keep-alive) to nginx-light serving a 200,000-byte
        file: 30 responses; nginx's access log has 30 lines of 200 with 200,000 body bytes
        and 10 distinct client ports; the kernel 10 passive opens and no reset."""
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        if not os.path.exists(nginx):
            self.fail("nginx is needed (nginx-light, tools/lib/common.sh)")
        root = self.path("www")
        os.makedirs(root)
        with open(os.path.join(root, "f.bin"), "wb") as f:
            f.write(os.urandom(FILE_BYTES))
        conf = self.write("nginx.conf", f"""daemon off;
master_process off;
worker_processes 1;
pid {self.path("nginx.pid")};
error_log {self.path("error.log")} info;
events {{ worker_connections 256; }}
http {{
    log_format conn '$remote_port $status $body_bytes_sent $request';
    access_log {self.path("conn.log")} conn;
    client_body_temp_path {self.tmp};
    proxy_temp_path {self.tmp};
    fastcgi_temp_path {self.tmp};
    uwsgi_temp_path {self.tmp};
    scgi_temp_path {self.tmp};
    keepalive_requests 100;
    server {{
        listen {self.K4}:8001;
        root {root};
    }}
}}
""")
        srv = self.peer("nginx", ["ip", "netns", "exec", self.ns, nginx, "-c", conf, "-p",
                                  self.tmp, "-e", self.path("error.log")])
        self.assertTrue(wait_for(lambda: os.path.exists(self.path("nginx.pid"))
                                 or srv.poll() is not None, 10), srv.log())
        before = self.nstat()
        sf = self.stream_file(self.client_class(
            "ng", 8001, 10, "    http: {method: GET, path: /f.bin, requests: 3}\n", rate=50))
        p, res = self.run_wr(sf, timeout=90)
        after = self.nstat()
        kill(srv)
        with open(self.path("conn.log")) as f:
            lines = [ln.split() for ln in f.read().splitlines()]
        self.assertEqual(len(lines), 30, lines)
        self.assertTrue(all(ln[1] == "200" and ln[2] == str(FILE_BYTES) for ln in lines), lines)
        ports = {ln[0] for ln in lines}
        self.assertEqual(len(ports), 10, lines)
        self.assertTrue(all(20000 <= int(x) <= 29999 for x in ports), ports)
        c = class_counters(res, "ng", "client")
        self.assertEqual((c["attempted"], c["established"], c["closed"]), (10, 10, 10), c)
        self.assertEqual((c["http_requests"], c["http_responses"], status_count(c, 2)),
                         (30, 30, 30), c)
        self.assertEqual(quiet(c), ZERO_FAILS, c)
        dd = self.delta(before, after)
        self.assertEqual((dd["TcpPassiveOpens"], dd["TcpEstabResets"], dd["TcpOutRsts"]),
                         (10, 0, 0), dd)

    def test_raw_to_nc(self):
        """One connection sends 3,000,000 pattern bytes and closes with FIN to `nc -l`: what
        nc wrote has the pattern's sha256; then a data file's 1,000,000 random bytes: what nc
        wrote is that file."""
        for n, data, want in ((3000000, "pattern", pattern_sha256(3000000)),
                              (1000000, None, None)):
            if data is None:
                src = self.path("data.bin")
                with open(src, "wb") as f:
                    f.write(os.urandom(n))
                data = f"{{file: {src}}}"
                want = file_sha256(src)
            out = self.path(f"nc-{n}.out")
            nc = self.peer("nc", ["ip", "netns", "exec", self.ns, "sh", "-c",
                                  f"exec nc -l -s {self.K4} -p 1234 > {out}"])
            self.assertTrue(wait_for(lambda: ":1234 " in self.nsx("ss", "-ltn"), 10))
            before = self.nstat()
            sf = self.stream_file(self.client_class(
                "up", 1234, 1, f"""    program:
      - send: {n}
      - close: fin
    data: {data}
""", rate=10))
            p, res = self.run_wr(sf, timeout=90)
            self.assertTrue(wait_for(lambda: nc.poll() is not None, 10), "nc did not end")
            after = self.nstat()
            self.assertEqual(os.path.getsize(out), n)
            self.assertEqual(file_sha256(out), want)
            c = class_counters(res, "up", "client")
            self.assertEqual((c["attempted"], c["established"], c["closed"], c["tx_bytes"]),
                             (1, 1, 1, n), c)
            self.assertEqual(quiet(c), ZERO_FAILS, c)
            dd = self.delta(before, after)
            self.assertEqual((dd["TcpPassiveOpens"], dd["TcpEstabResets"], dd["TcpOutRsts"]),
                             (1, 0, 0), dd)

    def test_raw_to_socat_fork(self):
        """10 connections of 200,000 pattern bytes each to socat (a process per connection,
        each writing the sha256 of what it read): 10 sums, each the pattern's, from 10
        client ports; the kernel 10 passive opens."""
        if shutil.which("socat") is None:
            self.fail("socat is needed (tools/lib/common.sh)")
        d = self.path("sums")
        os.makedirs(d)
        srv = self.peer("socat", ["ip", "netns", "exec", self.ns, "socat",
                                  f"TCP-LISTEN:1235,bind={self.K4},reuseaddr,fork",
                                  f"SYSTEM:'sha256sum > {d}/$SOCAT_PEERPORT.sum'"])
        self.assertTrue(wait_for(lambda: ":1235 " in self.nsx("ss", "-ltn"), 10), srv.log())
        before = self.nstat()
        n = 200000
        sf = self.stream_file(self.client_class("fan", 1235, 10, f"""    program:
      - send: {n}
      - close: fin
""", rate=20))
        p, res = self.run_wr(sf, timeout=90)
        self.assertTrue(wait_for(lambda: len(os.listdir(d)) == 10 and all(
            os.path.getsize(os.path.join(d, x)) > 0 for x in os.listdir(d)), 10),
            os.listdir(d))
        after = self.nstat()
        kill(srv)
        want = pattern_sha256(n)
        sums = {}
        for x in os.listdir(d):
            with open(os.path.join(d, x)) as f:
                sums[x] = f.read().split()[0]
        self.assertEqual(sorted(sums.values()), [want] * 10, sums)
        c = class_counters(res, "fan", "client")
        self.assertEqual((c["attempted"], c["established"], c["closed"], c["tx_bytes"]),
                         (10, 10, 10, 10 * n), c)
        self.assertEqual(quiet(c), ZERO_FAILS, c)
        dd = self.delta(before, after)
        self.assertEqual((dd["TcpPassiveOpens"], dd["TcpEstabResets"]), (10, 0), dd)


if __name__ == "__main__":
    unittest.main()
