# SPDX-License-Identifier: BSD-3-Clause
"""Stateful classes through the server's API (tcp.list, tcp.stats, tcp.set, stats.get,
traffic.start/stop), the Prometheus exporter and `wirerate run`'s outputs.

One server has two af_packet ports on the two ends of a veth pair in a namespace of its own:
the class's clients on port 0, its emulated server on port 1, back to back through the
kernel's veth (no address on either end: the kernel forwards frames and answers nothing).
Each connection sends 100 bytes, takes 100 back, waits 500 ms and closes, so that the open
connections are the rate times half a second and a cap on them shows.  tcp.set changes the
rate (the connections established a second follow it) and the cap (the open ones stay under
it); once paused and drained, every count of the client side equals the server side's (each
counts what it saw: the two engines share nothing), stats.get, tcp.stats and the Prometheus
text carry the same numbers, and every refused tcp.set is its JSON-RPC error."""

import json
import os
import re
import shutil
import subprocess
import time
import unittest

from wrtest import WIRERATE, wait_for
from test_server import ServerCase, START_S
from test_web import Page, free_port, need_browser
import wirerate  # noqa: E402  (test_server put python/ on the path)
from wirerate import RpcError  # noqa: E402

RATE = 100          # connections a second, first
RATE2 = 300         # after tcp.set
CAP = 20            # concurrency after tcp.set
THINK_S = 0.5
BYTES = 100


def tcp_yaml(rate=RATE, concurrency=1000, duration="120s", stream=False, count=None):
    """Clients on port 0 (4 hosts), a server on port 1, the program above."""
    extra = """streams:
  - name: s
    port: 0
    size: 64
    rate: 10 pps
    eth: {src: "02:00:00:00:01:01", dst: "02:00:00:00:02:01"}
    ipv4: {src: 10.1.0.1, dst: 10.1.1.1}
    udp: {src: 1024, dst: 9}
""" if stream else ""
    return f"""version: 1
hosts:
  - {{name: c, port: 0, count: 4, mac: "02:00:00:00:01:01", ipv4: {{addr: 10.1.0.1, prefix: 16}}}}
  - {{name: srv, port: 1, count: 1, mac: "02:00:00:00:02:01", ipv4: {{addr: 10.1.1.1, prefix: 16}}}}
tcp:
  - name: web
    client: {{hosts: c}}
    server: {{hosts: srv, port: 80}}
    rate: {rate}
    concurrency: {concurrency}
    {f"count: {count}" if count else f"duration: {duration}"}
    program:
      - send: {BYTES}
      - recv: {BYTES}
      - think: {int(THINK_S * 1000)}ms
      - close: fin
{extra}"""


NO_TCP = """version: 1
streams:
  - name: s
    port: 0
    size: 64
    rate: 10 pps
    eth: {src: "02:00:00:00:01:01", dst: "02:00:00:00:02:01"}
    ipv4: {src: 10.1.0.1, dst: 10.1.1.1}
    udp: {src: 1024, dst: 9}
"""


