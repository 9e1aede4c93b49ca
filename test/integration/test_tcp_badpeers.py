# SPDX-License-Identifier: BSD-3-Clause
"""wirerate's TCP against peers that misbehave: a server that never answers (the kernel's
netfilter drops the SYNs: its rule counts them), a port with no listener (the kernel's RSTs:
TcpOutRsts), and a Scapy peer sending garbage segments, segments of no connection and a SYN
flood at wirerate's server.  Each is counted by its reason, the run ends on time, nothing
crashes, and the server still serves curl afterwards."""

import json
import os
import shutil
import subprocess
import time
import unittest

from wrtcp import (SCAPY_PYTHON, TcpNsCase, class_counters, file_sha256, pattern_sha256,
                   port_counters)

# Scapy in the namespace: what it sends to wirerate's server at W4:80 from the kernel's link.
# argv: iface, our MAC (dst), K4, W4, kernel MAC (src), counts as JSON.  Prints what it sent.
SENDER = r"""
import json, random, sys
from scapy.all import Ether, IP, TCP, Raw, sendp, conf
conf.verb = 0
ifc, wmac, k4, w4, kmac, n = sys.argv[1:7]
n = json.loads(n)
rng = random.Random(34)
eth = Ether(src=kmac, dst=wmac)
frames, sent = [], {}
def add(kind, f):
    frames.append(bytes(f))
    sent[kind] = sent.get(kind, 0) + 1
for i in range(n["bad_csum"]):
    add("bad_csum", eth / IP(src=k4, dst=w4) / TCP(sport=30000 + i, dport=80, flags="S",
                                                   seq=rng.getrandbits(32), chksum=0x1234))
for i in range(n["short_doff"]):
    # A data offset below 5 words: the header would end before the ports and flags do.
    add("short_doff", eth / IP(src=k4, dst=w4) / TCP(sport=31000 + i, dport=80, flags="A",
                                                     dataofs=3))
for i in range(n["long_doff"]):
    # A data offset past the segment's end (15 words, 20 bytes there).
    add("long_doff", eth / IP(src=k4, dst=w4) / TCP(sport=32000 + i, dport=80, flags="S",
                                                    dataofs=15))
for i in range(n["bad_opt"]):
    # A SYN whose MSS option says length 0 (RFC 9293 3.1: an option's length counts its
    # kind and length bytes: 0 runs nowhere, a parser that trusts it loops).  The 4 bytes
    # after the header are its options (dataofs 6); Scapy sums them as payload.
    add("bad_opt", eth / IP(src=k4, dst=w4) / TCP(sport=33000 + i, dport=80, flags="S",
                                                  dataofs=6) / Raw(b"\x02\x00\x00\x00"))
for i in range(n["no_conn"]):
    # Well-formed segments of no connection: ACKs with data to a port nobody listens on and to
    # 80 from ports that never opened.
    dport = 81 if i % 2 else 80
    add("no_conn", eth / IP(src=k4, dst=w4) / TCP(sport=34000 + i, dport=dport, flags="PA",
                                                  seq=rng.getrandbits(32),
                                                  ack=rng.getrandbits(32)) / Raw(b"x" * 10))
for i in range(n["syn_flood"]):
    # SYNs from addresses nobody has (10.77.200.0/24: their SYN-ACKs go unanswered).
    src = "10.77.200.%d" % (1 + i % 250)
    add("syn_flood", eth / IP(src=src, dst=w4) / TCP(sport=1024 + i, dport=80, flags="S",
                                                     seq=rng.getrandbits(32),
                                                     options=[("MSS", 1460)]))
# Scapy builds each checksum itself (the bad one above is the one set by hand): a second
# builder beside wirerate's.
# Paced at about 20,000 frames a second (50 every 2.5 ms): af_packet's ring on wirerate's side
# holds 512 frames, and a flood the kernel drops before wirerate sees it tests nothing.
import time
sock = conf.L2socket(iface=ifc)
for k, f in enumerate(frames):
    sock.send(f)
    if k % 50 == 49:
        time.sleep(0.0025)
sock.close()
print(json.dumps(sent))
"""

COUNTS = {"bad_csum": 50, "short_doff": 50, "long_doff": 50, "bad_opt": 50, "no_conn": 200,
          "syn_flood": 2000}


