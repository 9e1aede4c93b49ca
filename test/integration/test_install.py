# SPDX-License-Identifier: BSD-3-Clause
"""meson install: the installed files alone run every subcommand, with the source tree (and
the build in it) out of reach (a tmpfs mounted over it in a mount namespace of the test's)."""

import json
import os
import shlex
import subprocess
import unittest

from wrtest import ROOT, WIRERATE, EalCase


def build_option(build, name):
    opts = json.loads(subprocess.run(["meson", "introspect", build, "--buildoptions"],
                                     capture_output=True, text=True, check=True,
                                     timeout=60).stdout)
    return next(o["value"] for o in opts if o["name"] == name)


class Destdir(EalCase):

    def test_installed_files_alone(self):
        build = os.path.dirname(os.path.dirname(WIRERATE))
        dest = self.path("dest")
        p = subprocess.run(["meson", "install", "-C", build, "--destdir", dest, "--no-rebuild",
                            "--quiet"], capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        prefix = dest + build_option(build, "prefix")
        wr = shlex.quote(os.path.join(prefix, "bin", "wirerate"))
        ex = shlex.quote(os.path.join(prefix, "share", "doc", "wirerate", "examples"))
        work = self.path("work")
        os.makedirs(work)
        script = f"""
mount -t tmpfs wr-install-test {shlex.quote(ROOT)}
test ! -e {shlex.quote(os.path.join(ROOT, "config"))}
cd {shlex.quote(work)}
{wr} --version
{wr} check {ex}/udp-64.yaml >/dev/null
# The default profile, and one by name, from the installed profiles.
{wr} run {ex}/udp-64.yaml --count 1000 --quiet --json run.json >/dev/null
{wr} rfc2544 {ex}/udp-64.yaml --config 2ports --tx-port 0 --rx-port 1 --sizes 64 \\
    --trial 0.2 --max-rate '50 kpps' --json 2ports.json >/dev/null || [ $? = 3 ]
# --report runs the installed wirerate-report.
{wr} sweep {ex}/udp-64.yaml --sizes 64 --duration 0.2 --report sweep.html >/dev/null \\
    || [ $? = 3 ]
# console: the installed Python package, on the server's default socket.
{wr} serve & server=$!
for i in $(seq 100); do {wr} console -c info >info.txt 2>&1 && break; sleep 0.2; done
kill $server; wait $server
{prefix}/bin/wirerate-hugepages show >/dev/null
"""
        p = subprocess.run(["unshare", "--mount", "--propagation", "private", "bash", "-e",
                            "-c", script], capture_output=True, text=True, timeout=180,
                           env={**os.environ, "WIRERATE_RUNTIME_DIR": self.path("rt"),
                                "WIRERATE_CONFIG_PATH": self.path("no-etc")})
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(p.stdout.splitlines()[0],
                         f"wirerate {build_option(build, 'package_version') or '0.1.0'}")
        with open(os.path.join(work, "run.json")) as f:
            self.assertEqual(json.load(f)["streams"][0]["tx_pkts"], 1000)
        with open(os.path.join(work, "2ports.json")) as f:
            res = json.load(f)["results"][0]
        self.assertEqual((res["tx_port"], res["rx_port"]), (0, 1))
        with open(os.path.join(work, "sweep.html")) as f:
            self.assertIn("<html", f.read(4096).lower())
        with open(os.path.join(work, "info.txt")) as f:
            self.assertIn("net_null0", f.read())


if __name__ == "__main__":
    unittest.main()
