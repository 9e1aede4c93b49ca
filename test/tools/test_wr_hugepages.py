# SPDX-License-Identifier: BSD-3-Clause
"""Tests for tools/wr-hugepages against fake /sys and /proc trees."""

import os
import unittest

from fakesys import FakeRunner, FakeTree, lib, load_tool, run_tool

hp = load_tool('wr-hugepages')

G2 = '/sys/kernel/mm/hugepages/hugepages-2048kB'
G1 = '/sys/kernel/mm/hugepages/hugepages-1048576kB'
N0_2M = '/sys/devices/system/node/node0/hugepages/hugepages-2048kB'
N1_2M = '/sys/devices/system/node/node1/hugepages/hugepages-2048kB'
N1_1G = '/sys/devices/system/node/node1/hugepages/hugepages-1048576kB'
MOUNT_2M = 'hugetlbfs /dev/hugepages hugetlbfs rw,relatime,pagesize=2M 0 0'


class ClampingSysRoot(lib.SysRoot):
    """A kernel short of memory: nr_hugepages writes give at most `limit`
    pages (free follows), as the real kernel does when it cannot find
    enough contiguous memory."""

    def __init__(self, root, limit):
        super().__init__(root)
        self.limit = limit

    def write(self, logical, value):
        if logical.endswith('/nr_hugepages'):
            value = min(int(value), self.limit)
            super().write(logical.replace('nr_', 'free_'), value)
        super().write(logical, value)


