# SPDX-License-Identifier: BSD-3-Clause
"""wirerate serve --otg driven by snappi (PyPI, tools/otg/requirements.txt) exactly as a lab's
script drives an OTG implementation: configs built and read through snappi, two ports back to
back (a veth pair with af_packet, a memif pair).  Judged by what we did not write: tshark
decodes the far port's frames field by field (tcpdump on the veth, the kernel's stamps and
counters; OTG's own capture on memif), metrics must equal those counts exactly, bad configs
must come back as OTG's Error with each problem's JSON path while the old config stays."""

import ipaddress
import json
import statistics
import time
import unittest

from otg_util import OtgCase, decode, kernel_counter, snappi
from wrtest import pcap_records, wait_for

MAC_A = "02:00:00:07:00:01"
MAC_B = "02:00:00:07:00:02"


def mac_int(m):
    return int(m.replace(":", ""), 16)


def counter(start, step, count, n, dec=False):
    """What OTG's increment/decrement pattern gives n frames: start, start +/- step, ...,
    count values, then again from start (numbers; wrapping is the field's)."""
    return [start + (-1 if dec else 1) * (i % count) * step for i in range(n)]


def cycle(values, n):
    return [values[i % len(values)] for i in range(n)]


class Scenarios:
    """The tests both wires run; the subclass says how the far port's frames are read
    (far_config, far_begin, far_end) and what the ports' locations are."""

    N = 60                     # frames of a pattern flow: a multiple of every cycle below
    SIZE = 128

    def base_config(self, rate_pps=1000, packets=None, size=None, name="f1", metrics=True):
        """Ports p1 (TX) and p2 (RX) and one flow f1 p1 -> p2: ethernet, ipv4, udp."""
        c = self.api.config()
        c.ports.port(name="p1", location=self.LOC[0]).port(name="p2", location=self.LOC[1])
        f = c.flows.flow(name=name)[-1]
        f.tx_rx.port.tx_name = "p1"
        f.tx_rx.port.rx_names = ["p2"]
        f.size.fixed = size or self.SIZE
        f.rate.pps = rate_pps
        if packets:
            f.duration.fixed_packets.packets = packets
        else:
            f.duration.continuous.gap = 12
        f.metrics.enable = metrics
        f.metrics.loss = metrics
        eth, ip, udp = f.packet.ethernet().ipv4().udp()
        eth.src.value, eth.dst.value = MAC_A, MAC_B
        ip.src.value, ip.dst.value = "198.18.7.1", "198.19.7.1"
        udp.src_port.value, udp.dst_port.value = 1024, 1025
        return c

    # ---- field patterns on the wire ----

    def test_patterns_on_the_wire(self):
        """Every pattern (value, values, increment, decrement, random) on ethernet, vlan,
        ipv4, udp, ipv6 and tcp: the far port's frames, decoded by tshark, are what the
        config says frame by frame; checksums good; metrics equal the counts."""
        n, size = self.N, self.SIZE
        c = self.api.config()
        c.ports.port(name="p1", location=self.LOC[0]).port(name="p2", location=self.LOC[1])
        f = c.flows.flow(name="v4")[-1]
        f.tx_rx.port.tx_name, f.tx_rx.port.rx_names = "p1", ["p2"]
        f.size.fixed = size
        f.rate.pps = 1000
        f.duration.fixed_packets.packets = n
        f.metrics.enable = True
        eth, vlan, ip, udp = f.packet.ethernet().vlan().ipv4().udp()
        eth.src.value = MAC_A
        eth.dst.increment.start, eth.dst.increment.step, eth.dst.increment.count = \
            "02:00:00:07:01:00", "00:00:00:00:00:01", 3
        vlan.id.increment.start, vlan.id.increment.step, vlan.id.increment.count = 100, 2, 4
        vlan.priority.values = [0, 3, 5]
        ip.src.increment.start, ip.src.increment.step, ip.src.increment.count = \
            "10.7.0.1", "0.0.0.1", 5
        ip.dst.decrement.start, ip.dst.decrement.step, ip.dst.decrement.count = \
            "10.8.0.100", "0.0.0.2", 3
        ip.time_to_live.values = [64, 32, 16]
        udp.src_port.random.min, udp.src_port.random.max = 1000, 1010
        udp.src_port.random.seed, udp.src_port.random.count = 7, 4
        udp.dst_port.decrement.start, udp.dst_port.decrement.step = 5000, 3
        udp.dst_port.decrement.count = 5

        g = c.flows.flow(name="v6")[-1]
        g.tx_rx.port.tx_name, g.tx_rx.port.rx_names = "p1", ["p2"]
        g.size.fixed = size + 64
        g.rate.pps = 1000
        g.duration.fixed_packets.packets = n
        g.metrics.enable = True
        eth6, ip6, tcp = g.packet.ethernet().ipv6().tcp()
        eth6.src.value, eth6.dst.value = MAC_A, MAC_B
        ip6.src.increment.start, ip6.src.increment.step, ip6.src.increment.count = \
            "2001:db8:7::1", "::100", 4
        ip6.dst.values = ["2001:db8:8::1", "2001:db8:8::2", "2001:db8:8::3"]
        ip6.flow_label.random.min, ip6.flow_label.random.max = 1000, 1100
        ip6.flow_label.random.seed, ip6.flow_label.random.count = 3, 6
        ip6.hop_limit.value = 9
        tcp.src_port.increment.start, tcp.src_port.increment.step = 40000, 7
        tcp.src_port.increment.count = 6
        tcp.dst_port.value = 80
        tcp.ctl_syn.value = 1

        self.far_config(c)
        self.api.set_config(c)
        self.far_begin()
        self.transmit(["v4", "v6"], "start")
        m = self.wait_flows(["v4", "v6"], frames_rx={"v4": n, "v6": n})
        pcap = self.far_end()

        v4 = decode(pcap, ["eth.src", "eth.dst", "vlan.id", "vlan.priority", "ip.src",
                                  "ip.dst", "ip.ttl", "udp.srcport", "udp.dstport", "frame.len",
                                  "ip.checksum.status", "udp.checksum.status", "ip.len",
                                  "udp.length"], "ip && udp")
        self.assertEqual(len(v4), n)
        self.assertEqual([r[0] for r in v4], [MAC_A] * n)
        self.assertEqual([mac_int(r[1]) for r in v4],
                         counter(mac_int("02:00:00:07:01:00"), 1, 3, n))
        self.assertEqual([int(r[2]) for r in v4], counter(100, 2, 4, n))
        self.assertEqual([int(r[3]) for r in v4], cycle([0, 3, 5], n))
        self.assertEqual([int(ipaddress.ip_address(r[4])) for r in v4],
                         counter(int(ipaddress.ip_address("10.7.0.1")), 1, 5, n))
        self.assertEqual([int(ipaddress.ip_address(r[5])) for r in v4],
                         counter(int(ipaddress.ip_address("10.8.0.100")), 2, 3, n, dec=True))
        self.assertEqual([int(r[6]) for r in v4], cycle([64, 32, 16], n))
        # random: count values in [min, max], drawn again and again (a seed of its own).
        sports = [int(r[7]) for r in v4]
        self.assertTrue(all(1000 <= x <= 1010 for x in sports), sports)
        self.assertLessEqual(len(set(sports)), 4, sports)
        self.assertGreater(len(set(sports)), 1, sports)
        self.assertEqual([int(r[8]) for r in v4], counter(5000, 3, 5, n, dec=True))
        # The frame without its FCS: OTG's sizes count it.
        self.assertEqual({int(r[9]) for r in v4}, {size - 4})
        self.assertEqual({(r[10], r[11]) for r in v4}, {("1", "1")}, "checksums (1 = good)")
        self.assertEqual({int(r[12]) for r in v4}, {size - 4 - 18})
        self.assertEqual({int(r[13]) for r in v4}, {size - 4 - 18 - 20})

        v6 = decode(pcap, ["eth.src", "eth.dst", "ipv6.src", "ipv6.dst", "ipv6.flow",
                                  "ipv6.hlim", "tcp.srcport", "tcp.dstport", "tcp.flags.syn",
                                  "frame.len", "tcp.checksum.status"], "ipv6 && tcp")
        self.assertEqual(len(v6), n)
        self.assertEqual({(r[0], r[1]) for r in v6}, {(MAC_A, MAC_B)})
        self.assertEqual([int(ipaddress.ip_address(r[2])) for r in v6],
                         counter(int(ipaddress.ip_address("2001:db8:7::1")), 0x100, 4, n))
        self.assertEqual([r[3] for r in v6],
                         cycle(["2001:db8:8::1", "2001:db8:8::2", "2001:db8:8::3"], n))
        labels = [int(r[4], 16) for r in v6]
        self.assertTrue(all(1000 <= x <= 1100 for x in labels), labels)
        self.assertLessEqual(len(set(labels)), 6, labels)
        self.assertGreater(len(set(labels)), 1, labels)
        self.assertEqual({r[5] for r in v6}, {"9"})
        self.assertEqual([int(r[6]) for r in v6], counter(40000, 7, 6, n))
        self.assertEqual({(r[7], r[8]) for r in v6}, {("80", "1")})
        self.assertEqual({int(r[9]) for r in v6}, {size + 64 - 4})
        self.assertEqual({r[10] for r in v6}, {"1"}, "TCP checksums (1 = good)")

        for name, fsize in (("v4", size), ("v6", size + 64)):
            self.assertEqual((m[name].frames_tx, m[name].frames_rx), (n, n), name)
            self.assertEqual((m[name].bytes_tx, m[name].bytes_rx), (n * fsize, n * fsize),
                             name)

    # ---- counts and latency ----

    def test_metrics_equal_the_counts(self):
        """fixed_packets 1,000 with loss, timestamps and latency: frames_tx == frames_rx ==
        1,000 and the bytes, loss 0, latency and timestamps present and ordered; the ports'
        counters and the far side's (the kernel's, or OTG's capture) agree."""
        n, size = 1000, 256
        c = self.base_config(rate_pps=2000, packets=n, size=size)
        f = c.flows[0]
        f.metrics.timestamps = True
        f.metrics.latency.enable = True
        f.metrics.latency.mode = f.metrics.latency.STORE_FORWARD
        self.far_config(c)
        self.api.set_config(c)
        self.far_begin()
        before = self.far_counter()
        self.transmit(["f1"], "start")
        m = self.wait_flows(["f1"], frames_rx={"f1": n})["f1"]
        pcap = self.far_end()
        self.assertEqual((m.frames_tx, m.frames_rx), (n, n))
        self.assertEqual((m.bytes_tx, m.bytes_rx), (n * size, n * size))
        self.assertEqual((m.port_tx, m.port_rx), ("p1", "p2"))
        self.assertEqual(m.loss, 0)
        lat = m.latency
        self.assertGreater(lat.minimum_ns, 0)
        self.assertLessEqual(lat.minimum_ns, lat.average_ns)
        self.assertLessEqual(lat.average_ns, lat.maximum_ns)
        self.assertLess(lat.maximum_ns, 1e9)
        ts = m.timestamps
        self.assertGreater(ts.first_timestamp_ns, 0)
        # 1,000 frames at 2,000 pps: 0.4995 s from the first to the last, on the
        # server's clock (0.15 % off the kernel's here: TESTBED.md), and a second's slack.
        span = ts.last_timestamp_ns - ts.first_timestamp_ns
        self.assertGreater(span, 0.45e9, span)
        self.assertLess(span, 1.5e9, span)
        ports = self.port_metrics(["p1", "p2"])
        self.assertEqual(ports["p1"].frames_tx, n)
        self.assertEqual(ports["p2"].frames_rx, n)
        self.assertEqual(ports["p1"].bytes_tx, n * size)
        self.assertEqual(ports["p2"].bytes_rx, n * size)
        recs = pcap_records(pcap)
        if before is not None:
            self.assertEqual(self.far_counter() - before, n, self.far_note(m))
        self.assertEqual(len(recs), n, self.far_note(m))
        self.assertEqual({len(b) for _, b in recs}, {size - 4})

    # ---- bad configs ----

    def test_bad_configs_refused_old_config_stays(self):
        """Wrong types, unknown flows, unknown ports, a location that does not exist, a
        pattern count of 0, a rate above the line: each answered with OTG's Error naming the
        path, the server alive after each and the config set before still in force."""
        good = self.base_config(packets=10)
        self.api.set_config(good)
        ref = self.api.get_config().serialize(snappi.Config.DICT)
        self.assertEqual([p["location"] for p in ref["ports"]], list(self.LOC))
        self.assertEqual([f["name"] for f in ref["flows"]], ["f1"])

        def still():
            self.server_alive()
            self.assertEqual(self.api.get_config().serialize(snappi.Config.DICT), ref)

        def refused(err, path, codes=(400,)):
            self.assertIn(err.code, codes, err.serialize())
            self.assertEqual(err.kind, "validation", err.serialize())
            self.assertTrue(any(e.startswith(path) for e in err.errors),
                            f"no error at {path}: {err.errors}")
            still()

        # Wrong types: snappi would refuse them itself, so the JSON goes out through its
        # transport as a hand-written body does.
        doc = good.serialize(good.DICT)
        doc["ports"][0]["location"] = 5
        doc["flows"][0]["size"]["fixed"] = "big"
        err = self.otg_error(self.api._transport.send_recv, "post", "/config",
                             json.dumps(doc))
        refused(err, "ports[0].location")
        self.assertTrue(any(e.startswith("flows[0].size.fixed") for e in err.errors),
                        err.errors)

        # A flow that is not in the config.
        cs = self.api.control_state()
        cs.traffic.flow_transmit.flow_names = ["f1", "nosuch"]
        cs.traffic.flow_transmit.state = "start"
        err = self.otg_error(self.api.set_control_state, cs)
        refused(err, "traffic.flow_transmit.flow_names[1]", (400, 404))

        # A port that is not in the config.
        bad = self.base_config(packets=10)
        bad.flows[0].tx_rx.port.tx_name = "p9"
        refused(self.otg_error(self.api.set_config, bad), "flows[0].tx_rx.port.tx_name")

        # A location that does not exist.
        bad = self.base_config(packets=10)
        bad.ports[1].location = "snpnone0"
        refused(self.otg_error(self.api.set_config, bad), "ports[1].location")

        # A pattern count of 0 (the model gives no minimum; a counter of 0 values is none).
        bad = self.base_config(packets=10)
        ip = bad.flows[0].packet[1]
        ip.src.increment.start, ip.src.increment.step, ip.src.increment.count = \
            "10.0.0.1", "0.0.0.1", 0
        refused(self.otg_error(self.api.set_config, bad),
                "flows[0].packet[1].ipv4.src.increment.count")

        # A rate above the line: 10^12 bit/s is past any port this runs on.
        bad = self.base_config(packets=10)
        bad.flows[0].rate.bps = 10 ** 12
        refused(self.otg_error(self.api.set_config, bad), "flows[0].rate")

        # And the old config still runs.
        self.transmit(["f1"], "start")
        m = self.wait_flows(["f1"], frames_rx={"f1": 10})["f1"]
        self.assertEqual((m.frames_tx, m.frames_rx), (10, 10))


