# SPDX-License-Identifier: BSD-3-Clause
"""What the OTG tests (test_otg_*.py) share: snappi from tools/otg/.venv, a network namespace
of the test's own that the test's thread enters (so the server's loopback OTG listener, its
veths and the kernel's captures are all the test's, and no port number can collide), a
`wirerate serve --otg` on two ports back to back (a veth pair with af_packet, or a memif
pair), and tcpdump on the far side of a veth: the kernel's own timestamps and bytes."""

import ctypes
import glob
import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys

from wrtest import ROOT, WIRERATE, EalCase, wait_for

sys.path.insert(0, os.path.join(ROOT, "python"))
import wirerate  # noqa: E402

# tools/lib/common.sh's wr_otg_venv makes it (devtools/wr-test, tools/wr-setup).
OTG_VENV = os.environ.get("WR_OTG_VENV", os.path.join(ROOT, "tools", "otg", ".venv"))
# The server's OTG listener inside the test's namespace (ixia-c's port: nothing else
# listens there, the namespace is new).
OTG_PORT = 8443


def import_snappi():
    """snappi from OTG_VENV's site-packages (a venv of /usr/bin/python3, this Python's
    version), or None when it is not installed."""
    try:
        import snappi  # noqa: F401  (already importable: a venv's own Python)
        return snappi
    except ImportError:
        pass
    ver = f"python{sys.version_info.major}.{sys.version_info.minor}"
    sp = glob.glob(os.path.join(OTG_VENV, "lib", ver, "site-packages"))
    if not sp:
        return None
    import site
    site.addsitedir(sp[0])
    import snappi
    return snappi


snappi = import_snappi()

_libc = ctypes.CDLL(None, use_errno=True)
_CLONE_NEWNET = 0x40000000


def setns(path):
    """Move the calling thread (only it: setns(2) on a network namespace is per thread)
    into the network namespace at @path; what it starts later (subprocess) is there too."""
    fd = os.open(path, os.O_RDONLY)
    try:
        if _libc.setns(fd, _CLONE_NEWNET) != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"setns {path}: {os.strerror(err)}")
    finally:
        os.close(fd)


def sh(*cmd, timeout=30):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def kernel_counter(iface, name):
    """A kernel counter of @iface in this thread's namespace (/sys is mounted for the root
    namespace's: ip -s asks netlink)."""
    st = json.loads(sh("ip", "-s", "-j", "link", "show", iface))[0]["stats64"]
    rx, tx = st["rx"], st["tx"]
    return {"rx_packets": rx["packets"], "rx_bytes": rx["bytes"],
            "tx_packets": tx["packets"], "tx_bytes": tx["bytes"]}[name]


def decode(pcap, fields, display_filter=None):
    """tshark's fields of each frame of @pcap (-Y @display_filter), the IPv4, UDP, TCP and
    ICMPv6 checksums verified (their *.checksum.status: 1 good, 0 bad)."""
    cmd = ["tshark", "-n", "-r", pcap, "-o", "ip.check_checksum:TRUE",
           "-o", "udp.check_checksum:TRUE", "-o", "tcp.check_checksum:TRUE",
           "-T", "fields", "-E", "separator=\t"]
    if display_filter:
        cmd += ["-Y", display_filter]
    for f in fields:
        cmd += ["-e", f]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=120).stdout
    return [line.split("\t") for line in out.splitlines()]


