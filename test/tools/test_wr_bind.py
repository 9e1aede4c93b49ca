# SPDX-License-Identifier: BSD-3-Clause
"""Tests for tools/wr-bind against a fake sysfs tree and canned `ip` JSON.
dpdk-devbind.py is never run: the fake runner records the command and moves
the fake driver link the way the real script would."""

import json
import os
import unittest

from fakesys import FakeRunner, FakeTree, ip_link, load_tool, run_tool

wb = load_tool('wr-bind')

DEVBIND = '/usr/bin/dpdk-devbind.py'
MGMT = '0000:00:03.0'      # eth0: the machine's own link, default route
NIC0 = '0000:03:00.0'      # ens1f0: an idle test port
NIC1 = '0000:03:00.1'      # ens1f1: an idle test port
STATE = '/var/lib/wirerate/bind-state.json'
NOIOMMU = '/sys/module/vfio/parameters/enable_unsafe_noiommu_mode'
DEFAULT_LINE = ('0000:00:03.0 (eth0) carries the default route: binding it '
                'would cut this machine off; use --allow-default-route if you '
                'are sure (--force does not cover it)')


class BindTestBase(unittest.TestCase):

    def setUp(self):
        t = self.tree = FakeTree()
        self.addCleanup(t.cleanup)
        t.add_pci('0000:00:00.0', pci_class=0x060000, vendor=0x8086,
                  device=0x1237, driver=None)
        t.add_pci('0000:00:02.0', pci_class=0x010000, vendor=0x1af4,
                  device=0x1042, driver='virtio-pci', numa=-1)
        t.add_pci(MGMT, vendor=0x1af4, device=0x1041, driver='virtio-pci',
                  ifname='eth0', operstate='up', flags=0x1003, virtio=True,
                  numa=-1)
        t.add_pci(NIC0, numa=1, ifname='ens1f0')
        t.add_pci(NIC1, numa=1, ifname='ens1f1')
        t.add_virtual_iface('lo')
        t.add_driver('vfio-pci')
        t.iommu(4)
        t.executable(DEVBIND)
        self.links = [
            ip_link('lo', addrs=[('inet', '127.0.0.1', 8, 'host')]),
            ip_link('eth0', addrs=[('inet', '192.0.2.2', 24, 'global'),
                                   ('inet6', 'fd00::2', 64, 'global'),
                                   ('inet6', 'fe80::1', 64, 'link')]),
            ip_link('ens1f0', up=False),
            ip_link('ens1f1', up=False),
        ]
        self.routes4 = [
            {'dst': 'default', 'gateway': '192.0.2.1', 'dev': 'eth0'},
            {'dst': '192.0.2.0/24', 'dev': 'eth0', 'protocol': 'kernel'},
            {'type': 'local', 'dst': '192.0.2.2', 'dev': 'eth0',
             'table': 'local'},
            {'type': 'local', 'dst': '127.0.0.1', 'dev': 'lo',
             'table': 'local'},
        ]
        self.routes6 = [
            {'dst': 'fd00::/64', 'dev': 'eth0'},
            {'dst': 'fe80::/64', 'dev': 'eth0'},
            {'type': 'multicast', 'dst': 'ff00::/8', 'dev': 'eth0',
             'table': 'local'},
        ]

    def runner(self, **kw):
        self.fake = FakeRunner(self.tree, self.links, self.routes4,
                               self.routes6, **kw)
        return self.fake

    def run_wb(self, *argv, runner=None, env=None):
        # No SSH session unless a test gives one: the developer's own
        # $SSH_CONNECTION must not change what the tests see.
        return run_tool(wb, list(argv), self.tree, runner or self.runner(),
                        env=env if env is not None else {'PATH': '/usr/bin'})

    def driver(self, addr):
        return os.path.basename(os.readlink(self.tree.p(
            '/sys/bus/pci/devices/%s/driver' % addr)))

    def state(self):
        with open(self.tree.p(STATE)) as f:
            return json.load(f)

    def assert_refused_unchanged(self, argv, expect_lines, runner=None):
        """The command fails, prints each expected line, runs nothing that
        changes the machine and leaves every fake file as it was."""
        before = self.tree.snapshot()
        status, out, err = self.run_wb(*argv, runner=runner)
        self.assertEqual(status, 1, out + err)
        for line in expect_lines:
            self.assertIn(line, err)
        self.assertIn('nothing was changed', err)
        self.assertEqual(self.fake.changes(), [])
        self.assertEqual(self.tree.snapshot(), before)
        return err


