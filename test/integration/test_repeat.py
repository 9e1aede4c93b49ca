# SPDX-License-Identifier: BSD-3-Clause
"""run --repeat N --peer: each repetition sends the same frames; the peer's own counters
(dpdk-testpmd's telemetry, the Linux kernel's veth) read by the test equal what wirerate reports."""
import json
import os
import shutil
import socket
import subprocess
import threading
import time
import unittest

from wrtest import (ROOT, EalCase, MemifCase, WIRERATE, kill, memif_server_profile, pcap_frames,
                    tshark_fields, wait_for)

RUN_TIMEOUT_S = 60
PEER_START_S = 10
# Through memif and testpmd macswap on the other CPU: a rate far below the
# path's lossless 3 Mpps (TESTBED.md), so every frame comes back.
MEMIF_RATE = "200 kpps"
MEMIF_COUNT = 40_000
# af_packet into a veth: far below its 0.4 Mpps.
VETH_RATE = "50 kpps"
VETH_COUNT = 3_600
REPEATS = 3


class Telemetry:
    """A client of a DPDK process's telemetry v2 socket, written here from DPDK's protocol
    (a SOCK_SEQPACKET socket, a JSON hello, then one JSON reply per command): fast enough
    to read within a repetition's drain, and sharing nothing with wirerate's."""

    def __init__(self, prefix):
        self.path = f"/var/run/dpdk/{prefix}/dpdk_telemetry.v2"
        self.sock = None

    def connect(self, timeout):
        def attempt():
            s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            try:
                s.connect(self.path)
            except OSError:
                s.close()
                return False
            s.settimeout(5)
            self.max_len = json.loads(s.recv(4096))["max_output_len"]
            self.sock = s
            return True
        return wait_for(attempt, timeout, step=0.1)

    def stats(self, port=0):
        self.sock.send(f"/ethdev/stats,{port}".encode())
        return json.loads(self.sock.recv(self.max_len))["/ethdev/stats"]

    def close(self):
        if self.sock is not None:
            self.sock.close()


def peer_lines(stdout):
    """The per-repetition peer lines: [(rx_pkts, rx_bytes, tx_pkts, tx_bytes)] in order."""
    out = []
    for line in stdout.splitlines():
        line = line.strip()
        if line.startswith("peer ") and ": rx " in line and "per repeat" not in line:
            w = line.split(": rx ", 1)[1].replace(",", "").split()
            out.append((int(w[0]), int(w[2]), int(w[5]), int(w[7])))
    return out


def check_spread(case, sp, msg):
    case.assertIsNotNone(sp, msg)
    case.assertLessEqual(sp["min"], sp["median"], msg)
    case.assertLessEqual(sp["median"], sp["max"], msg)
    case.assertGreater(sp["min"], 0, msg)


