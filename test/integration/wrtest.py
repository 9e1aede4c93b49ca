# SPDX-License-Identifier: BSD-3-Clause
"""Shared helpers for wirerate's integration tests: run the binary, decode pcaps with tshark."""

import functools
import json
import os
import shutil
import signal
import struct
import subprocess
import tempfile
import threading
import time
import types
import unittest

ROOT = os.environ.get("WR_SOURCE_ROOT",
                      os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
WIRERATE = os.environ.get("WIRERATE", os.path.join(ROOT, "build", "app", "wirerate"))
STREAMS = os.path.join(ROOT, "streams")
CONFIG = os.path.join(ROOT, "config")
FIXTURES = os.path.join(ROOT, "test", "fixtures")

# Every server a test starts without --runs-dir keeps its runs here (serve's default is
# $STATE_DIRECTORY/runs), not in the machine's /var/lib/wirerate: one directory per test
# process, removed when it ends.
if "STATE_DIRECTORY" not in os.environ:
    os.environ["STATE_DIRECTORY"] = tempfile.mkdtemp(prefix="wr-state-")
    import atexit
    atexit.register(shutil.rmtree, os.environ["STATE_DIRECTORY"], True)

# What a test and its peers may take from the 512 x 2 MB hugepages devtools/wr-test
# reserves, two tests at a time (meson test --num-processes 2): 256 MB each.
# dpdk-testpmd sizes its pool for every port it could have (RTE_MAX_ETHPORTS x
# (RX + TX descriptors + caches + a burst) = 155,456 mbufs): 373 MB at its default
# data room, 1.6 GB at --mbuf-size=10240.  Over memif (copy mode) and pcap it only
# holds the frames in flight in its bursts and the PMD's: 8192 are plenty, 19 MB at
# the default data room, 86 MB at 10240 bytes.  EalCase measures every test against
# HUGEPAGE_BUDGET_MB.
TESTPMD_MBUFS = 8192
HUGEPAGE_BUDGET_MB = int(os.environ.get("WR_HUGEPAGE_BUDGET_MB", "256"))


def hugepages_used_mb():
    """2 MB hugepages in use on the machine, in MB."""
    total = free = 0
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("HugePages_Total:"):
                total = int(line.split()[1])
            elif line.startswith("HugePages_Free:"):
                free = int(line.split()[1])
    return (total - free) * 2


class HugepagePeak:
    """The most hugepage memory in use beyond what was in use at start, sampled every
    20 ms (DPDK holds its pools from start-up to exit: nothing shorter matters).  Tests
    that start EAL run one at a time (meson: is_parallel false), so the figure is the
    test's and its peers'."""

    def __init__(self):
        self.base = hugepages_used_mb()
        self.peak = 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()

    def sample(self):
        while not self.done.wait(0.02):
            self.peak = max(self.peak, hugepages_used_mb() - self.base)

    def stop(self):
        self.done.set()
        self.thread.join()
        return self.peak


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


class Peer(subprocess.Popen):
    """A process a test starts beside wirerate (dpdk-testpmd, a second wirerate): its stderr
    (and its stdout, unless the test reads that) goes to a log file, so that a peer that
    cannot start (no hugepage memory, a device EAL refuses) fails the test with its own
    words instead of a broken pipe or a link that never came up."""

    def __init__(self, name, argv, log, stdout=None, stdin=subprocess.DEVNULL, **popen):
        self.name = name
        self.log_path = log
        # Set by kill(): the test stopped it (an exit status after that says nothing).
        self.stopped = False
        with open(log, "w") as f:
            super().__init__(argv, stdin=stdin, stdout=f if stdout is None else stdout,
                             stderr=f, **popen)

    def log(self, limit=4000):
        """The tail of what the peer wrote to its log."""
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()[-limit:]
        except OSError:
            return ""

    def said(self):
        """Why the peer is gone, with its log, or None while it runs or after kill()."""
        if self.stopped or self.poll() is None:
            return None
        return f"{self.name} exited {self.returncode} on its own; its log ends:\n{self.log()}"


class WrCase(unittest.TestCase):
    """A test case with its own temporary directory, removed afterwards.

    Any failure or error of a test whose peer (started with peer()) exited on its own
    carries that peer's log in its message."""

    def __init__(self, methodName="runTest"):
        super().__init__(methodName)
        self.peers = []
        test = getattr(type(self), methodName, None)
        if test is None:
            return

        # A bound method, as unittest's loader expects of a test.
        @functools.wraps(test)
        def with_peers_said(self, *args, **kwargs):
            try:
                return test(self, *args, **kwargs)
            except unittest.SkipTest:
                raise
            except Exception as e:
                said = [w for w in (p.said() for p in self.peers) if w]
                if not said:
                    raise
                raise self.failureException(
                    f"{type(e).__name__}: {e}\n" + "\n".join(said)) from e
        setattr(self, methodName, types.MethodType(with_peers_said, self))

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="wrtest-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.peers = []

    def peer(self, name, argv, ready=None, timeout=10, **popen):
        """Start @argv as a Peer (stopped at the end of the test).  With @ready (a callable),
        wait up to @timeout s for it: a peer that exits first fails the test with its log."""
        p = Peer(name, argv, self.path(f"{name}-{len(self.peers)}.log"), **popen)
        self.peers.append(p)
        self.addCleanup(kill, p)
        if ready is not None:
            ok = wait_for(lambda: ready() or p.poll() is not None, timeout)
            if p.poll() is not None:
                self.fail(p.said())
            self.assertTrue(ok, f"{name} was not ready after {timeout} s; its log ends:\n"
                            f"{p.log()}")
        return p

    def start_testpmd(self, prefix, vdevs, args=(), mbuf_size=None, **popen):
        """dpdk-testpmd on CPU 1 (lcores 0@1,1@1) with its pool sized to TESTPMD_MBUFS,
        as a Peer: @vdevs its --vdev arguments, @args its application options."""
        argv = ["dpdk-testpmd", "--lcores=0@1,1@1", "--no-pci", "--in-memory",
                "--file-prefix", prefix]
        for v in vdevs:
            argv += ["--vdev", v]
        argv += ["--", f"--total-num-mbufs={TESTPMD_MBUFS}"]
        # EAL leaves /var/run/dpdk/PREFIX behind, --in-memory or not.
        self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", prefix), True)
        if mbuf_size is not None:
            argv.append(f"--mbuf-size={mbuf_size}")
        return self.peer("dpdk-testpmd", argv + list(args), **popen)

    def start_reflector(self, prefix, sock, devargs="", args=(), **popen):
        """dpdk-testpmd as the memif client on @sock (a path socket, as wirerate's memif
        servers create them), macswap, on CPU 1 (TESTBED.md).

        devargs: more memif device arguments (",bsize=10240"); args: more testpmd options."""
        return self.start_testpmd(
            prefix, [f"net_memif0,role=client,socket={sock},socket-abstract=no,rsize=14"
                     f"{devargs}"],
            ["--forward-mode=macswap", "--auto-start", "--nb-cores=1", "--stats-period", "1",
             *args], **popen)

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

    def wirerate(self, *args, timeout=60, check=None, env=None):
        """Run wirerate in the test's directory (@env: variables added to the environment);
        return the CompletedProcess."""
        p = subprocess.run([WIRERATE, *args], cwd=self.tmp, capture_output=True,
                           text=True, timeout=timeout,
                           env=None if env is None else {**os.environ, **env})
        if check is not None and p.returncode != check:
            self.fail(f"wirerate {' '.join(args)} exited {p.returncode}, expected {check}\n"
                      f"stdout:\n{p.stdout}\nstderr:\n{p.stderr}")
        return p

    def start(self, *args, env=None):
        return subprocess.Popen([WIRERATE, *args], cwd=self.tmp, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                env=None if env is None else {**os.environ, **env})

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


def read_settled(path, step=0.2):
    """The text of a file another process rewrites in place (dnsmasq's lease
    file: truncated and written again after every change), read until two
    reads agree, so that no half-written line is parsed; "" while it does not
    exist."""
    prev = None
    while True:
        try:
            with open(path) as f:
                cur = f.read()
        except FileNotFoundError:
            cur = ""
        if cur == prev:
            return cur
        prev = cur
        time.sleep(step)


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


def kill(proc):
    """Stop a process we started, whatever state it is in."""
    if proc is None or proc.poll() is not None:
        return
    proc.stopped = True
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=5)


