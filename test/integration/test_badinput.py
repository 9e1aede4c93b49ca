# SPDX-License-Identifier: BSD-3-Clause
"""Bad input: each case gets exit 2, one line naming what is wrong, and nothing started or left behind."""

import os
import re
import shutil
import subprocess
import unittest

from wrtest import EalCase, STREAMS, WIRERATE

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

    def prof(self, prefix, eal_extra="", device="net_null0", tx="[1]"):
        return self.write(f"{prefix}.yaml", f"""version: 1
eal: ["--no-pci", "--in-memory", "--file-prefix={prefix}", "--vdev=net_null0"{eal_extra}, "--lcores=0@0,1@1"]
ports:
  - device: {device}
    tx_lcores: {tx}
""")

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
            self.assertFalse(os.path.exists(f"/var/run/dpdk/{prefix}"), msg)

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
             r"cannot write there: Is a directory"),
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
        cases += [
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
        ]:
            prefix = f"wrbad{pid}-{name}"
            prof = self.prof(prefix, **kw)
            with self.subTest(case=name):
                self.check(["run", s, "--config", prof, "--json", out], "^wirerate: " + re.escape(prof) + pattern,
                           prefix=prefix, outputs=[out])

    def test_serve(self):
        """serve's sockets and token file, checked before EAL: each refusal one line, exit
        2, no EAL started, and whatever was at the paths left as it was."""
        import resource
        import socket
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
             r"^wirerate: --socket: .*: 1\d\d characters, a Unix socket path has at most 107"),
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
            (["serve", *tcp, fifo], r"^wirerate: --token-file: .*fifo: a FIFO: expected a regular file"),
            (["serve", *tcp, "/dev/null"], r"^wirerate: --token-file: /dev/null: a character device"),
            (["serve", *tcp, self.tmp], r"^wirerate: --token-file: .*: a directory"),
            (["serve", *tcp, link], r"^wirerate: --token-file: .*link: a symbolic link"),
            (["serve", *tcp, short], r"^wirerate: --token-file: .*short: the token must be at least 16"),
            (["serve", *tcp, spaced], r"^wirerate: --token-file: .*spaced: the token must be printable"),
            (["serve", *tcp, big], r"^wirerate: --token-file: .*big: 5000 bytes: expected one line"),
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


if __name__ == "__main__":
    unittest.main()