class BadPeers(TcpNsCase):

    def client(self, port, count, opts="", rate=50):
        return f"""  - name: c
    client: {{hosts: w, sport: [20000, 29999]}}
    server: {{addr: [{self.K4}], port: {port}}}
    rate: {rate}
    count: {count}
    program:
      - send: 1000
      - close: fin
{opts}"""

    def test_never_answers(self):
        """4 connections to a port whose SYNs the kernel drops (iptables: its rule counts
        them), syn_retries 2, rto_init 200 ms: 4 failed as timeout, each after 1 + 2 SYNs (12
        at the rule), none established; the run ends by itself within 10 s."""
        if shutil.which("iptables") is None:
            self.fail("iptables is needed")
        self.nsx("iptables", "-A", "INPUT", "-p", "tcp", "--dport", "9999", "-j", "DROP")
        sf = self.stream_file(self.client(9999, 4, "    tcp: {syn_retries: 2, rto_init: 200ms}\n"))
        p, res = self.run_wr(sf, timeout=60)
        self.assertLess(p.took, 10.0, "the run did not end on time")
        rule = self.nsx("iptables", "-L", "INPUT", "-v", "-x", "-n")
        pkts = [int(ln.split()[0]) for ln in rule.splitlines() if "dpt:9999" in ln]
        c = class_counters(res, "c", "client")
        self.assertEqual((c["attempted"], c["established"], c["failed_timeout"],
                          c["failed_refused"], c["failed_reset"], c["active"]),
                         (4, 0, 4, 0, 0, 0), c)
        self.assertEqual(pkts, [4 * 3], rule)
        self.assertEqual(c["rexmit_segs"], 4 * 2, c)

    def test_refused(self):
        """20 connections to a port nobody listens on: the kernel answers each SYN with an
        RST (TcpOutRsts 20), and all 20 fail as refused."""
        before = self.nstat()
        sf = self.stream_file(self.client(9998, 20, rate=100))
        p, res = self.run_wr(sf, timeout=60)
        self.assertLess(p.took, 10.0, "the run did not end on time")
        d = self.delta(before, self.nstat())
        c = class_counters(res, "c", "client")
        self.assertEqual((c["attempted"], c["failed_refused"], c["established"],
                          c["failed_timeout"]), (20, 20, 0, 0), c)
        self.assertEqual((d["TcpOutRsts"], d["TcpPassiveOpens"]), (20, 0), d)

    def test_garbage_and_syn_flood(self):
        """Scapy sends wirerate's HTTP server 200 malformed segments (bad checksum, data
        offset below 5 and past the end, an option of length 0), 200 of no connection and a
        flood of 2,000 SYNs from addresses nobody has: each malformed one counted rx_bad,
        each of no connection rx_no_conn, each SYN taken (attempted) or refused (syn_dropped,
        beyond the class's 1,000 at once), each of no connection and each refused SYN
        answered by an RST or held back (rst_limited), the RSTs tcpdump saw those counted;
        every frame the port received reached the engine; wirerate runs on, and curl's
        fetch afterwards is whole."""
        dump, pcap = self.capture("rst.pcap", f"tcp and src host {self.W4}", ifc=self.k_if)
        gen = self.start_wr(self.stream_file(f"""  - name: web
    server: {{hosts: w, port: 80}}
    concurrency: 1000
    http: {{body: 10000}}
    tcp: {{syn_retries: 1, rto_init: 200ms}}
"""), duration=60)
        try:
            p = self.nsrun(SCAPY_PYTHON, "-c", SENDER, self.k_if, self.W_MAC, self.K4,
                           self.W4, self.k_mac, json.dumps(COUNTS), text=True, timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr)
            sent = json.loads(p.stdout)
            self.assertEqual(sent, COUNTS)
            time.sleep(1.0)
            self.assertIsNone(gen.poll(), "wirerate ended under the flood:\n" + gen.log())
            out = self.path("after.curl")
            c = self.nsrun("curl", "-sS", "--fail", "--max-time", "20", "-o", out,
                           f"http://{self.W4}/", text=True)
            self.assertEqual(c.returncode, 0, c.stderr)
            self.assertEqual(file_sha256(out), pattern_sha256(10000))
        finally:
            _, res = self.stop_wr(gen)
            self.stop_capture(dump)
        pc = port_counters(res, 0)
        nic = res["ports"][0]["nic"]
        k_link = json.loads(self.sh("ip", "-n", self.ns, "-s", "-j", "link", "show",
                                    self.k_if))[0]["stats64"]
        # Every frame the kernel sent us reached the engine (af_packet's ring kept up).
        self.assertEqual(pc["rx_frames"], nic["ipackets"], (pc, nic))
        malformed = sum(COUNTS[k] for k in ("bad_csum", "short_doff", "long_doff", "bad_opt"))
        self.assertEqual(pc["rx_bad"], malformed, pc)
        self.assertEqual(pc["rx_no_conn"], COUNTS["no_conn"], pc)
        # An RST answers each segment of no connection and each SYN refused (server_full,
        # wr_tcp.h), or the bound held it back (rst_limited).
        self.assertEqual(pc["rst_sent_no_conn"] + pc["rst_limited"],
                         COUNTS["no_conn"] + pc["syn_dropped"], pc)
        c = class_counters(res, "web", "server")
        self.assertEqual(c["attempted"] + pc["syn_dropped"], COUNTS["syn_flood"] + 1,
                         (c, pc, nic, k_link))
        self.assertEqual((c["http_responses"], c["closed"]), (1, 1), c)
        # The RSTs wirerate sent, as the kernel's side saw them: to the no-connection senders'
        # ports (34000..34199) and the refused SYNs' (1024..3023); none to curl's.
        r = subprocess.run(["tshark", "-n", "-r", pcap, "-Y", "tcp.flags.reset == 1", "-T",
                            "fields", "-e", "tcp.dstport"],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        ports = [int(x) for x in r.stdout.split()]
        self.assertEqual(len(ports), pc["rst_sent_no_conn"], pc)
        self.assertEqual([x for x in ports if not (34000 <= x < 34200 or 1024 <= x < 3024)],
                         [], "RSTs to ports that sent nothing wrong")


if __name__ == "__main__":
    unittest.main()
