# SPDX-License-Identifier: BSD-3-Clause
"""Emulated hosts through the server's API (hosts.list, hosts.counters, stats.get) and the
console: 300 static hosts on an af_packet port whose veth's other end is the Linux kernel.
The kernel is the peer we did not write: it answers the hosts' gateway resolution (each
host's neighbour entry must hold the kernel's MAC) and learns the hosts from their ARP
answers when it pings them (its neighbour table must hold the MACs hosts.list shows).
Paging is checked exactly (every host once, in order, by next_offset), and every refused
parameter by its JSON-RPC error, with the server still answering.  Then the console's Hosts
view in headless Chromium shows the MACs hosts.list gives."""

import ipaddress
import os
import shutil
import subprocess
import unittest

from wrtest import ROOT, wait_for
from test_server import ServerCase, START_S
from test_web import Page, WebCase
import wirerate  # noqa: E402  (test_server put python/ on the path)
from wirerate import RpcError  # noqa: E402

N_HOSTS = 300
FIRST_MAC = 0x021000000001
FIRST_IP = ipaddress.IPv4Address("10.77.0.10")
GW_IP = "10.77.0.1"


def mac_str(v):
    return ":".join(f"{(v >> s) & 0xff:02x}" for s in range(40, -8, -8))


def hosts_yaml(count=N_HOSTS, gateway=True):
    gw = f", gateway: {GW_IP}" if gateway else ""
    return f"""version: 1
hosts:
  - name: clients
    port: 0
    count: {count}
    mac: {mac_str(FIRST_MAC)}
    ipv4: {{addr: {FIRST_IP}, prefix: 16{gw}}}
streams:
  - name: s
    port: 0
    size: 64
    rate: 1 kpps
    eth: {{src: "{mac_str(FIRST_MAC)}", dst: "02:00:00:00:00:02"}}
    ipv4: {{src: {FIRST_IP}, dst: {GW_IP}}}
    udp: {{src: 1024, dst: 9}}
"""


class HostsApiCase(ServerCase):
    """A server in a namespace of its own whose port is af_packet on a veth; the kernel
    holds the other end, as the hosts' gateway."""

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0 or shutil.which("ip") is None:
            self.skipTest("needs root and iproute2 to create a namespace")
        tag = f"{os.getpid() % 100000}"
        self.ns = f"wrapi-{tag}"
        self.gen_if, self.peer_if = f"wrapi{tag}g"[:15], f"wrapi{tag}k"[:15]
        subprocess.run(["ip", "netns", "add", self.ns], check=True, timeout=10)
        self.addCleanup(subprocess.run, ["ip", "netns", "del", self.ns], capture_output=True)
        self.nsexec("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
                    "net.ipv6.conf.default.disable_ipv6=1")
        self.ip("link", "set", "lo", "up")
        self.ip("link", "add", self.gen_if, "type", "veth", "peer", "name", self.peer_if)
        self.ip("link", "set", self.gen_if, "up")
        self.ip("link", "set", self.peer_if, "up")
        # A /16: the 300 hosts run from 10.77.0.10 to 10.77.1.53.
        self.ip("addr", "add", GW_IP + "/16", "dev", self.peer_if)
        self.kernel_mac = self.nsexec("cat", f"/sys/class/net/{self.peer_if}/address").strip()

    def ip(self, *args):
        subprocess.run(["ip", "-n", self.ns, *args], check=True, timeout=10)

    def nsexec(self, *cmd, check=True):
        return subprocess.run(["ip", "netns", "exec", self.ns, *cmd], check=check,
                              capture_output=True, text=True, timeout=30).stdout

    def serve_ns(self, extra=()):
        """wirerate serve in the namespace (its Unix socket is a path: reachable from here)."""
        prefix = f"wrapi{os.getpid()}"
        self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", prefix), True)
        prof = self.write(f"{prefix}.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={prefix}",
      "--vdev=net_af_packet0,iface={self.gen_if}", "--lcores=0@0,1@1"]
ports:
  - device: net_af_packet0
    tx_lcores: [1]