class RepeatMemif(MemifCase):
    """wirerate as the memif server, dpdk-testpmd macswap as the reflector, its telemetry the peer."""

    RUNDIR = "wrrep"

    def test_repeat_testpmd_telemetry(self):
        pid = os.getpid()
        gen, refl = f"wrrepg{pid}", f"wrrepr{pid}"
        for p in (gen, refl):
            self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", p), True)
        prof = memif_server_profile(self, "memif.yaml", gen, self.sock, 200)
        sf = self.write("s.yaml", f"""version: 1
streams:
  - name: echo
    size: 128
    rate: {MEMIF_RATE}
    count: {MEMIF_COUNT}
    latency: loss
""")
        # A drain of 1 s after each repetition: the test reads testpmd's
        # counters itself then (every frame is back within microseconds).
        w = subprocess.Popen([WIRERATE, "run", sf, "--config", prof, "--repeat", str(REPEATS),
                              "--drain", "1", "--peer", f"telemetry:{refl}:0",
                              "--json", self.path("r.json")],
                             cwd=self.tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
        self.procs.append(w)
        self.wait_listening(w, PEER_START_S)
        t = self.start_reflector(refl, self.sock)
        self.procs.insert(0, t)
        tel = Telemetry(refl)
        self.addCleanup(tel.close)
        self.assertTrue(tel.connect(PEER_START_S), "testpmd's telemetry socket did not answer")
        # Read testpmd's cumulative counters in each repetition's drain.
        readings, lines = [], []
        timer = threading.Timer(RUN_TIMEOUT_S, w.kill)
        timer.start()
        try:
            for line in w.stdout:
                lines.append(line)
                if line.startswith("sending stopped"):
                    # Frames still in flight when sending stopped reach
                    # testpmd within the drain (39,253 of 40,000 in at the
                    # line beside two busy loops): the first two equal
                    # readings, 50 ms apart, inside the 1-s drain.
                    cur = tel.stats(0)
                    for _ in range(15):
                        time.sleep(0.05)
                        again = tel.stats(0)
                        if again == cur:
                            break
                        cur = again
                    readings.append(cur)
        finally:
            timer.cancel()
        rc = w.wait(timeout=10)
        err = w.stderr.read()
        # testpmd first, while the link is up (TESTBED.md).
        kill(t)
        out = "".join(lines)
        msg = out + err
        self.assertEqual(rc, 0, msg)
        self.assertEqual(len(readings), REPEATS, msg)
        self.assertNotIn(None, readings, msg)

        res = self.json("r.json")
        reps = res["repeats"]
        self.assertEqual(len(reps), REPEATS, msg)
        KEYS = ("ipackets", "opackets", "ibytes", "obytes")
        prev = dict.fromkeys(KEYS, 0)
        printed = peer_lines(out)
        self.assertEqual(len(printed), REPEATS, msg)
        for k, rep in enumerate(reps):
            st = rep["streams"][0]
            # Every repetition sends exactly the count, all of it back.
            self.assertEqual(st["tx_pkts"], MEMIF_COUNT, msg)
            self.assertEqual(st["tx_bytes"], MEMIF_COUNT * 128, msg)
            self.assertEqual(st["rx_pkts"], MEMIF_COUNT, msg)
            self.assertEqual(st["lost"], 0, msg)
            # Goodput: 128-byte frames carry 128 - 4 - 42 bytes above UDP.
            self.assertEqual(st["goodput_bytes"], MEMIF_COUNT * (128 - 4 - 42), msg)
            peer = rep["peers"][0]
            self.assertEqual(peer["peer"], f"telemetry:{refl}:0")
            # testpmd's own counters over this repetition, as the test read them.
            cur = readings[k]
            want = {key: cur[key] - prev[key] for key in KEYS}
            prev = cur
            self.assertEqual(peer["rx_pkts"], want["ipackets"], msg)
            self.assertEqual(peer["tx_pkts"], want["opackets"], msg)
            self.assertEqual(peer["rx_bytes"], want["ibytes"], msg)
            self.assertEqual(peer["tx_bytes"], want["obytes"], msg)
            # macswap returns what it got; memif counts without the FCS.
            self.assertEqual(peer["rx_pkts"], MEMIF_COUNT, msg)
            self.assertEqual(peer["tx_pkts"], MEMIF_COUNT, msg)
            self.assertEqual(peer["rx_bytes"], MEMIF_COUNT * 124, msg)
            # The printed line says the same.
            self.assertEqual(printed[k], (peer["rx_pkts"], peer["rx_bytes"],
                                          peer["tx_pkts"], peer["tx_bytes"]), msg)
        summ = res["summary"]
        self.assertEqual(summ["repeats"], REPEATS)
        s = summ["streams"][0]
        self.assertEqual(s["tx_pkts"], REPEATS * MEMIF_COUNT, msg)
        self.assertEqual(s["rx_pkts"], REPEATS * MEMIF_COUNT, msg)
        for key in ("kpps", "mbps_l2", "mbps_l1", "goodput_mbps", "duration_ms"):
            check_spread(self, s[key], msg + key)
        # The spread is of the repetitions' own figures.
        kpps = sorted(r["streams"][0]["kpps"] for r in reps)
        self.assertAlmostEqual(s["kpps"]["min"], kpps[0], places=2)
        self.assertAlmostEqual(s["kpps"]["median"], kpps[1], places=2)
        self.assertAlmostEqual(s["kpps"]["max"], kpps[2], places=2)
        # L1 over L2 is (size + 20) / size for one size.
        self.assertAlmostEqual(s["mbps_l1"]["median"] / s["mbps_l2"]["median"], 148 / 128,
                               places=4)
        ptot = summ["peers"][0]["total"]
        self.assertEqual(ptot["rx_pkts"], readings[-1]["ipackets"], msg)
        self.assertEqual(ptot["tx_pkts"], readings[-1]["opackets"], msg)
        # Backward compatible: the single run's keys are there (the last repetition's).
        self.assertEqual(res["schema"], "wirerate-results/1")
        self.assertEqual(res["streams"][0]["tx_pkts"], MEMIF_COUNT)
        self.assertIn("summary of 3 repeats", out)


class RepeatVeth(EalCase):
    """af_packet on one end of a veth pair in a namespace, the kernel's other end the peer."""

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0 or shutil.which("ip") is None:
            self.skipTest("needs root and iproute2 to create a namespace")
        tag = f"{os.getpid() % 100000}"
        self.ns = f"wrrep-{tag}"
        self.gen_if, self.peer_if = f"wrr{tag}g", f"wrr{tag}p"
        subprocess.run(["ip", "netns", "del", self.ns], capture_output=True)
        subprocess.run(["ip", "netns", "add", self.ns], check=True, timeout=10)
        self.addCleanup(subprocess.run, ["ip", "netns", "del", self.ns], capture_output=True)
        # No IPv6: the kernel would send router solicitations and MLD
        # reports of its own into the veth (TESTBED.md).
        subprocess.run(["ip", "netns", "exec", self.ns, "sysctl", "-qw",
                        "net.ipv6.conf.all.disable_ipv6=1",
                        "net.ipv6.conf.default.disable_ipv6=1"], check=True, timeout=10)
        self.ip("link", "add", self.gen_if, "type", "veth", "peer", "name", self.peer_if)
        self.ip("link", "set", self.gen_if, "up")
        self.ip("link", "set", self.peer_if, "up")

    def ip(self, *args):
        return subprocess.run(["ip", "-n", self.ns, *args], check=True, capture_output=True,
                              text=True, timeout=10).stdout

    def kernel_rx(self):
        """The kernel's own counters of the peer veth (ip -s -j link), as the test reads them."""
        st = json.loads(self.ip("-s", "-j", "link", "show", self.peer_if))[0]["stats64"]["rx"]
        return st["packets"], st["bytes"]

    def test_repeat_netdev_peer(self):
        prefix = f"wrrepv{os.getpid()}"
        self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", prefix), True)
        prof = self.profile(f"net_af_packet0,iface={self.gen_if}", prefix)
        # Two streams of different stacks, sizes and mixes: goodput per frame.
        sf = self.write("s.yaml", f"""version: 1
streams:
  - name: imix
    size: imix
    rate: {VETH_RATE}
    count: {VETH_COUNT}
  - name: tcp6
    size: 200
    rate: {VETH_RATE}
    count: {VETH_COUNT}
    stack: [eth, ipv6, tcp]
""")
        before = self.kernel_rx()
        p = subprocess.run(["ip", "netns", "exec", self.ns, WIRERATE, "run", sf, "--config", prof,
                            "--repeat", str(REPEATS), "--quiet", "--json", self.path("r.json"),
                            "--peer", f"netdev:{self.ns}/{self.peer_if}",
                            "--peer", f"netdev:{self.peer_if}"],
                           cwd=self.tmp, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        after = self.kernel_rx()
        msg = p.stdout + p.stderr
        self.assertEqual(p.returncode, 0, msg)
        res = self.json("r.json")
        reps = res["repeats"]
        self.assertEqual(len(reps), REPEATS, msg)
        # One IMIX cycle is 12 frames of 7x64 + 4x594 + 1x1518 bytes.
        cycles, rest = divmod(VETH_COUNT, 12)
        self.assertEqual(rest, 0)
        imix_bytes = cycles * (7 * 64 + 4 * 594 + 1518)
        sum_rx = [0, 0]
        for rep in reps:
            imix, tcp6 = rep["streams"]
            self.assertEqual(imix["tx_pkts"], VETH_COUNT, msg)
            self.assertEqual(imix["tx_bytes"], imix_bytes, msg)
            self.assertEqual(tcp6["tx_pkts"], VETH_COUNT, msg)
            # Goodput: above UDP (42 bytes in) and above TCP over IPv6 (74).
            self.assertEqual(imix["goodput_bytes"], imix_bytes - VETH_COUNT * (4 + 42), msg)
            self.assertEqual(tcp6["goodput_bytes"], VETH_COUNT * (200 - 4 - 74), msg)
            self.assertEqual(rep["ports"][0]["goodput_bytes"],
                             imix["goodput_bytes"] + tcp6["goodput_bytes"], msg)
            ns_peer, own_peer = rep["peers"]
            # The kernel received every frame, without FCS; both ways of
            # naming the interface read the same counters.
            self.assertEqual(ns_peer["rx_pkts"], 2 * VETH_COUNT, msg)
            self.assertEqual(ns_peer["rx_bytes"],
                             imix_bytes + VETH_COUNT * 200 - 2 * VETH_COUNT * 4, msg)
            self.assertEqual((own_peer["rx_pkts"], own_peer["rx_bytes"]),
                             (ns_peer["rx_pkts"], ns_peer["rx_bytes"]), msg)
            sum_rx[0] += ns_peer["rx_pkts"]
            sum_rx[1] += ns_peer["rx_bytes"]
        # What the test read from the kernel itself over the whole run.
        self.assertEqual(sum_rx, [after[0] - before[0], after[1] - before[1]], msg)
        summ = res["summary"]
        self.assertEqual(summ["peers"][0]["total"]["rx_pkts"], after[0] - before[0], msg)
        for row in summ["streams"] + summ["ports"]:
            for key in ("kpps", "mbps_l2", "mbps_l1", "goodput_mbps", "duration_ms"):
                check_spread(self, row[key], msg + key)
        # Every repetition sent the same bytes: one seed, one frame sequence.
        self.assertEqual(len({r["streams"][0]["tx_bytes"] for r in reps}), 1)


class RepeatSameBytes(EalCase):
    """Every repetition sends the same frames: random fields and sizes drawn again from the same seed."""

    def test_same_frames_each_repetition(self):
        prefix = f"wrrepp{os.getpid()}"
        self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", prefix), True)
        prof = self.profile(f"net_pcap0,tx_pcap={self.path('tx.pcap')}", prefix)
        sf = self.write("s.yaml", """version: 1
seed: 77
streams:
  - name: r
    size: {random: {min: 64, max: 300}}
    count: 500
    udp: {src: {random: {min: 1024, max: 65535}}, dst: 9}
""")
        self.wirerate("run", sf, "--config", prof, "--repeat", "3", "--quiet", check=0)
        self.wirerate("dump", sf, "--count", "500", "--pcap", self.path("dump.pcap"), check=0)
        sent = pcap_frames(self.path("tx.pcap"))
        want = pcap_frames(self.path("dump.pcap"))
        self.assertEqual(len(want), 500)
        self.assertEqual(len(sent), 1500)
        self.assertGreater(len({len(f) for f in want}), 50)  # the sizes do vary
        for k in range(3):
            self.assertEqual(sent[500 * k:500 * (k + 1)], want, f"repetition {k + 1}")


    def test_transfer_500mib(self):
        """streams/transfer-500mb.yaml sends seed 002's file, dd bs=1k count=500k: 524288000
        bytes of TCP payload (issue 31: 359095 full frames, 9300 bytes short), as 359101
        segments of 1460 bytes and one of 540, their sequence numbers contiguous: counted by
        the port and decoded by tshark."""
        sf = os.path.join(ROOT, "streams", "transfer-500mb.yaml")
        prefix = f"wrrept{os.getpid()}"
        self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", prefix), True)
        self.wirerate("run", sf, "--config", self.profile("net_null0", prefix), "--quiet",
                      "--json", self.path("t.json"), check=0)
        res = self.json("t.json")
        streams = {s["name"]: s for s in res["streams"]}
        self.assertEqual(streams["transfer"]["tx_pkts"], 359101)
        self.assertEqual(streams["transfer"]["tx_bytes"], 359101 * 1518)
        self.assertEqual(streams["last"]["tx_pkts"], 1)
        self.assertEqual(streams["last"]["tx_bytes"], 598)
        # What tshark says each frame carries: 1460 bytes from seq 1 on, then 540.
        self.wirerate("dump", sf, "--count", "2", "--pcap", self.path("d.pcap"), check=0)
        rows = tshark_fields(self.path("d.pcap"), ["frame.len", "tcp.len", "tcp.seq_raw"])
        self.assertEqual(rows[:2], [["1514", "1460", "1"], ["1514", "1460", "1461"]])
        self.assertEqual(rows[2], ["594", "540", str(1 + 359101 * 1460)])
        self.assertEqual(359101 * 1460 + 540, 500 * 1024 * 1024)


class RepeatBadInput(EalCase):
    """Bad --repeat and --peer values: one line, exit 2, nothing sent."""

    def one_line(self, p, pattern):
        msg = p.stdout + p.stderr
        self.assertEqual(p.returncode, 2, msg)
        lines = p.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, msg)
        self.assertRegex(lines[0], pattern)
        self.assertFalse(os.path.exists(self.path("r.json")), msg)

    def stream(self, count="count: 1000"):
        return self.write("s.yaml", f"""version: 1
streams:
  - name: s
    size: 64
    {count}
""")

    def test_bad_options(self):
        sf = self.stream()
        for args, pat in (
                (["--repeat", "0"], r"--repeat: expected a number of repeats 1\.\.1000"),
                (["--repeat", "x"], r"--repeat: expected"),
                (["--repeat", "1001"], r"--repeat: expected"),
                (["--repeat", "2", "--peer", "bogus"], r"--peer: expected telemetry:"),
                (["--repeat", "2", "--peer", "telemetry:/x.sock"], r"--peer: expected telemetry:SOCKET:PORT"),
                (["--repeat", "2", "--peer", "telemetry:p:70000"], r"--peer: expected"),
                (["--repeat", "2", "--peer", "netdev:"], r"--peer: expected netdev:"),
                (["--repeat", "2", "--peer", "netdev:ns/waytoolonginterfacename"], r"--peer: expected netdev:"),
                (["--peer", "netdev:lo"], r"--peer: needs --repeat"),
        ):
            p = self.wirerate("run", sf, "--quiet", "--json", self.path("r.json"), *args)
            self.one_line(p, pat)
        # A stream that never ends cannot be repeated (no EAL started).
        p = self.wirerate("run", self.stream("rate: max"), "--repeat", "2", "--quiet",
                          "--json", self.path("r.json"))
        self.one_line(p, r"s\.yaml:3:5: --repeat: stream s never ends")

    def test_bad_peers(self):
        """Peers that are not there or answer nonsense: refused after EAL, before any frame."""
        sf = self.stream()
        prefix = f"wrrepb{os.getpid()}"
        self.addCleanup(shutil.rmtree, os.path.join("/var/run/dpdk", prefix), True)
        prof = self.profile("net_null0", prefix)
        nonsense = self.fake_telemetry("nonsense.sock", b"hello, I am not DPDK", b"")
        no_port = self.fake_telemetry(
            "noport.sock",
            b'{"version": "DPDK 22.11.0", "pid": 1, "max_output_len": 16384}',
            b'{"/ethdev/stats": null}')
        for peer, pat in (
                ("telemetry:/nonexistent/dpdk_telemetry.v2:0", r"cannot connect to /nonexistent"),
                (f"telemetry:{nonsense}:0", r"not a DPDK telemetry v2 socket"),
                (f"telemetry:{no_port}:3", r"gave no port counters \(no port 3"),
                ("netdev:wrrep-no-such-ns/lo", r"network namespace /var/run/netns/wrrep-no-such-ns"),
                ("netdev:wrrepnosuch0", r"no interface wrrepnosuch0 in our network namespace"),
        ):
            p = self.wirerate("run", sf, "--config", prof, "--repeat", "2", "--quiet",
                              "--json", self.path("r.json"), "--peer", peer)
            self.one_line(p, r"^wirerate: --peer " + ".*" + pat)
            self.assertNotIn("repeat 1 of 2", p.stdout)

    def fake_telemetry(self, name, hello, reply):
        """A SOCK_SEQPACKET server that sends @hello, then answers every command with @reply."""
        path = self.path(name)
        srv = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        srv.bind(path)
        srv.listen(4)
        self.addCleanup(srv.close)

        def serve():
            while True:
                try:
                    c, _ = srv.accept()
                except OSError:
                    return
                with c:
                    c.settimeout(5)
                    try:
                        c.send(hello)
                        while c.recv(1024):
                            if reply:
                                c.send(reply)
                    except OSError:
                        pass

        threading.Thread(target=serve, daemon=True).start()
        return path


if __name__ == "__main__":
    unittest.main()
