# SPDX-License-Identifier: BSD-3-Clause
"""Emulated hosts (hosts:) against the Linux kernel: wirerate on net_af_packet at one end of a
veth pair in a namespace, the kernel at the other pinging the hosts, resolving them, answering
their gateways' resolution; tshark judging their IPv6 DAD and unsolicited NAs."""

import ipaddress
import json
import os
import pathlib
import shutil
import signal
import subprocess
import time
import unittest

from wrtest import ROOT, WIRERATE, EalCase, kill, wait_for

# The kernel's pings: an echo request to every address given (a raw socket: the kernel resolves
# each address with ARP or ND and routes the request), at most one a millisecond, then the
# replies until none came for 2 s; prints {address: replies} as JSON.
PINGER = r"""
import json, os, socket, struct, sys, time
fam = socket.AF_INET6 if ":" in sys.argv[1] else socket.AF_INET
proto = socket.IPPROTO_ICMPV6 if fam == socket.AF_INET6 else socket.IPPROTO_ICMP
s = socket.socket(fam, socket.SOCK_RAW, proto)
ident = os.getpid() & 0xffff
def csum(b):
    if len(b) % 2: b += b"\0"
    t = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while t >> 16: t = (t & 0xffff) + (t >> 16)
    return ~t & 0xffff
addrs = sys.argv[1:]
got = {a: 0 for a in addrs}
s.setblocking(False)
def drain():
    while True:
        try:
            data, src = s.recvfrom(2048)
        except BlockingIOError:
            return
        if fam == socket.AF_INET:
            data = data[(data[0] & 15) * 4:]
            want = 0
        else:
            want = 129
        if len(data) >= 8 and data[0] == want and struct.unpack("!H", data[4:6])[0] == ident:
            a = src[0]
            got[a] = got.get(a, 0) + 1
for i, a in enumerate(addrs):
    t = 8 if fam == socket.AF_INET else 128
    h = struct.pack("!BBHHH", t, 0, 0, ident, i & 0xffff) + b"wirerate-svc"
    if fam == socket.AF_INET:
        h = h[:2] + struct.pack("!H", csum(h)) + h[4:]
    s.sendto(h, (a, 0))
    time.sleep(0.001)
    drain()
last = time.monotonic()
while time.monotonic() - last < 2:
    n = sum(got.values())
    drain()
    if sum(got.values()) != n:
        last = time.monotonic()
    time.sleep(0.01)
print(json.dumps(got), flush=True)
"""

N_HOSTS = 1000


def host_mac(k):
    v = 0x025c00000001 + k
    return ":".join(f"{(v >> (8 * i)) & 0xff:02x}" for i in range(5, -1, -1))


@unittest.skipUnless(os.geteuid() == 0, "needs root for a network namespace")
class HostsKernel(EalCase):
    """1,000 static hosts on one af_packet port; the kernel in the namespace is their peer."""

    K4 = "10.88.0.1"
    K6 = "2001:db8:88::1"
    H4 = ipaddress.IPv4Address("10.88.1.1")
    H6 = ipaddress.IPv6Address("2001:db8:88::1:1")

    def setUp(self):
        super().setUp()
        self.need_eal()
        for tool in ("ip", "tshark", "tcpdump"):
            if shutil.which(tool) is None:
                self.fail(f"{tool} is needed")
        tag = f"{os.getpid() % 100000}"
        self.ns = f"wrsvc{tag}"
        self.gen_if, self.k_if = f"svc{tag}g", f"svc{tag}k"
        subprocess.run(["ip", "netns", "del", self.ns], capture_output=True)
        self.sh("ip", "netns", "add", self.ns)
        self.addCleanup(subprocess.run, ["ip", "netns", "del", self.ns], capture_output=True)
        self.sh("ip", "-n", self.ns, "link", "set", "lo", "up")
        self.sh("ip", "-n", self.ns, "link", "add", self.gen_if, "type", "veth", "peer", "name",
                self.k_if)
        # Our end carries no address of the kernel's: IPv6 off there, or the kernel would speak
        # from it too (router solicitations, its own DAD).
        self.nsx("sysctl", "-qw", f"net.ipv6.conf.{self.gen_if}.disable_ipv6=1")
        # Room for every host in the kernel's neighbour tables.  Their limits are the whole
        # machine's (no namespace has its own: 1024 entries by default, garbage-collected above
        # 512, shared with every other namespace's tests), and a table that is full makes the
        # kernel drop an ARP request or NS without an answer (neigh_event_ns fails): raised for
        # the test, put back after.
        for fam in ("ipv4", "ipv6"):
            for k, v in (("gc_thresh1", 1024), ("gc_thresh2", 8192), ("gc_thresh3", 16384)):
                path = f"/proc/sys/net/{fam}/neigh/default/{k}"
                with open(path) as f:
                    old = f.read().strip()
                if int(old) < v:
                    with open(path, "w") as f:
                        f.write(str(v))
                    self.addCleanup(pathlib.Path(path).write_text, old)
        self.sh("ip", "-n", self.ns, "link", "set", self.gen_if, "up")
        self.sh("ip", "-n", self.ns, "link", "set", self.k_if, "up")
        self.sh("ip", "-n", self.ns, "addr", "add", self.K4 + "/16", "dev", self.k_if)
        self.sh("ip", "-n", self.ns, "addr", "add", self.K6 + "/64", "dev", self.k_if, "nodad")
        self.k_mac = json.loads(self.sh("ip", "-n", self.ns, "-j", "link", "show",
                                        self.k_if))[0]["address"]
        self.prefix = f"svc{tag}"
        self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", self.prefix), True)

    def sh(self, *cmd):
        return subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=30).stdout

    def nsx(self, *cmd):
        return self.sh("ip", "netns", "exec", self.ns, *cmd)

    def prof(self, lcores="0@0,1@1"):
        # net_af_packet has one TX queue: the hosts send through the RX lcore (wr_host_svc.h).
        return self.write("k.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={self.prefix}", "--vdev=net_af_packet0,iface={self.gen_if}", "--lcores={lcores}"]
