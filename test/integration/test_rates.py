# SPDX-License-Identifier: BSD-3-Clause
"""Rates and schedules end to end: pacing accuracy, trains, sequences, ramps, limits, sweep, RFC 2544."""

import csv
import html.parser
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import threading
import unittest

from wrtest import ROOT, STREAMS, WIRERATE, EalCase, tshark_fields, wait_for

# The pacer's own tolerance: 0.1 % of the frames (issue 5's requirement).
ACCURACY = 1e-3

# The slow tier (WR_SLOW=1, devtools/wr-test): variants whose property a shorter test of
# the default suite proves too run only there (see each).
SLOW = os.environ.get("WR_SLOW") == "1"


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
        # in 5 s (frame 0 at t = 0), less what was owed when the time ran
        # out: one burst (64) on time, the pacer's cap (1 ms of frames,
        # wr_pacer_close) and a burst for an lcore that came to the end after
        # a stall (4,999,001 and 4,999,000 beside two busy loops).
        self.assertLessEqual(sent + skipped, 5_000_001)
        self.assertGreaterEqual(sent + skipped, 5_000_001 - 1000 - 64)
        # Never stopped early; it ends when the lcore comes to the end, late
        # by a stall on a busy machine: how late, and the rate over that
        # time, are for benchmarks (tools/wr-bench).
        self.assertGreaterEqual(dur, 5.0 - 1e-3)
        self.assertLess(dur, 5.5)
        self.assertAlmostEqual(s["target_kpps"], 1000.0, places=6)
        if skipped > 5_000_000 * ACCURACY:
            # Another busy thread on the TX lcore's CPU (the machine is
            # shared): the frames it cost are counted, not hidden.
            print(f"\n    1 Mpps: {skipped} frames skipped after stalls of the TX lcore "
                  f"(CPU shared with another poller); sent {sent}")
            return
        self.assertAlmostEqual(sent, 5_000_000, delta=5_000_000 * ACCURACY)


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
        # Trains start on a 100-us lattice.  Stalls of a shared CPU show in
        # the max and the catch-up trains in the min (beside two busy loops
        # over half the intervals were catch-ups of 1.2 us: the median is
        # for benchmarks); the lattice holds: first to last train took 100
        # us for each train sent or skipped, to a stall at the end (1 %).
        span = tr["avg_ns"] * tr["intervals"]
        slots = tr["intervals"] + s["pacer_skipped"] / 32
        self.assertAlmostEqual(span, slots * 100_000, delta=span * 0.01, msg=tr)
        self.assertLessEqual(tr["min_ns"], tr["p50_ns"])
        self.assertGreaterEqual(tr["max_ns"], tr["p99_ns"])
        self.assertIn("trains of 32 frames", p.stdout)

    def test_paced_trains_pcap(self):
        sf = self.write("s.yaml", """version: 1
streams:
  - {name: tr, size: 64, rate: 100 kpps, count: 200, bursts: {frames: 10, gap: 1ms}}
""")
        prof = self.profile("net_pcap0,tx_pcap=" + self.path("out.pcap"), "wrstrpcap")
        p = self.wirerate("run", sf, "--config", prof, "--quiet", "--json", self.path("r.json"),
                          check=0)
        t = times(self.path("out.pcap"))
        self.assertEqual(len(t), 200)
        # Train j starts j * (9 * 10 us + 1 ms) after train 0.
        starts = [t[i] for i in range(0, 200, 10)]
        # Never ahead of that schedule: train j leaves no earlier than its
        # slot, and a first train late after a stall has at most the pacer's
        # cap (100 frames, ten trains) owed behind it, so the last train
        # starts at least 9 slots after the first (net_pcap's clock is
        # DPDK's, 0.15 % off); trains without their gap take 2 ms.  How close
        # to the slots they keep is for benchmarks: beside two busy loops
        # the median gap was 133 us, catch-ups back to back.
        self.assertGreaterEqual(starts[-1], 9 * 1.09e-3 * 0.99)
        st = self.json("r.json")["streams"][0]
        tr = st["trains"]
        self.assertEqual(tr["nominal_ns"], 1_090_000)
        self.assertEqual(tr["intervals"], 19)
        # The target is the trains' average, 10 frames every 1.09 ms (the
        # pcap's own rate), not the 100 kpps within a train: the summary's
        # "achieved" compares like with like.
        self.assertAlmostEqual(st["target_kpps"], 10 / 1.09e-3 / 1e3, places=3)
        m = re.search(r"stream tr: target ([\d.]+) Kpps, achieved ([\d.]+) Kpps \(([-+\d.]+) %\)",
                      p.stdout)
        self.assertIsNotNone(m, p.stdout)
        self.assertLess(float(m.group(3)), 10, p.stdout)


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
        # Rates of a sequenced stream are over the time it was active: the
        # turns of a and b on one port do not overlap, so they add up to no
        # more than the run.  The schedule (frames sent plus frames skipped
        # after stalls of the TX lcore) never goes faster than the stream's
        # rate; a stall that ends a turn late makes it slower (b's 20 ms
        # showed 46.5 kpps beside two busy loops): how much is for benchmarks.
        self.assertLessEqual(by["a"]["duration_s"] + by["b"]["duration_s"],
                             res["duration_s"] + 1e-6)
        for name, kpps in (("a", 100), ("b", 50)):
            s = by[name]
            sched = (s["tx_pkts"] + s["pacer_skipped"]) / s["duration_s"] / 1000
            self.assertLessEqual(sched, kpps * 1.05, msg=name)
            # kpps is given to 3 decimals (99.697 against 99.69689...).
            self.assertLessEqual(s["kpps"], sched + 0.0005, msg=name)

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
        # Frames the pacer skipped after a stall of the TX lcore (a shared
        # CPU) are missing from whichever step it fell in: counted, not
        # hidden, so a step may be short by at most that many.
        skipped = s["pacer_skipped"]
        for i, n in enumerate(per_step):
            self.assertAlmostEqual(n, 2500 * (i + 1), delta=2500 * (i + 1) * 0.1 + skipped,
                                   msg=f"step {i}: {per_step}, {skipped} skipped")
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
        # net_null's 10 Gbps is a placeholder: no line to be a share of or
        # limited by (issue 17: "limited by line" at 978-17677 % of it).
        self.assertEqual(res["link_speed_mbps"], 10000)
        self.assertTrue(res["link_speed_placeholder"])
        self.assertIn("no line rate (net_null reports 10000 Mbps, a placeholder", p.stdout)
        link = 0
        for r, j in zip(rows, res["rows"]):
            self.assertIn(j["limited_by"], ("generator", "port"))
            self.assertEqual(r["limited_by"], j["limited_by"])
            self.assertTrue(j["limit_detail"])
            # The TX lcore's time as the kernel counted it: a net_null
            # lcore spins in user mode.
            self.assertAlmostEqual(j["tx_lcore"]["wall_s"], j["duration_s"], delta=0.05)
            self.assertGreater(j["tx_lcore"]["user_s"], j["tx_lcore"]["sys_s"])
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

    def test_echo_repeats_and_mtu(self):
        """--rx-port: what a loopback returns, --repeat: the spread; too large frames refused."""
        sf = os.path.join(STREAMS, "udp-64.yaml")
        prof = self.profile("net_ring0", "wrssecho")
        p = self.wirerate("sweep", sf, "--config", prof, "--rx-port", "0", "--repeat", "3",
                          "--sizes", "64,1518", "--duration", "0.2", "--json",
                          self.path("e.json"))
        self.assertIn(p.returncode, (0, 3), p.stderr)
        res = self.json("e.json")
        self.assertEqual(res["schema"], "wirerate-sweep-repeat/1")
        gen_limited = False
        for sz in res["sizes"]:
            self.assertEqual(sz["repeats"], 3)
            ret = sz["returned"]
            self.assertEqual(ret["rx_pkts"], sz["tx_pkts"])   # a loopback loses nothing
            self.assertEqual(ret["lost"], 0)
            for k in ("kpps", "mbps_l1", "mbps_l2", "goodput_mbps"):
                self.assertLessEqual(sz[k]["min"], sz[k]["median"])
                self.assertLessEqual(sz[k]["median"], sz[k]["max"])
            # goodput: the bytes above the UDP header (42 bytes of headers)
            self.assertEqual(sz["payload_offset"], 42)
            self.assertAlmostEqual(sz["goodput_mbps"]["median"],
                                   sz["kpps"]["median"] * (sz["frame_size"] - 46) * 8 / 1000,
                                   delta=0.01 + sz["goodput_mbps"]["median"] * 1e-6)
            self.assertAlmostEqual(ret["kpps"]["median"], sz["kpps"]["median"], delta=0.01)
            gen_limited |= sz["limited_by"] == "generator"
        # Everything came back: where the generator did not fill the line,
        # the result is the generator's, and the exit status says so.
        self.assertEqual(p.returncode, 3 if gen_limited else 0)
        # Jumbo frames: wirerate raises the port's MTU (1500 by default) and its RX
        # buffers for the largest size, and every byte comes back.
        p = self.wirerate("sweep", sf, "--config", prof, "--rx-port", "0", "--sizes",
                          "1518,9018", "--duration", "0.2", "--json", self.path("j.json"))
        self.assertIn(p.returncode, (0, 3), p.stderr)
        for sz in self.json("j.json")["sizes"]:
            ret = sz["returned"]
            self.assertEqual(ret["rx_pkts"], sz["tx_pkts"])
            self.assertEqual(ret["rx_bytes"], sz["tx_pkts"] * (sz["frame_size"] - 4))

    def test_exit_status_rule(self):
        """One rule of exit status 3 for sweep, in the code, README and doc/rates.md (issue 31:
        README said 3 for any sweep whose rows the generator limited, doc/rates.md only with
        --rx-port, the code did the latter): without --rx-port no device is measured and a
        sweep whose every row is the generator's or its port's exits 0; with --rx-port, a
        size that came back whole below the line is the generator's figure: 3."""
        sf = os.path.join(STREAMS, "udp-64.yaml")
        p = self.wirerate("sweep", sf, "--config", self.profile("net_null0", "wrsrule"),
                          "--sizes", "64,1518", "--duration", "0.2", "--json",
                          self.path("n.json"), check=0)
        for row in self.json("n.json")["rows"]:
            self.assertIn(row["limited_by"], ("generator", "port"), p.stdout)
        p = self.wirerate("sweep", sf, "--config", self.profile("net_ring0", "wrsrulee"),
                          "--rx-port", "0", "--sizes", "64", "--duration", "0.2", "--json",
                          self.path("e.json"))
        sz = self.json("e.json")["sizes"][0]
        self.assertEqual(sz["returned"]["lost"], 0, p.stdout)
        self.assertEqual(p.returncode, 3 if sz["limited_by"] == "generator" else 0,
                         p.stdout + p.stderr)
        # Both documents state that rule.
        with open(os.path.join(ROOT, "README.md")) as f:
            readme = re.sub(r"\s+", " ", f.read())
        status = readme[readme.index("Exit status: 0 success"):]
        status = status[:status.index("Bad input is one line")]
        self.assertIn("3 (`rfc2544`, and `sweep` with `--rx-port`", status)
        self.assertIn("a `sweep` without `--rx-port` measures no device", status)
        with open(os.path.join(ROOT, "doc", "rates.md")) as f:
            rates = re.sub(r"\s+", " ", f.read())
        self.assertIn("exit status 3 for `sweep` (README's too): only with `--rx-port`", rates)

    def test_too_large_refused(self):
        """A size a port cannot hold is refused with one line before anything is sent: here a
        memif port with memif's default 2048-byte buffers (bsize), which corrupt longer
        frames.  The check comes before the port starts: no peer, no socket, no wait."""
        sf = os.path.join(STREAMS, "udp-64.yaml")
        sock = self.path("m.sock")
        prof = self.write("m.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix=wrsbig{os.getpid()}",
      "--vdev=net_memif0,role=server,socket={sock}", "--lcores=0@0,1@1"]
