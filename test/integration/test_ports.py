# SPDX-License-Identifier: BSD-3-Clause
"""wirerate ports, ARP/ICMP against the Linux kernel on a veth, telemetry during a run, --stats-jsonl."""

import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import time
import unittest

from wrtest import ROOT, STREAMS, WIRERATE, EalCase, kill, pcap_frames, wait_for

NULL_PCAP_EAL = ["--no-pci", "--in-memory", "--vdev=net_null0", "--lcores=0@0"]

# A UDP sink in the namespace: counts datagrams until none came for 1.5 s
# after the first (or 8 s without any), prints the count.
UDP_SINK = """
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[1], int(sys.argv[2])))
print("ready", flush=True)
n = 0
s.settimeout(8)
try:
    while True:
        s.recv(65535)
        n += 1
        s.settimeout(1.5)
except OSError:
    pass
print(n, flush=True)
"""


def forget_prefix(case, prefix):
    """EAL leaves /var/run/dpdk/PREFIX (its telemetry socket) even with --in-memory: remove it."""
    case.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", prefix), True)


def stderr_lines(p):
    """wirerate's own lines on stderr (EAL prints a few of its own before its log level applies)."""
    return [l for l in p.stderr.splitlines() if l.startswith("wirerate:")]


class Ports(EalCase):
    """`wirerate ports` on virtual devices."""

    def test_null_and_pcap_json(self):
        forget_prefix(self, "wrpls")
        forget_prefix(self, "wrpls2")
        p = self.wirerate("ports", "--json", "--", *NULL_PCAP_EAL, "--file-prefix=wrpls",
                          "--vdev=net_pcap0,tx_pcap=" + self.path("x.pcap"), check=0)
        res = json.loads(p.stdout)
        self.assertEqual(res["schema"], "wirerate-ports/1")
        by = {q["name"]: q for q in res["ports"]}
        self.assertEqual(set(by), {"net_null0", "net_pcap0"})
        self.assertEqual(by["net_null0"]["driver"], "net_null")
        self.assertEqual(by["net_pcap0"]["driver"], "net_pcap")
        for q in res["ports"]:
            self.assertRegex(q["mac"], r"^([0-9a-f]{2}:){5}[0-9a-f]{2}$")
            for k in ("port_id", "link_up", "link_speed_mbps", "numa_node", "max_rx_queues",
                      "max_tx_queues", "rx_queues", "tx_queues"):
                self.assertIn(k, q)
            # What DPDK reports of frame sizes, before wirerate raises the MTU.
            self.assertEqual(q["mtu"], 1500)
            self.assertEqual(q["max_mtu"], 65535)
            self.assertEqual(q["max_rx_pktlen"], 4294967295)
            self.assertGreaterEqual(q["max_tx_queues"], 1)
            self.assertEqual(set(q["offloads"]), {"tx_ipv4_cksum", "tx_udp_cksum", "rx_timestamp",
                                                  "mbuf_fast_free", "multi_seg"})
            self.assertTrue(all(isinstance(v, bool) for v in q["offloads"].values()))
        self.assertEqual(by["net_pcap0"]["max_tx_queues"], 1)
        # The text form names both.
        p = self.wirerate("ports", "--", *NULL_PCAP_EAL, "--file-prefix=wrpls2", check=0)
        self.assertRegex(p.stdout, r"(?m)^0\s+net_null0\s+net_null\s+")

    def test_missing_port(self):
        forget_prefix(self, "wrpmiss")
        p = self.wirerate("ports", "net_null7", "--", *NULL_PCAP_EAL, "--file-prefix=wrpmiss",
                          check=2)
        lines = stderr_lines(p)
        self.assertEqual(lines, ['wirerate: port "net_null7" does not exist; EAL found: net_null0'])
        self.assertEqual(p.stderr.strip().splitlines()[-1], lines[0])
        self.assertEqual(p.stdout, "")


