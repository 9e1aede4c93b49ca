# SPDX-License-Identifier: BSD-3-Clause
"""The option table (app/cli.c) against the program that parses the options, and what is
generated from it: the man pages (rendered by man(1)), the bash completion (driven through
complete -p and the completion function, as bash calls it) and the zsh completion.  No EAL."""

import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

WIRERATE = os.environ["WIRERATE"]
CLI_JSON = os.environ["WR_CLI_JSON"]
GEN = os.environ["WR_DOCGEN_DIR"]   # build/doc/man: the pages and the completion scripts

with open(CLI_JSON) as f:
    CLI = json.load(f)
CMDS = {c["name"]: c for c in CLI["commands"]}
ALL_OPTS = sorted({o["name"] for c in CLI["commands"] for o in c["options"]})
# Subcommands that main.c's parser reads (serve, ports and console have their own).
MAIN_PARSED = ("run", "sweep", "rfc2544", "rtt", "check", "dump")


def wr(*args, env=None):
    return subprocess.run([WIRERATE, *args], capture_output=True, text=True, timeout=30,
                          stdin=subprocess.DEVNULL, env=env)


def help_options(text):
    return set(re.findall(r"--([a-z][a-z0-9-]+)", text))


class TableMatchesParser(unittest.TestCase):
    """Every option the table gives a subcommand is one its parser takes, and no other."""

    def test_main_parser(self):
        for name in MAIN_PARSED:
            mine = {o["name"] for o in CMDS[name]["options"]}
            for opt in ALL_OPTS:
                # "1" is a value, or the stream file for a flag: nothing ever starts EAL
                # (there is no stream file "1", or no stream file at all).
                p = wr(name, f"--{opt}", "1")
                refused = "does not apply to" in p.stderr or "unknown option" in p.stderr
                with self.subTest(cmd=name, opt=opt):
                    self.assertEqual(refused, opt not in mine, p.stderr)
                    self.assertNotEqual(p.returncode, 0, p.stderr)

    def test_own_parsers(self):
        """serve, ports and console: the options their --help lists are the table's."""
        for name in ("serve", "ports", "console"):
            p = wr(name, "--help")
            self.assertEqual(p.returncode, 0, p.stderr)
            listed = help_options(p.stdout) - {"help"}
            with self.subTest(cmd=name):
                self.assertEqual(listed, {o["name"] for o in CMDS[name]["options"]}, p.stdout)

    def test_every_subcommand_in_help(self):
        p = wr("--help")
        for name in CMDS:
            self.assertRegex(p.stdout, rf"wirerate {name}\b")


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
            items = set(re.findall(r"(?m)^       --([a-z0-9-]+)", text))
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
        for f in ("udp.yaml", "imix.yaml", "notes.txt"):
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
        self.assertEqual(self.complete("wirerate run "), ["imix.yaml", "streams", "udp.yaml"])
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
