#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Two servers (one per host, or two on one machine) started at the same instant; one report.

    python3 python/examples/two_servers.py /run/wr-a.sock /run/wr-b.sock streams/udp-64.yaml \
        --rate "100 kpps" --duration 2 [--lead 0.5]

Each server gets the same start_at (time.time() + lead): its TX lcores are launched at
once and spin until that instant on their TSC, so the start does not depend on how long
the RPC or the lcore launch took.  Across hosts the servers' CLOCK_REALTIME must agree
(PTP, doc/api.md); sockets may then be TCP (wirerate.Client(host=..., token=...)).
"""

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import wirerate  # noqa: E402


def synchronised_trial(clients, rate, duration, lead=0.5):
    """Start every client's streams at one instant, stop them all after ``duration``
    seconds, merge their results.  (A ``duration=`` in start() would stop each server on
    its own clock instead; stopping from here is what an orchestrator that decides when a
    trial ends does.)"""
    start_at = time.time() + lead
    for c in clients:
        c.start(rate=rate, start_at=start_at)
    time.sleep(max(0.0, start_at + duration - time.time()))
    for c in clients:
        c.stop()
    return wirerate.merge_results([c.stats() for c in clients],
                                  [c.path or c.host for c in clients]), start_at


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("socket_a")
    ap.add_argument("socket_b")
    ap.add_argument("streams")
    ap.add_argument("--rate", default="100 kpps")
    ap.add_argument("--duration", type=float, default=2.0)
    ap.add_argument("--lead", type=float, default=0.5)
    a = ap.parse_args()
    clients = [wirerate.connect(p, force=True) for p in (a.socket_a, a.socket_b)]
    for c in clients:
        c.load_file(a.streams)
    merged, start_at = synchronised_trial(clients, a.rate, a.duration, a.lead)
    for c in clients:
        c.close()
    print(json.dumps({"start_at": start_at, "start_spread_s": merged["start_spread_s"],
                      "total": merged["total"]}, indent=2))


if __name__ == "__main__":
    main()
