# SPDX-License-Identifier: BSD-3-Clause
"""Where a run puts things: its own EAL file prefix, the user's private runtime directory,
memif path sockets only the user can reach, profiles found by name (issue 21)."""

import os
import shutil
import socket
import subprocess
import sys
import time
import unittest

from wrtest import CONFIG, STREAMS, EalCase, MemifCase, kill, wait_for

UDP64 = os.path.join(STREAMS, "udp-64.yaml")
START_S = 10


def runtime_dirs(pid):
    """EAL's runtime directory of the default prefix of process @pid, if it exists."""
    d = f"/var/run/dpdk/wirerate-{os.geteuid()}-{pid}"
    return d if os.path.isdir(d) else None


def unix_sockets():
    """The names of the Unix sockets in /proc/net/unix ('@...' for abstract ones)."""
    with open("/proc/net/unix") as f:
        return {line.split()[7] for line in f.read().splitlines()[1:] if len(line.split()) > 7}


class Prefix(EalCase):
    """Two runs of the default profile at once: each its own EAL prefix, nothing left."""

    def test_two_runs_each_its_own(self):
        runs = [self.start("run", UDP64, "--duration", "1.5", "--quiet", "--json",
                           self.path(f"r{i}.json")) for i in range(2)]
        for r in runs:
            self.addCleanup(kill, r)
        # Each run's own runtime directory, while both run.
        self.assertTrue(wait_for(lambda: all(runtime_dirs(r.pid) or r.poll() is not None
                                             for r in runs), START_S))
        seen = [runtime_dirs(r.pid) for r in runs]
        for r in runs:
            out, err = r.communicate(timeout=60)
            self.assertEqual(r.returncode, 0, err)
        self.assertNotIn(None, seen, "a run had no runtime directory of its own")
        for i, r in enumerate(runs):
            res = self.json(f"r{i}.json")
            self.assertGreater(res["streams"][0]["tx_pkts"], 0)
            self.assertIsNone(runtime_dirs(r.pid), "a runtime directory was left behind")

    def test_prefix_of_the_users_choice(self):
        """A --file-prefix after -- (or in the profile) is the run's prefix."""
        prefix = f"wrplaces{os.getpid()}"
        p = self.start("run", UDP64, "--duration", "1", "--quiet", "--", f"--file-prefix={prefix}")
        self.addCleanup(kill, p)
        self.assertTrue(wait_for(lambda: os.path.isdir(f"/var/run/dpdk/{prefix}")
                                 or p.poll() is not None, START_S))
        self.assertIsNone(runtime_dirs(p.pid))
        out, err = p.communicate(timeout=60)
        self.assertEqual(p.returncode, 0, err)
        self.assertFalse(os.path.exists(f"/var/run/dpdk/{prefix}"))


