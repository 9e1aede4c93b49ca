# SPDX-License-Identifier: BSD-3-Clause
"""Rates and schedules end to end: pacing accuracy, trains, sequences, ramps, limits, sweep, RFC 2544."""

import csv
import json
import os
import shutil
import subprocess
import unittest

from wrtest import ROOT, STREAMS, EalCase, tshark_fields

# The pacer's own tolerance: 0.1 % of the frames (issue 5's requirement).
ACCURACY = 1e-3


def times(pcap):
    """Frame timestamps of a pcap, in seconds from the first frame."""
    rows = tshark_fields(pcap, ["frame.time_epoch"])
    t = [float(r[0]) for r in rows]
    return [x - t[0] for x in t]


class Accuracy(EalCase):
    """1 Mpps for 5 s on net_null: 5,000,000 frames within 0.1 %."""

    def test_1mpps_5s(self):
        sf = self.write("s.yaml", """version: 1
streams:
  - {name: acc, size: 64, rate: 1 Mpps, duration: 5s}
""")
        prof = self.profile("net_null0", "wrsacc")
        self.wirerate("run", sf, "--config", prof, "--quiet", "--json", self.path("r.json"),
                      check=0)
        s = self.json("r.json")["streams"][0]
        sent, skipped, dur = s["tx_pkts"], s["pacer_skipped"], s["duration_s"]
        # The schedule is exact whatever happens to the lcore: frames sent
        # plus frames the pacer gave up after stalls are the 5,000,001 due
        # in 5 s (frame 0 at t = 0), less at most one burst (64) owed when
        # the time ran out.
        self.assertLessEqual(sent + skipped, 5_000_001)
        self.assertGreaterEqual(sent + skipped, 5_000_001 - 64)
        self.assertAlmostEqual(dur, 5.0, delta=5.0 * ACCURACY)
        self.assertAlmostEqual((sent + skipped) / dur, 1e6, delta=1e6 * ACCURACY)
        self.assertAlmostEqual(s["target_kpps"], 1000.0, places=6)
        if skipped > 5_000_000 * ACCURACY:
            # Another busy thread on the TX lcore's CPU (the machine is
            # shared): the frames it cost are counted, not hidden.
            print(f"\n    1 Mpps: {skipped} frames skipped after stalls of the TX lcore "
                  f"(CPU shared with another poller); sent {sent}")
            return
        self.assertAlmostEqual(sent, 5_000_000, delta=5_000_000 * ACCURACY)
        self.assertAlmostEqual(sent / dur, 1e6, delta=1e6 * ACCURACY)


