# SPDX-License-Identifier: BSD-3-Clause
"""The Debian packages: built from a copy of the source with dpkg-buildpackage, checked by
lintian (no error), installed on this machine, used from the installed files alone (the
source tree hidden), and purged leaving nothing of theirs.  Minutes: suite 'package', run by
.ci/run as a step of its own."""

import json
import os
import shlex
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.environ.get("WR_SOURCE_ROOT",
                      os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
PACKAGES = ("wirerate", "python3-wirerate")
NEEDS = ("dpkg-buildpackage", "dh", "lintian", "man", "systemd-analyze")


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def installed(pkg):
    p = run(["dpkg-query", "-W", "-f=${Status}", pkg])
    return p.returncode == 0 and "installed" in p.stdout and "not-installed" not in p.stdout


class DebianPackage(unittest.TestCase):

    def setUp(self):
        missing = [n for n in NEEDS if shutil.which(n) is None]
        if os.geteuid() != 0 or missing:
            why = f"needs root and {', '.join(missing) or 'nothing more'}"
            if os.environ.get("WR_REQUIRE_EAL") == "1":
                self.fail(why + " (devtools/wr-test installs them)")
            self.skipTest(why)
        for pkg in PACKAGES:
            self.assertFalse(installed(pkg), f"{pkg} is installed already: this test installs "
                             "and purges it, remove it first (dpkg --purge)")
        self.tmp = tempfile.mkdtemp(prefix="wr-deb-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        # Whatever happens, nothing of ours stays installed.
        self.addCleanup(run, ["dpkg", "--purge", *PACKAGES])

    def copy_source(self):
        """The source as committed or as a release tarball holds it: no build directories."""
        src = os.path.join(self.tmp, "src")
        git = run(["git", "-C", ROOT, "ls-files", "-z"])
        if git.returncode == 0 and git.stdout:
            for f in git.stdout.split("\0"):
                if f and os.path.exists(os.path.join(ROOT, f)):
                    os.makedirs(os.path.join(src, os.path.dirname(f)), exist_ok=True)
                    shutil.copy2(os.path.join(ROOT, f), os.path.join(src, f))
        else:
            shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns("build*", ".git"))
        return src

    def test_build_install_use_purge(self):
        src = self.copy_source()
        p = run(["dpkg-buildpackage", "-b", "-us", "-uc"], cwd=src, timeout=1200,
                env={**os.environ, "DEB_BUILD_OPTIONS": "parallel=2"})
        self.assertEqual(p.returncode, 0, p.stdout[-4000:] + p.stderr[-4000:])
        version = run(["dpkg-parsechangelog", "-S", "Version"], cwd=src).stdout.strip()
        debs = sorted(os.path.join(self.tmp, f) for f in os.listdir(self.tmp)
                      if f.endswith(".deb") and "dbgsym" not in f)
        changes = [os.path.join(self.tmp, f) for f in os.listdir(self.tmp)
                   if f.endswith(".changes")]
        self.assertEqual([os.path.basename(d).split("_")[0] for d in debs],
                         ["python3-wirerate", "wirerate"])

        # lintian: no error (its warnings are printed for the record).  It reads the
        # files alone: it runs while they are installed, used and purged (its 25 s of
        # a loaded machine were the test's second longest step).
        lintian = subprocess.Popen(["lintian", "--fail-on", "error", *changes],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: lintian.poll() is None and (lintian.kill(), lintian.wait()))

        # Dependencies from the libraries linked, not by hand.
        deps = run(["dpkg-deb", "-f", debs[1], "Depends"]).stdout
        for lib in ("librte-eal", "librte-ethdev", "libyaml-0-2", "libpcap", "libjansson"):
            self.assertIn(lib, deps)

        p = run(["dpkg", "-i", *debs], timeout=300)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        files = run(["dpkg", "-L", *PACKAGES]).stdout.split("\n")
        ours = [f for f in files if f and not os.path.isdir(f)]
        self.assertIn("/usr/bin/wirerate", ours)
        self.assertIn("/etc/wirerate/serve.yaml", ours)

        # The unit as systemd reads it: clean.
        p = run(["systemd-analyze", "verify", "/lib/systemd/system/wirerate.service"],
                timeout=60)
        self.assertEqual((p.returncode, p.stdout + p.stderr), (0, ""))
        # Its sandbox (9.6 UNSAFE before issue 31) and its group, made by the postinst.
        p = run(["systemd-analyze", "security", "--offline=yes",
                 "/lib/systemd/system/wirerate.service"], timeout=120)
        self.assertRegex(p.stdout,
                         r"Overall exposure level for wirerate\.service: ([0-2]\.\d|3\.0) ")
        self.assertEqual(run(["getent", "group", "wirerate"]).returncode, 0)

        # From the installed files alone: the source tree (and its build) hidden.
        work = os.path.join(self.tmp, "work")
        os.makedirs(work)
        rt = os.path.join(self.tmp, "rt")
        script = f"""
mount -t tmpfs wr-package-test {shlex.quote(ROOT)}
cd {shlex.quote(work)}
wirerate --version
wirerate run /usr/share/doc/wirerate/examples/udp-64.yaml --count 10000 --quiet --json run.json \
    >/dev/null
MANWIDTH=80 man --warnings wirerate 2>&1 | grep -c '^NAME$'
MANWIDTH=80 man --warnings 5 wirerate-streams >/dev/null
bash -c 'source /usr/share/bash-completion/completions/wirerate; complete -p wirerate'
# The unit's command, as systemd runs it (its Environment= and RuntimeDirectory=).
WIRERATE_PROFILE=serve wirerate serve --config serve --socket-group wirerate & server=$!
for i in $(seq 100); do
    /usr/bin/python3 -m wirerate -c info >info.txt 2>&1 && break; sleep 0.2
done
stat -c 'socket %a %G' {shlex.quote(rt)}/wirerate.sock
kill -TERM $server; wait $server; echo "serve exited $?"
test ! -e {shlex.quote(rt)}/wirerate.sock && echo "socket removed"
"""
        p = run(["unshare", "--mount", "--propagation", "private", "bash", "-e", "-c", script],
                timeout=300, env={**os.environ, "WIRERATE_RUNTIME_DIR": rt,
                                  "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        out = p.stdout.splitlines()
        self.assertEqual(out[0], f"wirerate {version}")
        self.assertEqual(out[1], "1", p.stdout)
        self.assertEqual(out[2], "complete -o filenames -F _wirerate wirerate")
        self.assertEqual(out[-2:], ["serve exited 0", "socket removed"], p.stdout + p.stderr)
        self.assertIn("socket 660 wirerate", out)
        with open(os.path.join(work, "info.txt")) as f:
            self.assertIn("net_null0", f.read())
        with open(os.path.join(work, "run.json")) as f:
            self.assertEqual(json.load(f)["streams"][0]["tx_pkts"], 10000)

        # Purged: nothing of ours left.
        p = run(["dpkg", "--purge", *PACKAGES], timeout=300)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        left = [f for f in ours if os.path.lexists(f)]
        left += [d for d in ("/etc/wirerate", "/usr/libexec/wirerate", "/usr/share/wirerate",
                             "/usr/share/doc/wirerate", "/usr/lib/python3/dist-packages/wirerate")
                 if os.path.lexists(d)]
        self.assertEqual(left, [])

        out, err = lintian.communicate(timeout=600)
        print("\nlintian:\n" + (out or "clean\n"), flush=True)
        self.assertEqual(lintian.returncode, 0, out + err)
        self.assertNotRegex(out, r"(?m)^E: ")


if __name__ == "__main__":
    unittest.main()