class HugepagesTest(unittest.TestCase):

    def setUp(self):
        self.tree = FakeTree()
        self.addCleanup(self.tree.cleanup)
        self.tree.hugepages(2048, total=0, nodes={0: (0, 0), 1: (0, 0)})
        self.tree.hugepages(1048576, total=0, nodes={0: (0, 0), 1: (0, 0)})
        self.tree.mounts()
        self.runner = FakeRunner(self.tree)

    def run_hp(self, *argv, sysroot=None):
        return run_tool(hp, list(argv), self.tree, self.runner,
                        sysroot=sysroot)

    def mount_calls(self):
        return [c for c in self.runner.calls if c[0] == 'mount']

    # ------------------------------------------------------------ reserve

    def test_reserve_on_node_writes_only_that_node(self):
        status, out, err = self.run_hp('reserve', '512', '--node', '1')
        self.assertEqual(status, 0, err)
        self.assertEqual(self.tree.read(N1_2M + '/nr_hugepages'), '512')
        self.assertEqual(self.tree.read(N0_2M + '/nr_hugepages'), '0')
        self.assertEqual(self.tree.read(G2 + '/nr_hugepages'), '0')
        self.assertIn('2M pages on node 1: 512 reserved', out)

    def test_reserve_system_wide_writes_global_counter(self):
        status, out, err = self.run_hp('reserve', '1024')
        self.assertEqual(status, 0, err)
        self.assertEqual(self.tree.read(G2 + '/nr_hugepages'), '1024')
        self.assertEqual(self.tree.read(N0_2M + '/nr_hugepages'), '0')
        self.assertIn('+ echo 1024 > %s/nr_hugepages' % G2, out)

    def test_reserve_1g_on_node(self):
        status, out, err = self.run_hp('reserve', '4', '--size', '1G',
                                       '--node', '1')
        self.assertEqual(status, 0, err)
        self.assertEqual(self.tree.read(N1_1G + '/nr_hugepages'), '4')

    def test_mounts_hugetlbfs_when_missing(self):
        status, out, err = self.run_hp('reserve', '64')
        self.assertEqual(status, 0, err)
        self.assertEqual(self.mount_calls(), [[
            'mount', '-t', 'hugetlbfs', '-o', 'pagesize=2M', 'nodev',
            '/dev/hugepages']])
        self.assertTrue(os.path.isdir(self.tree.p('/dev/hugepages')))

    def test_no_remount_when_present(self):
        self.tree.mounts(MOUNT_2M)
        status, out, err = self.run_hp('reserve', '64')
        self.assertEqual(status, 0, err)
        self.assertEqual(self.runner.calls, [])
        self.assertIn('already mounted at /dev/hugepages', out)

    def test_other_size_gets_its_own_mount_dir(self):
        # Debian mounts /dev/hugepages with the default 2M size at boot.
        self.tree.mounts(MOUNT_2M)
        status, out, err = self.run_hp('reserve', '2', '--size', '1G')
        self.assertEqual(status, 0, err)
        self.assertEqual(self.mount_calls(), [[
            'mount', '-t', 'hugetlbfs', '-o', 'pagesize=1G', 'nodev',
            '/dev/hugepages-1G']])

    def test_explicit_mount_dir_taken_by_other_size_is_an_error(self):
        self.tree.mounts(MOUNT_2M)
        before = self.tree.snapshot()
        status, out, err = self.run_hp('reserve', '2', '--size', '1G',
                                       '--mount', '/dev/hugepages')
        self.assertEqual(status, 1)
        self.assertEqual(self.tree.snapshot(), before)
        self.assertIn('/dev/hugepages is already a hugetlbfs mount with '
                      'pagesize=2M', err)
        self.assertEqual(self.mount_calls(), [])

    def test_mount_on_a_system_directory_is_refused(self):
        before = self.tree.snapshot()
        for d in ('/etc', '/', '/usr/', '/proc/sys'):
            status, out, err = self.run_hp('reserve', '512', '--mount', d)
            self.assertEqual(status, 1, d)
            self.assertIn('refusing to mount hugetlbfs on', err)
            self.assertIn('system directory', err)
        self.assertEqual(self.tree.snapshot(), before)
        self.assertEqual(self.runner.calls, [])

    def test_mount_on_a_non_empty_directory_is_refused(self):
        self.tree.write('/srv/data/keep.txt', 'x')
        self.tree.write('/srv/file', 'x')
        before = self.tree.snapshot()
        status, out, err = self.run_hp('reserve', '64', '--mount', '/srv/data')
        self.assertEqual(status, 1)
        self.assertIn('/srv/data: it is not empty', err)
        status, out, err = self.run_hp('reserve', '64', '--mount', '/srv/file')
        self.assertEqual(status, 1)
        self.assertIn('/srv/file: not a directory', err)
        # Nothing was reserved either: the mount is decided first.
        self.assertEqual(self.tree.snapshot(), before)
        self.assertEqual(self.runner.calls, [])

    def test_mount_on_an_empty_directory_of_its_own(self):
        self.tree.mkdir('/mnt/huge')
        status, out, err = self.run_hp('reserve', '64', '--mount', '/mnt/huge')
        self.assertEqual(status, 0, err)
        self.assertEqual(self.mount_calls(), [[
            'mount', '-t', 'hugetlbfs', '-o', 'pagesize=2M', 'nodev',
            '/mnt/huge']])

    def test_count_beyond_memory_is_refused(self):
        # The fake machine has MemTotal 8000000 kB.
        before = self.tree.snapshot()
        status, out, err = self.run_hp('reserve', '99999999999')
        self.assertEqual(status, 1)
        self.assertIn("more than the machine's memory", err)
        status, out, err = self.run_hp('reserve', '8', '--size', '1G')
        self.assertEqual(status, 1)
        self.assertIn("8 1G pages are 8G, more than the machine's memory", err)
        self.assertEqual(self.tree.snapshot(), before)
        self.assertEqual(self.runner.calls, [])

    def test_no_mount_option(self):
        status, out, err = self.run_hp('reserve', '64', '--no-mount')
        self.assertEqual(status, 0, err)
        self.assertEqual(self.mount_calls(), [])

    def test_idempotent_when_already_there(self):
        self.tree.hugepages(2048, total=512, nodes={0: (512, 512)})
        self.tree.mounts(MOUNT_2M)
        before = self.tree.snapshot()
        status, out, err = self.run_hp('reserve', '512')
        self.assertEqual(status, 0, err)
        self.assertIn('512 reserved already, nothing to change', out)
        self.assertEqual(self.runner.calls, [])
        self.assertEqual(self.tree.snapshot(), before)
        self.assertNotIn('+ ', out)

    def test_short_allocation_exits_nonzero(self):
        status, out, err = self.run_hp(
            'reserve', '1024', sysroot=ClampingSysRoot(self.tree.root, 600))
        self.assertEqual(status, 1)
        self.assertIn('asked for 1024, the kernel gave 600', err)
        self.assertEqual(self.tree.read(G2 + '/nr_hugepages'), '600')

    def test_full_allocation_with_clamping_kernel_is_fine(self):
        status, out, err = self.run_hp(
            'reserve', '100', sysroot=ClampingSysRoot(self.tree.root, 600))
        self.assertEqual(status, 0, err)

    def test_refuses_to_shrink_below_pages_in_use(self):
        self.tree.hugepages(2048, total=512, free=100,
                            nodes={0: (512, 100)})
        before = self.tree.snapshot()
        status, out, err = self.run_hp('reserve', '256')
        self.assertEqual(status, 1)
        self.assertIn('412 are in use', err)
        self.assertEqual(self.tree.snapshot(), before)

    def test_release_to_zero_does_not_mount(self):
        self.tree.hugepages(2048, total=64)
        status, out, err = self.run_hp('reserve', '0')
        self.assertEqual(status, 0, err)
        self.assertEqual(self.tree.read(G2 + '/nr_hugepages'), '0')
        self.assertEqual(self.mount_calls(), [])

    def test_unknown_size_and_node_are_errors(self):
        status, _, err = self.run_hp('reserve', '8', '--size', '16G')
        self.assertEqual(status, 1)
        self.assertIn('16G pages are not offered', err)
        status, _, err = self.run_hp('reserve', '8', '--node', '7')
        self.assertEqual(status, 1)
        self.assertIn('no NUMA node 7', err)
        status, _, err = self.run_hp('reserve', '8', '--size', 'lots')
        self.assertEqual(status, 1)
        self.assertIn('bad page size', err)
        self.assertEqual(self.runner.calls, [])

    def test_dry_run_prints_and_changes_nothing(self):
        before = self.tree.snapshot()
        status, out, err = self.run_hp('reserve', '256', '--node', '0',
                                       '--dry-run')
        self.assertEqual(status, 0, err)
        self.assertEqual(out.splitlines(), [
            'would run: echo 256 > %s/nr_hugepages' % N0_2M,
            'would run: mkdir -p /dev/hugepages',
            'would run: mount -t hugetlbfs -o pagesize=2M nodev '
            '/dev/hugepages',
        ])
        self.assertEqual(self.runner.calls, [])
        self.assertEqual(self.tree.snapshot(), before)

    def test_dry_run_before_subcommand(self):
        before = self.tree.snapshot()
        status, out, _ = self.run_hp('--dry-run', 'reserve', '8')
        self.assertEqual(status, 0)
        self.assertIn('would run: echo 8 >', out)
        self.assertEqual(self.tree.snapshot(), before)

    # ------------------------------------------------------------ unmount

    def test_unmount_refuses_with_files(self):
        self.tree.mounts(MOUNT_2M)
        self.tree.write('/dev/hugepages/rtemap_0', '')
        status, out, err = self.run_hp('unmount')
        self.assertEqual(status, 1)
        self.assertIn('refusing to unmount /dev/hugepages', err)
        self.assertIn('rtemap_0', err)
        self.assertEqual(self.runner.calls, [])

    def test_unmount_refuses_with_pages_in_use(self):
        self.tree.hugepages(2048, total=64, free=60)
        self.tree.mounts(MOUNT_2M)
        self.tree.mkdir('/dev/hugepages')
        status, out, err = self.run_hp('unmount', '/dev/hugepages')
        self.assertEqual(status, 1)
        self.assertIn('4 2M page(s) in use', err)
        self.assertEqual(self.runner.calls, [])

    def test_unmount_refuses_with_reserved_pages(self):
        self.tree.hugepages(2048, total=64, free=64, resv=8)
        self.tree.mounts(MOUNT_2M)
        status, _, err = self.run_hp('unmount')
        self.assertEqual(status, 1)
        self.assertIn('8 reserved', err)

    def test_unmount_when_idle(self):
        self.tree.hugepages(2048, total=64, free=64)
        self.tree.mounts(MOUNT_2M)
        self.tree.mkdir('/dev/hugepages')
        status, out, err = self.run_hp('unmount')
        self.assertEqual(status, 0, err)
        self.assertEqual(self.runner.calls, [['umount', '/dev/hugepages']])

    def test_unmount_dry_run(self):
        self.tree.mounts(MOUNT_2M)
        status, out, err = self.run_hp('unmount', '--dry-run')
        self.assertEqual(status, 0, err)
        self.assertEqual(out.strip(), 'would run: umount /dev/hugepages')
        self.assertEqual(self.runner.calls, [])

    def test_unmount_of_non_hugetlbfs_is_an_error(self):
        status, _, err = self.run_hp('unmount', '/proc')
        self.assertEqual(status, 1)
        self.assertIn('/proc is not a hugetlbfs mount', err)
        self.assertEqual(self.runner.calls, [])

    # ------------------------------------------------------------ show

    def test_show(self):
        self.tree.hugepages(2048, total=1024, free=1000, resv=3, surplus=2,
                            nodes={0: (512, 490), 1: (512, 510)})
        self.tree.mounts(MOUNT_2M, 'none /mnt/huge1g hugetlbfs '
                         'rw,relatime,pagesize=1024M 0 0')
        status, out, err = self.run_hp('show')
        self.assertEqual(status, 0, err)
        rows = [ln.split() for ln in out.splitlines()]
        self.assertEqual(rows[0], ['size', 'node', 'total', 'free', 'in-use',
                                   'resv', 'surplus'])
        self.assertIn(['2M', 'all', '1024', '1000', '24', '3', '2'], rows)
        self.assertIn(['2M', '0', '512', '490', '22', '-', '0'], rows)
        self.assertIn(['2M', '1', '512', '510', '2', '-', '0'], rows)
        self.assertIn(['1G', 'all', '0', '0', '0', '0', '0'], rows)
        self.assertIn(['/dev/hugepages', 'hugetlbfs', 'pagesize=2M'], rows)
        self.assertIn(['/mnt/huge1g', 'hugetlbfs', 'pagesize=1G'], rows)
        self.assertEqual(self.runner.calls, [])

    def test_show_without_mounts_says_so(self):
        status, out, _ = self.run_hp('show')
        self.assertEqual(status, 0)
        self.assertIn('mounts:\n  none', out)


class SizeParsingTest(unittest.TestCase):

    def test_parse(self):
        for text, kb in (('2M', 2048), ('2MB', 2048), ('2048kB', 2048),
                         ('2048', 2048), ('1G', 1048576), ('1GB', 1048576),
                         ('1024M', 1048576), ('64K', 64), ('2MiB', 2048)):
            self.assertEqual(lib.parse_size_kb(text), kb, text)
        for bad in ('', 'M', '0M', '2T', '-2M', '2 M B'):
            with self.assertRaises(ValueError, msg=bad):
                lib.parse_size_kb(bad)

    def test_format(self):
        self.assertEqual(lib.format_size_kb(2048), '2M')
        self.assertEqual(lib.format_size_kb(1048576), '1G')
        self.assertEqual(lib.format_size_kb(64), '64K')


if __name__ == '__main__':
    unittest.main()