ports:
  - device: net_memif0
    tx_lcores: [1]
link_wait_ms: 300
""")
        for cmd in (["sweep", "--rx-port", "0", "--duration", "0.2"],
                    ["rfc2544", "--tx-port", "0", "--rx-port", "0", "--trial", "0.2"]):
            p = self.wirerate(cmd[0], sf, "--config", prof, *cmd[1:], "--sizes", "64,9018",
                              timeout=20, check=2)
            mine = [ln for ln in p.stderr.splitlines() if ln.startswith("wirerate:")]
            self.assertEqual(mine, ["wirerate: port net_memif0: a 9018-byte frame (9014 bytes "
                                    "without FCS) does not fit the port's 2048-byte buffers "
                                    "(memif's buffers: the memif client's bsize=, 2048 here; "
                                    "memif splits a longer frame over several and its echoes "
                                    "come back corrupted): give the client bsize=9014 or more, "
                                    "and this port the same bsize=; not sent"], p.stderr)
            self.assertNotIn("64 bytes", p.stdout)
            self.assertFalse(os.path.exists(sock))
        # run: from its streams' largest frame (a size mix), the same line.
        jf = self.write("j.yaml", """version: 1
streams:
  - {name: j, size: {mix: [{size: 64, weight: 1}, {size: 9018, weight: 1}]}, count: 10}
""")
        p = self.wirerate("run", jf, "--config", prof, timeout=20, check=2)
        self.assertIn("wirerate: port net_memif0: a 9018-byte frame (9014 bytes without FCS) "
                      "does not fit the port's 2048-byte buffers", p.stderr)
        self.assertFalse(os.path.exists(sock))
        # As the memif client, wirerate's own bsize= sizes the buffers of both sides.
        cprof = self.write("c.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix=wrsbigc{os.getpid()}",
      "--vdev=net_memif0,role=client,socket={sock},bsize=4096", "--lcores=0@0,1@1"]
ports:
  - device: net_memif0
    tx_lcores: [1]
link_wait_ms: 300
""")
        p = self.wirerate("sweep", sf, "--config", cprof, "--rx-port", "0", "--sizes", "4100,9018",
                          "--duration", "0.2", timeout=20, check=2)
        self.assertIn("wirerate: port net_memif0: a 9018-byte frame (9014 bytes without FCS) does "
                      "not fit the port's 4096-byte buffers (memif's buffers: the memif client's "
                      "bsize=, 4096 here; memif splits a longer frame over several and its echoes "
                      "come back corrupted): give this port (the client) bsize=9014 or more; "
                      "not sent", p.stderr)
        # 2048 bytes fit them (2044 without FCS): the port opens and waits for its peer.
        p = self.wirerate("sweep", sf, "--config", prof, "--rx-port", "0", "--sizes", "2048",
                          "--duration", "0.2", timeout=20)
        self.assertIn("link still down", p.stderr)

    def test_bad_sizes(self):
        sf = os.path.join(STREAMS, "udp-64.yaml")
        p = self.wirerate("sweep", sf, "--sizes", "64,63", check=2)
        self.assertIn("--sizes", p.stderr)


