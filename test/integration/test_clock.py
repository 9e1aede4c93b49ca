# SPDX-License-Identifier: BSD-3-Clause
"""wirerate's clock against the Linux kernel's: a paced stream's rate and a server's start_at,
measured on the timestamps the kernel gives the frames on the far side of a veth (tcpdump,
nanosecond precision).  DPDK 22.11 rounds the TSC's frequency to 10 MHz (0.149 % off on the
machine of issue 17, 0.188 % on another): with that figure both checks fail."""

import json
import os
import shutil
import struct
import subprocess
import sys
import time
import unittest

from wrtest import ROOT, EalCase, WIRERATE, kill, wait_for
from test_echo import Namespace

sys.path.insert(0, os.path.join(ROOT, "python"))
import wirerate  # noqa: E402

# Tolerances for a loaded 2-CPU machine (CI runs two tests at a time), each a third of the
# error DPDK's rounded figure gives or less: 0.05 % of the rate (0.149 % must fail), and
# 1 ms for a start 2 s ahead (0.149 % of 2 s is 3 ms).
RATE_TOL = 0.0005
START_LEAD_S = 2.0
START_TOL_S = 0.001
# 10 kpps in bursts of up to 512: a TX lcore stalled for up to 51 ms by a busy neighbour
# catches up without skipping a slot of the schedule (the pacer's cap is a burst).
RATE_PPS = 10000
FRAMES = 30000
# A start the TX lcore's CPU was taken at: what the server says against the kernel's stamp of
# the first frame.  The lie it replaces was 60 ms here; a busy neighbour can still take the
# lcore's CPU between the send and the clock read after it, for a few ms.
LATE_TOL_S = 0.01
# Busy on its CPU (SCHED_FIFO: the SCHED_OTHER lcore waits) from argv[1] to argv[2], Unix time.
HOG = ("import sys, time\n"
       "t0, t1 = float(sys.argv[1]), float(sys.argv[2])\n"
       "while time.time() < t0 - 0.002:\n"
       "    time.sleep(0.001)\n"
       "while time.time() < t1:\n"
       "    pass\n")


def stop(p):
    """Stop a process we started and close its pipes; return what it wrote on stderr."""
    kill(p)
    err = p.stderr.read() if p.stderr and not p.stderr.closed else ""
    for f in (p.stdout, p.stderr):
        if f is not None:
            f.close()
    return err


def read_pcap_ns(path):
    """Kernel timestamps (ns) of every frame of a nanosecond pcap file."""
    with open(path, "rb") as f:
        data = f.read()
    if struct.unpack("<I", data[:4])[0] != 0xa1b23c4d:
        raise ValueError(f"{path}: not a nanosecond pcap")
    ts, off = [], 24
    while off + 16 <= len(data):
        sec, nsec, incl, _ = struct.unpack("<IIII", data[off:off + 16])
        ts.append(sec * 1_000_000_000 + nsec)
        off += 16 + incl
    return ts


def schedule_period_ns(ts, nominal_pps):
    """The period of the pacer's schedule, from the kernel stamps of frames that each took
    the next slot (no slot skipped).  A frame is never early, only late (a stalled lcore, a
    slow syscall): against the period, the earliest frame of the first quarter and of the
    last quarter are on time, and the slope between them is the schedule's.  The first and
    last frames alone would carry a stall of either into the rate."""
    period = 1e9 / nominal_pps
    n = len(ts)
    q = n // 4
    for _ in range(3):
        i = min(range(q), key=lambda k: ts[k] - k * period)
        j = min(range(n - q, n), key=lambda k: ts[k] - k * period)
        period = (ts[j] - ts[i]) / (j - i)
    return period


def schedule_origin_ns(ts, period, frames=200):
    """When slot 0 of the schedule was, from the first @frames stamps: as above, the
    earliest against the period is on time."""
    return min(ts[k] - k * period for k in range(min(frames, len(ts))))


class KernelClock(EalCase):
    """wirerate on net_af_packet at one end of a veth pair, tcpdump at the other."""

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0 or shutil.which("ip") is None or shutil.which("tcpdump") is None:
            self.skipTest("needs root, iproute2 and tcpdump")
        self.nsx = Namespace(f"ck{os.getpid() % 100000}")
        self.addCleanup(self.nsx.down)
        self.nsx.up()
        self.prefix = f"wrck{os.getpid()}"
        self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", self.prefix), True)
        self.prof = self.write("afp.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={self.prefix}",
      "--vdev=net_af_packet0,iface={self.nsx.gen_if}", "--lcores=0@0,1@1"]
