# SPDX-License-Identifier: BSD-3-Clause
"""The scripts as a user runs them (subprocess, shebang, exec bit), and the
shared library's guard rails; no real device or mount is touched."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from fakesys import REPO, TOOLS, FakeTree, lib

SCRIPTS = ('wr-hugepages', 'wr-bind')


def run_script(name, *argv, env_extra=None):
    env = dict(os.environ)
    env.update(env_extra or {})
    return subprocess.run([os.path.join(TOOLS, name)] + list(argv),
                          capture_output=True, text=True, env=env,
                          timeout=30, check=False)


class CliTest(unittest.TestCase):

    def test_help_exits_zero(self):
        for name in SCRIPTS:
            for argv in (['--help'], ['-h']):
                res = run_script(name, *argv)
                self.assertEqual(res.returncode, 0, res.stderr)
                self.assertIn('usage: %s' % name, res.stdout)

    def test_subcommand_help_exits_zero(self):
        for name, sub in (('wr-hugepages', 'reserve'), ('wr-bind', 'bind')):
            res = run_script(name, sub, '--help')
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertIn('--dry-run', res.stdout)

    def test_usage_error_exits_two(self):
        for name in SCRIPTS:
            res = run_script(name, 'frobnicate')
            self.assertEqual(res.returncode, 2)

    def test_script_headers(self):
        for name in SCRIPTS:
            path = os.path.join(TOOLS, name)
            self.assertTrue(os.access(path, os.X_OK), name)
            with open(path) as f:
                head = f.read(400).splitlines()
            self.assertEqual(head[0], '#!/usr/bin/env python3')
            self.assertEqual(head[1], '# SPDX-License-Identifier: '
                                      'BSD-3-Clause')
            self.assertTrue(head[2].startswith('"""%s: ' % name), head[2])

    def test_show_through_env_sysroot(self):
        tree = FakeTree()
        self.addCleanup(tree.cleanup)
        tree.hugepages(2048, total=8, free=6, nodes={0: (8, 6)})
        tree.mounts('hugetlbfs /dev/hugepages hugetlbfs rw,pagesize=2M 0 0')
        res = run_script('wr-hugepages', 'show',
                         env_extra={'WR_SYSROOT': tree.root})
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn(['2M', 'all', '8', '6', '2', '0', '0'],
                      [ln.split() for ln in res.stdout.splitlines()])

    def test_fake_root_never_mounts_for_real(self):
        """With WR_SYSROOT set the real runner refuses commands that would
        change the machine: the fake tree cannot leak into real mounts."""
        tree = FakeTree()
        self.addCleanup(tree.cleanup)
        tree.hugepages(2048, total=0)
        tree.mounts()
        res = run_script('wr-hugepages', 'reserve', '8',
                         env_extra={'WR_SYSROOT': tree.root})
        self.assertEqual(res.returncode, 1)
        self.assertIn('refusing to run "mount -t hugetlbfs', res.stderr)


class SetupArgsTest(unittest.TestCase):
    """tools/wr-setup ARGS: `wirerate run` stops after 5 s unless ARGS say when."""

    def args(self, *argv):
        res = subprocess.run(
            ['bash', '-c', '. "$0"; wr_run_args "$@"; printf "%s\\n" "${WR_RUN_ARGS[@]}"',
             os.path.join(TOOLS, 'lib', 'common.sh'), *argv],
            capture_output=True, text=True, timeout=30, check=True)
        return res.stdout.splitlines()

    def test_default_duration_kept(self):
        self.assertEqual(self.args(), ['--duration', '5'])
        self.assertEqual(self.args('--json', 'r.json'), ['--duration', '5', '--json', 'r.json'])
        # After "--" it is an EAL option, not ours.
        self.assertEqual(self.args('--', '--count'), ['--duration', '5', '--', '--count'])

    def test_own_end_replaces_it(self):
        for argv in (['--duration', '30', '--json', 'r.json'], ['--json', 'r.json', '--count',
                                                                 '100'],
                     ['--duration=2'], ['--count=7', '--', '-l', '0-1']):
            self.assertEqual(self.args(*argv), argv)