class TcpApiCase(ServerCase):
    """A namespace with a veth pair whose two ends are the server's two ports."""

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0 or shutil.which("ip") is None:
            self.skipTest("needs root and iproute2 to create a namespace")
        tag = f"{os.getpid() % 100000}"
        self.ns = f"wrtcpapi-{tag}"
        self.ifs = (f"wrta{tag}a"[:15], f"wrta{tag}b"[:15])
        subprocess.run(["ip", "netns", "add", self.ns], check=True, timeout=10)
        self.addCleanup(subprocess.run, ["ip", "netns", "del", self.ns], capture_output=True)
        self.nsexec("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
                    "net.ipv6.conf.default.disable_ipv6=1")
        self.ip("link", "add", self.ifs[0], "type", "veth", "peer", "name", self.ifs[1])
        for i in self.ifs:
            self.ip("link", "set", i, "up")
            # TESTBED.md: no partial checksums on what the kernel hands af_packet.
            if shutil.which("ethtool"):
                self.nsexec("ethtool", "-K", i, "tx", "off", check=False)

    def ip(self, *args):
        subprocess.run(["ip", "-n", self.ns, *args], check=True, timeout=10)

    def nsexec(self, *cmd, check=True):
        return subprocess.run(["ip", "netns", "exec", self.ns, *cmd], check=check,
                              capture_output=True, text=True, timeout=60).stdout

    def profile(self, prefix, extra=""):
        self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", prefix), True)
        return self.write(f"{prefix}.yaml", f"""version: 1
{extra}eal: ["--no-pci", "--in-memory", "--file-prefix={prefix}",
      "--vdev=net_af_packet0,iface={self.ifs[0]}",
      "--vdev=net_af_packet1,iface={self.ifs[1]}", "--lcores=0@0,1@1"]
ports:
  - device: net_af_packet0
    tx_lcores: [1]
  - device: net_af_packet1
    tx_lcores: [1]
""")

    def serve_ns(self):
        prof = self.profile(f"apitcp{os.getpid()}")
        sock = self.path("tcp.sock")
        p = subprocess.Popen(["ip", "netns", "exec", self.ns, WIRERATE, "serve", "--config",
                              prof, "--socket", sock], cwd=self.tmp, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        self.procs.append(p)
        self.assertTrue(wait_for(lambda: os.path.exists(sock) or p.poll() is not None, START_S),
                        "the server did not create its socket")
        if p.poll() is not None:
            self.fail(f"the server exited: {p.communicate()}")
        return p, sock


def side(st, name, s):
    for c in st["tcp"]["classes"] if "tcp" in st else st["classes"]:
        if c["name"] == name:
            return c[s]
    raise KeyError(name)


def cps_over(c, seconds):
    """Client connections established a second over @seconds, from two stats.get documents
    (the server's clock between them), and the most open at once seen meanwhile."""
    a = c.stats()
    most = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        time.sleep(0.1)
        most = max(most, side(c.stats(), "web", "client")["active"])
    b = c.stats()
    n = side(b, "web", "client")["established"] - side(a, "web", "client")["established"]
    return n / (b["time"] - a["time"]), most


class TcpSet(TcpApiCase):

    def assert_rpc(self, code, fn, *args, param=None, **kw):
        with self.assertRaises(RpcError) as e:
            fn(*args, **kw)
        self.assertEqual(e.exception.code, code, e.exception)
        if param is not None:
            self.assertEqual((e.exception.data or {}).get("param"), param, e.exception)
        return e.exception

    def test_rate_cap_counts(self):
        p, sock = self.serve_ns()
        c = wirerate.connect(sock)
        self.addCleanup(c.close)
        # Nothing with tcp: loaded yet: -32002.
        c.load(NO_TCP)
        self.assert_rpc(-32002, c.tcp_set, "web", rate=10)
        self.assert_rpc(-32002, c.tcp_stats)
        self.assertEqual(c.tcp_classes(), [])
        c.load(tcp_yaml())
        self.assert_rpc(-32002, c.tcp_set, "web", rate=10)   # loaded, not running
        lst = c.tcp_classes()
        self.assertEqual([x["name"] for x in lst], ["web"])
        self.assertEqual((lst[0]["client"]["port"], lst[0]["server"]["port"]), (0, 1))
        self.assertEqual((lst[0]["rate"], lst[0]["concurrency"]), (RATE, 1000))
        c.start()
        # The first connections after the hosts are up.
        self.assertTrue(wait_for(lambda: side(c.stats(), "web", "client")["established"] > 0,
                                 15), c.stats().get("tcp"))
        cps, most = cps_over(c, 2.0)
        self.assertGreater(cps, RATE * 0.7, cps)
        self.assertLess(cps, RATE * 1.15, cps)
        # Open: the rate times the think time (about 50), not the file's cap.
        self.assertGreater(most, RATE * THINK_S * 0.5, most)
        self.assertLess(most, RATE * THINK_S * 1.6, most)

        # The rate, live.
        r = c.tcp_set("web", rate=RATE2)
        self.assertEqual(r["rate"], RATE2)
        time.sleep(0.6)
        cps, most = cps_over(c, 2.0)
        self.assertGreater(cps, RATE2 * 0.7, cps)
        self.assertLess(cps, RATE2 * 1.15, cps)
        self.assertGreater(most, RATE * THINK_S * 1.6, most)
        lst = c.tcp_classes()
        self.assertEqual(lst[0]["rate_now"], RATE2)
        self.assertEqual(lst[0]["rate"], RATE)   # the file's, unchanged
        self.assertEqual(c.tcp_stats()["classes"][0]["rate"], RATE2)

        # The cap, live: never more open than it; the rate falls to what it allows
        # (CAP connections each living THINK_S).
        c.tcp_set("web", concurrency=CAP)
        time.sleep(THINK_S + 0.5)
        cps, most = cps_over(c, 2.0)
        self.assertLessEqual(most, CAP)
        self.assertLess(cps, CAP / THINK_S * 1.15, cps)
        self.assertGreater(cps, CAP / THINK_S * 0.5, cps)
        self.assertEqual(c.tcp_classes()[0]["concurrency_now"], CAP)

        # Paused: nothing more is opened; the open ones finish.
        c.tcp_pause("web")
        self.assertTrue(wait_for(lambda: side(c.stats(), "web", "client")["active"] == 0,
                                 THINK_S * 4 + 2), c.stats()["tcp"])
        # TIME_WAIT (1 s by default) over too: every gauge is still.
        self.assertTrue(wait_for(lambda: side(c.stats(), "web", "client")["time_wait"] == 0
                                 and side(c.stats(), "web", "server")["time_wait"] == 0
                                 and side(c.stats(), "web", "server")["active"] == 0, 5))
        t1 = c.tcp_stats(histogram=True)
        time.sleep(0.5)
        st = c.stats()
        t2 = c.tcp_stats(histogram=True)
        cl, sv = side(t2, "web", "client"), side(t2, "web", "server")
        self.assertEqual(side(t1, "web", "client")["attempted"], cl["attempted"],
                         "a paused class opened connections")
        # Each side counted what it saw; over a lossless veth they agree exactly.
        n = cl["established"]
        self.assertGreater(n, 500)
        for k in ("attempted", "established", "closed"):
            self.assertEqual(cl[k], n, (k, cl))
            self.assertEqual(sv[k], n, (k, sv))
        for k in ("failed_refused", "failed_timeout", "failed_reset", "failed_other",
                  "aborted", "app_errors"):
            self.assertEqual((cl[k], sv[k]), (0, 0), k)
        self.assertEqual(cl["tx_bytes"], BYTES * n)
        self.assertEqual(sv["rx_bytes"], BYTES * n)
        self.assertEqual(sv["tx_bytes"], BYTES * n)
        self.assertEqual(cl["rx_bytes"], BYTES * n)
        # Segments: what one side sent and the other did not count was lost on the way
        # and sent again (af_packet on a busy machine may drop one; before h/dp's 3e921a9
        # the first SYN-ACK to each client host was: 4 here).
        for a, b in ((cl, sv), (sv, cl)):
            self.assertLessEqual(b["rx_segs"], a["tx_segs"], (cl, sv, t2["ports"]))
            self.assertLessEqual(a["tx_segs"] - b["rx_segs"], a["rexmit_segs"],
                                 (cl, sv, t2["ports"]))
        # Histograms: a handshake and a completion per connection; a completion lasts the
        # think time at least.
        h = cl["histograms_ns"]
        self.assertEqual(h["handshake"]["n"], n)
        self.assertEqual(h["complete"]["n"], n)
        self.assertGreaterEqual(h["complete"]["min"], THINK_S * 1e9 * 0.99)
        self.assertLessEqual(h["handshake"]["min"], h["handshake"]["p50"])
        # stats.get carries the same (histograms only on request).
        self.assertEqual({k: v for k, v in cl.items() if k != "histograms_ns"},
                         side(st, "web", "client"))
        self.assertEqual({k: v for k, v in sv.items() if k != "histograms_ns"},
                         side(st, "web", "server"))
        self.assertNotIn("histograms_ns", side(st, "web", "client"))
        self.assertEqual(st["tcp"]["ports"], t2["ports"])
        self.assertEqual(sorted(x["port"] for x in st["tcp"]["ports"]), [0, 1])

        # The Prometheus text (prometheus_client's own rendering) carries the same numbers.
        self.prometheus_check(c, st)

        n = self.cleared(c)

        # Resumed: connections again.
        c.tcp_resume("web")
        self.assertTrue(wait_for(lambda: side(c.stats(), "web", "client")["attempted"] > n, 5))
        self.refusals(c, sock)
        c.stop()
        self.assertEqual(c.stats()["state"], "done")
        # After the run its counters stay readable, and tcp.set has nothing to change.
        self.assertGreater(side(c.stats(), "web", "client")["established"], n)
        self.assert_rpc(-32002, c.tcp_set, "web", rate=10)

    def drained(self, c):
        """Paused: every connection closed and out of TIME_WAIT on both sides."""
        self.assertTrue(wait_for(lambda: all(side(c.stats(), "web", x)[g] == 0
                                             for x in ("client", "server")
                                             for g in ("active", "time_wait")),
                                 THINK_S * 4 + 5), c.stats()["tcp"])

    def cleared(self, c):
        """stats.clear on the paused class (drained): every counter stats.get, tcp.stats
        and hosts.counters report is 0, the gauges as they were; then they count exactly
        what follows: pings Scapy sends into port 1's host from the namespace, and a
        burst of connections that both sides count alike.  @return the connections."""
        before = c.stats()
        self.assertTrue(before["hosts"])
        self.assertEqual(c.clear(), {"cleared": True})
        st, t, hc = c.stats(), c.tcp_stats(histogram=True), c.host_counters()
        self.assertTrue(st["cleared"])
        for s_ in ("client", "server"):
            for k, v in side(t, "web", s_).items():
                if k == "histograms_ns":
                    self.assertEqual({h: x["n"] for h, x in v.items()},
                                     {"handshake": 0, "ttfb": 0, "complete": 0}, s_)
                else:
                    self.assertEqual(v, 0, (s_, k))     # active and time_wait: drained
            self.assertEqual({k: v for k, v in side(t, "web", s_).items()
                              if k != "histograms_ns"}, side(st, "web", s_))
        for p in t["ports"]:
            for k, v in p.items():
                if k == "mem_bytes":
                    self.assertGreater(v, 0)
                elif k != "port":
                    self.assertEqual(v, 0, (p["port"], k, t["ports"]))
        # The hosts: counters zeroed, gauges (doc/api.md: hosts, hosts_pending, mem_bytes,
        # gw4_*, gw6_*, ip6_*, *_state_*) as before the clear.
        self.assertEqual([h["port"] for h in hc], [h["port"] for h in before["hosts"]])
        for got in (hc, st["hosts"]):
            for h, b in zip(got, before["hosts"]):
                self.assertEqual((h["hosts"], h["up"]), (b["hosts"], b["up"]))
                for k, v in h["counters"].items():
                    gauge = (k in ("hosts", "hosts_pending", "mem_bytes") or "_state_" in k
                             or k.startswith(("gw4_", "gw6_", "ip6_")))
                    self.assertEqual(v, b["counters"][k] if gauge else 0, (h["port"], k))
                self.assertGreater(b["counters"]["svc_rx"], 0)   # there was something

        # What follows: N echo requests for port 1's host, sent by the kernel's af_packet
        # into the veth end that is port 0's (it goes to port 1).
        pings = 7
        self.nsexec("/usr/bin/python3", "-c", f"""
from scapy.all import Ether, IP, ICMP, sendp
sendp([Ether(src="02:00:00:00:09:09", dst="02:00:00:00:02:01") /
       IP(src="10.1.0.99", dst="10.1.1.1") / ICMP(id=77, seq=i) for i in range({pings})],
      iface="{self.ifs[0]}", verbose=0)""")

        def port1():
            return [h for h in c.host_counters([1])][0]["counters"]
        self.assertTrue(wait_for(lambda: port1()["echo4_answered"] >= pings, 5), port1())
        time.sleep(0.3)
        self.assertEqual(port1()["echo4_answered"], pings)
        self.assertEqual([h for h in c.stats()["hosts"] if h["port"] == 1][0]["counters"]
                         ["echo4_answered"], pings)
        # A burst of connections, then paused and drained: both sides count the same.
        c.tcp_resume("web")
        self.assertTrue(wait_for(lambda: side(c.stats(), "web", "server")["established"]
                                 >= 20, 10))
        c.tcp_pause("web")
        self.drained(c)
        t = c.tcp_stats(histogram=True)
        cl, sv = side(t, "web", "client"), side(t, "web", "server")
        n = cl["established"]
        self.assertGreaterEqual(n, 20)
        for k in ("attempted", "established", "closed"):
            self.assertEqual((cl[k], sv[k]), (n, n), k)
        for x in (cl, sv):
            self.assertEqual((x["tx_bytes"], x["rx_bytes"]), (BYTES * n, BYTES * n))
        self.assertEqual(cl["histograms_ns"]["handshake"]["n"], n)
        self.assertEqual(cl["histograms_ns"]["complete"]["n"], n)
        self.assertGreaterEqual(cl["histograms_ns"]["complete"]["min"], THINK_S * 1e9 * 0.99)
        self.assertLessEqual(sv["rx_segs"], cl["tx_segs"])
        self.assertLessEqual(cl["tx_segs"] - sv["rx_segs"], cl["rexmit_segs"])
        return n

    def prometheus_check(self, c, st):
        try:
            from prometheus_client import CollectorRegistry, generate_latest
        except ImportError:
            self.skipTest("needs python3-prometheus-client")
        from wirerate.exporter import WirerateCollector
        reg = CollectorRegistry()
        reg.register(WirerateCollector(c))
        text = generate_latest(reg).decode()
        got = {}
        for line in text.splitlines():
            m = re.match(r'wirerate_tcp_(counter_total|gauge)\{(.*)\} (\S+)$', line)
            if m:
                lab = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2)))
                got[(lab["side"], lab["counter"])] = float(m.group(3))
        want = {(s, k): float(v) for s in ("client", "server")
                for k, v in side(st, "web", s).items()}
        self.assertEqual(got, want)
        self.assertIn(f'wirerate_tcp_concurrency{{class="web"}} {float(CAP)}', text)
        self.assertRegex(text, r'wirerate_tcp_port_counter_total\{counter="rx_frames",'
                               r'port="1"\} [1-9]')
        self.assertRegex(text, r'wirerate_tcp_latency_ns\{class="web",histogram="complete",'
                               r'quantile="0.5",side="client"\} [1-9]')

    def refusals(self, c, sock):
        self.assert_rpc(-32003, c.tcp_set, "nope", rate=10)
        self.assert_rpc(-32602, c.tcp_set, "web", param="rate")          # nothing to change
        self.assert_rpc(-32602, c.tcp_set, "web", pause=True, resume=True, param="pause")
        self.assert_rpc(-32602, c.tcp_set, "web", rate=2e9, param="rate")
        self.assert_rpc(-32602, c.tcp_set, "web", rate=-1, param="rate")  # the parser's
        self.assert_rpc(-32602, c.tcp_set, "web", concurrency=0, param="concurrency")
        # Above what the run sized its tables for: the session's refusal.
        self.assert_rpc(-32602, c.tcp_set, "web", concurrency=10 ** 9, param="concurrency")
        self.assert_rpc(-32602, c.call, "tcp.set", rate=10)              # no class
        self.assert_rpc(-32003, c.tcp_stats, ["nope"])
        # Another session does not own the ports.
        o = wirerate.Client(sock, session="other").connect()
        self.addCleanup(o.close)
        self.assert_rpc(-32001, o.tcp_set, "web", rate=10)
        # Reading needs no ownership.
        self.assertEqual(o.tcp_stats(["web"])["classes"][0]["name"], "web")
        # The server still runs the class at the last rate asked.
        self.assertEqual(c.tcp_stats()["classes"][0]["concurrency"], CAP)


