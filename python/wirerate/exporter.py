# SPDX-License-Identifier: BSD-3-Clause
"""Prometheus exporter for ``wirerate serve`` (needs the optional prometheus_client package).

    python3 -m wirerate.exporter --listen 9150     # the server's default socket (as root:
                                                   # /run/wirerate/wirerate.sock)

Every scrape reads stats.get once.  Per port and per stream: every counter of the server's
counter table (stats.get {"counters": true}: the C table lib/core/output/wr_counter.def, so a
counter added there is exported with no change here; tx_bytes with layer="l2" and
layer="l1"), the rates over the interval since the previous scrape, and latency quantiles (ns).
A port with emulated hosts adds wirerate_hosts{port, state} and
wirerate_hosts_counter_total{port, counter} (doc/hosts.md); the stream file's tcp: classes
wirerate_tcp_counter_total{class, side, counter}, wirerate_tcp_gauge{class, side, counter}
(active, time_wait), wirerate_tcp_rate_cps{class}, wirerate_tcp_concurrency{class},
wirerate_tcp_latency_ns{class, side, histogram, quantile} when stats.get has histograms, and
wirerate_tcp_port_counter_total{port, counter} (doc/tcp.md).
"""

from __future__ import annotations

import argparse
import threading
import time
from typing import Any, Dict, Iterator, List, Optional, Tuple

from .client import Client, default_socket

# Counters of a tcp class's side that are gauges (wr_tcp.h: open now).
TCP_GAUGES = ("active", "time_wait")
QUANTILES = (("0.5", "p50"), ("0.9", "p90"), ("0.99", "p99"), ("0.999", "p999"),
             ("0.9999", "p9999"))


