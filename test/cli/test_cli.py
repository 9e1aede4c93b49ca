# SPDX-License-Identifier: BSD-3-Clause
"""The option table (app/cli.c) against the program that parses the options, and what is
generated from it: the man pages (rendered by man(1)), the bash completion (driven through
complete -p and the completion function, as bash calls it) and the zsh completion.  No EAL."""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

WIRERATE = os.environ["WIRERATE"]
CLI_JSON = os.environ["WR_CLI_JSON"]
GEN = os.environ["WR_DOCGEN_DIR"]   # build/doc/man: the pages and the completion scripts

with open(CLI_JSON) as f:
    CLI = json.load(f)
CMDS = {c["name"]: c for c in CLI["commands"]}
ALL_OPTS = sorted({o["name"] for c in CLI["commands"] for o in c["options"]})
ALL_SHORTS = sorted({o["short"] for c in CLI["commands"] for o in c["options"] if o["short"]})
# The subcommands Python parses again after wirerate (its parser holds the arguments to the
# table first), and how to get that parser's help.
PYTHON_PARSED = {"console": ["-m", "wirerate"], "import-trex": ["-m", "wirerate.trex"]}
PYTHON_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python")
# Not an option of any subcommand: what follows an option under test, so that the parser
# stops there (nothing starts) once it took the option.
END = "--wr-no-such-option"


def wr(*args, env=None):
    return subprocess.run([WIRERATE, *args], capture_output=True, text=True, timeout=30,
                          stdin=subprocess.DEVNULL, env=env)


def forms(o):
    return ["--" + o["name"]] + (["-" + o["short"]] if o["short"] else [])


# Values of options that do not take "1".
SAMPLES = {"peer": "netdev:lo", "sizes": "64", "pairs": "0:1", "resolution": "1%",
           "max-rate": "1 kpps", "min-rate": "1 kpps", "tests": "all"}


def sample(o):
    """A value the option takes (a handler may still refuse one not in SAMPLES: in the
    option's own words)."""
    if o["kind"] == "flag":
        return []
    return [o["choices"].split()[0] if o["kind"] == "choice" else SAMPLES.get(o["name"], "1")]


def help_forms(text):
    """The option forms a help text lists in its option lines (argparse's or ours)."""
    out = set()
    for line in text.splitlines():
        m = re.match(r"^  (-[^ ].*?)(?:  |$)", line)
        if m:
            out |= {w.rstrip(",") for w in m.group(1).split() if w.startswith("-")}
    return out - {"-h", "--help"}


