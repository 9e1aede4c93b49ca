# SPDX-License-Identifier: BSD-3-Clause
"""The receiving half (issue 18), against peers and decoders we did not write: two RX lcores
over memif queue pairs counted as dpdk-testpmd counts them; a device that drops (a tbf in the
kernel, counted by tc) told apart from wirerate missing frames (libpcap's own drop count);
captures of what the kernel sends back equal tcpdump's reading of an unfiltered capture of
the same run, tshark reads every file, a TX capture equals `wirerate dump`; rx_classes
counted as tshark classifies the same frames; bad input refused before EAL."""

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
import unittest

from wrtest import (ROOT, EalCase, MemifCase, WIRERATE, kill, wait_for,
                    WrCase)
from test_echo import forget_prefix, stable_ethdev_stats

RUN_TIMEOUT_S = 120
PEER_START_S = 20
GEN_MAC = "02:00:00:00:00:01"
GEN_IP = "198.18.0.1"
PEER_IP = "198.18.0.2"


def ns_run(ns, *args, check=True, **kw):
    return subprocess.run(["ip", "netns", "exec", ns, *args], check=check, timeout=60,
                          capture_output=True, text=True, **kw)


def take_lines(lines, out, seconds, until=None):
    """Lines from a reader thread's queue (None: its end) into out, for up to
    seconds, or up to the first line that starts with until."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            line = lines.get(timeout=min(1, max(0.01, end - time.monotonic())))
        except queue.Empty:
            continue
        if line is None:
            return
        out.append(line)
        if until is not None and line.startswith(until):
            return


def tcpdump_frames(path, flt=None):
    """Each frame's nanosecond time and bytes, as tcpdump reads them (optionally filtered)."""
    cmd = ["tcpdump", "-r", path, "-nn", "-tt", "--time-stamp-precision=nano", "-x"]
    if flt:
        cmd.append(flt)
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=60).stdout
    frames = []
    for line in out.splitlines():
        if line.startswith("\t"):
            frames[-1][1] += "".join(line.split()[1:])
        else:
            frames.append([line.split()[0], ""])
    return [tuple(f) for f in frames]


def tshark_rows(path, fields):
    """One tshark pass over @path: each frame's @fields (a list of strings each, "" where
    the frame has none), so that several counts need not start tshark again."""
    cmd = ["tshark", "-n", "-r", path, "-T", "fields", "-E", "separator=/t"]
    for f in fields:
        cmd += ["-e", f]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise AssertionError(f"tshark cannot read {path}: {p.stderr}")
    return [line.split("\t") for line in p.stdout.splitlines()]


def tshark_count(path, display_filter=None):
    cmd = ["tshark", "-n", "-r", path, "-T", "fields", "-e", "frame.number"]
    if display_filter:
        cmd += ["-Y", display_filter]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise AssertionError(f"tshark cannot read {path}: {p.stderr}")
    return len(p.stdout.split())


class MultiQueue(MemifCase):
    """memif with two queue pairs through dpdk-testpmd macswap --rxq=2 --txq=2: two TX and two
    RX lcores, every frame back, each RX queue's count equal to what testpmd sent on that
    queue, latency on every frame, and the stream's name on its captured frames."""

    RUNDIR = "wrrxmq"
    COUNT = 5000

    def test_two_queue_pairs(self):
        pid = os.getpid()
        gen_prefix = forget_prefix(self, f"wrrx-g{pid}")
        refl_prefix = forget_prefix(self, f"wrrx-r{pid}")
        # Both of wirerate's workers on CPU 0 (each sends one lane and
        # receives one queue), testpmd on CPU 1: a modest rate.
        prof = self.write("mq.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={gen_prefix}",
      "--vdev=net_memif0,role=server,socket={self.sock},rsize=14", "--lcores=0@0,1@0,2@0"]
ports:
  - device: net_memif0
    tx_lcores: [1, 2]
    rx_lcores: [1, 2]
settle_ms: 300
""")
        sf = self.write("s.yaml", f"""version: 1
streams:
  - {{name: a, size: 128, rate: 10 kpps, latency: true, count: {self.COUNT}}}
  - {{name: b, size: 200, rate: 10 kpps, latency: true, count: {self.COUNT}}}
