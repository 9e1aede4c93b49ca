# SPDX-License-Identifier: BSD-3-Clause
"""Shared helpers for wirerate's integration tests: run the binary, decode pcaps with tshark."""

import json
import os
import shutil
import signal
import struct
import subprocess
import tempfile
import time
import unittest

ROOT = os.environ.get("WR_SOURCE_ROOT",
                      os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
WIRERATE = os.environ.get("WIRERATE", os.path.join(ROOT, "build", "app", "wirerate"))
STREAMS = os.path.join(ROOT, "streams")
CONFIG = os.path.join(ROOT, "config")
FIXTURES = os.path.join(ROOT, "test", "fixtures")


def pcap_records(path):
    """(seconds, bytes) of each record of a classic pcap file (microsecond or nanosecond
    stamps, either byte order), parsed here, not by wirerate's code."""
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack("<I", data[:4])[0]
    end = "<" if magic in (0xa1b2c3d4, 0xa1b23c4d) else ">"
    scale = 1e-9 if struct.unpack(end + "I", data[:4])[0] == 0xa1b23c4d else 1e-6
    off, out = 24, []
    while off + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack(end + "IIII", data[off:off + 16])
        out.append((sec + frac * scale, data[off + 16:off + 16 + incl]))
        off += 16 + incl
    return out


def pcap_frames(path):
    """The frames of a classic pcap file (pcap_records without the times)."""
    return [b for _, b in pcap_records(path)]


def have_hugepages():
    """True when 2 MB hugepages are reserved and free (EAL with --in-memory needs them)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("HugePages_Free:"):
                    return int(line.split()[1]) >= 64
    except OSError:
        pass
    return False


class WrCase(unittest.TestCase):
    """A test case with its own temporary directory, removed afterwards."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="wrtest-")
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def need_eal(self):
        """Skip without hugepages, unless WR_REQUIRE_EAL=1 (CI) makes that a failure."""
        if have_hugepages():
            return
        if os.environ.get("WR_REQUIRE_EAL") == "1":
            self.fail("no free 2 MB hugepages: reserve them (tools/wr-hugepages or README)")
        self.skipTest("needs free 2 MB hugepages (see README)")

    def path(self, name):
        return os.path.join(self.tmp, name)

    def write(self, name, text):
        p = self.path(name)
        with open(p, "w") as f:
            f.write(text)
        return p

    def profile(self, vdev, prefix, extra_ports=""):
        """A profile on one virtual device, with a unique EAL file prefix."""
        return self.write(f"{prefix}.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={prefix}", "--vdev={vdev}", "--lcores=0@0,1@1"]
ports:
  - device: {vdev.split(',')[0]}
    tx_lcores: [1]
{extra_ports}""")

    def wirerate(self, *args, timeout=60, check=None):
        """Run wirerate in the test's directory; return the CompletedProcess."""
        p = subprocess.run([WIRERATE, *args], cwd=self.tmp, capture_output=True,
                           text=True, timeout=timeout)
        if check is not None and p.returncode != check:
            self.fail(f"wirerate {' '.join(args)} exited {p.returncode}, expected {check}\n"
                      f"stdout:\n{p.stdout}\nstderr:\n{p.stderr}")
        return p

    def start(self, *args):
        return subprocess.Popen([WIRERATE, *args], cwd=self.tmp, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    def json(self, name):
        with open(self.path(name)) as f:
            return json.load(f)


def tshark_fields(pcap, fields, display_filter=None):
    """Decode @pcap with tshark (checksums verified) and return one list of field values per frame."""
    cmd = ["tshark", "-n", "-r", pcap, "-o", "ip.check_checksum:TRUE",
           "-o", "udp.check_checksum:TRUE", "-T", "fields", "-E", "separator=\t"]
    if display_filter:
        cmd += ["-Y", display_filter]
    for f in fields:
        cmd += ["-e", f]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=120).stdout
    return [line.split("\t") for line in out.splitlines()]


def wait_for(pred, timeout, step=0.05):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(step)
    return pred()


def memif_server_profile(case, name, prefix, sock, settle_ms, extra="", devargs=""):
    """A profile with wirerate as the memif server on sock: TX and RX on lcore 1, CPU 0.

    devargs: more memif device arguments, e.g. ",bsize=10240"."""
    return case.write(name, f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={prefix}",
      "--vdev=net_memif0,role=server,socket={sock},rsize=14{devargs}", "--lcores=0@0,1@0"]
ports:
  - device: net_memif0
    tx_lcores: [1]
    rx_lcore: 1
settle_ms: {settle_ms}
{extra}""")


def testpmd_reflector(prefix, sock, devargs="", args=(), **popen):
    """dpdk-testpmd as the memif client on sock, macswap, on CPU 1 (TESTBED.md).

    devargs: more memif device arguments (",bsize=10240"); args: more testpmd options."""
    return subprocess.Popen(
        ["dpdk-testpmd", "--lcores=0@1,1@1", "--no-pci", "--in-memory",
         "--file-prefix", prefix,
         "--vdev", f"net_memif0,role=client,socket={sock},rsize=14{devargs}",
         "--", "--forward-mode=macswap", "--auto-start", "--nb-cores=1",
         "--stats-period", "1", *args],
        stdin=subprocess.DEVNULL, **popen)


def kill(proc):
    """Stop a process we started, whatever state it is in."""
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=5)


def sigint(proc):
    proc.send_signal(signal.SIGINT)


class EalCase(WrCase):
    """A test that starts EAL."""

    def setUp(self):
        super().setUp()
        self.need_eal()


class MemifCase(EalCase):
    """wirerate as a memif server with dpdk-testpmd as its client: a run directory for the
    socket (/run/RUNDIR-PID), and the processes started, stopped at the end."""

    RUNDIR = "wrmemif"

    def setUp(self):
        super().setUp()
        if shutil.which("dpdk-testpmd") is None or shutil.which("dpdk-telemetry.py") is None:
            self.skipTest("needs dpdk-testpmd and dpdk-telemetry.py (Debian package dpdk)")
        self.rundir = f"/run/{self.RUNDIR}-{os.getpid()}"
        os.makedirs(self.rundir, exist_ok=True)
        self.addCleanup(shutil.rmtree, self.rundir, True)
        self.sock = os.path.join(self.rundir, "memif.sock")
        self.procs = []
        self.addCleanup(self.stop_all)

    def stop_all(self):
        # Only after a failure is anything still running: whichever memif
        # peer outlives the other may crash at shutdown, which is harmless.
        for p in reversed(self.procs):
            kill(p)
            for f in (p.stdout, p.stderr):
                if f is not None:
                    f.close()

    def socket_listening(self):
        """True once wirerate listens on its memif socket."""
        with open("/proc/net/unix") as f:
            return any(line.rstrip().endswith(self.sock) for line in f)
