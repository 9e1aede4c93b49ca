# SPDX-License-Identifier: BSD-3-Clause
"""Bad input: each case gets exit 2, one line naming what is wrong, and nothing started or left behind."""

import glob
import hashlib
import json
import os
import re
import resource
import shutil
import signal
import socket
import stat
import subprocess
import time
import unittest

from wrtest import EalCase, STREAMS, WIRERATE, WrCase
from test_server import ServerCase  # noqa: E402  (its server and client helpers)
import wirerate  # noqa: E402  (test_server put python/ on the path)

STREAM = os.path.join(STREAMS, "udp-64.yaml") if os.path.exists(
    os.path.join(STREAMS, "udp-64.yaml")) else None


class BadInput(EalCase):
    """A table of bad inputs; for each: exit 2, one stderr line matching, no output file, no EAL dir."""

    def stream(self):
        return self.write("s.yaml", """version: 1
streams:
  - name: s
    size: 70
    rate: 10 kpps
    count: 100
""")

    def prof(self, prefix, eal_extra="", device="net_null0", tx="[1]", vdev="net_null0",
             port_extra="", memory='"--in-memory", '):
        return self.write(f"{prefix}.yaml", f"""version: 1
eal: ["--no-pci", {memory}"--file-prefix={prefix}", "--vdev={vdev}"{eal_extra}, "--lcores=0@0,1@1"]
ports:
  - device: {device}
    tx_lcores: {tx}
{port_extra}""")

    def check(self, args, pattern, prefix=None, outputs=()):
        p = self.wirerate(*args)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        msg = f"wirerate {' '.join(args)}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}"
        self.assertEqual(p.returncode, 2, msg)
        self.assertEqual(len(lines), 1, msg)
        self.assertRegex(lines[0], pattern, msg)
        # Nothing sent: no summary, no result file, no EAL runtime dir.
        self.assertNotIn("summary", p.stdout, msg)
        for o in outputs:
            self.assertFalse(os.path.exists(o), f"{o} left behind\n{msg}")
        leftovers = [f for f in os.listdir(self.tmp) if ".XXXX" in f or re.search(r"\.json\.\w{6}$", f)]
        self.assertEqual(leftovers, [], msg)
        if prefix is not None:
            left = eal_leftovers(prefix)
            self.addCleanup(remove, left)
            self.assertEqual(left, [], msg)

    def test_table(self):
        s = self.stream()
        pid = os.getpid()
        good = self.prof(f"wrbad{pid}-ok")
        out = self.path("r.json")
        cases = [
            (["frobnicate", s], r'^wirerate: unknown command "frobnicate" \(wirerate --help'),
            (["run", s, "--csv", "x"], r"^wirerate: --csv does not apply to run"),
            (["run", s, "--tx-port", "3"], r"^wirerate: --tx-port does not apply to run"),
            (["run", s, "--timeout", "1"], r"^wirerate: --timeout does not apply to run"),
            (["check", s, "--json", "x"], r"^wirerate: --json does not apply to check"),
            (["run", s, "--on-link-down", "maybe"], r"^wirerate: --on-link-down: expected stop or continue"),
            (["run", s, "--config", good, "--json", "/nonexistent-dir/r.json"],
             r"^wirerate: --json /nonexistent-dir/r.json: cannot write there: No such file"),
            (["run", s, "--config", good, "--json", self.tmp],
             r"cannot write there: a directory, not a regular file"),
            (["run", s, "--config", good, "--stats-jsonl", "/nonexistent-dir/l.jsonl"],
             r"^wirerate: --stats-jsonl /nonexistent-dir/l.jsonl: cannot write there"),
            (["sweep", s, "--config", good, "--csv", "/nonexistent-dir/s.csv"],
             r"^wirerate: --csv /nonexistent-dir/s.csv: cannot write there"),
        ]
        mc = self.write("mc.yaml", """version: 1
streams:
  - name: m
    size: 70
    count: 10
    eth: {src: "01:00:5e:00:00:01"}
""")
        bc = self.write("bc.yaml", """version: 1
streams:
  - name: b
    size: 70
    count: 10
    eth: {src: "ff:ff:ff:ff:ff:ff"}
""")
        # libpcap compiles protochain into a loop DPDK's verifier refuses: check refuses it
        # as run does, in one line.
        pc = self.write("pc.yaml", """version: 1
rx_classes:
  - {name: a, filter: "ip6 protochain 6"}
streams:
  - name: s
    size: 70
    count: 10
""")
        loop = r'DPDK.s eBPF cannot take "ip6 protochain 6" \(a loop: instruction 18 jumps back to 4'
        cases += [
            (["check", pc], r"^wirerate: .*pc.yaml:3:23: rx_classes\[0\]\.filter: " + loop),
            (["run", pc, "--config", good], r"^wirerate: .*pc.yaml:3:23: rx_classes\[0\]\.filter: " + loop),
            (["run", s, "--config", good, "--capture", "0=c.pcapng", "--capture-filter",
              "ip6 protochain 6"], r"^wirerate: --capture-filter: " + loop),
            (["run", mc, "--config", good], r"mc.yaml:3:5: streams\[0\]\.eth\.src: .* is multicast"),
            (["check", bc], r"bc.yaml:3:5: streams\[0\]\.eth\.src: .* is broadcast"),
        ]
        for args, pattern in cases:
            with self.subTest(args=args):
                self.check(args, pattern, outputs=[out])
        # More than the port's line rate (net_null: 10 Gbps), without
        # --oversubscribe: found once the link speed is known.
        fast = self.write("fast.yaml", """version: 1
streams:
  - name: f
    size: 70
    rate: 100 Gbps L1
    count: 10
""")
        prefix = f"wrbad{pid}-rate"
        with self.subTest(case="rate"):
            self.check(["run", fast, "--config", self.prof(prefix), "--json", out],
                       r"fast.yaml:3:5: .*more than the link carries \(--oversubscribe",
                       prefix=prefix, outputs=[out])
        # Errors only EAL can find: one line with the profile's file:line:col.
        for name, kw, pattern in [
            ("dev", {"device": "net_null7"}, r':4:13: ports\[0\]\.device: port "net_null7" does not exist'),
            ("lc", {"tx": "[5]"}, r":5:16: ports\[0\]\.tx_lcores: lcore 5 is not enabled"),
            ("vdev", {"eal_extra": ', "--vdev=net_bogus0"'},
             r':2:\d+: eal\[4\]: EAL refused "--vdev=net_bogus0"'),
            ("opt", {"eal_extra": ', "--bogus-opt"'},
             r':2:\d+: eal\[4\]: EAL has no option "--bogus-opt"'),
            ("cpu", {"eal_extra": ', "--lcores=0@0,1@97"'},
             r':2:\d+: eal\[(4|5)\]: EAL refused "--lcores=0@0,1@97": core 97 unavailable'),
            # A worker lcore that does not exist, though nothing receives.
            ("rx", {"port_extra": "    rx_lcore: 99\n"},
             r":6:15: ports\[0\]\.rx_lcore: lcore 99 is not enabled in EAL.s --lcores/-l"),
            # The same under the list's own key.
            ("rxs", {"port_extra": "    rx_lcores: [1, 99]\n"},
             r":6:16: ports\[0\]\.rx_lcores: lcore 99 is not enabled in EAL.s --lcores/-l"),
            # A device argument its driver refuses: the EAL option, not the port.
            ("kv", {"vdev": "net_null0,nonsense=1"},
             r':2:\d+: eal\[3\]: EAL could not start the device of '
             r'"--vdev=net_null0,nonsense=1" \(vdev_probe\(\): failed to initialize net_null0'),
            # Not an option: EAL stops parsing there and starts on its default prefix.
            ("num", {"eal_extra": ", 5"},
             r':2:\d+: eal\[4\]: expected an EAL option such as "--vdev=net_null0" .*got "5"'),
            # The same without --in-memory: EAL's files on disk, removed again.
            ("numdisk", {"eal_extra": ", 5", "memory": ""},
             r':2:\d+: eal\[3\]: expected an EAL option such as "--vdev=net_null0" .*got "5"'),
        ]:
            prefix = f"wrbad{pid}-{name}"
            prof = self.prof(prefix, **kw)
            with self.subTest(case=name):
                self.check(["run", s, "--config", prof, "--json", out], "^wirerate: " + re.escape(prof) + pattern,
                           prefix=prefix, outputs=[out])
        # A file prefix that names another directory (issue 31): EAL's clean-up at exit emptied
        # it.  Refused before EAL, in the profile with its line, after -- as EAL's option (its
        # value in the next argument, or an abbreviation getopt takes); the directory as it was.
        victim = self.path("victim")
        os.mkdir(victim)
        keep = os.path.join(victim, "keep")
        with open(keep, "w") as f:
            f.write("mine\n")
        esc = "../../.." + victim
        prefix = f"wrbad{pid}-esc"
        bad = self.write("esc.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={esc}", "--vdev=net_null0", "--lcores=0@0,1@1"]
