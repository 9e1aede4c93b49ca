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
import json
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
        self.assertTrue(wait_for(lambda: c.host_counters()[0]["up"] == N_HOSTS, 60),
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
        ctr = c.host_counters()[0]["counters"]
        # One echo a ping.  (No ARP answer needed: the kernel learned every host from
        # its request for the gateway, as RFC 826's merge step says.)
        self.assertEqual(ctr["echo4_answered"], len(picks), ctr)
        self.assertEqual((ctr["gw_resolved"], ctr["hosts_up"], ctr["gw4_reachable"] +
                          ctr["gw4_stale"]), (N_HOSTS, N_HOSTS, N_HOSTS), ctr)
        # The Prometheus exporter's lines from the same server.
        from wirerate.exporter import WirerateCollector
        smp = WirerateCollector(c).samples()
        self.assertIn(({"port": "0", "state": "up"}, float(N_HOSTS)), smp["wirerate_hosts"])
        exp = {lab["counter"]: v for lab, v in smp["wirerate_hosts_counter_total"]}
        self.assertEqual((exp["echo4_answered"], exp["hosts"]), (len(picks), N_HOSTS))
        # After the traffic the hosts stay (until the next start or server.reset), and
        # still answer the kernel.
        c.stop()
        self.assertEqual(c.wait(timeout=10)["state"], "done")
        self.assertEqual((c.host_counters()[0]["up"], c.hosts(0, limit=1)["total"]),
                         (N_HOSTS, N_HOSTS))
        out = self.nsexec("ping", "-c", "1", "-W", "2", str(FIRST_IP + 123), check=False)
        self.assertIn("1 received", out, out)
        self.assertEqual(c.host_counters()[0]["counters"]["echo4_answered"], len(picks) + 1)

    def test_errors(self):
        p, sock = self.serve_ns()
        c = self.client(sock)
        # Before any start: a port without hosts is an empty list.
        r = c.hosts(0)
        self.assertEqual((r["total"], r["matched"], r["hosts"], r["next_offset"]),
                         (0, 0, [], None))
        self.assertEqual(c.host_counters(), [])
        self.start_hosts(c, hosts_yaml(count=40, gateway=False))
        self.assertTrue(wait_for(lambda: c.host_counters()[0]["up"] == 40, 60),
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
        server goes on: two groups sharing MACs, a group on a port the server lacks (both
        refused by streams.load); hosts whose gateway never answers come up failed, and
        traffic.start's reply says so."""
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
        with self.assertRaises(RpcError) as e:
            c.load(text)
        self.assertEqual(e.exception.code, -32000)
        self.assertEqual((e.exception.data["line"], e.exception.data["col"]), (8, 5),
                         e.exception.data)
        self.assertIn("hosts[1].port: port 3 does not exist: this server has 1 port",
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


class RunHosts(HostsApiCase):
    """`wirerate run --hosts --json`: the per-host table and the summary at the end, and
    the results' "hosts", for the hosts the kernel saw."""

    def test_run_table_and_json(self):
        prefix = f"wrapir{os.getpid()}"
        self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", prefix), True)
        prof = self.write("run.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={prefix}",
      "--vdev=net_af_packet0,iface={self.gen_if}", "--lcores=0@0,1@1"]
ports:
  - device: net_af_packet0
    tx_lcores: [1]
""")
        sf = self.write("s.yaml", hosts_yaml(count=40).replace(
            "    rate: 1 kpps\n", "    rate: 1 kpps\n    count: 500\n"))
        out = self.nsexec(os.environ.get("WIRERATE", os.path.join(ROOT, "build", "app",
                                                                  "wirerate")),
                          "run", sf, "--config", prof, "--quiet", "--hosts", "--json",
                          self.path("r.json"), "--stats-jsonl", self.path("s.jsonl"))
        rows = [l.split() for l in out.splitlines() if l.startswith("port 0: ")
                and l.split()[2].isdigit()]
        self.assertEqual([(int(r[2]), r[3], r[4], r[5], r[7]) for r in rows],
                         [(i, "clients", "up", mac_str(FIRST_MAC + i), f"{FIRST_IP + i}/16")
                          for i in range(40)], out)
        # The gateway's columns: the kernel's MAC, reachable, an age in ms.
        self.assertEqual({(r[9], r[10]) for r in rows}, {(self.kernel_mac, "reachable")}, out)
        self.assertTrue(all(r[11].endswith("ms") for r in rows), out)
        self.assertIn("port 0: hosts: 40 up, 0 pending, 0 failed, 0 idle (of 40)", out)
        # The kernel's neighbour table holds every host with the MAC the table shows.
        neigh = {w[0]: w[w.index("lladdr") + 1] for w in (
            l.split() for l in self.nsexec("ip", "neigh", "show", "dev",
                                           self.peer_if).splitlines()) if "lladdr" in w}
        self.assertEqual({r[7].split("/")[0]: r[5] for r in rows},
                         {ip: mac for ip, mac in neigh.items() if ip != GW_IP})
        res = self.json("r.json")
        h = res["hosts"]
        self.assertEqual([(x["port"], x["hosts"], x["up"], x["pending"], x["failed"])
                          for x in h], [(0, 40, 40, 0, 0)], h)
        self.assertEqual((h[0]["counters"]["gw_resolved"], h[0]["counters"]["garp_sent"]),
                         (40, 40), h)
        self.assertEqual(res["streams"][0]["tx_pkts"], 500)
        # Each --stats-jsonl line carries them too (a JSON object a line).
        with open(self.path("s.jsonl")) as f:
            lines = [json.loads(l) for l in f]
        self.assertTrue(lines and lines[-1]["final"], lines)
        self.assertTrue(all(len(l["hosts"]) == 1 for l in lines), lines)
        self.assertEqual(lines[-1]["hosts"][0]["up"], 40)


class HostsWeb(WebCase):
    """The console's Hosts view, in headless Chromium, against hosts.list: a server on
    net_null (hosts without a gateway come up with no peer)."""

    browser = "chromium"

    def test_hosts_view(self):
        p, sock, port = self.web_serve(tag="h")
        c = self.client(sock)
        a = Page(self, port, cpus={0}, name="hosts")
        a.view("streams")
        # 150 hosts that come up with no peer, and 20 whose gateway nobody answers.
        a.type_yaml(hosts_yaml(count=150, gateway=False).replace("streams:", """  - name: lost
    port: 0
    count: 20
    mac: 02:30:00:00:00:01
    ipv4: {addr: 10.78.0.10, prefix: 16, gateway: 10.78.9.9}
streams:"""))
        a.wait(lambda: a.q("#check").get_attribute("data-state") == "valid", "no valid check")
        a.q("#take-control").click()
        a.wait(lambda: a.q("#btn-load").is_enabled(), "load stays disabled")
        a.q("#btn-load").click()
        a.wait(lambda: [s["name"] for s in c.streams()] == ["s"], "streams not loaded")
        a.view("traffic")
        a.q('#start-form input[name="duration"]').send_keys("120")
        a.q("#btn-start").click()
        self.assertTrue(wait_for(lambda: c.host_counters() and
                                 (c.host_counters()[0]["up"], c.host_counters()[0]["failed"])
                                 == (150, 20), 60), c.host_counters())
        a.view("hosts")
        Select = __import__("selenium.webdriver.support.select", fromlist=["Select"]).Select
        Select(a.q('#hosts-form select[name="limit"]')).select_by_value("50")
        a.q("#hosts-show").click()
        cols = ("mac", "ipv4", "gateway", "neigh-state", "gateway-mac", "age")

        def shown():
            # The table in one read: it is redrawn each second while shown.
            return [(int(r[0]), r[1], *r[2:]) for r in a.d.execute_script(
                "return [...document.querySelectorAll('#hosts-table tbody tr')].map((tr) =>"
                " [tr.dataset.host, tr.dataset.state, ...arguments[0].map((c) =>"
                "  tr.querySelector(`[data-col=${c}]`).textContent)]);", list(cols))]

        def want(offset, state=None):
            # A neighbour's age goes on: compared as "a number of ms".
            return [(h["index"], h["state"], h["mac"],
                     f'{h["ipv4"]["address"]}/{h["ipv4"]["prefix"]}',
                     "\n".join(n["ip"] for n in h["neighbours"]) or "–",
                     "\n".join(n["state"] + (f' ({n["probes"]} asked)' if n["probes"] else "")
                               for n in h["neighbours"]) or "–",
                     "\n".join(n["mac"] or "–" for n in h["neighbours"]) or "–",
                     "ms" if h["neighbours"] else "–")
                    for h in c.hosts(0, offset=offset, limit=50, state=state)["hosts"]]

        def shown_ms():
            return [r[:-1] + ("ms" if r[-1].isdigit() else r[-1],) for r in shown()]
        a.wait(lambda: shown_ms() == want(0), lambda: f"first page: {shown()}")
        self.assertEqual([x[2] for x in shown()], [mac_str(FIRST_MAC + i) for i in range(50)])
        self.assertIn("Hosts 1 to 50 of 170 matching", a.text("#hosts-info"))
        a.shot("hosts-page")
        a.click("#hosts-next")
        a.wait(lambda: shown_ms() == want(50), lambda: f"second page: {shown()}")
        self.assertIn("Hosts 51 to 100 of 170 matching", a.text("#hosts-info"))
        # The failed ones: their gateway's entry, failed, no MAC learned, its age.
        Select(a.q('#hosts-form select[name="state"]')).select_by_value("failed")
        a.click("#hosts-show")
        a.wait(lambda: shown_ms() == want(0, "failed"), lambda: f"failed: {shown()}")
        self.assertEqual([(r[2], r[4], r[5], r[6]) for r in shown()],
                         [(mac_str(0x023000000001 + i), "10.78.9.9", "failed (3 asked)", "–")
                          for i in range(20)])
        self.assertTrue(all(r[7].isdigit() for r in shown()), shown())
        a.shot("hosts-failed")
        # A state no host is in: an empty page, said so.
        Select(a.q('#hosts-form select[name="state"]')).select_by_value("idle")
        a.click("#hosts-show")
        a.wait(lambda: shown() == [], "hosts shown for state idle")
        a.wait(lambda: a.text("#hosts-info") == "No host matches (170 on port 0).",
               lambda: a.text("#hosts-info"))
        a.wait(lambda: a.text('[data-counter="0:up"] td.num') == "150", "counters: up")
        a.wait(lambda: a.text('[data-counter="0:gw_failed"] td.num') == "20", "gw_failed")
        a.shot("hosts")
        self.assertEqual(a.errors(), [])


if __name__ == "__main__":
    unittest.main()
