# SPDX-License-Identifier: BSD-3-Clause
"""Emulated hosts leasing their addresses from dnsmasq (Debian's, a DHCP server we did not
write) over a veth pair in a network namespace: wirerate's port is net_af_packet on one end,
dnsmasq serves the other.  10,000 hosts lease; dnsmasq's lease file lists exactly the MACs
and addresses hosts.list reports; the leases go from the file when the hosts stop (RELEASE);
with a 2-minute lease and T1 set to 10 s the hosts renew then and the file's expiry times move on;
option 82's circuit-id picks dnsmasq's range (dhcp-circuitid) and tshark reads both
sub-options in a capture; a server that never answers: the hosts fail by reason, and the run
ends on time."""

import ipaddress
import os
import shutil
import subprocess
import time
import unittest

from wrtest import ROOT, WIRERATE, read_settled, tshark_fields, wait_for
from test_server import ServerCase, START_S

SERVER_IP = "10.33.0.1"
RANGE = ("10.33.1.0", "10.33.255.254")
GOLD_RANGE = ("10.33.200.1", "10.33.200.255")
FIRST_MAC = 0x023300000001
DNSMASQ = shutil.which("dnsmasq") or "/usr/sbin/dnsmasq"


def mac_str(v):
    return ":".join(f"{(v >> s) & 0xff:02x}" for s in range(40, -8, -8))


def leases(path):
    """dnsmasq's lease file: {mac: (ip, expiry)}, one line a lease
    ("EXPIRY MAC IP HOSTNAME CLIENT-ID"), read settled (wrtest.read_settled)."""
    out = {}
    for line in read_settled(path).splitlines():
        p = line.split()
        if len(p) >= 3 and p[0].isdigit():
            out[p[1]] = (p[2], int(p[0]))
    return out


def hosts_yaml(groups, outstanding=128):
    """A stream file with @groups ([(name, count, first_mac, dhcp_yaml)]) on port 0 and one
    slow stream (the run needs one: 1 kpps to the discard port of dnsmasq's address).  At
    most @outstanding hosts lease at once: dnsmasq answers about 100 a second here (it
    rewrites its lease file after each), and a DISCOVER it has no time for is sent again
    after 4 s."""
    text = "version: 1\nhosts:\n"
    for name, count, mac, dhcp in groups:
        text += f"""  - name: {name}
    port: 0
    count: {count}
    mac: {mac_str(mac)}
    ipv4: {dhcp}
    bringup: {{outstanding: {outstanding}}}
"""
    return text + f"""streams:
  - name: s
    port: 0
    size: 64
    rate: 1 kpps
    eth: {{src: "02:33:ff:00:00:01", dst: "ff:ff:ff:ff:ff:ff"}}
    ipv4: {{src: 10.33.0.2, dst: {SERVER_IP}}}
    udp: {{src: 1024, dst: 9}}
"""


