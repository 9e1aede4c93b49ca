# SPDX-License-Identifier: BSD-3-Clause
"""Test helpers for the tools/ scripts: fake /sys and /proc trees built in
temporary directories, a fake command runner that records every command and
answers `ip`, `modprobe`, `dpdk-devbind.py`, `mount` and `umount` the way
the real ones would change the fake tree, and a loader for the scripts
(they have no .py suffix).

Nothing here ever runs a real command: an unexpected one fails the test.
"""

import importlib.machinery
import importlib.util
import io
import json
import os
import shutil
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
TOOLS = os.path.join(REPO, 'tools')
sys.path.insert(0, TOOLS)
import wrtools_lib as lib  # noqa: E402  (path set just above)


def load_tool(name):
    """Import tools/<name> as a module (the scripts have no .py suffix)."""
    path = os.path.join(TOOLS, name)
    modname = 'tool_' + name.replace('-', '_')
    loader = importlib.machinery.SourceFileLoader(modname, path)
    spec = importlib.util.spec_from_loader(modname, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


class FakeTree:
    """A root directory laid out like the parts of / the tools read."""

    def __init__(self):
        self.root = tempfile.mkdtemp(prefix='wr-tools-')
        # addr -> [(ifname, logical netdev dir)] hidden while on vfio-pci
        self.parked = {}

    def cleanup(self):
        shutil.rmtree(self.root, ignore_errors=True)

    def p(self, logical):
        return os.path.join(self.root, logical.lstrip('/'))

    def logical(self, real):
        return '/' + os.path.relpath(real, self.root)

    def write(self, logical, text):
        path = self.p(logical)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write('%s\n' % text)

    def read(self, logical):
        with open(self.p(logical)) as f:
            return f.read().strip()

    def mkdir(self, logical):
        os.makedirs(self.p(logical), exist_ok=True)

    def symlink(self, logical, target_logical):
        """Relative symlink, as sysfs has, so it resolves inside the root."""
        link = self.p(logical)
        os.makedirs(os.path.dirname(link), exist_ok=True)
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(os.path.relpath(self.p(target_logical),
                                   os.path.dirname(link)), link)

    def executable(self, logical):
        self.write(logical, '#!/bin/false')
        os.chmod(self.p(logical), 0o755)

    def snapshot(self):
        """Every file's content and every link's target, to prove that a
        refused or dry-run command changed nothing."""
        snap = {}
        for dirpath, dirnames, filenames in os.walk(self.root):
            for name in dirnames + filenames:
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, self.root)
                if os.path.islink(path):
                    snap[rel] = 'link:' + os.readlink(path)
                elif os.path.isfile(path):
                    with open(path) as f:
                        snap[rel] = f.read()
                else:
                    snap[rel] = 'dir'
        return snap

    # ------------------------------------------------------------ PCI / net

    def add_driver(self, name):
        self.mkdir('/sys/bus/pci/drivers/%s' % name)

    def set_driver(self, addr, driver):
        link = '/sys/devices/pci0000:00/%s/driver' % addr
        if os.path.lexists(self.p(link)):
            os.remove(self.p(link))
        if driver:
            self.add_driver(driver)
            self.symlink(link, '/sys/bus/pci/drivers/%s' % driver)

    def add_pci(self, addr, pci_class=0x020000, vendor=0x8086,
                device=0x10fb, numa=0, driver='ixgbe', ifname=None,
                operstate='down', flags=0x1002, virtio=False):
        """A PCI function; with ifname, its netdev (under virtioN/ like
        virtio-net when virtio=True, directly under net/ otherwise)."""
        dev = '/sys/devices/pci0000:00/%s' % addr
        self.write(dev + '/class', '0x%06x' % pci_class)
        self.write(dev + '/vendor', '0x%04x' % vendor)
        self.write(dev + '/device', '0x%04x' % device)
        self.write(dev + '/numa_node', str(numa))
        self.symlink('/sys/bus/pci/devices/%s' % addr, dev)
        self.set_driver(addr, driver)
        if ifname:
            net = dev + ('/virtio0' if virtio else '') + '/net/' + ifname
            self.write(net + '/operstate', operstate)
            self.write(net + '/flags', '0x%x' % flags)
            self.symlink('/sys/class/net/%s' % ifname, net)

    def add_virtual_iface(self, ifname):
        net = '/sys/devices/virtual/net/%s' % ifname
        self.write(net + '/operstate', 'unknown')
        self.write(net + '/flags', '0x9')
        self.symlink('/sys/class/net/%s' % ifname, net)

    def iommu(self, groups):
        self.mkdir('/sys/kernel/iommu_groups')
        for g in range(groups):
            self.mkdir('/sys/kernel/iommu_groups/%d/devices' % g)

    # ------------------------------------------------------------ hugepages

    def hugepages(self, kb, total=0, free=None, resv=0, surplus=0,
                  nodes=None):
        """Global counters for one size; nodes maps node -> (total, free)."""
        d = '/sys/kernel/mm/hugepages/hugepages-%dkB' % kb
        self.write(d + '/nr_hugepages', total)
        self.write(d + '/free_hugepages', total if free is None else free)
        self.write(d + '/resv_hugepages', resv)
        self.write(d + '/surplus_hugepages', surplus)
        for node, (ntotal, nfree) in (nodes or {}).items():
            nd = ('/sys/devices/system/node/node%d/hugepages/'
                  'hugepages-%dkB' % (node, kb))
            self.write(nd + '/nr_hugepages', ntotal)
            self.write(nd + '/free_hugepages', nfree)
            self.write(nd + '/surplus_hugepages', 0)

    def mounts(self, *lines):
        base = ['sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0',
                'proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0']
        self.write('/proc/mounts', '\n'.join(base + list(lines)))
        self.write('/proc/meminfo', 'MemTotal: 8000000 kB\n'
                   'Hugepagesize:       2048 kB')


