# SPDX-License-Identifier: BSD-3-Clause
"""wirerate run with TCP classes (tcp:) against the Linux kernel: net_af_packet at one end of a
veth pair in a namespace, the kernel at the other.  The smoke cases of the path (lib/dp's lcore
loop, lib/ctl's session): wirerate's HTTP clients against `python3 -m http.server`, its server
against curl.  The peers' own counts judge: the kernel's TcpPassiveOpens (nstat), the HTTP
server's log, the bytes curl wrote.  (test_tcp_kernel.py has the full kernel suite.)"""

import hashlib
import os
import re
import shutil
import signal
import subprocess
import time
import unittest

from wrtest import WIRERATE, EalCase, wait_for

PATTERN_PERIOD = 251  # doc/tcp.md: the pattern's byte i is i % 251


def pattern(n):
    return bytes(i % PATTERN_PERIOD for i in range(n))


@unittest.skipUnless(os.geteuid() == 0, "needs root for a network namespace")
class TcpRun(EalCase):
    """One af_packet port; the kernel in the namespace is the peer (10.77.0.1/24)."""

    K4 = "10.77.0.1"
    CLIENTS = "10.77.0.10"
    SERVER = "10.77.0.20"

    def setUp(self):
        super().setUp()
        for tool in ("ip", "nstat", "ethtool"):
            if shutil.which(tool) is None:
                self.fail(f"{tool} is needed")
        tag = f"{os.getpid() % 100000}"
        self.ns = f"wrdp{tag}"
        self.gen_if, self.k_if = f"dp{tag}g", f"dp{tag}k"
        subprocess.run(["ip", "netns", "del", self.ns], capture_output=True)
        self.sh("ip", "netns", "add", self.ns)
        self.addCleanup(subprocess.run, ["ip", "netns", "del", self.ns], capture_output=True)
        self.nsx("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
                 "net.ipv6.conf.default.disable_ipv6=1")
        self.sh("ip", "-n", self.ns, "link", "set", "lo", "up")
        self.sh("ip", "-n", self.ns, "link", "add", self.gen_if, "type", "veth", "peer", "name",
                self.k_if)
        self.sh("ip", "-n", self.ns, "link", "set", self.gen_if, "up")
        self.sh("ip", "-n", self.ns, "link", "set", self.k_if, "up")
        # The kernel's segments with whole checksums (TESTBED.md): af_packet hands us what the
        # veth carries, and a partial checksum is a bad segment to any other stack.
        self.nsx("ethtool", "-K", self.k_if, "tx", "off")
        self.sh("ip", "-n", self.ns, "addr", "add", self.K4 + "/24", "dev", self.k_if)
        self.prefix = f"dp{tag}"
        self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", self.prefix), True)

    def sh(self, *cmd):
        return subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=30).stdout

    def nsx(self, *cmd):
        return self.sh("ip", "netns", "exec", self.ns, *cmd)

    def prof(self):
        return self.write("k.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={self.prefix}", "--vdev=net_af_packet0,iface={self.gen_if}", "--lcores=0@0,1@1"]
ports:
  - device: net_af_packet0
    tx_lcores: [1]
""")

    def nstat(self, name):
        # -a absolute, -s leave nstat's history alone, -z zeros too.
        out = self.nsx("nstat", "-asz", name)
        m = re.search(name + r"\s+(\d+)", out)
        self.assertIsNotNone(m, out)
        return int(m.group(1))

    def passive_opens(self):
        return self.nstat("TcpPassiveOpens")

    def run_wr(self, streams, duration, timeout=90):
        p = subprocess.run(["ip", "netns", "exec", self.ns, WIRERATE, "run", streams, "--config",
                            self.prof(), "--duration", str(duration), "--json", "r.json"],
                           cwd=self.tmp, capture_output=True, text=True, timeout=timeout)
        self.assertEqual(p.returncode, 0, f"stdout:\n{p.stdout}\nstderr:\n{p.stderr}")
        return p

    def test_http_clients_against_kernel(self):
        """30 connections of wirerate's HTTP clients (4 hosts, at most 4 at once) to python's
        http.server in the namespace, one GET of a 10,000-byte file each: the kernel counts 30
        passive opens, the server logs 30 GETs answered 200, and the run ends by itself
        (its count done) well before --duration."""
        n = 30
        www = self.path("www")
        os.makedirs(www)
        with open(os.path.join(www, "f.bin"), "wb") as f:
            f.write(os.urandom(10000))
        srv = self.peer("http.server", ["ip", "netns", "exec", self.ns, "/usr/bin/python3", "-m",
                                        "http.server", "8080", "--bind", self.K4,
                                        "--directory", www])
        self.assertTrue(wait_for(lambda: "8080" in self.nsx("ss", "-ltn"), 10), srv.log())
        before = self.passive_opens()
        sf = self.write("c.yaml", f"""version: 1
hosts:
  - {{name: c, port: 0, count: 4, mac: "02:77:00:00:00:10", ipv4: {{addr: {self.CLIENTS}, prefix: 24}}}}
tcp:
  - name: web
    client: {{hosts: c}}
    server: {{addr: [{self.K4}], port: 8080}}
    rate: 100
    concurrency: 4
    count: {n}
    http: {{path: /f.bin}}
