# SPDX-License-Identifier: BSD-3-Clause
"""wirerate run/check end to end: frames checked by tshark, results JSON, signals, bad input."""

import glob
import os
import re
import time
import unittest

from wrtest import STREAMS, FIXTURES, EalCase, WrCase, sigint, tshark_fields

TWO_STREAMS = """version: 1
seed: 7
streams:
  - name: small
    port: 0
    size: 64
    count: 1000
    eth: {src: "02:00:00:00:00:0a", dst: "02:00:00:00:00:0b"}
    ipv4: {src: 10.1.2.3, dst: 10.4.5.6, ttl: 17, dscp: 10, ecn: 1, id: 4242, df: true}
    udp: {src: 5001, dst: 5002}
    payload: {pattern: "deadbeef"}
  - name: large
    port: 0
    size: 1518
    count: 500
    eth: {src: "02:00:00:00:00:0c", dst: "02:00:00:00:00:0d"}
    ipv4: {src: 192.0.2.1, dst: 192.0.2.2, ttl: 64, df: false}
    udp: {src: 6001, dst: 6002}
    payload: inc
"""


class RunPcap(EalCase):
    """Frames written by net_pcap, decoded by tshark."""

    def run_pcap(self, stream_text, *extra, prefix="wrpcap"):
        sf = self.write("s.yaml", stream_text)
        prof = self.profile("net_pcap0,tx_pcap=" + self.path("out.pcap"), prefix)
        p = self.wirerate("run", sf, "--config", prof, "--quiet", "--json",
                          self.path("r.json"), *extra, check=0)
        return p

    def test_two_streams_exact(self):
        self.run_pcap(TWO_STREAMS)
        rows = tshark_fields(self.path("out.pcap"), [
            "frame.len", "eth.src", "eth.dst", "ip.src", "ip.dst", "ip.ttl", "ip.dsfield.dscp",
            "ip.dsfield.ecn", "ip.id", "ip.flags.df", "ip.len", "udp.srcport", "udp.dstport",
            "udp.length", "ip.checksum.status", "udp.checksum.status", "data.data"])
        small = [r for r in rows if r[11] == "5001"]
        large = [r for r in rows if r[11] == "6001"]
        self.assertEqual(len(rows), 1500)
        self.assertEqual(len(small), 1000)
        self.assertEqual(len(large), 500)
        for r in rows:
            self.assertEqual(r[14], "1", f"bad IPv4 checksum: {r[:14]}")
            self.assertEqual(r[15], "1", f"bad UDP checksum: {r[:14]}")
        for r in small:
            self.assertEqual(r[:14], ["60", "02:00:00:00:00:0a", "02:00:00:00:00:0b", "10.1.2.3",
                                      "10.4.5.6", "17", "10", "1", "0x1092", "1", "46", "5001",
                                      "5002", "26"])
            self.assertEqual(r[16], ("deadbeef" * 5)[:36])
        for r in large:
            self.assertEqual(r[:14], ["1514", "02:00:00:00:00:0c", "02:00:00:00:00:0d",
                                      "192.0.2.1", "192.0.2.2", "64", "0", "0", "0x0000", "0",
                                      "1500", "6001", "6002", "1480"])
            self.assertEqual(r[16], "".join(f"{i & 0xff:02x}" for i in range(1472)))
        res = self.json("r.json")
        self.assertEqual(res["stop_reason"], "count")
        by_name = {s["name"]: s for s in res["streams"]}
        self.assertEqual(by_name["small"]["tx_pkts"], 1000)
        self.assertEqual(by_name["small"]["tx_bytes"], 64000)
        self.assertEqual(by_name["large"]["tx_pkts"], 500)
        self.assertEqual(by_name["large"]["tx_bytes"], 759000)
        self.assertEqual(res["ports"][0]["tx_pkts"], 1500)
        self.assertEqual(res["ports"][0]["nic"]["opackets"], 1500)

    def test_classic_sizes(self):
        """Every size of RFC 2544's set, --count overriding the file's."""
        with open(os.path.join(STREAMS, "rfc2544-sizes.yaml")) as f:
            text = f.read()
        self.run_pcap(text, "--count", "100")
        rows = tshark_fields(self.path("out.pcap"), ["frame.len", "ip.len", "udp.length",
                                                     "ip.checksum.status", "udp.checksum.status"])
        sizes = {}
        for r in rows:
            n = int(r[0]) + 4
            sizes[n] = sizes.get(n, 0) + 1
            self.assertEqual(int(r[1]), n - 18)
            self.assertEqual(int(r[2]), n - 38)
            self.assertEqual(r[3:], ["1", "1"])
        self.assertEqual(sizes, {s: 100 for s in (64, 128, 256, 512, 1024, 1280, 1518)})

    def test_bad_stream_file_starts_nothing(self):
        bad = os.path.join(FIXTURES, "bad-range-ttl.yaml")
        prof = self.profile("net_pcap0,tx_pcap=" + self.path("out.pcap"), "wrbad")
        p = self.wirerate("run", bad, "--config", prof, check=2)
        self.assertRegex(p.stderr.strip(), r"^wirerate: .*bad-range-ttl\.yaml:\d+:\d+: .*ttl")
        self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
        self.assertFalse(os.path.exists(self.path("out.pcap")))
        self.assertEqual(p.stdout, "")

    def test_stream_on_missing_port(self):
        sf = self.write("s.yaml", TWO_STREAMS.replace("port: 0\n    size: 1518", "port: 3\n    size: 1518"))
        prof = self.profile("net_pcap0,tx_pcap=" + self.path("out.pcap"), "wrport")
        p = self.wirerate("run", sf, "--config", prof, check=2)
        self.assertRegex(p.stderr, r"s\.yaml:\d+:\d+: streams\[1\]\.port: port 3 does not exist")
        self.assertFalse(os.path.exists(self.path("out.pcap")))

    def test_profile_device_missing(self):
        sf = self.write("s.yaml", TWO_STREAMS)
        prof = self.write("p.yaml", """version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix=wrmiss", "--vdev=net_null0", "--lcores=0@0,1@1"]
ports:
  - device: net_null7
""")
        p = self.wirerate("run", sf, "--config", prof, check=2)
        self.assertIn('port "net_null7" does not exist; EAL found: net_null0', p.stderr)
        self.assertNotIn("summary", p.stdout)


