# SPDX-License-Identifier: BSD-3-Clause
"""Protocol stacks (issue 9) against the Linux kernel, a peer we did not write: in a network
namespace of our own, over a veth pair and net_af_packet, the kernel delivers IPv6/UDP
datagrams to a socket (exact count), answers TCP SYNs to a listening port with SYN-ACKs and to
a closed port with RSTs (counted with tcpdump), answers ICMP and ICMPv6 echo requests,
decapsulates VXLAN on a kernel vxlan interface and delivers the inner UDP to a socket, delivers
QinQ frames through 802.1ad + 802.1Q sub-interfaces, and counts raw L2 frames of a custom
EtherType on a packet socket; it also delivers UDP behind IPv4 options and behind a chain of IPv6
extension headers (hop-by-hop and destination options, a segment routing header, an atomic
fragment), decapsulates SRv6 with a seg6local route (End.DT6), answers ARP requests sent as a
stream and learns gratuitous ARP replies (issue 20)."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import unittest

from wrtest import WIRERATE, EalCase, tshark_fields, wait_for

N = 100      # frames per stream
N_ICMP = 50  # echo requests per family (below any ICMP rate limit)

# Runs in the namespace: one socket per receiver given as family:addr:port, or raw:ethertype
# (a packet socket on the given interface); counts datagrams until "stop" on stdin and a quiet
# 0.3 s, then prints {name: count}.
RECEIVER = r"""
import json, select, socket, sys, time
socks = {}
for spec in sys.argv[1:]:
    name, kind, a, b = spec.split(",")
    if kind == "raw":
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(int(b, 0)))
        s.bind((a, 0))
    else:
        fam = socket.AF_INET6 if kind == "udp6" else socket.AF_INET
        s = socket.socket(fam, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
        s.bind((a, int(b)))
    s.setblocking(False)
    socks[s] = [name, 0]
print("ready", flush=True)
stop_at, hard = None, time.monotonic() + 60
while time.monotonic() < hard and (stop_at is None or time.monotonic() < stop_at):
    r, _, _ = select.select(list(socks) + [sys.stdin], [], [], 0.05)
    if sys.stdin in r and stop_at is None:
        sys.stdin.readline()
        stop_at = time.monotonic() + 0.3
    for s in r:
        if s is sys.stdin:
            continue
        while True:
            try:
                s.recv(65535)
            except BlockingIOError:
                break
            socks[s][1] += 1
            if stop_at is not None:
                stop_at = time.monotonic() + 0.3
print(json.dumps(dict(socks.values())), flush=True)
"""

LISTENER = r"""
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.bind((sys.argv[1], int(sys.argv[2])))
s.listen(1024)
print("ready", flush=True)
sys.stdin.readline()
"""

GEN_MAC = "02:00:00:00:78:01"


def sh(*cmd, check=True):
    return subprocess.run(cmd, check=check, capture_output=True, text=True, timeout=30).stdout


class KernelStacks(EalCase):

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0 or shutil.which("ip") is None:
            if os.environ.get("WR_REQUIRE_EAL") == "1":
                self.fail("needs root and iproute2 for a network namespace")
            self.skipTest("needs root and iproute2 for a network namespace")
        for t in ("tcpdump", "tshark"):
            if shutil.which(t) is None:
                self.skipTest(f"needs {t}")

    def ns(self, *cmd, check=True):
        return sh("ip", "netns", "exec", self.netns, *cmd, check=check)

    def ip(self, *args):
        return sh("ip", "-n", self.netns, *args)

    def snmp(self, path, prefix):
        """Counters of /proc/net/snmp (two-line tables) or snmp6 (name value) in the namespace."""
        out, lines = {}, self.ns("cat", path).splitlines()
        if path.endswith("snmp6"):
            return {k: int(v) for k, v in (l.split() for l in lines)}
        rows = [l.split() for l in lines if l.startswith(prefix + ":")]
        out.update(zip(rows[0][1:], map(int, rows[1][1:])))
        return out

    def veth_ns(self, tag, ifs, *sysctls):
        """A namespace of our own (named for this process) holding a veth pair, both up, the
        generator's end with GEN_MAC; @return the two ends' names."""
        self.netns = f"wrs-{tag}{os.getpid()}"
        gen, peer = ifs + "0", ifs + "1"
        sh("ip", "netns", "add", self.netns)
        self.addCleanup(subprocess.run, ["ip", "netns", "del", self.netns], capture_output=True)
        self.ns("sysctl", "-qw", "net.ipv6.conf.all.accept_dad=0",
                "net.ipv6.conf.default.accept_dad=0", *sysctls)
        self.ip("link", "set", "lo", "up")
        self.ip("link", "add", gen, "type", "veth", "peer", "name", peer)
        self.ip("link", "set", gen, "address", GEN_MAC)
        self.ip("link", "set", gen, "up")
        self.ip("link", "set", peer, "up")
        return gen, peer

    def af_packet_profile(self, name, tag, gen, arp=False):
        """A profile sending from our end of the veth pair (one TX lcore); @return its path."""
        return self.write(name, f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix=wrs-{tag}{os.getpid()}",
      "--vdev=net_af_packet0,iface={gen}", "--lcores=0@0,1@1"]
ports:
  - device: net_af_packet0
    tx_lcores: [1]
""" + ("    arp: true\n" if arp else ""))

    def receiver(self, *specs):
        """RECEIVER in the namespace, ready, for @p specs (name,kind,address,port); killed at
        cleanup."""
        recv = subprocess.Popen(["ip", "netns", "exec", self.netns, sys.executable, "-c",
                                 RECEIVER, *specs],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.addCleanup(lambda: recv.poll() is None and (recv.kill(), recv.communicate()))
        self.assertEqual(recv.stdout.readline().strip(), "ready")
        return recv

    @staticmethod
    def received(recv):
        """Stop RECEIVER @p recv; @return what it counted per name."""
        recv.stdin.write("stop\n")
        recv.stdin.flush()
        return json.loads(recv.communicate(timeout=30)[0])

    def run_in_ns(self, sf, prof):
        """wirerate run of stream file @p sf with profile @p prof in the namespace (20 s at
        most), its results in r.json."""
        subprocess.run(["ip", "netns", "exec", self.netns, WIRERATE, "run", sf, "--config",
                        prof, "--quiet", "--duration", "20", "--json", self.path("r.json")],
                       cwd=self.tmp, check=True, capture_output=True, timeout=60)

    def test_kernel_takes_every_stack(self):
        gen, peer = self.veth_ns("k", "wrs", "net.ipv4.icmp_ratelimit=0",
                                 "net.ipv6.icmp.ratelimit=0", "net.ipv4.tcp_syncookies=1")
        self.ip("addr", "add", "10.78.0.2/16", "dev", peer)
        self.ip("addr", "add", "2001:db8:78::2/64", "dev", peer, "nodad")
        # VXLAN 100 on UDP 4789, decapsulated by the kernel; inner 10.79.0.2.
        self.ip("link", "add", "vx0", "type", "vxlan", "id", "100", "dstport", "4789",
                "local", "10.78.0.2", "dev", peer, "nolearning")
        self.ip("addr", "add", "10.79.0.2/24", "dev", "vx0")
        self.ip("link", "set", "vx0", "up")
        # QinQ: an 802.1ad S-tag 100, then an 802.1Q C-tag 10; 10.80.0.2 behind both.  A
        # kernel built without CONFIG_VLAN_8021Q (this test bed's) has no vlan links: the
        # QinQ stream is then checked by tshark only (test/frames), and said so here.
        qinq = subprocess.run(["ip", "-n", self.netns, "link", "add", "link", peer, "name",
                               "qs", "type", "vlan", "proto", "802.1ad", "id", "100"],
                              capture_output=True, text=True).returncode == 0
        if qinq:
            self.ip("link", "add", "link", "qs", "name", "qc", "type", "vlan", "proto",
                    "802.1Q", "id", "10")
            self.ip("addr", "add", "10.80.0.2/24", "dev", "qc")
            self.ip("link", "set", "qs", "up")
            self.ip("link", "set", "qc", "up")
            self.ip("neigh", "add", "10.80.0.1", "lladdr", GEN_MAC, "dev", "qc", "nud",
                    "permanent")
        else:
            sys.stderr.write("note: this kernel has no 802.1Q/802.1ad links "
                             "(CONFIG_VLAN_8021Q): QinQ delivery not checked\n")
        # The way back to our sources, for the kernel's answers.
        self.ip("neigh", "add", "10.78.1.1", "lladdr", GEN_MAC, "dev", peer, "nud", "permanent")
        self.ip("-6", "neigh", "add", "2001:db8:78::1", "lladdr", GEN_MAC, "dev", peer,
                "nud", "permanent")
        links = json.loads(self.ip("-j", "link", "show"))
        mac = {l["ifname"]: l["address"] for l in links}

        sf = self.write("stacks.yaml", f"""version: 1
streams:
  - name: udp6
    count: {N}
    size: 100
    stack:
      - eth: {{src: "{GEN_MAC}", dst: "{mac[peer]}"}}
      - ipv6: {{src: {{inc: {{from: "2001:db8:78::1:0", to: "2001:db8:78::1:ff"}}}}, dst: "2001:db8:78::2"}}
      - udp: {{src: {{inc: {{from: 1000, to: 1099}}}}, dst: 7001}}
  - name: syn-open
    count: {N}
    size: 64
    stack:
      - eth: {{src: "{GEN_MAC}", dst: "{mac[peer]}"}}
      - ipv4: {{src: 10.78.1.1, dst: 10.78.0.2}}
      - tcp: {{src: {{inc: {{from: 20000, to: 20099}}}}, dst: 8080, flags: 0x02, seq: {{random: {{min: 0, max: 4294967295}}}}}}
  - name: syn-closed
    count: {N}
    size: 64
    stack:
      - eth: {{src: "{GEN_MAC}", dst: "{mac[peer]}"}}
      - ipv4: {{src: 10.78.1.1, dst: 10.78.0.2}}
      - tcp: {{src: {{inc: {{from: 30000, to: 30099}}}}, dst: 8081, flags: 0x02}}
  - name: ping4
    count: {N_ICMP}
    size: 98
    stack:
      - eth: {{src: "{GEN_MAC}", dst: "{mac[peer]}"}}
      - ipv4: {{src: 10.78.1.1, dst: 10.78.0.2}}
      - icmp: {{id: 7, seq: {{inc: {{from: 1, to: 1000}}}}}}
  - name: ping6
    count: {N_ICMP}
    size: 118
    stack:
      - eth: {{src: "{GEN_MAC}", dst: "{mac[peer]}"}}
      - ipv6: {{src: "2001:db8:78::1", dst: "2001:db8:78::2"}}
      - icmp6: {{id: 7, seq: {{inc: {{from: 1, to: 1000}}}}}}
  - name: vxlan
    count: {N}
    size: 128
    stack:
      - eth: {{src: "{GEN_MAC}", dst: "{mac[peer]}"}}
      - ipv4: {{src: 10.78.1.1, dst: 10.78.0.2}}
      - udp: {{src: {{random: {{min: 49152, max: 65535}}}}}}
      - vxlan: {{vni: 100}}
      - eth: {{src: "02:00:00:00:79:01", dst: "{mac["vx0"]}"}}
      - ipv4: {{src: {{inc: {{from: 10.79.0.10, to: 10.79.0.109}}}}, dst: 10.79.0.2}}
      - udp: {{src: 1024, dst: 7002}}
  - name: qinq
    count: {N}
    size: 80
    stack:
      - eth: {{src: "{GEN_MAC}", dst: "{mac.get("qc", mac[peer])}"}}
      - vlan: {{tpid: 0x88a8, id: 100}}
      - vlan: {{id: 10, pcp: {{list: [0, 5]}}}}
      - ipv4: {{src: 10.80.0.1, dst: 10.80.0.2}}
      - udp: {{src: {{inc: {{from: 1000, to: 1099}}}}, dst: 7003}}
  - name: raw
    count: {N}
    size: 64
    latency: true
    stack:
      - eth: {{src: "{GEN_MAC}", dst: "{mac[peer]}", type: 0x88b5}}
""")
        prof = self.af_packet_profile("prof.yaml", "k", gen)
        recv = self.receiver("udp6,udp6,2001:db8:78::2,7001", "vxlan,udp4,10.79.0.2,7002",
                             f"raw,raw,{peer},0x88b5",
                             *(["qinq,udp4,10.80.0.2,7003"] if qinq else []))
        lst = subprocess.Popen(["ip", "netns", "exec", self.netns, sys.executable, "-c",
                                LISTENER, "10.78.0.2", "8080"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.addCleanup(lambda: lst.poll() is None and (lst.kill(), lst.communicate()))
        self.assertEqual(lst.stdout.readline().strip(), "ready")
        cap = self.path("out.pcap")
        tcpdump = subprocess.Popen(["ip", "netns", "exec", self.netns, "tcpdump", "-n", "-U",
                                    "-i", peer, "-Q", "out", "-w", cap],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: tcpdump.poll() is None and (tcpdump.kill(), tcpdump.wait()))
        self.assertIn("listening on", tcpdump.stderr.readline())
        icmp0 = self.snmp("/proc/net/snmp", "Icmp")
        icmp60 = self.snmp("/proc/net/snmp6", "")

        self.run_in_ns(sf, prof)
        got = self.received(recv)
        lst.communicate("stop\n", timeout=30)
        res = self.json("r.json")
        self.assertEqual(res["stop_reason"], "count")
        self.assertEqual({s["name"]: s["tx_pkts"] for s in res["streams"]},
                         {"udp6": N, "syn-open": N, "syn-closed": N, "ping4": N_ICMP,
                          "ping6": N_ICMP, "vxlan": N, "qinq": N, "raw": N})
        # Datagrams delivered: IPv6/UDP, the inner UDP of VXLAN, UDP behind QinQ; raw frames.
        want = {"udp6": N, "vxlan": N, "raw": N}
        if qinq:
            want["qinq"] = N
        self.assertEqual(got, want)
        icmp1 = self.snmp("/proc/net/snmp", "Icmp")
        icmp61 = self.snmp("/proc/net/snmp6", "")
        self.assertEqual(icmp1["InEchos"] - icmp0["InEchos"], N_ICMP)
        self.assertEqual(icmp1["OutEchoReps"] - icmp0["OutEchoReps"], N_ICMP)
        self.assertEqual(icmp61["Icmp6InEchos"] - icmp60["Icmp6InEchos"], N_ICMP)
        self.assertEqual(icmp61["Icmp6OutEchoReplies"] - icmp60["Icmp6OutEchoReplies"], N_ICMP)
        # The kernel's answers as tcpdump saw them leave: a SYN-ACK per SYN to the listening
        # port, a RST per SYN to the closed one, an echo reply per request.
        answers = 2 * N + 2 * N_ICMP
        wait_for(lambda: len(tshark_fields(cap, ["frame.number"])) >= answers, 10)
        tcpdump.send_signal(signal.SIGINT)
        tcpdump.communicate(timeout=30)
        synack = tshark_fields(cap, ["tcp.dstport"],
                               "tcp.flags.syn == 1 && tcp.flags.ack == 1 && tcp.srcport == 8080")
        rst = tshark_fields(cap, ["tcp.dstport"], "tcp.flags.reset == 1 && tcp.srcport == 8081")
        self.assertEqual(sorted(int(r[0]) for r in synack), list(range(20000, 20000 + N)))
        self.assertEqual(sorted(int(r[0]) for r in rst), list(range(30000, 30000 + N)))
        self.assertEqual(len(tshark_fields(cap, ["icmp.seq"], "icmp.type == 0")), N_ICMP)
        self.assertEqual(len(tshark_fields(cap, ["icmpv6.echo.sequence_number"],
                                           "icmpv6.type == 129")), N_ICMP)


    def test_nd_resolves_and_answers(self):
        """eth: {dst: nd} resolves the kernel's MAC by Neighbor Solicitation (the kernel's NA),
        every datagram reaches its socket; with arp: true the port answers the kernel's NS for
        our IPv6 source and its ICMPv6 echo requests."""
        gen, peer = self.veth_ns("n", "wrn")
        self.ip("addr", "add", "2001:db8:79::2/64", "dev", peer, "nodad")
        count = 300
        sf = self.write("nd.yaml", f"""version: 1
streams:
  - name: nd
    count: {count}
    rate: 100 pps
    size: 100
    stack:
      - eth: {{dst: nd}}
      - ipv6: {{src: "2001:db8:79::1", dst: "2001:db8:79::2"}}
      - udp: {{src: 4000, dst: 7009}}
""")
        prof = self.af_packet_profile("nd-prof.yaml", "n", gen, arp=True)
        recv = self.receiver("udp6,udp6,2001:db8:79::2,7009")
        run = subprocess.Popen(["ip", "netns", "exec", self.netns, WIRERATE, "run", sf,
                                "--config", prof, "--json", self.path("r.json")],
                               cwd=self.tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
        try:
            # The stream runs 3 s; ping our address in the middle of it.  Our NS carried
            # our MAC already: forget it, so that the kernel asks for it with an NS first.
            wait_for(lambda: run.poll() is not None, 1.0)
            self.ip("-6", "neigh", "flush", "dev", peer)
            ping = subprocess.run(["ip", "netns", "exec", self.netns, "ping", "-6", "-c", "3",
                                   "-i", "0.2", "-W", "1", "2001:db8:79::1"],
                                  capture_output=True, text=True, timeout=20)
            neigh = json.loads(self.ip("-6", "-j", "neigh", "show", "2001:db8:79::1"))
        finally:
            out, err = run.communicate(timeout=60)
        self.assertEqual(run.returncode, 0, err)
        got = self.received(recv)
        self.assertEqual(got, {"udp6": count})
        self.assertEqual(self.json("r.json")["streams"][0]["tx_pkts"], count)
        self.assertEqual(ping.returncode, 0, ping.stdout + ping.stderr)
        self.assertIn("3 packets transmitted, 3 received", ping.stdout)
        self.assertEqual([n["lladdr"] for n in neigh], [GEN_MAC])
        m = re.search(r"answered \d+ ARP requests? and (\d+) ICMP echo requests?, "
                      r"(\d+) Neighbor Solicitations?", out)
        self.assertIsNotNone(m, out)
        self.assertEqual(int(m.group(1)), 3)
        self.assertGreaterEqual(int(m.group(2)), 1)


    def test_kernel_takes_options_and_extension_headers(self):
        """IPv4 options, IPv6 extension headers and SRv6 encapsulation, each delivered by the
        kernel to a UDP socket: it drops a datagram whose headers, lengths or checksum are
        wrong, and an SRv6 packet its seg6local route cannot decapsulate."""
        gen, peer = self.veth_ns("x", "wrx", "net.ipv6.conf.all.seg6_enabled=1",
                                 "net.ipv6.conf.default.seg6_enabled=1")
        self.ns("sysctl", "-qw", f"net.ipv6.conf.{peer}.seg6_enabled=1")
        self.ip("addr", "add", "10.81.0.2/16", "dev", peer)
        self.ip("addr", "add", "2001:db8:81::2/64", "dev", peer, "nodad")
        # SID 2001:db8:81:5::100: End.DT6, the inner packet looked up in the local table
        # (255), where this host's own addresses are, and delivered; "count" for the
        # message when it is not.
        self.ip("-6", "route", "add", "2001:db8:81:5::100/128", "encap", "seg6local",
                "action", "End.DT6", "table", "255", "count", "dev", peer)
        mac = {l["ifname"]: l["address"] for l in json.loads(self.ip("-j", "link", "show"))}
        eth = f'eth: {{src: "{GEN_MAC}", dst: "{mac[peer]}"}}'
        sf = self.write("ext.yaml", f"""version: 1
streams:
  - name: v4opts
    count: {N}
    size: 128
    stack:
      - {eth}
      - ipv4: {{src: {{inc: {{from: 10.81.1.1, to: 10.81.1.100}}}}, dst: 10.81.0.2, options: [{{type: 148, data: "0000"}}, {{type: 1}}, {{type: 7, data: "0400000000"}}]}}
      - udp: {{src: {{inc: {{from: 1000, to: 1099}}}}, dst: 7004}}
  - name: v6ext
    count: {N}
    size: 200
    stack:
      - {eth}
      - ipv6: {{src: "2001:db8:81::1", dst: "2001:db8:81::2"}}
      - ipv6_hbh
      - ipv6_dst: {{options: [{{type: 0x1e, data: "0102"}}]}}
      - srh: {{segments: ["2001:db8:81::2"], left: 0}}
      - ipv6_frag: {{id: {{inc: {{from: 1, to: 100}}}}}}
      - ipv6_dst
      - udp: {{src: {{inc: {{from: 1000, to: 1099}}}}, dst: 7005}}
  - name: srv6
    count: {N}
    size: 200
    stack:
      - {eth}
      - ipv6: {{src: "2001:db8:81::1", dst: "2001:db8:81:5::100"}}
      - srh: {{segments: ["2001:db8:81:5::100"], left: 0}}
      - ipv6: {{src: {{inc: {{from: "2001:db8:81::1:0", to: "2001:db8:81::1:63"}}}}, dst: "2001:db8:81::2"}}
      - udp: {{src: 1024, dst: 7006}}
""")
        prof = self.af_packet_profile("ext-prof.yaml", "x", gen)
        recv = self.receiver("v4opts,udp4,10.81.0.2,7004", "v6ext,udp6,2001:db8:81::2,7005",
                             "srv6,udp6,2001:db8:81::2,7006")
        self.run_in_ns(sf, prof)
        got = self.received(recv)
        res = self.json("r.json")
        self.assertEqual({s["name"]: s["tx_pkts"] for s in res["streams"]},
                         {"v4opts": N, "v6ext": N, "srv6": N})
        self.assertEqual(got, {"v4opts": N, "v6ext": N, "srv6": N},
                         self.ip("-s", "-6", "route", "show", "table", "all",
                                 "2001:db8:81:5::100"))


    def test_kernel_answers_arp_stream(self):
        """The arp layer: a hundred senders ask for the kernel's address, each answered (the
        replies counted as tcpdump saw them leave); fifty gratuitous replies, each learnt
        (arp_accept) with the sender's MAC."""
        n_req, n_rep = 100, 50
        gen, peer = self.veth_ns("a", "wra", "net.ipv4.conf.all.arp_accept=1",
                                 "net.ipv4.conf.default.arp_accept=1")
        self.ns("sysctl", "-qw", f"net.ipv4.conf.{peer}.arp_accept=1")
        self.ip("addr", "add", "10.82.0.2/16", "dev", peer)
        sf = self.write("arp.yaml", f"""version: 1
streams:
  - name: requests
    count: {n_req}
    rate: 2 kpps
    stack:
      - eth: {{src: {{inc: {{from: "02:00:00:00:82:01", to: "02:00:00:00:82:64"}}}}, dst: "ff:ff:ff:ff:ff:ff"}}
      - arp: {{sha: {{inc: {{from: "02:00:00:00:82:01", to: "02:00:00:00:82:64"}}}}, spa: {{inc: {{from: 10.82.1.1, to: 10.82.1.100}}}}, tpa: 10.82.0.2}}
  - name: gratuitous
    count: {n_rep}
    rate: 2 kpps
    stack:
      - eth: {{src: "02:00:00:00:83:01", dst: "ff:ff:ff:ff:ff:ff"}}
      - arp: {{op: 2, sha: "02:00:00:00:83:01", spa: {{inc: {{from: 10.82.2.1, to: 10.82.2.50}}}}, tha: "ff:ff:ff:ff:ff:ff", tpa: {{inc: {{from: 10.82.2.1, to: 10.82.2.50}}}}}}
""")
        prof = self.af_packet_profile("arp-prof.yaml", "a", gen)
        cap = self.path("arp.pcap")
        tcpdump = subprocess.Popen(["ip", "netns", "exec", self.netns, "tcpdump", "-n", "-U",
                                    "-i", peer, "-Q", "out", "-w", cap, "arp"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: tcpdump.poll() is None and (tcpdump.kill(), tcpdump.wait()))
        self.assertIn("listening on", tcpdump.stderr.readline())
        self.run_in_ns(sf, prof)
        res = self.json("r.json")
        self.assertEqual({s["name"]: s["tx_pkts"] for s in res["streams"]},
                         {"requests": n_req, "gratuitous": n_rep})

        def replies():
            return tshark_fields(cap, ["arp.dst.proto_ipv4", "arp.dst.hw_mac"],
                                 "arp.opcode == 2 && arp.src.proto_ipv4 == 10.82.0.2")
        wait_for(lambda: len(replies()) >= n_req, 10)
        tcpdump.send_signal(signal.SIGINT)
        tcpdump.communicate(timeout=30)
        self.assertEqual(sorted(replies()),
                         sorted([f"10.82.1.{i}", f"02:00:00:00:82:{i:02x}"]
                                for i in range(1, n_req + 1)))
        neigh = json.loads(self.ip("-j", "-4", "neigh", "show", "dev", peer))
        learnt = {n["dst"]: n.get("lladdr") for n in neigh if n["dst"].startswith("10.82.2.")}
        self.assertEqual(learnt, {f"10.82.2.{i}": "02:00:00:00:83:01"
                                  for i in range(1, n_rep + 1)})


if __name__ == "__main__":
    unittest.main()