class NotBuiltTest(unittest.TestCase):
    """A checkout that was never built: the tools that run the binary say what to do
    first, in one line, instead of a traceback."""

    def test_build_first(self):
        root = tempfile.mkdtemp(prefix='wr-notbuilt-')
        self.addCleanup(shutil.rmtree, root, True)
        for d in ('tools', 'python'):
            shutil.copytree(os.path.join(REPO, d), os.path.join(root, d),
                            ignore=shutil.ignore_patterns('__pycache__'))
        for name, argv in (('wr-bench', ['--sizes', '64', '--reps', '1']),
                           ('wr-server-bench', ['--reps', '1'])):
            res = subprocess.run([os.path.join(root, 'tools', name), *argv],
                                 capture_output=True, text=True, timeout=30)
            self.assertEqual(res.returncode, 1, res.stderr)
            self.assertEqual(res.stdout, '')
            self.assertEqual(res.stderr,
                             f'{name}: {root}/build/app/wirerate is missing: '
                             'build first: tools/wr-setup\n')


class TrexTallyTest(unittest.TestCase):
    """wr-trex-tally over a trex-core-like tree (scripts/stl with a subdirectory): the
    tally, each refusal's one line grouped by what it refuses; a bad directory is exit 2."""

    def test_tally(self):
        binary = os.environ.get('WIRERATE', os.path.join(REPO, 'build', 'app', 'wirerate'))
        if not os.access(binary, os.X_OK) or not os.access('/usr/bin/python3', os.X_OK):
            self.skipTest('needs the built wirerate and /usr/bin/python3 (Scapy)')
        with tempfile.TemporaryDirectory() as root:
            stl = os.path.join(root, 'scripts', 'stl')
            os.makedirs(os.path.join(stl, 'hlt'))
            trex = os.path.join(REPO, 'test', 'trex')
            shutil.copy(os.path.join(trex, 'profiles', 'static.py'), stl)
            shutil.copy(os.path.join(trex, 'profiles', 'hlt_ranges.py'),
                        os.path.join(stl, 'hlt'))
            shutil.copy(os.path.join(trex, 'bad', 'hlt_bad.py'), os.path.join(stl, 'hlt'))
            shutil.copy(os.path.join(trex, 'bad', 'syntax.py'), stl)
            res = subprocess.run([os.path.join(REPO, 'devtools', 'wr-trex-tally'), root,
                                  '--wirerate', binary], capture_output=True, text=True,
                                 timeout=300)
            self.assertEqual(res.returncode, 0, res.stderr)
            lines = res.stdout.splitlines()
            self.assertEqual(lines[0], f'2 of 4 TRex profiles under {stl} import and pass '
                             'wirerate check unchanged')
            self.assertEqual(lines[1], '2 refused in one line:')
            self.assertIn("      hlt/hlt_bad.py: STLHltStream: l3_protocol 'ipx': expected "
                          "ipv4 or ipv6", lines)
            self.assertIn('  1 STLHltStream', lines)
            self.assertIn('  1 syntax error', lines)
            self.assertNotIn('converter bug', res.stdout)
        res = subprocess.run([os.path.join(REPO, 'devtools', 'wr-trex-tally'), '/nonexistent'],
                             capture_output=True, text=True, timeout=30)
        self.assertEqual((res.returncode, res.stderr),
                         (2, 'wr-trex-tally: /nonexistent: not a directory\n'))