""")
        t0 = time.monotonic()
        p = self.run_wr(sf, 30)
        took = time.monotonic() - t0
        time.sleep(0.5)
        self.assertEqual(self.passive_opens() - before, n, p.stdout)
        gets = [ln for ln in srv.log(limit=10**6).splitlines() if '"GET /f.bin HTTP/1.1" 200' in ln]
        self.assertEqual(len(gets), n, srv.log())
        self.assertLess(took, 25, p.stdout)
        # Ours agree: every connection opened, answered 200 with the 10,000 bytes, closed.
        c = self.json("r.json")["tcp"]["classes"][0]["client"]
        self.assertEqual((c["attempted"], c["established"], c["closed"]), (n, n, n), c)
        self.assertEqual(c["http_responses"], n, c)
        self.assertEqual(c["failed_refused"] + c["failed_timeout"] + c["failed_reset"] +
                         c["failed_other"], 0, c)
        self.assertGreaterEqual(c["rx_bytes"], n * 10000, c)

    def test_curl_against_server(self):
        """wirerate's HTTP server (one host, 10.77.0.20:80, a 5,000-byte body) answers 10 curl
        GETs from the kernel: each body is the 5,000 bytes of the pattern (sha256), and the
        kernel counts 10 active opens."""
        n, size = 10, 5000
        sf = self.write("s.yaml", f"""version: 1
hosts:
  - {{name: s, port: 0, count: 1, mac: "02:77:00:00:00:20", ipv4: {{addr: {self.SERVER}, prefix: 24}}}}
tcp:
  - name: web
    server: {{hosts: s, port: 80}}
    concurrency: 64
    http: {{body: {size}}}
""")
        gen = self.peer("wirerate", ["ip", "netns", "exec", self.ns, WIRERATE, "run", sf,
                                     "--config", self.prof(), "--duration", "30"],
                        stdout=subprocess.PIPE, text=True, cwd=self.tmp)
        # The header line: the hosts are up, the lanes run.
        self.assertTrue(gen.stdout.readline(), gen.log())
        want = hashlib.sha256(pattern(size)).hexdigest()
        before = self.nstat("TcpActiveOpens")
        got = []
        for k in range(n):
            out = self.path(f"body{k}")
            c = subprocess.run(["ip", "netns", "exec", self.ns, "curl", "-sS", "--max-time",
                                "5", "-o", out, "-w", "%{http_code}",
                                f"http://{self.SERVER}/"], capture_output=True, text=True,
                               timeout=30)
            self.assertEqual(c.returncode, 0, c.stderr)
            self.assertEqual(c.stdout, "200")
            with open(out, "rb") as f:
                got.append(hashlib.sha256(f.read()).hexdigest())
        # The run's 30 s are a bound for a loaded machine: stopped once the GETs are
        # answered (README: exit 0 after SIGTERM), not waited out (12 s before).
        gen.send_signal(signal.SIGTERM)
        out, _ = gen.communicate(timeout=60)
        self.assertEqual(gen.returncode, 0, gen.log())
        self.assertEqual(got, [want] * n)
        self.assertEqual(self.nstat("TcpActiveOpens") - before, n)

    def test_back_to_back(self):
        """Clients on one af_packet port, the server on another, the veth pair between them
        (streams/tcp-http.yaml's classes at 500 connections a second for 3 s): every connection
        the clients opened the server accepted, both sides count the same, none failed; the run
        ends by the class's duration."""
        tag = self.prefix
        a, b = f"{tag}a", f"{tag}b"
        self.sh("ip", "-n", self.ns, "link", "add", a, "type", "veth", "peer", "name", b)
        self.sh("ip", "-n", self.ns, "link", "set", a, "up")
        self.sh("ip", "-n", self.ns, "link", "set", b, "up")
        prof = self.write("k2.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={self.prefix}", "--vdev=net_af_packet0,iface={a}", "--vdev=net_af_packet1,iface={b}", "--lcores=0@0,1@1"]
ports:
  - device: net_af_packet0
    tx_lcores: [1]
  - device: net_af_packet1
    tx_lcores: [1]
""")
        sf = self.write("b.yaml", """version: 1
hosts:
  - {name: clients, port: 0, count: 254, mac: "02:00:00:01:00:01", ipv4: {addr: 10.10.0.1, prefix: 16}}
  - {name: server, port: 1, count: 1, mac: "02:00:00:02:00:01", ipv4: {addr: 10.10.255.1, prefix: 16}}
tcp:
  - name: web
    client: {hosts: clients}
    server: {hosts: server, port: 80}
    rate: 500
    concurrency: 100
    duration: 3s
    http: {path: /index.html, body: 64}
""")
        p = subprocess.run(["ip", "netns", "exec", self.ns, WIRERATE, "run", sf, "--config", prof,
                            "--duration", "30", "--json", "b.json"], cwd=self.tmp,
                           capture_output=True, text=True, timeout=90)
        self.assertEqual(p.returncode, 0, f"stdout:\n{p.stdout}\nstderr:\n{p.stderr}")
        d = self.json("b.json")
        c, s = d["tcp"]["classes"][0]["client"], d["tcp"]["classes"][0]["server"]
        self.assertGreater(c["attempted"], 1000, c)
        self.assertEqual(c["established"], c["attempted"], c)
        self.assertEqual((s["attempted"], s["established"], s["closed"]),
                         (c["attempted"], c["attempted"], c["attempted"]), s)
        self.assertEqual(c["closed"], c["attempted"], c)
        self.assertEqual((c["http_responses"], s["http_requests"]),
                         (c["attempted"], c["attempted"]))
        self.assertEqual(c["tx_bytes"], s["rx_bytes"])
        self.assertEqual(s["tx_bytes"], c["rx_bytes"])
        self.assertLess(d["duration_s"], 10, p.stdout)


if __name__ == "__main__":
    unittest.main()