@unittest.skipUnless(os.geteuid() == 0, "needs root for a network namespace")
class Dhcp4Case(ServerCase):
    """A namespace with a veth pair: wirerate's af_packet port on one end, dnsmasq (or
    nothing) on the other, 10.33.0.1/16."""

    def setUp(self):
        super().setUp()
        if not os.path.exists(DNSMASQ):
            self.skipTest("needs dnsmasq (Debian dnsmasq-base; tools/lib/common.sh)")
        tag = f"{os.getpid() % 100000}"
        self.ns = f"dhcp4-{tag}"
        self.gen_if, self.srv_if = f"dhcp4{tag}g"[:15], f"dhcp4{tag}s"[:15]
        subprocess.run(["ip", "netns", "add", self.ns], check=True, timeout=10)
        self.addCleanup(subprocess.run, ["ip", "netns", "del", self.ns], capture_output=True)
        self.nsexec("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
                    "net.ipv6.conf.default.disable_ipv6=1")
        self.ip("link", "set", "lo", "up")
        self.ip("link", "add", self.gen_if, "type", "veth", "peer", "name", self.srv_if)
        self.ip("link", "set", self.gen_if, "up")
        self.ip("link", "set", self.srv_if, "up")
        self.ip("addr", "add", SERVER_IP + "/16", "dev", self.srv_if)
        # veth leaves a UDP checksum to the NIC that is not there: frames the kernel
        # sends reach af_packet with the pseudo-header's sum only, and the hosts drop
        # them (dhcp4_rx_bad_udp_csum).  A NIC computes it: so does the kernel here.
        self.nsexec("ethtool", "-K", self.srv_if, "tx", "off")
        self.lease_file = self.path("dnsmasq.leases")

    def ip(self, *args):
        subprocess.run(["ip", "-n", self.ns, *args], check=True, timeout=10)

    def nsexec(self, *cmd, check=True):
        return subprocess.run(["ip", "netns", "exec", self.ns, *cmd], check=check,
                              capture_output=True, text=True, timeout=30).stdout

    def dnsmasq(self, lease="1h", extra=()):
        """dnsmasq on srv_if: DHCP only (port=0), its own empty config, every lease in a file
        of the test's, no ICMP check of an address before it is offered (--no-ping).  It
        rewrites the whole file after every change, so its file is read once it is still."""
        pid = self.path("dnsmasq.pid")
        argv = ["ip", "netns", "exec", self.ns, DNSMASQ, "--keep-in-foreground",
                "--conf-file=/dev/null", "--port=0", "--bind-interfaces",
                f"--interface={self.srv_if}", f"--dhcp-range={RANGE[0]},{RANGE[1]},"
                f"255.255.0.0,{lease}", f"--dhcp-leasefile={self.lease_file}",
                "--dhcp-lease-max=20000", "--dhcp-authoritative", "--no-ping",
                f"--pid-file={pid}", "--log-facility=-", *extra]
        p = self.peer("dnsmasq", argv)
        self.assertTrue(wait_for(lambda: os.path.exists(pid) or p.poll() is not None, 10),
                        "dnsmasq did not start")
        if p.poll() is not None:
            self.fail(p.said())
        return p

    def serve_ns(self):
        """wirerate serve in the namespace (its Unix socket is a path: reachable here)."""
        prefix = f"dhcp4{os.getpid()}"
        self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", prefix), True)
        prof = self.write(f"{prefix}.yaml", self.profile_text(prefix))
        sock = self.path("api.sock")
        p = subprocess.Popen(["ip", "netns", "exec", self.ns, WIRERATE, "serve", "--config",
                              prof, "--socket", sock], cwd=self.tmp, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        self.procs.append(p)
        self.assertTrue(wait_for(lambda: os.path.exists(sock) or p.poll() is not None, START_S),
                        "the server did not create its socket")
        if p.poll() is not None:
            self.fail(f"the server exited: {p.communicate()}")
        return p, sock

    def profile_text(self, prefix):
        return f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={prefix}",
      "--vdev=net_af_packet0,iface={self.gen_if}", "--lcores=0@0,1@1"]
ports:
  - device: net_af_packet0
    tx_lcores: [1]
