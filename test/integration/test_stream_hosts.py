# SPDX-License-Identifier: BSD-3-Clause
"""Streams from emulated hosts (`src: hosts.NAME`) seen by the Linux kernel over a veth: every frame's
(MAC, IPv4) pair one host's, exact counts per host, and the kernel's neighbour table; a DHCP
group's stream sends from the addresses dnsmasq (Debian's) leased."""

import collections
import ipaddress
import os
import shutil
import signal
import subprocess
import unittest

from wrtest import EalCase, WIRERATE, kill, tshark_fields, wait_for

RUN_TIMEOUT_S = 120
PEER_START_S = 10
HOSTS = 1000
PER_HOST = 3
FIRST_MAC = 0x025E00000001
FIRST_IP = ipaddress.IPv4Address("10.77.1.1")
PEER_IP = "10.77.0.1"
UDP_PORT = 7

# The kernel answers each datagram, so it resolves each host's address by
# ARP: the hosts' answers are what fills its neighbour table.
ECHO = r"""
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
s.bind(("0.0.0.0", int(sys.argv[1])))
open(sys.argv[2], "w").close()
while True:
    data, addr = s.recvfrom(65535)
    s.sendto(data, addr)
"""


def mac_str(v):
    return ":".join(f"{(v >> (8 * (5 - i))) & 0xff:02x}" for i in range(6))


def host(k):
    """Host k's (MAC, IPv4) as the group declares them."""
    return mac_str(FIRST_MAC + k), str(FIRST_IP + k)