""")
        # A long drain, cut short by a signal once testpmd's counters are read (a
        # signal in the drain only ends it): 10 s of room for dpdk-telemetry.py on a busy
        # machine, and no second of it waited out.
        gen = self.start("run", sf, "--config", prof, "--drain", "10", "--json",
                         self.path("r.json"), "--capture", "0:both=mq.pcapng")
        self.procs.append(gen)
        self.assertTrue(wait_for(lambda: self.socket_listening() or gen.poll() is not None,
                                 PEER_START_S), "wirerate did not create the memif socket")
        refl = self.start_reflector(refl_prefix, self.sock, args=("--rxq=2", "--txq=2"))
        self.procs.append(refl)
        lines = queue.Queue()
        threading.Thread(target=lambda: [lines.put(l) for l in gen.stdout] + [lines.put(None)],
                         daemon=True).start()
        # stderr read as it comes too: a pipe nobody reads blocks wirerate's
        # next write once 64 KiB of EAL or PMD messages fill it (the run
        # then never ends), and those messages say what went wrong.
        errs = []
        err_reader = threading.Thread(target=lambda: errs.extend(gen.stderr), daemon=True)
        err_reader.start()
        out = []
        take_lines(lines, out, RUN_TIMEOUT_S, until="sending stopped")
        # testpmd's per-queue counters while the link is up (the drain).
        last = stable_ethdev_stats(refl_prefix, tries=10, pause=0.3)
        if gen.poll() is None:
            gen.send_signal(signal.SIGINT)
        try:
            gen.wait(timeout=RUN_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            kill(gen)
            err_reader.join(5)
            self.fail("wirerate did not end: " + "".join(out)[-3000:] + "\nstderr: " +
                      "".join(errs)[-3000:] + f"\ntestpmd: {last}")
        kill(refl)
        err_reader.join(5)
        take_lines(lines, out, 5)   # the rest of stdout, up to its end
        out = "".join(out)
        msg = f"{out}\n{''.join(errs)}\ntestpmd: {last}"
        self.assertEqual(gen.returncode, 0, msg)
        res = self.json("r.json")
        port = res["ports"][0]
        for st in res["streams"]:
            self.assertEqual(st["tx_pkts"], self.COUNT, msg)
            self.assertEqual(st["rx_pkts"], self.COUNT, msg)
            self.assertEqual(st["lost"], 0, msg)
            self.assertEqual(st["duplicated"], 0, msg)
            self.assertEqual(st["latency_ns"]["n"], self.COUNT, msg)
        queues = port["rx_queues"]
        self.assertEqual([q["queue"] for q in queues], [0, 1], msg)
        self.assertEqual([q["lcore"] for q in queues], [1, 2], msg)
        self.assertIsNotNone(last, msg)
        # What testpmd sent on each queue is what wirerate's RX lcore of
        # that queue received (testpmd forwards queue q to queue q).
        self.assertEqual([q["rx_pkts"] for q in queues], last["q_opackets"][:2], msg)
        self.assertEqual(sum(q["rx_pkts"] for q in queues), 2 * self.COUNT, msg)
        self.assertEqual(last["q_ipackets"][:2], last["q_opackets"][:2], msg)
        for q in queues:
            self.assertGreater(q["rx_pkts"], 0, msg)
            self.assertGreater(q["polls"], 0, msg)
            self.assertTrue(0 < q["busy"] <= 1, msg)
        self.assertFalse(res["generator_limited"], msg)
        # The capture: every frame sent and received, each named by tshark's
        # reading of its comment.
        cap = res["captures"][0]
        self.assertEqual((cap["written"], cap["capture_dropped"]), (4 * self.COUNT, 0), msg)
        # One tshark pass: each frame's comment and direction (1: inbound).
        rows = tshark_rows(self.path("mq.pcapng"),
                           ["frame.comment", "frame.packet_flags_direction"])
        self.assertEqual(len(rows), 4 * self.COUNT)
        for name in ("a", "b"):
            self.assertEqual(sum(1 for c, _ in rows if f"stream {name} " in c), 2 * self.COUNT)
        self.assertEqual(sum(1 for _, d in rows if d and int(d, 0) == 1), 2 * self.COUNT)


class Namespace:
    """A namespace with a veth pair: wirerate's end and the kernel's end."""

    def __init__(self, case, tag):
        self.ns = f"wrrx-{tag}"
        self.a = f"wrrx{tag}a"[:15]
        self.b = f"wrrx{tag}b"[:15]
        subprocess.run(["ip", "netns", "add", self.ns], check=True, timeout=10)
        case.addCleanup(subprocess.run, ["ip", "netns", "del", self.ns], timeout=10,
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for args in (["link", "set", "lo", "up"],
                     ["link", "add", self.a, "type", "veth", "peer", "name", self.b],
                     ["link", "set", self.a, "up"], ["link", "set", self.b, "up"]):
            subprocess.run(["ip", "-n", self.ns, *args], check=True, timeout=10)
        ns_run(self.ns, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
               "net.ipv6.conf.default.disable_ipv6=1")

    def mac(self, ifname):
        return ns_run(self.ns, "cat", f"/sys/class/net/{ifname}/address").stdout.strip()


class KernelCase(EalCase):
    def setUp(self):
        super().setUp()
        if os.geteuid() != 0 or shutil.which("ip") is None or shutil.which("tc") is None:
            self.skipTest("needs root, iproute2 and tc")
        self.tag = f"{os.getpid() % 100000}"
        self.nsx = Namespace(self, self.tag)

    def run_ns(self, *args, check=0):
        p = subprocess.run(["ip", "netns", "exec", self.nsx.ns, WIRERATE, *args], cwd=self.tmp,
                           capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        if check is not None and p.returncode != check:
            self.fail(f"wirerate {' '.join(args)} exited {p.returncode}\n"
                      f"stdout:\n{p.stdout}\nstderr:\n{p.stderr}")
        return p


class LossOrMiss(KernelCase):
    """A device made to drop against wirerate made to miss, never mixed.

    wirerate sends on one veth (af_packet) into a router namespace (the kernel forwarding) and
    receives what it forwards on another veth with net_pcap, whose imissed is libpcap's count
    of frames its ring had no room for.  The device: a tbf on the router's egress drops most
    frames (tc counts them): all of that is loss, reported as such.  wirerate: its RX lcore
    shares its CPU with the busy TX lcore, so frames wait while it is scheduled out and its
    ring overflows: those are the generator's (rx_missed, generator_limited).  In both,
    every frame lost is one tc, the kernel or libpcap counted, each on its side."""

    COUNT = 20000

    def setUp(self):
        super().setUp()
        n = self.nsx
        self.rt = f"wrrx-r{self.tag}"
        subprocess.run(["ip", "netns", "add", self.rt], check=True, timeout=10)
        self.addCleanup(subprocess.run, ["ip", "netns", "del", self.rt], timeout=10,
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.tx_if, self.rx_if = f"wrrx{self.tag}t"[:15], f"wrrx{self.tag}r"[:15]
        self.r0, self.r1 = f"wrrx{self.tag}u"[:15], f"wrrx{self.tag}v"[:15]

        def ip(ns, *args):
            subprocess.run(["ip", "-n", ns, *args], check=True, timeout=10)
        ip(n.ns, "link", "add", self.tx_if, "type", "veth", "peer", "name", self.r0,
           "netns", self.rt)
        ip(n.ns, "link", "add", self.rx_if, "type", "veth", "peer", "name", self.r1,
           "netns", self.rt)
        for ns, i in ((n.ns, self.tx_if), (n.ns, self.rx_if), (self.rt, self.r0),
                      (self.rt, self.r1), (self.rt, "lo")):
            ip(ns, "link", "set", i, "up")
        ns_run(self.rt, "sysctl", "-qw", "net.ipv4.ip_forward=1",
               "net.ipv6.conf.all.disable_ipv6=1")
        ip(self.rt, "addr", "add", "198.18.0.254/24", "dev", self.r0)
        ip(self.rt, "addr", "add", "198.19.0.254/24", "dev", self.r1)
        ip(self.rt, "neigh", "add", "198.19.0.1", "lladdr", n.mac(self.rx_if), "dev",
           self.r1)
        self.r0_mac = ns_run(self.rt, "cat", f"/sys/class/net/{self.r0}/address").stdout.strip()

    def profile(self, rx_cpu):
        prefix = forget_prefix(self, f"wrrx-l{self.tag}-{rx_cpu}")
        return self.write(f"{prefix}.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={prefix}",
      "--vdev=net_af_packet0,iface={self.tx_if}", "--vdev=net_pcap0,iface={self.rx_if}",
      "--lcores=0@0,1@1,2@{rx_cpu}"]
ports:
  - {{device: net_af_packet0, tx_lcores: [1], rx_lcores: []}}
  - {{device: net_pcap0, tx_lcores: [], rx_lcores: [2]}}
settle_ms: 100
""")

    def stream(self, rate, count):
        return self.write("s.yaml", f"""version: 1
streams:
  - name: s
    size: 128
    rate: {rate}
    count: {count}
    latency: true
    eth: {{src: "{GEN_MAC}", dst: "{self.r0_mac}"}}
    ipv4: {{src: {GEN_IP}, dst: 198.19.0.1}}
    udp: {{src: 1024, dst: 5000}}
""")

    # The kernel's counters run on across attempts (see attempt): each figure
    # is taken from where it stood when the last attempt began.
    base = (0, 0)

    def qdisc_total(self):
        j = json.loads(subprocess.run(["tc", "-n", self.rt, "-s", "-j", "qdisc", "show",
                                       "dev", self.r1], capture_output=True, text=True,
                                      check=True).stdout)
        return sum(q.get("drops", 0) for q in j)

    def kernel_total(self):
        n = 0
        for ns in (self.nsx.ns, self.rt):
            for i in json.loads(ns_run(ns, "ip", "-s", "-j", "link").stdout):
                n += i["stats64"]["tx"]["dropped"] + i["stats64"]["rx"]["dropped"]
        return n

    def qdisc_drops(self):
        """What the tbf dropped in the last attempt."""
        return self.qdisc_total() - self.base[0]

    def kernel_drops(self):
        """Frames the veths and the router dropped besides the tbf (backlogs), in the last
        attempt."""
        return self.kernel_total() - self.base[1]

    def attempt(self, rate, rx_cpu, want_missed, count):
        """Runs until wirerate's RX misses something (want_missed) or nothing (not): on this
        2-CPU machine other work may starve or spare the RX lcore either way."""
        for attempt in range(4):
            self.base = (self.qdisc_total(), self.kernel_total())
            p = self.run_ns("run", self.stream(rate, count), "--config", self.profile(rx_cpu),
                            "--quiet", "--drain", "1", "--json", self.path("r.json"))
            res = self.json("r.json")
            if (res["ports"][1]["rx_missed"] > 0) == want_missed:
                break
            print(f"attempt {attempt}: rx_missed {res['ports'][1]['rx_missed']}; again",
                  file=sys.stderr)
        return p, res

    def test_device_drops(self):
        subprocess.run(["tc", "-n", self.rt, "qdisc", "add", "dev", self.r1, "root", "tbf",
                        "rate", "5mbit", "burst", "5kb", "latency", "5ms"], check=True)
        p, res = self.attempt("20 kpps", 0, False, self.COUNT)
        st, rx = res["streams"][0], res["ports"][1]
        msg = p.stdout
        drops = self.qdisc_drops()
        self.assertGreater(drops, self.COUNT // 2, msg)
        self.assertEqual(st["tx_pkts"], self.COUNT, msg)
        self.assertEqual(st["lost"], drops + self.kernel_drops() + rx["rx_missed"], msg)
        # The device's drops are not the generator's: its RX limited only
        # by what it missed itself, which a busy machine may make it do in
        # every attempt (620 beside two busy loops).
        missed = rx["rx_missed"] > 0
        self.assertEqual(rx["generator_limited"], missed, msg)
        self.assertEqual("port 1: GENERATOR-LIMITED" in p.stdout, missed, msg)
        if not missed:
            self.assertFalse(res["generator_limited"], msg)
            self.assertNotIn("GENERATOR-LIMITED", p.stdout)

    def test_generator_misses(self):
        # Three times the frames: the RX lcore is scheduled out more often while they come
        # (with 20,000, a receive path a few cycles a frame faster drained libpcap's ring in
        # time in three attempts of three, now and then).
        p, res = self.attempt("max", 1, True, 3 * self.COUNT)
        st, rx = res["streams"][0], res["ports"][1]
        msg = p.stdout
        self.assertGreater(rx["rx_missed"], 0, msg)
        self.assertEqual(rx["nic"]["imissed"], rx["rx_missed"], msg)
        self.assertEqual(self.qdisc_drops(), 0)
        self.assertEqual(st["lost"], rx["rx_missed"] + self.kernel_drops(), msg)
        self.assertTrue(rx["generator_limited"], msg)
        self.assertTrue(res["generator_limited"], msg)
        self.assertIn(f"port 1: GENERATOR-LIMITED: wirerate missed {rx['rx_missed']} "
                      "received frames", p.stdout)


class KernelReplies(KernelCase):
    """What the kernel sends back through a veth: ICMP echo replies and port unreachables for
    wirerate's pings and UDP datagrams to a closed port, ARP when it asks."""

    def setUp(self):
        super().setUp()
        n = self.nsx
        subprocess.run(["ip", "-n", n.ns, "addr", "add", PEER_IP + "/24", "dev", n.b],
                       check=True)
        subprocess.run(["ip", "-n", n.ns, "neigh", "add", GEN_IP, "lladdr", GEN_MAC, "dev",
                        n.b], check=True)
        # Every port unreachable answered (the default allows one per second).
        ns_run(n.ns, "sysctl", "-qw", "net.ipv4.icmp_ratelimit=0",
               "net.ipv4.icmp_msgs_per_sec=1000000", "net.ipv4.icmp_msgs_burst=1000000")
        self.prefix = forget_prefix(self, f"wrrx-k{self.tag}")
        self.prof = self.write("k.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={self.prefix}",
      "--vdev=net_af_packet0,iface={n.a}", "--lcores=0@0,1@1"]
ports:
  - {{device: net_af_packet0, tx_lcores: [1], rx_lcores: [1]}}
rx_classes:
  - {{name: unreach, filter: "icmp[icmptype] == icmp-unreach"}}
  - {{name: echo-reply, filter: "icmp[icmptype] == icmp-echoreply"}}
  - {{name: ip, filter: ip}}
settle_ms: 100
""")
        peer = n.mac(n.b)
        self.sf = self.write("s.yaml", f"""version: 1
rx_classes:
  - {{name: arp, filter: arp}}
streams:
  - name: closed-port
    size: 100
    rate: 5 kpps
    count: 3000
    eth: {{src: "{GEN_MAC}", dst: "{peer}"}}
    ipv4: {{src: {GEN_IP}, dst: {PEER_IP}}}
    udp: {{src: 1024, dst: {{inc: {{from: 7000, to: 7099}}}}}}
  - name: ping
    size: 98
    rate: 5 kpps
    count: 2000
    stack:
      - eth: {{src: "{GEN_MAC}", dst: "{peer}"}}
      - ipv4: {{src: {GEN_IP}, dst: {PEER_IP}}}
      - icmp: {{id: 7, seq: {{inc: {{from: 1, to: 65535}}}}}}
""")

    def test_filtered_capture_and_classes(self):
        args = ["run", self.sf, "--config", self.prof, "--drain", "0.5", "--json",
                self.path("r.json"),
                "--capture", "0:rx=all.pcapng",
                "--capture", "0:rx=icmp.pcapng", "--capture-filter", "icmp and not icmp[icmptype] == icmp-echoreply",
                # A jset with a small constant: DPDK 22.11's JIT miscompiles
                # that (wr_bpf.c), and this RX lcore crashed on it.
                "--capture", "0:rx=jset.pcapng", "--capture-filter", "icmp[icmptype] & 2 != 0",
                "--capture", "0:tx=tx.pcapng",
                "--capture", "0:rx=ring.pcapng", "--capture-files", "3", "--capture-count",
                "1000", "--snaplen", "60"]
        p = self.run_ns(*args)
        msg = p.stdout + p.stderr
        res = self.json("r.json")
        caps = res["captures"]
        self.assertEqual([c["capture_dropped"] for c in caps], [0, 0, 0, 0, 0], msg)
        for st in res["streams"]:
            self.assertEqual(st["tx_pkts"], {"closed-port": 3000, "ping": 2000}[st["name"]])
        # tshark reads every file.
        files = ["icmp.pcapng", "tx.pcapng"] + [f"ring-{k}.pcapng" for k in range(3)]
        counts = {f: tshark_count(self.path(f)) for f in files}
        # all.pcapng in one pass: its count here, its classes below.
        rows = tshark_rows(self.path("all.pcapng"), ["frame.protocols", "icmp.type"])
        counts["all.pcapng"] = len(rows)
        self.assertEqual(counts["tx.pcapng"], 5000, msg)
        self.assertEqual(counts["all.pcapng"], caps[0]["written"], msg)
        self.assertEqual(counts["all.pcapng"], res["ports"][0]["rx_pkts"], msg)
        # The filtered capture is, frame for frame (time and bytes), what
        # tcpdump's filter keeps of the unfiltered one of the same run.
        flt = "icmp and not icmp[icmptype] == icmp-echoreply"
        want = tcpdump_frames(self.path("all.pcapng"), flt)
        self.assertEqual(len(want), 3000, msg)
        self.assertEqual(tcpdump_frames(self.path("icmp.pcapng")), want)
        want = tcpdump_frames(self.path("all.pcapng"), "icmp[icmptype] & 2 != 0")
        self.assertEqual(len(want), 3000, msg)
        self.assertEqual(tcpdump_frames(self.path("jset.pcapng")), want)
        # The ring: the last frames in three files of 1000 (the oldest
        # rewritten), cut at 60 bytes.
        n = counts["all.pcapng"]
        full = (n - 1) // 1000          # files completed before the last
        self.assertEqual(sum(counts[f"ring-{k}.pcapng"] for k in range(3)),
                         n - full * 1000 + min(full, 2) * 1000, msg)
        lens = subprocess.run(["tshark", "-n", "-r", self.path("ring-0.pcapng"), "-T", "fields",
                               "-e", "frame.cap_len"], capture_output=True, text=True).stdout
        self.assertTrue(all(int(x) <= 60 for x in lens.split()))
        # rx_classes: counted as tshark classifies the same frames.
        port = res["ports"][0]
        cls = {c["name"]: c["pkts"] for c in port["rx_classes"]}
        # (tshark's "icmp.type == N", "arp" and "ip" from its fields: the ICMP types
        # of a frame, comma-separated, and its protocols, colon-separated.)
        def tshark_says(pred):
            return sum(1 for protos, types in rows if pred(protos.split(":"), types.split(",")))
        self.assertEqual(cls["unreach"], tshark_says(lambda p, t: "3" in t), msg)
        self.assertEqual(cls["unreach"], 3000, msg)
        self.assertEqual(cls["echo-reply"], tshark_says(lambda p, t: "0" in t), msg)
        self.assertEqual(cls["echo-reply"], 2000, msg)
        self.assertEqual(cls["arp"], tshark_says(lambda p, t: "arp" in p), msg)
        # Classes overlap: a frame counts in the first that takes it (the
        # replies are IPv4 too, and counted in theirs, not in "ip").
        self.assertEqual(cls["ip"], tshark_says(lambda p, t: "ip" in p) - 5000, msg)
        self.assertEqual(port["rx_foreign"],
                         port["rx_pkts"] - sum(cls.values()) - port["rx_bad_sig"], msg)
        self.assertIn("port 0: class unreach: 3000 frames", p.stdout)
        # The TX capture is `wirerate dump` of each stream, frame for frame.
        subprocess.run([WIRERATE, "dump", self.sf, "--count", "3000", "--pcap",
                        self.path("dump.pcap")], check=True, capture_output=True)
        for flt in ("udp", "icmp"):
            self.assertEqual([f[1] for f in tcpdump_frames(self.path("tx.pcapng"), flt)],
                             [f[1] for f in tcpdump_frames(self.path("dump.pcap"), flt)
                              ][:{"udp": 3000, "icmp": 2000}[flt]])
        # Interfaces are named after the port; the file says what it dropped.
        info = subprocess.run(["capinfos", self.path("icmp.pcapng")], capture_output=True,
                              text=True).stdout
        self.assertIn(f"Name = net_af_packet0", info)


class CaptureEverything(EalCase):
    """A capture of every frame net_null gives (tens of Mpps) on tmpfs: the writer takes a few
    Mpps, so most frames are capture dropped; never waited for (the RX lcore goes on
    receiving), counted (seen = written + capture dropped + over the limit), and tshark reads
    every frame written."""

    def test_drops_counted(self):
        prefix = forget_prefix(self, f"wrrx-c{os.getpid()}")
        prof = self.write("n.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={prefix}", "--vdev=net_null0",
      "--lcores=0@0,1@1"]
ports:
  - {{device: net_null0, tx_lcores: [1], rx_lcores: [1]}}
""")
        sf = self.write("s.yaml", """version: 1
streams: [{name: s, size: 64, rate: 1 pps}]
""")
        cap = os.path.join("/dev/shm", f"wrrx-all-{os.getpid()}.pcapng")
        self.addCleanup(lambda: os.path.exists(cap) and os.unlink(cap))
        # 50000 frames, six times the capture's ring of held frames (8192, which fills in
        # microseconds at net_null's rate): tshark reads them in a second or two (200000
        # took it 5 s of the test's 7 beside two busy loops).
        p = self.wirerate("run", sf, "--config", prof, "--quiet", "--duration", "0.5",
                          "--drain", "0", "--json", self.path("r.json"),
                          "--capture", f"0:rx={cap}", "--capture-count", "50000", check=0)
        res = self.json("r.json")
        c, port = res["captures"][0], res["ports"][0]
        msg = p.stdout + json.dumps(c)
        self.assertGreater(port["rx_pkts"], 0, msg)
        self.assertGreater(c["capture_dropped"], 0, msg)
        self.assertGreater(c["written"], 0, msg)
        self.assertEqual(c["seen"], c["written"] + c["capture_dropped"] + c["over_limit"],
                         msg)
        self.assertEqual(c["written"], 50000, msg)
        self.assertEqual(tshark_count(cap), c["written"])


