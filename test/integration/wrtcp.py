# SPDX-License-Identifier: BSD-3-Clause
"""Shared by the stateful tests against peers we did not write (test_tcp_kernel, test_tcp_netem,
test_tcp_badpeers, test_tcp_seed002): a namespace with wirerate's af_packet port at one end of a
veth pair and the Linux kernel at the other (optionally wrimpair.py between them), stream files
with tcp: classes, wirerate's tcp counters from its --json results, the kernel's from nstat, and
doc/tcp.md's payload pattern computed here, not by wirerate's code."""

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import unittest

from wrtest import WIRERATE, EalCase, kill, wait_for

HERE = os.path.dirname(os.path.abspath(__file__))
SCAPY_PYTHON = "/usr/bin/python3"

# doc/tcp.md's pattern: byte i of a stream is i % 251 (a prime, so that no power-of-two
# segment or body size lines up with it).
_PERIOD = bytes(range(251))


def pattern(n, off=0):
    """The @n bytes the pattern has at stream offset @off.. (doc/tcp.md)."""
    start = off % 251
    reps = (start + n) // 251 + 1
    return (_PERIOD * reps)[start:start + n]


def pattern_sha256(n, off=0):
    h = hashlib.sha256()
    step = 251 * 4096
    done = 0
    while done < n:
        k = min(step, n - done)
        h.update(pattern(k, off + done))
        done += k
    return h.hexdigest()


def file_sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def find_tcp(results):
    """The tcp part of wirerate's --json results (its "tcp" member), or fail."""
    t = results.get("tcp")
    if t is None:
        raise AssertionError("no tcp member in the results: " + json.dumps(results)[:2000])
    return t


def _walk(o):
    yield o
    if isinstance(o, dict):
        for v in o.values():
            yield from _walk(v)
    elif isinstance(o, list):
        for v in o:
            yield from _walk(v)


def class_counters(results, name, side):
    """Class @name's counters of @side ("client" or "server") summed over its ports, from the
    results' tcp member: a class entry (a dict with "name": @name or "class": @name) holding
    its sides, each a dict of counters (wr_tcp_counters_each's names), directly or under
    "counters"."""
    t = find_tcp(results)
    for d in _walk(t):
        if not isinstance(d, dict) or name not in (d.get("name"), d.get("class")):
            continue
        s = d.get(side)
        if isinstance(s, dict):
            c = s.get("counters", s)
            if "attempted" in c:
                return c
    raise AssertionError(f"no {side} counters of class {name} in "
                         + json.dumps(t)[:3000])


def port_counters(results, port=0):
    """The engine's own counters of @port (struct wr_tcp_port_counters' names)."""
    t = find_tcp(results)
    found = [d for d in _walk(t) if isinstance(d, dict) and "rx_no_conn" in d]
    for d in found:
        if d.get("port", port) == port:
            return d
    for d in _walk(t):
        if isinstance(d, dict) and isinstance(d.get("counters"), dict) and \
                "rx_no_conn" in d["counters"] and d.get("port", port) == port:
            return d["counters"]
    raise AssertionError("no port counters in " + json.dumps(t)[:3000])


def hosts_yaml(mac, addr, prefix=16, count=1, name="w"):
    return f"""  - name: {name}
    port: 0
    count: {count}
    mac: "{mac}"
    ipv4: {{addr: {addr}, prefix: {prefix}}}
"""