class OtgCase(EalCase):
    """A test with its own namespace (entered by the test's thread), a server with --otg in
    it, and snappi.  Subclasses call serve_veth() or serve_memif()."""

    # http:// keeps the transport out of these tests (test_otg_tls.py tests TLS); a
    # lab's script differs only in the scheme (verify=False for the made certificate).
    SCHEME = os.environ.get("WR_OTG_SCHEME", "http")

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0:
            self.skipTest("needs root for a network namespace")
        if snappi is None:
            msg = (f"no snappi in {OTG_VENV} (tools/lib/common.sh's wr_otg_venv installs "
                   "tools/otg/requirements.txt)")
            if os.environ.get("WR_REQUIRE_EAL") == "1":
                self.fail(msg)
            self.skipTest(msg)
        for tool in ("ip", "tcpdump", "tshark"):
            if shutil.which(tool) is None:
                self.fail(f"{tool} is needed")
        # The whole PID (at most 7 digits: snp1234567a fits IFNAMSIZ), so that a
        # namespace tells whether its run is alive (drop_stale_namespaces).
        self.tag = str(os.getpid())
        self.ns = f"snappi{self.tag}"
        self.drop_stale_namespaces()
        subprocess.run(["ip", "netns", "del", self.ns], capture_output=True)
        sh("ip", "netns", "add", self.ns)
        self.addCleanup(subprocess.run, ["ip", "netns", "del", self.ns], capture_output=True)
        # Back to where the thread was before the namespace goes (LIFO: this runs first).
        home = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
        self.addCleanup(os.close, home)
        self.addCleanup(self._go_home, home)
        setns(f"/run/netns/{self.ns}")
        # Nothing of the kernel's own on the wires (no router solicitations, no DAD).
        sh("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
           "net.ipv6.conf.default.disable_ipv6=1")
        sh("ip", "link", "set", "lo", "up")
        self.server = None

    @staticmethod
    def drop_stale_namespaces():
        """Delete the namespaces of this module's runs that were killed before their
        cleanup (meson's timeout sends SIGTERM): snappiPID whose process is gone."""
        for line in sh("ip", "netns", "list").splitlines():
            name = line.split()[0] if line.split() else ""
            pid = name[len("snappi"):]
            if name.startswith("snappi") and pid.isdigit() and \
                    not os.path.exists(f"/proc/{pid}"):
                subprocess.run(["ip", "netns", "del", name], capture_output=True)

    @staticmethod
    def _go_home(fd):
        if _libc.setns(fd, _CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), "setns back to the test's namespace")

    # ---- the server ----

    def veth_pair(self, mtu=1500):
        """A veth pair in the namespace: (a, b), up."""
        a, b = f"snp{self.tag}a", f"snp{self.tag}b"
        sh("ip", "link", "add", a, "mtu", str(mtu), "type", "veth", "peer", "name", b,
           "mtu", str(mtu))
        for i in (a, b):
            sh("ip", "link", "set", i, "up")
        return a, b

    def serve(self, vdevs, devices, extra=()):
        """wirerate serve on @vdevs (EAL --vdev arguments; @devices their port names, in
        order), one TX+RX lcore on CPU 1, the OTG listener on 127.0.0.1:OTG_PORT; returns
        once it listens and every port's link is up."""
        prefix = f"snappi{self.tag}"
        self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", prefix), True)
        eal = ["--no-pci", "--in-memory", f"--file-prefix={prefix}", "--lcores=0@0,1@1"]
        eal += [f"--vdev={v}" for v in vdevs]
        ports = "".join(f"  - device: {d}\n    tx_lcores: [1]\n    rx_lcore: 1\n"
                        for d in devices)
        prof = self.write("serve.yaml", "version: 1\neal: " + json.dumps(eal) +
                          "\nports:\n" + ports + "settle_ms: 200\n")
        self.rpc_sock = self.path("rpc.sock")
        self.server = self.peer(
            "wirerate-serve",
            [WIRERATE, "serve", "--config", prof, "--socket", self.rpc_sock,
             "--otg", f"{self.SCHEME}://127.0.0.1:{OTG_PORT}", *extra],
            ready=self.otg_listening, timeout=30, cwd=self.tmp)
        # A viewer on the JSON-RPC socket (no ports acquired: the OTG client owns them).
        self.rpc = wirerate.Client(self.rpc_sock).connect()
        self.addCleanup(self.rpc.close)
        ok = wait_for(lambda: all(p["link_up"] for p in self.rpc.ports()), 20, 0.1)
        self.assertTrue(ok, f"links not up: {self.rpc.ports()}")
        self.api = snappi.api(location=f"{self.SCHEME}://127.0.0.1:{OTG_PORT}", verify=False,
                              loglevel=logging.ERROR)
        return self.api

    def otg_listening(self):
        try:
            with socket.create_connection(("127.0.0.1", OTG_PORT), timeout=0.5):
                return True
        except OSError:
            return False

    def serve_veth(self, mtu=1500):
        """Ports 0 and 1 on the two ends of one veth pair (net_af_packet): what port 0
        sends, the kernel hands to port 1 and to tcpdump on b.  Returns (api, a, b)."""
        a, b = self.veth_pair(mtu)
        api = self.serve([f"net_af_packet0,iface={a}", f"net_af_packet1,iface={b}"],
                         ["net_af_packet0", "net_af_packet1"])
        return api, a, b

    def serve_memif(self):
        """Ports 0 and 1 the two ends of a memif pair inside the server (config/2ports.yaml's
        wire).  Returns the api."""
        rundir = self.path("run")
        os.makedirs(rundir, mode=0o700)
        sock = os.path.join(rundir, "memif.sock")
        return self.serve([f"net_memif0,role=server,socket={sock},socket-abstract=no,rsize=14",
                           f"net_memif1,role=client,socket={sock},socket-abstract=no,rsize=14"],
                          ["net_memif0", "net_memif1"])

    def server_alive(self):
        """The server still runs and answers OTG (GET /capabilities/version)."""
        self.assertIsNone(self.server.poll(), self.server.log())
        v = self.api.get_version()
        self.assertEqual(v.api_spec_version, "1.61.0")

    # ---- snappi ----

    def otg_error(self, call, *args):
        """Run a snappi call that must be refused; return the OTG Error snappi raised."""
        with self.assertRaises(Exception) as cm:
            call(*args)
        err = cm.exception.args[0] if cm.exception.args else None
        self.assertIsInstance(err, snappi.Error,
                              f"snappi raised {cm.exception!r}, not the server's Error")
        return err

    def wait_flows(self, names, state="stopped", timeout=30, frames_rx=None):
        """Flow metrics once every flow of @names is @state (and, with @frames_rx a dict,
        has received that many: the far port's counters trail the near one's);
        {name: metric}."""
        req = self.api.metrics_request()
        req.flow.flow_names = list(names)
        last = {}

        def done():
            last.clear()
            for m in self.api.get_metrics(req).flow_metrics:
                last[m.name] = m
            return (set(last) == set(names) and
                    all(m.transmit == state for m in last.values()) and
                    all(last[n].frames_rx >= want for n, want in (frames_rx or {}).items()))
        ok = wait_for(done, timeout, 0.2)
        self.assertTrue(ok, {n: m.serialize(m.DICT) for n, m in last.items()})
        return dict(last)

    def port_metrics(self, names):
        req = self.api.metrics_request()
        req.port.port_names = list(names)
        return {m.name: m for m in self.api.get_metrics(req).port_metrics}

    def transmit(self, names, state):
        cs = self.api.control_state()
        cs.traffic.flow_transmit.flow_names = list(names)
        cs.traffic.flow_transmit.state = state
        return self.api.set_control_state(cs)

    # ---- the far side ----

    def tcpdump(self, iface, direction="in", name="far.pcap"):
        """tcpdump on @iface (nanosecond kernel stamps, what the kernel received there
        with @direction "in"); returns (proc, path): stop with stop_tcpdump()."""
        path = self.path(name)
        argv = ["tcpdump", "-n", "-i", iface, "-w", path, "-U", "--immediate-mode",
                "--time-stamp-precision=nano"]
        if direction:
            argv += ["-Q", direction]
        p = None

        def listening():
            return "listening on" in p.log()
        p = self.peer("tcpdump", argv)
        self.assertTrue(wait_for(lambda: listening() or p.poll() is not None, 10),
                        p.log())
        self.assertIsNone(p.poll(), p.log())
        return p, path

    def stop_tcpdump(self, p):
        p.stopped = True
        p.send_signal(signal.SIGINT)
        p.wait(timeout=10)
        return p.log()