"""

    def start_hosts(self, c, text, duration=600):
        c.acquire()
        c.load(text)
        c.start(duration=duration)
        self.addCleanup(self.stop_quietly, c)

    @staticmethod
    def stop_quietly(c):
        """Stop the traffic if the server is still there (tearDown may have stopped it)."""
        try:
            if c.info()["state"] == "running":
                c.stop()
        except OSError:
            pass

    def counters(self, c):
        return c.host_counters()[0]

    def wait_up(self, c, n, timeout):
        ok = wait_for(lambda: self.counters(c)["up"] + self.counters(c)["failed"] >= n,
                      timeout, step=0.5)
        cnt = self.counters(c)
        self.assertTrue(ok, cnt)
        self.assertEqual((cnt["up"], cnt["failed"]), (n, 0), cnt)
        return cnt

    def reported(self, c):
        """{mac: address} of every host hosts.list shows bound."""
        out = {}
        for h in c.hosts_all(0):
            self.assertEqual(h["modules"].get("dhcp4"), "bound", h)
            self.assertEqual(h["ipv4"]["state"], "up", h)
            out[h["mac"]] = h["ipv4"]["address"]
        return out


class Dhcp4Leases(Dhcp4Case):

    # 1,000 in the suite (4 s of leasing; 2,000 until the suite was cut to 15
    # minutes); the 10,000 in the slow tier (test/meson.build's
    # integration-dhcp4-slow, WR_SLOW=1).
    N = int(os.environ.get("WR_DHCP4_HOSTS", "1000"))

    def test_leases(self):
        # The BROADCAST flag, and no router (option 3 empty): dnsmasq's unicast OFFER puts
        # an ARP entry a client into the kernel's table, and the host resolving its gateway
        # makes the kernel learn one more each; that table holds 1024 (gc_thresh3, one
        # for every namespace: a test does not change it).  Broadcast replies and no
        # gateway need none.  Renewal's unicast is test_renew_release's.
        self.dnsmasq(extra=["--dhcp-option=3"])
        _, sock = self.serve_ns()
        c = self.client(sock)
        t0 = time.monotonic()
        self.start_hosts(c, hosts_yaml([("cpe", self.N, FIRST_MAC,
                                         "{dhcp: {broadcast: true}}")]))
        cnt = self.wait_up(c, self.N, 480)
        took = time.monotonic() - t0
        got = self.reported(c)
        self.assertEqual(len(got), self.N)
        self.assertEqual(set(got), {mac_str(FIRST_MAC + k) for k in range(self.N)})
        # Every address once, in dnsmasq's range.
        self.assertEqual(len(set(got.values())), self.N)
        lo, hi = (int(ipaddress.IPv4Address(a)) for a in RANGE)
        self.assertTrue(all(lo <= int(ipaddress.IPv4Address(a)) <= hi for a in got.values()))
        # dnsmasq's lease file: exactly those MACs with those addresses.
        self.assertTrue(wait_for(lambda: len(leases(self.lease_file)) >= self.N, 10))
        file = {m: ip for m, (ip, _) in leases(self.lease_file).items()}
        self.assertEqual(file, got)
        k = cnt["counters"]
        self.assertEqual((k["dhcp4_leased"], k["dhcp4_state_bound"], k["dhcp4_failed_timeout"],
                          k["dhcp4_nak"]), (self.N, self.N, 0, 0), k)
        # One OFFER taken and one ACK a host: no acquisition started over.
        self.assertEqual((k["dhcp4_rx_offer"], k["dhcp4_rx_ack"]), (self.N, self.N), k)
        print(f"\n{self.N} leases in {took:.1f} s ({self.N / took:.0f}/s)")


class Dhcp4Renew(Dhcp4Case):

    N = 20
    T1_S = 3

    def test_renew_release(self):
        # dnsmasq's shortest lease, 2 minutes, with T1 and T2 given as options 58
        # and 59 (RFC 2132 9.11, 9.12: the client takes them over its defaults of
        # half and 7/8 of the lease): renewal at T1_S, not 60 s (10 s until the
        # suite was cut to 15 minutes: the wait proves nothing more).
        self.dnsmasq(lease="2m", extra=[f"--dhcp-option=option:T1,{self.T1_S}",
                                        "--dhcp-option=option:T2,100"])
        _, sock = self.serve_ns()
        c = self.client(sock)
        self.start_hosts(c, hosts_yaml([("cpe", self.N, FIRST_MAC, "dhcp")]))
        self.wait_up(c, self.N, 30)
        first = leases(self.lease_file)
        self.assertEqual(len(first), self.N)
        # Past T1: every host renewed with the server that leased (unicast), the file's
        # expiry times moved by about T1_S (whole seconds: at least T1_S - 1), the
        # addresses kept.
        ok = wait_for(lambda: self.counters(c)["counters"]["dhcp4_renewed"] >= self.N, 40,
                      step=0.25)
        k = self.counters(c)["counters"]
        self.assertTrue(ok, k)
        self.assertEqual((k["dhcp4_renewed"], k["dhcp4_rebound"], k["dhcp4_expired"]),
                         (self.N, 0, 0), k)
        self.assertTrue(wait_for(lambda: all(
            leases(self.lease_file).get(m, ("", 0))[1] >= e + self.T1_S - 1 for m, (_, e) in
            first.items()), 10), (first, leases(self.lease_file)))
        after = leases(self.lease_file)
        self.assertEqual({m: ip for m, (ip, _) in after.items()},
                         {m: ip for m, (ip, _) in first.items()})
        self.assertEqual(self.reported(c), {m: ip for m, (ip, _) in after.items()})
        # The hosts stop (server.reset): each sends a RELEASE, dnsmasq drops its lease.
        c.stop()
        c.reset()
        self.assertTrue(wait_for(lambda: len(leases(self.lease_file)) == 0, 20, step=0.5),
                        f"{len(leases(self.lease_file))} leases left after the release")


class Dhcp4Option82(Dhcp4Case):

    def test_circuit_id_picks_the_range(self):
        # dnsmasq tags a client whose option 82 circuit-id is "gold" and gives it an
        # address of the gold range; tshark reads both sub-options from a capture.
        self.dnsmasq(extra=["--dhcp-circuitid=set:gold,gold",
                            f"--dhcp-range=tag:gold,{GOLD_RANGE[0]},{GOLD_RANGE[1]},"
                            "255.255.0.0,1h"])
        pcap = self.path("o82.pcap")
        # Ready once it says it listens (its socket is open then), not after a second
        # (peer() has appended it to self.peers when it asks).
        dump = self.peer("tcpdump", ["ip", "netns", "exec", self.ns, "tcpdump", "-i",
                                     self.srv_if, "-w", pcap, "-U", "udp port 67"],
                         ready=lambda: "listening on" in self.peers[-1].log(), timeout=20)
        _, sock = self.serve_ns()
        c = self.client(sock)
        gold = 'dhcp: {option82: {circuit_id: gold, remote_id: "{mac_hex}"}}'
        std = 'dhcp: {option82: {circuit_id: "std{index}", remote_id: "{mac_hex}"}}'
        self.start_hosts(c, hosts_yaml([("gold", 10, FIRST_MAC, "{" + gold + "}"),
                                        ("std", 10, FIRST_MAC + 0x100, "{" + std + "}")]))
        self.wait_up(c, 20, 30)
        got = self.reported(c)
        glo, ghi = (int(ipaddress.IPv4Address(a)) for a in GOLD_RANGE)
        for k in range(10):
            g = int(ipaddress.IPv4Address(got[mac_str(FIRST_MAC + k)]))
            s = int(ipaddress.IPv4Address(got[mac_str(FIRST_MAC + 0x100 + k)]))
            self.assertTrue(glo <= g <= ghi, got)
            self.assertFalse(glo <= s <= ghi, got)
        time.sleep(1)
        dump.stopped = True
        dump.send_signal(2)
        dump.wait(timeout=10)
        agent = "dhcp.option.agent_information_option."
        rows = tshark_fields(pcap, ["eth.src", agent + "agent_circuit_id",
                                    agent + "agent_remote_id"], "dhcp.option.dhcp == 1")
        seen = {}
        for src, circ, rem in rows:
            seen[src] = tuple(bytes.fromhex(x.replace(":", "")).decode() for x in (circ, rem))
        want = {mac_str(FIRST_MAC + k): ("gold", f"{FIRST_MAC + k:012x}") for k in range(10)}
        want.update({mac_str(FIRST_MAC + 0x100 + k): (f"std{k}", f"{FIRST_MAC + 0x100 + k:012x}")
                     for k in range(10)})
        self.assertEqual(seen, want)


class Dhcp4NoServer(Dhcp4Case):

    def test_never_answered_run_ends_on_time(self):
        # Nothing answers on the link: each host's DISCOVERs go out 1 + 2 (retries) times
        # (0.4, 0.8, 1.6 s waits +-25 %: 1 s, 2 s and 4 s until the suite was cut to 15
        # minutes) and it fails after about 2.8 s, well within the 9 s wait; the run then
        # lasts its 1 s (10 s, then 2 s: the length after the wait proves nothing more).
        prefix = f"dhcp4r{os.getpid()}"
        self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", prefix), True)
        prof = self.write("prof.yaml", self.profile_text(prefix))
        sf = self.write("h.yaml", hosts_yaml([("cpe", 100, FIRST_MAC,
                                               "{dhcp: {retries: 2, timeout: 400ms}}")]))
        t0 = time.monotonic()
        p = subprocess.run(["ip", "netns", "exec", self.ns, WIRERATE, "run", sf, "--config",
                            prof, "--duration", "1", "--hosts-wait", "9000", "--quiet",
                            "--json", self.path("r.json")], cwd=self.tmp,
                           capture_output=True, text=True, timeout=60)
        took = time.monotonic() - t0
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertLess(took, 1 + 9 + 7, "the run did not end on time")
        r = self.json("r.json")
        port = r["hosts"][0]
        k = port["counters"]
        self.assertEqual((port["up"], port["failed"]), (0, 100), port)
        self.assertEqual((k["dhcp4_failed_timeout"], k["dhcp4_timeout"],
                          k["dhcp4_tx_discover"], k["dhcp4_rx_offer"],
                          k["dhcp4_state_failed"]), (100, 100, 300, 0, 100), k)


if __name__ == "__main__":
    unittest.main()