class ListTest(BindTestBase):

    def test_list_fields(self):
        status, out, err = self.run_wb('list')
        self.assertEqual(status, 0, err)
        lines = out.splitlines()
        self.assertIn('0000:00:03.0 1af4:1041 driver=virtio-pci if=eth0 '
                      'numa=- link=up up=yes', lines)
        self.assertIn('0000:03:00.0 8086:10fb driver=ixgbe if=ens1f0 '
                      'numa=1 link=down up=no', lines)
        self.assertIn('    addresses: 192.0.2.2/24, fd00::2/64, fe80::1/64 '
                      '(link-local)', lines)
        self.assertIn('    routes: default via 192.0.2.1 [DEFAULT ROUTE], '
                      '192.0.2.0/24, fd00::/64', lines)
        self.assertIn('    bind: refused without --allow-default-route, '
                      '--force: DEFAULT ROUTE, routes, addresses, up', lines)
        self.assertEqual(lines.count('    bind: ok'), 2)
        # Only class 02 devices: not the host bridge, not the virtio disk.
        self.assertNotIn('0000:00:00.0', out)
        self.assertNotIn('0000:00:02.0', out)
        self.assertNotIn('if=lo', out)
        self.assertEqual(self.fake.changes(), [])

    def test_list_json(self):
        status, out, err = self.run_wb('list', '--json')
        self.assertEqual(status, 0, err)
        devs = {d['pci']: d for d in json.loads(out)}
        self.assertEqual(sorted(devs), [MGMT, NIC0, NIC1])
        nic = devs[NIC0]
        self.assertEqual((nic['id'], nic['driver'], nic['numa_node']),
                         ('8086:10fb', 'ixgbe', 1))
        self.assertEqual(nic['ifaces'][0]['name'], 'ens1f0')
        mgmt = devs[MGMT]['ifaces'][0]
        self.assertTrue(mgmt['up'])
        self.assertEqual(
            [r for r in mgmt['routes'] if r['default']],
            [{'route': 'default via 192.0.2.1', 'default': True}])

    def test_list_shows_bound_device_and_original_driver(self):
        self.assertEqual(self.run_wb('bind', 'ens1f0')[0], 0)
        status, out, _ = self.run_wb('list')
        self.assertIn('0000:03:00.0 8086:10fb driver=vfio-pci if=-', out)
        self.assertIn('bound by wr-bind; restore puts it back on ixgbe', out)

    def test_list_survives_missing_ip(self):
        status, out, err = self.run_wb('list', runner=self.runner(
            ip_status=1))
        self.assertEqual(status, 0, err)
        self.assertIn('ip: "ip -j addr show" failed', out)