class OtgVeth(Scenarios, OtgCase):
    """Two af_packet ports on the two ends of a veth pair; tcpdump on the far end."""

    def setUp(self):
        super().setUp()
        self.api, self.a, self.b = self.serve_veth()
        self.LOC = (self.a, self.b)     # locations by Linux interface
        self.dump = None

    def far_config(self, c):
        pass

    def far_begin(self):
        self.dump, self.dump_path = self.tcpdump(self.b)

    def far_end(self):
        # The kernel delivered what port 1 counted; a moment for tcpdump's buffer.
        time.sleep(0.3)
        self.dump_said = self.stop_tcpdump(self.dump).strip().replace("\n", "; ")
        return self.dump_path

    def far_note(self, m):
        """What to say when the far side's count and a flow's disagree."""
        return (f"the kernel's count on {self.b}: {kernel_counter(self.b, 'rx_packets')}; "
                f"tcpdump: {self.dump_said}; the flow: {m.serialize(m.DICT)}")

    def far_counter(self):
        return kernel_counter(self.b, "rx_packets")

    def test_locations(self):
        """A port's location as wirerate's port index or its DPDK device name works as the
        interface's name does: the same two ports, frames from the first to the second."""
        for loc in (("0", "1"), ("net_af_packet0", "net_af_packet1"), (self.a, self.b)):
            self.LOC = loc
            self.api.set_config(self.base_config(rate_pps=1000, packets=5))
            self.assertEqual([p.location for p in self.api.get_config().ports], list(loc))
            # Whether a new config zeroes the ports' counters is the server's choice.
            was = self.port_metrics(["p1", "p2"])
            self.transmit(["f1"], "start")
            m = self.wait_flows(["f1"], frames_rx={"f1": 5})["f1"]
            self.assertEqual((m.frames_tx, m.frames_rx), (5, 5), loc)
            now = self.port_metrics(["p1", "p2"])
            # (Before any traffic the server may leave the counters out: none yet.)
            self.assertEqual((now["p1"].frames_tx - (was["p1"].frames_tx or 0),
                              now["p2"].frames_rx - (was["p2"].frames_rx or 0)), (5, 5), loc)

    def kernel_times(self, pcap, display_filter="udp"):
        return [float(r[0]) for r in decode(pcap, ["frame.time_epoch"], display_filter)]

    def test_pause_resume_on_the_wire(self):
        """1,000 pps for 1 s, paused 1 s, resumed 1 s, stopped: the kernel's stamps on the far
        end show one silence of about a second between two runs of 1,000 pps, and the
        flow's metrics count every frame the kernel saw."""
        c = self.base_config(rate_pps=1000)
        self.api.set_config(c)
        self.far_begin()
        self.transmit(["f1"], "start")
        time.sleep(1.0)
        t_pause = time.time()
        self.transmit(["f1"], "pause")
        self.wait_flows(["f1"], state="paused", timeout=5)
        time.sleep(1.0)
        t_resume = time.time()
        self.transmit(["f1"], "resume")
        time.sleep(1.0)
        self.transmit(["f1"], "stop")
        m = self.wait_flows(["f1"], state="stopped", timeout=5)["f1"]
        time.sleep(0.3)
        pcap = self.far_end()
        t = self.kernel_times(pcap)
        self.assertEqual(len(t), m.frames_tx, self.far_note(m))
        self.assertEqual(m.frames_rx, m.frames_tx)
        gaps = [(t[i + 1] - t[i], i) for i in range(len(t) - 1)]
        big, at = max(gaps)
        # The silence: from before the pause request to after the resume request.
        self.assertGreater(big, (t_resume - t_pause) - 0.2, big)
        self.assertLess(big, (t_resume - t_pause) + 0.3, big)
        self.assertLessEqual(t[at], t_pause + 0.05)
        self.assertGreaterEqual(t[at + 1], t_resume - 0.05)
        # Nothing else silent: 1 ms apart, af_packet's jitter aside.
        rest = sorted(g for g, i in gaps if i != at)
        self.assertLess(rest[-1], 0.1, rest[-5:])
        for part in (t[:at + 1], t[at + 1:]):
            rate = (len(part) - 1) / (part[-1] - part[0])
            self.assertAlmostEqual(rate, 1000, delta=30)

    def test_live_rate_change_on_the_wire(self):
        """500 pps, then PATCH /config (snappi's update_config) to 2,000 pps while running:
        the kernel's stamps show 500 pps before and 2,000 pps after, one stream all along."""
        c = self.base_config(rate_pps=500)
        self.api.set_config(c)
        self.far_begin()
        self.transmit(["f1"], "start")
        time.sleep(1.5)
        cu = self.api.config_update()
        cu.flows.property_names = [cu.flows.RATE]
        f = c.flows[0]
        f.rate.pps = 2000
        cu.flows.flows.append(f)
        t_up = time.time()
        self.api.update_config(cu)
        t_done = time.time()
        time.sleep(1.5)
        self.transmit(["f1"], "stop")
        m = self.wait_flows(["f1"], timeout=5)["f1"]
        pcap = self.far_end()
        t = self.kernel_times(pcap)
        self.assertEqual(len(t), m.frames_tx, self.far_note(m))
        before = [x for x in t if x < t_up - 0.1]
        after = [x for x in t if x > t_done + 0.1]
        self.assertGreater(len(before), 500)
        self.assertGreater(len(after), 2000)
        gap_b = statistics.median(b - a for a, b in zip(before, before[1:]))
        gap_a = statistics.median(b - a for a, b in zip(after, after[1:]))
        self.assertAlmostEqual(1 / gap_b, 500, delta=10)
        self.assertAlmostEqual(1 / gap_a, 2000, delta=40)
        rate_a = (len(after) - 1) / (after[-1] - after[0])
        self.assertAlmostEqual(rate_a, 2000, delta=40)
        self.assertEqual(self.api.get_config().flows[0].rate.pps, 2000)

    def test_live_size_change_on_the_wire(self):
        """128-byte frames, then PATCH /config's size 256 while running: the kernel sees
        128-byte frames (124 without the FCS) before, 256-byte after, no other size, and
        as many as the flow's metrics count."""
        c = self.base_config(rate_pps=500)
        self.api.set_config(c)
        self.far_begin()
        self.transmit(["f1"], "start")
        time.sleep(1.0)
        cu = self.api.config_update()
        cu.flows.property_names = [cu.flows.SIZE]
        f = c.flows[0]
        f.size.fixed = 256
        cu.flows.flows.append(f)
        t_up = time.time()
        self.api.update_config(cu)
        t_done = time.time()
        time.sleep(1.0)
        self.transmit(["f1"], "stop")
        m = self.wait_flows(["f1"], timeout=5)["f1"]
        pcap = self.far_end()
        rows = [(float(t), int(n)) for t, n in decode(pcap, ["frame.time_epoch", "frame.len"],
                                                      "udp")]
        self.assertEqual(len(rows), m.frames_tx, self.far_note(m))
        self.assertEqual(m.frames_rx, m.frames_tx)
        self.assertEqual({n for _, n in rows}, {124, 252})
        self.assertEqual({n for t, n in rows if t < t_up}, {124})
        self.assertEqual({n for t, n in rows if t > t_done + 0.05}, {252})
        # One change: every small frame before every large one.
        lens = [n for _, n in rows]
        self.assertEqual(lens, sorted(lens))
        self.assertEqual(self.api.get_config().flows[0].size.fixed, 256)

    def two_devices(self):
        """A config with d1 on p1 and d2 on p2, each the other's IPv4 and IPv6 gateway."""
        c = self.api.config()
        c.ports.port(name="p1", location=self.LOC[0]).port(name="p2", location=self.LOC[1])
        addrs = {"d1": ("10.7.1.1", "2001:db8:71::1", MAC_A, "p1"),
                 "d2": ("10.7.1.2", "2001:db8:71::2", MAC_B, "p2")}
        other = {"d1": "d2", "d2": "d1"}
        for d, (v4, v6, mac, port) in addrs.items():
            dev = c.devices.device(name=d)[-1]
            e = dev.ethernets.add(name=f"{d}.eth", mac=mac)
            e.connection.port_name = port
            e.ipv4_addresses.add(name=f"{d}.v4", address=v4, prefix=24,
                                 gateway=addrs[other[d]][0])
            e.ipv6_addresses.add(name=f"{d}.v6", address=v6, prefix=64,
                                 gateway=addrs[other[d]][1])
        return c

    def start_devices(self, c):
        """tcpdump on b and on a (what each received: af_packet's TX bypasses the qdisc
        and the taps of its own end), from before the config (the hosts may speak as soon
        as loaded), the config, protocol all start; returns once monitor/states lists
        each device's gateway with the other's MAC (IPv4 and IPv6)."""
        self.dump, self.dump_path = self.tcpdump(self.b)
        self.dump_a, self.dump_a_path = self.tcpdump(self.a, name="near.pcap")
        self.api.set_config(c)
        cs = self.api.control_state()
        cs.protocol.all.state = cs.protocol.all.START
        self.api.set_control_state(cs)
        req = self.api.states_request()
        req.ipv4_neighbors.ethernet_names = ["d1.eth", "d2.eth"]
        req6 = self.api.states_request()
        req6.ipv6_neighbors.ethernet_names = ["d1.eth", "d2.eth"]
        want4 = {("d1.eth", "10.7.1.2", MAC_B), ("d2.eth", "10.7.1.1", MAC_A)}
        want6 = {("d1.eth", "2001:db8:71::2", MAC_B), ("d2.eth", "2001:db8:71::1", MAC_A)}
        got = {}

        def resolved():
            s4 = self.api.get_states(req).ipv4_neighbors
            s6 = self.api.get_states(req6).ipv6_neighbors
            got["4"] = {(x.ethernet_name, x.ipv4_address, x.link_layer_address) for x in s4}
            got["6"] = {(x.ethernet_name, str(ipaddress.ip_address(x.ipv6_address)),
                         x.link_layer_address) for x in s6}
            return want4 <= got["4"] and want6 <= got["6"]
        self.assertTrue(wait_for(resolved, 10, 0.2),
                        f"{got}; the ports' own MACs: "
                        f"{[p['mac'].lower() for p in self.rpc.ports()]}")

    def test_devices_resolve_gateways(self):
        """Two devices, one on each port, each the other's IPv4 and IPv6 gateway: after
        protocol all start, monitor/states lists each one's gateway with the other's MAC,
        and the ARP and ND that found them went over the wire."""
        self.start_devices(self.two_devices())
        far = self.far_end()
        self.stop_tcpdump(self.dump_a)
        fields = ["arp.opcode", "arp.src.proto_ipv4", "arp.dst.proto_ipv4", "arp.src.hw_mac"]
        at_b = {tuple(r) for r in decode(far, fields, "arp")}
        at_a = {tuple(r) for r in decode(self.dump_a_path, fields, "arp")}
        # Each asked for its gateway and answered the other's question.
        self.assertIn(("1", "10.7.1.1", "10.7.1.2", MAC_A), at_b, at_b)
        self.assertIn(("2", "10.7.1.1", "10.7.1.2", MAC_A), at_b, at_b)
        self.assertIn(("1", "10.7.1.2", "10.7.1.1", MAC_B), at_a, at_a)
        self.assertIn(("2", "10.7.1.2", "10.7.1.1", MAC_B), at_a, at_a)
        fields = ["icmpv6.type", "icmpv6.nd.ns.target_address", "icmpv6.nd.na.target_address"]
        nd_b = decode(far, fields, "icmpv6.type == 135 || icmpv6.type == 136")
        nd_a = decode(self.dump_a_path, fields, "icmpv6.type == 135 || icmpv6.type == 136")
        self.assertIn("2001:db8:71::2", {r[1] for r in nd_b if r[0] == "135"}, nd_b)
        self.assertIn("2001:db8:71::1", {r[2] for r in nd_b if r[0] == "136"}, nd_b)
        self.assertIn("2001:db8:71::1", {r[1] for r in nd_a if r[0] == "135"}, nd_a)
        self.assertIn("2001:db8:71::2", {r[2] for r in nd_a if r[0] == "136"}, nd_a)

    def test_flow_between_devices(self):
        """A flow from d1's IPv4 to d2's (tx_rx device), its ethernet.dst left auto (the
        model's default: the gateway's MAC, resolved by ARP), the rest as a lab's script
        sets it (the model's ethernet.src has no auto; ipv4's auto is DHCP's): its frames
        carry d2's MAC, good checksums, and its metrics count them."""
        c = self.two_devices()
        f = c.flows.flow(name="dev")[-1]
        f.tx_rx.device.tx_names = ["d1.v4"]
        f.tx_rx.device.rx_names = ["d2.v4"]
        f.size.fixed = 100
        f.rate.pps = 1000
        f.duration.fixed_packets.packets = 20
        f.metrics.enable = True
        eth, ip, _ = f.packet.ethernet().ipv4().udp()
        eth.src.value = MAC_A
        ip.src.value, ip.dst.value = "10.7.1.1", "10.7.1.2"
        self.start_devices(c)
        self.transmit(["dev"], "start")
        m = self.wait_flows(["dev"], frames_rx={"dev": 20})["dev"]
        self.assertEqual((m.frames_tx, m.frames_rx), (20, 20))
        pcap = self.far_end()
        udp = decode(pcap, ["eth.src", "eth.dst", "ip.src", "ip.dst", "frame.len",
                            "ip.checksum.status", "udp.checksum.status"],
                     "udp && eth.src == " + MAC_A)
        self.assertEqual(len(udp), 20, decode(pcap, ["eth.src", "eth.dst", "ip.src", "ip.dst",
                                                     "frame.len"], "udp")[:3])
        self.assertEqual({tuple(r) for r in udp},
                         {(MAC_A, MAC_B, "10.7.1.1", "10.7.1.2", "96", "1", "1")})