class BadRefTest(unittest.TestCase):
    """--ref names another wirerate build to alternate with: anything else (missing, a
    directory, not executable) is refused in one line with exit 2 before anything runs,
    built tree or not."""

    def test_refused(self):
        d = tempfile.mkdtemp(prefix='wr-badref-')
        self.addCleanup(shutil.rmtree, d, True)
        plain = os.path.join(d, 'plain')
        with open(plain, 'w') as f:
            f.write('#!/bin/sh\n')
        for name in ('wr-bench', 'wr-bench-rx'):
            for ref in (os.path.join(d, 'missing'), d, plain):
                res = subprocess.run([os.path.join(REPO, 'tools', name), '--ref', ref],
                                     capture_output=True, text=True, timeout=30)
                self.assertEqual(res.returncode, 2, (name, ref, res.stderr))
                self.assertEqual(res.stdout, '')
                self.assertEqual(res.stderr,
                                 f'{name}: --ref {ref}: not an executable file\n')


class LibTest(unittest.TestCase):

    def setUp(self):
        self.tree = FakeTree()
        self.addCleanup(self.tree.cleanup)
        self.sr = lib.SysRoot(self.tree.root)

    def test_real_runner_guard(self):
        run = lib.RealRunner(fake_root=True)
        # A path that cannot exist: if the guard failed, the error would be
        # "not found" instead of the refusal, and nothing would run.
        for argv in (['/nonexistent/dpdk-devbind.py', '-b', 'vfio-pci', 'x'],
                     ['/nonexistent/modprobe', 'vfio-pci'],
                     ['/nonexistent/umount', '/dev/hugepages'],
                     ['/nonexistent/ip', 'link', 'set', 'x', 'down']):
            with self.assertRaisesRegex(lib.ToolError, 'refusing to run'):
                run(argv)
        for argv in (['/nonexistent/ip', '-j', 'addr', 'show'],
                     ['/nonexistent/modprobe', '-n', '-q', 'vfio-pci']):
            with self.assertRaisesRegex(lib.ToolError, 'not found'):
                run(argv)

    def test_paths_map_under_root(self):
        self.assertEqual(self.sr.path('/sys/x'),
                         os.path.join(self.tree.root, 'sys/x'))
        self.assertEqual(self.sr.logical(self.sr.path('/sys/x')), '/sys/x')
        self.assertEqual(lib.SysRoot('/').path('/sys/x'), '/sys/x')
        with self.assertRaises(ValueError):
            self.sr.path('relative')

    def test_find_program_under_root(self):
        self.assertIsNone(lib.find_program(self.sr, 'dpdk-devbind.py',
                                           '/opt/bin'))
        self.tree.executable('/usr/sbin/dpdk-devbind.py')
        self.assertEqual(lib.find_program(self.sr, 'dpdk-devbind.py', ''),
                         '/usr/sbin/dpdk-devbind.py')
        self.tree.executable('/opt/bin/dpdk-devbind.py')
        self.assertEqual(lib.find_program(self.sr, 'dpdk-devbind.py',
                                          '/opt/bin:/usr/bin'),
                         '/opt/bin/dpdk-devbind.py')
        self.tree.write('/opt/x/dpdk-devbind.py', 'not executable')
        self.assertEqual(lib.find_program(self.sr, 'dpdk-devbind.py',
                                          '/opt/x'),
                         '/usr/sbin/dpdk-devbind.py')

    def test_read_mounts_unescapes(self):
        self.tree.write('/proc/mounts',
                        'nodev /mnt/huge\\040pages hugetlbfs rw,pagesize=1G '
                        '0 0\nshort line\n')
        (m,) = lib.read_mounts(self.sr)
        self.assertEqual(m['target'], '/mnt/huge pages')
        self.assertEqual(m['options'], {'rw': None, 'pagesize': '1G'})

    def test_write_error_is_one_clear_line(self):
        with self.assertRaisesRegex(lib.ToolError,
                                    'cannot write 5 to /sys/nope/x'):
            self.sr.write('/sys/nope/x', 5)


if __name__ == '__main__':
    sys.exit(unittest.main())
