# SPDX-License-Identifier: BSD-3-Clause
"""deploy/kubernetes against the Kubernetes API's schemas, strictly (kubernetes-validate,
offline: no cluster here); deploy/systemd's unit as systemd-analyze reads it."""

import os
import re
import shutil
import subprocess
import tempfile
import unittest


ROOT = os.environ["WR_SOURCE_ROOT"]
VALIDATE = os.path.join(ROOT, "build-venv", "bin", "kubernetes-validate")
MANIFESTS = os.path.join(ROOT, "deploy", "kubernetes")
# The oldest release the manifest is meant for (hugepages-2Mi, subPath: long before).
K8S = "1.28.0"


class Kubernetes(unittest.TestCase):

    def setUp(self):
        if not os.access(VALIDATE, os.X_OK):
            if os.environ.get("WR_REQUIRE_EAL") == "1":
                self.fail("no build-venv/bin/kubernetes-validate (devtools/wr-test installs it)")
            self.skipTest("needs build-venv/bin/kubernetes-validate (devtools/wr-test)")

    def validate(self, path):
        return subprocess.run([VALIDATE, "--strict", "-k", K8S, path], capture_output=True,
                              text=True, timeout=120)

    def test_manifests_valid(self):
        files = sorted(os.path.join(MANIFESTS, f) for f in os.listdir(MANIFESTS)
                       if f.endswith(".yaml"))
        self.assertTrue(files)
        for f in files:
            p = self.validate(f)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertIn("passed for resource pod/wirerate", p.stdout + p.stderr)

    def test_schema_check_can_fail(self):
        """The same check refuses a manifest with a key the API does not have."""
        with open(os.path.join(MANIFESTS, "wirerate.yaml")) as f:
            text = f.read().replace("      imagePullPolicy:", "      imagePullPolcy:")
        with tempfile.NamedTemporaryFile("w", suffix=".yaml") as f:
            f.write(text)
            f.flush()
            p = self.validate(f.name)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("imagePullPolcy", p.stdout + p.stderr)



class Systemd(unittest.TestCase):
    """The service unit's sandbox, scored by systemd-analyze security offline (9.6 UNSAFE
    before issue 31; 2.8 with the sandbox a DPDK process allows, deploy/systemd)."""

    def test_unit_exposure(self):
        if shutil.which("systemd-analyze") is None:
            self.skipTest("needs systemd-analyze (Debian package systemd)")
        with open(os.path.join(ROOT, "deploy", "systemd", "wirerate.service.in")) as f:
            unit = f.read().replace("@BINDIR@", "/usr/bin").replace("@SYSCONFDIR@", "/etc")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "wirerate.service")
            with open(path, "w") as f:
                f.write(unit)
            p = subprocess.run(["systemd-analyze", "security", "--offline=yes", path],
                               capture_output=True, text=True, timeout=120)
        m = re.search(r"Overall exposure level for wirerate.service: ([\d.]+)", p.stdout)
        self.assertIsNotNone(m, p.stdout + p.stderr)
        print(f"\nsystemd-analyze security: {m.group(0)}")
        self.assertLessEqual(float(m.group(1)), 3.0)
        # What the server needs is kept: its capabilities, devices and group.
        for line in ("CapabilityBoundingSet=CAP_IPC_LOCK CAP_NET_ADMIN CAP_NET_RAW",
                     "DeviceAllow=char-vfio rw", "Group=wirerate", "RuntimeDirectoryMode=0750",
                     "ReadWritePaths=/run/dpdk"):
            self.assertIn("\n" + line + "\n", unit)
        self.assertIn("--socket-group wirerate", unit)


if __name__ == "__main__":
    unittest.main()