class StreamsNs:
    """A namespace 'wrstreams-TAG' with a veth pair: wirerate's end and the kernel's."""

    def __init__(self, tag):
        self.ns = f"wrstreams-{tag}"
        self.gen_if = f"wrst{tag}g"[:15]
        self.peer_if = f"wrst{tag}p"[:15]
        self.procs = []

    def run(self, *args, **kw):
        return subprocess.run(["ip", "netns", "exec", self.ns, *args], check=True,
                              capture_output=True, text=True, timeout=30, **kw)

    def up(self):
        subprocess.run(["ip", "netns", "add", self.ns], check=True, timeout=10)
        # The neighbour table's gc_thresh* are the machine's (init namespace only): 1,000
        # entries fit under gc_thresh3 (1024 by default), and the forced collection above
        # gc_thresh2 spares entries updated in the last 5 s: the table is read right after.
        self.run("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
                 "net.ipv6.conf.default.disable_ipv6=1")
        ip = ["ip", "-n", self.ns]
        subprocess.run(ip + ["link", "set", "lo", "up"], check=True, timeout=10)
        subprocess.run(ip + ["link", "add", self.gen_if, "type", "veth", "peer", "name",
                             self.peer_if], check=True, timeout=10)
        for i in (self.gen_if, self.peer_if):
            subprocess.run(ip + ["link", "set", i, "up"], check=True, timeout=10)
        subprocess.run(ip + ["addr", "add", PEER_IP + "/16", "dev", self.peer_if],
                       check=True, timeout=10)
        # The kernel leaves a veth's UDP checksums to an offload that never runs: af_packet
        # hands them on unfinished and a host's DHCP client drops the offer as corrupt.
        self.run("ethtool", "-K", self.peer_if, "tx", "off")
        self.peer_mac = self.run("cat", f"/sys/class/net/{self.peer_if}/address").stdout.strip()

    def start(self, argv, ready=None):
        p = subprocess.Popen(["ip", "netns", "exec", self.ns, *argv],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.procs.append(p)
        if ready is not None and not wait_for(lambda: ready(p), PEER_START_S):
            raise RuntimeError(f"{argv[0]} did not start")
        if p.poll() is not None:
            raise RuntimeError(f"{argv[0]} failed: {p.stderr.read()}")
        return p

    def neigh(self):
        """{ip: (mac, state)} of the kernel's end."""
        out = self.run("ip", "neigh", "show", "dev", self.peer_if).stdout
        table = {}
        for line in out.splitlines():
            w = line.split()
            if "lladdr" in w:
                table[w[0]] = (w[w.index("lladdr") + 1], w[-1])
        return table

    def down(self):
        for p in self.procs:
            kill(p)
            if p.stderr:
                p.stderr.close()
        subprocess.run(["ip", "netns", "del", self.ns], timeout=10,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


class StreamsCase(EalCase):
    """wirerate on af_packet in a namespace of its own, the kernel at the other end."""

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0 or not all(shutil.which(p) for p in ("ip", "tcpdump", "ethtool")):
            self.skipTest("needs root, iproute2, tcpdump and ethtool")
        self.nsx = StreamsNs(f"{os.getpid() % 100000}")
        self.addCleanup(self.nsx.down)
        self.nsx.up()
        self.prefix = f"streams-h{os.getpid()}"
        self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", self.prefix), True)

    def profile(self):
        return self.write("p.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={self.prefix}",
      "--vdev=net_af_packet0,iface={self.nsx.gen_if}", "--lcores=0@0,1@1"]
ports:
  - device: net_af_packet0
    tx_lcores: [1]
    rx_lcore: 1
""")


class StreamsFromHosts(StreamsCase):
    """One stream sends from 1,000 static hosts, 3 frames each, to the kernel's UDP echo."""

    def stream_file(self, count):
        return self.write("s.yaml", f"""version: 1
hosts:
  - name: clients
    port: 0
    count: {HOSTS}
    mac: {mac_str(FIRST_MAC)}
    ipv4: {{addr: {FIRST_IP}, prefix: 16}}
streams:
  - name: from-hosts
    src: hosts.clients
    eth: {{dst: "{self.nsx.peer_mac}"}}
    ipv4: {{dst: {PEER_IP}}}
    udp: {{src: 40000, dst: {UDP_PORT}}}
    rate: 5 kpps
    count: {count}
""")

    def test_every_frame_one_hosts(self):
        sf = self.stream_file(HOSTS * PER_HOST)
        # What check says before anything runs: the stream's hosts.
        p = subprocess.run([WIRERATE, "check", sf], capture_output=True, text=True, timeout=30)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"sends from hosts.clients: {HOSTS} hosts", p.stdout)
        ready = self.path("echo.ready")
        script = self.write("echo.py", ECHO)
        self.nsx.start(["python3", script, str(UDP_PORT), ready],
                       ready=lambda _: os.path.exists(ready))
        pcap = self.path("k.pcap")
        tcpdump = self.nsx.start(["tcpdump", "-i", self.nsx.peer_if, "-n", "-U", "-w", pcap,
                                  "-Q", "in", f"udp dst port {UDP_PORT}"],
                                 ready=lambda _: os.path.exists(pcap))
        run = subprocess.run(["ip", "netns", "exec", self.nsx.ns, WIRERATE, "run", sf,
                              "--config", self.profile(), "--quiet", "--drain", "1",
                              "--json", self.path("r.json")],
                             cwd=self.tmp, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        # The kernel's neighbour table, read while its entries are fresh.
        neigh = self.nsx.neigh()
        tcpdump.send_signal(signal.SIGINT)
        tcpdump.wait(timeout=10)
        rows = tshark_fields(pcap, ["eth.src", "ip.src", "ip.checksum.status",
                                    "udp.checksum.status"])
        self.assertEqual(len(rows), HOSTS * PER_HOST)
        pairs = collections.Counter((r[0], r[1]) for r in rows)
        want = collections.Counter({host(k): PER_HOST for k in range(HOSTS)})
        self.assertEqual(pairs, want)
        self.assertEqual({r[2] for r in rows}, {"1"})  # checksums good
        self.assertEqual({r[3] for r in rows}, {"1"})
        # The kernel answered every host, so it resolved every host's address (ARP, the
        # hosts' engine answering): each entry holds that host's MAC.
        by_ip = {host(k)[1]: host(k)[0] for k in range(HOSTS)}
        seen = {ip: e for ip, e in neigh.items() if ip in by_ip}
        self.assertEqual({ip: e[0] for ip, e in seen.items()},
                         by_ip, "the kernel's neighbours differ from the hosts")
        self.assertEqual({e[1] for e in seen.values()} - {"REACHABLE", "STALE", "DELAY"},
                         set(), seen)



DNSMASQ = shutil.which("dnsmasq") or "/usr/sbin/dnsmasq"
LEASED = 50
LEASED_MAC = 0x025F00000001


def lease_file(path):
    """dnsmasq's lease file as {mac: ip} ("EXPIRY MAC IP HOSTNAME CLIENT-ID" a line)."""
    out = {}
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 3 and p[0].isdigit():
                out[p[1]] = p[2]
    return out


class StreamFromLeases(StreamsCase):
    """50 hosts lease their addresses from dnsmasq; their stream's frames, captured beside
    dnsmasq, carry exactly the leased (MAC, IPv4) pairs of its lease file, 3 frames each."""

    def test_frames_carry_leases(self):
        if not os.path.exists(DNSMASQ):
            self.skipTest("needs dnsmasq (Debian dnsmasq-base)")
        leases, pid = self.path("dnsmasq.leases"), self.path("dnsmasq.pid")
        self.nsx.start([DNSMASQ, "--keep-in-foreground", "--conf-file=/dev/null", "--port=0",
                        "--bind-interfaces", f"--interface={self.nsx.peer_if}",
                        "--dhcp-range=10.77.100.1,10.77.100.254,255.255.0.0,1h",
                        f"--dhcp-leasefile={leases}", "--dhcp-authoritative", "--no-ping",
                        f"--pid-file={pid}", "--log-facility=-"],
                       ready=lambda _: os.path.exists(pid))
        pcap = self.path("l.pcap")
        tcpdump = self.nsx.start(["tcpdump", "-i", self.nsx.peer_if, "-n", "-U", "-w", pcap,
                                  f"udp dst port {UDP_PORT} or udp port 67 or udp port 68"],
                                 ready=lambda _: os.path.exists(pcap))
        sf = self.write("l.yaml", f"""version: 1
hosts:
  - name: leased
    port: 0
    count: {LEASED}
    mac: {mac_str(LEASED_MAC)}
    ipv4: dhcp
streams:
  - name: from-leases
    src: hosts.leased
    eth: {{dst: "{self.nsx.peer_mac}"}}
    ipv4: {{dst: {PEER_IP}}}
    udp: {{src: 40000, dst: {UDP_PORT}}}
    rate: 5 kpps
    count: {LEASED * PER_HOST}
""")
        # Before the run: the addresses are not known; check says so.
        p = subprocess.run([WIRERATE, "check", sf], capture_output=True, text=True, timeout=30)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"sends from hosts.leased: {LEASED} hosts", p.stdout)
        self.assertIn("leased or autoconfigured", p.stdout)
        run = subprocess.run(["ip", "netns", "exec", self.nsx.ns, WIRERATE, "run", sf,
                              "--config", self.profile(), "--quiet", "--drain", "1",
                              "--hosts-wait", "20000"],
                             cwd=self.tmp, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        tcpdump.send_signal(signal.SIGINT)
        tcpdump.wait(timeout=10)
        rows = tshark_fields(pcap, ["eth.src", "ip.src", "ip.checksum.status"],
                             f"udp.dstport == {UDP_PORT}")
        pairs = collections.Counter((r[0], r[1]) for r in rows)
        self.assertEqual(len(rows), LEASED * PER_HOST, run.stdout)
        self.assertEqual(set(pairs.values()), {PER_HOST}, pairs)
        self.assertEqual({r[2] for r in rows}, {"1"})
        # What dnsmasq acknowledged, as tshark reads its ACKs (the hosts release their
        # leases when the run ends: the lease file is empty again by now).
        acks = tshark_fields(pcap, ["dhcp.hw.mac_addr", "dhcp.ip.your"], "dhcp.option.dhcp == 5")
        acked = {r[0]: r[1] for r in acks}
        self.assertEqual(len(acked), LEASED, acks)
        self.assertEqual(dict(pairs.keys()), acked)
        self.assertEqual(set(acked), {mac_str(LEASED_MAC + k) for k in range(LEASED)})
        self.assertEqual(lease_file(leases), {}, "released at the end of the run")

if __name__ == "__main__":
    unittest.main()