class Rfc2544Loopback(EalCase):
    """A lossless loopback (one net_ring port): the throughput is the ceiling."""

    def test_loopback_is_lossless(self):
        sf = os.path.join(STREAMS, "udp-64.yaml")
        prof = self.profile("net_ring0", "wrsring")
        p = self.wirerate("rfc2544", sf, "--config", prof, "--tx-port", "0", "--rx-port", "0",
                          "--sizes", "64,128,1518", "--trial", "0.3", "--drain", "0.1",
                          "--max-rate", "100 kpps", "--json", self.path("r.json"),
                          "--csv", self.path("r.csv"))
        res = self.json("r.json")
        self.assertEqual(res["schema"], "wirerate-rfc2544/1")
        with open(self.path("r.csv")) as f:
            rows = list(csv.DictReader(f))
        limited = 0
        for r, c in zip(res["results"], rows):
            counted = [t for t in r["trials"] if t["counted"]]
            self.assertEqual(len(counted), 1)
            for t in r["trials"]:
                self.assertEqual(t["lost"], 0)
                self.assertEqual(t["received"], t["sent"])
                self.assertEqual(t["rx_frames"], t["sent"])
            if r["limited_by"] == "generator":
                # A busy CPU kept the TX lcore from offering 100 kpps even
                # after the redos: no throughput, the rate it offered.
                limited += 1
                self.assertIsNone(r["throughput_pps"])
                self.assertEqual(r["at_least_pps"], counted[0]["offered_pps"])
                self.assertEqual(c["throughput_pps"], "")
                continue
            # Never above what the trial offered (within 0.1 % of 100 kpps).
            self.assertEqual(r["throughput_pps"], min(100_000, counted[0]["offered_pps"]))
            self.assertEqual(float(c["throughput_pps"]), r["throughput_pps"])
        self.assertEqual([r["frame_size"] for r in rows], ["64", "128", "1518"])
        self.assertEqual(p.returncode, 3 if limited else 0, p.stdout)

    def test_several_pairs(self):
        """--pairs: each pair in turn on one engine, each result saying its ports."""
        sf = os.path.join(STREAMS, "udp-64.yaml")
        prof = self.write("two.yaml", """version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix=wrspairs", "--vdev=net_ring0",
      "--vdev=net_ring1", "--lcores=0@0,1@1"]
ports:
  - device: net_ring0
    tx_lcores: [1]
    rx_lcore: 1
  - device: net_ring1
    tx_lcores: [1]
    rx_lcore: 1
""")
        p = self.wirerate("rfc2544", sf, "--config", prof, "--pairs", "0:0,1:1", "--sizes",
                          "128,256", "--trial", "0.2", "--drain", "0.05", "--max-rate",
                          "50 kpps", "--json", self.path("p.json"))
        self.assertIn(p.returncode, (0, 3), p.stdout + p.stderr)
        res = self.json("p.json")
        self.assertEqual([(r["tx_port"], r["rx_port"], r["frame_size"]) for r in res["results"]],
                         [(0, 0, 128), (0, 0, 256), (1, 1, 128), (1, 1, 256)])
        for r in res["results"]:
            for t in r["trials"]:
                self.assertEqual(t["lost"], 0)
                # counted on the pair's own RX port
                self.assertEqual(t["rx_frames"], t["sent"])
            if r["limited_by"] == "device":
                counted = [t for t in r["trials"] if t["counted"]]
                self.assertEqual(r["throughput_pps"], min(50_000, counted[-1]["offered_pps"]))
        self.assertIn("port 1 -> port 1", p.stdout)
        p = self.wirerate("rfc2544", sf, "--config", prof, "--pairs", "0:1,0:1", check=2)
        self.assertIn("--pairs", p.stderr)
        p = self.wirerate("rfc2544", sf, "--config", prof, "--pairs", "0:5", check=2)
        self.assertIn('--pairs: expected a port index 0..1 (there are 2 ports), got "5"', p.stderr)

    def test_progress_tty_and_pipe(self):
        """A terminal gets one status line redrawn in place; a pipe one line per trial."""
        if shutil.which("script") is None:
            self.skipTest("needs script (util-linux) for a terminal")
        sf = os.path.join(STREAMS, "udp-64.yaml")
        prof = self.profile("net_ring0", "wrsprog")
        args = ["rfc2544", sf, "--config", prof, "--tx-port", "0", "--rx-port", "0", "--sizes",
                "128", "--trial", "0.1", "--drain", "0.05", "--max-rate", "100 kpps",
                "--tests", "throughput,loss", "--loss-step", "25%"]
        piped = self.wirerate(*args)
        self.assertIn(piped.returncode, (0, 3))
        self.assertRegex(piped.stdout, r"(?m)^  128 bytes: trial \d+ \(phase 1, 0.100 s\) at "
                         r"100000.000 pps")
        self.assertRegex(piped.stdout, r"(?m)^  128 bytes: frame loss at 100.0 %")
        self.assertNotIn("\033[K", piped.stdout)
        cmd = " ".join(shlex.quote(a) for a in [os.environ.get("WIRERATE", WIRERATE), *args])
        # bytes: text mode would turn the carriage returns into newlines
        tty = subprocess.run(["script", "-qec", cmd, "/dev/null"], capture_output=True,
                             timeout=60, cwd=self.tmp)
        out = tty.stdout.decode()
        self.assertIn(tty.returncode, (0, 3), out)
        self.assertIn("\r\033[Kthroughput 128 B: trial 1 of ~", out)
        self.assertRegex(out, r"\r\033\[Kloss 128 B: trial \d+ of ~\d+, ETA \d+m\d\ds")
        self.assertNotIn("128 bytes: frame loss at", out)

    def test_plan_progress_and_ctrl_c(self):
        """Issue 31: rfc2544 was silent for a whole trial (45 s after the header in the
        README's example). It prints its plan first (tests, sizes, trials, about how long),
        a line every 5 s inside a trial, and on Ctrl-C writes the CSV, JSON and HTML report
        of what was measured, the size it stopped in marked incomplete (no throughput, the
        highest rate passed so far as "at least"), the rest listed as not measured.  Two
        phases of 5.5 s trials: the first size's second trial (a re-measurement, or a redo
        on a busy CPU) always comes, and its tick is the moment to stop."""
        sf = os.path.join(STREAMS, "udp-64.yaml")
        prof = self.profile("net_ring0", "wrsctrlc")
        sizes = [64, 128, 256]
        gen = subprocess.Popen(
            [WIRERATE, "rfc2544", sf, "--config", prof, "--tx-port", "0", "--rx-port", "0",
             "--sizes", ",".join(map(str, sizes)), "--phases", "2", "--first-trial", "5.5",
             "--trial", "5.5", "--drain", "0.1", "--max-rate", "50 kpps", "--json",
             self.path("c.json"), "--csv", self.path("c.csv"), "--report",
             self.path("c.html")],
            cwd=self.tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        lines = []
        reader = threading.Thread(target=lambda: lines.extend(gen.stdout), daemon=True)
        reader.start()
        tick = re.compile(r"^  (\d+) bytes: throughput trial (\d+) of ~(\d+) at 50000\.000 "
                          r"pps: \d+ s of 6 s$")
        try:
            self.assertTrue(wait_for(lambda: sum(1 for l in lines if tick.match(l)) >= 2, 60),
                            "".join(lines))
            gen.send_signal(signal.SIGINT)
            reader.join(30)
            err = gen.stderr.read()
            gen.wait(30)
        finally:
            if gen.poll() is None:
                gen.kill()
                gen.wait()
            gen.stdout.close()
            gen.stderr.close()
        out = "".join(lines)
        msg = out + err
        # The header, then the plan, before any trial.
        self.assertTrue(lines[0].startswith("wirerate "), msg)
        self.assertRegex(lines[1], r"^plan: throughput; 3 sizes \(64,128,256 bytes\); about "
                         r"\d+ trials of 5\.500 s and a 0\.100 s drain each: about "
                         r"\d+m\d\ds in all", msg)
        n_plan = int(re.search(r"about (\d+) trials", lines[1]).group(1))
        ticks = [tick.match(l).groups() for l in lines if tick.match(l)]
        self.assertEqual(ticks[:2], [("64", "1", str(n_plan)), ("64", "2", str(n_plan))], msg)
        res = self.json("c.json")
        self.assertEqual(res["stop_reason"], "signal", msg)
        self.assertEqual(res["stopped_in_size"], 64, msg)
        self.assertEqual([r["frame_size"] for r in res["results"]], [64], msg)
        self.assertEqual(res["not_measured_sizes"], [128, 256], msg)
        r = res["results"][0]
        self.assertEqual(r["incomplete"], "throughput", msg)
        self.assertIsNone(r["throughput_pps"], msg)
        self.assertEqual(r["limited_by"], "incomplete", msg)
        # The trial that ran whole is there; the one the signal cut is not.
        self.assertEqual(len(r["trials"]), 1, msg)
        t = r["trials"][0]
        self.assertEqual(t["lost"], 0, msg)
        passed = t["counted"] and t["pass"] and not t["short_offer"]
        self.assertEqual(r["at_least_pps"],
                         min(t["rate_pps"], t["offered_pps"]) if passed else None, msg)
        with open(self.path("c.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual([(c["frame_size"], c["throughput_pps"], c["limited_by"]) for c in rows],
                         [("64", "", "incomplete")], msg)
        self.assertRegex(out, r"(?m)^\s+64 (>= [\d.]+ pps: )?incomplete, stopped by a signal "
                         r"after 1 trials", msg)
        self.assertIn("stopped: a signal during the 64-byte trial (signal); not measured: 128, "
                      "256 bytes", out)
        with open(self.path("c.html")) as f:
            page = f.read()
        self.assertIn("<html", page.lower())
        self.assertIn('class="gen">incomplete: ', page)
        # README: a run stopped by Ctrl-C exits 0.
        self.assertEqual(gen.returncode, 0, msg)

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


class _JsonCells(html.parser.HTMLParser):
    """(data-json path, text) of every element that names its JSON figure."""

    def __init__(self):
        super().__init__()
        self.cells, self.stack = [], []

    def handle_starttag(self, tag, attrs):
        self.stack.append([dict(attrs).get("data-json"), ""])

    def handle_endtag(self, tag):
        if self.stack:
            path, text = self.stack.pop()
            if path:
                self.cells.append((path, text))
            elif self.stack:
                self.stack[-1][1] += text

    def handle_data(self, data):
        if self.stack:
            self.stack[-1][1] += data


def chromium_cells(test, chromium, report):
    """The report as headless Chromium renders it, and its (JSON path, text) cells."""
    dom = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                          "--dump-dom", "file://" + report], capture_output=True, text=True,
                         timeout=120)
    test.assertEqual(dom.returncode, 0, dom.stderr[-2000:])
    parser = _JsonCells()
    parser.feed(dom.stdout)
    return dom, parser.cells


def json_at(doc, path):
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        doc = doc[int(part[1:-1])] if part.startswith("[") else doc[part]
    return doc


class Rfc2544Report(EalCase):
    """--tests all --report: the HTML report, read back by headless Chromium, says what the JSON says."""

    def test_report_in_chromium(self):
        chromium = shutil.which("chromium")
        if chromium is None:
            self.skipTest("needs chromium (Debian package; tools/lib/common.sh installs it)")
        prof = self.profile("net_ring0", "wrsreport")
        report = self.path("r.html")
        p = self.wirerate("rfc2544", os.path.join(STREAMS, "udp-64.yaml"), "--config", prof,
                          "--tx-port", "0", "--rx-port", "0", "--tests", "all", "--sizes",
                          "64,256", "--trial", "0.2", "--drain", "0.05", "--max-rate",
                          "20 kpps", "--pdr", "0.5%", "--phases", "2", "--first-trial", "0.1",
                          "--latency-trials", "2", "--latency-trial", "0.2",
                          "--loss-step", "50%", "--b2b-trial", "0.01", "--b2b-repeats", "2",
                          "--report", report, timeout=120)
        # 3: a busy CPU kept the generator from offering a rate (a result
        # says "at least", or a burst "generator-limited"): reported too.
        self.assertIn(p.returncode, (0, 3), p.stdout + p.stderr)
        self.assertIn("report: " + report, p.stdout)
        res = self.json("r.html.json")
        self.assertEqual(res["schema"], "wirerate-rfc2544/1")
        dom, cells = chromium_cells(self, chromium, report)
        # Every section is there, with its plot, and every figure shown is
        # the JSON's own.
        for title in ("Throughput (RFC 2544 26.1) and PDR", "Latency (RFC 2544 26.2)",
                      "Frame loss rate (RFC 2544 26.3)", "Back-to-back (RFC 2544 26.4)",
                      "Trial log", "Raw JSON"):
            self.assertIn(title, dom.stdout)
        self.assertGreaterEqual(dom.stdout.count('<svg class="plot"'), 4)
        self.assertGreater(len(cells), 50)
        for path, text in cells:
            self.assertEqual(float(text), float(json_at(res, path)), path)
        paths = {c[0] for c in cells}
        for must in ("results[0].throughput_pps|results[0].at_least_pps",
                     "results[1].pdr.pps|results[1].pdr.at_least_pps",
                     "results[1].latency.overall.p99_99_ns", "results[0].frame_loss.steps[0].loss_pct",
                     "results[1].back_to_back.avg|results[1].back_to_back.generator_burst",
                     "results[0].trials[0].offered_pps"):
            self.assertTrue(paths & set(must.split("|")), must)
        # 64-byte frames carry the compact timestamp signature: timed like
        # 256-byte ones, every frame that came back.
        self.assertNotIn("no trial", dom.stdout)
        for r in res["results"]:
            self.assertIsNone(r["latency"]["skipped"])
            self.assertEqual(len(r["latency"]["trials"]), 2)
            for tr in r["latency"]["trials"]:
                self.assertEqual(tr["frames"], tr["sent"] - tr["lost"])
        self.assertIn(res["stream_file_sha256"], dom.stdout)
        self.assertIn(res["dpdk_version"], dom.stdout)
        raw = re.search(r'<script type="application/json" id="raw">(.*?)</script>', dom.stdout,
                        re.S)
        self.assertEqual(json.loads(raw.group(1).replace("<\\/", "</")), res)


