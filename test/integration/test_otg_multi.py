# SPDX-License-Identifier: BSD-3-Clause
"""One OTG config across three servers (issue 35, "Beyond one machine"): three `wirerate serve`
in network namespaces of their own, their ports af_packet on veth pairs that join the
namespaces in a triangle (A-B, B-C, C-A), their JSON-RPC TCP APIs on a control network (a
bridge in a fourth namespace).  snappi talks to A only; A's config names B's and C's ports by
HOST:PORT/INDEX.  Every flow is sent by one server and received by another: its frames must be
counted exactly where they arrive (the signature's stream index means the same flow on every
server), and the three servers must start at one instant (start_at on their clocks)."""

import os
import shutil
import subprocess
import sys
import time
import unittest

from wrtest import ROOT, WIRERATE, EalCase, kill, wait_for
from otg_util import decode, import_snappi, setns, sh, _libc, _CLONE_NEWNET

sys.path.insert(0, os.path.join(ROOT, "python"))
import wirerate  # noqa: E402

snappi = import_snappi()

OTG_PORT = 8443
RPC_PORT = 4600
TOKEN = "multi-test-token-0123456789abcdef"
# Low rates: three servers' busy-polling lcores share two CPUs (TESTBED.md); af_packet's
# ring holds what a descheduled poller has not taken yet.
RATE_PPS = 2000
# (name, tx server/port, rx server/port, frames, size): each a different count, so a frame
# counted on the wrong flow shows.
FLOWS = [("ab", ("a", 0), ("b", 0), 1000, 128),
         ("cb", ("c", 0), ("b", 1), 1200, 256),
         ("ca", ("c", 1), ("a", 1), 1400, 192),
         ("ba", ("b", 0), ("a", 0), 800, 128)]
# Control address, CPU of the lcores; B's port 1 has a second TX lcore (on the other CPU):
# two lanes, so a flow it sends to a port of one lane is refused (test_refused_configs).
SERVERS = {"a": ("10.66.6.1", 0), "b": ("10.66.6.2", 1), "c": ("10.66.6.3", 1)}
LANES = {("b", 1): 2}


