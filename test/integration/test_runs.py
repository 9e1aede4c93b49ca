# SPDX-License-Identifier: BSD-3-Clause
"""The runs a server keeps (runs.list, runs.get, runs.delete; doc/api.md): trials with their
1 Hz samples adding up to stats.get's counts exactly, a benchmark job's result as bench.result
gives it, the sha256 of the stream text, a restart, the bound, a bad --runs-dir."""
import hashlib
import json
import os
import subprocess
import sys
import time
import unittest

from wrtest import ROOT, WIRERATE
from test_server import ServerCase, stream

sys.path.insert(0, os.path.join(ROOT, "python"))
import wirerate  # noqa: E402
from wirerate import RpcError  # noqa: E402

RATES = ("tx_pps", "rx_pps", "tx_bps", "rx_bps", "tx_bps_l1", "rx_bps_l1")


class Runs(ServerCase):
    """One server (two starts of it) on net_null: the whole life of kept runs."""

    def trial(self, c, name, text, duration):
        c.load(text, name=name)
        c.start(duration=duration)
        self.assertEqual(c.wait(timeout=30)["state"], "done")
        return c.stats()

    def check_trial(self, c, entry, text, name, stats, duration):
        sname = stats["streams"][0]["name"]
        self.assertEqual(entry["kind"], "trial")
        self.assertEqual(entry["stream_name"], name)
        self.assertEqual(entry["stream_sha256"], hashlib.sha256(text.encode()).hexdigest())
        for k in ("started", "ended"):
            self.assertRegex(entry[k], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
        doc = c.runs_get(entry["id"])
        for k, v in entry.items():
            self.assertEqual(doc[k], v, k)
        smp = doc["samples"]
        # One a second, the last at the end: ceil(duration) of them.
        self.assertEqual(len(smp), -(-int(duration * 10) // 10), [s["t"] for s in smp])
        # Each taken on the server's loop at its second (late by as much as a loaded machine
        # keeps that loop from its CPU: the counts below are exact whatever the instants).
        for i, s in enumerate(smp[:-1]):
            self.assertAlmostEqual(s["t"], i + 1, delta=0.5)
        self.assertGreaterEqual(smp[-1]["t"], duration - 0.1)
        # The samples add up to what stats.get counts, exactly, per stream and per port.
        row = wirerate.stream_row(stats, sname)
        prow = wirerate.port_row(stats, 0)
        for key, total in (("tx_pkts", row["tx_pkts"]), ("tx_bytes", row["tx_bytes"])):
            self.assertEqual(sum(s["streams"][sname][key] for s in smp), total, key)
        self.assertEqual(sum(s["ports"]["0"]["tx_pkts"] for s in smp), prow["tx_pkts"])
        self.assertEqual(doc["final"]["streams"][0]["tx_pkts"], row["tx_pkts"])
        self.assertEqual(entry["summary"]["tx_pkts"], row["tx_pkts"])
        # Each sample's rates are its counts over its interval (L1: 20 bytes more a frame).
        for s in smp:
            for part in (s["ports"]["0"], s["streams"][sname]):
                self.assertEqual(set(RATES) <= set(part), True, part)
                self.assertAlmostEqual(part["tx_pps"], part["tx_pkts"] / s["dt"],
                                       delta=1e-6 * part["tx_pps"] + 1e-3)
                self.assertAlmostEqual(part["tx_bps_l1"],
                                       (part["tx_bytes"] + 20 * part["tx_pkts"]) * 8 / s["dt"],
                                       delta=1e-6 * part["tx_bps_l1"] + 1e-3)
        return doc

    def test_runs_kept(self):
        runs = self.path("runs")
        extra = ["--runs-dir", runs, "--runs-max", "3"]
        p, sock = self.serve(tag="runs", extra=extra)
        c = self.client(sock)
        c.acquire()
        # Two trials of two stream files, kept and listed newest first.
        ta = stream(name="a", rate="20 kpps")
        tb = stream(name="b", rate="50 kpps", size=128)
        sa = self.trial(c, "a.yaml", ta, 2.5)
        sb = self.trial(c, "b.yaml", tb, 1.5)
        lst = c.runs_list()
        self.assertEqual([e["stream_name"] for e in lst], ["b.yaml", "a.yaml"])
        da = self.check_trial(c, lst[1], ta, "a.yaml", sa, 2.5)
        self.check_trial(c, lst[0], tb, "b.yaml", sb, 1.5)
        # A benchmark job's result, as bench.result gives it.
        c.load(ta, name="a.yaml")
        st = c.bench_wait(c.bench_start("sweep", {"tx-port": 0, "sizes": [64, 128],
                                                  "duration": "0.3"})["job"], timeout=120)
        self.assertEqual(st["state"], "done", st)
        res = c.bench_result(st["job"])
        js = c.runs_list(kind="sweep")
        self.assertEqual(len(js), 1)
        self.assertEqual(js[0]["summary"]["state"], "done")
        self.assertEqual(js[0]["stream_sha256"], hashlib.sha256(ta.encode()).hexdigest())
        jd = c.runs_get(js[0]["id"])
        self.assertEqual(jd["result"], res)
        self.assertEqual(jd["job"], st["job"])
        ids = [e["id"] for e in c.runs_list()]
        self.assertEqual(len(ids), 3)
        # Bad requests: one line each, the server alive.
        with self.assertRaises(RpcError) as e:
            c.runs_get(999)
        self.assertIn("no run 999", str(e.exception))
        with self.assertRaises(RpcError) as e:
            c.runs_list(kind="bogus")
        self.assertIn("kind", str(e.exception))
        with self.assertRaises(RpcError):
            c.runs_delete([ids[0], 999])
        self.assertEqual(len(c.runs_list()), 3)  # all or none
        # A restart lists the same runs, documents and all.
        c.close()
        p.terminate()
        p.communicate(timeout=30)
        self.procs.remove(p)
        p, sock = self.serve(tag="runs2", extra=extra)
        c = self.client(sock)
        self.assertEqual([e["id"] for e in c.runs_list()], ids)
        self.assertEqual(c.runs_get(lst[1]["id"]), da)
        # A viewer may not delete; the owner may.
        with self.assertRaises(RpcError):
            c.runs_delete([ids[-1]])
        c.acquire()
        # The bound: a fourth run prunes the oldest (the first trial).
        self.trial(c, "b.yaml", tb, 1.0)
        now = [e["id"] for e in c.runs_list()]
        self.assertEqual(now, [ids[0] + 1] + ids[:2])
        self.assertFalse(os.path.exists(os.path.join(runs, f"run-{ids[-1]}.json")))
        self.assertEqual(sorted(f for f in os.listdir(runs)),
                         sorted(f"run-{i}.json" for i in now))
        self.assertEqual(c.runs_delete([now[0]])["deleted"], [now[0]])
        self.assertEqual([e["id"] for e in c.runs_list()], now[1:])
        # Each file: the entry, then the document (two JSON lines).
        with open(os.path.join(runs, f"run-{now[2]}.json")) as f:
            lines = f.read().splitlines()
        self.assertEqual(len(lines), 2)
        self.assertEqual(json.loads(lines[0])["id"], now[2])
        self.assertIn("samples", json.loads(lines[1]))

    def test_bad_runs_dir(self):
        """A --runs-dir that is a file, a --runs-max out of range: one line, exit 2, before
        EAL."""
        f = self.write("not-a-dir", "x\n")
        for args, want in ((["--runs-dir", f], "--runs-dir"),
                           (["--runs-max", "0"], "--runs-max"),
                           (["--runs-max", "x"], "--runs-max")):
            r = subprocess.run([WIRERATE, "serve", "--socket", self.path("bad.sock"), *args],
                               capture_output=True, text=True, timeout=30)
            self.assertEqual(r.returncode, 2, r)
            lines = r.stderr.strip().splitlines()
            self.assertEqual(len(lines), 1, r.stderr)
            self.assertIn(want, lines[0])
            self.assertNotIn("EAL", r.stderr)


LOOP = """version: 1
rx_classes:
  - {name: nine, filter: "udp dst port 9"}
streams:
  - name: sig
    size: 128
    rate: 20 kpps
    latency: true
    eth: {src: "02:00:00:00:00:01", dst: "02:00:00:00:00:02"}
    ipv4: {src: 198.18.0.1, dst: 198.19.0.1}
    udp: {src: 1024, dst: 1024}
  - name: plain
    size: 100
    rate: 10 kpps
    eth: {src: "02:00:00:00:00:01", dst: "02:00:00:00:00:02"}
    ipv4: {src: 198.18.0.1, dst: 198.19.0.1}
    udp: {src: 1024, dst: 9}
"""


class StatsClear(ServerCase):
    """stats.clear zeroes everything stats.get counts: the counter table's every row, a
    port's RX queues and rx_classes, the devices' own counters, latency and its histogram."""

    def nonzero(self, st, table):
        keys = [(t["key"], t["group"]) for t in table if t["type"] == "counter"]
        bad = []
        for kind in ("ports", "streams"):
            for row in st[kind]:
                for key, group in keys:
                    v = row.get(group, {}).get(key) if group else row.get(key)
                    if v:
                        bad.append((kind, row["name"], group, key, v))
                for q in row.get("rx_queues", []):
                    for k in ("rx_pkts", "polls", "busy_polls", "busy_ns"):
                        if q[k]:
                            bad.append((kind, row["name"], "rx_queues", k, q[k]))
                for cl in row.get("rx_classes", []):
                    for k in ("pkts", "bytes"):
                        if cl[k]:
                            bad.append((kind, row["name"], cl["name"], k, cl[k]))
                if row.get("histogram"):
                    bad.append((kind, row["name"], "", "histogram", row["histogram"]))
                if (row.get("latency_ns") or {}).get("n"):
                    bad.append((kind, row["name"], "latency_ns", "n", row["latency_ns"]["n"]))
        return bad

    def test_clear_zeroes_everything(self):
        p, sock = self.serve(vdev="net_ring0", tag="clr", profile_extra="    rx_lcore: 1\n")
        c = self.client(sock)
        c.acquire()
        c.load(LOOP, name="loop.yaml")
        table = c.stats(counters=True)["counters"]
        # After a run: every count there was, zero once cleared.
        c.start(duration=1.0)
        c.wait(timeout=30)
        before = c.stats(histogram=True)
        self.assertTrue(len(self.nonzero(before, table)) > 10, before)
        prow = wirerate.port_row(before, 0)
        self.assertGreater(prow["rx_classes"][0]["pkts"], 0, prow)
        self.assertIn("nic", prow)
        c.clear()
        after = c.stats(histogram=True)
        self.assertTrue(after["cleared"])
        self.assertEqual(self.nonzero(after, table), [])
        # Cleared while it runs: the end's counts are those since the clear, the device's
        # own with them (the clear's two readings are a few frames apart at most).
        c.start(duration=2.0)
        time.sleep(1.0)
        mid = c.stats()
        c.clear()
        c.wait(timeout=30)
        end = c.stats()
        whole = end["ports"][0]
        tx = whole["tx_pkts"]
        sent = wirerate.port_row(mid, 0)["tx_pkts"]
        self.assertLess(tx, 60000 - sent + 1, (tx, sent))
        self.assertAlmostEqual(whole["nic"]["opackets"], tx, delta=max(50, tx // 100))
        self.assertAlmostEqual(whole["nic"]["ipackets"], whole["rx_pkts"],
                               delta=max(50, tx // 100))


if __name__ == "__main__":
    unittest.main()