class SweepReport(EalCase):
    """sweep --report: the HTML report, read back by headless Chromium, says what the JSON says."""

    def test_sweep_report_in_chromium(self):
        chromium = shutil.which("chromium")
        if chromium is None:
            self.skipTest("needs chromium (Debian package; tools/lib/common.sh installs it)")
        sf = os.path.join(STREAMS, "udp-64.yaml")
        # A sweep on net_null; echoes through net_ring's loopback.
        for name, vdev, extra, schema, musts in (
                ("plain", "net_null0", (), "wirerate-sweep/1",
                 ("rows[0].kpps", "rows[1].mbps_l1", "rows[1].tx_full")),
                ("echo", "net_ring0", ("--rx-port", "0", "--repeat", "2"),
                 "wirerate-sweep-repeat/1",
                 ("sizes[0].kpps.median", "sizes[1].goodput_mbps.max",
                  "sizes[1].returned.rx_pkts", "sizes[0].returned.loss_pct.max"))):
            prof = self.profile(vdev, f"wrssrep{name}")
            report = self.path(f"{name}.html")
            p = self.wirerate("sweep", sf, "--config", prof, "--sizes", "64,512",
                              "--duration", "0.1", "--report", report, *extra, timeout=120)
            self.assertIn(p.returncode, (0, 3), p.stderr)
            self.assertIn("report: " + report, p.stdout)
            res = self.json(f"{name}.html.json")
            self.assertEqual(res["schema"], schema)
            dom, cells = chromium_cells(self, chromium, report)
            self.assertIn('<svg class="plot"', dom.stdout)
            self.assertGreater(len(cells), 10)
            for path, text in cells:
                self.assertEqual(float(text), float(json_at(res, path)), path)
            paths = {c[0] for c in cells}
            for must in musts:
                self.assertIn(must, paths)
            self.assertIn(res["stream_file_sha256"], dom.stdout)
            raw = re.search(r'<script type="application/json" id="raw">(.*?)</script>',
                            dom.stdout, re.S)
            self.assertEqual(json.loads(raw.group(1).replace("<\\/", "</")), res)


def ns_exec(ns, *cmd, check=True):
    return subprocess.run(["ip", "netns", "exec", ns, *cmd], capture_output=True, text=True,
                          check=check)


class AfPacketLimit(EalCase):
    """af_packet into a veth pair in a namespace: the port, not the CPU, holds the rate.

    The af_packet PMD sends from the TX lcore through the kernel (about 0.3 Mpps here):
    its frames are never refused (tx_full stays 0) but the lcore's time goes into system
    calls, which the kernel counts (getrusage).  Issue 17: rfc2544 blamed "the TX lcore's
    CPU was busy" and ran every trial again; back-to-back counted bursts offered far below
    the rate as passes."""

    NS = f"wrs-afp{os.getpid()}"

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0 or shutil.which("ip") is None:
            self.skipTest("needs root and ip")
        self.addCleanup(subprocess.run, ["ip", "netns", "del", self.NS], capture_output=True)
        subprocess.run(["ip", "netns", "del", self.NS], capture_output=True)
        for c in (["ip", "netns", "add", self.NS],
                  ["ip", "netns", "exec", self.NS, "sysctl", "-qw",
                   "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1"],
                  ["ip", "-n", self.NS, "link", "add", "wra0", "type", "veth", "peer", "name",
                   "wra1"],
                  ["ip", "-n", self.NS, "link", "set", "wra0", "up"],
                  ["ip", "-n", self.NS, "link", "set", "wra1", "up"]):
            p = subprocess.run(c, capture_output=True, text=True)
            if p.returncode != 0:
                self.skipTest(f"cannot build the veth pair ({' '.join(c)}): {p.stderr.strip()}")
        self.prefix = f"wrsafp{os.getpid()}"
        self.addCleanup(shutil.rmtree, f"/var/run/dpdk/{self.prefix}", True)
        self.prof = self.write("afp.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={self.prefix}",
      "--vdev=net_af_packet0,iface=wra0", "--vdev=net_af_packet1,iface=wra1",
      "--lcores=0@0,1@1"]
ports:
  - device: net_af_packet0
    tx_lcores: [1]
    rx_lcore: 1
  - device: net_af_packet1
    rx_lcore: 1
""")

    def run_ns(self, *args, check=None):
        p = subprocess.run(["ip", "netns", "exec", self.NS, WIRERATE, *args], cwd=self.tmp,
                           capture_output=True, text=True, timeout=120)
        if check is not None and p.returncode != check:
            self.fail(f"wirerate {' '.join(args)} exited {p.returncode}, expected {check}\n"
                      f"{p.stdout}\n{p.stderr}")
        return p

    def kernel_rx(self):
        return int(ns_exec(self.NS, "cat", "/sys/class/net/wra1/statistics/rx_packets").stdout)

    def test_sweep_port_limited(self):
        """sweep: af_packet's rate is the port's (the kernel counts the lcore's time in
        system calls), and its 10 Gbps is no line to be a share of."""
        before = self.kernel_rx()
        p = self.run_ns("sweep", os.path.join(STREAMS, "udp-64.yaml"), "--config", self.prof,
                        "--sizes", "64,512", "--duration", "0.3", "--json", self.path("s.json"),
                        check=0)
        res = self.json("s.json")
        self.assertTrue(res["link_speed_placeholder"], p.stdout)
        sent = 0
        for r in res["rows"]:
            self.assertEqual(r["limited_by"], "port", p.stdout)
            self.assertIn("in the kernel", r["limit_detail"])
            self.assertIsNone(r["line_pct"])
            self.assertGreater(r["tx_lcore"]["sys_s"], r["tx_lcore"]["user_s"])
            sent += r["tx_pkts"]
        self.assertRegex(p.stdout, r"(?m)^\s+64: limited by port: the TX port took")
        # The kernel received what wirerate counts as sent.
        self.assertGreaterEqual(self.kernel_rx() - before, sent * 0.99)

    def test_rfc2544_names_the_port(self):
        """rfc2544 at 2 Mpps asked: the port held the generator, and every trial says so."""
        p = self.run_ns("rfc2544", os.path.join(STREAMS, "udp-64.yaml"), "--config",
                        self.prof, "--tx-port", "0", "--rx-port", "1", "--sizes", "64",
                        "--trial", "0.2", "--drain", "0.05", "--max-rate", "2 Mpps",
                        "--json", self.path("r.json"))
        msg = p.stdout + p.stderr
        self.assertEqual(p.returncode, 3, msg)
        self.assertNotIn("CPU was busy", msg)
        r = self.json("r.json")["results"][0]
        self.assertEqual(r["limited_by"], "generator", msg)
        self.assertEqual(r["generator_limit"], "port", msg)
        self.assertIn("in the kernel", r["generator_limit_detail"])
        for t in r["trials"]:
            self.assertEqual(t["short_by"], "port", msg)
        self.assertRegex(p.stdout, r"(?m)^\s+64 >= [\d.]+ pps: the device lost nothing; the "
                         r"generator could not offer more \(the TX port took")

    def test_b2b_short_bursts_are_no_result(self):
        """Back-to-back bursts asked at 2 Mpps leave at af_packet's pace: forwarded whole,
        they are no pass and no value (issue 17: counted as passes)."""
        p = self.run_ns("rfc2544", os.path.join(STREAMS, "udp-64.yaml"), "--config",
                        self.prof, "--tx-port", "0", "--rx-port", "1", "--sizes", "64",
                        "--tests", "b2b", "--b2b-trial", "0.005", "--b2b-repeats", "3",
                        "--drain", "0.05", "--max-rate", "2 Mpps", "--json", self.path("b.json"))
        msg = p.stdout + p.stderr
        self.assertEqual(p.returncode, 3, msg)
        b = self.json("b.json")["results"][0]["back_to_back"]
        self.assertTrue(b["generator_limited"], msg)
        self.assertEqual(b["asked_rate_pps"], 2e6)
        self.assertLess(b["generator_offered_pps"], 2e6 * 0.999)
        self.assertEqual(b["repeats"], 0, msg)
        self.assertEqual(b["values"], [])
        self.assertIsNone(b["max"])
        self.assertEqual(b["generator_limit"], "port", msg)
        self.assertIn("not offered at the rate: no result", p.stdout)
        self.assertIn("generator-limited: a burst of 10000 frames not offered at "
                      "2000000.000 pps was forwarded whole", p.stdout)


class Rfc2544KernelRouter(EalCase):
    """RFC 2544 against the Linux kernel forwarding between two veth pairs.

    Namespace wrs-rtr routes 198.18.0.0/24 <-> 198.19.0.0/24 with ip_forward,
    static neighbours and a token bucket (tbf, 20 Mbit/s) on its egress, so
    the device under test has a known throughput: 20e6 / 8 / (size - 4) pps
    (tbf counts the frame without FCS).  wirerate runs in wrs-gen on
    net_af_packet at both generator-side veths.
    """

    # Unique per process, so a crashed earlier run cannot collide.
    GEN, RTR = f"wrs-gen{os.getpid()}", f"wrs-rtr{os.getpid()}"
    RATE_BPS = 20_000_000
    RESOLUTION = 1000  # pps
    # 64-byte frames are covered on the loopback: through this router,
    # net_af_packet could not even offer 64-byte frames faster than the
    # router's tbf forwarded them (the TX side was held back), so the
    # search could not find the limit.  512 bytes only in the slow tier:
    # the default suite finds the NDR at 512 through the same tbf in
    # test_ndr_pdr_one_search and test_both_directions_b2b_latency.
    SIZES = (128, 512) if SLOW else (128,)
    # test_throughput_repeatable's searches: the second (repeatability) in
    # the slow tier; one search at 128 bytes in the default suite.
    SEARCHES = 2 if SLOW else 1
    # One stream each way through the router (both directions at once).
    BIDIR_STREAMS = """version: 1