@unittest.skipUnless(os.geteuid() == 0, "needs root for a network namespace")
class TcpNsCase(EalCase):
    """wirerate (net_af_packet on gen_if) and the kernel (k_if, K4) in a namespace named "pr..."
    of the test's; with IMPAIR (wrimpair.py's options) a bridge stands between them: gen_if's
    peer m_g and k_if's peer m_k, both in the namespace, frames carried by wrimpair.py."""

    K4 = "10.77.0.1"
    W4 = "10.77.1.1"
    W_MAC = "02:77:00:00:01:01"
    IMPAIR = None
    TAG = "pr"

    def setUp(self):
        super().setUp()
        for tool in ("ip", "ethtool", "nstat", "tcpdump"):
            if shutil.which(tool) is None:
                self.fail(f"{tool} is needed (tools/lib/common.sh's wr_install)")
        tag = f"{self.TAG}{os.getpid() % 100000}"
        self.ns = tag
        self.gen_if, self.k_if = f"{tag}g", f"{tag}k"
        self.prefix = f"{tag}eal"
        self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", self.prefix), True)
        subprocess.run(["ip", "netns", "del", self.ns], capture_output=True)
        self.sh("ip", "netns", "add", self.ns)
        self.addCleanup(subprocess.run, ["ip", "netns", "del", self.ns], capture_output=True)
        self.nsx("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
                 "net.ipv6.conf.default.disable_ipv6=1")
        self.ip("link", "set", "lo", "up")
        links = []
        if self.IMPAIR is None:
            self.ip("link", "add", self.gen_if, "type", "veth", "peer", "name", self.k_if)
            links = [self.gen_if, self.k_if]
            self.cap_if = self.k_if
        else:
            self.m_g, self.m_k = f"{tag}a", f"{tag}b"
            self.ip("link", "add", self.gen_if, "type", "veth", "peer", "name", self.m_g)
            self.ip("link", "add", self.m_k, "type", "veth", "peer", "name", self.k_if)
            links = [self.gen_if, self.m_g, self.m_k, self.k_if]
            # wirerate's side of the impairment: every frame it sends, before any is lost.
            self.cap_if = self.m_g
        for ifc in links:
            self.ip("link", "set", ifc, "up")
            # Whole frames of at most the MTU, full checksums: af_packet would otherwise see
            # the kernel's partial checksums (TESTBED.md) and its 64 KB GSO frames.
            self.nsx("ethtool", "-K", ifc, "tx", "off", "tso", "off", "gso", "off", "gro",
                     "off", check=False)
        self.ip("addr", "add", self.K4 + "/16", "dev", self.k_if)
        self.k_mac = json.loads(self.sh("ip", "-n", self.ns, "-j", "link", "show",
                                        self.k_if))[0]["address"]
        if self.IMPAIR is not None:
            self.impair = self.start_impair(self.IMPAIR)

    def start_impair(self, opts):
        ready = self.path("impair.ready")
        argv = ["ip", "netns", "exec", self.ns, SCAPY_PYTHON, os.path.join(HERE, "wrimpair.py"),
                self.m_g, self.m_k, "--ready", ready, *opts]
        return self.peer("wrimpair", argv, ready=lambda: os.path.exists(ready),
                         stdout=subprocess.PIPE, text=True)

    def impair_stats(self):
        p = self.impair
        p.stopped = True
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=10)
        return json.loads(out)

    # --- shell --------------------------------------------------------------------------
    def sh(self, *cmd, check=True, timeout=60):
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        if check and p.returncode != 0:
            self.fail(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr}")
        return p.stdout

    def ip(self, *args):
        return self.sh("ip", "-n", self.ns, *args)

    def nsx(self, *cmd, check=True, timeout=60):
        return self.sh("ip", "netns", "exec", self.ns, *cmd, check=check, timeout=timeout)

    def nsrun(self, *cmd, timeout=60, **kw):
        """A command in the namespace: its CompletedProcess."""
        return subprocess.run(["ip", "netns", "exec", self.ns, *cmd], capture_output=True,
                              timeout=timeout, **kw)

    def nstat(self):
        """The namespace's kernel TCP counters now (absolute, nstat's history untouched)."""
        out = self.nsx("nstat", "-asz", "--json", "TcpPassiveOpens", "TcpActiveOpens",
                       "TcpEstabResets", "TcpOutRsts", "TcpAttemptFails", "TcpRetransSegs",
                       "TcpExtListenDrops")
        return json.loads(out)["kernel"]

    def ss_tcp(self):
        """`ss -s`'s TCP line in the namespace: {"estab": E, "closed": C, "orphaned": O,
        "timewait": T}."""
        import re
        out = self.nsx("ss", "-s")
        m = re.search(r"^TCP:\s+\d+ \(estab (\d+), closed (\d+), orphaned (\d+), "
                      r"timewait (\d+)\)", out, re.M)
        self.assertIsNotNone(m, out)
        return dict(zip(("estab", "closed", "orphaned", "timewait"), map(int, m.groups())))

    @staticmethod
    def delta(a, b):
        return {k: b.get(k, 0) - a.get(k, 0) for k in b}

    def capture(self, name, bpf="tcp", ifc=None):
        """tcpdump on @ifc (default: wirerate's side of the link) into the test's @name."""
        pcap = self.path(name)
        dump = self.peer("tcpdump", ["ip", "netns", "exec", self.ns, "tcpdump", "-i",
                                     ifc or self.cap_if, "-n", "-U", "--immediate-mode", "-B", "8192",
                                     "-w", pcap, bpf], stdout=subprocess.DEVNULL)
        self.assertTrue(wait_for(lambda: "listening" in dump.log(), 10), dump.log())
        return dump, pcap

    def stop_capture(self, dump):
        time.sleep(0.3)
        kill(dump)
        # tcpdump's own count of what the kernel dropped for it: a capture with drops
        # cannot be compared frame by frame.
        m = [ln for ln in dump.log().splitlines() if "dropped by kernel" in ln]
        if m:
            self.assertTrue(m[0].startswith("0 "), dump.log())

    # --- wirerate -----------------------------------------------------------------------
    def profile(self):
        # Main lcore on CPU 0 (sleeping), the port's lcore busy on CPU 1: the kernel's peers
        # run on CPU 0 beside it (TESTBED.md).
        return self.write("prof.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={self.prefix}", "--vdev=net_af_packet0,iface={self.gen_if}", "--lcores=0@0,1@1"]
