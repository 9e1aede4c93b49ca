# SPDX-License-Identifier: BSD-3-Clause
"""TRex profiles and Scapy streams on ports: `wirerate run PROFILE.py`, a server's client
loading a profile and adding Scapy streams, the MACs a profile's port gives, isg.

net_pcap writes what was sent; the frames must be those `wirerate dump` writes for the same
profile (which test/trex/test_trex.py holds against its reference of TRex's field engine), with
the port's MACs.  Runs under Debian's /usr/bin/python3 (python3-scapy).
"""

import os
import shutil
import subprocess
import sys

from wrtest import ROOT, EalCase, pcap_records as read_pcap
from test_server import ServerCase

sys.path.insert(0, os.path.join(ROOT, "python"))
PROFILES = os.path.join(ROOT, "test", "trex", "profiles")

try:
    from scapy.all import IP, UDP, Ether, IPv6
    HAVE_SCAPY = True
except ImportError:  # pragma: no cover - reported by the skip below
    HAVE_SCAPY = False

SRC = "02:aa:bb:cc:dd:01"
DST = "02:aa:bb:cc:dd:02"


class TrexRun(EalCase):
    def setUp(self):
        super().setUp()
        if not HAVE_SCAPY:
            self.skipTest("needs python3-scapy (run with /usr/bin/python3)")

    def pcap_profile(self, tag, out):
        prefix = f"wrtrex{tag}{os.getpid()}"
        self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", prefix), True)
        return self.write(f"{prefix}.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={prefix}", "--vdev=net_pcap0,tx_pcap={out}", "--lcores=0@0,1@1"]
ports:
  - device: net_pcap0
    tx_lcores: [1]
    src_mac: {SRC}
    dst_mac: {DST}
""")

    def dumped(self, profile, n, *opts):
        out = self.path("dump.pcap")
        self.wirerate("dump", profile, "--count", str(n), "--pcap", out, *opts, check=0)
        return [b for _, b in read_pcap(out)]

    def test_run_profile_as_is(self):
        """run PROFILE.py -t -m: the dump's frames with the port's MACs, at TRex's rate."""
        out = self.path("sent.pcap")
        prof = self.pcap_profile("r", out)
        profile = os.path.join(PROFILES, "udp_clients.py")
        p = self.wirerate("run", profile, "-t", "size=128", "-m", "100", "--config", prof,
                          "--count", "300", "--quiet", "--json", "r.json", check=0)
        self.assertIn("under the UDP checksum", p.stderr)  # import-trex's warning
        sent = [b for _, b in read_pcap(out)]
        want = self.dumped(profile, 300, "-t", "size=128")
        self.assertEqual(len(sent), 300)
        mac = bytes.fromhex(DST.replace(":", "") + SRC.replace(":", ""))
        for k, (s, w) in enumerate(zip(sent, want)):
            self.assertEqual(s, mac + w[12:], k)
        res = self.json("r.json")
        self.assertEqual(res["stream_file"], profile)
        # 10 pps x 100
        self.assertAlmostEqual(res["streams"][0]["target_kpps"], 1.0, places=6)

    def test_isg_in_a_chain(self):
        """A chain of bursts: the second starts its isg after the first's last frame."""
        out = self.path("chain.pcap")
        prof = self.pcap_profile("i", out)
        sf = self.write("chain.yaml", """version: 1
loops: 1
streams:
  - {name: a, count: 20, rate: 100 kpps, next: next, stack: [eth, ipv4, udp]}
  - {name: b, count: 20, rate: 100 kpps, isg: 30ms, next: stop, stack: [eth, ipv4, {udp: {src: 9}}]}
""")
        self.wirerate("run", sf, "--config", prof, "--quiet", "--json", "r.json", check=0)
        recs = read_pcap(out)
        self.assertEqual(len(recs), 40)
        # net_pcap stamps frames on DPDK's rounded TSC figure, the pacer
        # waits on the calibrated one: the gap in DPDK's seconds, in true ones.
        tsc = self.json("r.json")["tsc"]
        gap = (recs[20][0] - recs[19][0]) * tsc["eal_hz"] / tsc["hz"]
        # The isg once, between the two streams, not before the first nor twice: bounds
        # a stalled lcore cannot break (how close to 30 ms it comes is for benchmarks).
        self.assertGreaterEqual(gap, 0.030)
        self.assertLess(gap, 2 * 0.030)
        self.assertLess(recs[19][0] - recs[0][0], 0.030)


