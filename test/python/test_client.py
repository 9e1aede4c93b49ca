# SPDX-License-Identifier: BSD-3-Clause
"""The Python client's helpers without a server: console word parsing, summaries, merging."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))

import contextlib  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402

from wirerate import merge_results, rate_shortfall, summary  # noqa: E402
from wirerate.console import (Console as ConsoleCmd, format_host, format_stats,  # noqa: E402
                              format_summary, parse_words, rate_arg, seconds, split_keywords,
                              START_KEYS)


def row(name, tx, rx=None, lost=0, lat=None):
    r = {"name": name, "tx_pkts": tx, "tx_bytes": 64 * tx, "kpps": tx / 1e3, "mbps_l2": 1.0,
         "mbps_l1": 2.0}
    if rx is not None:
        r.update(rx_pkts=rx, lost=lost,
                 latency_ns=lat or {"n": 0, "min": 0, "avg": 0, "max": 0, "p99": 0})
    return r


class Console(unittest.TestCase):
    def test_words(self):
        self.assertEqual(parse_words("rate 1 Mpps duration 5 a b".split(), START_KEYS),
                         ({"rate": "1 Mpps", "duration": "5"}, ["a", "b"]))
        self.assertEqual(parse_words("rate 10 Gbps L1 x".split(), START_KEYS),
                         ({"rate": "10 Gbps L1"}, ["x"]))
        self.assertEqual(parse_words(["rate", "50%"], START_KEYS), ({"rate": "50%"}, []))
        self.assertEqual(rate_arg("1000"), 1000.0)
        self.assertEqual(rate_arg(" 2 Mpps "), "2 Mpps")
        self.assertEqual(seconds("500ms"), 0.5)
        self.assertEqual(seconds("2"), 2.0)
        self.assertEqual(seconds("1m"), 60.0)

    def test_add_words(self):
        keys = ("vary", "rate", "count")
        self.assertEqual(split_keywords('Ether()/IP(src="1.2.3.4 rate x")/UDP() vary '
                                        '{"IP.src": {"list": ["1.1.1.1"]}} rate 1 Mpps '
                                        'count 5', keys),
                         {"": 'Ether()/IP(src="1.2.3.4 rate x")/UDP()',
                          "vary": '{"IP.src": {"list": ["1.1.1.1"]}}', "rate": "1 Mpps",
                          "count": "5"})
        self.assertEqual(split_keywords("Ether()/IP()", keys), {"": "Ether()/IP()"})


class FakeClient:
    """What the console calls, answering as a server does (a secret in acquire's reply)."""

    def acquire(self, ports=None, force=False):
        return {"session": "py-1", "secret": "s3cr3t-0123456789abcdef", "ports": [0]}

    def wait(self, timeout=None):
        return {"state": "done", "stop_reason": "count", "timeout": False}

    def streams(self):
        return [{"name": "r", "port": 0, "state": "loaded", "rate": "ramp", "rate_pps": None},
                {"name": "s", "port": 0, "state": "loaded", "rate": "200 kpps",
                 "rate_pps": 200000.0}]

    def stats(self):
        return {"state": "done", "streams": [dict(row("imix", 12), kpps=None, mbps_l1=None,
                                                  mbps_l2=None)]}


class ConsoleOutput(unittest.TestCase):
    def run_console(self, line):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            ConsoleCmd(FakeClient()).onecmd(line)
        return out.getvalue()

    def test_json_without_secret(self):
        text = self.run_console("acquire force")
        self.assertEqual(json.loads(text), {"session": "py-1", "ports": [0]})
        self.assertNotIn("s3cr3t", text)

    def test_streams(self):
        self.assertEqual(self.run_console("streams").splitlines(),
                         ["r                        port 0 loaded   ramp",
                          "s                        port 0 loaded   200.000 kpps"])

    def test_wait(self):
        self.assertEqual(self.run_console("wait 5"),
                         "traffic done, stopped by count\n"
                         "summary: tx 12 frames, rate not measured (too short a run)\n")


class Results(unittest.TestCase):
    def test_summary(self):
        st = {"duration_s": 1.0, "streams": [
            row("a", 1000, 990, 10, {"n": 990, "min": 100, "avg": 200, "max": 900, "p99": 800}),
            row("b", 500, 500, 0, {"n": 500, "min": 50, "avg": 500, "max": 1000, "p99": 990}),
            row("c", 7)]}
        s = summary(st)
        self.assertEqual((s["tx_pkts"], s["rx_pkts"], s["lost"]), (1507, 1490, 10))
        self.assertAlmostEqual(s["loss_pct"], 100 * 10 / 1500)
        self.assertEqual((s["lat_min_ns"], s["lat_max_ns"], s["lat_p99_ns"]), (50, 1000, 990))
        self.assertEqual(s["lat_avg_ns"], (200 * 990 + 500 * 500) // 1490)
        self.assertIsNone(summary({"streams": [row("x", 5)]})["rx_pkts"])
        self.assertEqual(s["below_rate"], [])

    def test_rate_not_measured(self):
        """A run too short to measure a rate (streams/imix.yaml's rows: kpps null): the sums
        leave it out, and the console's wait and stats print it (a TypeError before)."""
        short = dict(row("imix", 12), kpps=None, mbps_l2=None, mbps_l1=None)
        s = summary({"state": "done", "streams": [short]})
        self.assertEqual((s["tx_pkts"], s["kpps"], s["mbps_l1"]), (12, None, None))
        s = summary({"state": "done", "streams": [short, row("b", 5000)]})
        self.assertEqual(s["kpps"], 5.0)
        self.assertIn("tx 12 frames, rate not measured",
                      format_summary(summary({"streams": [short]})))
        self.assertRegex(format_stats({"streams": [short]}), r"S imix +12 +- +- +- ")

    def test_below_rate(self):
        """Set against achieved, and why, as wirerate run's summary says it."""
        r = dict(row("s", 557000), kpps=557.0, target_kpps=1000.0, pacer_skipped=3000000,
                 tx_full=2000000, alloc_fail=0)
        b = rate_shortfall(r)
        self.assertEqual(b["text"], "stream s: target 1000.000 Kpps, achieved 557.000 Kpps "
                         "(-44.300 %); 3000000 frames skipped after stalls of the TX lcore "
                         "(another thread on its CPU?); 2000000 bursts refused by the TX port "
                         "(its ring was full)")
        self.assertEqual(summary({"streams": [r]})["below_rate"], [b])
        self.assertIn("below its rate: stream s: target 1000.000 Kpps",
                      format_summary(summary({"streams": [r]})))
        # On its rate within 1 %, unpaced (target 0) or not measured: nothing to say.
        self.assertIsNone(rate_shortfall(dict(r, kpps=990.5)))
        self.assertIsNone(rate_shortfall(dict(r, target_kpps=0.0)))
        self.assertIsNone(rate_shortfall(dict(r, kpps=None)))
        self.assertIn("the pacer's schedule fell short",
                      rate_shortfall(dict(r, pacer_skipped=0, tx_full=0))["text"])

    def test_loss_while_running(self):
        """While traffic runs the frames not back yet are in flight, not lost."""
        st = {"state": "running", "streams": [row("a", 1000, 900, 100)]}
        s = summary(st)
        self.assertEqual((s["lost"], s["loss_pct"], s["in_flight_or_lost"]), (None, None, 100))
        s = summary(dict(st, state="done"))
        self.assertEqual((s["lost"], s["in_flight_or_lost"]), (100, None))

    def test_merge(self):
        a = {"tx_started_at": 10.000001, "ports": [{"name": "p"}], "streams": [row("s", 10)]}
        b = {"tx_started_at": 10.000004, "ports": [{"name": "p"}], "streams": [row("s", 20)]}
        m = merge_results([a, b], ["A", "B"])
        self.assertEqual([s["server"] for s in m["streams"]], ["A", "B"])
        self.assertEqual(m["total"]["tx_pkts"], 30)
        self.assertAlmostEqual(m["start_spread_s"], 3e-6)


class ConsoleHosts(unittest.TestCase):
    """The console's hosts command over a fake client: a host a line, the next offset."""

    HOST = {"index": 3, "group": "clients", "state": "up", "mac": "02:10:00:00:00:04",
            "vlans": [{"tpid": 33024, "id": 100, "pcp": 0}, {"tpid": 33024, "id": 7, "pcp": 0}],
            "ipv4": {"state": "up", "address": "10.0.0.13", "prefix": 16, "gateway": "10.0.0.1"},
            "ipv6": [{"address": "fe80::1", "prefix": 64, "state": "preferred",
                      "origin": "link-local"},
                     {"address": "2001:db8::13", "prefix": 64, "state": "tentative",
                      "origin": "static"}],
            "gateway6": None,
            "neighbours": [{"ip": "10.0.0.1", "state": "incomplete", "mac": None, "age_ms": 12,
                            "probes": 1}],
            "modules": {"dhcp4": "bound"}}

    def test_line(self):
        self.assertEqual(format_host(self.HOST),
                         "     3  clients  up  02:10:00:00:00:04  vlan 100.7  10.0.0.13/16 "
                         "2001:db8::13/64 (tentative)  gw 10.0.0.1 - incomplete 12 ms  "
                         "dhcp4 bound")

    def test_command(self):
        asked = []

        class Fake(FakeClient):
            def hosts(self, port=0, group=None, state=None, offset=None, limit=None):
                asked.append((port, group, state, offset, limit))
                return {"port": port, "total": 9, "matched": 4, "offset": offset or 0,
                        "hosts": [ConsoleHosts.HOST], "next_offset": 1}
        con = ConsoleCmd(Fake())
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            con.onecmd("hosts 1 state up limit 1 group clients")
        self.assertEqual(asked, [(1, "clients", "up", None, 1)])
        self.assertEqual(out.getvalue().splitlines()[-1],
                         "1 of 4 matching (9 on port 1); next: offset 1")


class HostsPaging(unittest.TestCase):
    """Client.hosts_all() and host_counters() against a fake server speaking hosts.list as
    the C server does (lib/core/control/wr_hosts_view.c): pages by next_offset."""

    def setUp(self):
        from wirerate.client import Client
        self.calls = []
        self.macs = [f"02:00:00:00:{i >> 8:02x}:{i & 0xff:02x}" for i in range(2345)]
        c = Client("/nonexistent")

        def call(method, _timeout=-1.0, **params):
            self.calls.append((method, {k: v for k, v in params.items() if v is not None}))
            if method == "hosts.counters":
                return {"ports": [{"port": 0, "hosts": 2345, "up": 2345, "idle": 0,
                                   "pending": 0, "failed": 0, "counters": {"arp_replies": 7}}]}
            off, lim = params["offset"], params["limit"]
            page = [{"index": i, "mac": m} for i, m in enumerate(self.macs)][off:off + lim]
            nxt = off + len(page)
            return {"port": params["port"], "total": 2345, "matched": 2345, "offset": off,
                    "hosts": page, "next_offset": nxt if nxt < 2345 else None}
        c.call = call
        self.c = c

    def test_all_pages(self):
        hosts = self.c.hosts_all(0, page=1000)
        self.assertEqual([h["mac"] for h in hosts], self.macs)
        self.assertEqual([p["offset"] for _, p in self.calls], [0, 1000, 2000])
        self.assertEqual({p["limit"] for _, p in self.calls}, {1000})

    def test_filters_sent(self):
        self.c.hosts(1, group="clients", state="up", offset=5, limit=10)
        self.assertEqual(self.calls[-1], ("hosts.list", {"port": 1, "group": "clients",
                                                         "state": "up", "offset": 5,
                                                         "limit": 10}))
        self.assertEqual(self.c.host_counters([0])[0]["counters"], {"arp_replies": 7})
        self.assertEqual(self.calls[-1], ("hosts.counters", {"ports": [0]}))


class ExporterHosts(unittest.TestCase):
    """The exporter's lines for a port's hosts (stats.get's "hosts")."""

    def test_samples(self):
        from wirerate.exporter import WirerateCollector

        class Fake:
            def stats(self, counters=False):
                return {"time": 1.0, "state": "running", "counters": [], "streams": [],
                        "ports": [{"name": "port0", "port": 0, "tx_pkts": 0}],
                        "hosts": [{"port": 0, "hosts": 3, "idle": 0, "pending": 1, "up": 2,
                                   "failed": 0,
                                   "counters": {"arp_replies": 9, "dhcp4_ack": 2}}]}
        s = WirerateCollector(Fake()).samples()
        self.assertEqual(sorted((lab["state"], v) for lab, v in s["wirerate_hosts"]),
                         [("failed", 0.0), ("idle", 0.0), ("pending", 1.0), ("up", 2.0)])
        self.assertEqual(s["wirerate_hosts_counter_total"],
                         [({"port": "0", "counter": "arp_replies"}, 9.0),
                          ({"port": "0", "counter": "dhcp4_ack"}, 2.0)])


if __name__ == "__main__":
    unittest.main()