class Telemetry(EalCase):
    """/wirerate/* answered by DPDK's telemetry client while a run goes on (--in-memory)."""

    def query(self, prefix, cmd):
        p = subprocess.run(["dpdk-telemetry.py", "-f", prefix], input=cmd + "\n",
                           capture_output=True, text=True, timeout=20)
        # It exits 0 even when it cannot connect: the JSON is the proof.
        for line in p.stdout.splitlines():
            if line.startswith("{") and cmd in line:
                return json.loads(line)[cmd]
        self.fail(f"no answer to {cmd}: {p.stdout!r} {p.stderr!r}")

    def test_live_counters(self):
        prof = self.profile("net_null0", "wrptel")
        forget_prefix(self, "wrptel")
        # Until the queries are done (three starts of dpdk-telemetry.py took
        # over 3 s beside two busy loops), then SIGINT ends it with exit 0.
        proc = self.start("run", os.path.join(STREAMS, "udp-64.yaml"), "--config", prof,
                          "--duration", "60", "--quiet")
        try:
            sock = "/var/run/dpdk/wrptel/dpdk_telemetry.v2"
            end = time.monotonic() + 10
            while not os.path.exists(sock) and time.monotonic() < end:
                time.sleep(0.05)
            time.sleep(0.5)
            first = self.query("wrptel", "/wirerate/streams")
            time.sleep(0.4)
            second = self.query("wrptel", "/wirerate/streams")
            ports = self.query("wrptel", "/wirerate/ports")
            lat = self.query("wrptel", "/wirerate/latency")
        finally:
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 0, err)
        self.assertEqual(first["0"]["name"], "udp-64")
        self.assertGreater(first["0"]["tx_pkts"], 0)
        self.assertGreater(second["0"]["tx_pkts"], first["0"]["tx_pkts"])
        self.assertEqual(second["0"]["tx_bytes"], 64 * second["0"]["tx_pkts"])
        self.assertEqual(ports["0"]["name"], "net_null0")
        self.assertGreaterEqual(ports["0"]["tx_pkts"], second["0"]["tx_pkts"])
        self.assertEqual(lat, {})


class StatsJsonl(EalCase):
    """--stats-jsonl: one parsable line per interval, the last one equal to --json's totals."""

    def test_lines(self):
        prof = self.profile("net_null0", "wrpjsonl", extra_ports="stats_interval_ms: 250\n")
        forget_prefix(self, "wrpjsonl")
        log = self.path("s.jsonl")
        self.wirerate("run", os.path.join(STREAMS, "udp-64.yaml"), "--config", prof,
                      "--duration", "1.6", "--quiet", "--stats-jsonl", log,
                      "--json", self.path("r.json"), check=0)
        with open(log) as f:
            lines = [json.loads(l) for l in f]
        self.assertGreaterEqual(len(lines), 5)
        self.assertEqual([l["final"] for l in lines], [False] * (len(lines) - 1) + [True])
        prev_t, prev_pkts = 0, -1
        for l in lines:
            self.assertGreater(l["t"], prev_t)
            prev_t = l["t"]
            s = l["streams"][0]
            self.assertGreaterEqual(s["tx_pkts"], prev_pkts)
            prev_pkts = s["tx_pkts"]
            self.assertEqual(s["tx_bytes"], 64 * s["tx_pkts"])
            self.assertEqual(l["ports"][0]["tx_pkts"], s["tx_pkts"])
        mid = lines[1]["streams"][0]
        rate = (mid["tx_pkts"] - lines[0]["streams"][0]["tx_pkts"]) / lines[1]["interval_s"] / 1e3
        self.assertAlmostEqual(mid["kpps"], rate, delta=rate * 1e-3 + 0.01)
        self.assertAlmostEqual(mid["mbps_l1"], mid["kpps"] * (64 + 20) * 8 / 1000,
                               delta=mid["mbps_l1"] * 1e-3 + 0.01)
        res = self.json("r.json")
        last = lines[-1]
        for got, want in ((last["streams"][0], res["streams"][0]),
                          (last["ports"][0], res["ports"][0])):
            for k in ("tx_pkts", "tx_bytes", "kpps", "mbps_l2", "mbps_l1"):
                self.assertEqual(got[k], want[k], k)
            self.assertAlmostEqual(got["duration_s"], want["duration_s"], places=6)