class TableIsTheParser(unittest.TestCase):
    """Each subcommand takes exactly the options its table lists: every one of them (long and
    short, with a value when it takes one), and none else: another subcommand's is refused as
    not applying, any other as unknown, before anything starts (exit 2, one line)."""

    def one_line(self, p, args):
        lines = p.stderr.splitlines()
        self.assertEqual((p.returncode, len(lines)), (2, 1), f"{args}: {p.stderr}")
        return lines[0]

    def test_every_table_option_taken(self):
        for name, c in CMDS.items():
            for o in c["options"]:
                for f in forms(o):
                    args = [name, f, *sample(o), END]
                    with self.subTest(args=args):
                        line = self.one_line(wr(*args), args)
                        # Either the parser went past it to END, or the handler refused
                        # the sample value: in the option's own words, never as unknown.
                        if END not in line:
                            self.assertRegex(line, rf"^wirerate: (--{o['name']}\b|{f}\b)",
                                             args)
                        else:
                            self.assertEqual(line, f'wirerate: {name}: unknown option "{END}" '
                                                   f'(wirerate {name} --help)')

    def test_nothing_else_taken(self):
        for name, c in CMDS.items():
            mine = {f for o in c["options"] for f in forms(o)}
            others = {"--" + n for n in ALL_OPTS} | {"-" + s for s in ALL_SHORTS}
            for f in sorted(others - mine) + ["--bogus", "-Z"]:
                args = [name, f, "1"]
                with self.subTest(args=args):
                    line = self.one_line(wr(*args), args)
                    if f in others:
                        self.assertEqual(line, f"wirerate: {f} does not apply to {name} "
                                               f"(wirerate {name} --help)")
                    else:
                        self.assertEqual(line, f'wirerate: {name}: unknown option "{f}" '
                                               f'(wirerate {name} --help)')

    def test_once_unless_repeatable(self):
        for name, c in CMDS.items():
            for o in c["options"]:
                args = [name, f"--{o['name']}", *sample(o), f"--{o['name']}", *sample(o), END]
                with self.subTest(args=args):
                    line = self.one_line(wr(*args), args)
                    if not o["repeat"]:
                        if not line.startswith(f"wirerate: --{o['name']}"):
                            self.assertEqual(line, f"wirerate: {name}: --{o['name']} given "
                                                   "twice (it takes one)")
                    elif line.startswith(f"wirerate: {name}: unknown"):
                        self.assertIn(END, line)

    def test_values(self):
        self.assertEqual(self.one_line(wr("run", "--duration"), "run --duration"),
                         "wirerate: run: --duration needs a value (wirerate run --help)")
        self.assertEqual(self.one_line(wr("run", "--json", "--config", "x"), "--json --config"),
                         'wirerate: run: --json needs a value ("--config" is an option; a file '
                         'of that name: ./--config)')
        self.assertEqual(self.one_line(wr("run", "--quiet=yes"), "--quiet=yes"),
                         'wirerate: run: --quiet takes no value, got "yes"')
        self.assertEqual(self.one_line(wr("run", "--on-link-down=maybe"), "--on-link-down"),
                         'wirerate: --on-link-down: expected stop or continue, got "maybe"')
        self.assertEqual(self.one_line(wr("check", "a.yaml", "b.yaml"), "two files"),
                         'wirerate: check: unexpected argument "b.yaml"')
        self.assertEqual(self.one_line(wr("check", "a.yaml", "--", "-l", "0"), "EAL"),
                         "wirerate: check takes no EAL options")
        # The converter's options are for a TRex profile only.
        self.assertEqual(self.one_line(wr("check", "a.yaml", "-m", "2"), "-m"),
                         'wirerate: --mult: applies to a TRex profile (PROFILE.py), not to '
                         '"a.yaml"')

    def test_help_from_table(self):
        """Each subcommand's --help lists the table's options (and wirerate --help every
        subcommand)."""
        for name, c in CMDS.items():
            p = wr(name, "--help")
            self.assertEqual((p.returncode, p.stderr), (0, ""), name)
            self.assertTrue(p.stdout.startswith(f"usage: wirerate {name}"), p.stdout)
            with self.subTest(cmd=name):
                self.assertEqual(help_forms(p.stdout),
                                 {f for o in c["options"] for f in forms(o)}, p.stdout)
        p = wr("--help")
        for name in CMDS:
            self.assertRegex(p.stdout, rf"(?m)^  wirerate {name}\b")

    def test_python_parsers(self):
        """console and import-trex are parsed again by Python: its parser takes the table's
        options, no more and no fewer."""
        for name, module in PYTHON_PARSED.items():
            p = subprocess.run([sys.executable, *module, "--help"], capture_output=True,
                               text=True, timeout=30,
                               env={**os.environ, "PYTHONPATH": PYTHON_DIR})
            self.assertEqual(p.returncode, 0, p.stderr)
            with self.subTest(cmd=name):
                self.assertEqual(help_forms(p.stdout),
                                 {f for o in CMDS[name]["options"] for f in forms(o)}, p.stdout)

    def test_table_well_formed(self):
        for name, c in CMDS.items():
            names = [o["name"] for o in c["options"]]
            shorts = [o["short"] for o in c["options"] if o["short"]]
            self.assertEqual(len(names), len(set(names)), name)
            self.assertEqual(len(shorts), len(set(shorts)), name)
            for o in c["options"]:
                self.assertEqual(o["kind"] == "flag", o["metavar"] is None, (name, o["name"]))
                self.assertEqual(o["kind"] == "choice", o["choices"] is not None,
                                 (name, o["name"]))