ports:
  - device: net_af_packet0
    tx_lcores: [1]
""")

    def stream(self, count):
        return f"""version: 1
streams:
  - name: paced
    size: 64
    rate: {RATE_PPS // 1000} kpps
    burst: 512
    count: {count}
    eth: {{src: "02:00:00:00:00:01", dst: "{self.nsx.peer_mac}"}}
    ipv4: {{src: 198.51.100.1, dst: 198.51.100.2}}
    udp: {{src: 40000, dst: 40001}}
"""

    def tcpdump(self):
        """tcpdump on the kernel's end, nanosecond stamps; returns (process, pcap path)."""
        pcap = self.path("kernel.pcap")
        p = subprocess.Popen(["ip", "netns", "exec", self.nsx.ns, "tcpdump", "-i",
                              self.nsx.peer_if, "-w", pcap, "--time-stamp-precision", "nano",
                              "-s", "64", "-B", "16384", "--immediate-mode", "-n", "udp"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.addCleanup(stop, p)
        line = p.stderr.readline()
        self.assertIn("listening on", line)
        return p, pcap

    def stop_tcpdump(self, p, expect):
        # Until tcpdump has every frame in its buffer, then it writes them out.
        time.sleep(0.5)
        err = stop(p)
        self.assertRegex(err, rf"\b{expect} packets captured")
        self.assertRegex(err, r"\b0 packets dropped by kernel")

    def test_paced_rate_on_kernel_clock(self):
        td, pcap = self.tcpdump()
        s = self.write("paced.yaml", self.stream(FRAMES))
        p = subprocess.run(["ip", "netns", "exec", self.nsx.ns, WIRERATE, "run", s, "--config",
                            self.prof, "--quiet", "--json", "r.json"], cwd=self.tmp,
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.stop_tcpdump(td, FRAMES)
        res = self.json("r.json")
        row = res["streams"][0]
        self.assertEqual(row["tx_pkts"], FRAMES)
        # Every frame took the next slot: frame k of the capture is slot k.
        self.assertEqual(row["pacer_skipped"], 0, "the TX lcore stalled past the pacer's cap")
        tsc = res["tsc"]
        self.assertEqual(tsc["source"], "CLOCK_MONOTONIC_RAW")
        self.assertLess(tsc["error_ppm"], 10)
        self.assertGreater(tsc["span_s"], 0.02)
        ts = read_pcap_ns(pcap)
        self.assertEqual(len(ts), FRAMES)
        rate = 1e9 / schedule_period_ns(ts, RATE_PPS)
        naive = (len(ts) - 1) * 1e9 / (ts[-1] - ts[0])
        print(f"\n{RATE_PPS} pps set: {rate:.3f} pps on the kernel's clock "
              f"({(rate / RATE_PPS - 1) * 100:+.4f} %; first to last {naive:.3f} pps); "
              f"TSC {tsc['hz']} Hz +-{tsc['error_ppm']} ppm, DPDK says {tsc['eal_hz']}")
        self.assertLess(abs(rate / RATE_PPS - 1), RATE_TOL)
        # wirerate's own figure agrees with the kernel's.
        self.assertLess(abs(row["kpps"] * 1000 / rate - 1), 0.002)

    def test_start_at_on_kernel_clock(self):
        td, pcap = self.tcpdump()
        sock = self.path("srv.sock")
        srv = subprocess.Popen(["ip", "netns", "exec", self.nsx.ns, WIRERATE, "serve",
                                "--config", self.prof, "--socket", sock], cwd=self.tmp,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.addCleanup(stop, srv)
        self.assertTrue(wait_for(lambda: os.path.exists(sock) or srv.poll() is not None, 20),
                        "the server did not create its socket")
        self.assertIsNone(srv.poll(), srv.stderr.read() if srv.poll() is not None else "")
        frames = 2000
        with wirerate.Client(sock).connect() as c:
            info = c.info()
            self.assertEqual(info["tsc"]["source"], "CLOCK_MONOTONIC_RAW")
            c.acquire()
            c.load(self.stream(frames))
            start_at = time.time() + START_LEAD_S
            c.start(start_at=start_at)
            done = c.wait(timeout=START_LEAD_S + 10)
            self.assertEqual(done["state"], "done")
            stats = c.stats()
        stop(srv)
        self.stop_tcpdump(td, frames)
        ts = read_pcap_ns(pcap)
        self.assertEqual(len(ts), frames)
        origin = schedule_origin_ns(ts, 1e9 / RATE_PPS)
        first = ts[0] / 1e9 - start_at
        late = origin / 1e9 - start_at
        print(f"\nstart_at {START_LEAD_S} s ahead: first frame {first * 1e6:+.1f} us, "
              f"schedule origin {late * 1e6:+.1f} us on the kernel's clock; server says "
              f"{(stats['tx_started_at'] - start_at) * 1e6:+.1f} us")
        # Never early; on time to the tolerance.
        self.assertGreaterEqual(late, 0)
        self.assertLess(late, START_TOL_S)

    def test_start_at_late_first_burst(self):
        """Issue 31: with another thread on the TX lcore's CPU at start_at, the first frame
        left 3.6-6.7 ms late by the kernel's clock while tx_started_at said +3 us (the
        schedule's origin, which is start_at however late the lcore got there).  A real-time
        busy loop pinned to the TX lcore's CPU from 10 ms before start_at to 60 ms after
        holds the lcore off for sure: tx_started_at is when the device took the first frame,
        within LATE_TOL_S of the kernel's stamp of it (load can delay the lcore between the
        send and its clock read, never by 60 ms); tx_late_ns says how late; the server logs a
        warning."""
        if shutil.which("chrt") is None or subprocess.run(["chrt", "-f", "1", "true"]).returncode:
            self.skipTest("needs chrt and SCHED_FIFO")
        td, pcap = self.tcpdump()
        sock = self.path("srv.sock")
        errf = open(self.path("srv.err"), "w+")
        self.addCleanup(errf.close)
        srv = subprocess.Popen(["ip", "netns", "exec", self.nsx.ns, WIRERATE, "serve",
                                "--config", self.prof, "--socket", sock], cwd=self.tmp,
                               stdout=subprocess.DEVNULL, stderr=errf, text=True)
        self.addCleanup(stop, srv)
        self.assertTrue(wait_for(lambda: os.path.exists(sock) or srv.poll() is not None, 20),
                        "the server did not create its socket")
        self.assertIsNone(srv.poll(), "the server exited")
        frames = 200
        with wirerate.Client(sock).connect() as c:
            c.acquire()
            c.load(self.stream(frames).replace("burst: 512", "burst: 32"))
            start_at = time.time() + 1.0
            # The TX lcore is lcore 1 on CPU 1 (the profile's --lcores=0@0,1@1).
            hog = subprocess.Popen(["chrt", "-f", "1", "taskset", "-c", "1", sys.executable,
                                    "-c", HOG, str(start_at - 0.01), str(start_at + 0.06)])
            self.addCleanup(hog.wait, 10)
            c.start(start_at=start_at)
            done = c.wait(timeout=10)
            self.assertEqual(done["state"], "done")
            stats = c.stats()
        self.assertEqual(hog.wait(10), 0)
        stop(srv)
        self.stop_tcpdump(td, frames)
        ts = read_pcap_ns(pcap)
        first = ts[0] / 1e9
        said = stats["tx_started_at"]
        print(f"\nstart_at with the TX lcore's CPU held until +60 ms: first frame "
              f"{(first - start_at) * 1e3:+.3f} ms on the kernel's clock; server says "
              f"{(said - start_at) * 1e3:+.3f} ms, tx_late_ns {stats.get('tx_late_ns')}")
        # The hog held the lcore: the first frame left after it let go.
        self.assertGreater(first - start_at, 0.05)
        self.assertLess(abs(said - first), LATE_TOL_S)
        self.assertEqual(stats["tx_scheduled_at"], start_at)
        self.assertAlmostEqual(stats["tx_late_ns"] / 1e9, said - start_at, delta=1e-6)
        errf.seek(0)
        self.assertRegex(errf.read(), r"warning: the first frame was handed to the device "
                         r"\d+\.\d+ ms after start_at")


if __name__ == "__main__":
    unittest.main()