ports:
  - device: net_af_packet0
    tx_lcores: [1]
""")

    def streams(self, ipv4=True, ipv6=False, gateway=False, count=N_HOSTS, gw4=None):
        gw4 = gw4 or self.K4
        v4 = f"{{addr: {self.H4}, prefix: 16" + (f", gateway: {gw4}" if gateway else "") + "}"
        v6 = f"{{addr: \"{self.H6}\", prefix: 64" + (f", gateway: \"{self.K6}\"" if gateway
                                                      else "") + "}"
        return self.write("s.yaml", f"""version: 1
hosts:
  - name: clients
    port: 0
    count: {count}
    mac: "{host_mac(0)}"
""" + (f"    ipv4: {v4}\n" if ipv4 else "") + (f"    ipv6: {v6}\n" if ipv6 else "") + f"""
streams:
  - name: slow
    rate: 20 pps
    eth: {{dst: "{self.k_mac}"}}
    ipv4: {{src: {self.H4}, dst: {self.K4}}}
""")

    def start(self, sf, seconds, *args, lcores="0@0,1@1"):
        """wirerate run for @seconds in the namespace; returns once the streams started (the
        header line: the hosts' bring-up is over)."""
        gen = self.peer("wirerate", ["ip", "netns", "exec", self.ns, WIRERATE, "run", sf,
                                     "--config", self.prof(lcores), "--duration", str(seconds),
                                     *args],
                        stdout=subprocess.PIPE, text=True, cwd=self.tmp)
        line = gen.stdout.readline()
        self.assertTrue(line, gen.log())
        return gen

    def finish(self, gen, early=False):
        """The run's stdout once it exited 0.  With @early, stopped by SIGTERM first: the
        run's length is a bound that fits a loaded machine, and what was to be seen while
        the hosts were up has been (README: a run stopped so ends as at its end, exit 0)."""
        if early and gen.poll() is None:
            gen.send_signal(signal.SIGTERM)
        out, _ = gen.communicate(timeout=60)
        self.assertEqual(gen.returncode, 0, gen.log())
        return out

    def ping(self, addrs):
        p = subprocess.run(["ip", "netns", "exec", self.ns, "/usr/bin/python3", "-c", PINGER,
                            *addrs], capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        return json.loads(p.stdout)

    def neigh(self, fam):
        out = self.sh("ip", "-n", self.ns, "-j", fam, "neigh", "show", "dev", self.k_if)
        return {e["dst"]: e for e in json.loads(out)} if out.strip() else {}

    def test_ping_and_neighbours_v4(self):
        """The kernel pings each of 1,000 hosts once: 1,000 replies, one from each; its
        neighbour table then lists every host with its own MAC."""
        gen = self.start(self.streams(), 30)  # at most: stopped once pinged
        try:
            addrs = [str(self.H4 + k) for k in range(N_HOSTS)]
            got = self.ping(addrs)
            neigh = self.neigh("-4")
        finally:
            out = self.finish(gen, early=True)
        self.assertEqual(sum(got.values()), N_HOSTS, {a: n for a, n in got.items() if n != 1})
        self.assertEqual(set(got), set(addrs))
        self.assertTrue(all(n == 1 for n in got.values()))
        for k, a in enumerate(addrs):
            self.assertIn(a, neigh)
            self.assertEqual(neigh[a].get("lladdr"), host_mac(k), neigh[a])
            self.assertNotIn("FAILED", neigh[a]["state"])
        self.assertIn("summary", out)

    def test_dad_na_and_ping6(self):
        """IPv6: each host's DAD (a Neighbor Solicitation from :: to its solicited-node group)
        and unsolicited NA (to all-nodes, Override set, Solicited clear, its MAC) as tshark
        reads them on the kernel's side; the kernel's ping6 to each host answered."""
        n = N_HOSTS
        pcap = self.path("k6.pcap")
        dump = self.peer("tcpdump", ["ip", "netns", "exec", self.ns, "tcpdump", "-i", self.k_if,
                                     "-n", "-U", "-w", pcap, "icmp6"], stdout=subprocess.DEVNULL)
        self.assertTrue(wait_for(lambda: "listening" in dump.log(), 10), dump.log())
        gen = self.start(self.streams(ipv4=True, ipv6=True, count=n), 30)  # at most
        try:
            addrs = [str(self.H6 + k) for k in range(n)]
            got = self.ping(addrs)
            neigh = self.neigh("-6")
        finally:
            out = self.finish(gen, early=True)
            time.sleep(0.3)
            kill(dump)
        self.assertIn("summary", out)
        got = {str(ipaddress.IPv6Address(a)): c for a, c in got.items()}
        self.assertEqual(sum(got.values()), n, {a: c for a, c in got.items() if c != 1})
        self.assertEqual(set(got), set(addrs))
        for k, a in enumerate(addrs):
            self.assertEqual(neigh.get(a, {}).get("lladdr"), host_mac(k), neigh.get(a))
        # DAD: from ::, to the target's solicited-node group, no source link-layer option
        # (RFC 4862 section 5.4.2), from the host's MAC.
        p = subprocess.run(["tshark", "-r", pcap, "-Y", "icmpv6.type == 135 && ipv6.src == ::",
                            "-T", "fields", "-e", "eth.src", "-e", "ipv6.dst", "-e",
                            "icmpv6.nd.ns.target_address", "-e", "icmpv6.opt.type", "-e",
                            "icmpv6.checksum.status"], capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        dad = {}
        for line in p.stdout.splitlines():
            src, dst, target, opt, ck = (line.split("\t") + [""] * 5)[:5]
            if not src.startswith("02:5c:"):
                continue  # the kernel's own DAD of its link-local address
            t = ipaddress.IPv6Address(target)
            self.assertNotIn("1", opt.split(","), line)
            self.assertEqual(ck, "1", line)
            self.assertEqual(ipaddress.IPv6Address(dst),
                             ipaddress.IPv6Address("ff02::1:ff00:0") + (int(t) & 0xffffff), line)
            dad.setdefault(str(t), set()).add(src)
        want = {a: {host_mac(k)} for k, a in enumerate(addrs)}
        self.assertEqual({a: dad.get(a) for a in want}, want)
        # Unsolicited NA: to all-nodes, S clear, O set, the target link-layer option the MAC.
        p = subprocess.run(["tshark", "-r", pcap, "-Y",
                            "icmpv6.type == 136 && ipv6.dst == ff02::1", "-T", "fields",
                            "-e", "eth.src", "-e", "icmpv6.nd.na.target_address", "-e",
                            "icmpv6.nd.na.flag.s", "-e", "icmpv6.nd.na.flag.o", "-e",
                            "icmpv6.opt.linkaddr", "-e", "icmpv6.checksum.status", "-e",
                            "ipv6.hlim"], capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        na = {}
        for line in p.stdout.splitlines():
            src, target, s, o, lla, ck, hlim = (line.split("\t") + [""] * 7)[:7]
            if not src.startswith("02:5c:"):
                continue
            self.assertIn(s, ("0", "False"), line)
            self.assertIn(o, ("1", "True"), line)
            self.assertEqual(lla, src, line)
            self.assertEqual(ck, "1", line)
            self.assertEqual(hlim, "255", line)
            na[str(ipaddress.IPv6Address(target))] = src
        self.assertEqual({a: na.get(a) for a in addrs},
                         {a: host_mac(k) for k, a in enumerate(addrs)})

    def test_gateways_resolved(self):
        """Every host's gateways are the kernel's addresses: each host asks (ARP, and NS from
        its link-local address), the kernel answers, and `run --hosts` shows both gateway
        entries REACHABLE with the kernel's MAC; the kernel, asked, learned every host."""
        gen = self.start(self.streams(ipv6=True, gateway=True), 3, "--hosts")
        out = self.finish(gen)
        neigh = self.neigh("-4")
        rows = {}
        for line in out.splitlines():
            f = line.split()
            if len(f) >= 15 and f[0] == "port" and f[1] == "0:" and f[2].isdigit():
                rows[int(f[2])] = f
        self.assertEqual(sorted(rows), list(range(N_HOSTS)), out[-3000:])
        for k, f in rows.items():
            self.assertEqual(f[3:6], ["clients", "up", host_mac(k)], f)
            self.assertEqual(f[7], f"{self.H4 + k}/16", f)
            self.assertEqual(f[9:11], [self.k_mac, "reachable"], f)
            self.assertEqual(f[12:14], [self.k_mac, "reachable"], f)
        for k in range(N_HOSTS):
            self.assertEqual(neigh.get(str(self.H4 + k), {}).get("lladdr"), host_mac(k))

    def test_host_lcore(self):
        """--host-lcore: the service polls on a lcore of its own (2, on CPU 0 beside the
        sleeping main lcore); the kernel's pings to 100 hosts are all answered."""
        gen = self.start(self.streams(count=100), 20, "--host-lcore", "2",
                         lcores="0@0,1@1,2@0")
        try:
            got = self.ping([str(self.H4 + k) for k in range(100)])
        finally:
            self.finish(gen, early=True)
        self.assertEqual(sorted(got.values()), [1] * 100, got)

    def test_hosts_alone(self):
        """A file of hosts and no stream (what an OTG config of devices without flows plans):
        on af_packet, whose one TX queue the hosts share with the lcore that polls it, the
        kernel's pings to 100 hosts are all answered and every host resolves its gateway."""
        sf = self.write("alone.yaml", f"""version: 1
hosts:
  - name: devices
    port: 0
    count: 100
    mac: "{host_mac(0)}"
    ipv4: {{addr: {self.H4}, prefix: 16, gateway: {self.K4}}}
""")
        gen = self.start(sf, 20, "--hosts")  # at most: stopped once pinged
        try:
            got = self.ping([str(self.H4 + k) for k in range(100)])
        finally:
            out = self.finish(gen, early=True)
        self.assertEqual(sorted(got.values()), [1] * 100, got)
        self.assertIn("gw4_reachable=100", out.replace("\n", " "), out[-3000:])

    def bringup_s(self, *args):
        """Seconds from the start of a run whose hosts' gateway never answers to its first
        line (the streams start once the bring-up wait is over)."""
        t0 = time.monotonic()
        gen = self.start(self.streams(count=10, gateway=True, gw4="10.88.0.99"), 1, *args)
        t = time.monotonic() - t0
        self.finish(gen)
        return t

    def test_wait_bounded(self):
        """A gateway that never answers keeps the hosts from coming up: --hosts-wait 300 ends
        the wait (the streams start and the run ends); without it, the resolution's own end
        (FAILED after its retries) does, seconds later."""
        short = self.bringup_s("--hosts-wait", "300")
        full = self.bringup_s()
        self.assertGreater(full - short, 2.0, (short, full))


class HostsBadInput(unittest.TestCase):
    """hosts: refused before EAL starts."""

    def test_port_missing(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            sf = os.path.join(d, "s.yaml")
            with open(sf, "w") as f:
                f.write("""version: 1
hosts:
  - name: clients
    port: 0
    count: 4
    mac: "02:5c:00:00:00:01"
    ipv4: {addr: 10.88.1.1}
  - name: others
    port: 1
    count: 4
    mac: "02:5c:00:01:00:01"
    ipv4: {addr: 10.89.1.1}
streams:
  - name: slow
    rate: 20 pps
    ipv4: {src: 10.88.1.1, dst: 10.88.0.1}
""")
            p = subprocess.run([WIRERATE, "run", sf, "--duration", "1"], capture_output=True,
                               text=True, timeout=30, cwd=d)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertRegex(p.stderr, r"^wirerate: \S*s\.yaml:8:5: hosts\[1\]\.port: port 1 does "
                                   r"not exist: the profile \S+ has 1 port \(0\.\.0\)\n$")
        self.assertNotIn("EAL", p.stderr)


if __name__ == "__main__":
    unittest.main()