class RunNull(EalCase):
    """Maximum rate on net_null: results JSON, durations, signals."""

    def test_duration_json(self):
        sf = os.path.join(STREAMS, "udp-64.yaml")
        prof = self.profile("net_null0", "wrnull")
        p = self.wirerate("run", sf, "--config", prof, "--duration", "2", "--json",
                          self.path("r.json"), check=0)
        self.assertIn("Mbps L1 = (frame size incl. FCS + 20", p.stdout)
        self.assertIn("summary (stopped by duration)", p.stdout)
        res = self.json("r.json")
        self.assertEqual(res["schema"], "wirerate-results/1")
        self.assertRegex(res["stream_file_sha256"], r"^[0-9a-f]{64}$")
        self.assertTrue(res["dpdk_version"].startswith("DPDK 22.11"))
        self.assertEqual(res["lcores"], {"main": 0, "tx": [1]})
        self.assertAlmostEqual(res["duration_s"], 2.0, delta=0.2)
        # The TSC measured against CLOCK_MONOTONIC_RAW, refined over the run (test_clock
        # checks it against the kernel's packet timestamps); DPDK's figure beside it.
        tsc = res["tsc"]
        self.assertEqual(tsc["source"], "CLOCK_MONOTONIC_RAW")
        self.assertLess(abs(tsc["hz"] / tsc["eal_hz"] - 1), 0.01)
        self.assertGreater(tsc["span_s"], 1.5)
        self.assertLess(tsc["error_ppm"], 5)
        self.assertRegex(p.stdout, r"clock: TSC \d+\.\d{6} MHz against CLOCK_MONOTONIC_RAW "
                                   r"\(\+-\d+\.\d\d ppm\); DPDK says \d+\.\d{3} MHz")
        s = res["streams"][0]
        port = res["ports"][0]
        self.assertGreater(s["tx_pkts"], 0)
        self.assertEqual(s["tx_bytes"], 64 * s["tx_pkts"])
        self.assertEqual(port["tx_pkts"], s["tx_pkts"])
        self.assertEqual(port["nic"]["opackets"], s["tx_pkts"])
        for row in (s, port):
            kpps = row["tx_pkts"] / row["duration_s"] / 1e3
            self.assertAlmostEqual(row["kpps"], kpps, delta=kpps * 1e-6 + 0.001)
            self.assertAlmostEqual(row["mbps_l1"], (64 + 20) * row["kpps"] * 8 / 1000,
                                   delta=row["mbps_l1"] * 1e-6 + 0.001)
            self.assertAlmostEqual(row["mbps_l2"], 64 * row["kpps"] * 8 / 1000,
                                   delta=row["mbps_l2"] * 1e-6 + 0.001)

    def test_sigint_gives_complete_summary(self):
        sf = os.path.join(STREAMS, "udp-64.yaml")
        prof = self.profile("net_null0", "wrsig")
        proc = self.start("run", sf, "--config", prof, "--json", self.path("r.json"))
        time.sleep(1.5)
        sigint(proc)
        out, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 0, err)
        self.assertIn("summary (stopped by signal)", out)
        self.assertRegex(out, r"stream\s+\S+\s+\d+\s+\d+\s+[\d.]+")
        res = self.json("r.json")
        self.assertEqual(res["stop_reason"], "signal")
        self.assertGreater(res["streams"][0]["tx_pkts"], 0)
        self.assertEqual(res["ports"][0]["nic"]["opackets"], res["streams"][0]["tx_pkts"])

    def test_live_lines_in_a_pipe(self):
        sf = os.path.join(STREAMS, "udp-64.yaml")
        prof = self.profile("net_null0", "wrlive")
        p = self.wirerate("run", sf, "--config", prof, "--duration", "2.5", check=0)
        live = [l for l in p.stdout.splitlines() if re.match(r"^\s+\d+\.\ds stream ", l)]
        self.assertGreaterEqual(len(live), 2, p.stdout)
        self.assertNotIn("\033[", p.stdout)