class OtgMemif(Scenarios, OtgCase):
    """Two memif ports joined inside the server; the far port's frames through OTG's own
    capture (POST /monitor/capture: the pcap's bytes), decoded by tshark."""

    def setUp(self):
        super().setUp()
        self.api = self.serve_memif()
        self.LOC = ("net_memif0", "net_memif1")    # locations by DPDK device name

    def far_config(self, c):
        c.captures.capture(name="far", port_names=["p2"], format="pcap")

    def far_begin(self):
        cs = self.api.control_state()
        cs.port.capture.port_names = ["p2"]
        cs.port.capture.state = cs.port.capture.START
        self.api.set_control_state(cs)
        self.assertEqual(self.port_metrics(["p2"])["p2"].capture, "started")

    def far_end(self):
        cs = self.api.control_state()
        cs.port.capture.port_names = ["p2"]
        cs.port.capture.state = cs.port.capture.STOP
        self.api.set_control_state(cs)
        req = self.api.capture_request()
        req.port_name = "p2"
        data = self.api.get_capture(req).read()
        path = self.path("far.pcap")
        with open(path, "wb") as f:
            f.write(data)
        return path

    def far_counter(self):
        return None

    def far_note(self, m):
        return f"the flow: {m.serialize(m.DICT)}"


class OtgHttps(OtgCase):
    """As a lab's script runs by default: https:// (the certificate the server made at
    start, snappi's verify=False), the memif pair."""

    SCHEME = "https"

    def setUp(self):
        super().setUp()
        self.api = self.serve_memif()
        self.LOC = ("net_memif0", "net_memif1")

    far_config = OtgMemif.far_config
    far_begin = OtgMemif.far_begin
    far_end = OtgMemif.far_end
    far_counter = OtgMemif.far_counter
    far_note = OtgMemif.far_note
    base_config = Scenarios.base_config
    test_metrics_over_https = Scenarios.test_metrics_equal_the_counts


if __name__ == "__main__":
    unittest.main()
