# SPDX-License-Identifier: BSD-3-Clause
"""Shared plumbing for the tools: for wr-hugepages and wr-bind, a re-rootable view of
/sys, /proc and /var, a command runner tests can replace, and an action
log that either performs changes or, with --dry-run, only prints them.

Every path the tools touch is a *logical* path ("/sys/kernel/mm/...").
`SysRoot.path()` maps it under the root prefix (WR_SYSROOT or --sysroot),
so the tests build a fake tree in a temporary directory and the code under
test never learns the difference.  Messages and dry-run output always show
logical paths: they are what the user would type on the real machine.
For the benchmarks, the built binary and DPDK's programs, or one line saying
what to do first.
"""

import json
import os
import re
import shlex
import shutil
import subprocess
import sys

# Exit statuses shared by both tools.  2 is what argparse uses for usage
# errors, so a refused or failed operation takes 1.
EXIT_OK = 0
EXIT_FAIL = 1

# Directories searched for helper programs after $PATH: Debian's
# dpdk-devbind.py lives in /usr/bin, modprobe and ip in /usr/sbin or /sbin,
# and a hand-built DPDK installs under /usr/local.
FALLBACK_BIN_DIRS = ('/usr/local/sbin', '/usr/local/bin', '/usr/sbin',
                     '/usr/bin', '/sbin', '/bin')

# Commands that only read state; everything else changes the machine and is
# refused by the real runner when the root is not "/" (see RealRunner).
READ_ONLY_COMMANDS = {
    'ip': lambda argv: '-j' in argv and 'show' in argv,
    'modprobe': lambda argv: '-n' in argv,
}


def need_built(*paths, programs=()):
    """Each of @paths (built files, such as build/app/wirerate) exists and each of
    @programs (dpdk-testpmd) is on $PATH, or the tool exits 1 with one line on
    stderr saying what to run first instead of a traceback later."""
    tool = os.path.basename(sys.argv[0])
    for p in paths:
        if not os.access(p, os.X_OK):
            sys.exit(f"{tool}: {p} is missing: build first: tools/wr-setup")
    for p in programs:
        if shutil.which(p) is None:
            sys.exit(f"{tool}: {p} is not installed: install it first: tools/wr-setup")


def need_ref(path):
    """--ref @path (another wirerate build to alternate with) is an executable file, or
    the tool exits 2 (a bad option) with one line on stderr, before anything runs."""
    if path is not None and not (os.path.isfile(path) and os.access(path, os.X_OK)):
        print(f"{os.path.basename(sys.argv[0])}: --ref {path}: not an executable file",
              file=sys.stderr)
        sys.exit(2)


class ToolError(Exception):
    """An error worth one clear line to the user; exits with EXIT_FAIL."""


class CommandResult:
    """What a runner returns: exit status and captured text."""

    def __init__(self, returncode, stdout='', stderr=''):
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr


class RealRunner:
    """Runs commands with subprocess.

    When the tool works on a fake root (tests, experiments), a command that
    would change the real machine (mount, dpdk-devbind.py, modprobe without
    -n) is refused: the fake tree must never leak into real devices.
    """

    def __init__(self, fake_root):
        self.fake_root = fake_root

    def __call__(self, argv):
        name = os.path.basename(argv[0])
        if self.fake_root:
            check = READ_ONLY_COMMANDS.get(name)
            if check is None or not check(argv):
                raise ToolError('refusing to run "%s" on the real machine '
                                'while working on a fake root'
                                % shlex.join(argv))
        try:
            proc = subprocess.run(argv, capture_output=True, text=True,
                                  check=False)
        except FileNotFoundError as exc:
            raise ToolError('%s: not found' % argv[0]) from exc
        return CommandResult(proc.returncode, proc.stdout, proc.stderr)


class SysRoot:
    """The machine's files seen through a root prefix ("/" for real)."""

    def __init__(self, root='/'):
        self.root = os.path.abspath(root or '/')

    @property
    def is_fake(self):
        return self.root != '/'

    def path(self, logical):
        """Logical absolute path -> real path under the root prefix."""
        if not logical.startswith('/'):
            raise ValueError('logical path must be absolute: %r' % logical)
        return os.path.join(self.root, logical.lstrip('/'))

    def logical(self, real):
        """Inverse of path(): a real path under the root -> logical path."""
        real = os.path.abspath(real)
        if self.root == '/':
            return real
        if real == self.root:
            return '/'
        if real.startswith(self.root + '/'):
            return real[len(self.root):]
        return real

    def exists(self, logical):
        return os.path.exists(self.path(logical))

    def isdir(self, logical):
        return os.path.isdir(self.path(logical))

    def listdir(self, logical):
        """Sorted entries of a directory, or [] when it does not exist."""
        try:
            return sorted(os.listdir(self.path(logical)))
        except (FileNotFoundError, NotADirectoryError):
            return []

    def read(self, logical, default=None):
        """First line of a file, stripped; default when it cannot be read."""
        try:
            with open(self.path(logical), encoding='ascii',
                      errors='replace') as f:
                return f.read().strip()
        except OSError:
            return default

    def read_text(self, logical):
        with open(self.path(logical), encoding='utf-8',
                  errors='replace') as f:
            return f.read()

    def read_int(self, logical, default=None):
        """An integer sysfs attribute (decimal or 0x-hex)."""
        text = self.read(logical)
        if text is None:
            return default
        try:
            return int(text, 0)
        except ValueError:
            return default

    def write(self, logical, value):
        """Write an attribute the way `echo value > file` does."""
        try:
            with open(self.path(logical), 'w', encoding='ascii') as f:
                f.write('%s\n' % value)
        except OSError as exc:
            raise ToolError('cannot write %s to %s: %s%s' % (
                value, logical, exc.strerror,
                ' (run as root)' if exc.errno in (1, 13) else '')) from exc

    def link_name(self, logical):
        """Basename of a symlink's target (a device's driver), or None."""
        try:
            return os.path.basename(os.readlink(self.path(logical)))
        except OSError:
            return None

    def resolve(self, logical):
        """Logical path of a symlink's fully resolved target."""
        return self.logical(os.path.realpath(self.path(logical)))

    def makedirs(self, logical):
        os.makedirs(self.path(logical), exist_ok=True)