def sigint(proc):
    proc.send_signal(signal.SIGINT)


class EalCase(WrCase):
    """A test that starts EAL: what it and its peers take from the hugepages must fit in
    HUGEPAGE_BUDGET_MB (devtools/wr-test reserves 1 GiB for two tests at a time)."""

    def setUp(self):
        super().setUp()
        self.need_eal()
        peak = HugepagePeak()
        self.addCleanup(self.check_budget, peak)

    def check_budget(self, peak):
        mb = peak.stop()
        if mb > HUGEPAGE_BUDGET_MB:
            self.fail(f"{self.id()} and its peers took {mb} MB of hugepages, over the "
                      f"{HUGEPAGE_BUDGET_MB} MB budget of a test (wrtest.py)")


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

    def wait_listening(self, gen, timeout=10):
        """Wait until wirerate (@gen, the memif server: its client must not start before)
        listens; fail with its exit status and stderr if it exits first."""
        ok = wait_for(lambda: self.socket_listening() or gen.poll() is not None, timeout)
        if gen.poll() is not None:
            err = gen.stderr.read() if gen.stderr is not None else ""
            self.fail(f"wirerate exited {gen.returncode} before listening on {self.sock}:\n{err}")
        self.assertTrue(ok, f"wirerate did not listen on {self.sock} in {timeout} s")
