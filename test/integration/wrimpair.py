# SPDX-License-Identifier: BSD-3-Clause
"""netem's impairments between two interfaces, in user space: this kernel has no sch_netem and
loads no modules (/work/shared/TESTBED.md), so the path's loss, delay, reordering and
duplication are made by this bridge, run in the test's namespace between the veth that faces
wirerate and the one that faces the kernel.

It does what `tc qdisc add dev IF root netem ...` does, with netem's meanings, on each way:
  --loss P        each frame dropped with probability P (percent)
  --delay MS      each frame held MS milliseconds
  --reorder P     with --delay: P percent of frames sent at once, the rest held (netem's
                  "reorder": the ones sent at once overtake the held ones)
  --duplicate P   each frame sent twice with probability P
Decisions come from random.Random(seed, way): the same frames in the same order meet the same
fate.  SIGINT/SIGTERM: prints what it did as JSON on stdout and exits.

    /usr/bin/python3 wrimpair.py IF_A IF_B --seed 1 --loss 5
"""

import argparse
import heapq
import json
import random
import select
import signal
import socket
import sys
import time

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4
PACKET_IGNORE_OUTGOING = 23
SOL_PACKET = 263


def open_if(name):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    try:
        s.setsockopt(SOL_PACKET, PACKET_IGNORE_OUTGOING, 1)
    except OSError:
        pass  # older kernels: the frames we send come back as PACKET_OUTGOING, skipped below
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8 << 20)
    s.bind((name, ETH_P_ALL))
    s.setblocking(False)
    return s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--loss", type=float, default=0.0)
    ap.add_argument("--delay", type=float, default=0.0)
    ap.add_argument("--reorder", type=float, default=0.0)
    ap.add_argument("--duplicate", type=float, default=0.0)
    ap.add_argument("--ready", help="a file created once both sockets are open")
    o = ap.parse_args()
    socks = {o.a: open_if(o.a), o.b: open_if(o.b)}
    other = {o.a: o.b, o.b: o.a}
    rng = {o.a: random.Random(f"{o.seed}:{o.a}>"), o.b: random.Random(f"{o.seed}:{o.b}>")}
    stats = {f"{n}>{other[n]}": {"in": 0, "dropped": 0, "duplicated": 0, "reordered": 0,
                                 "sent": 0, "send_errors": 0} for n in socks}
    held = []  # (due, seq, out_if, frame)
    seq = 0
    stop = []
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    if o.ready:
        open(o.ready, "w").close()
    delay = o.delay / 1000.0

    def send(out, frame, st):
        try:
            socks[out].send(frame)
            st["sent"] += 1
        except OSError:
            st["send_errors"] += 1

    by_fd = {s.fileno(): n for n, s in socks.items()}
    while not stop:
        now = time.monotonic()
        while held and held[0][0] <= now:
            _, _, out, frame, key = heapq.heappop(held)
            send(out, frame, stats[key])
        wait = 0.2 if not held else max(0.0, held[0][0] - now)
        try:
            ready, _, _ = select.select(list(by_fd), [], [], wait)
        except InterruptedError:
            continue
        for fd in ready:
            name = by_fd[fd]
            s = socks[name]
            out = other[name]
            key = f"{name}>{out}"
            st = stats[key]
            r = rng[name]
            for _ in range(256):
                try:
                    frame, addr = s.recvfrom(65536)
                except (BlockingIOError, InterruptedError):
                    break
                if addr[2] == PACKET_OUTGOING:
                    continue
                st["in"] += 1
                # One draw of each kind for every frame, in a fixed order, so a frame's fate
                # does not depend on the others' (as netem draws loss, duplicate, reorder).
                lost = r.random() * 100 < o.loss
                dup = r.random() * 100 < o.duplicate
                now_ = r.random() * 100 < o.reorder
                if lost:
                    st["dropped"] += 1
                    continue
                copies = 2 if dup else 1
                st["duplicated"] += copies - 1
                for _ in range(copies):
                    if delay > 0 and not now_:
                        seq += 1
                        heapq.heappush(held, (time.monotonic() + delay, seq, out, frame, key))
                    else:
                        if delay > 0:
                            st["reordered"] += 1
                        send(out, frame, st)
    print(json.dumps(stats), flush=True)


if __name__ == "__main__":
    sys.exit(main())