class Actions:
    """Every change goes through here: printed as a shell line, then done,
    or only printed with --dry-run.  The printed line is the exact command
    or `echo VALUE > FILE` the user could run by hand."""

    def __init__(self, sysroot, runner, out, dry_run):
        self.sysroot = sysroot
        self.runner = runner
        self.out = out
        self.dry_run = dry_run
        self.done = []

    def _say(self, line, verb='run'):
        self.done.append(line)
        if self.dry_run:
            print('would %s: %s' % (verb, line), file=self.out)
        else:
            print('+ %s%s' % ('' if verb == 'run' else verb + ' ', line),
                  file=self.out)

    def write(self, logical, value):
        self._say('echo %s > %s' % (value, shlex.quote(logical)))
        if not self.dry_run:
            self.sysroot.write(logical, value)

    def mkdir(self, logical):
        self._say('mkdir -p %s' % shlex.quote(logical))
        if not self.dry_run:
            try:
                self.sysroot.makedirs(logical)
            except OSError as exc:
                raise ToolError('cannot create %s: %s'
                                % (logical, exc.strerror)) from exc

    def run(self, argv):
        """Run a changing command; ToolError with its output on failure."""
        self._say(shlex.join(argv))
        if self.dry_run:
            return CommandResult(0)
        res = self.runner(argv)
        if res.returncode != 0:
            detail = (res.stderr or res.stdout or '').strip()
            raise ToolError('"%s" failed with status %d%s' % (
                shlex.join(argv), res.returncode,
                ': ' + detail.splitlines()[-1] if detail else ''))
        return res

    def save_json(self, logical, data):
        """Atomically replace a JSON state file (write, fsync, rename)."""
        self._say(shlex.quote(logical), verb='write')
        if self.dry_run:
            return
        real = self.sysroot.path(logical)
        try:
            os.makedirs(os.path.dirname(real), exist_ok=True)
            tmp = real + '.tmp'
            with open(tmp, 'w', encoding='utf-8') as f:
                json.dump(data, f, indent=2, sort_keys=True)
                f.write('\n')
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, real)
        except OSError as exc:
            raise ToolError('cannot write %s: %s'
                            % (logical, exc.strerror)) from exc


def find_program(sysroot, name, env_path):
    """Logical path of an executable: $PATH first, then the usual system
    directories, all looked up under the root prefix.  None if missing."""
    dirs = [d for d in (env_path or '').split(os.pathsep) if d.startswith('/')]
    for d in dirs + [d for d in FALLBACK_BIN_DIRS if d not in dirs]:
        cand = os.path.join(d, name)
        real = sysroot.path(cand)
        if os.path.isfile(real) and os.access(real, os.X_OK):
            return cand
    return None


_SIZE_RE = re.compile(r'^\s*(\d+)\s*([kKmMgG])?i?[bB]?\s*$')
_SIZE_SHIFT = {'k': 0, 'm': 10, 'g': 20}


def parse_size_kb(text):
    """'2M', '2MB', '2048kB', '1G', '1024M' -> size in KiB (kernel units).
    A bare number is taken as KiB, as in hugepages-<N>kB directory names."""
    m = _SIZE_RE.match(text or '')
    if not m:
        raise ValueError('bad page size %r (expected e.g. 2M, 1G, 2048kB)'
                         % text)
    value = int(m.group(1))
    if value == 0:
        raise ValueError('bad page size %r: zero' % text)
    return value << _SIZE_SHIFT[(m.group(2) or 'k').lower()]


def format_size_kb(kb):
    """Inverse of parse_size_kb, in the unit mount(8) and DPDK docs use."""
    if kb % (1 << 20) == 0:
        return '%dG' % (kb >> 20)
    if kb % (1 << 10) == 0:
        return '%dM' % (kb >> 10)
    return '%dK' % kb


def _unescape_mount_field(field):
    # /proc/mounts escapes space, tab, newline and backslash as \ooo octal.
    return re.sub(r'\\([0-7]{3})', lambda m: chr(int(m.group(1), 8)), field)


def read_mounts(sysroot):
    """Entries of /proc/mounts as dicts: source, target, fstype, options
    (a dict; flag options map to None).  Later entries shadow earlier."""
    try:
        text = sysroot.read_text('/proc/mounts')
    except OSError as exc:
        raise ToolError('cannot read /proc/mounts: %s' % exc.strerror) \
            from exc
    mounts = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) < 4:
            continue
        opts = {}
        for opt in fields[3].split(','):
            key, sep, val = opt.partition('=')
            opts[key] = val if sep else None
        mounts.append({
            'source': _unescape_mount_field(fields[0]),
            'target': _unescape_mount_field(fields[1]),
            'fstype': fields[2],
            'options': opts,
        })
    return mounts