class FakeRunner:
    """Records every command; answers like the real programs would and
    applies their effects to the fake tree."""

    MUTATING = ('dpdk-devbind.py', 'mount', 'umount')

    def __init__(self, tree, links=(), routes4=(), routes6=(),
                 modprobe_ok=True, devbind_status=0, devbind_noop=False,
                 ip_status=0):
        self.tree = tree
        self.links = list(links)
        self.routes4 = list(routes4)
        self.routes6 = list(routes6)
        self.modprobe_ok = modprobe_ok
        self.devbind_status = devbind_status
        self.devbind_noop = devbind_noop
        self.ip_status = ip_status
        self.calls = []

    # Drivers without a netdev: binding to one makes the interface vanish,
    # binding back to a kernel driver brings it back.
    USERSPACE_DRIVERS = ('vfio-pci', 'igb_uio', 'uio_pci_generic')

    def _move_netdevs(self, addr, driver):
        dev = '/sys/devices/pci0000:00/%s' % addr
        if driver in self.USERSPACE_DRIVERS:
            for name in os.listdir(self.tree.p('/sys/class/net')):
                link = self.tree.p('/sys/class/net/' + name)
                net = os.path.realpath(link)
                if net.startswith(self.tree.p(dev) + '/'):
                    parked = self.tree.p('/parked/%s/%s' % (addr, name))
                    os.makedirs(os.path.dirname(parked), exist_ok=True)
                    os.rename(net, parked)
                    os.remove(link)
                    self.tree.parked.setdefault(addr, []).append(
                        (name, self.tree.logical(net)))
        else:
            for name, net in self.tree.parked.pop(addr, []):
                os.makedirs(os.path.dirname(self.tree.p(net)), exist_ok=True)
                os.rename(self.tree.p('/parked/%s/%s' % (addr, name)),
                          self.tree.p(net))
                self.tree.symlink('/sys/class/net/' + name, net)

    def changes(self):
        """Commands that would change a real machine."""
        return [c for c in self.calls
                if os.path.basename(c[0]) in self.MUTATING
                or (os.path.basename(c[0]) == 'modprobe' and '-n' not in c)]

    def __call__(self, argv):
        argv = list(argv)
        self.calls.append(argv)
        name = os.path.basename(argv[0])
        if name == 'ip':
            if self.ip_status:
                return lib.CommandResult(self.ip_status, '', 'ip: boom')
            if 'addr' in argv:
                data = self.links
            else:
                data = self.routes6 if '-6' in argv else self.routes4
            return lib.CommandResult(0, json.dumps(data), '')
        if name == 'modprobe':
            if '-n' in argv:
                return lib.CommandResult(0 if self.modprobe_ok else 1)
            self.tree.add_driver(argv[-1])
            self.tree.write('/sys/module/vfio/parameters/'
                            'enable_unsafe_noiommu_mode', 'N')
            return lib.CommandResult(0)
        if name == 'dpdk-devbind.py':
            if not self.devbind_noop and self.devbind_status == 0:
                addr = argv[-1]
                driver = None if '-u' in argv \
                    else argv[argv.index('-b') + 1]
                self._move_netdevs(addr, driver)
                self.tree.set_driver(addr, driver)
            return lib.CommandResult(self.devbind_status, '',
                                     'Error: boom' if self.devbind_status
                                     else '')
        if name == 'mount':
            with open(self.tree.p('/proc/mounts'), 'a') as f:
                f.write('nodev %s hugetlbfs rw,relatime,%s 0 0\n'
                        % (argv[-1], argv[argv.index('-o') + 1]))
            return lib.CommandResult(0)
        if name == 'umount':
            path = self.tree.p('/proc/mounts')
            with open(path) as f:
                lines = [ln for ln in f if ln.split()[1] != argv[-1]]
            with open(path, 'w') as f:
                f.writelines(lines)
            return lib.CommandResult(0)
        raise AssertionError('unexpected command in a test: %r' % argv)


def ip_link(name, up=True, addrs=()):
    """One entry of `ip -j addr show`; addrs: (family, local, len, scope)."""
    return {
        'ifname': name,
        'flags': ['BROADCAST', 'MULTICAST'] + (['UP', 'LOWER_UP'] if up
                                               else []),
        'operstate': 'UP' if up else 'DOWN',
        'addr_info': [{'family': f, 'local': a, 'prefixlen': n, 'scope': s}
                      for f, a, n, s in addrs],
    }


def run_tool(module, argv, tree, runner, env=None, sysroot=None):
    """Run a tool's main() against the fake tree; (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    env = dict(env or {})
    env.setdefault('PATH', '/usr/bin:/bin')
    status = module.main(argv, env=env, runner=runner,
                         sysroot=sysroot or lib.SysRoot(tree.root),
                         out=out, err=err)
    return status, out.getvalue(), err.getvalue()