class Check(WrCase):
    """`wirerate check` needs no EAL: every shipped stream file passes, bad ones exit 2."""

    def test_shipped_files(self):
        files = sorted(glob.glob(os.path.join(STREAMS, "*.yaml")))
        self.assertGreater(len(files), 3)
        for f in files:
            p = self.wirerate("check", f, check=0)
            # A file of tcp classes alone says each class instead.
            self.assertRegex(p.stdout, r"stream |tcp class ")

    def test_bad_files(self):
        bad = sorted(glob.glob(os.path.join(FIXTURES, "bad-*.yaml")))
        bad = [b for b in bad if not os.path.basename(b).startswith("bad-config")]
        self.assertGreater(len(bad), 5)
        for f in bad:
            p = self.wirerate("check", f)
            self.assertEqual(p.returncode, 2, f)
            line = p.stderr.strip()
            self.assertEqual(len(line.splitlines()), 1, f"{f}: {p.stderr}")
            self.assertIn(os.path.basename(f), line)

    def test_bad_options(self):
        sf = os.path.join(STREAMS, "udp-64.yaml")
        for args, msg in ((["run", sf, "--duration", "abc"], "--duration"),
                          (["run", sf, "--count", "-5"], "--count"),
                          (["run", sf, "--bogus"], "unknown option"),
                          (["frobnicate"], "unknown command"),
                          (["run", "/nonexistent.yaml"], "/nonexistent.yaml")):
            p = self.wirerate(*args, check=2)
            self.assertIn(msg, p.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