class BadInput(WrCase):
    """Bad filters, capture paths and class definitions: one line, exit 2, before EAL (the
    profile names a device EAL would refuse: its error never shows)."""

    def test_refused(self):
        prof = self.write("p.yaml", """version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix=wrrx-never", "--vdev=net_bogus0"]
ports:
  - {device: net_bogus0, tx_lcores: [1]}
""")
        sf = os.path.join(ROOT, "streams", "udp-64.yaml")
        bad_cls = self.write("c.yaml", """version: 1
rx_classes:
  - {name: x, filter: "udp port 99999"}
streams:
  - {name: s, size: 64}
""")
        dup_prof = self.write("q.yaml", """version: 1
eal: ["--no-pci", "--vdev=net_bogus0"]
rx_classes: [{name: x, filter: arp}]
""")
        dup_sf = self.write("d.yaml", """version: 1
rx_classes: [{name: x, filter: udp}]
streams: [{name: s, size: 64}]
""")
        os.mkdir(self.path("dir"))
        cases = [
            (["--capture", "0=c.pcapng", "--capture-filter", "tcp port"],
             "--capture-filter: libpcap cannot compile \"tcp port\""),
            (["--capture-filter", "udp"], "--capture-filter applies to the --capture"),
            (["--capture", "0=" + self.path("dir")], "a directory, not a regular file"),
            (["--capture", "0=" + self.path("none/x.pcapng")], "No such file or directory"),
            (["--capture", "0=" + self.path("j.json"), "--json", self.path("j.json")],
             "each output needs a path of its own"),
            (["--capture", "0:sideways=x"], "expected PORT[:rx|tx|both]=FILE"),
            (["--capture", "3=x.pcapng"], "port 3 does not exist"),
            (["--capture", "0=x", "--capture-files", "2"], "a limit per file"),
            (["--capture", "0=x", "--snaplen", "0"], "1..65535"),
        ]
        for extra, why in cases:
            p = self.wirerate("run", sf, "--config", prof, *extra, check=2)
            self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
            self.assertIn(why, p.stderr)
            self.assertNotIn("EAL", p.stderr)
        p = self.wirerate("run", bad_cls, "--config", prof, check=2)
        self.assertRegex(p.stderr.strip(), r"c\.yaml:3:\d+: rx_classes\[0\]\.filter: libpcap "
                         "cannot compile \"udp port 99999\"")
        p = self.wirerate("run", dup_sf, "--config", dup_prof, check=2)
        self.assertRegex(p.stderr.strip(), r"d\.yaml:2:\d+: rx_classes\[0\]\.name: class \"x\" "
                         r"is also defined in .*q\.yaml:3")
        self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
        self.assertFalse(os.path.exists(self.path("x.pcapng")))
        self.assertFalse(os.path.exists("/var/run/dpdk/wrrx-never"))


if __name__ == "__main__":
    unittest.main()