class TrexServer(ServerCase):
    def setUp(self):
        super().setUp()
        if not HAVE_SCAPY:
            self.skipTest("needs python3-scapy (run with /usr/bin/python3)")

    def test_client_profile_and_scapy_streams(self):
        out = self.path("srv.pcap")
        _, sock = self.serve(vdev=f"net_pcap0,tx_pcap={out}", tag="x",
                             profile_extra=f"    dst_mac: {DST}\n")
        c = self.client(sock)
        c.acquire()
        # a TRex profile, converted by the client
        loaded = c.load_file(os.path.join(PROFILES, "syn_flood.py"))
        self.assertEqual([s["name"] for s in loaded], ["s0"])
        c.start(count=50, rate="100 kpps")
        c.wait(timeout=20)
        # Scapy streams, fields named the Scapy way
        pkt = Ether() / IPv6(src="2001:db8::1", dst="2001:db8::2") / UDP(dport=53) / (b"q" * 20)
        c.add_stream(pkt, vary={"IPv6.src": {"inc": {"from": "2001:db8::1",
                                                     "to": "2001:db8::4"}}},
                     rate="100 kpps", name="v6")
        c.add_stream(Ether() / IP(src="10.0.0.1", dst="10.0.0.2") / UDP() / (b"\0" * 30),
                     vary={"IP.src": {"list": ["10.0.0.7", "10.0.0.8"]}}, name="v4")
        self.assertIn("v6", c.stream_file())
        c.save(self.path("saved.yaml"))
        c.start(count=8, rate="100 kpps")
        c.wait(timeout=20)
        c.close()
        for p in self.procs:
            p.send_signal(2)
            p.wait(timeout=30)
        sent = [Ether(b) for _, b in read_pcap(out)]
        self.assertEqual(len(sent), 50 + 16)
        syn = sent[:50]
        dump = self.path("syn.pcap")
        self.wirerate("dump", os.path.join(PROFILES, "syn_flood.py"), "--count", "50",
                      "--pcap", dump, check=0)
        for s, (_, w) in zip(syn, read_pcap(dump)):
            self.assertEqual(bytes(s)[12:], w[12:])  # the port's MACs aside
            self.assertEqual(s.dst, DST)
        v6 = sorted(s[IPv6].src for s in sent[50:] if IPv6 in s)
        self.assertEqual(v6, sorted(["2001:db8::1", "2001:db8::2", "2001:db8::3",
                                     "2001:db8::4"] * 2))
        v4 = sorted(s[IP].src for s in sent[50:] if IP in s)
        self.assertEqual(v4, ["10.0.0.7"] * 4 + ["10.0.0.8"] * 4)
        for s in sent[50:]:
            # Ether() left its MACs unset: the port's (its dst_mac), not this host's.
            self.assertEqual(s.dst, DST)
            q = s.copy()
            if IP in q:
                q[IP].chksum = None
            q[UDP].chksum = None
            self.assertEqual(bytes(Ether(bytes(q))), bytes(s))  # checksums right
        # the saved file is a stream file wirerate reads
        self.wirerate("check", self.path("saved.yaml"), check=0)

    def test_console_add_and_save(self):
        _, sock = self.serve(tag="y")
        saved = self.path("console.yaml")
        p = subprocess.run(
            [sys.executable, "-m", "wirerate", "--socket", sock, "-c", "acquire",
             "-c", 'add v4 Ether()/IP(src="10.0.0.1")/UDP(dport=7)/(b"z"*30) vary '
                   '{"IP.src": {"inc": {"from": "10.0.0.1", "to": "10.0.0.5"}}} rate 10 kpps',
             "-c", f"save {saved}", "-c", "start count 20", "-c", "wait 20"],
            capture_output=True, text=True, timeout=60,
            env={**os.environ, "PYTHONPATH": os.path.join(ROOT, "python")})
        self.assertIn("v4: port 0", p.stdout, p.stdout + p.stderr)
        with open(saved) as f:
            text = f.read()
        self.assertIn("ipv4: {src: {inc: {from: 10.0.0.1, to: 10.0.0.5}}", text)