ports:
  - device: net_null0
    tx_lcores: [1]
""")
        two = self.write("two.yaml", """version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix", "..", "--vdev=net_null0", "--lcores=0@0,1@1"]
ports:
  - device: net_null0
    tx_lcores: [1]
""")
        name = r'--file-prefix: expected a name without "/" or "\.\." \(EAL.s runtime directory .*got '
        for case, args, pattern in [
                ("prof", ["run", s, "--config", bad], re.escape(bad) + r':2:34: eal\[2\]: ' + name),
                ("two", ["run", s, "--config", two], re.escape(two) + r':2:51: eal\[3\]: ' + name + '"\\.\\."$'),
                ("argv", ["run", s, "--config", good, "--", "--file-prefix", esc], name),
                ("abbrev", ["run", s, "--config", good, "--", f"--file-pre={esc}"], name),
                ("dot", ["sweep", s, "--config", good, "--", "--file-prefix=."],
                 r'--file-prefix: expected a name \(EAL.s runtime directory .*got "\."$'),
                ("ports", ["ports", "--config", good, "--", "--file-prefix=a/b"], name + '"a/b"$')]:
            with self.subTest(case=case):
                self.check(args + (["--json", out] if args[0] == "run" else []), "^wirerate: " + pattern,
                           prefix=prefix, outputs=[out])
                self.assertEqual(os.listdir(victim), ["keep"])
        # A missing value: --json takes "--config" for its file, and the profile would be
        # blamed for what is not missing.
        prefix = f"wrbad{pid}-swallow"
        prof = self.prof(prefix)
        with self.subTest(case="swallow"):
            self.check(["run", s, "--json", "--config", prof],
                       r'^wirerate: run: --json needs a value \("--config" is an option', prefix=prefix,
                       outputs=[out, self.path("--config")])

    def test_import_trex_options(self):
        """import-trex's -p and -m checked before the profile runs: nothing written that
        wirerate would refuse (a port past 31, a rate of 0)."""
        prof = self.write("p.py", """from trex_stl_lib.api import *
class P:
    def get_streams(self, direction=0, **kwargs):
        return [STLStream(packet=STLPktBuilder(pkt_buffer=bytes(60)), mode=STLTXCont(pps=10))]
def register():
    return P()