class RefusalTest(BindTestBase):

    def test_default_route_refused(self):
        self.assert_refused_unchanged(['bind', 'eth0'], [DEFAULT_LINE])

    def test_pci_address_refused_like_interface(self):
        err = self.assert_refused_unchanged(['bind', MGMT], [DEFAULT_LINE])
        # One line per reason.
        self.assertIn('(eth0) is up', err)
        self.assertIn('(eth0) has addresses (192.0.2.2/24, fd00::2/64)', err)
        self.assertIn('(eth0) carries routes (192.0.2.0/24, fd00::/64)', err)

    def test_up_only_refused(self):
        self.tree.write('/sys/class/net/ens1f0/flags', '0x1003')
        err = self.assert_refused_unchanged(
            ['bind', 'ens1f0'],
            ['0000:03:00.0 (ens1f0) is up: take it down (ip link set '
             'ens1f0 down) or use --force'])
        self.assertEqual(len(err.strip().splitlines()), 2)

    def test_global_address_refused(self):
        self.links[2] = ip_link('ens1f0', up=False, addrs=[
            ('inet6', '2001:db8::5', 64, 'global')])
        self.assert_refused_unchanged(
            ['bind', NIC0], ['0000:03:00.0 (ens1f0) has addresses '
                             '(2001:db8::5/64)'])

    def test_link_local_address_alone_is_not_in_use(self):
        self.links[2] = ip_link('ens1f0', up=False, addrs=[
            ('inet6', 'fe80::2', 64, 'link')])
        self.routes6.append({'dst': 'fe80::/64', 'dev': 'ens1f0'})
        status, out, err = self.run_wb('bind', 'ens1f0')
        self.assertEqual(status, 0, err)

    def test_route_refused(self):
        self.routes4.append({'dst': '198.51.100.0/24', 'dev': 'ens1f1',
                             'gateway': '203.0.113.1'})
        self.assert_refused_unchanged(
            ['bind', 'ens1f1'], ['0000:03:00.1 (ens1f1) carries routes '
                                 '(198.51.100.0/24 via 203.0.113.1)'])

    def test_multipath_default_route_in_other_table_refused(self):
        self.routes4.append({'dst': 'default', 'table': '100', 'nexthops': [
            {'gateway': '203.0.113.1', 'dev': 'ens1f0'},
            {'gateway': '203.0.113.2', 'dev': 'ens1f1'}]})
        self.assert_refused_unchanged(
            ['bind', 'ens1f1'],
            ['0000:03:00.1 (ens1f1) carries the default route'])

    def test_all_or_nothing(self):
        err = self.assert_refused_unchanged(['bind', NIC0, 'eth0', NIC1],
                                            [DEFAULT_LINE])
        self.assertNotIn('03:00.0', err)

    def test_ip_failure_refused(self):
        runner = self.runner(ip_status=1)
        self.assert_refused_unchanged(
            ['bind', NIC0], ['cannot tell whether it carries traffic'],
            runner=runner)

    def test_ip_failure_not_covered_by_force(self):
        """Issue 17: with `ip -j` failing, `bind eth0 --force` went ahead: no route
        information means eth0 may carry the default route or this session."""
        for argv in (['bind', 'eth0', '--force'], ['bind', NIC0, '--force'],
                     ['bind', 'eth0', '--force', '--allow-default-route'],
                     ['bind', 'eth0', '--force', '--allow-management']):
            with self.subTest(argv=argv):
                self.assert_refused_unchanged(
                    argv, ['cannot tell whether it carries traffic, the default '
                           'route or this session (', '--force does not cover it'],
                    runner=self.runner(ip_status=1))
        # Both overrides (and --force for its being up) take the user's word.
        status, out, err = self.run_wb('bind', NIC0, '--force', '--allow-default-route',
                                       '--allow-management',
                                       runner=self.runner(ip_status=1))
        self.assertEqual(status, 0, out + err)
        self.assertIn('warning (--allow-default-route and --allow-management)', err)
        self.assertEqual(self.driver(NIC0), 'vfio-pci')

    def test_unknown_device_and_non_network(self):
        self.assert_refused_unchanged(
            ['bind', 'ens9', '0000:09:00.0', NIC0],
            ['ens9: no such PCI address or network interface',
             '0000:09:00.0: no such PCI device'])
        self.assert_refused_unchanged(
            ['bind', '00:02.0'], ['0000:00:02.0 is not a network device '
                                  '(PCI class 0x010000)'])
        self.assert_refused_unchanged(
            ['bind', 'lo'], ['lo is not a PCI network device'])

    def test_iommu_off_refused(self):
        for g in os.listdir(self.tree.p('/sys/kernel/iommu_groups')):
            os.rename(self.tree.p('/sys/kernel/iommu_groups/' + g),
                      self.tree.p('/tmp-group-' + g))
        self.assert_refused_unchanged(
            ['bind', NIC0], ['the IOMMU is off', 'use --noiommu'])
        # --force does not replace --noiommu.
        self.assert_refused_unchanged(['bind', '--force', NIC0],
                                      ['the IOMMU is off'])

    def test_vfio_pci_unavailable_refused(self):
        os.rmdir(self.tree.p('/sys/bus/pci/drivers/vfio-pci'))
        runner = self.runner(modprobe_ok=False)
        self.assert_refused_unchanged(['bind', NIC0],
                                      ['driver vfio-pci is not available'],
                                      runner=runner)
        self.assertIn(['modprobe', '-n', '-q', 'vfio-pci'], self.fake.calls)

    def test_devbind_missing(self):
        os.remove(self.tree.p(DEVBIND))
        before = self.tree.snapshot()
        status, out, err = self.run_wb('bind', NIC0)
        self.assertEqual(status, 1)
        self.assertIn('dpdk-devbind.py not found', err)
        self.assertEqual(self.fake.changes(), [])
        self.assertEqual(self.tree.snapshot(), before)


