#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A CSIT-style trial: one stream file at one rate for one duration; tx/rx/loss/latency on one line.

    python3 python/examples/csit_trial.py streams/latency.yaml --rate "1 Mpps" --duration 2
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import wirerate  # noqa: E402


def trial(c, rate, duration):
    """Start, wait, read: the dict of wirerate.summary() for one trial."""
    c.clear()
    c.start(rate=rate, duration=duration)
    c.wait(timeout=duration + 30)
    return wirerate.summary(c.stats())


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("streams")
    ap.add_argument("--rate", default="max")
    ap.add_argument("--duration", type=float, default=1.0)
    ap.add_argument("--socket", default=wirerate.default_socket())
    a = ap.parse_args()
    with wirerate.connect(a.socket, force=True) as c:
        c.load_file(a.streams)
        s = trial(c, a.rate, a.duration)
    lat = (f"lat_min_us={s['lat_min_ns'] / 1e3:.2f} lat_avg_us={s['lat_avg_ns'] / 1e3:.2f} "
           f"lat_max_us={s['lat_max_ns'] / 1e3:.2f}") if s["lat_avg_ns"] is not None else "lat=n/a"
    print(f"rate={a.rate} duration={a.duration}s tx={s['tx_pkts']} rx={s['rx_pkts']} "
          f"loss={s['lost']} loss_pct={s['loss_pct']} {lat}")


if __name__ == "__main__":
    main()
