# SPDX-License-Identifier: BSD-3-Clause
"""wirerate's TCP clients against wirerate's TCP server through memif: two processes, one busy
lcore each (the server on CPU 0, the clients on CPU 1), a million HTTP connections (one GET, a
64-byte body answered, closed by the client).  Every count of one side equals the other's:
established, closed, requests and responses, payload bytes each way; none failed."""

import json
import os
import shutil
import subprocess
import time
import unittest

from wrtest import WIRERATE, EalCase, kill, wait_for

SERVER_IP = "10.98.0.1"
SERVER_MAC = "02:00:00:98:00:01"
CLIENT_IP = "10.98.1.1"
CLIENT_MAC = "02:00:00:98:01:01"
BODY = 64


def last_line(path):
    """The last whole JSON line of a --stats-jsonl file, or None."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for ln in reversed(lines):
        try:
            return json.loads(ln)
        except ValueError:
            continue
    return None


def side(doc, name):
    for c in ((doc or {}).get("tcp") or {}).get("classes", []):
        if c.get("name") == "web":
            return c.get(name) or {}
    return {}


@unittest.skipUnless(os.geteuid() == 0, "needs root (hugepages, /run)")
class TcpMemif(EalCase):

    # A million in the suite; WR_TCP_MEMIF_CONNS for another count.
    N = int(os.environ.get("WR_TCP_MEMIF_CONNS", "1000000"))
    CONCURRENCY = 50000
    # The server's table holds its TIME_WAIT (1 s) too: with 200,000 it was full at this
    # rate (SYNs refused, the clients waiting out RTOs: 414,724 retransmissions).
    SERVER_CONNS = 1500000
    CLIENTS = 16        # addresses: 16 x 64,512 source ports, far more than TIME_WAIT holds

    def setUp(self):
        super().setUp()
        self.rundir = f"/run/wrtcpmemif-{os.getpid()}"
        os.makedirs(self.rundir, exist_ok=True)
        self.addCleanup(shutil.rmtree, self.rundir, True)
        self.sock = os.path.join(self.rundir, "memif.sock")

    def profile(self, name, role, cpu):
        prefix = f"wrtcpmemif-{name}-{os.getpid()}"
        self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", prefix), True)
        peer = ",socket-abstract=no" if role == "client" else ""
        return self.write(f"{name}-profile.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={prefix}",
      "--vdev=net_memif0,role={role},socket={self.sock}{peer},rsize=14",
      "--lcores=0@{1 - cpu},1@{cpu}"]
ports:
  - device: net_memif0
    tx_lcores: [1]
    rx_lcore: 1
""")

    def test_million(self):
        n = self.N
        server = self.write("s.yaml", f"""version: 1
hosts:
  - {{name: s, port: 0, count: 1, mac: "{SERVER_MAC}", ipv4: {{addr: {SERVER_IP}, prefix: 16}}}}
tcp:
  - name: web
    server: {{hosts: s, port: 80}}
    concurrency: {self.SERVER_CONNS}
    http: {{status: 200, body: {BODY}}}
""")
        client = self.write("c.yaml", f"""version: 1
hosts:
  - {{name: c, port: 0, count: {self.CLIENTS}, mac: "{CLIENT_MAC}",
     ipv4: {{addr: {CLIENT_IP}, prefix: 16}}}}
tcp:
  - name: web
    client: {{hosts: c, sport: [1024, 65535]}}
    server: {{addr: [{SERVER_IP}], port: 80}}
    concurrency: {self.CONCURRENCY}
    count: {n}
    http: {{method: GET, path: /, requests: 1, status: 200, body: {BODY}}}
""")
        sj, cj = self.path("s.jsonl"), self.path("c.jsonl")
        s = self.peer("wirerate-server", [
            WIRERATE, "run", server, "--config", self.profile("s", "server", 0), "--quiet",
            "--duration", "600", "--stats-jsonl", sj, "--json", self.path("s.json")],
            ready=lambda: self.listening(), timeout=30)
        time.sleep(0.5)
        t0 = time.monotonic()
        c = subprocess.run([WIRERATE, "run", client, "--config",
                            self.profile("c", "client", 1), "--quiet", "--duration", "500",
                            "--json", self.path("c.json"), "--stats-jsonl", cj],
                           capture_output=True, text=True, timeout=560)
        took = time.monotonic() - t0
        self.assertEqual(c.returncode, 0, c.stderr[-3000:])
        with open(self.path("c.json")) as f:
            cres = json.load(f)
        # The server's counts once they stop moving (its last interval lines agree).
        prev = {}

        def settled():
            nonlocal prev
            cur = side(last_line(sj), "server")
            ok = cur and cur == prev
            prev = cur
            return ok
        self.assertTrue(wait_for(settled, 30, step=1.2), "the server's counts kept moving")
        sres = last_line(sj)

        cl, sv = side(cres, "client"), side(sres, "server")
        self.assertTrue(cl and sv, (cres.get("tcp"), (sres or {}).get("tcp")))
        failed = ("failed_refused", "failed_timeout", "failed_reset", "failed_other")
        self.assertEqual([cl.get(k) for k in ("attempted", "established", "closed")],
                         [n, n, n], cl)
        self.assertEqual([cl.get(k) for k in failed], [0] * 4, cl)
        self.assertEqual([sv.get(k) for k in ("established", "closed")], [n, n], sv)
        self.assertEqual([sv.get(k) for k in failed], [0] * 4, sv)
        self.assertEqual((cl.get("active"), sv.get("active")), (0, 0))
        # HTTP: a request and a 200 response a connection, on both sides.
        self.assertEqual((cl["http_requests"], sv["http_requests"]), (n, n))
        self.assertEqual((cl["http_responses"], sv["http_responses"]), (n, n))
        # Payload each way: what one side sent is what the other received.
        self.assertEqual(cl["tx_bytes"], sv["rx_bytes"])
        self.assertEqual(sv["tx_bytes"], cl["rx_bytes"])
        self.assertGreaterEqual(cl["rx_bytes"], n * BODY)
        self.assertGreater(cl["tx_bytes"], 0)
        # Frames, as memif's PMD counted them: what one process put into the rings is what
        # the other took out.  The server stops by itself when the client's link goes
        # (--on-link-down stop): its results hold the counts read before it went.
        s.wait(timeout=60)
        sres_final = self.json("s.json")
        cn, sn = cres["ports"][0]["nic"], sres_final["ports"][0]["nic"]
        print(f"\nclient nic {cn}\nserver nic {sn}\nserver link_lost "
              f"{sres_final['ports'][0].get('link_lost')}")
        self.assertEqual((cn["opackets"], sn["opackets"]), (sn["ipackets"], cn["ipackets"]))
        print(f"retransmitted segments: client {cl['rexmit_segs']}, server {sv['rexmit_segs']}")
        print(f"\n{n} connections in {took:.1f} s ({n / took:,.0f}/s with start-up)")

    def listening(self):
        with open("/proc/net/unix") as f:
            return any(line.rstrip().endswith(self.sock) for line in f)


if __name__ == "__main__":
    unittest.main()