""")
        sock = self.path("api.sock")
        p = subprocess.Popen(["ip", "netns", "exec", self.ns, os.environ.get(
            "WIRERATE", os.path.join(ROOT, "build", "app", "wirerate")), "serve", "--config",
            prof, "--socket", sock, *extra], cwd=self.tmp, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        self.procs.append(p)
        self.assertTrue(wait_for(lambda: os.path.exists(sock) or p.poll() is not None, START_S),
                        "the server did not create its socket")
        if p.poll() is not None:
            self.fail(f"the server exited: {p.communicate()}")
        return p, sock

    def start_hosts(self, c, text):
        c.acquire()
        c.load(text)
        return c.start(duration=120)

    def assert_param_error(self, c, code, param, **params):
        with self.assertRaises(RpcError) as e:
            c.call("hosts.list", **params)
        self.assertEqual(e.exception.code, code, (params, e.exception))
        self.assertEqual((e.exception.data or {}).get("param"), param, (params, e.exception))
        return e.exception


class HostsList(HostsApiCase):

    def test_static_hosts_kernel_peer(self):
        p, sock = self.serve_ns()
        c = self.client(sock)
        self.start_hosts(c, hosts_yaml())
        # Every host up: its address and its gateway answered by the kernel.
        self.assertTrue(wait_for(lambda: c.host_counters()[0]["up"] == N_HOSTS, 20),
                        c.host_counters())
        cnt = c.host_counters()[0]
        self.assertEqual((cnt["port"], cnt["hosts"], cnt["pending"], cnt["failed"],
                          cnt["idle"]), (0, N_HOSTS, 0, 0, 0), cnt)
        # Paging: pages of 128 by next_offset, every host once, in table order.
        offsets, hosts, off = [], [], 0
        while off is not None:
            r = c.hosts(0, offset=off, limit=128)
            self.assertEqual((r["port"], r["total"], r["matched"], r["offset"]),
                             (0, N_HOSTS, N_HOSTS, off))
            offsets.append(off)
            hosts += r["hosts"]
            off = r["next_offset"]
        self.assertEqual(offsets, [0, 128, 256])
        self.assertEqual([h["index"] for h in hosts], list(range(N_HOSTS)))
        self.assertEqual([h["mac"] for h in hosts],
                         [mac_str(FIRST_MAC + i) for i in range(N_HOSTS)])
        for i, h in enumerate(hosts):
            self.assertEqual(h["state"], "up", h)
            self.assertEqual(h["group"], "clients", h)
            self.assertEqual(h["vlans"], [], h)
            self.assertEqual(h["ipv4"], {"state": "up", "address": str(FIRST_IP + i),
                                         "prefix": 16, "gateway": GW_IP}, h)
            self.assertEqual(len(h["neighbours"]), 1, h)
            n = h["neighbours"][0]
            # The kernel's own MAC, learned from its ARP answer.
            self.assertEqual((n["ip"], n["state"], n["mac"]),
                             (GW_IP, "reachable", self.kernel_mac), h)
            self.assertGreaterEqual(n["age_ms"], 0)
            self.assertLess(n["age_ms"], 120000)
        # The client's paging, whatever the page size, gives the same hosts in order.
        for page in (7, 1000):
            self.assertEqual([(h["index"], h["mac"]) for h in c.hosts_all(0, page=page)],
                             [(h["index"], h["mac"]) for h in hosts])
        # The kernel pings hosts across the table: each answers ARP and echo with its own
        # MAC, which the kernel's neighbour table then holds.
        picks = [0, 1, 77, 128, 255, 256, 299]
        for i in picks:
            out = self.nsexec("ping", "-c", "1", "-W", "2", str(FIRST_IP + i), check=False)
            self.assertIn("1 received", out, (i, out))
        neigh = {}
        for line in self.nsexec("ip", "neigh", "show", "dev", self.peer_if).splitlines():
            w = line.split()
            if "lladdr" in w:
                neigh[w[0]] = w[w.index("lladdr") + 1]
        for i in picks:
            self.assertEqual(neigh.get(str(FIRST_IP + i)), hosts[i]["mac"], (i, neigh))
        # Filters: a state, a group, and both, with exact counts.
        r = c.hosts(0, state="up", offset=290, limit=100)
        self.assertEqual((r["matched"], len(r["hosts"]), r["next_offset"]), (N_HOSTS, 10, None))
        self.assertEqual(r["hosts"][0]["index"], 290)
        r = c.hosts(0, state="failed")
        self.assertEqual((r["matched"], r["hosts"], r["next_offset"]), (0, [], None))
        r = c.hosts(0, group="clients", state="up", offset=5, limit=3)
        self.assertEqual([h["index"] for h in r["hosts"]], [5, 6, 7])
        self.assertEqual(r["next_offset"], 8)
        # The counters: the engine answered at least the kernel's ARP requests and pings
        # (names are the engine's: doc/hosts.md), and stats.get carries the same list.
        st = c.stats()
        self.assertEqual([(h["port"], h["hosts"], h["up"]) for h in st["hosts"]],
                         [(0, N_HOSTS, N_HOSTS)])
        self.assertEqual(set(st["hosts"][0]["counters"]), set(c.host_counters()[0]["counters"]))
        self.assertEqual(c.host_counters([0])[0]["port"], 0)

    def test_errors(self):
        p, sock = self.serve_ns()
        c = self.client(sock)
        # Before any start: a port without hosts is an empty list.
        r = c.hosts(0)
        self.assertEqual((r["total"], r["matched"], r["hosts"], r["next_offset"]),
                         (0, 0, [], None))
        self.assertEqual(c.host_counters(), [])
        self.start_hosts(c, hosts_yaml(count=40, gateway=False))
        self.assertTrue(wait_for(lambda: c.host_counters()[0]["up"] == 40, 20),
                        c.host_counters())
        e = self.assert_param_error(c, -32602, "port", port=1)
        self.assertEqual(e.message, "port: port 1 does not exist: this server has 1 port")
        e = self.assert_param_error(c, -32602, "offset", port=0, offset=41)
        self.assertEqual(e.message, "hosts.list: offset: expected at most 40 (the hosts "
                                    "matched on port 0), got 41")
        self.assertEqual(c.hosts(0, offset=40)["hosts"], [])
        self.assert_param_error(c, -32602, "offset", port=0, offset=1, state="failed")
        self.assert_param_error(c, -32602, "limit", port=0, limit=0)
        self.assert_param_error(c, -32602, "limit", port=0, limit=1001)
        self.assert_param_error(c, -32602, "state", port=0, state="bound")
        e = self.assert_param_error(c, -32003, "group", port=0, group="servers")
        self.assertIn('no host group "servers" on port 0', e.message)
        # Wrong types are the RPC layer's (-32602 naming the member).
        self.assert_param_error(c, -32602, "offset", port=0, offset=-1)
        self.assert_param_error(c, -32602, "port", offset=0)
        with self.assertRaises(RpcError) as ex:
            c.call("hosts.counters", ports=[3])
        self.assertEqual((ex.exception.code, ex.exception.data.get("param")), (-32602, "ports"))
        # Still serving, and still right.
        self.assertEqual(c.info()["name"], "wirerate")
        self.assertEqual(len(c.hosts_all(0, page=9)), 40)
        self.assertIsNone(p.poll())

    def test_bringup_errors_reported(self):
        """What the hosts cannot be is said as any load error, with the file's place, and the
        server goes on: two groups sharing MACs (the loader, streams.load), a group on a port
        the server lacks (the session, traffic.start); hosts whose gateway never answers come
        up failed, and traffic.start's reply says so."""
        p, sock = self.serve_ns()
        c = self.client(sock)
        c.acquire()
        group = """  - name: again
    port: {port}
    count: 2
    mac: {mac}
    ipv4: {{addr: 10.77.0.200, prefix: 16}}
streams:"""
        text = hosts_yaml(count=10, gateway=False).replace(
            "streams:", group.format(port=0, mac=mac_str(FIRST_MAC + 5)))
        with self.assertRaises(RpcError) as e:
            c.load(text)
        self.assertEqual(e.exception.code, -32000)
        self.assertEqual((e.exception.data["line"], e.exception.data["col"],
                          e.exception.data["path"]), (11, 10, "hosts[1].mac"))
        self.assertIn('MACs shared with hosts "clients" (line 3)', e.exception.message)
        text = hosts_yaml(count=10, gateway=False).replace(
            "streams:", group.format(port=3, mac=mac_str(FIRST_MAC + 0x10000)))
        c.load(text)
        with self.assertRaises(RpcError) as e:
            c.start(duration=5)
        self.assertEqual(e.exception.code, -32004)
        self.assertEqual((e.exception.data["line"], e.exception.data["col"],
                          e.exception.data["errno"]), (8, 5, 22), e.exception.data)
        self.assertIn("hosts[1].port: port 3 does not exist: there is 1 port",
                      e.exception.message)
        self.assertEqual(c.info()["state"], "idle")
        self.assertEqual(c.hosts(0)["total"], 0)
        # A gateway nobody has: asked and never answered (RFC 826 has no timer: the
        # engine's, doc/hosts.md), every host failed, the streams started all the same.
        c.load(hosts_yaml(count=20).replace(f"gateway: {GW_IP}", "gateway: 10.77.9.9"))
        r = c.start(duration=60)
        self.assertEqual(r["state"], "running")
        self.assertEqual(r["hosts_down"], 0, r)
        self.assertEqual([(h["port"], h["hosts"], h["failed"], h["up"]) for h in r["hosts"]],
                         [(0, 20, 20, 0)], r["hosts"])
        self.assertEqual(r["hosts"][0]["counters"]["gw_failed"], 20)
        h = c.hosts(0, state="failed", limit=1)["hosts"][0]
        self.assertEqual((h["neighbours"][0]["ip"], h["neighbours"][0]["state"],
                          h["neighbours"][0]["mac"]), ("10.77.9.9", "failed", None), h)
        self.assertIsNone(p.poll())