class TcpEnds(TcpApiCase):
    """A run of classes alone ends by itself when its clients are done: traffic.wait says
    so, with the counts the class asked for on both sides."""

    def test_count(self):
        p, sock = self.serve_ns()
        c = wirerate.connect(sock)
        self.addCleanup(c.close)
        c.load(tcp_yaml(rate=200, count=150))
        c.start()
        w = c.wait(timeout=30)
        self.assertEqual((w["state"], w["stop_reason"]), ("done", "count"), w)
        st = c.stats()
        self.assertEqual(st["state"], "done")
        cl, sv = side(st, "web", "client"), side(st, "web", "server")
        for k in ("attempted", "established", "closed"):
            self.assertEqual((cl[k], sv[k]), (150, 150), k)
        self.assertEqual((cl["active"], sv["active"]), (0, 0))
        self.assertTrue(st["tcp"]["classes"][0]["stopped"])
        # The console's tcp commands read the same.
        r = subprocess.run([WIRERATE, "console", "--socket", sock, "-c", "tcp", "-c",
                            "tcp list", "-c", "tcp set web rate 5"], capture_output=True,
                           text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("web client: attempted=150 established=150 closed=150 ", r.stdout)
        self.assertIn("web server: attempted=150 established=150 closed=150 ", r.stdout)
        self.assertIn('"name": "web"', r.stdout)
        self.assertIn("error: port 0 is owned by session", r.stdout)   # the console's is another


class TcpRun(TcpApiCase):
    """`wirerate run` of the same file: the live lines per class and side, the summary,
    --json's "tcp" and --stats-jsonl's."""

    def test_run_outputs(self):
        prof = self.profile(f"apitcpr{os.getpid()}", "stats_interval_ms: 500\n")
        sf = self.write("web.yaml", tcp_yaml(rate=200, duration="3s"))
        js, jl = self.path("r.json"), self.path("r.jsonl")
        r = subprocess.run(["ip", "netns", "exec", self.ns, WIRERATE, "run", "--config", prof,
                            sf, "--json", js, "--stats-jsonl", jl],
                           cwd=self.tmp, capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        live = [l for l in r.stdout.splitlines() if re.search(r"\btcp web +client .* cps ", l)]
        self.assertGreaterEqual(len(live), 3, r.stdout)
        self.assertTrue(any(re.search(r"\btcp web +server ", l) for l in r.stdout.splitlines()))
        with open(js) as f:
            res = json.load(f)
        cl, sv = side(res, "web", "client"), side(res, "web", "server")
        n = cl["established"]
        # 3 s of opening at 200 a second.
        self.assertGreater(n, 200 * 3 * 0.7)
        self.assertLessEqual(n, 200 * 3 * 1.1)
        for k in ("attempted", "established", "closed"):
            self.assertEqual((cl[k], sv[k]), (n, n), k)
        self.assertEqual(cl["tx_bytes"], BYTES * n)
        self.assertEqual(sv["rx_bytes"], BYTES * n)
        self.assertEqual(cl["histograms_ns"]["complete"]["n"], n)
        self.assertEqual(sorted(p["port"] for p in res["tcp"]["ports"]), [0, 1])
        # The summary: the counters that moved and the histograms' quantiles.
        self.assertIn(f"tcp web client:", r.stdout)
        self.assertIn(f" established={n} ", r.stdout)
        self.assertRegex(r.stdout, r"    complete +%d: min [\d.]+ us, median [\d.]+ us, "
                                   r"p99 [\d.]+ us, max [\d.]+ us" % n)
        # Each --stats-jsonl line has the classes' counters (no histograms); the last one
        # the final numbers.
        with open(jl) as f:
            lines = [json.loads(l) for l in f]
        self.assertGreaterEqual(len(lines), 3)
        self.assertTrue(all("tcp" in l for l in lines))
        self.assertEqual(side(lines[-1], "web", "client")["established"], n)
        self.assertNotIn("histograms_ns", side(lines[-1], "web", "client"))


class TcpWeb(ServerCase):
    """The console's TCP table (traffic view), in headless Chromium, shows what stats.get
    says: a veth pair in this namespace (the browser reaches the server's --http here)."""

    def setUp(self):
        super().setUp()
        need_browser(self, "chromium")
        if os.geteuid() != 0 or shutil.which("ip") is None:
            self.skipTest("needs root and iproute2 to create a veth pair")
        tag = f"{os.getpid() % 100000}"
        self.ifs = (f"wrtw{tag}a"[:15], f"wrtw{tag}b"[:15])
        subprocess.run(["ip", "link", "add", self.ifs[0], "type", "veth", "peer", "name",
                        self.ifs[1]], check=True, timeout=10)
        self.addCleanup(subprocess.run, ["ip", "link", "del", self.ifs[0]], capture_output=True)
        for i in self.ifs:
            # Nothing of the kernel's own (router solicitations, MLD) on the wire.
            subprocess.run(["sysctl", "-qw", f"net.ipv6.conf.{i}.disable_ipv6=1"],
                           check=False, timeout=10)
            subprocess.run(["ip", "link", "set", i, "up"], check=True, timeout=10)

    def test_table(self):
        prefix = f"apitcpw{os.getpid()}"
        self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", prefix), True)
        prof = self.write(f"{prefix}.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={prefix}",
      "--vdev=net_af_packet0,iface={self.ifs[0]}",
      "--vdev=net_af_packet1,iface={self.ifs[1]}", "--lcores=0@0,1@1"]
ports:
  - device: net_af_packet0
    tx_lcores: [1]
  - device: net_af_packet1
    tx_lcores: [1]
""")
        sock, port = self.path("w.sock"), free_port()
        p = subprocess.Popen([WIRERATE, "serve", "--config", prof, "--socket", sock, "--http",
                              str(port)], cwd=self.tmp, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        self.procs.append(p)
        self.assertTrue(wait_for(lambda: os.path.exists(sock) or p.poll() is not None, START_S))
        self.assertIsNone(p.poll(), "the server exited")
        c = wirerate.connect(sock)
        self.addCleanup(c.close)
        a = Page(self, port, cpus={0}, name="tcp")
        a.view("traffic")
        self.assertFalse(a.q("#tcp-panel").is_displayed())   # no tcp: classes yet
        c.load(tcp_yaml(rate=100, count=120))
        c.start()
        self.assertEqual(c.wait(timeout=30)["stop_reason"], "count")
        st = c.stats()
        for s in ("client", "server"):
            want = side(st, "web", s)
            for col, key in (("established", "established"), ("active", "active"),
                             ("rexmit", "rexmit_segs")):
                css = f'[data-tcp="web:{s}"] [data-col="{col}"]'
                a.wait(lambda: a.number(css) == want[key],
                       lambda: f"{s} {col}: {a.text(css)} shown, {want[key]} in stats.get")
        self.assertEqual(side(st, "web", "client")["established"], 120)
        self.assertTrue(a.q("#tcp-panel").is_displayed())
        self.assertEqual(a.text('[data-tcp="web:client"] [data-col="rate"]'), "ended")
        self.assertEqual(a.text("#traffic-detail"), "1 tcp class: web (below)")
        a.shot("tcp-table")


if __name__ == "__main__":
    unittest.main()
