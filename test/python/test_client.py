# SPDX-License-Identifier: BSD-3-Clause
"""The Python client's helpers without a server: console word parsing, summaries, merging."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))

from wirerate import merge_results, summary  # noqa: E402
from wirerate.console import (parse_words, rate_arg, seconds, split_keywords,  # noqa: E402
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

    def test_merge(self):
        a = {"tx_started_at": 10.000001, "ports": [{"name": "p"}], "streams": [row("s", 10)]}
        b = {"tx_started_at": 10.000004, "ports": [{"name": "p"}], "streams": [row("s", 20)]}
        m = merge_results([a, b], ["A", "B"])
        self.assertEqual([s["server"] for s in m["streams"]], ["A", "B"])
        self.assertEqual(m["total"]["tx_pkts"], 30)
        self.assertAlmostEqual(m["start_spread_s"], 3e-6)


if __name__ == "__main__":
    unittest.main()