class HostsWeb(WebCase):
    """The console's Hosts view, in headless Chromium, against hosts.list: a server on
    net_null (hosts without a gateway come up with no peer)."""

    def setUp(self):
        super().setUp()
        try:
            import selenium  # noqa: F401
        except ImportError:
            self.skipTest("needs python3-selenium (Debian; run with /usr/bin/python3)")
        if shutil.which("chromedriver") is None or shutil.which("chromium") is None:
            self.skipTest("needs chromium and chromium-driver (Debian)")

    def test_hosts_view(self):
        p, sock, port = self.web_serve(tag="h")
        c = self.client(sock)
        a = Page(self, port, cpus={0}, name="hosts")
        a.view("streams")
        a.type_yaml(hosts_yaml(count=150, gateway=False))
        a.wait(lambda: a.q("#check").get_attribute("data-state") == "valid", "no valid check")
        a.q("#take-control").click()
        a.wait(lambda: a.q("#btn-load").is_enabled(), "load stays disabled")
        a.q("#btn-load").click()
        a.wait(lambda: [s["name"] for s in c.streams()] == ["s"], "streams not loaded")
        a.view("traffic")
        a.q('#start-form input[name="duration"]').send_keys("120")
        a.q("#btn-start").click()
        self.assertTrue(wait_for(lambda: c.host_counters() and
                                 c.host_counters()[0]["up"] == 150, 20), c.host_counters())
        a.view("hosts")
        Select = __import__("selenium.webdriver.support.select", fromlist=["Select"]).Select
        Select(a.q('#hosts-form select[name="limit"]')).select_by_value("50")
        a.q("#hosts-show").click()

        def shown():
            try:
                return [(int(tr.get_attribute("data-host")), tr.get_attribute("data-state"),
                         tr.find_element(a.By.CSS_SELECTOR, '[data-col="mac"]').text,
                         tr.find_element(a.By.CSS_SELECTOR, '[data-col="ipv4"]').text)
                        for tr in a.qa("#hosts-table tbody tr")]
            except a.Stale:   # redrawn meanwhile (each second while shown)
                return None

        def want(offset):
            return [(h["index"], h["state"], h["mac"],
                     f'{h["ipv4"]["address"]}/{h["ipv4"]["prefix"]}')
                    for h in c.hosts(0, offset=offset, limit=50)["hosts"]]
        a.wait(lambda: shown() == want(0), lambda: f"first page: {shown()}")
        self.assertEqual([x[2] for x in shown()], [mac_str(FIRST_MAC + i) for i in range(50)])
        self.assertIn("Hosts 1 to 50 of 150 matching", a.text("#hosts-info"))
        a.click("#hosts-next")
        a.wait(lambda: shown() == want(50), lambda: f"second page: {shown()}")
        self.assertIn("Hosts 51 to 100 of 150 matching", a.text("#hosts-info"))
        # A state no host is in: an empty page, said so.
        Select(a.q('#hosts-form select[name="state"]')).select_by_value("failed")
        a.click("#hosts-show")
        a.wait(lambda: shown() == [], "hosts shown for state failed")
        a.wait(lambda: a.text('[data-counter="0:up"] td.num') == "150", "counters: up")
        a.shot("hosts")
        self.assertEqual(a.errors(), [])


if __name__ == "__main__":
    unittest.main()