class OnePython(unittest.TestCase):
    """console and import-trex run one interpreter: $WIRERATE_PYTHON, else /usr/bin/python3
    (Debian's, with Scapy), never a python3 that PATH finds first (a pyenv without Scapy),
    and the package's directory first on PYTHONPATH."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="wrpy-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        for name in ("python3", "mine"):
            path = os.path.join(self.dir, name)
            with open(path, "w") as f:
                f.write(f'#!/bin/sh\necho "{name} $PYTHONPATH $*"\n')
            os.chmod(path, 0o755)

    def run_with(self, cmd, **env):
        e = {**os.environ, "PATH": self.dir + ":" + os.environ.get("PATH", "")}
        e.pop("WIRERATE_PYTHON", None)
        e.update(env)
        return wr(*cmd, env=e)

    def test_interpreter(self):
        missing = os.path.join(self.dir, "none")
        for cmd, module, args in (("console", "wirerate", ["--socket", missing, "-c", "info"]),
                                  ("import-trex", "wirerate.trex", [missing + ".py"])):
            with self.subTest(cmd=cmd):
                p = self.run_with([cmd, *args], WIRERATE_PYTHON=os.path.join(self.dir, "mine"))
                first = p.stdout.split()
                self.assertEqual(first[0], "mine", p.stdout + p.stderr)
                self.assertEqual(os.path.realpath(first[1].split(":")[0]),
                                 os.path.realpath(PYTHON_DIR))
                self.assertEqual(first[2:4], ["-m", module])
                if not os.access("/usr/bin/python3", os.X_OK):
                    continue
                # Without it: Debian's, not the python3 PATH finds first.
                p = self.run_with([cmd, *args])
                self.assertEqual(p.stdout, "", p.stdout)
                self.assertIn(missing, p.stderr)  # the real one's words
                self.assertNotEqual(p.returncode, 0)


class ManPages(unittest.TestCase):
    """Each page renders without a warning from groff, with its sections and every option."""

    def render(self, page):
        p = subprocess.run(["man", "--warnings", "-l", os.path.join(GEN, page)],
                           capture_output=True, text=True, timeout=60,
                           env={**os.environ, "MANWIDTH": "80", "LC_ALL": "C.UTF-8"})
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stderr, "", page)
        return p.stdout

    def test_subcommand_pages(self):
        for name, c in CMDS.items():
            if name == "version":
                continue
            text = self.render(f"wirerate-{name}.1")
            for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "EXIT STATUS", "EXAMPLES",
                            "SEE ALSO"):
                self.assertRegex(text, rf"(?m)^{section}$", name)
            # The options' own items (tagged paragraphs at the first indent).
            items = set(re.findall(r"(?m)^       (?:-\w, )?--([a-z0-9-]+)", text)) - {"help"}
            self.assertEqual(items, {o["name"] for o in c["options"]}, name)
            if c["options"]:
                self.assertRegex(text, r"(?m)^       -h, --help$", name)
            self.assertIn(c["examples"].splitlines()[0], text.replace("‐", "-"))

    def test_every_page_renders(self):
        """The subcommands', the file formats' and the tools' (wirerate-bind, ...)."""
        pages = sorted(f for f in os.listdir(GEN) if re.fullmatch(r"wirerate.*\.[15]", f))
        self.assertEqual(len(pages), 2 + len(CMDS) + 5)  # wirerate.1, 2 formats, 5 tools
        for page in pages:
            self.assertRegex(self.render(page), r"(?m)^NAME$", page)

    def test_main_and_file_pages(self):
        text = self.render("wirerate.1")
        for name in CMDS:
            self.assertRegex(text, rf"(?m)^       {name}\b")
        streams = self.render("wirerate-streams.5")
        # Every layer doc/stack.md describes, every key README's stream table names.
        for layer in ("eth", "vlan", "mpls", "ipv4", "ipv6", "udp", "tcp", "icmp", "icmp6",
                      "vxlan", "gre", "gre_key", "raw"):
            self.assertRegex(streams, rf"(?m)^   {layer} ", layer)
        profile = self.render("wirerate-profile.5")
        for key in ("eal:", "tx_lcores", "max_frame", "2ports.yaml", "WIRERATE_RUNTIME_DIR"):
            self.assertIn(key, profile)