class MemifSocket(MemifCase):
    """config/memif.yaml as shipped: a path socket in the runtime directory, mode 0700."""

    RUNDIR = "wrplaces"

    def setUp(self):
        super().setUp()
        # The test's own directory is traversable, so that only the runtime
        # directory's mode keeps another user out.
        os.chmod(self.tmp, 0o755)
        self.rt = self.path("rt")
        self.env = {"WIRERATE_RUNTIME_DIR": self.rt}
        self.sock = os.path.join(self.rt, "memif.sock")

    def run_memif(self, count):
        sf = self.write("s.yaml", f"""version: 1
streams:
  - {{name: echo, size: 128, rate: 100 kpps, count: {count}, latency: loss}}
""")
        return self.start("run", sf, "--config", os.path.join(CONFIG, "memif.yaml"),
                          "--drain", "1", "--json", self.path("r.json"), env=self.env)

    def test_private_path_socket(self):
        # A socket left by a run that was killed is replaced.
        os.makedirs(self.rt, mode=0o755)
        stale = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        stale.bind(self.sock)
        stale.close()
        gen = self.run_memif(20000)
        self.procs.append(gen)
        self.wait_listening(gen, START_S)
        # A path socket; its directory only ours.  The abstract name of the same path is
        # wirerate's only while it waits for the link, to tell a peer that connects the DPDK
        # way (test_faults.PeerGone.test_peer_abstract_socket): another user who connects
        # there gets no memif message, only the end of the connection, and does not end the
        # run (the reflector below gets every frame back).
        names = unix_sockets()
        self.assertIn(self.sock, names)
        self.assertEqual(os.stat(self.rt).st_mode & 0o7777, 0o700)
        if "@" + self.sock in names:
            other = subprocess.run(
                ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable,
                 "-c", "import socket, sys; s = socket.socket(socket.AF_UNIX, "
                 "socket.SOCK_SEQPACKET); s.settimeout(5); s.connect('\\0' + sys.argv[1]); "
                 "print(len(s.recv(4096)))", self.sock],
                capture_output=True, text=True, timeout=10)
            self.assertEqual(other.stdout.strip(), "0", other.stderr)
        # Another user cannot reach it (the kernel says so).
        other = subprocess.run(
            ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable,
             "-c", "import socket, sys; s = socket.socket(socket.AF_UNIX, "
             "socket.SOCK_SEQPACKET)\ntry:\n s.connect(sys.argv[1])\nexcept OSError as e:\n"
             " print(e.errno)", self.sock], capture_output=True, text=True, timeout=10)
        self.assertEqual(other.stdout.strip(), "13", other.stderr)  # EACCES
        # A second run on the same socket is refused, the first left alone.
        p = self.wirerate("run", UDP64, "--config", os.path.join(CONFIG, "memif.yaml"),
                          "--count", "10", env=self.env, check=2)
        mine = [ln for ln in p.stderr.splitlines() if ln.startswith("wirerate:")]
        self.assertEqual(mine, [f"wirerate: memif socket {self.sock}: another process listens "
                                "there (give this run another socket=)"], p.stderr)
        self.assertIn(self.sock, unix_sockets())
        # The shipped profile's peer command line, in substance: every frame back.
        refl = self.start_reflector(f"wrplacesr{os.getpid()}", self.sock)
        self.procs.insert(0, refl)
        # The peer goes first, in wirerate's drain once the echoes are back (TESTBED.md:
        # whichever memif side outlives the other may crash at shutdown).
        out = []
        for line in gen.stdout:
            out.append(line)
            if line.startswith("sending stopped"):
                time.sleep(0.3)
                kill(refl)
        out = "".join(out)
        err = gen.stderr.read()
        gen.wait(timeout=60)
        self.assertEqual(gen.returncode, 0, out + err)
        st = self.json("r.json")["streams"][0]
        self.assertEqual((st["tx_pkts"], st["rx_pkts"]), (20000, 20000), out)
        # Gone with the run.
        self.assertFalse(os.path.exists(self.sock))

    def test_not_a_socket_refused(self):
        os.makedirs(self.rt, mode=0o700)
        with open(self.sock, "w") as f:
            f.write("keep me\n")
        p = self.wirerate("run", UDP64, "--config", os.path.join(CONFIG, "memif.yaml"),
                          "--count", "10", env=self.env, check=2)
        self.assertIn(f"wirerate: memif socket {self.sock}: a file that is not a socket is "
                      "there", p.stderr)
        with open(self.sock) as f:
            self.assertEqual(f.read(), "keep me\n")

    def test_another_users_directory_refused(self):
        os.makedirs(self.rt, mode=0o700)
        os.chown(self.rt, 65534, 65534)
        p = self.wirerate("run", UDP64, "--config", os.path.join(CONFIG, "memif.yaml"),
                          "--count", "10", env=self.env, check=2)
        self.assertIn(f"wirerate: the runtime directory {self.rt} belongs to uid 65534, not to "
                      "us (choose one with WIRERATE_RUNTIME_DIR)", p.stderr)
        self.assertEqual(os.listdir(self.rt), [])


class Profiles(EalCase):
    """--config NAME on the search path, the two-port profile of README's rfc2544 examples."""

    def test_two_ports_by_name(self):
        """README: `wirerate rfc2544 streams/udp-64.yaml --config 2ports --tx-port 0
        --rx-port 1`: the shipped wire between two memif ports loses nothing."""
        env = {"WIRERATE_RUNTIME_DIR": self.path("rt")}
        p = self.wirerate("rfc2544", UDP64, "--config", "2ports", "--tx-port", "0",
                          "--rx-port", "1", "--sizes", "64,1518", "--trial", "0.2",
                          "--max-rate", "200 kpps", "--json", self.path("r.json"), env=env,
                          timeout=120)
        self.assertIn(p.returncode, (0, 3), p.stdout + p.stderr)
        res = self.json("r.json")
        self.assertEqual([r["frame_size"] for r in res["results"]], [64, 1518])
        for r in res["results"]:
            self.assertEqual((r["tx_port"], r["rx_port"]), (0, 1))
            for t in r["trials"]:
                self.assertEqual(t["lost"], 0, p.stdout)

    def test_names_and_search_path(self):
        """A name (NAME or NAME.yaml) is looked up in $WIRERATE_CONFIG_PATH, then in the
        shipped profiles; a name found nowhere is one line, exit 2."""
        mine = os.path.join(self.tmp, "etc")
        os.makedirs(mine)
        shutil.copy(os.path.join(CONFIG, "default.yaml"), os.path.join(mine, "mine.yaml"))
        env = {"WIRERATE_CONFIG_PATH": mine}
        for name in ("mine", "mine.yaml", "default", "default.yaml"):
            p = self.wirerate("run", UDP64, "--config", name, "--count", "1000", "--quiet",
                              "--json", self.path("r.json"), env=env, check=0)
            self.assertEqual(self.json("r.json")["streams"][0]["tx_pkts"], 1000)
        p = self.wirerate("run", UDP64, "--config", "nosuch", env=env, check=2)
        self.assertEqual(p.stderr, f"wirerate: --config nosuch: no such file, and no profile "
                         f"of that name in {mine}:{CONFIG}\n")


if __name__ == "__main__":
    unittest.main()