""")
        out = self.path("p.yaml")
        for args, pattern in [
            (["-p", "99"], r"^wirerate: import-trex: -p 99: expected a port in 0\.\.31$"),
            (["-p", "-1"], r"^wirerate: import-trex: -p -1: expected a port in 0\.\.31$"),
            (["-m", "0"], r"^wirerate: import-trex: -m 0: expected more than 0"),
            (["-m", "0mpps"], r"^wirerate: import-trex: -m 0mpps: expected more than 0"),
            (["-m", "0%"], r"^wirerate: import-trex: -m 0%: expected more than 0"),
            (["-m", "150%"], r"^wirerate: import-trex: -m 150%: .* at most 100%"),
            (["-m", "0.00001"], r"p\.py:4: STLTXCont: s0's rate with -m is 0\.0001 pps: "
                                r"wirerate's slowest is 0\.001 pps"),
        ]:
            with self.subTest(args=args):
                self.check(["import-trex", prof, "-o", out, *args], pattern, outputs=[out])
        # and where a stream file goes
        self.check(["check", prof, "-m", "0"], r"^wirerate: import-trex: -m 0: expected more")

    def test_nothing_left_without_in_memory(self):
        """A profile without --in-memory: DPDK keeps its runtime directory and a hugepage
        file per page after every run; wirerate removes them, after a run and after a
        signal alike."""
        s = self.stream()
        for how in ("done", "signal"):
            prefix = f"wrdisk{os.getpid()}-{how}"
            self.addCleanup(shutil.rmtree, f"/var/run/dpdk/{prefix}", True)
            prof = self.prof(prefix, memory="")
            if how == "done":
                p = self.wirerate("run", s, "--config", prof, "--quiet")
                out, err = p.stdout, p.stderr
            else:
                p = self.start("run", s, "--config", prof, "--quiet", "--duration", "30")
                time.sleep(1.0)
                p.send_signal(signal.SIGTERM)
                out, err = p.communicate(timeout=20)
            self.assertEqual(p.returncode, 0, err)
            self.assertIn("summary", out)
            left = eal_leftovers(prefix)
            self.addCleanup(remove, left)
            self.assertEqual(left, [], how)

    def test_only_eal_files_removed(self):
        """Issue 31: the clean-up at exit removes only the files EAL made in this run, and the
        runtime directory only when EAL made it: whatever else is in /var/run/dpdk/PREFIX, put
        there before the run or during it, stays."""
        s = self.stream()
        prefix = f"wrkeep{os.getpid()}"
        d = f"/var/run/dpdk/{prefix}"
        self.addCleanup(shutil.rmtree, d, True)
        os.makedirs(d)
        mine = {"keep.txt": "mine\n", "config.old": "an old config\n", "notes": ""}
        for n, text in mine.items():
            with open(os.path.join(d, n), "w") as f:
                f.write(text)
        prof = self.prof(prefix, memory="")
        p = self.wirerate("run", s, "--config", prof, "--quiet")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("summary", p.stdout)
        # EAL's own files (config, hugepage_info, fbarray_*, mp_socket) gone, ours as they were.
        self.assertEqual(sorted(os.listdir(d)), sorted(mine))
        for n, text in mine.items():
            with open(os.path.join(d, n)) as f:
                self.assertEqual(f.read(), text, n)
        self.assertEqual([x for x in eal_leftovers(prefix) if x != d], [])
        # The directory made by the run: a file put in it while the run goes stays, and so does
        # the directory (not emptied).
        shutil.rmtree(d)
        p = self.start("run", s, "--config", prof, "--quiet", "--duration", "30")
        t0 = time.monotonic()
        while not os.path.exists(os.path.join(d, "config")) and time.monotonic() - t0 < 20:
            time.sleep(0.05)
        with open(os.path.join(d, "late.txt"), "w") as f:
            f.write("late\n")
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=20)
        self.assertEqual(p.returncode, 0, err)
        self.assertEqual(os.listdir(d), ["late.txt"])
        self.assertEqual([x for x in eal_leftovers(prefix) if x != d], [])

    def test_bench_options_before_eal(self):
        """Issue 17: sweep and rfc2544 options naming a port the profile does not have, or a
        --min-rate above --max-rate, are refused before EAL starts: one line naming the
        option, exit 2, no output, fast.  The profile's EAL arguments hold an option EAL
        refuses: had EAL started, its complaint would be the line."""
        s = self.stream()
        prefix = f"wrbad{os.getpid()}-bench"
        prof = self.prof(prefix, eal_extra=', "--bogus-opt"')
        out = self.path("b.json")
        rfc = ["rfc2544", s, "--config", prof, "--json", out]
        port = r'expected a port index 0\.\.0 \(there is 1 port\), got "%s"$'
        for args, pattern in [
            (["sweep", s, "--config", prof, "--rx-port", "5", "--json", out],
             r"^wirerate: --rx-port: " + port % 5),
            (rfc + ["--tx-port", "9", "--rx-port", "0"], r"^wirerate: --tx-port: " + port % 9),
            (rfc + ["--tx-port", "0", "--rx-port", "3"], r"^wirerate: --rx-port: " + port % 3),
            (rfc + ["--pairs", "0:0,0:4"], r"^wirerate: --pairs: " + port % 4),
            (rfc + ["--tx-port", "0", "--rx-port", "0", "--min-rate", "20 kpps",
                    "--max-rate", "10 kpps"],
             r"^wirerate: --min-rate: expected at most --max-rate \(10000\.0000 pps\), "
             r"got 20000\.0000 pps$"),
            (rfc + ["--tx-port", "0", "--rx-port", "0", "--min-rate", "1 Gbps L1",
                    "--max-rate", "100 kpps", "--sizes", "64,1518"],
             r"^wirerate: --min-rate: expected at most --max-rate \(100000\.000 pps at 64 "
             r"bytes\), got 1488095\.238 pps$"),
        ]:
            with self.subTest(args=args):
                # Before EAL: --bogus-opt's complaint is not the line (not
                # a time under EAL's 0.15 s, which a busy machine exceeds).
                self.check(args, pattern, prefix=prefix, outputs=[out])

    def test_serve(self):
        """serve's sockets and token file, checked before EAL: each refusal one line, exit
        2, no EAL started, and whatever was at the paths left as it was."""
        pid = os.getpid()
        prefix = f"wrbad{pid}-srv"
        prof = self.prof(prefix)
        tok = self.write("tok", "0123456789abcdef0123\n")
        os.chmod(tok, 0o600)
        reg = self.write("regular", "precious\n")
        fifo = self.path("fifo")
        os.mkfifo(fifo, 0o600)
        link = self.path("link")
        os.symlink(reg, link)
        loose = self.write("loose", "0123456789abcdef0123\n")
        os.chmod(loose, 0o644)
        short = self.write("short", "short\n")
        os.chmod(short, 0o600)
        big = self.write("big", "x" * 5000)
        os.chmod(big, 0o600)
        spaced = self.write("spaced", "0123456789 abcdef0123\n")
        os.chmod(spaced, 0o600)
        # A live server on a socket: a listener of ours, answering.
        live = self.path("live.sock")
        ls = socket.socket(socket.AF_UNIX)
        ls.bind(live)
        ls.listen(4)
        self.addCleanup(ls.close)
        # A TCP port in use.
        ts = socket.socket()
        ts.bind(("127.0.0.1", 0))
        ts.listen(4)
        self.addCleanup(ts.close)
        busy = ts.getsockname()[1]
        free = socket.socket()
        free.bind(("127.0.0.1", 0))
        port = str(free.getsockname()[1])
        free.close()
        sock = ["--config", prof, "--socket", self.path("s.sock")]
        tcp = sock + ["--listen", port, "--token-file"]
        cases = [
            ([], r"^wirerate: expected a command: run, .* \(wirerate --help\)$"),
            (["serve", "--bogus"], r'^wirerate: serve: unknown option "--bogus" \(wirerate serve --help\)$'),
            (["serve", "--socket"], r"^wirerate: serve: --socket needs a value"),
            (["serve", "--config", prof, "--socket", ""],
             r"^wirerate: --socket: expected a path, or none"),
            (["serve", "--config", prof, "--socket", "none"],
             r"^wirerate: --socket: none without --listen: the server would listen nowhere"),
            (["serve", "--config", prof, "--socket", "/nonexistent-dir/s.sock"],
             r"^wirerate: --socket: /nonexistent-dir/s.sock: directory /nonexistent-dir: No such file"),
            (["serve", "--config", prof, "--socket", reg + "/s.sock"],
             r"regular/s.sock: .*regular is a regular file, not a directory"),
            (["serve", "--config", prof, "--socket", self.path("x" * 120)],
             r"^wirerate: --socket: .*: 1\d\d characters, a Unix socket path here has at most 96"),
            (["serve", "--config", prof, "--socket", reg],
             r"regular exists and is a regular file: not replaced"),
            (["serve", "--config", prof, "--socket", fifo], r"fifo exists and is a FIFO: not replaced"),
            (["serve", "--config", prof, "--socket", link],
             r"link exists and is a symbolic link: not replaced"),
            (["serve", "--config", prof, "--socket", live],
             r"live.sock: a server already listens there: Address already in use"),
            (["serve", *sock, "--listen", "1.2.3.4.5:4500", "--token-file", tok],
             r'^wirerate: --listen: expected an IPv4 address, got "1.2.3.4.5"'),
            (["serve", *sock, "--listen", f"127.0.0.1:{busy}", "--token-file", tok],
             rf"^wirerate: --listen: cannot listen on 127.0.0.1:{busy}: Address already in use"),
            (["serve", *tcp, loose], r"^wirerate: --token-file: .*loose: mode 0644: .*readable by no one else"),
            (["serve", *tcp, fifo], r"^wirerate: --token-file: .*fifo: a FIFO, not a regular file"),
            (["serve", *tcp, "/dev/null"], r"^wirerate: --token-file: /dev/null: a character device"),
            (["serve", *tcp, self.tmp], r"^wirerate: --token-file: .*: a directory"),
            (["serve", *tcp, link], r"^wirerate: --token-file: .*link: a symbolic link"),
            (["serve", *tcp, short], r"^wirerate: --token-file: .*short: the token must be at least 16"),
            (["serve", *tcp, spaced], r"^wirerate: --token-file: .*spaced: the token must be printable"),
            (["serve", *tcp, big], r"^wirerate: --token-file: .*big: 4.9 KiB, over the 4.0 KiB such a file may be: expected one line"),
            # The web console: the loopback without a token, anything else with one.
            (["serve", *sock, "--http", f"0.0.0.0:{port}"],
             r"^wirerate: --http: 0.0.0.0 is not a loopback address: the console there needs a token"),
            (["serve", *sock, "--http-token-file", tok],
             r"^wirerate: --http-token-file is the web console's token: it needs --http"),
            (["serve", *sock, "--socket-group", "wr-no-such-group"],
             r'^wirerate: --socket-group: no group "wr-no-such-group" \(getent group '
             r'wr-no-such-group\)$'),
            (["serve", *sock, "--pcap-dir", self.path("nowhere")],
             r"^wirerate: --pcap-dir .*nowhere: expected a directory wirerate can read: "
             r"No such file or directory$"),
            (["serve", *sock, "--pcap-dir", reg],
             r"^wirerate: --pcap-dir .*regular: expected a directory wirerate can read: "
             r"Not a directory$"),
            (["serve", *sock, "--token-file", tok],
             r"^wirerate: --token-file is the TCP API's token: it needs --listen \[ADDR:\]PORT"),
            (["serve", *sock, "--http", port, "--token-file", tok],
             r"^wirerate: --token-file is the TCP API's token: it needs --listen"),
            (["serve", *sock, "--http", f"127.0.0.1:{busy}"],
             rf"^wirerate: --http: cannot listen on 127.0.0.1:{busy}: Address already in use"),
            (["serve", *sock, "--http", "8080x"], r"^wirerate: --http: expected \[ADDR:\]PORT"),
            (["serve", *sock, "--http", port, "--http-token-file", loose],
             r"^wirerate: --http-token-file: .*loose: mode 0644: .*readable by no one else"),
            (["serve", *sock, "--listen", port, "--token-file", tok, "--http", port],
             rf"^wirerate: --http: 127.0.0.1:{port} is --listen's address too"),
        ]
        before = {p: (os.lstat(p).st_ino, os.lstat(p).st_mode) for p in (reg, fifo, link, live)}
        for args, pattern in cases:
            with self.subTest(args=args):
                self.check(args, pattern, prefix=prefix)
        # --max-clients beyond the descriptors the hard limit allows.
        with self.subTest(case="nofile"):
            p = subprocess.run([WIRERATE, "serve", *sock, "--max-clients", "1000"],
                               capture_output=True, text=True, timeout=60,
                               preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE,
                                                                     (300, 300)))
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertRegex(p.stderr, r"^wirerate: --max-clients: 1000 clients need \d+ file "
                                       r"descriptors; the limit is 300 \(ulimit -Hn\): give fewer\n$")
            self.assertFalse(os.path.exists(f"/var/run/dpdk/{prefix}"))
        self.assertEqual(before, {p: (os.lstat(p).st_ino, os.lstat(p).st_mode)
                                  for p in (reg, fifo, link, live)})
        with open(reg) as f:
            self.assertEqual(f.read(), "precious\n")
        self.assertFalse(os.path.exists(self.path("s.sock")))
        c = socket.socket(socket.AF_UNIX)
        c.connect(live)  # the live server still answers on its socket
        c.close()


def snapshot(paths):
    """What a file is: type, mode, inode, device numbers, size, and a regular file's bytes."""
    out = {}
    for p in paths:
        st = os.lstat(p)
        digest = None
        if stat.S_ISREG(st.st_mode):
            with open(p, "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
        out[p] = (stat.S_IFMT(st.st_mode), st.st_mode, st.st_ino, st.st_rdev, st.st_size, digest)
    return out


SYN = ("020000000002020000000001080045000028000100004006eea7c6120001"
       "c61300019c40005000000001000000005002200067290000")


class FilesCase(WrCase):
    """Inputs and outputs that must be refused: exit 2 within a bound (nothing hangs), one line,
    no EAL, nothing left beside them, and every input and special file as it was (its bytes,
    type, mode, inode)."""

    def setUp(self):
        super().setUp()
        self.s = self.write("s.yaml", """version: 1
streams:
  - name: s
    size: 70
    rate: 10 kpps
    count: 100
""")
        self.prefix = f"wrfiles{os.getpid()}"
        self.prof = self.write("p.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={self.prefix}", "--vdev=net_null0", "--lcores=0@0,1@1"]
ports:
  - device: net_null0
    tx_lcores: [1]
""")
        # Special files of every kind, ours (a copy of /dev/null: should anything replace it,
        # the machine's stays).
        self.fifo = self.path("fifo")
        os.mkfifo(self.fifo)
        self.null = self.path("null")
        self.null_ok = True
        try:
            os.mknod(self.null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        except PermissionError:
            self.null_ok = False
        self.sock = self.path("sock")
        self.sockfd = socket.socket(socket.AF_UNIX)
        self.sockfd.bind(self.sock)
        self.addCleanup(self.sockfd.close)
        self.dir = self.path("adir")
        os.mkdir(self.dir)
        self.cap = self.path("c.pcap")
        self.wirerate("dump", self.s, "--count", "3", "--pcap", self.cap, check=0)
        self.rs = self.write("rs.yaml", """version: 1
streams:
  - name: r
    pcap: c.pcap
    count: 3
""")

    def refused(self, args, pattern, timeout=20, **kw):
        """wirerate ARGS is refused as bad input and changes nothing."""
        names = sorted(os.listdir(self.tmp))
        before = snapshot(os.path.join(self.tmp, n) for n in names)
        t0 = time.monotonic()
        p = subprocess.run([WIRERATE, *args], cwd=self.tmp, capture_output=True, text=True,
                           timeout=timeout, **kw)
        took = time.monotonic() - t0
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        msg = f"wirerate {' '.join(args)} ({took:.2f} s)\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}"
        self.assertEqual(p.returncode, 2, msg)
        self.assertEqual(len(lines), 1, msg)
        self.assertRegex(lines[0], pattern, msg)
        self.assertEqual(p.stdout, "", msg)
        self.assertFalse(os.path.exists(f"/var/run/dpdk/{self.prefix}"), msg)
        self.assertEqual(sorted(os.listdir(self.tmp)), names, msg)
        self.assertEqual(snapshot(os.path.join(self.tmp, n) for n in names), before, msg)
        self.assertEqual(os.listdir(self.dir), [], msg)
        return took


class FileSafety(FilesCase):
    """No file destroyed, no input overwritten; inputs that never end are refused at once."""

    def test_outputs_special(self):
        """--json, --csv, --stats-jsonl, --report, dump --pcap on a device, a FIFO, a socket or a
        directory: refused before EAL, the file as it was."""
        s, P = self.s, ["--config", self.prof]
        outs = [("--json", ["run", s, *P]), ("--stats-jsonl", ["run", s, *P]),
                ("--csv", ["sweep", s, *P]), ("--report", ["sweep", s, *P]),
                ("--json", ["rfc2544", s, *P, "--tx-port", "0", "--rx-port", "0"]),
                ("--csv", ["rtt", s, *P]), ("--pcap", ["dump", s, "--count", "3"])]
        kinds = [(self.fifo, "a FIFO"), (self.sock, "a socket"), (self.dir, "a directory")]
        if self.null_ok:
            kinds.append((self.null, "a character device"))
        for opt, cmd in outs:
            for path, kind in kinds:
                with self.subTest(opt=opt, cmd=cmd[0], kind=kind):
                    self.refused([*cmd, opt, path], "^wirerate: " + re.escape(f"{opt} {path}: cannot "
                                 f"write there: {kind}, not a regular file") + "$")
        # A FIFO someone reads: still not written (a reader must not get a partial file).
        r = os.open(self.fifo, os.O_RDONLY | os.O_NONBLOCK)
        try:
            self.refused(["run", s, *P, "--stats-jsonl", self.fifo], r"a FIFO, not a regular file")
        finally:
            os.close(r)

    def test_tx_pcap_special(self):
        """Issue 31: net_pcap's tx_pcap= (a profile's device or a --vdev after --) is an output as
        --json is: a FIFO hung the run in EAL's start, a device took the frames (/dev/full gave
        exit 0 and "100 frames out").  Refused before EAL, at once, the file as it was."""
        kinds = [(self.fifo, "a FIFO"), (self.sock, "a socket"), (self.dir, "a directory")]
        if self.null_ok:
            kinds.append((self.null, "a character device"))
        for path, kind in kinds:
            prof = self.write("pcap.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={self.prefix}", "--vdev=net_pcap0,tx_pcap={path}", "--lcores=0@0,1@1"]
ports:
  - device: net_pcap0
    tx_lcores: [1]
""")
            why = "^wirerate: " + re.escape(f"net_pcap's tx_pcap {path}: cannot write there: {kind}, "
                                            "not a regular file") + "$"
            for how, args in [("profile", ["run", self.s, "--config", prof]),
                              ("serve", ["serve", "--config", prof, "--socket", self.path("x.sock")]),
                              ("argv", ["run", self.s, "--config", self.prof, "--", "--vdev",
                                        f"net_pcap1,tx_pcap={path}"])]:
                with self.subTest(kind=kind, how=how):
                    self.refused(args, why, timeout=10)
            os.unlink(prof)

    def test_outputs_inputs(self):
        """An output that is an input of the command, or another of its outputs."""
        s, P = self.s, ["--config", self.prof]
        os.link(s, self.path("hard.yaml"))
        os.symlink(self.prof, self.path("soft.yaml"))
        same_input = r"the same file as {} .*: an output never overwrites an input$"
        same_output = r"the same file as {} .*: each output needs a path of its own$"
        cases = [
            (["dump", s, "--count", "3", "--pcap", s], "^wirerate: --pcap " + re.escape(s) + ": " +
             same_input.format("the stream file")),
            (["run", s, *P, "--json", s], same_input.format("the stream file")),
            (["run", s, *P, "--json", "s.yaml"], same_input.format("the stream file")),
            (["run", s, *P, "--json", "hard.yaml"], same_input.format("the stream file")),
            (["run", s, *P, "--stats-jsonl", "soft.yaml"], same_input.format("the profile")),
            (["sweep", s, *P, "--csv", self.prof], same_input.format("the profile")),
            (["rtt", s, *P, "--json", "./p.yaml"], same_input.format("the profile")),
            (["dump", self.rs, "--count", "3", "--pcap", self.cap], same_input.format("the capture")),
            (["run", self.rs, *P, "--json", "c.pcap"], same_input.format("the capture")),
            (["run", s, "--json", "o", "--stats-jsonl", "./o", *P], "^wirerate: --stats-jsonl ./o: " +
             same_output.format("--json")),
            (["sweep", s, *P, "--json", "o", "--csv", "o"], same_output.format("--json")),
            (["rfc2544", s, *P, "--tx-port", "0", "--rx-port", "0", "--csv", "o", "--json",
              self.path("o")], same_output.format("--json")),
            (["rtt", s, *P, "--json", "o", "--csv", "../" + os.path.basename(self.tmp) + "/o"],
             same_output.format("--json")),
            # --report r.html also writes r.html.json
            (["sweep", s, *P, "--report", "r.html", "--csv", "r.html.json"],
             "^wirerate: --report's JSON r.html.json: " + same_output.format("--csv")),
            (["sweep", s, *P, "--report", "r.html", "--json", "r.html"],
             "^wirerate: --report r.html: " + same_output.format("--json")),
            (["sweep", s, *P, "--report", "s.yaml"], same_input.format("the stream file")),
            # net_pcap's tx_pcap is an output the command writes too.
            (["run", s, *P, "--", "--vdev=net_pcap1,tx_pcap=s.yaml"],
             r"^wirerate: net_pcap's tx_pcap s.yaml: " + same_input.format("the stream file")),
            (["run", s, *P, "--json", "x.pcap", "--", "--vdev=net_pcap1,rx_pcap=c.pcap,tx_pcap=x.pcap"],
             same_output.format("--json")),
        ]
        for args, pattern in cases:
            with self.subTest(args=args):
                self.refused(args, pattern)

    def test_inputs_never_end(self):
        """A stream file, a profile, a capture or a --peer namespace that is a FIFO (with or
        without a writer), /dev/zero, a socket or a directory: one line at once."""
        s, P = self.s, ["--config", self.prof]
        kinds = [(self.fifo, "a FIFO"), ("/dev/zero", "a character device"),
                 (self.sock, "a socket"), (self.dir, "a directory")]
        w = os.open(self.fifo, os.O_RDWR)  # a writer that never writes nor closes
        self.addCleanup(os.close, w)
        for path, kind in kinds:
            for args, what in ((["check", path], "the stream file"),
                               (["run", path, *P], "the stream file"),
                               (["run", s, "--config", path], "the profile"),
                               (["run", s, *P, "--repeat", "1", "--peer", f"netdev:{path}/lo"],
                                "--peer")):
                with self.subTest(args=args):
                    took = self.refused(args, "^wirerate: " + re.escape(
                        f"{what} {path}: cannot read: {kind}, not a regular file") + "$")
                    self.assertLess(took, 5)
            # pcap: names the key where the stream file gives it: file:line:col.
            rs = self.write("k.yaml", f"version: 1\nstreams:\n  - name: r\n    pcap: {path}\n")
            for cmd in (["check", rs], ["run", rs, *P], ["dump", rs, "--count", "1", "--pcap",
                                                         "o.pcap"]):
                with self.subTest(cmd=cmd, kind=kind):
                    self.refused(cmd, "^wirerate: " + re.escape(
                        f"{rs}:4:11: streams[0].pcap: {path}: cannot read the capture: {kind}, "
                        "not a regular file") + "$")
        missing = self.write("m.yaml", "version: 1\nstreams:\n  - name: r\n    pcap: no.pcap\n")
        self.refused(["check", missing], "^wirerate: " + re.escape(
            f"{missing}:4:11: streams[0].pcap: {self.tmp}/no.pcap: cannot read the capture: "
            "No such file or directory") + "$")
        # A capture larger than its stream's memory: budget is not read.
        big = self.write("b.yaml", "version: 1\nstreams:\n  - name: r\n    memory: 100 B\n"
                         "    pcap: c.pcap\n")
        self.refused(["check", big], r"^wirerate: .*b.yaml:5:11: streams\[0\]\.pcap: .*c.pcap: "
                     rf"cannot read the capture: {os.path.getsize(self.cap)} bytes, over the 100 "
                     r"bytes such a file may be \(the stream's memory: budget; raise memory:\)$")

    def test_frame_budget_before_expanding(self):
        """An 18 KB frame: whose fields repeat every 250000 frames (2.2 GB laid out) is refused
        by its memory: budget before any frame is laid out: in a 256 MB address space, at once."""
        hexs = SYN + "00" * (9000 - len(SYN) // 2)
        big = self.write("big.yaml", f"""version: 1
streams:
  - name: big
    frame: "{hexs}"
    fields:
      - {{offset: 26, width: 3, value: {{inc: {{from: 0, to: 249999}}}}}}
    rate: 1 Mpps
    count: 10
""")
        self.assertGreater(os.path.getsize(big), 18000)

        def small():
            resource.setrlimit(resource.RLIMIT_AS, (256 << 20, 256 << 20))
        for cmd in (["check", big], ["dump", big, "--count", "1", "--pcap", "o.pcap"],
                    ["run", big, "--config", self.prof]):
            with self.subTest(cmd=cmd[0]):
                took = self.refused(cmd, r"big.yaml:6:7: streams\[0\]\.fields: 250000 frames of "
                                    r"9000 bytes take at least 2151.5 MiB, over the stream's "
                                    r"memory: budget of 1024.0 MiB", preexec_fn=small)
                self.assertLess(took, 2)


class FullDisk(EalCase):
    """A full disk (a tmpfs of our own, filled): every output fails, the command says so and exits
    non-zero, and nothing is left: no partial file, no temporary, no empty log."""

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0:
            self.skipTest("needs root to mount a tmpfs")
        self.mnt = self.path("full")
        os.mkdir(self.mnt)
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k,nodev,nosuid", "wrfull", self.mnt],
                       check=True)
        self.addCleanup(subprocess.run, ["umount", "-l", self.mnt], check=False)
        # Filled to the last block.
        fd = os.open(os.path.join(self.mnt, "filler"), os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            while os.write(fd, b"x" * 4096) > 0:
                pass
        except OSError:
            pass
        finally:
            os.close(fd)
        self.prefix = f"wrfull{os.getpid()}"
        self.prof = self.profile("net_null0", self.prefix)
        self.addCleanup(shutil.rmtree, f"/var/run/dpdk/{self.prefix}", True)

    def left(self):
        return sorted(n for n in os.listdir(self.mnt) if n != "filler")

    def test_full_disk(self):
        s = os.path.join(STREAMS, "udp-64.yaml")
        o = lambda n: os.path.join(self.mnt, n)  # noqa: E731
        for args, pattern in [
                (["dump", s, "--count", "1000", "--pcap", o("d.pcap")],
                 r"d.pcap: cannot write: No space left on device"),
                (["run", s, "--config", self.prof, "--duration", "0.3", "--quiet",
                  "--stats-jsonl", o("l.jsonl")], r"--stats-jsonl .*l.jsonl: cannot write: No space"),
                (["run", s, "--config", self.prof, "--duration", "0.3", "--quiet", "--json",
                  o("r.json")], r"r.json: cannot write|No space left on device"),
                (["sweep", s, "--config", self.prof, "--sizes", "64", "--duration", "0.1",
                  "--report", o("r.html")], r"No space left on device")]:
            with self.subTest(cmd=args[0], out=args[-1]):
                p = self.wirerate(*args, timeout=120)
                msg = f"{args}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}"
                self.assertEqual(p.returncode, 1, msg)
                self.assertRegex(p.stderr, pattern, msg)
                self.assertEqual(self.left(), [], msg)
                self.assertFalse(os.path.exists(f"/var/run/dpdk/{self.prefix}"), msg)
        # Room for the report's JSON (a few KB), not for its HTML (plots: about 40 KB): the
        # JSON stays whole, the HTML is neither written nor left half-written or temporary.
        os.truncate(os.path.join(self.mnt, "filler"), os.path.getsize(
            os.path.join(self.mnt, "filler")) - 16384)
        p = self.wirerate("sweep", s, "--config", self.prof, "--sizes", "64", "--duration", "0.1",
                          "--report", o("r.html"), timeout=120)
        msg = f"stdout:\n{p.stdout}\nstderr:\n{p.stderr}"
        self.assertEqual(p.returncode, 1, msg)
        self.assertRegex(p.stderr, r"--report .*r.html: cannot write: No space left on device", msg)
        self.assertEqual(self.left(), ["r.html.json"], msg)
        with open(o("r.html.json")) as f:
            self.assertEqual(json.load(f)["schema"], "wirerate-sweep/1")
        os.unlink(o("r.html.json"))
        # Room again: the same commands write their files.
        os.unlink(os.path.join(self.mnt, "filler"))
        self.wirerate("dump", s, "--count", "10", "--pcap", o("d.pcap"), check=0)
        self.assertEqual(self.left(), ["d.pcap"])


    def test_tx_pcap_full(self):
        """Issue 31: net_pcap writes its tx_pcap= through libpcap and never looks at the result:
        a full disk gave exit 0 and the frames counted as sent.  Now the file is measured
        against what its queue sent: exit 1, one line, no summary, and the short file gone."""
        s = self.write("s.yaml", """version: 1
streams:
  - name: s
    size: 64
    rate: 100 kpps
    count: 1000
""")
        out = os.path.join(self.mnt, "out.pcap")
        prof = self.write("pcap.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={self.prefix}", "--vdev=net_pcap0,tx_pcap={out}", "--lcores=0@0,1@1"]
ports:
  - device: net_pcap0
    tx_lcores: [1]
""")
        # Room for the header and about 40 frames, not for 1000 (24 + 1000 x (16 + 60) bytes).
        os.truncate(os.path.join(self.mnt, "filler"), os.path.getsize(
            os.path.join(self.mnt, "filler")) - 4096)
        p = self.wirerate("run", s, "--config", prof, timeout=120)
        msg = f"stdout:\n{p.stdout}\nstderr:\n{p.stderr}"
        self.assertEqual(p.returncode, 1, msg)
        self.assertRegex(p.stderr, r"^wirerate: net_pcap's tx_pcap " + re.escape(out) +
                         r": held \d+ bytes where the 1000 frames sent to it make 76024 \(a full "
                         r"disk\?\): not every frame was written; the file is removed\n$", msg)
        self.assertNotIn("summary", p.stdout, msg)
        # No output left cut short.
        self.assertFalse(os.path.exists(out), msg)
        self.assertFalse(os.path.exists(f"/var/run/dpdk/{self.prefix}"), msg)
        # With room, the same run: exit 0 and every frame in the file (capinfos counts them).
        os.unlink(os.path.join(self.mnt, "filler"))
        p = self.wirerate("run", s, "--config", prof, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(os.path.getsize(out), 76024)
        if shutil.which("capinfos"):
            c = subprocess.run(["capinfos", "-c", "-M", out], capture_output=True, text=True)
            self.assertRegex(c.stdout, r"Number of packets:\s+1000\b")


class ServerFiles(ServerCase):
    """The server refuses a stream whose pcap: never ends with an RPC error at once, and keeps
    serving (a token file that is a FIFO: BadInput.test_serve)."""

    def test_server_inputs(self):
        # Clients name captures only inside the operator's --pcap-dir (issue 31): a FIFO
        # and a character device put there are refused as they were anywhere before.
        pdir = self.path("captures")
        os.mkdir(pdir)
        fifo = os.path.join(pdir, "fifo.pcap")
        os.mkfifo(fifo)
        w = os.open(fifo, os.O_RDWR)
        self.addCleanup(os.close, w)
        os.mknod(os.path.join(pdir, "zero.pcap"), 0o600 | stat.S_IFCHR, os.makedev(1, 5))
        p, sock = self.serve(tag=f"f{os.getpid()}", extra=("--pcap-dir", pdir))
        c = self.client(sock)
        c.acquire()
        for path, kind in (("fifo.pcap", "a FIFO"), ("zero.pcap", "a character device")):
            t0 = time.monotonic()
            with self.assertRaises(wirerate.RpcError) as e:
                c.load(f"version: 1\nstreams:\n  - name: r\n    pcap: {path}\n", name="f.yaml")
            # Answered at once, not after a read that never ends: the server's one loop.
            self.assertLess(time.monotonic() - t0, 60)
            # Only regular files there are offered (opened O_NOFOLLOW|O_NONBLOCK, then
            # checked): the same one message as for a name that is not there.
            self.assertIn("no such capture among the server's --pcap-dir",
                          str(e.exception.data), kind)
            self.assertEqual(e.exception.data.get("line"), 4, e.exception.data)
        self.assertEqual(c.info()["state"], "idle")


def remove(paths):
    for p in paths:
        if os.path.isdir(p):
            shutil.rmtree(p, True)
        elif os.path.exists(p):
            os.unlink(p)


def eal_leftovers(prefix):
    """What a DPDK process with file prefix @prefix left on disk: its runtime directory and
    its hugepage files, wherever hugetlbfs is mounted."""
    left = [d for d in (f"/var/run/dpdk/{prefix}",) if os.path.exists(d)]
    with open("/proc/mounts") as f:
        mounts = [line.split()[1] for line in f if line.split()[2] == "hugetlbfs"]
    for m in mounts:
        left += glob.glob(os.path.join(m, f"{prefix}map_*"))
    return left


if __name__ == "__main__":
    unittest.main()