class Trains(EalCase):
    """bursts: {frames, gap}: trains measured by the TX lcore and in a pcap."""

    def test_gaps_at_max_rate_null(self):
        sf = os.path.join(STREAMS, "bursts.yaml")
        prof = self.profile("net_null0", "wrstrain")
        p = self.wirerate("run", sf, "--config", prof, "--quiet", "--json",
                          self.path("r.json"), check=0)
        s = self.json("r.json")["streams"][0]
        tr = s["trains"]
        self.assertEqual(tr["frames"], 32)
        self.assertEqual(tr["nominal_ns"], 100_000)
        # One interval between consecutive trains: as many as trains - 1.
        self.assertEqual(tr["intervals"], (s["tx_pkts"] + 31) // 32 - 1)
        self.assertGreater(tr["intervals"], 10_000)
        # Trains start 100 us apart: the median is on time; stalls of a
        # shared CPU show in the max, and catch-up trains in the min.
        self.assertAlmostEqual(tr["p50_ns"], 100_000, delta=5_000)
        self.assertLessEqual(tr["min_ns"], tr["p50_ns"])
        self.assertGreaterEqual(tr["max_ns"], tr["p99_ns"])
        self.assertIn("trains of 32 frames", p.stdout)

    def test_paced_trains_pcap(self):
        sf = self.write("s.yaml", """version: 1
streams:
  - {name: tr, size: 64, rate: 100 kpps, count: 200, bursts: {frames: 10, gap: 1ms}}
""")
        prof = self.profile("net_pcap0,tx_pcap=" + self.path("out.pcap"), "wrstrpcap")
        self.wirerate("run", sf, "--config", prof, "--quiet", "--json", self.path("r.json"),
                      check=0)
        t = times(self.path("out.pcap"))
        self.assertEqual(len(t), 200)
        # Train j starts j * (9 * 10 us + 1 ms) after train 0.
        starts = [t[i] for i in range(0, 200, 10)]
        gaps = sorted(b - a for a, b in zip(starts, starts[1:]))
        self.assertAlmostEqual(gaps[len(gaps) // 2], 1.09e-3, delta=0.1e-3)
        self.assertAlmostEqual(starts[-1], 19 * 1.09e-3, delta=2e-3)
        tr = self.json("r.json")["streams"][0]["trains"]
        self.assertEqual(tr["nominal_ns"], 1_090_000)
        self.assertEqual(tr["intervals"], 19)


class Sequences(EalCase):
    """next:/loops: streams of a port one after another, as tshark sees them."""

    def test_order_and_loops(self):
        sf = os.path.join(STREAMS, "sequence.yaml")
        prof = self.profile("net_pcap0,tx_pcap=" + self.path("out.pcap"), "wrsseq")
        self.wirerate("run", sf, "--config", prof, "--quiet", "--json", self.path("r.json"),
                      check=0)
        rows = tshark_fields(self.path("out.pcap"), ["udp.srcport", "frame.len"])
        runs = []
        for port, length in rows:
            if runs and runs[-1][0] == (port, length):
                runs[-1][1] += 1
            else:
                runs.append([(port, length), 1])
        self.assertEqual(runs, [[("1001", "60"), 1000], [("1002", "124"), 500],
                                [("1001", "60"), 1000], [("1002", "124"), 500]])
        res = self.json("r.json")
        by = {s["name"]: s for s in res["streams"]}
        self.assertEqual(by["a"]["tx_pkts"], 2000)
        self.assertEqual(by["b"]["tx_pkts"], 1000)
        # Rates of a sequenced stream are over the time it was active.
        self.assertAlmostEqual(by["a"]["kpps"], 100, delta=5)
        self.assertAlmostEqual(by["b"]["kpps"], 50, delta=2.5)

    def test_stop_ends_the_port(self):
        sf = self.write("s.yaml", """version: 1
streams:
  - {name: a, count: 10, next: stop, udp: {src: 1}}
  - {name: b, count: 10, udp: {src: 2}}
""")
        prof = self.profile("net_pcap0,tx_pcap=" + self.path("out.pcap"), "wrsstop")
        self.wirerate("run", sf, "--config", prof, "--quiet", check=0)
        rows = tshark_fields(self.path("out.pcap"), ["udp.srcport"])
        self.assertEqual([r[0] for r in rows], ["1"] * 10)


class Ramps(EalCase):
    """A staircase, seen in the pcap's timestamps."""

    def test_staircase_steps(self):
        sf = self.write("s.yaml", """version: 1
streams:
  - name: steps
    size: 64
    ramp: {shape: staircase, from: 10 kpps, to: 40 kpps, step: 10 kpps, step_time: 250ms, at_end: stop}
""")
        prof = self.profile("net_pcap0,tx_pcap=" + self.path("out.pcap"), "wrsramp")
        self.wirerate("run", sf, "--config", prof, "--quiet", "--json", self.path("r.json"),
                      check=0)
        s = self.json("r.json")["streams"][0]
        t = times(self.path("out.pcap"))
        self.assertEqual(len(t), s["tx_pkts"])
        # 2500 + 5000 + 7500 + 10000 frames are due in the four steps.
        self.assertLessEqual(abs(s["tx_pkts"] + s["pacer_skipped"] - 25000), 64)
        per_step = [0, 0, 0, 0]
        for x in t:
            per_step[min(int(x / 0.25), 3)] += 1
        for i, n in enumerate(per_step):
            self.assertAlmostEqual(n, 2500 * (i + 1), delta=2500 * (i + 1) * 0.1,
                                   msg=f"step {i}: {per_step}")
        self.assertAlmostEqual(t[-1], 1.0, delta=0.05)


class Limits(EalCase):
    """count and duration per stream, on streams running together."""

    def test_count_and_duration(self):
        sf = self.write("s.yaml", """version: 1
streams:
  - {name: counted, size: 64, rate: 100 kpps, count: 1000, udp: {src: 1}}
  - {name: timed, size: 64, rate: 20 kpps, duration: 500ms, udp: {src: 2}}
""")
        prof = self.profile("net_pcap0,tx_pcap=" + self.path("out.pcap"), "wrslim")
        self.wirerate("run", sf, "--config", prof, "--quiet", "--json", self.path("r.json"),
                      check=0)
        res = self.json("r.json")
        by = {s["name"]: s for s in res["streams"]}
        self.assertEqual(by["counted"]["tx_pkts"], 1000)
        timed = by["timed"]
        self.assertLessEqual(abs(timed["tx_pkts"] + timed["pacer_skipped"] - 10001), 64)
        self.assertAlmostEqual(timed["duration_s"], 0.5, delta=0.01)
        rows = tshark_fields(self.path("out.pcap"), ["udp.srcport"])
        self.assertEqual(sum(1 for r in rows if r[0] == "1"), 1000)
        self.assertEqual(sum(1 for r in rows if r[0] == "2"), timed["tx_pkts"])
        self.assertEqual(res["stop_reason"], "stream-duration")


class Sweep(EalCase):
    """wirerate sweep on net_null: Ostinato's table, CSV and JSON agree."""

    def test_table(self):
        sf = os.path.join(STREAMS, "udp-64.yaml")
        prof = self.profile("net_null0", "wrssweep")
        p = self.wirerate("sweep", sf, "--config", prof, "--sizes", "64,128,1518",
                          "--duration", "0.3", "--csv", self.path("s.csv"), "--json",
                          self.path("s.json"), check=0)
        with open(self.path("s.csv")) as f:
            rows = list(csv.DictReader(f))
        res = self.json("s.json")
        self.assertEqual(res["schema"], "wirerate-sweep/1")
        self.assertEqual([int(r["frame_size"]) for r in rows], [64, 128, 1518])
        link = res["link_speed_mbps"]
        for r, j in zip(rows, res["rows"]):
            size, kpps = int(r["frame_size"]), float(r["kpps"])
            self.assertGreater(kpps, 100)
            self.assertAlmostEqual(j["duration_s"], 0.3, delta=0.01)
            self.assertAlmostEqual(kpps, j["tx_pkts"] / j["duration_s"] / 1e3,
                                   delta=kpps * 1e-6 + 0.001)
            self.assertAlmostEqual(float(r["mbps_l1"]), (size + 20) * kpps * 8 / 1000,
                                   delta=float(r["mbps_l1"]) * 1e-5 + 0.01)
            self.assertAlmostEqual(float(r["mbps_l2"]), size * kpps * 8 / 1000,
                                   delta=float(r["mbps_l2"]) * 1e-5 + 0.01)
            if link:
                self.assertAlmostEqual(float(r["line_pct"]), j["mbps_l1"] / link * 100,
                                       delta=0.01)
            else:
                self.assertEqual(r["line_pct"], "")
                self.assertIsNone(j["line_pct"])
            self.assertRegex(p.stdout, rf"(?m)^\s+{size}\s+{kpps:.3f}\s")

    def test_plot(self):
        sf = os.path.join(STREAMS, "udp-64.yaml")
        prof = self.profile("net_null0", "wrsplot")
        self.wirerate("sweep", sf, "--config", prof, "--sizes", "64,512", "--duration", "0.2",
                      "--csv", self.path("s.csv"), "--quiet", check=0)
        tool = os.path.join(ROOT, "tools", "wr-plot-sweep")
        p = subprocess.run([tool, self.path("s.csv"), self.path("s.png")], capture_output=True,
                           text=True, timeout=120)
        if p.returncode == 2 and "needs python3-matplotlib" in p.stderr:
            self.skipTest("python3-matplotlib is not installed")
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(self.path("s.png"), "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        p = subprocess.run([tool, os.path.join(STREAMS, "udp-64.yaml"), self.path("x.png")],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 2)

    def test_bad_sizes(self):
        sf = os.path.join(STREAMS, "udp-64.yaml")
        p = self.wirerate("sweep", sf, "--sizes", "64,63", check=2)
        self.assertIn("--sizes", p.stderr)


class Rfc2544Loopback(EalCase):
    """A lossless loopback (one net_ring port): the throughput is the ceiling."""

    def test_loopback_is_lossless(self):
        sf = os.path.join(STREAMS, "udp-64.yaml")
        prof = self.profile("net_ring0", "wrsring")
        self.wirerate("rfc2544", sf, "--config", prof, "--tx-port", "0", "--rx-port", "0",
                      "--sizes", "64,128,1518", "--trial", "0.3", "--drain", "0.1",
                      "--max-rate", "100 kpps", "--json", self.path("r.json"),
                      "--csv", self.path("r.csv"), check=0)
        res = self.json("r.json")
        self.assertEqual(res["schema"], "wirerate-rfc2544/1")
        for r in res["results"]:
            self.assertEqual(r["throughput_pps"], 100_000)
            counted = [t for t in r["trials"] if t["counted"]]
            self.assertEqual(len(counted), 1)
            for t in r["trials"]:
                self.assertEqual(t["lost"], 0)
                self.assertEqual(t["received"], t["sent"])
                self.assertEqual(t["rx_frames"], t["sent"])
        with open(self.path("r.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual([(r["frame_size"], r["throughput_pps"]) for r in rows],
                         [("64", "100000.000"), ("128", "100000.000"),
                          ("1518", "100000.000")])

    def test_needs_ports_and_room_for_signature(self):
        sf = os.path.join(STREAMS, "udp-64.yaml")
        p = self.wirerate("rfc2544", sf, "--sizes", "128", check=2)
        self.assertIn("--tx-port", p.stderr)
        # 64 bytes hold the loss-only signature, but not with a 10-byte
        # string payload as well: refused before EAL starts.
        long = self.write("long.yaml", """version: 1
streams:
  - name: long
    payload: {string: "ten bytes!"}
""")
        p = self.wirerate("rfc2544", long, "--tx-port", "0", "--rx-port", "0", "--sizes", "64",
                          check=2)
        self.assertIn("loss-only signature", p.stderr)


def ns_exec(ns, *cmd, check=True):
    return subprocess.run(["ip", "netns", "exec", ns, *cmd], capture_output=True, text=True,
                          check=check)


class Rfc2544KernelRouter(EalCase):
    """RFC 2544 against the Linux kernel forwarding between two veth pairs.

    Namespace wrs-rtr routes 198.18.0.0/24 <-> 198.19.0.0/24 with ip_forward,
    static neighbours and a token bucket (tbf, 20 Mbit/s) on its egress, so
    the device under test has a known throughput: 20e6 / 8 / (size - 4) pps
    (tbf counts the frame without FCS).  wirerate runs in wrs-gen on
    net_af_packet at both generator-side veths.
    """

    GEN, RTR = "wrs-gen", "wrs-rtr"
    RATE_BPS = 20_000_000
    RESOLUTION = 1000  # pps
    # 64-byte frames are covered on the loopback: through this router,
    # net_af_packet could not even offer 64-byte frames faster than the
    # router's tbf forwarded them (the TX side was held back), so the
    # search could not find the limit.
    SIZES = (128, 512)

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0 or shutil.which("ip") is None or shutil.which("tc") is None:
            self.skipTest("needs root, ip and tc")
        self.addCleanup(self.teardown_net)
        self.teardown_net()
        g, r = self.GEN, self.RTR
        cmds = [
            ["ip", "netns", "add", g], ["ip", "netns", "add", r],
            ["ip", "-n", g, "link", "add", "wrsg0", "type", "veth", "peer", "name", "wrsr0",
             "netns", r],
            ["ip", "-n", g, "link", "add", "wrsg1", "type", "veth", "peer", "name", "wrsr1",
             "netns", r],
            ["ip", "-n", g, "link", "set", "wrsg0", "address", "02:00:00:00:00:01"],
            ["ip", "-n", r, "link", "set", "wrsr0", "address", "02:00:00:00:00:02"],
            ["ip", "-n", r, "link", "set", "wrsr1", "address", "02:00:00:00:00:03"],
            ["ip", "-n", g, "link", "set", "wrsg1", "address", "02:00:00:00:00:04"],
        ]
        for ns in (g, r):
            cmds.append(["ip", "netns", "exec", ns, "sysctl", "-qw",
                         "net.ipv6.conf.all.disable_ipv6=1",
                         "net.ipv6.conf.default.disable_ipv6=1"])
            cmds.append(["ip", "-n", ns, "link", "set", "lo", "up"])
        cmds += [
            ["ip", "-n", g, "link", "set", "wrsg0", "up"],
            ["ip", "-n", g, "link", "set", "wrsg1", "up"],
            ["ip", "-n", r, "link", "set", "wrsr0", "up"],
            ["ip", "-n", r, "link", "set", "wrsr1", "up"],
            ["ip", "-n", r, "addr", "add", "198.18.0.254/24", "dev", "wrsr0"],
            ["ip", "-n", r, "addr", "add", "198.19.0.254/24", "dev", "wrsr1"],
            ["ip", "netns", "exec", r, "sysctl", "-qw", "net.ipv4.ip_forward=1"],
            # The generator answers no ARP: static neighbours.
            ["ip", "-n", r, "neigh", "add", "198.19.0.1", "lladdr", "02:00:00:00:00:04",
             "dev", "wrsr1", "nud", "permanent"],
            ["ip", "-n", r, "neigh", "add", "198.18.0.1", "lladdr", "02:00:00:00:00:01",
             "dev", "wrsr0", "nud", "permanent"],
            ["ip", "netns", "exec", r, "tc", "qdisc", "add", "dev", "wrsr1", "root", "tbf",
             "rate", "20mbit", "burst", "16kb", "latency", "5ms"],
        ]
        for c in cmds:
            p = subprocess.run(c, capture_output=True, text=True)
            if p.returncode != 0:
                self.skipTest(f"cannot build the router ({' '.join(c)}): {p.stderr.strip()}")

    def teardown_net(self):
        for ns in (self.GEN, self.RTR):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)

    def forwarded(self):
        return int(ns_exec(self.RTR, "cat", "/sys/class/net/wrsr1/statistics/tx_packets")
                   .stdout)

    def search(self, run):
        # A large socket ring (framecnt) keeps the receiving side from
        # dropping while the TX lcore's CPU is shared.
        prof = self.write(f"afp{run}.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix=wrsrtr{run}",
      "--vdev=net_af_packet0,iface=wrsg0,framecnt=16384",
      "--vdev=net_af_packet1,iface=wrsg1,framecnt=16384", "--lcores=0@0,1@1"]
ports:
  - device: net_af_packet0
    tx_lcores: [1]
  - device: net_af_packet1
    tx_lcores: [1]
""")
        before = self.forwarded()
        out = self.path(f"r{run}.json")
        p = ns_exec(self.GEN, os.environ.get("WIRERATE", ""), "rfc2544",
                    os.path.join(STREAMS, "udp-64.yaml"), "--config", prof, "--tx-port", "0",
                    "--rx-port", "1", "--sizes", ",".join(map(str, self.SIZES)),
                    "--trial", "0.5", "--drain", "0.1", "--max-rate", "64 kpps",
                    "--resolution", f"{self.RESOLUTION} pps", "--json", out, check=False)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        forwarded = self.forwarded() - before
        with open(out) as f:
            res = json.load(f)
        trials = [t for r in res["results"] for t in r["trials"]]
        for t in trials:
            # Loss from sequence numbers: every frame back was ours, once.
            self.assertLessEqual(t["received"], t["sent"])
            self.assertEqual(t["lost"], t["sent"] - t["received"])
            self.assertEqual(t["rx_frames"], t["received"], t)
            self.assertEqual(t["rx_nic_pkts"], t["received"], t)
        # ... and what came back is what the kernel forwarded, exactly.
        self.assertEqual(sum(t["received"] for t in trials), forwarded)
        return {r["frame_size"]: r["throughput_pps"] for r in res["results"]}, p.stdout

    def test_throughput_repeatable(self):
        wirerate = os.environ.get("WIRERATE")
        if not wirerate:
            self.skipTest("WIRERATE not set")
        a, out_a = self.search(1)
        b, out_b = self.search(2)
        for size in self.SIZES:
            expected = self.RATE_BPS / 8 / (size - 4)
            # The search ends within one resolution below the highest
            # passing rate; tbf's 16 kB bucket and 5 ms queue let a rate a
            # few percent above its own pass.  Trials the shared CPU kept
            # from offering their rate are run again (up to 3 times) but
            # may stay, so allow 15 % above.
            for got in (a[size], b[size]):
                self.assertGreaterEqual(got, expected - 2 * self.RESOLUTION,
                                        f"{size}: {a} {b}\n{out_a}\n{out_b}")
                self.assertLessEqual(got, expected * 1.15, f"{size}: {a} {b}\n{out_a}\n{out_b}")
            # Repeatable: two runs within 2 resolutions + 10 % of the throughput.
            self.assertLessEqual(abs(a[size] - b[size]),
                                 2 * self.RESOLUTION + 0.1 * expected,
                                 f"{size}: {a} {b}")
        print(f"\n    kernel router (tbf 20 Mbit/s): run 1 {a}, run 2 {b} pps")


if __name__ == "__main__":
    unittest.main(verbosity=2)