class ThreeServers(EalCase):
    def setUp(self):
        super().setUp()
        if os.geteuid() != 0:
            self.skipTest("needs root for network namespaces")
        if snappi is None:
            msg = "no snappi (tools/otg/.venv: tools/lib/common.sh's wr_install)"
            if os.environ.get("WR_REQUIRE_EAL") == "1":
                self.fail(msg)
            self.skipTest(msg)
        tag = f"{os.getpid() % 100000}"
        self.tag = tag
        self.ns = {k: f"multi{tag}{k}" for k in ("a", "b", "c", "h")}
        for ns in self.ns.values():
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
            sh("ip", "netns", "add", ns)
            self.addCleanup(subprocess.run, ["ip", "netns", "del", ns], capture_output=True)
            sh("ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
               "net.ipv6.conf.default.disable_ipv6=1")
            sh("ip", "-n", ns, "link", "set", "lo", "up")
        # The control network: each server's ctl veth on a bridge in the hub namespace.
        hub = self.ns["h"]
        sh("ip", "-n", hub, "link", "add", "br0", "type", "bridge")
        sh("ip", "-n", hub, "link", "set", "br0", "up")
        for k, (addr, _) in SERVERS.items():
            ctl, far = f"m{tag}{k}c", f"m{tag}{k}h"
            sh("ip", "link", "add", ctl, "netns", self.ns[k], "type", "veth", "peer", "name",
               far, "netns", hub)
            sh("ip", "-n", hub, "link", "set", far, "master", "br0", "up")
            sh("ip", "-n", self.ns[k], "addr", "add", f"{addr}/24", "dev", ctl)
            sh("ip", "-n", self.ns[k], "link", "set", ctl, "up")
        # The data wires: A.0-B.0, B.1-C.0, C.1-A.1, each end in its server's namespace.
        self.ifs = {}
        for (x, px), (y, py) in ((("a", 0), ("b", 0)), (("b", 1), ("c", 0)),
                                 (("c", 1), ("a", 1))):
            ix, iy = f"m{tag}{x}{px}", f"m{tag}{y}{py}"
            sh("ip", "link", "add", ix, "netns", self.ns[x], "type", "veth", "peer", "name",
               iy, "netns", self.ns[y])
            sh("ip", "-n", self.ns[x], "link", "set", ix, "up")
            sh("ip", "-n", self.ns[y], "link", "set", iy, "up")
            self.ifs[(x, px)], self.ifs[(y, py)] = ix, iy
        self.token = self.write("token", TOKEN + "\n")
        os.chmod(self.token, 0o600)
        self.rpc = {}
        for k in ("b", "c", "a"):  # A last: its config reaches the others
            self.serve(k)
        # snappi from inside A's namespace: the OTG listener is A's loopback.
        home = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
        self.addCleanup(os.close, home)
        self.addCleanup(self._go_home, home)
        setns(f"/run/netns/{self.ns['a']}")
        self.api = snappi.api(location=f"http://127.0.0.1:{OTG_PORT}", verify=False)

    @staticmethod
    def _go_home(fd):
        if _libc.setns(fd, _CLONE_NEWNET) != 0:
            raise OSError("setns back to the test's namespace")

    def serve(self, k):
        addr, cpu = SERVERS[k]
        prefix = f"multi{self.tag}{k}"
        self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", prefix), True)
        ifs = [self.ifs[(k, 0)], self.ifs[(k, 1)]]
        lcores = f"0@{cpu},1@{cpu}" + (f",2@{1 - cpu}" if k == "b" else "")
        eal = ["--no-pci", "--in-memory", f"--file-prefix={prefix}", f"--lcores={lcores}"]
        # framecnt: the socket's ring holds 4,096 frames (2 s at RATE_PPS) for a poller the
        # scheduler keeps off its CPU, not the default 512 (256 ms): in one fresh-clone CI
        # run, beside two busy loops and another test's pollers, 'ca' received 1,350 of 1,400.
        eal += [f"--vdev=net_af_packet{i},iface={ifc},qpairs={LANES.get((k, i), 1)},"
                "framecnt=4096" for i, ifc in enumerate(ifs)]
        ports = "".join(f"  - device: net_af_packet{i}\n"
                        f"    tx_lcores: {[1, 2][:LANES.get((k, i), 1)]}\n    rx_lcore: 1\n"
                        for i in range(2))
        prof = self.write(f"{k}.yaml", "version: 1\neal: [" +
                          ", ".join(f'"{a}"' for a in eal) + "]\nports:\n" + ports)
        argv = ["ip", "netns", "exec", self.ns[k], WIRERATE, "serve", "--config", prof,
                "--socket", self.path(f"{k}.sock"), "--listen", f"{addr}:{RPC_PORT}",
                "--token-file", self.token]
        if k == "a":
            argv += ["--otg", f"http://127.0.0.1:{OTG_PORT}"]


        # The test's thread is still in the root namespace: reach the server over its Unix
        # socket, which every namespace shares.
        self.peer(f"serve-{k}", argv, ready=lambda: os.path.exists(self.path(f"{k}.sock")),
                  timeout=30, cwd=self.tmp)
        c = wirerate.Client(self.path(f"{k}.sock")).connect()
        self.addCleanup(c.close)
        self.assertTrue(wait_for(lambda: all(p["link_up"] for p in c.ports()), 20, 0.1),
                        f"{k}: links not up: {c.ports()}")
        self.rpc[k] = c

    def location(self, srv, port):
        """A's ports by their interface, the others' as HOST:PORT/INDEX."""
        if srv == "a":
            return self.ifs[("a", port)]
        return f"{SERVERS[srv][0]}:{RPC_PORT}/{port}"

    def config(self):
        cfg = self.api.config()
        for srv in ("a", "b", "c"):
            for port in (0, 1):
                cfg.ports.port(name=f"{srv}{port}", location=self.location(srv, port))
        for i, (name, (ts, tp), (rs, rp), frames, size) in enumerate(FLOWS):
            f = cfg.flows.flow(name=name)[-1]
            f.tx_rx.port.tx_name = f"{ts}{tp}"
            f.tx_rx.port.rx_names = [f"{rs}{rp}"]
            eth, ip, udp = f.packet.ethernet().ipv4().udp()
            eth.src.value = f"02:00:00:00:0{i}:01"
            eth.dst.value = f"02:00:00:00:0{i}:02"
            ip.src.value = f"198.18.{i}.1"
            ip.dst.value = f"198.19.{i}.1"
            udp.src_port.value = 1024 + i
            udp.dst_port.value = 2048 + i
            f.size.fixed = size
            f.rate.pps = RATE_PPS
            f.duration.fixed_packets.packets = frames
            f.metrics.enable = True
            f.metrics.loss = True
        return cfg

    def flow_metrics(self):
        req = self.api.metrics_request()
        req.flow.flow_names = [f[0] for f in FLOWS]
        return {m.name: m for m in self.api.get_metrics(req).flow_metrics}

    def test_one_config_three_servers(self):
        self.api.set_config(self.config())
        # Each server holds every flow's stream, in the config's order (a signature's
        # stream index is one flow everywhere).
        for k, c in self.rpc.items():
            self.assertEqual([(s["index"], s["name"].split("-", 1)[1])
                              for s in c.call("streams.list")["streams"]],
                             [(i, f[0]) for i, f in enumerate(FLOWS)], k)
        cs = self.api.control_state()
        cs.traffic.flow_transmit.state = cs.traffic.flow_transmit.START
        self.api.set_control_state(cs)
        want = {f[0]: f[3] for f in FLOWS}
        done = wait_for(lambda: all(m.frames_rx == want[n] and m.frames_tx == want[n]
                                    for n, m in self.flow_metrics().items()), 30, 0.25)
        got = self.flow_metrics()
        self.assertTrue(done, {n: (m.frames_tx, m.frames_rx) for n, m in got.items()})
        # Nothing more comes: the counts stay exact, on the server each flow arrives at.
        time.sleep(0.5)
        stats = {k: c.stats() for k, c in self.rpc.items()}
        for name, (ts, tp), (rs, rp), frames, size in FLOWS:
            m = got[name]
            self.assertEqual((m.frames_tx, m.frames_rx), (frames, frames), name)
            self.assertEqual(m.bytes_tx, frames * size, name)
            self.assertEqual(m.bytes_rx, frames * size, name)
            self.assertEqual(m.loss, 0, name)
            for k, st in stats.items():
                row = next(r for r in st["streams"] if r["name"].endswith("-" + name))
                self.assertEqual(row["tx_pkts"], frames if k == ts else 0, (name, k))
                self.assertEqual(row["rx_pkts"], frames if k == rs else 0, (name, k))
        # One instant on three clocks: each server was given start_at in its own clock (ours
        # + the offset measured from server.info round trips).  Namespaces share one
        # CLOCK_REALTIME, so the instants asked must agree to within the offsets' error
        # (half a round trip: tens of microseconds here).
        asked = {k: st["tx_scheduled_at"] for k, st in stats.items()}
        late = {k: st["tx_late_ns"] for k, st in stats.items()}
        spread = max(asked.values()) - min(asked.values())
        print(f"\nstart_at on three servers within {spread * 1e6:.1f} us "
              f"({ {k: round((v - min(asked.values())) * 1e6, 1) for k, v in asked.items()} } "
              f"us); first frames after it: { {k: round(v / 1e3) for k, v in late.items()} } us")
        self.assertLess(spread, 0.001, asked)
        # The first frame leaves when the TX lcore has its CPU: here three busy-polling
        # lcores share two CPUs, so one may wait for a time slice of the kernel's
        # scheduler (issue 31: 3.6-6.7 ms for one neighbour); the schedule's origin stays
        # start_at (doc/api.md, stats.get).
        for k, ns in late.items():
            self.assertGreaterEqual(ns, 0, k)
            self.assertLess(ns, 100e6, k)
        # Stopped everywhere by one request.
        cs = self.api.control_state()
        cs.traffic.flow_transmit.state = cs.traffic.flow_transmit.STOP
        self.api.set_control_state(cs)
        self.assertTrue(wait_for(lambda: all(c.call("server.info")["state"] == "done"
                                             for c in self.rpc.values()), 10, 0.1))
        for m in self.flow_metrics().values():
            self.assertEqual(m.transmit, "stopped", m.name)

    def test_captures_and_config_again(self):
        """A capture on another server's port and on A's, fetched through A; then the config
        set again (the remote sessions own the ports already) and run again, exact again."""
        cfg = self.config()
        for port in ("b0", "a1"):
            cfg.captures.capture(name=f"cap-{port}", port_names=[port])
        self.api.set_config(cfg)
        cs = self.api.control_state()
        cs.port.capture.port_names = ["b0", "a1"]
        cs.port.capture.state = cs.port.capture.START
        self.api.set_control_state(cs)
        self.run_all()
        # b0 receives flow ab (A -> B), a1 flow ca (C -> A): the captures hold exactly those
        # frames, whatever server they were taken on; tshark reads them.
        for port, flow in (("b0", "ab"), ("a1", "ca")):
            req = self.api.capture_request()
            req.port_name = port
            pcap = self.path(f"{port}.pcap")
            with open(pcap, "wb") as f:
                f.write(self.api.get_capture(req).read())
            i = next(i for i, fl in enumerate(FLOWS) if fl[0] == flow)
            rows = decode(pcap, ["frame.len", "udp.dstport", "ip.src"])
            self.assertEqual(len(rows), FLOWS[i][3], port)
            self.assertEqual({tuple(r) for r in rows},
                             {(str(FLOWS[i][4] - 4), str(2048 + i), f"198.18.{i}.1")}, port)
        self.stop_all()
        # The same config again: the remote ports are the controller's session's already.
        self.api.set_config(self.config())
        self.run_all()
        self.stop_all()
        # B restarted: A's connection to it is gone, and so is its session there (the
        # secret A holds names nothing); the next config opens it again, a new session.
        a = self.peers[2]
        kill(self.peers[0])
        self.rpc["b"].close()
        self.serve("b")
        self.api.set_config(self.config())
        self.run_all()
        self.stop_all()
        log = a.log(limit=1 << 20)
        for k, n in (("b", 2), ("c", 1)):
            self.assertEqual(log.count(f"OTG: server {SERVERS[k][0]}:{RPC_PORT}: logged in "
                                       f"as session otg-{a.pid}"), n, log)

    def run_all(self):
        cs = self.api.control_state()
        cs.traffic.flow_transmit.state = cs.traffic.flow_transmit.START
        self.api.set_control_state(cs)
        want = {f[0]: f[3] for f in FLOWS}
        done = wait_for(lambda: all(m.frames_rx == want[n] and m.frames_tx == want[n]
                                    for n, m in self.flow_metrics().items()), 30, 0.25)
        self.assertTrue(done, {n: (m.frames_tx, m.frames_rx)
                               for n, m in self.flow_metrics().items()})

    def stop_all(self):
        cs = self.api.control_state()
        cs.traffic.flow_transmit.state = cs.traffic.flow_transmit.STOP
        self.api.set_control_state(cs)
        self.assertTrue(wait_for(lambda: all(c.call("server.info")["state"] == "done"
                                             for c in self.rpc.values()), 10, 0.1))

    def test_refused_configs(self):
        """Configs another server makes wrong, each an OTG error by path, nothing set: a
        location whose server does not answer, a port it does not have, a flow whose
        receiving port has fewer lanes than its sender's."""
        cfg = self.config()
        cfg.ports[5].location = f"10.66.6.9:{RPC_PORT}/0"  # no such host on the bridge
        with self.assertRaises(Exception) as e:
            self.api.set_config(cfg)
        self.assertIn("ports[5].location", str(e.exception))
        self.assertEqual(self.rpc["b"].call("streams.list")["streams"], [])
        # A port the server there does not have: by path too.
        cfg = self.config()
        cfg.ports[3].location = f"{SERVERS['b'][0]}:{RPC_PORT}/7"
        with self.assertRaises(Exception) as e:
            self.api.set_config(cfg)
        self.assertIn(f"ports[3].location: {SERVERS['b'][0]}:{RPC_PORT} has 2 ports: no port 7",
                      str(e.exception))
        self.assertEqual(self.rpc["b"].call("streams.list")["streams"], [])
        # B's port 1 sends on two lanes; C's port 0 counts one.
        cfg = self.config()
        f = cfg.flows.flow(name="bc")[-1]
        f.tx_rx.port.tx_name = "b1"
        f.tx_rx.port.rx_names = ["c0"]
        f.packet.ethernet().ipv4().udp()
        f.metrics.enable = True
        with self.assertRaises(Exception) as e:
            self.api.set_config(cfg)
        self.assertIn(f"flows[{len(FLOWS)}].tx_rx: port c0 receives it on another server with "
                      "1 TX lcores, fewer than its sending port b1 has (2)",
                      " ".join(str(e.exception).split()))  # snappi folds long lines
        self.assertEqual(self.rpc["c"].call("streams.list")["streams"], [])


if __name__ == "__main__":
    unittest.main()