@unittest.skipUnless(os.geteuid() == 0, "needs root for a network namespace")
class Kernel(EalCase):
    """ARP and ICMP against the Linux kernel: wirerate on net_af_packet at one end of a veth pair."""

    GEN_IP = "10.77.0.2"
    KERNEL_IP = "10.77.0.1"

    def setUp(self):
        super().setUp()
        for tool in ("ip", "ping"):
            if shutil.which(tool) is None:
                self.fail(f"{tool} is needed (iproute2, iputils-ping)")
        tag = f"{os.getpid() % 100000}"
        self.ns = f"wrpns{tag}"
        self.gen_if, self.k_if = f"wrp{tag}g", f"wrp{tag}k"
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
        self.sh("ip", "-n", self.ns, "addr", "add", self.KERNEL_IP + "/24", "dev", self.k_if)
        link = self.sh("ip", "-n", self.ns, "-j", "link", "show", self.gen_if)
        self.gen_mac = json.loads(link)[0]["address"]
        self.prefix = f"wrpk{tag}"
        forget_prefix(self, self.prefix)

    def sh(self, *cmd):
        return subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=20).stdout

    def nsx(self, *cmd):
        return self.sh("ip", "netns", "exec", self.ns, *cmd)

    def prof(self, arp):
        return self.write("k.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={self.prefix}", "--vdev=net_af_packet0,iface={self.gen_if}", "--lcores=0@0,1@1"]
ports:
  - device: net_af_packet0
    tx_lcores: [1]
    arp: {'true' if arp else 'false'}
