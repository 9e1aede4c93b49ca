# SPDX-License-Identifier: BSD-3-Clause
"""The OTG endpoints' own rules (lib/ctl/server/wr_server_otg*.c, doc/otg.md "Endpoints"),
driven by snappi 1.61.0 over a memif pair inside one server: who owns what a config names
(a JSON-RPC client's port refuses the config, the old one stays loaded), each flow's transmit
state through start/pause/resume/stop (a flow started while another runs restarts the run),
final counts after a stop, captures answered as pcap or pcapng (read by capinfos and tshark),
and each refusal's status and JSON path (raw HTTP with urllib: snappi hides the status)."""

import json
import os
import subprocess
import time
import unittest
import urllib.error
import urllib.request

from otg_util import OTG_PORT, OtgCase, decode, snappi
from wrtest import wait_for

MAC_A = "02:00:00:04:00:01"
MAC_B = "02:00:00:04:00:02"


class Handlers(OtgCase):

    def setUp(self):
        super().setUp()
        self.api = self.serve_memif()

    def config(self, flows=("a",), pps=1000, packets=None, size=128, capture=None):
        c = self.api.config()
        c.ports.port(name="p1", location="0").port(name="p2", location="net_memif1")
        for i, name in enumerate(flows):
            f = c.flows.flow(name=name)[-1]
            f.tx_rx.port.tx_name, f.tx_rx.port.rx_names = "p1", ["p2"]
            f.size.fixed, f.rate.pps = size, pps
            if packets:
                f.duration.fixed_packets.packets = packets
            else:
                f.duration.continuous.gap = 12
            f.metrics.enable = True
            eth, ip, udp = f.packet.ethernet().ipv4().udp()
            eth.src.value, eth.dst.value = MAC_A, MAC_B
            ip.src.value, ip.dst.value = "198.18.4.1", "198.19.4.1"
            udp.src_port.value, udp.dst_port.value = 4000, 4100 + i
        if capture:
            cap = c.captures.capture(name="cap")[-1]
            cap.port_names = ["p2"]
            cap.format = capture
        return c

    def transmit(self, state, names=()):
        cs = self.api.control_state()
        cs.traffic.flow_transmit.state = state
        cs.traffic.flow_transmit.flow_names = list(names)
        self.api.set_control_state(cs)

    def flows(self):
        mr = self.api.metrics_request()
        mr.flow.flow_names = []
        return {m.name: m for m in self.api.get_metrics(mr).flow_metrics}

    def http(self, method, path, body=None):
        """(status, JSON answer) of one raw request."""
        req = urllib.request.Request(f"http://127.0.0.1:{OTG_PORT}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def test_owner_refuses_and_old_config_stays(self):
        """Port 1 taken by a JSON-RPC session: the config is 409 with that owner named,
        and the config in force (and its stream on the server) is still the first."""
        self.api.set_config(self.config(flows=("a",)))
        loaded = [s["name"] for s in self.rpc.streams()]
        self.assertEqual(len(loaded), 1)
        other = __import__("wirerate").Client(self.rpc_sock).connect()
        self.addCleanup(other.close)
        with self.assertRaises(Exception):
            other.acquire([1])             # the OTG session has it
        who = other.acquire([1], force=True)["session"]
        st, err = self.http("POST", "/config", json.loads(self.config(flows=("b",)).serialize()))
        self.assertEqual(st, 409, err)
        self.assertEqual(err["kind"], "validation")
        self.assertEqual(len(err["errors"]), 1)
        self.assertEqual(err["errors"][0], f'this server: ports.acquire: port 1 is owned by '
                         f'session "{who}" (force: true takes it over)')
        self.assertEqual([f.name for f in self.api.get_config().flows], ["a"])
        self.assertEqual([s["name"] for s in self.rpc.streams()], loaded)
        other.release([1])
        self.api.set_config(self.config(flows=("b",)))
        self.assertNotEqual([s["name"] for s in self.rpc.streams()], loaded)

    def test_transmit_states(self):
        """a alone; b started (the run restarts with both, a's counts going on); a paused (its frames stop while
        b's go on); resumed; b stopped alone (a goes on); all stopped: every frame sent
        came back, counted exactly."""
        self.api.set_config(self.config(flows=("a", "b"), pps=2000))
        self.transmit("start", ["a"])
        time.sleep(0.3)
        m = self.flows()
        self.assertEqual((m["a"].transmit, m["b"].transmit), ("started", "stopped"))
        self.assertGreater(m["a"].frames_tx, 0)
        self.assertEqual(m["b"].frames_tx, 0)
        before = m["a"].frames_tx
        self.transmit("start", ["b"])
        time.sleep(0.3)
        m = self.flows()
        self.assertEqual((m["a"].transmit, m["b"].transmit), ("started", "started"))
        # The server restarted its run for b: a's counts go on from where they were.
        self.assertGreater(m["a"].frames_tx, before + 400)
        self.transmit("pause", ["a"])
        m1 = self.flows()
        time.sleep(0.5)
        m2 = self.flows()
        self.assertEqual(m2["a"].transmit, "paused")
        self.assertEqual(m2["a"].frames_tx, m1["a"].frames_tx)
        # 0.5 s at 2,000 pps: about 1,000 more of b's (the lcore's schedule, +-20 %).
        self.assertGreater(m2["b"].frames_tx - m1["b"].frames_tx, 800)
        self.transmit("resume", ["a"])
        time.sleep(0.3)
        self.assertGreater(self.flows()["a"].frames_tx, m2["a"].frames_tx + 400)
        self.transmit("stop", ["b"])
        m1 = self.flows()
        time.sleep(0.3)
        m2 = self.flows()
        self.assertEqual((m2["a"].transmit, m2["b"].transmit), ("started", "stopped"))
        self.assertEqual(m2["b"].frames_tx, m1["b"].frames_tx)
        self.assertGreater(m2["a"].frames_tx, m1["a"].frames_tx + 400)
        self.transmit("stop")
        m = self.flows()                   # answered after the drain: final
        for name in ("a", "b"):
            self.assertEqual(m[name].transmit, "stopped")
            self.assertEqual(m[name].frames_rx, m[name].frames_tx, name)
            self.assertEqual(m[name].bytes_rx, m[name].frames_tx * 128, name)
            self.assertEqual(m[name].loss, 0)

    def capture_of(self, fmt, n=300):
        self.api.set_config(self.config(packets=n, pps=3000, capture=fmt))
        cs = self.api.control_state()
        cs.port.capture.port_names = ["p2"]
        cs.port.capture.state = "start"
        self.api.set_control_state(cs)
        self.transmit("start")
        self.assertTrue(wait_for(lambda: self.flows()["a"].transmit == "stopped", 10, 0.1))
        cr = self.api.capture_request()
        cr.port_name = "p2"
        path = self.path(f"p2.{fmt}")
        with open(path, "wb") as f:
            f.write(self.api.get_capture(cr).read())
        return path

    def test_capture_pcap_and_pcapng(self):
        """The same 300 frames as pcap (nanosecond stamps) and as pcapng, as capinfos and
        tshark read them: every frame 124 bytes (128 with the FCS the wire does not keep),
        UDP checksums good."""
        for fmt, kind in (("pcap", "nsecpcap"), ("pcapng", "pcapng")):
            path = self.capture_of(fmt)
            info = subprocess.run(["capinfos", "-t", "-c", "-M", path], capture_output=True,
                                  text=True, check=True).stdout
            self.assertRegex(info, rf"File type:\s+{kind}\n")
            self.assertRegex(info, r"Number of packets:\s+300\b")
            rows = decode(path, ["frame.len", "udp.dstport", "udp.checksum.status"])
            self.assertEqual(len(rows), 300)
            self.assertEqual({tuple(r) for r in rows}, {("124", "4100", "1")})

    def test_refusals_by_status_and_path(self):
        """404 for an unknown path and unknown names, 405 for a method an endpoint lacks,
        409 for what needs a config or a capture first, 400 with the member's path."""
        st, err = self.http("POST", "/monitor/metrics", {"choice": "flow"})
        self.assertEqual((st, err["errors"]), (409, ["no config: POST /config first"]))
        self.api.set_config(self.config())
        cases = [
            # (A path outside the model's prefixes is the web console's.)
            ("POST", "/monitor/nothing", {}, 404,
             "/monitor/nothing: no such OTG endpoint (model 1.61.0)"),
            ("DELETE", "/config", None, 405, "DELETE /config: not a method of this endpoint"),
            ("POST", "/monitor/metrics", {"choice": "flow", "flow": {"flow_names": ["zz"]}},
             404, 'flow.flow_names[0]: no flow named "zz" in the config'),
            ("POST", "/control/state", {"choice": "traffic", "traffic": {
                "choice": "flow_transmit", "flow_transmit": {"state": "start",
                                                             "flow_names": ["a", "zz"]}}},
             404, 'traffic.flow_transmit.flow_names[1]: no flow named "zz" in the config'),
            ("POST", "/monitor/capture", {"port_name": "p2"}, 409,
             'port_name: port "p2" has no capture: control/state port capture start first'),
            ("POST", "/control/action", {"choice": "protocol", "protocol": {
                "choice": "ipv4", "ipv4": {"choice": "ping", "ping": {}}}}, 400,
             "protocol.ipv4: not supported: wirerate's devices answer pings and ARP/ND "
             "(resolved at every start) but send no pings"),
            ("POST", "/control/state", {"choice": "port", "port": {"choice": "link", "link": {
                "port_names": ["p1"], "state": "down"}}}, 400,
             'port.link (port "p1"): the device (net_memif) cannot set its link down: '
             "Operation not supported"),
        ]
        for method, path, body, status, msg in cases:
            st, err = self.http(method, path, body)
            self.assertEqual((st, err["code"], err["errors"]), (status, status, [msg]), path)
        # Nothing of that moved the config or the server.
        self.assertEqual([f.name for f in self.api.get_config().flows], ["a"])
        self.assertEqual(self.http("GET", "/capabilities/version")[1]["api_spec_version"],
                         "1.61.0")


class OwnerTimeout(OtgCase):
    """The OTG client's connections all closed past --owner-timeout: the server released
    its ports (the JSON-RPC rule); the next control/state takes them back."""

    def test_ports_taken_back(self):
        rundir = self.path("run")
        os.makedirs(rundir, mode=0o700)
        sock = os.path.join(rundir, "memif.sock")
        self.api = self.serve(
            [f"net_memif0,role=server,socket={sock},socket-abstract=no,rsize=14",
             f"net_memif1,role=client,socket={sock},socket-abstract=no,rsize=14"],
            ["net_memif0", "net_memif1"], extra=["--owner-timeout", "0.5"])
        self.api.set_config(Handlers.config(self, packets=100, pps=1000))
        self.assertEqual([p["owner"] for p in self.rpc.ports()], ["otg", "otg"])
        self.api._transport._session.close()      # snappi's keep-alive connection
        self.assertTrue(wait_for(lambda: [p["owner"] for p in self.rpc.ports()] ==
                                 [None, None], 5, 0.1), self.rpc.ports())
        api = snappi.api(location=f"{self.SCHEME}://127.0.0.1:{OTG_PORT}", verify=False)
        cs = api.control_state()
        cs.traffic.flow_transmit.state = "start"
        api.set_control_state(cs)
        self.assertEqual([p["owner"] for p in self.rpc.ports()], ["otg", "otg"])
        mr = api.metrics_request()
        mr.flow.flow_names = ["a"]
        self.assertTrue(wait_for(lambda: api.get_metrics(mr).flow_metrics[0].frames_rx == 100,
                                 10, 0.1))
        self.assertEqual(api.get_metrics(mr).flow_metrics[0].frames_tx, 100)


if __name__ == "__main__":
    unittest.main()