class BindTest(BindTestBase):

    def test_bind_and_restore_round_trip(self):
        status, out, err = self.run_wb('bind', 'ens1f0')
        self.assertEqual(status, 0, err)
        self.assertEqual(self.fake.changes(),
                         [[DEVBIND, '-b', 'vfio-pci', NIC0]])
        self.assertEqual(self.driver(NIC0), 'vfio-pci')
        entry = self.state()['devices'][NIC0]
        self.assertEqual((entry['driver'], entry['ifname'],
                          entry['bound_to']), ('ixgbe', 'ens1f0', 'vfio-pci'))
        self.assertIn('0000:03:00.0: ixgbe -> vfio-pci', out)

        status, out, err = self.run_wb('restore')
        self.assertEqual(status, 0, err)
        self.assertEqual(self.fake.changes(), [[DEVBIND, '-b', 'ixgbe', NIC0]])
        self.assertEqual(self.driver(NIC0), 'ixgbe')
        self.assertEqual(self.state()['devices'], {})
        status, out, _ = self.run_wb('restore')
        self.assertIn('nothing to restore', out)

    def test_unbind_by_remembered_interface_name(self):
        self.assertEqual(self.run_wb('bind', NIC0, NIC1)[0], 0)
        # Bound to vfio-pci the netdev is gone; the state file knows it.
        self.assertFalse(os.path.lexists(self.tree.p('/sys/class/net/ens1f1')))
        status, out, err = self.run_wb('unbind', 'ens1f1')
        self.assertEqual(status, 0, err)
        self.assertEqual(self.fake.changes(), [[DEVBIND, '-b', 'ixgbe', NIC1]])
        self.assertEqual(self.driver(NIC1), 'ixgbe')
        self.assertEqual(self.driver(NIC0), 'vfio-pci')
        self.assertEqual(sorted(self.state()['devices']), [NIC0])
        self.assertTrue(os.path.lexists(self.tree.p('/sys/class/net/ens1f1')))

    def test_unbind_unknown_to_state_refused(self):
        self.assert_refused_unchanged(['unbind', NIC0],
                                      ['no remembered original driver'])

    def test_device_without_driver_restores_to_none(self):
        self.tree.set_driver(NIC1, None)
        self.assertEqual(self.run_wb('bind', NIC1)[0], 0)
        status, _, err = self.run_wb('restore', NIC1)
        self.assertEqual(status, 0, err)
        self.assertEqual(self.fake.changes(), [[DEVBIND, '-u', NIC1]])
        self.assertFalse(os.path.lexists(self.tree.p(
            '/sys/bus/pci/devices/%s/driver' % NIC1)))

    def test_rebind_keeps_first_original_driver(self):
        self.tree.add_driver('igb_uio')
        self.assertEqual(self.run_wb('bind', NIC0)[0], 0)
        self.assertEqual(self.run_wb('bind', NIC0, '--driver', 'igb_uio')[0],
                         0)
        self.assertEqual(self.driver(NIC0), 'igb_uio')
        self.assertEqual(self.state()['devices'][NIC0]['driver'], 'ixgbe')
        self.assertEqual(self.run_wb('restore')[0], 0)
        self.assertEqual(self.driver(NIC0), 'ixgbe')

    def test_already_bound_is_a_no_op(self):
        self.tree.set_driver(NIC0, 'vfio-pci')
        status, out, err = self.run_wb('bind', '03:00.0')
        self.assertEqual(status, 0, err)
        self.assertIn('already on vfio-pci', out)
        self.assertEqual(self.fake.changes(), [])

    def test_force_does_not_cover_default_route(self):
        self.assert_refused_unchanged(['bind', '--force', 'eth0'],
                                      [DEFAULT_LINE])

    def test_allow_default_route_alone_is_not_enough(self):
        # eth0 is also up, addressed and routed: those need --force.
        err = self.assert_refused_unchanged(
            ['bind', '--allow-default-route', 'eth0'],
            ['0000:00:03.0 (eth0) is up'])
        self.assertNotIn('default route', err)

    def test_management_interface_needs_its_own_override(self):
        env = {'SSH_CONNECTION': '198.51.100.7 50022 192.0.2.2 22'}
        status, out, err = self.run_wb('bind', '--force',
                                       '--allow-default-route', 'eth0',
                                       env=env)
        self.assertEqual(status, 1)
        self.assertIn('0000:00:03.0 (eth0) carries this session '
                      '(192.0.2.2/24): binding it would cut you off; use '
                      '--allow-management', err)
        self.assertEqual(self.fake.changes(), [])
        status, out, err = self.run_wb('list', env=env)
        self.assertIn('DEFAULT ROUTE, MANAGEMENT', out)
        status, out, err = self.run_wb('bind', '--force',
                                       '--allow-default-route',
                                       '--allow-management', 'eth0', env=env)
        self.assertEqual(status, 0, err)
        self.assertIn('warning (--allow-management): ', err)

    def test_uio_pci_generic_missing_names_its_config(self):
        err = self.assert_refused_unchanged(
            ['bind', '--driver', 'uio_pci_generic', NIC0],
            ['driver uio_pci_generic is not available'],
            runner=self.runner(modprobe_ok=False))
        self.assertIn('CONFIG_UIO_PCI_GENERIC', err)
        self.assertNotIn('VFIO', err)

    def test_force_binds_in_use_interface(self):
        status, out, err = self.run_wb('bind', '--force',
                                       '--allow-default-route', 'eth0')
        self.assertEqual(status, 0, err)
        self.assertIn('warning (--allow-default-route): ' + DEFAULT_LINE, err)
        self.assertEqual(self.fake.changes(),
                         [[DEVBIND, '-b', 'vfio-pci', '--force', MGMT]])
        self.assertEqual(self.state()['devices'][MGMT]['driver'],
                         'virtio-pci')

    def test_noiommu_sets_unsafe_mode_only_when_iommu_off(self):
        self.tree.write(NOIOMMU, 'N')
        # IOMMU on: --noiommu must not touch the parameter.
        status, out, err = self.run_wb('bind', '--noiommu', NIC0)
        self.assertEqual(status, 0, err)
        self.assertEqual(self.tree.read(NOIOMMU), 'N')
        self.assertIn('--noiommu not needed', out)
        # IOMMU off: it is set before binding.
        os.rename(self.tree.p('/sys/kernel/iommu_groups'),
                  self.tree.p('/iommu-away'))
        status, out, err = self.run_wb('bind', '--noiommu', NIC1)
        self.assertEqual(status, 0, err)
        self.assertEqual(self.tree.read(NOIOMMU), 'Y')
        self.assertLess(out.index('echo Y > ' + NOIOMMU),
                        out.index('dpdk-devbind.py -b vfio-pci ' + NIC1))

    def test_loadable_vfio_pci_is_loaded_first(self):
        os.rmdir(self.tree.p('/sys/bus/pci/drivers/vfio-pci'))
        status, out, err = self.run_wb('bind', NIC0)
        self.assertEqual(status, 0, err)
        self.assertEqual(self.fake.changes(), [
            ['modprobe', 'vfio-pci'], [DEVBIND, '-b', 'vfio-pci', NIC0]])

    def test_dry_run_prints_exact_commands_and_changes_nothing(self):
        os.rename(self.tree.p('/sys/kernel/iommu_groups'),
                  self.tree.p('/iommu-away'))
        self.tree.write(NOIOMMU, 'N')
        before = self.tree.snapshot()
        status, out, err = self.run_wb('bind', '--dry-run', '--noiommu',
                                       NIC0, 'ens1f1')
        self.assertEqual(status, 0, err)
        self.assertEqual(out.splitlines(), [
            'would run: echo Y > ' + NOIOMMU,
            'would write: ' + STATE,
            'would run: %s -b vfio-pci %s' % (DEVBIND, NIC0),
            'would run: %s -b vfio-pci %s' % (DEVBIND, NIC1),
        ])
        self.assertEqual(self.fake.changes(), [])
        self.assertEqual(self.tree.snapshot(), before)

    def test_restore_dry_run_changes_nothing(self):
        self.assertEqual(self.run_wb('bind', NIC0)[0], 0)
        before = self.tree.snapshot()
        status, out, err = self.run_wb('--dry-run', 'restore')
        self.assertEqual(status, 0, err)
        self.assertIn('would run: %s -b ixgbe %s' % (DEVBIND, NIC0), out)
        self.assertEqual(self.fake.changes(), [])
        self.assertEqual(self.tree.snapshot(), before)

    def test_devbind_silent_failure_detected(self):
        # dpdk-devbind.py prints some errors and still exits 0.
        runner = self.runner(devbind_noop=True)
        status, out, err = self.run_wb('bind', NIC0, runner=runner)
        self.assertEqual(status, 1)
        self.assertIn('0000:03:00.0 is on driver ixgbe, not vfio-pci', err)
        self.assertEqual(self.state()['devices'], {})

    def test_devbind_failure_midway_keeps_state_of_bound_ones(self):
        calls = []

        def second_fails(argv):
            calls.append(argv)
            if argv[0] == DEVBIND and argv[-1] == NIC1:
                return wb.lib.CommandResult(1, '', 'Error: bind failed')
            return inner(argv)
        inner = self.runner()
        status, out, err = run_tool(wb, ['bind', NIC0, NIC1], self.tree,
                                    second_fails)
        self.assertEqual(status, 1)
        self.assertIn('Error: bind failed', err)
        self.assertIn('0000:03:00.0 bound; "wr-bind restore" undoes it', err)
        self.assertEqual(sorted(self.state()['devices']), [NIC0])
        self.assertEqual(self.driver(NIC1), 'ixgbe')

    def test_state_file_option(self):
        status, _, err = self.run_wb('--state-file', '/run/wr.json', 'bind',
                                     NIC0)
        self.assertEqual(status, 0, err)
        self.assertTrue(os.path.exists(self.tree.p('/run/wr.json')))
        self.assertFalse(os.path.exists(self.tree.p(STATE)))

    def test_corrupt_state_file_is_an_error(self):
        self.tree.write(STATE, '{not json')
        status, _, err = self.run_wb('bind', NIC0)
        self.assertEqual(status, 1)
        self.assertIn('cannot read state file', err)
        self.assertEqual(self.fake.changes(), [])


if __name__ == '__main__':
    unittest.main()