ports:
  - device: net_af_packet0
    tx_lcores: [1]
""")

    def stream_file(self, classes, name="s.yaml", hosts=None):
        """A stream file of wirerate's host (W4, W_MAC) and @classes (the tcp: list's YAML)."""
        return self.write(name, "version: 1\nhosts:\n"
                          + (hosts or hosts_yaml(self.W_MAC, self.W4)) + "tcp:\n" + classes)

    def run_wr(self, sf, *args, timeout=120, check=0):
        """wirerate run @sf in the namespace to its end; (CompletedProcess, results)."""
        out = self.path("r.json")
        if os.path.exists(out):
            os.unlink(out)
        t0 = time.monotonic()
        p = subprocess.run(["ip", "netns", "exec", self.ns, WIRERATE, "run", sf, "--config",
                            self.profile(), "--json", out, *args], cwd=self.tmp,
                           capture_output=True, text=True, timeout=timeout)
        p.took = time.monotonic() - t0
        if check is not None and p.returncode != check:
            self.fail(f"wirerate run exited {p.returncode}\nstdout:\n{p.stdout[-4000:]}\n"
                      f"stderr:\n{p.stderr[-4000:]}")
        res = None
        if os.path.exists(out):
            with open(out) as f:
                res = json.load(f)
        return p, res

    def start_wr(self, sf, *args, duration=60):
        """wirerate run @sf in the background (its servers up once the header line came)."""
        self.json_path = self.path("bg.json")
        gen = self.peer("wirerate", ["ip", "netns", "exec", self.ns, WIRERATE, "run", sf,
                                     "--config", self.profile(), "--duration", str(duration),
                                     "--json", self.json_path, *args],
                        stdout=subprocess.PIPE, text=True, cwd=self.tmp)
        line = gen.stdout.readline()
        self.assertTrue(line, gen.log())
        # The hosts answer ARP from here; the kernel learns our MAC from its own request.
        self.ip("neigh", "replace", self.W4, "lladdr", self.W_MAC, "dev", self.k_if)
        return gen

    def stop_wr(self, gen):
        """SIGINT to a background run; its stdout and results."""
        gen.stopped = True
        gen.send_signal(signal.SIGINT)
        out, _ = gen.communicate(timeout=60)
        self.assertIn(gen.returncode, (0,), gen.log() + out[-3000:])
        with open(self.json_path) as f:
            return out, json.load(f)


def say(*a):
    print(*a, file=sys.stderr, flush=True)


def all_sides(results):
    """(class, side, counters) of every side every class has in the results."""
    out = []
    for cl in find_tcp(results).get("classes", []):
        for side in ("client", "server"):
            s = cl.get(side)
            if isinstance(s, dict):
                out.append((cl.get("name"), side, s.get("counters", s)))
    return out