class BashCompletion(unittest.TestCase):
    """The completion function as bash calls it: COMP_WORDS/COMP_CWORD set, COMPREPLY read."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="wr-compl-")
        cls.work = os.path.join(cls.tmp, "work")
        os.makedirs(os.path.join(cls.work, "streams"))
        for f in ("udp.yaml", "imix.yaml", "notes.txt", "syn.py"):
            open(os.path.join(cls.work, f), "w").close()
        etc = os.path.join(cls.tmp, "etc")
        os.makedirs(etc)
        for f in ("lab.yaml", "lab2.yaml"):
            open(os.path.join(etc, f), "w").close()
        # Two PCI functions, one a NIC (class 0x02...).
        for dev, cls_ in (("0000:3b:00.0", "0x020000"), ("0000:00:1f.2", "0x010601")):
            d = os.path.join(cls.tmp, "sys", "sys", "bus", "pci", "devices", dev)
            os.makedirs(d)
            with open(os.path.join(d, "class"), "w") as f:
                f.write(cls_ + "\n")
        cls.env = {**os.environ, "WIRERATE_CONFIG_PATH": etc,
                   "WR_SYSROOT": os.path.join(cls.tmp, "sys")}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, True)

    def complete(self, line):
        """COMPREPLY for the command line @line (completing its last word), sorted."""
        words = line.split(" ")
        script = (f"source {os.path.join(GEN, 'wirerate')}\n"
                  "complete -p wirerate\n"
                  f"COMP_LINE={json.dumps(line)}; COMP_POINT=${{#COMP_LINE}}\n"
                  f"COMP_WORDS=({' '.join(json.dumps(w) for w in words)})\n"
                  f"COMP_CWORD={len(words) - 1}\n"
                  "_wirerate wirerate \"${COMP_WORDS[COMP_CWORD]}\" "
                  "\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
                  "printf '%s\\n' \"${COMPREPLY[@]}\"\n")
        p = subprocess.run(["bash", "--norc", "-c", script], cwd=self.work, capture_output=True,
                           text=True, timeout=30, env=self.env)
        self.assertEqual(p.returncode, 0, p.stderr)
        first, *rest = p.stdout.splitlines()
        self.assertEqual(first, "complete -o filenames -F _wirerate wirerate")
        return sorted(x for x in rest if x)

    def test_subcommands(self):
        self.assertEqual(self.complete("wirerate "), sorted(list(CMDS) + ["--help",
                                                                            "--version"]))
        self.assertEqual(self.complete("wirerate r"), ["rfc2544", "rtt", "run"])

    def test_each_subcommands_options(self):
        for name, c in CMDS.items():
            got = self.complete(f"wirerate {name} --")
            self.assertEqual(got, sorted(["--" + o["name"] for o in c["options"]] + ["--help"]),
                             name)
        self.assertEqual(self.complete("wirerate run --re"), ["--repeat"])
        self.assertNotIn("--socket", self.complete("wirerate run --"))

    def test_files_profiles_choices(self):
        # A TRex profile goes wherever a stream file does.
        self.assertEqual(self.complete("wirerate run "), ["imix.yaml", "streams", "syn.py",
                                                          "udp.yaml"])
        self.assertEqual(self.complete("wirerate import-trex "), ["streams", "syn.py"])
        self.assertEqual(self.complete("wirerate import-trex syn.py -o no"), ["notes.txt"])
        self.assertEqual(self.complete("wirerate run syn.py -t "), [])
        self.assertEqual(self.complete("wirerate check u"), ["udp.yaml"])
        self.assertEqual(self.complete("wirerate run udp.yaml --config la"), ["lab", "lab2"])
        self.assertEqual(self.complete("wirerate run udp.yaml --on-link-down "),
                         ["continue", "stop"])
        self.assertEqual(self.complete("wirerate run udp.yaml --json no"), ["notes.txt"])
        self.assertEqual(self.complete("wirerate run udp.yaml --duration "), [])
        # After "--" the words are EAL's.
        self.assertEqual(self.complete("wirerate run udp.yaml -- --"), [])

    def test_ports_devices_without_eal(self):
        self.assertEqual(self.complete("wirerate ports "), ["0000:3b:00.0"])


class ZshCompletion(unittest.TestCase):

    def test_loads_and_registers(self):
        if shutil.which("zsh") is None:
            self.skipTest("zsh is not installed")
        script = (f"fpath=({GEN} $fpath); autoload -U compinit; compinit -u -D; "
                  "print -r -- ${_comps[wirerate]}")
        p = subprocess.run(["zsh", "-f", "-c", script], capture_output=True, text=True,
                           timeout=30)
        self.assertEqual((p.returncode, p.stdout.strip()), (0, "_wirerate"), p.stderr)
        p = subprocess.run(["zsh", "-n", os.path.join(GEN, "_wirerate")], capture_output=True,
                           text=True, timeout=30)
        self.assertEqual(p.returncode, 0, p.stderr)


if __name__ == "__main__":
    unittest.main()