class WirerateCollector:
    """A prometheus_client collector reading one server."""

    def __init__(self, client: Client):
        self.client = client
        self.lock = threading.Lock()
        self.prev: Optional[Dict[str, Any]] = None
        self.table: List[Dict[str, Any]] = []

    def samples(self) -> Dict[str, List[Tuple[Dict[str, str], float]]]:
        """name -> [(labels, value)]: what one scrape exports (also used by the tests)."""
        with self.lock:
            # The table once: the server's names, types and helps.
            st = self.client.stats(counters=not self.table)
            if not self.table:
                self.table = st.get("counters", [])
            prev, self.prev = self.prev, st
        out: Dict[str, List[Tuple[Dict[str, str], float]]] = {}

        def put(name: str, labels: Dict[str, str], value: float) -> None:
            out.setdefault(name, []).append((labels, float(value)))

        dt = st["time"] - prev["time"] if prev and prev.get("time") else 0.0
        for kind in ("ports", "streams"):
            old_rows = {r["name"]: r for r in prev.get(kind, [])} if prev else {}
            for r in st.get(kind, []):
                lab = {"kind": kind[:-1], "name": r["name"], "port": str(r.get("port", ""))}
                for c in self.table:
                    row = r.get(c["group"]) if c["group"] else r
                    if not isinstance(row, dict) or row.get(c["key"]) is None:
                        continue
                    name, _, label = c["metric"].partition(":")
                    suffix = "_total" if c["type"] == "counter" else ""
                    extra = dict([label.split("=", 1)]) if label else {}
                    put("wirerate_" + name + suffix, dict(lab, **extra), row[c["key"]])
                pk, by = r.get("tx_pkts", 0), r.get("tx_bytes", 0)
                old = old_rows.get(r["name"])
                if old is not None and dt > 0 and pk >= old.get("tx_pkts", 0):
                    dp = pk - old.get("tx_pkts", 0)
                    db = by - old.get("tx_bytes", 0)
                    put("wirerate_tx_rate_pps", lab, dp / dt)
                    put("wirerate_tx_rate_bps", dict(lab, layer="l2"), db * 8 / dt)
                    put("wirerate_tx_rate_bps", dict(lab, layer="l1"), (db + 20 * dp) * 8 / dt)
                lat = r.get("latency_ns")
                if lat and lat.get("n"):
                    for q, key in QUANTILES:
                        put("wirerate_latency_ns", dict(lab, quantile=q), lat[key])
                    put("wirerate_latency_ns_count", lab, lat["n"])
                    put("wirerate_latency_ns_sum", lab, lat["avg"] * lat["n"])
        # Each port's emulated hosts (stats.get's "hosts", doc/hosts.md): how many are in
        # each state, and every counter of the engine and its modules as one family
        # labelled by the counter's name (the modules name them: none is wired in here).
        for h in st.get("hosts", []):
            hl = {"port": str(h.get("port", ""))}
            for word in ("idle", "pending", "up", "failed"):
                put("wirerate_hosts", dict(hl, state=word), h.get(word, 0))
            for cn, cv in sorted(h.get("counters", {}).items()):
                put("wirerate_hosts_counter_total", dict(hl, counter=cn), cv)
        # The stream file's tcp: classes (stats.get's "tcp", doc/tcp.md): each side's
        # counters as one family labelled by the counter's name (the engine names them,
        # wr_tcp_counters_each: none is wired in here), the gauges (open now) apart, and
        # what tcp.set asked; each port's engine counters.
        tcp = st.get("tcp") or {}
        if tcp:
            # Once more with the histograms' summaries (stats.get's "histogram" would add
            # every stream's buckets instead).
            try:
                tcp = self.client.tcp_stats(histogram=True)
            except Exception:  # a server without tcp.stats, or the run just unloaded
                pass
        for c in tcp.get("classes", []):
            cl = {"class": c["name"]}
            put("wirerate_tcp_rate_cps", cl, c.get("rate", 0))
            put("wirerate_tcp_concurrency", cl, c.get("concurrency", 0))
            for side in ("client", "server"):
                sd = c.get(side)
                if not sd:
                    continue
                sl = dict(cl, side=side)
                for cn, cv in sorted(sd.items()):
                    if not isinstance(cv, int):
                        continue
                    put("wirerate_tcp_gauge" if cn in TCP_GAUGES else
                        "wirerate_tcp_counter_total", dict(sl, counter=cn), cv)
                for hn, h in sorted((sd.get("histograms_ns") or {}).items()):
                    if h and h.get("n"):
                        for q, key in QUANTILES:
                            put("wirerate_tcp_latency_ns", dict(sl, histogram=hn, quantile=q),
                                h[key])
        for p in tcp.get("ports", []):
            for cn, cv in sorted(p.items()):
                if cn != "port":
                    put("wirerate_tcp_port_counter_total",
                        {"port": str(p["port"]), "counter": cn}, cv)
        put("wirerate_running", {}, 1.0 if st.get("state") == "running" else 0.0)
        return out

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import (CounterMetricFamily, GaugeMetricFamily,
                                            SummaryMetricFamily)
        s = self.samples()
        helps = {}
        for c in self.table:
            name = "wirerate_" + c["metric"].partition(":")[0]
            helps.setdefault(name + ("_total" if c["type"] == "counter" else ""), c["help"])
        helps.update({
            "wirerate_tx_rate_pps": "frames per second since the previous scrape",
            "wirerate_tx_rate_bps": "bits per second since the previous scrape",
            "wirerate_running": "1 while traffic runs",
            "wirerate_hosts": "emulated hosts of a port in each state (idle, pending, up, failed)",
            "wirerate_hosts_counter_total": "a counter of a port's host engine or of one of its"
                                            " protocol modules (label counter: its name)",
            "wirerate_tcp_rate_cps": "a tcp class's connection rate asked now (0: unpaced)",
            "wirerate_tcp_concurrency": "a tcp class's cap on open connections now",
            "wirerate_tcp_counter_total": "a counter of a tcp class's side (label counter: its"
                                          " name, doc/tcp.md)",
            "wirerate_tcp_gauge": "connections of a tcp class's side open now (active) or in"
                                  " TIME_WAIT (time_wait)",
            "wirerate_tcp_latency_ns": "a tcp class's histogram quantile (ns): handshake,"
                                       " ttfb, complete",
            "wirerate_tcp_port_counter_total": "a counter of a port's TCP engine",
        })
        for name, help_ in helps.items():
            rows = s.get(name, [])
            if not rows:
                continue
            keys = sorted({k for lab, _ in rows for k in lab})
            base = name[:-6] if name.endswith("_total") else name
            fam = (CounterMetricFamily(base, help_, labels=keys) if name.endswith("_total")
                   else GaugeMetricFamily(name, help_, labels=keys))
            for lab, v in rows:
                fam.add_metric([lab.get(k, "") for k in keys], v)
            yield fam
        counts = {tuple(sorted(l.items())): v for l, v in s.get("wirerate_latency_ns_count", [])}
        sums = {tuple(sorted(l.items())): v for l, v in s.get("wirerate_latency_ns_sum", [])}
        if counts:
            fam = SummaryMetricFamily("wirerate_latency_ns", "echo latency quantiles (ns)",
                                      labels=["kind", "name", "port"])
            for key, n in counts.items():
                lab = dict(key)
                fam.add_metric([lab["kind"], lab["name"], lab["port"]], count_value=n,
                               sum_value=sums.get(key, 0.0))
            yield fam
            q = GaugeMetricFamily("wirerate_latency_quantile_ns", "echo latency quantile (ns)",
                                  labels=["kind", "name", "port", "quantile"])
            for lab, v in s.get("wirerate_latency_ns", []):
                q.add_metric([lab["kind"], lab["name"], lab["port"], lab["quantile"]], v)
            yield q


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="wirerate-exporter", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--socket", default=default_socket())
    ap.add_argument("--listen", type=int, default=9150, help="HTTP port for /metrics")
    ap.add_argument("--addr", default="127.0.0.1", help="HTTP address (default %(default)s)")
    a = ap.parse_args(argv)
    try:
        from prometheus_client import start_http_server
        from prometheus_client.core import REGISTRY
    except ImportError:
        print("wirerate-exporter: needs prometheus_client (pip install 'wirerate[prometheus]')")
        return 2
    REGISTRY.register(WirerateCollector(Client(a.socket).connect()))
    start_http_server(a.listen, addr=a.addr)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    raise SystemExit(main())