""")

    def run_in_ns(self, *args):
        return subprocess.Popen(["ip", "netns", "exec", self.ns, *args], cwd=self.tmp,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def neigh(self):
        out = self.sh("ip", "-n", self.ns, "-j", "neigh", "show", self.GEN_IP)
        return json.loads(out) if out.strip() else []

    def test_ping_and_neighbour(self):
        """The kernel asks who has our address, learns the port's MAC, and gets its pings answered."""
        sf = self.write("s.yaml", f"""version: 1
streams:
  - name: slow
    count: 250
    rate: 100 pps
    eth: {{dst: "02:00:00:00:00:99"}}
    ipv4: {{src: {self.GEN_IP}, dst: {self.KERNEL_IP}}}
""")
        self.assertEqual(self.neigh(), [])
        gen = self.run_in_ns(WIRERATE, "run", sf, "--config",
                             self.prof(True))
        try:
            time.sleep(1.0)
            ping = subprocess.run(["ip", "netns", "exec", self.ns, "ping", "-c", "3", "-i", "0.2",
                                   "-W", "1", self.GEN_IP], capture_output=True, text=True,
                                  timeout=20)
            neigh = self.neigh()
        finally:
            out, err = gen.communicate(timeout=30)
        self.assertEqual(gen.returncode, 0, err)
        self.assertEqual(ping.returncode, 0, ping.stdout + ping.stderr)
        self.assertIn("3 packets transmitted, 3 received", ping.stdout)
        self.assertNotIn("BAD CHECKSUM", ping.stdout)
        self.assertNotIn("DUP", ping.stdout)
        self.assertEqual(len(neigh), 1, neigh)
        self.assertEqual(neigh[0]["lladdr"], self.gen_mac)
        m = re.search(r"port 0: answered (\d+) ARP requests? and (\d+) ICMP echo", out)
        self.assertIsNotNone(m, out)
        self.assertGreaterEqual(int(m.group(1)), 1)
        self.assertEqual(int(m.group(2)), 3)

    def test_no_answer_without_arp(self):
        """Without arp: true the port stays silent: the kernel's ping goes unanswered."""
        sf = self.write("s.yaml", f"""version: 1
streams:
  - name: slow
    count: 150
    rate: 100 pps
    ipv4: {{src: {self.GEN_IP}, dst: {self.KERNEL_IP}}}
""")
        gen = self.run_in_ns(WIRERATE, "run", sf, "--config",
                             self.prof(False))
        try:
            time.sleep(0.5)
            ping = subprocess.run(["ip", "netns", "exec", self.ns, "ping", "-c", "1", "-W", "0.5",
                                   self.GEN_IP], capture_output=True, text=True, timeout=20)
        finally:
            out, err = gen.communicate(timeout=30)
        self.assertEqual(gen.returncode, 0, err)
        self.assertNotEqual(ping.returncode, 0)
        self.assertNotIn("answered", out)

    def test_arp_resolved_stream(self):
        """eth.dst: arp: the kernel's MAC is resolved, and every datagram reaches its UDP socket."""
        sink = self.run_in_ns(sys.executable, "-c", UDP_SINK, self.KERNEL_IP, "5555")
        self.addCleanup(sink.kill)
        self.assertEqual(sink.stdout.readline().strip(), "ready")
        sf = self.write("s.yaml", f"""version: 1
streams:
  - name: to-kernel
    count: 300
    rate: 1000 pps
    size: 128
    eth: {{dst: arp}}
    ipv4: {{src: {self.GEN_IP}, dst: {self.KERNEL_IP}}}
    udp: {{src: 4000, dst: 5555}}
""")
        p = subprocess.run(["ip", "netns", "exec", self.ns, WIRERATE,
                            "run", sf, "--config", self.prof(False), "--quiet", "--json",
                            self.path("r.json")], cwd=self.tmp, capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        out, _ = sink.communicate(timeout=20)
        self.assertEqual(int(out.strip()), 300)
        self.assertEqual(self.json("r.json")["streams"][0]["tx_pkts"], 300)

    def test_arp_resolved_stream_served(self):
        """eth.dst: arp through wirerate serve (streams.load, traffic.start): the frames carry
        the kernel's MAC, as `run`'s do.  The kernel is the judge: tcpdump on its end of the
        veth sees the destination, and its UDP socket counts what it took as its own."""
        sys.path.insert(0, os.path.join(ROOT, "python"))
        import wirerate  # noqa: E402  (the project's client, from the source tree)

        if shutil.which("tcpdump") is None:
            self.fail("tcpdump is needed")
        k_mac = json.loads(self.sh("ip", "-n", self.ns, "-j", "link", "show", self.k_if))[0][
            "address"]
        sink = self.run_in_ns(sys.executable, "-c", UDP_SINK, self.KERNEL_IP, "5555")
        self.addCleanup(sink.kill)
        self.assertEqual(sink.stdout.readline().strip(), "ready")
        pcap = self.path("k.pcap")
        dump = subprocess.Popen(["ip", "netns", "exec", self.ns, "tcpdump", "-i", self.k_if,
                                 "-n", "-U", "-w", pcap, "udp", "and", "port", "5555"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.addCleanup(dump.kill)
        # tcpdump says "listening on" once its socket is open: frames before it are lost.
        self.assertIn("listening", dump.stderr.readline())
        sock = self.path("srv.sock")
        log = self.path("serve.log")
        with open(log, "w") as f:
            srv = subprocess.Popen(["ip", "netns", "exec", self.ns, WIRERATE, "serve", "--config",
                                    self.prof(False), "--socket", sock], cwd=self.tmp,
                                   stdout=f, stderr=f)
        self.addCleanup(kill, srv)
        self.assertTrue(wait_for(lambda: os.path.exists(sock) or srv.poll() is not None, 20),
                        "the server did not create its socket")
        self.assertIsNone(srv.poll(), pathlib.Path(log).read_text())
        with wirerate.connect(sock) as c:
            self.assertTrue(wait_for(lambda: c.ports()[0]["link_up"], 20))
            c.load(f"""version: 1
streams:
  - name: to-kernel
    count: 300
    rate: 1000 pps
    size: 128
    eth: {{dst: arp}}
    ipv4: {{src: {self.GEN_IP}, dst: {self.KERNEL_IP}}}
    udp: {{src: 4000, dst: 5555}}
""")
            c.start()
            done = c.wait(timeout=20)
            self.assertEqual(done["state"], "done", done)
        out, _ = sink.communicate(timeout=20)
        time.sleep(0.3)
        dump.send_signal(signal.SIGINT)
        dump.communicate(timeout=10)
        kill(srv)
        self.assertEqual(srv.returncode, 0, pathlib.Path(log).read_text())
        dsts = [f[0:6].hex(":") for f in pcap_frames(pcap)]
        self.assertEqual(len(dsts), 300)
        self.assertEqual(set(dsts), {k_mac})
        self.assertEqual(int(out.strip()), 300)

    def test_unresolved_fails(self):
        sf = self.write("s.yaml", f"""version: 1
streams:
  - name: nobody
    count: 10
    eth: {{dst: arp}}
    ipv4: {{src: {self.GEN_IP}, dst: 10.77.0.99}}
""")
        t0 = time.monotonic()
        p = subprocess.run(["ip", "netns", "exec", self.ns, WIRERATE,
                            "run", sf, "--config", self.prof(False)], cwd=self.tmp,
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertLess(time.monotonic() - t0, 10)
        lines = stderr_lines(p)
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertRegex(lines[0], r"s\.yaml:\d+:\d+: streams\[0\]\.eth\.dst: arp: no ARP reply "
                                   r"from 10\.77\.0\.99 on port net_af_packet0 after 2 requests")
        self.assertNotIn("summary", p.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