streams:
  - name: ab
    eth: {src: 02:00:00:00:00:01, dst: 02:00:00:00:00:02}
    ipv4: {src: 198.18.0.1, dst: 198.19.0.1}
  - name: ba
    port: 1
    eth: {src: 02:00:00:00:00:04, dst: 02:00:00:00:00:03}
    ipv4: {src: 198.19.0.1, dst: 198.18.0.1}
"""

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

    def afp_profile(self, run):
        # A large socket ring (framecnt) keeps the receiving side from
        # dropping while the TX lcore's CPU is shared.
        return self.write(f"afp{run}.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix=wrsrtr{run}",
      "--vdev=net_af_packet0,iface=wrsg0,framecnt=16384",
      "--vdev=net_af_packet1,iface=wrsg1,framecnt=16384", "--lcores=0@0,1@1"]
ports:
  - device: net_af_packet0
    tx_lcores: [1]
  - device: net_af_packet1
    tx_lcores: [1]
""")

    def search(self, run):
        prof = self.afp_profile(run)
        before = self.forwarded()
        out = self.path(f"r{run}.json")
        p = ns_exec(self.GEN, os.environ.get("WIRERATE", ""), "rfc2544",
                    os.path.join(STREAMS, "udp-64.yaml"), "--config", prof, "--tx-port", "0",
                    "--rx-port", "1", "--sizes", ",".join(map(str, self.SIZES)),
                    "--trial", "0.5", "--drain", "0.1", "--max-rate", "64 kpps",
                    "--resolution", f"{self.RESOLUTION} pps", "--json", out, check=False)
        # 3: a busy CPU kept the generator from offering a rate the device would have
        # passed; the counts below hold all the same (issue 31).
        self.assertIn(p.returncode, (0, 3), p.stdout + p.stderr)
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
        for r in res["results"]:
            if r["limited_by"] != "device":
                # Said so, and no figure above what was offered.
                self.assertEqual(p.returncode, 3, p.stdout)
                self.assertIn("the generator could not offer more", p.stdout)
        return {r["frame_size"]: r["throughput_pps"] if r["limited_by"] == "device" else None
                for r in res["results"]}, p.stdout

    def test_throughput_repeatable(self):
        wirerate = os.environ.get("WIRERATE")
        if not wirerate:
            self.skipTest("WIRERATE not set")
        runs = [self.search(k + 1) for k in range(self.SEARCHES)]
        found = [r[0] for r in runs]
        outs = "\n".join(r[1] for r in runs)
        for size in self.SIZES:
            expected = self.RATE_BPS / 8 / (size - 4)
            # The search ends within one resolution below the highest
            # passing rate; tbf's 16 kB bucket and 5 ms queue let a rate a
            # few percent above its own pass.  Trials the shared CPU kept
            # from offering their rate are run again (up to 3 times) but
            # may stay, so allow 15 % above.
            if any(f[size] is None for f in found):
                print(f"\n    {size} B: generator-limited on a busy CPU in a run: {found}")
                continue
            for got in (f[size] for f in found):
                self.assertGreaterEqual(got, expected - 2 * self.RESOLUTION,
                                        f"{size}: {found}\n{outs}")
                self.assertLessEqual(got, expected * 1.15, f"{size}: {found}\n{outs}")
            if len(found) > 1:
                # Repeatable: two runs within 2 resolutions + 10 % of the throughput.
                self.assertLessEqual(abs(found[0][size] - found[1][size]),
                                     2 * self.RESOLUTION + 0.1 * expected,
                                     f"{size}: {found}")
        print(f"\n    kernel router (tbf 20 Mbit/s): " +
              ", ".join(f"run {k + 1} {f}" for k, f in enumerate(found)) + " pps")

    def test_ndr_pdr_one_search(self):
        """NDR and PDR (5 %) in one phased search through the tbf router.

        tbf forwards its rate and drops the excess, so at an offered rate r
        above the limit L the loss is about (r - L) / r: the PDR at 5 % is
        near L / 0.95, the NDR near L.  Every trial's loss is the kernel's
        own count of what it did not forward.
        """
        wirerate = os.environ.get("WIRERATE")
        if not wirerate:
            self.skipTest("WIRERATE not set")
        prof = self.afp_profile("pdr")
        before = self.forwarded()
        out = self.path("pdr.json")
        p = ns_exec(self.GEN, wirerate, "rfc2544", os.path.join(STREAMS, "udp-64.yaml"),
                    "--config", prof, "--tx-port", "0", "--rx-port", "1", "--sizes", "512",
                    "--trial", "0.5", "--first-trial", "0.2", "--phases", "2", "--drain", "0.1",
                    "--max-rate", "16 kpps", "--resolution", "250 pps", "--pdr", "5%",
                    "--json", out, check=False)
        self.assertIn(p.returncode, (0, 3), p.stdout + p.stderr)
        forwarded = self.forwarded() - before
        with open(out) as f:
            res = json.load(f)
        self.assertEqual(res["phases"], 2)
        if p.returncode == 3:
            # A busy CPU: every trial still counted exactly, no figure claimed where the
            # generator was the limit: the NDR's, the PDR's or both (a PDR trial short of
            # its rate beside an NDR the device set exits 3 too).
            r = res["results"][0]
            self.assertIn("generator", (r["limited_by"], r["pdr"]["limited_by"]), p.stdout)
            for t in r["trials"]:
                self.assertEqual(t["lost"], t["sent"] - t["received"])
                self.assertEqual(t["rx_nic_pkts"], t["received"], t)
            self.assertEqual(sum(t["received"] for t in r["trials"]), forwarded)
            self.assertIn("the generator could not offer more", p.stdout)
            print("\n    NDR/PDR not measured: the generator was the limit on a busy CPU")
            return
        self.assertEqual(res["pdr_loss_tolerance_pct"], 5.0)
        r = res["results"][0]
        limit = self.RATE_BPS / 8 / (512 - 4)
        ndr, pdr = r["throughput_pps"], r["pdr"]["pps"]
        msg = f"NDR {ndr} PDR {pdr}\n{p.stdout}"
        self.assertEqual(r["limited_by"], "device")
        self.assertGreaterEqual(ndr, limit - 2 * 250, msg)
        self.assertLessEqual(ndr, limit * 1.15, msg)
        self.assertGreater(pdr, ndr, msg)
        self.assertGreaterEqual(pdr, limit / 0.95 - 2 * 250 - 0.02 * limit, msg)
        self.assertLessEqual(pdr, limit / 0.95 * 1.15, msg)
        trials = r["trials"]
        for t in trials:
            self.assertEqual(t["lost"], t["sent"] - t["received"])
            self.assertEqual(t["rx_nic_pkts"], t["received"], t)
            if t["counted"]:
                self.assertEqual(t["pass"], t["lost"] == 0)
                self.assertEqual(t["pdr_pass"], t["lost"] * 100 <= 5 * t["sent"])
        self.assertEqual(sum(t["received"] for t in trials), forwarded)
        # Short trials first, then full-length ones; the answers come
        # from full-length trials that passed.
        phases = [t["phase"] for t in trials]
        self.assertEqual(phases, sorted(phases))
        self.assertEqual({t["trial_s"] for t in trials if t["phase"] == 0}, {0.2})
        self.assertEqual({t["trial_s"] for t in trials if t["phase"] == 1}, {0.5})
        # Each the rate of a passing full-length trial, never above what it offered.
        self.assertIn(ndr, [min(t["rate_pps"], t["offered_pps"]) for t in trials
                            if t["phase"] == 1 and t["pass"]])
        self.assertIn(pdr, [min(t["rate_pps"], t["offered_pps"]) for t in trials
                            if t["phase"] == 1 and t["pdr_pass"]])
        print(f"\n    tbf 20 Mbit/s, 512 B (limit {limit:.0f} pps): NDR {ndr:.0f}, PDR(5 %) "
              f"{pdr:.0f} pps in {len(trials)} trials")

    def tbf_drops(self):
        p = ns_exec(self.RTR, "tc", "-s", "qdisc", "show", "dev", "wrsr1")
        m = re.search(r"dropped (\d+)", p.stdout)
        self.assertIsNotNone(m, p.stdout)
        return int(m.group(1))

    def rfc(self, run, *args):
        prof = self.afp_profile(run)
        out = self.path(f"{run}.json")
        p = ns_exec(self.GEN, os.environ["WIRERATE"], "rfc2544",
                    os.path.join(STREAMS, "udp-64.yaml"), "--config", prof, "--tx-port", "0",
                    "--rx-port", "1", "--drain", "0.1", "--json", out, *args, check=False)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        with open(out) as f:
            return json.load(f), p.stdout

    @unittest.skipUnless(SLOW, "slow tier (WR_SLOW=1): test_both_directions_loss and "
                         "test_server_jobs match each direction's loss to its tbf's drops")
    def test_frame_loss_matches_tc(self):
        """Frame loss rate (RFC 2544 26.3): every frame lost is one tbf dropped."""
        if not os.environ.get("WIRERATE"):
            self.skipTest("WIRERATE not set")
        drops, before = self.tbf_drops(), self.forwarded()
        res, out = self.rfc("floss", "--tests", "loss", "--sizes", "512", "--trial", "0.3",
                            "--max-rate", "16 kpps", "--loss-step", "10%")
        drops, forwarded = self.tbf_drops() - drops, self.forwarded() - before
        fl = res["results"][0]["frame_loss"]
        self.assertIsNone(res["results"][0]["throughput_pps"])
        steps = fl["steps"]
        self.assertEqual([s["rate_pct"] for s in steps],
                         [100 - 10 * i for i in range(len(steps))])
        self.assertEqual([s["rate_pps"] for s in steps],
                         [16000 * (100 - 10 * i) / 100 for i in range(len(steps))])
        for s in steps:
            self.assertEqual(s["lost"], s["sent"] - s["received"])
            self.assertAlmostEqual(s["loss_pct"], s["lost"] * 100 / s["sent"], places=5)
        # 16 kpps is three times tbf's 4921 pps at 512 bytes: the first
        # steps lose, and the test stops after two lossless ones.  How much
        # the first loses depends on how evenly a busy CPU let the trial's
        # frames out (29 % with eight builds beside it, 67 % quiet): only
        # that it loses is asserted; every loss is matched to tbf's below.
        self.assertGreater(steps[0]["lost"], 0, out)
        self.assertTrue(fl["stopped_clean"], out)
        self.assertEqual([s["lost"] for s in steps[-2:]], [0, 0], out)
        # The kernel's own counts: what tbf dropped is what we lost.
        self.assertEqual(sum(s["lost"] for s in steps), drops, out)
        self.assertEqual(sum(s["received"] for s in steps), forwarded)
        print(f"\n    frame loss (tbf 20 Mbit/s, 512 B): " +
              ", ".join(f"{s['rate_pct']:.0f} %: {s['loss_pct']:.2f} %" for s in steps) +
              f"; tc dropped {drops}")

    def b2b(self, run, limit):
        ns_exec(self.RTR, "tc", "qdisc", "replace", "dev", "wrsr1", "root", "tbf", "rate",
                "20mbit", "burst", "16kb", "limit", limit)
        res, out = self.rfc(run, "--tests", "b2b", "--sizes", "512", "--b2b-trial", "0.005",
                            "--b2b-repeats", "3")
        return res["results"][0]["back_to_back"], out

    def assert_b2b_grows(self, small, out_s, large, out_l):
        """Back-to-back (RFC 2544 26.4): longer with a longer tbf queue, repeatable: b2b()'s
        results with a 16 kB (small) and a 64 kB (large) queue.  test_server_jobs runs both
        (it compares the 16 kB one with the server's job)."""
        for bb, out in ((small, out_s), (large, out_l)):
            self.assertEqual(bb["repeats"], 3)
            self.assertEqual(len(bb["values"]), 3)
            self.assertEqual(bb["at_first_burst"], 0, out)
            self.assertEqual(bb["min"], min(bb["values"]))
            self.assertEqual(bb["max"], max(bb["values"]))
            self.assertAlmostEqual(bb["avg"], sum(bb["values"]) / 3, places=3)
            self.assertGreater(bb["min"], 0, out)
            # Repeatable: the repeats within 10 % of each other.
            self.assertLessEqual(bb["max"] - bb["min"], 0.1 * bb["max"] + 2, out)
        # A queue 48 kB longer holds about 94 more 512-byte frames.
        self.assertGreater(large["min"], small["max"] + 40, f"{small} {large}")
        print(f"\n    back-to-back 512 B through tbf: limit 16kb {small['values']}, "
              f"64kb {large['values']} frames")

    def test_both_directions_loss(self):
        """Both directions at once (frame loss rate): each direction's loss is its tbf's drops.

        tbf 20 Mbit/s on the router's egress towards port 1 (A->B) and
        10 Mbit/s towards port 0 (B->A): at the same offered rate the
        reverse direction loses more, and each direction's loss equals what
        its own qdisc dropped.
        """
        if not os.environ.get("WIRERATE"):
            self.skipTest("WIRERATE not set")
        ns_exec(self.RTR, "tc", "qdisc", "add", "dev", "wrsr0", "root", "tbf", "rate",
                "10mbit", "burst", "16kb", "latency", "5ms")
        sf = self.write("bidir.yaml", self.BIDIR_STREAMS)

        def drops(dev):
            p = ns_exec(self.RTR, "tc", "-s", "qdisc", "show", "dev", dev)
            return int(re.search(r"dropped (\d+)", p.stdout).group(1))
        d1, d0 = drops("wrsr1"), drops("wrsr0")
        prof = self.afp_profile("bidir")
        out = self.path("bidir.json")
        p = ns_exec(self.GEN, os.environ["WIRERATE"], "rfc2544", sf, "--stream", "ab",
                    "--reverse-stream", "ba", "--config", prof, "--tx-port", "0",
                    "--rx-port", "1", "--drain", "0.1", "--tests", "loss", "--sizes", "512",
                    "--trial", "0.3", "--max-rate", "10 kpps", "--loss-step", "20%",
                    "--json", out, check=False)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        d1, d0 = drops("wrsr1") - d1, drops("wrsr0") - d0
        with open(out) as f:
            steps = json.load(f)["results"][0]["frame_loss"]["steps"]
        # The steps down from 100 % by --loss-step (test_frame_loss_matches_tc's, slow tier).
        self.assertEqual([s["rate_pps"] for s in steps],
                         [10000 * (100 - 20 * i) / 100 for i in range(len(steps))])
        for s in steps:
            self.assertEqual(s["lost"], s["sent"] - s["received"])
            self.assertIsNotNone(s["reverse"], s)
            self.assertEqual(s["reverse"]["lost"], s["reverse"]["sent"] - s["reverse"]["received"])
        # 10 kpps of 512-byte frames is 2x tbf's 4921 pps A->B and 4x its
        # 2461 pps B->A: the first step loses both ways, B->A more.
        self.assertGreater(steps[0]["reverse"]["loss_pct"], steps[0]["loss_pct"] + 10, p.stdout)
        self.assertEqual(sum(s["lost"] for s in steps), d1, p.stdout)
        self.assertEqual(sum(s["reverse"]["lost"] for s in steps), d0, p.stdout)
        self.assertGreater(d0, 0)
        print("\n    both directions (tbf 20 / 10 Mbit/s, 512 B): " +
              ", ".join(f"{s['rate_pct']:.0f} %: A->B {s['loss_pct']:.2f} %, "
                        f"B->A {s['reverse']['loss_pct']:.2f} %" for s in steps) +
              f"; tc dropped {d1} / {d0}")

    def test_both_directions_b2b_latency(self):
        """Both directions at once: back-to-back and latency per direction.

        tbf 20 Mbit/s both ways, the queue towards port 1 (A->B) 16 kB and
        towards port 0 (B->A) 64 kB: each direction's own back-to-back
        search finds its own queue (B->A about 94 frames longer), and the
        latency trials at the throughput time each direction's frames
        apart, every frame back on its own port timed.
        """
        if not os.environ.get("WIRERATE"):
            self.skipTest("WIRERATE not set")
        ns_exec(self.RTR, "tc", "qdisc", "replace", "dev", "wrsr1", "root", "tbf", "rate",
                "20mbit", "burst", "16kb", "limit", "16kb")
        ns_exec(self.RTR, "tc", "qdisc", "add", "dev", "wrsr0", "root", "tbf", "rate",
                "20mbit", "burst", "16kb", "limit", "64kb")
        sf = self.write("bidir2.yaml", self.BIDIR_STREAMS)
        prof = self.afp_profile("bidir2")
        out = self.path("bidir2.json")
        p = ns_exec(self.GEN, os.environ["WIRERATE"], "rfc2544", sf, "--stream", "ab",
                    "--reverse-stream", "ba", "--config", prof, "--tx-port", "0",
                    "--rx-port", "1", "--drain", "0.1", "--tests", "latency,b2b",
                    "--sizes", "512", "--trial", "0.3", "--max-rate", "8 kpps",
                    "--resolution", "1 kpps", "--latency-trials", "2", "--latency-trial",
                    "0.3", "--b2b-trial", "0.1", "--b2b-repeats", "3", "--json", out,
                    "--report", self.path("bidir2.html"), check=False)
        with open(out) as f:
            r = json.load(f)["results"][0]
        fwd, rev = r["back_to_back"], r["back_to_back_reverse"]
        if p.returncode == 3 and (fwd["generator_limited"] or rev["generator_limited"]):
            # Another thread held the TX lcore's CPU while a burst went out (the
            # machine is shared): the burst was no result, and said so (issue 17).
            gen = fwd if fwd["generator_limited"] else rev
            self.assertIn("generator-limited: a burst of", p.stdout)
            self.assertLess(gen["generator_offered_pps"] or 0, 8000 - self.RESOLUTION + 1)
            print(f"\n    back-to-back generator-limited on a busy CPU: "
                  f"{gen['generator_limit_detail']}")
            return
        # The same for the throughput search: a trial whose rate the busy CPU
        # kept the generator from offering, the device losing nothing, is no
        # figure (exit 3, "at least"); back-to-back and latency still ran.
        gen_tput = r["limited_by"] == "generator"
        self.assertEqual(p.returncode, 3 if gen_tput else 0, p.stdout + p.stderr)
        if gen_tput:
            self.assertIn("the generator could not offer", p.stdout)
            self.assertIsNone(r["throughput_pps"], p.stdout)
        for bb in (fwd, rev):
            self.assertEqual(bb["repeats"], 3, p.stdout)
            self.assertEqual(bb["min"], min(bb["values"]))
            self.assertEqual(bb["max"], max(bb["values"]))
            self.assertGreater(bb["min"], 0, p.stdout)
            self.assertEqual(bb["at_first_burst"], 0, p.stdout)
        # 48 kB more queue B->A: about 94 more 512-byte frames.
        self.assertGreater(rev["min"], fwd["max"] + 40, p.stdout)
        self.assertIn("rx->tx", p.stdout)
        ndr = r["at_least_pps"] if gen_tput else r["throughput_pps"]
        self.assertIsNotNone(ndr, p.stdout)
        # The throughput both directions passed: tbf's 4921 pps at 512 B,
        # within the search's resolution (tbf's bucket lends a little); a
        # generator-limited search passed no more than that either.
        self.assertLessEqual(ndr, 20e6 / 8 / 508 + self.RESOLUTION, p.stdout)
        if not gen_tput:
            self.assertGreater(ndr, 20e6 / 8 / 508 - 2 * self.RESOLUTION, p.stdout)
        for key in ("latency", "latency_reverse"):
            lat = r[key]
            self.assertIsNone(lat["skipped"], p.stdout)
            self.assertEqual(lat["rate_pps"], r["latency"]["rate_pps"])
            self.assertEqual(len(lat["trials"]), 2, p.stdout)
            for t in lat["trials"]:
                # every frame that came back on its own port was timed
                self.assertEqual(t["frames"], t["sent"] - t["lost"], (key, t))
                self.assertGreater(t["frames"], 0.25 * ndr, (key, t))
                self.assertGreater(t["min_ns"], 0)
                self.assertLessEqual(t["min_ns"], t["p50_ns"])
                self.assertLessEqual(t["p99_ns"], t["max_ns"])
            self.assertEqual(lat["overall"]["frames"],
                             sum(t["frames"] for t in lat["trials"]))
        # The report shows each direction, every figure the JSON's.
        chromium = shutil.which("chromium")
        if chromium is not None:
            with open(out) as f:
                doc = json.load(f)
            dom, cells = chromium_cells(self, chromium, self.path("bidir2.html"))
            for path, text in cells:
                self.assertEqual(float(text), float(json_at(doc, path)), path)
            paths = {c[0] for c in cells}
            for must in ("results[0].latency_reverse.overall.p99_ns",
                         "results[0].back_to_back_reverse.min", "results[0].latency.overall.p50_ns",
                         "results[0].back_to_back.max"):
                self.assertIn(must, paths)
            self.assertIn("rx-&gt;tx", dom.stdout)
        print(f"\n    both directions (tbf 20 Mbit/s, queues 16 / 64 kB, 512 B): b2b A->B "
              f"{fwd['values']}, B->A {rev['values']}; latency at {ndr:.0f} pps p50 "
              f"A->B {r['latency']['overall']['p50_ns'] / 1e3:.1f} us, "
              f"B->A {r['latency_reverse']['overall']['p50_ns'] / 1e3:.1f} us")

    def test_server_jobs(self):
        """RFC 2544's other tests as server jobs (bench.start through the Python client) on
        the same router: back-to-back equals the command line's run of the same test (first,
        the same ports and options); frame loss both directions at once, each direction's loss
        what its own tbf dropped (the kernel's counts); latency at the throughput found, each
        trial's frames back every frame the router forwarded (its counter), every one timed."""
        import sys
        sys.path.insert(0, os.path.join(ROOT, "python"))
        import wirerate
        if not os.environ.get("WIRERATE"):
            self.skipTest("WIRERATE not set")
        b2b_opts = ["--tests", "b2b", "--sizes", "512", "--b2b-trial", "0.005",
                    "--b2b-repeats", "3"]
        # Back-to-back on the command line grows with the queue (64 kB, then 16 kB: the
        # queue the server's job finds again below).
        large, out_l = self.b2b("srvcli64", "64kb")
        cli, out = self.b2b("srvcli", "16kb")  # tbf towards port 1: 16 kB of queue
        self.assert_b2b_grows(cli, out, large, out_l)
        ns_exec(self.RTR, "tc", "qdisc", "add", "dev", "wrsr0", "root", "tbf", "rate",
                "10mbit", "burst", "16kb", "latency", "5ms")
        sf = self.write("jobs.yaml", self.BIDIR_STREAMS)
        sock = self.path("srv.sock")
        srv = subprocess.Popen(["ip", "netns", "exec", self.GEN, os.environ["WIRERATE"],
                                "serve", "--config", self.afp_profile("srv"), "--socket", sock],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

        def stop():
            if srv.poll() is None:
                srv.terminate()
                srv.wait(timeout=20)
        self.addCleanup(stop)
        self.assertTrue(wait_for(lambda: os.path.exists(sock) or srv.poll() is not None, 30))
        if srv.poll() is not None:
            self.fail(f"the server did not start: {srv.stderr.read()}")
        c = wirerate.connect(sock)
        self.addCleanup(c.close)
        with open(sf) as f:
            c.load(f.read(), name="jobs.yaml")

        def job(opts):
            st = c.bench_wait(c.bench_start("rfc2544", {"stream": "ab", "tx-port": 0,
                                                        "rx-port": 1, "drain": "0.1",
                                                        **opts})["job"], timeout=300)
            self.assertEqual(st["state"], "done", st)
            return st, c.bench_result(st["job"], "json")["results"][0]

        # Back-to-back: the command line's figure, within the repeats' own spread.
        opts = {b2b_opts[i][2:]: b2b_opts[i + 1] for i in range(0, len(b2b_opts), 2)}
        st, r = job(opts)
        bb = r["back_to_back"]
        if st["gen_limited"] or cli["generator_limited"]:
            # A burst that another thread's CPU time cut short is no result (issue 17).
            print(f"\n    back-to-back generator-limited on a busy CPU: {bb} / {cli}")
        else:
            self.assertEqual((bb["repeats"], len(bb["values"]), bb["at_first_burst"]), (3, 3, 0))
            self.assertLessEqual(abs(bb["avg"] - cli["avg"]), 0.1 * cli["avg"] + 2,
                                 f"server {bb['values']}, CLI {cli['values']}\n{out}")
        # Frame loss, both directions at once: each direction's loss is its tbf's drops.
        def drops(dev):
            return int(re.search(r"dropped (\d+)", ns_exec(self.RTR, "tc", "-s", "qdisc",
                                                           "show", "dev", dev).stdout).group(1))
        d1, d0 = drops("wrsr1"), drops("wrsr0")
        _, r = job({"reverse-stream": "ba", "tests": "loss", "sizes": [512], "trial": "0.3",
                    "max-rate": "10 kpps", "loss-step": "20%"})
        d1, d0 = drops("wrsr1") - d1, drops("wrsr0") - d0
        steps = r["frame_loss"]["steps"]
        self.assertGreater(steps[0]["reverse"]["loss_pct"], steps[0]["loss_pct"] + 10, steps)
        self.assertEqual(sum(x["lost"] for x in steps), d1, steps)
        self.assertEqual(sum(x["reverse"]["lost"] for x in steps), d0, steps)
        self.assertGreater(d0, 0)
        # Latency at the throughput (4 kpps passes tbf's 4921 pps at once): the router's
        # forwarded count is every frame the trials got back, each latency frame timed.
        before = self.forwarded()
        _, r = job({"tests": "latency", "sizes": [512], "trial": "0.3", "max-rate": "4 kpps",
                    "latency-trials": "2", "latency-trial": "0.3"})
        forwarded = self.forwarded() - before
        lat = r["latency"]
        top = max((t for t in r["trials"] if t["counted"] and t["pass"]),
                  key=lambda t: t["rate_pps"])
        ndr = min(top["rate_pps"], top["offered_pps"])  # never above what it offered
        if top.get("short_offer"):
            # A busy CPU kept the trial below 4 kpps by more than the resolution: no
            # throughput, so no latency at it (issue 31: never a figure not offered).
            self.assertIsNone(r["throughput_pps"], r["trials"])
            self.assertEqual(sum(t["received"] for t in r["trials"]) +
                             # a latency trial says sent and lost (frames: those timed)
                             sum(t["sent"] - t["lost"] for t in (lat or {}).get("trials", [])),
                             forwarded)
            print(f"\n    latency at throughput not measured: the generator offered "
                  f"{top['offered_pps']:.1f} of 4000 pps on a busy CPU")
            return
        self.assertEqual((top["rate_pps"], r["throughput_pps"]), (4000.0, ndr), r["trials"])
        self.assertEqual((lat["rate_pps"], len(lat["trials"])), (ndr, 2), lat)
        for t in lat["trials"]:
            self.assertEqual(t["frames"], t["sent"] - t["lost"], t)
            self.assertGreater(t["frames"], 0.9 * 4000 * 0.3, t)
            self.assertLessEqual(t["min_ns"], t["p50_ns"])
        self.assertEqual(sum(t["received"] for t in r["trials"]) +
                         sum(t["frames"] for t in lat["trials"]), forwarded)
        print(f"\n    server jobs through the router: b2b {bb['values']} (CLI {cli['values']}); "
              f"loss A->B {[x['lost'] for x in steps]} = tc {d1}, B->A "
              f"{[x['reverse']['lost'] for x in steps]} = tc {d0}; latency p50 "
              f"{lat['overall']['p50_ns'] / 1e3:.1f} us, {forwarded} frames forwarded")
        c.close()
        stop()
        self.assertEqual(srv.returncode, 0, srv.stderr.read())

    def test_generator_limited(self):
        """The issue's defect: a router faster than af_packet can offer.

        Without the tbf, the kernel forwards everything af_packet sends
        (a few hundred kpps) while the search asks veth's 10 Gbit/s line
        rate: the result must say the generator was the limit, never give
        a throughput, and exit 3.
        """
        wirerate = os.environ.get("WIRERATE")
        if not wirerate:
            self.skipTest("WIRERATE not set")
        ns_exec(self.RTR, "tc", "qdisc", "del", "dev", "wrsr1", "root")
        prof = self.afp_profile("gl")
        before = self.forwarded()
        out, csvf = self.path("gl.json"), self.path("gl.csv")
        p = ns_exec(self.GEN, wirerate, "rfc2544", os.path.join(STREAMS, "udp-64.yaml"),
                    "--config", prof, "--tx-port", "0", "--rx-port", "1", "--sizes", "256",
                    "--trial", "0.5", "--drain", "0.1", "--json", out, "--csv", csvf,
                    check=False)
        self.assertEqual(p.returncode, 3, p.stdout + p.stderr)
        forwarded = self.forwarded() - before
        with open(out) as f:
            res = json.load(f)
        r = res["results"][0]
        self.assertIsNone(r["throughput_pps"], r)
        self.assertIsNone(r["mbps_l1"])
        self.assertEqual(r["limited_by"], "generator")
        counted = [t for t in r["trials"] if t["counted"]]
        self.assertEqual(len(counted), 1, r)
        t = counted[0]
        # What the generator offered, measured: far below the 10 Gbit/s
        # line rate (4528985 pps at 256 bytes) the trial asked for, and
        # every frame came back (the kernel counted them as forwarded).
        self.assertAlmostEqual(t["rate_pps"], 10e9 / 8 / 276, delta=1)
        self.assertTrue(t["short_offer"])
        self.assertEqual(t["lost"], 0)
        self.assertAlmostEqual(t["offered_pps"], t["sent"] / t["duration_s"],
                               delta=t["offered_pps"] * 1e-6 + 0.001)
        self.assertLess(t["offered_pps"], t["rate_pps"] / 2)
        self.assertEqual(r["at_least_pps"], t["offered_pps"])
        self.assertEqual(sum(x["received"] for x in r["trials"]), forwarded)
        with open(csvf) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(rows[0]["throughput_pps"], "")
        self.assertEqual(rows[0]["limited_by"], "generator")
        self.assertAlmostEqual(float(rows[0]["at_least_pps"]), t["offered_pps"], places=3)
        self.assertRegex(p.stdout, r"(?m)^\s+256 >= [0-9.]+ pps: the device lost nothing; "
                         r"the generator could not offer more")
        self.assertNotIn("4528985", p.stdout.split("RFC 2544 throughput")[1].split("trials")[0])
        print(f"\n    router faster than af_packet: at least {t['offered_pps']:.0f} pps "
              f"(asked {t['rate_pps']:.0f})")


class Rfc2544LatencyMemif(EalCase):
    """RFC 2544 latency (26.2) through dpdk-testpmd's macswap over memif.

    The throughput search first (a 500 kpps ceiling memif sustains), then
    latency trials at it, every frame carrying the timestamp signature (at
    64 bytes, the README's example size, the compact one; at 1024 the full
    one): nothing lost, every frame received timed, and the overall figures
    are those of all trials' frames together.
    """

    def test_latency_at_throughput(self):
        from test_echo import forget_prefix, kill, PEER_START_S
        if shutil.which("dpdk-testpmd") is None:
            self.skipTest("needs dpdk-testpmd (Debian package dpdk)")
        pid = os.getpid()
        rundir = f"/run/wrlat-{pid}"
        os.makedirs(rundir, exist_ok=True)
        self.addCleanup(shutil.rmtree, rundir, True)
        sock = os.path.join(rundir, "memif.sock")
        gen_prefix = forget_prefix(self, f"wrlat-g{pid}")
        refl_prefix = forget_prefix(self, f"wrlat-r{pid}")
        prof = self.write("memif.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={gen_prefix}",
      "--vdev=net_memif0,role=server,socket={sock},rsize=14", "--lcores=0@0,1@0"]
ports:
  - device: net_memif0
    tx_lcores: [1]
    rx_lcore: 1
settle_ms: 200
""")
        gen = self.start("rfc2544", os.path.join(STREAMS, "udp-64.yaml"), "--config", prof,
                         "--tx-port", "0", "--rx-port", "0", "--tests", "latency",
                         "--sizes", "64,1024", "--max-rate", "100 kpps", "--resolution",
                         "10 kpps", "--trial", "0.3", "--drain", "0.2",
                         "--latency-trials", "3", "--latency-trial", "0.4",
                         "--json", self.path("r.json"))
        procs = [gen]

        def listening():
            with open("/proc/net/unix") as f:
                return any(line.rstrip().endswith(sock) for line in f)
        self.addCleanup(lambda: [kill(p) for p in reversed(procs)])
        self.assertTrue(wait_for(lambda: listening() or gen.poll() is not None, PEER_START_S))
        refl = self.start_reflector(refl_prefix, sock)
        procs.append(refl)
        try:
            out, err = gen.communicate(timeout=120)
        finally:
            kill(refl)
        # 3: a busy CPU kept the generator from offering 100 kpps at
        # some size (said so, and latency ran at what it offered).
        self.assertIn(gen.returncode, (0, 3), out + err)
        res = self.json("r.json")
        device_rows = 0
        for r in res["results"]:
            msg = f"{r['frame_size']}: {out}"
            lat = r["latency"]
            self.assertIsNone(lat["skipped"])
            if r["limited_by"] == "generator":
                self.assertTrue(lat["rate_at_least"], msg)
                self.assertEqual(lat["rate_pps"], r["at_least_pps"], msg)
                rate = lat["rate_pps"]
            else:
                device_rows += 1
                # The ceiling as its trial offered it (never above).
                top = max((t for t in r["trials"] if t["counted"] and t["pass"]),
                          key=lambda t: t["rate_pps"])
                rate = min(top["rate_pps"], top["offered_pps"])
                self.assertEqual(r["throughput_pps"], rate, msg)
                self.assertGreater(rate, 100_000 * 0.999, msg)
                self.assertFalse(lat["rate_at_least"], msg)
                self.assertEqual(lat["rate_pps"], rate)
            self.assertEqual(len(lat["trials"]), 3)
            total = 0
            for t in lat["trials"]:
                # Every frame back timed, whatever a busy CPU made testpmd drop.
                self.assertEqual(t["frames"], t["sent"] - t["lost"], msg)
                # The rate offered, or the trial says it was not.
                self.assertEqual(t["short_offer"], t["offered_pps"] < rate - 10_000, msg)
                if not t["short_offer"]:
                    self.assertAlmostEqual(t["sent"], rate * 0.4, delta=rate * 0.04, msg=msg)
                self.assertTrue(0 < t["min_ns"] <= t["p50_ns"] <= t["p99_ns"] <= t["p99_9_ns"]
                                <= t["p99_99_ns"] <= t["max_ns"], t)
                self.assertTrue(t["min_ns"] <= t["avg_ns"] <= t["max_ns"], t)
                total += t["frames"]
            o = lat["overall"]
            self.assertEqual(o["frames"], total)
            self.assertEqual(o["min_ns"], min(t["min_ns"] for t in lat["trials"]))
            self.assertEqual(o["max_ns"], max(t["max_ns"] for t in lat["trials"]))
            self.assertAlmostEqual(o["avg_ns"], sum(t["avg_ns"] * t["frames"]
                                                    for t in lat["trials"]) / total, delta=2)
            self.assertAlmostEqual(o["jitter_ns"], sum(t["jitter_ns"] for t in lat["trials"]) / 3,
                                   delta=0.01)
            print(f"\n    memif + testpmd macswap, {r['frame_size']} B at {rate:.0f} pps: "
                  f"latency min {o['min_ns']} p50 {o['p50_ns']} p99 {o['p99_ns']} p99.99 "
                  f"{o['p99_99_ns']} max {o['max_ns']} ns, {total} frames")
        # On a busy CPU every row may be the generator's (said so above): the latency
        # was still measured at what it offered, which is what this test asserts.
        print(f"\n    {device_rows} of {len(res['results'])} sizes measured the device")


if __name__ == "__main__":
    unittest.main(verbosity=2)
