# SPDX-License-Identifier: BSD-3-Clause
"""The console's stream builder (web/builder.js) in Chromium and Firefox against a real server
whose port is a memif to dpdk-testpmd: a stream built with the form alone (Ethernet/IPv4/UDP, a
source range, 1,000 frames) is loaded and started from the page; testpmd forwards what arrives on
its memif to a pcap file (its pcap PMD), and tshark reads there the same frames, field by field,
as from `wirerate dump` of the same stream written by hand.  The YAML view round-trips (the text
through the form and back dumps the same frames; the form through the text and back shows the
same values); "save as" hands out the editor's text; the frame panel's highlighted hex bytes are
the selected field's bytes of `wirerate dump`'s frame."""

import hashlib
import json
import os
import re
import struct
import subprocess
import unittest

from wrtest import ROOT, WIRERATE, kill, pcap_frames, tshark_fields, wait_for
from test_server import read_text, START_S
from test_web import Page, WebCase, decoded, free_port

# What the form builds, written by hand: the loader's reading of it is the reference.
HAND = """version: 1
streams:
  - name: built
    port: 0
    size: 128
    count: 1000
    rate: 20 kpps
    stack:
      - eth: {src: "02:00:00:00:00:0a", dst: "02:00:00:00:00:0b"}
      - ipv4: {src: {inc: {from: 10.0.0.1, to: 10.0.0.200, step: 1}}, dst: 10.1.0.1, ttl: 32}
      - udp: {src: 1024, dst: 5001}
"""

# tshark's names for what each frame says (checksums verified: udp/ip.checksum.status).
FIELDS = ["frame.len", "eth.src", "eth.dst", "eth.type", "ip.version", "ip.hdr_len", "ip.dsfield",
          "ip.len", "ip.id", "ip.flags", "ip.ttl", "ip.proto", "ip.checksum", "ip.checksum.status",
          "ip.src", "ip.dst", "udp.srcport", "udp.dstport", "udp.length", "udp.checksum",
          "udp.checksum.status", "data.len"]

# A file with two streams, shorthand and stack, varied fields, a size mix and a comment: what the
# text -> form -> text round trip must keep (the frames, and the comment by its stream).
ROUND = """version: 1
seed: 7
streams:
  # shorthand keys
  - name: flow-a
    port: 0
    size: {mix: [{size: 64, weight: 3}, {size: 512, weight: 1}]}
    rate: 1 Mpps
    eth: {src: 02:00:00:00:00:01, dst: 02:00:00:00:00:02}
    ipv4: {src: 10.0.0.1, dst: {dec: {from: 10.0.1.9, to: 10.0.1.2, step: 3}}, ttl: {list: [64, 32, 128]}}
    udp: {src: {random: {min: 1024, max: 65535}}, dst: 5001}
    payload: {pattern: "deadbeef"}
  - name: v6
    size: {random: {min: 100, max: 300}}
    vary: product
    stack:
      - eth
      - ipv6: {src: "2001:db8::1", dst: {inc: {from: "2001:db8::10", to: "2001:db8::20", step: 4}}}
      - udp: {dst: 4000}
"""


# What the form edits in a file with comments: option lists (IPv4 options, an SRv6 segment
# list), a payload; its comments must survive every rewrite by the form.
EDIT = """# two streams the form gives options to
version: 1
streams:
  # the IPv4 one
  - name: opt4   # router alert to come
    size: 128
    count: 4
    stack:
      - eth
      - ipv4: {src: 198.18.0.1, dst: 198.19.0.1}   # no options yet
      - udp: {src: 1024, dst: 5000}

  - name: seg6
    size: 200
    stack:
      - eth
      - ipv6: {src: "2001:db8:1::1", dst: "2001:db8:5::a"}
      # segments to come
      - srh
      - tcp: {dst: 80}
# the end
"""

# The same, written by hand with the options the form adds.
EDIT_HAND = """version: 1
streams:
  - name: opt4
    size: 128
    count: 4
    payload: {pattern: "deadbeef"}
    stack:
      - eth
      - ipv4: {src: 198.18.0.1, dst: 198.19.0.1, options: [{type: 148, data: "0000"}, {type: 1}]}
      - udp: {src: 1024, dst: 5000}
  - name: seg6
    size: 200
    stack:
      - eth
      - ipv6: {src: "2001:db8:1::1", dst: "2001:db8:5::a"}
      - srh: {segments: ["2001:db8:5::a", "2001:db8:5::b"]}
      - tcp: {dst: 80}
"""

# A shorthand stream (the keys eth, vlan, ipv4, udp stand for that stack) a layer is added to.
SHORT = """version: 1
streams:
  - name: sh     # shorthand
    size: 128
    vlan: {id: 10, pcp: 3}
    ipv4: {src: 10.0.0.1, dst: {inc: {from: 10.1.0.1, to: 10.1.0.9}}, ttl: 9, df: true, ecn: 1, gateway: 10.0.0.254}
    udp: {src: 1024, dst: 5001}
    eth: {src: "02:00:00:00:00:0a", dst: arp}
    # the payload
    payload: inc
"""
SHORT_FIELDS = ["frame.len", "eth.src", "vlan.id", "vlan.priority", "ip.len", "ip.ttl", "ip.flags.df",
                "ip.dsfield.ecn", "ip.src", "ip.dst", "ip.checksum", "udp.srcport", "udp.dstport",
                "udp.length"]


def empty_pcap(path):
    """A pcap with its header only: the peer's pcap port reads nothing from it."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    return path


class BuilderChecks:
    """The checks each browser passes (the browsers' cases below name @browser)."""

    browser = None

    def dump(self, yaml_text, name, count, stream=None):
        """`wirerate dump` of @yaml_text: (the pcap's path, its sha256)."""
        src = self.write(f"{name}.yaml", yaml_text)
        out = self.path(f"{name}.pcap")
        cmd = [WIRERATE, "dump", src, "--count", str(count), "--pcap", out]
        if stream:
            cmd += ["--stream", stream]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out, "rb") as f:
            return out, hashlib.sha256(f.read()).hexdigest()

    def serve_to_pcap(self, out):
        """A server whose port 0 is a memif; its peer, dpdk-testpmd on CPU 1, forwards all
        it receives there (io mode) to a pcap PMD port writing @out."""
        if shutil_which("dpdk-testpmd") is None:
            self.skipTest("needs dpdk-testpmd (Debian package dpdk)")
        rundir = self.path("run-b")
        os.makedirs(rundir)
        msock = os.path.join(rundir, "memif.sock")
        rx = empty_pcap(self.path("empty.pcap"))
        peer = []

        def start_peer():
            self.assertTrue(wait_for(lambda: msock in read_text("/proc/net/unix"), START_S),
                            "the server did not create the memif socket")
            peer.append(self.start_testpmd(
                f"builderpeer{os.getpid()}",
                [f"net_memif0,role=client,socket={msock},socket-abstract=no,rsize=14",
                 f"net_pcap0,rx_pcap={rx},tx_pcap={out}"],
                ["--forward-mode=io", "--auto-start", "--nb-cores=1", "--stats-period", "1"]))

        port = free_port()
        p, sock = self.serve(vdev=f"net_memif0,role=server,socket={msock},rsize=14", tag="b",
                             lcores="0@0,1@0", peer=start_peer, extra=("--http", str(port)))
        self.assertTrue(wait_for(lambda: WebCase.listening(port), START_S))
        c = self.client(sock)
        self.assertTrue(wait_for(lambda: c.ports()[0]["link_up"], START_S), "memif link down")
        return p, sock, port, c, peer[0]

    # ---- the page ----

    @staticmethod
    def choose(a, css, value):
        """Pick @value in the <select> at @css as a user does: the option, then change."""
        sel = a.q(css)
        a.d.execute_script("arguments[0].value = arguments[1];"
                           "arguments[0].dispatchEvent(new Event('change', {bubbles: true}));",
                           sel, value)

    @staticmethod
    def type_into(a, css, text):
        e = a.q(css)
        e.clear()
        e.send_keys(text)

    def field(self, a, key, part):
        return f'.b-field[data-field="{key}"] [data-part="{part}"]'

    def set_field(self, a, key, mode, **parts):
        self.choose(a, f'.b-field[data-field="{key}"] select', mode)
        a.wait(lambda: all(a.qa(self.field(a, key, p)) for p in parts), f"{key}: no {mode} boxes")
        for p, v in parts.items():
            self.type_into(a, self.field(a, key, p), str(v))

    def form_values(self, a):
        """Every control of the builder's form: (its label or id, its value)."""
        return a.d.execute_script(
            "return [...document.querySelectorAll('#b-body input, #b-body select')]"
            ".map(e => [e.getAttribute('aria-label') || e.id, e.value]);")

    def yaml_text(self, a):
        return a.d.execute_script("return document.getElementById('yaml').value;")

    def set_text(self, a, text):
        """The editor's text replaced as a paste does (one input event)."""
        a.d.execute_script("const t = document.getElementById('yaml'); t.value = arguments[0];"
                           "t.dispatchEvent(new Event('input', {bubbles: true}));", text)

    def synced_to(self, a, text):
        """The form stands for @text (streams.parse answered for it): its data-followed is
        the text's FNV-1a (over UTF-16 code units, as the page computes it)."""
        h = 0x811c9dc5
        for unit in struct.unpack(f"<{len(text.encode('utf-16-le')) // 2}H", text.encode("utf-16-le")):
            h = ((h ^ unit) * 0x01000193) & 0xffffffff
        a.wait(lambda: a.attr("#builder-form", "data-state") == "synced"
               and a.attr("#builder-form", "data-followed") == f"{h:x}",
               lambda: f"the form did not follow the text: {a.text('#builder-status')}")

    def api(self, c):
        """What the form is built from: the loader's registry, and its YAML reader's errors."""
        with open(os.path.join(ROOT, "python", "wirerate", "trex", "registry.json")) as f:
            reg = json.load(f)["protocols"]
        got = c.call("protocols.list")["protocols"]
        shape = lambda ps: [(p["name"], [(f["name"], f["off"], f["span"], f["bits"]) for f in p["fields"]])
                            for p in ps]
        self.assertEqual(shape(got), shape(reg))
        kinds = {f["kind"] for p in got for f in p["fields"]}
        self.assertLessEqual(kinds, {"mac", "ipv4", "ipv6", "uint", "hex", "bool"})
        by = {(p["name"], f["name"]): f for p in got for f in p["fields"]}
        self.assertEqual((by["ipv4", "src"]["kind"], by["ipv4", "ttl"]["default"]), ("ipv4", "64"))
        self.assertEqual(by["eth", "src"]["kind"], "mac")
        self.assertEqual(by["ipv6", "dst"]["kind"], "ipv6")
        # "vary" is what the loader does: a field said fixed-only is refused varying, the
        # others taken.
        fixed_only = [k for k, f in by.items() if not f["vary"]]
        self.assertIn(("gre", "c"), fixed_only)
        for (proto, name), want in ((("gre", "c"), False), (("gre", "key"), True), (("ipv4", "ttl"), True)):
            text = ("version: 1\nstreams:\n  - name: s\n    stack: [eth, ipv4, "
                    f"{{{proto}: {{{name}: {{inc: {{from: 0, to: 1}}}}}}}}, eth]\n" if proto == "gre" else
                    f"version: 1\nstreams:\n  - name: s\n    stack: [eth, {{{proto}: {{{name}: {{inc: {{from: 1, to: 2}}}}}}}}, udp]\n")
            self.assertEqual(c.call("streams.check", yaml=text)["valid"], want, (text, by[proto, name]))
        # A YAML error where streams.check finds it; a duplicate key, which the loader refuses.
        for bad in ("version: 1\nstreams:\n  - name: [x\n", "version: 1\nversion: 1\n",
                    "version: 1\nstreams:\n\t- name: x\n"):
            e, ck = c.call("streams.parse", yaml=bad), c.call("streams.check", yaml=bad)
            self.assertFalse(e["valid"])
            self.assertFalse(ck["valid"])
            self.assertEqual((e["error"]["line"], e["error"]["col"]),
                             (ck["error"]["line"], ck["error"]["col"]), (bad, e, ck))
        tree = c.call("streams.parse", yaml=ROUND)["tree"]
        self.assertEqual(list(tree), ["version", "seed", "streams"])
        self.assertEqual(list(tree["streams"][0])[:4], ["name", "port", "size", "rate"])
        self.assertEqual(tree["streams"][1]["stack"][1]["ipv6"]["dst"],
                         {"inc": {"from": "2001:db8::10", "to": "2001:db8::20", "step": "4"}})

    def test_build_run_roundtrip_frame(self):
        out = self.path("peer.pcap")
        p, sock, port, c, peer = self.serve_to_pcap(out)
        self.api(c)
        a = Page(self, port, browser=self.browser, name=self.browser, cpus={0})
        a.view("streams")
        a.wait(lambda: a.q("#builder").is_displayed(), "no builder")
        # ---- the stream, with the form alone ----
        a.q("#b-add-stream").click()
        a.wait(lambda: a.qa('.b-layer[data-proto="udp"]'), "no layers for a new stream")
        self.type_into(a, "#b-name", "built")
        self.type_into(a, "#b-size-value", "128")
        self.type_into(a, "#b-count", "1000")
        self.type_into(a, "#b-rate", "20 kpps")
        self.set_field(a, "eth.src", "fixed", value="02:00:00:00:00:0a")
        self.set_field(a, "eth.dst", "fixed", value="02:00:00:00:00:0b")
        self.set_field(a, "ipv4.src", "inc", **{"from": "10.0.0.1", "to": "10.0.0.200", "step": "1"})
        self.set_field(a, "ipv4.dst", "fixed", value="10.1.0.1")
        self.set_field(a, "ipv4.ttl", "fixed", value="32")
        self.set_field(a, "udp.src", "fixed", value="1024")
        self.set_field(a, "udp.dst", "fixed", value="5001")
        a.wait(lambda: a.attr("#check", "data-state") == "valid" and "built" in (a.text("#summary") or ""),
               lambda: f"the built stream is not valid: {a.text('#check')}")
        built = self.yaml_text(a)
        a.shot("builder-form")
        # The form's text and the hand-written one: the same frames (dump sha256).
        _, want = self.dump(HAND, "hand-sha", 1000)
        _, got = self.dump(built, "form-sha", 1000)
        self.assertEqual(got, want, built)
        # ---- form -> text -> form: the same values ----
        before = self.form_values(a)
        pasted = built + "# pasted back\n"
        self.set_text(a, pasted)
        self.synced_to(a, pasted)
        self.assertEqual(self.form_values(a), before)
        # ---- loaded and run from the page into the memif peer ----
        a.q("#take-control").click()
        a.wait(lambda: a.text("#owner-state") == "in control", "not in control")
        a.wait(lambda: a.q("#btn-load").is_enabled(), "load stays disabled")
        a.q("#btn-load").click()
        a.wait(lambda: [s["name"] for s in c.streams()] == ["built"], "not loaded")
        a.view("traffic")
        a.wait(lambda: a.q("#btn-start").is_enabled(), "start stays disabled")
        a.q("#btn-start").click()
        self.assertTrue(wait_for(lambda: c.stats()["ports"][0]["tx_pkts"] >= 1000, 30),
                        c.stats()["ports"][0])
        c.call("traffic.wait", timeout=10)
        self.assertEqual(c.stats()["ports"][0]["tx_pkts"], 1000)
        # testpmd flushes its pcap on exit: stop the peer first (TESTBED.md), once it says
        # (its stats each second) that its pcap port sent all 1,000: a peer descheduled by a
        # loaded CPU may still hold frames in its memif ring when TX is done here.
        wait_for(lambda: re.search(r"NIC statistics for port 1 .*?TX-packets: +1000\b", peer.log(), re.S), 20)
        kill(peer)
        rows = tshark_fields(out, FIELDS, "udp")
        ref = decoded(tshark_fields, self.path("hand-sha.pcap"), FIELDS, "udp")
        self.assertEqual(len(ref), 1000)
        self.assertEqual(len(rows), 1000, f"the peer captured {len(rows)} of 1000; it said:\n{peer.log()[-1500:]}")
        for i, (r, w) in enumerate(zip(rows, ref)):
            self.assertEqual(dict(zip(FIELDS, r)), dict(zip(FIELDS, w)), f"frame {i}")
        self.assertEqual([r[FIELDS.index("ip.src")] for r in rows[198:202]],
                         ["10.0.0.199", "10.0.0.200", "10.0.0.1", "10.0.0.2"])
        self.assertEqual({r[FIELDS.index("udp.checksum.status")] for r in rows}, {"1"})  # 1: good
        a.view("streams")
        # The editor's text set without an input event (the loaded text copied in): the
        # form follows it too.
        self.set_text(a, ROUND)
        self.synced_to(a, ROUND)
        a.wait(lambda: a.q("#btn-copy-loaded").is_displayed(), "no loaded text to copy")
        a.q("#btn-copy-loaded").click()
        self.synced_to(a, pasted)    # what was loaded
        self.assertEqual(a.attr("#b-name", "value"), "built")
        # ---- text -> form -> text: the same frames ----
        self.set_text(a, ROUND)
        self.synced_to(a, ROUND)
        self.choose(a, "#b-stream", "0")
        a.wait(lambda: a.attr("#b-name", "value") == "flow-a", "flow-a not shown")
        self.type_into(a, "#b-rate", "1 Mpps")      # the same value: the form writes the text
        a.wait(lambda: "follows the form" in (a.text("#builder-status") or ""), "the text was not written")
        again = self.yaml_text(a)
        self.assertNotEqual(again, ROUND)             # written by the form, not the old text
        self.comments_kept(again, [("  # shorthand keys", "  - name: flow-a")], [])
        _, want = self.dump(ROUND, "round-in", 300)
        _, got = self.dump(again, "round-out", 300)
        self.assertEqual(got, want, again)
        # ---- save as: the editor's text under its new name ----
        # The page's CSP (default-src 'self') keeps a script from reading the blob: back by
        # URL; the probe keeps the Blob the page hands to the download and reads it.
        a.d.execute_script("const o = URL.createObjectURL.bind(URL);"
                           "URL.createObjectURL = (x) => { x.text().then(t => { window.wrSaved = t; });"
                           " return o(x); };")
        self.type_into(a, "#b-save-name", "round.yaml")
        a.q("#b-save").click()
        self.assertEqual(a.attr("#b-saved", "download"), "round.yaml")
        self.assertTrue(a.attr("#b-saved", "href").startswith("blob:"))
        self.assertEqual(a.attr("#file-name", "value"), "round.yaml")
        a.wait(lambda: a.d.execute_script("return window.wrSaved ?? null;") is not None, "nothing saved")
        self.assertEqual(a.d.execute_script("return window.wrSaved;"), again)
        # ---- the frame panel: frame N of the built stream, a field's bytes highlighted ----
        self.set_text(a, built)
        self.synced_to(a, built)
        self.frame_panel(a, c)
        self.options_payload(a)
        self.shorthand_layer(a)
        self.assertEqual(a.errors(), [])
        # ---- a reload keeps the stream the builder shows (session.js) ----
        self.set_text(a, EDIT)
        self.synced_to(a, EDIT)
        self.choose(a, "#b-stream", "1")
        a.wait(lambda: a.attr("#b-name", "value") == "seg6", "seg6 not shown")
        a.d.execute_script("location.reload()")
        a.wait(lambda: a.text("#conn-state") == "connected", "no reconnection after the reload")
        self.synced_to(a, EDIT)
        self.assertEqual(a.attr("#b-stream", "value"), "1")
        self.assertEqual(a.attr("#b-name", "value"), "seg6")
        self.assertEqual(a.errors(), [])
        self.assertIsNone(p.poll(), "the server exited")

    def comments_kept(self, text, before, trailing):
        """Each whole-line comment of @before right above the line that starts with its key;
        each trailing one at the end of its key's line."""
        lines = text.splitlines()
        for comment, nxt in before:
            i = lines.index(comment)
            self.assertTrue(lines[i + 1].startswith(nxt), (comment, lines[i + 1], text))
        for start, comment in trailing:
            self.assertTrue(any(l.startswith(start) and l.endswith(comment) for l in lines), (start, comment, text))

    def options_payload(self, a):
        """IPv4 options, an SRv6 segment list and a payload given with the form: the frames of
        the same YAML written by hand; the file's comments kept by their keys."""
        self.set_text(a, EDIT)
        self.synced_to(a, EDIT)
        self.choose(a, "#b-stream", "0")
        a.wait(lambda: a.attr("#b-name", "value") == "opt4", "opt4 not shown")
        add4 = '[aria-label="Add ipv4.options"]'
        for n in range(3):
            a.q(add4).click()
            a.wait(lambda: len(a.qa('.b-opts[data-opts="ipv4.options"] .b-opt')) == n + 1, "no option row")
        self.type_into(a, '[aria-label="ipv4.options[0].type"]', "148")
        self.type_into(a, '[aria-label="ipv4.options[0].data"]', "0000")
        self.type_into(a, '[aria-label="ipv4.options[1].type"]', "7")
        self.type_into(a, '[aria-label="ipv4.options[2].type"]', "1")
        a.q('[aria-label="Remove ipv4.options[1]"]').click()     # the record route goes again
        a.wait(lambda: len(a.qa('.b-opts[data-opts="ipv4.options"] .b-opt')) == 2, "the option stays")
        self.assertEqual(a.attr('[aria-label="ipv4.options[1].type"]', "value"), "1")
        self.choose(a, "#b-payload-mode", "pattern")
        a.wait(lambda: a.qa("#b-payload-value"), "no payload box")
        self.type_into(a, "#b-payload-value", "deadbeef")
        self.choose(a, "#b-stream", "1")
        a.wait(lambda: a.attr("#b-name", "value") == "seg6", "seg6 not shown")
        for n in range(2):
            a.q('[aria-label="Add srh.segments"]').click()
            a.wait(lambda: len(a.qa('.b-opts[data-opts="srh.segments"] .b-opt')) == n + 1, "no segment row")
        self.type_into(a, '[aria-label="srh.segments[0]"]', "2001:db8:5::a")
        self.type_into(a, '[aria-label="srh.segments[1]"]', "2001:db8:5::b")
        a.wait(lambda: a.attr("#check", "data-state") == "valid", lambda: f"not valid: {a.text('#check')}")
        text = self.yaml_text(a)
        pcap, got = self.dump(text, "opts-form", 4)
        _, want = self.dump(EDIT_HAND, "opts-hand", 4)
        self.assertEqual(got, want, text)
        # What tshark reads there: the options padded with an end of options to a word (IHL 7
        # words), the payload; 2 segments, 1 left.
        # (One tshark for both streams: its start is most of what this costs.)
        rows = decoded(tshark_fields, pcap, ["ip.hdr_len", "ip.opt.type", "data.data", "ipv6.routing.type",
                                    "ipv6.routing.segleft", "ipv6.routing.srh.addr"])
        v4, v6 = [r for r in rows if r[0]], [r for r in rows if not r[0]]
        self.assertEqual([r[:2] for r in v4], [["28", "148,1,0"]] * 4)
        self.assertTrue(all(r[2].startswith("deadbeefdeadbeef") for r in v4), v4)
        self.assertEqual([r[3:] for r in v6], [["4", "1", "2001:db8:5::b,2001:db8:5::a"]] * 4)
        self.comments_kept(text, [("# two streams the form gives options to", "version: 1"),
                                  ("  # the IPv4 one", "  - name: opt4"), ("", "  - name: seg6"),
                                  ("      # segments to come", "      - srh:")],
                           [("  - name: opt4", "   # router alert to come"),
                            ("      - ipv4:", "   # no options yet")])
        self.assertTrue(text.endswith("\n# the end\n"), text)
        # And back: the text the form wrote, read again, shows the same option rows.
        self.set_text(a, text + " ")
        self.synced_to(a, text + " ")
        self.assertEqual(a.attr('[aria-label="srh.segments[1]"]', "value"), "2001:db8:5::b")
        self.choose(a, "#b-stream", "0")
        a.wait(lambda: a.attr('[aria-label="ipv4.options[0].data"]', "value") == "0000", "the options not read back")
        self.assertEqual(a.attr("#b-payload-value", "value"), "deadbeef")

    def shorthand_layer(self, a):
        """A layer added to a shorthand stream: the stream becomes the stack the keys stand for,
        whose frames are the shorthand's (removing the layer again gives the same sha256), and
        the new layer leaves the old layers' fields as they were."""
        self.set_text(a, SHORT)
        self.synced_to(a, SHORT)
        self.choose(a, "#b-stream", "0")
        a.wait(lambda: [p for p, in a.attrs(".b-layer", "data-proto")] == ["eth", "vlan", "ipv4", "udp"],
               "the shorthand's layers not shown")
        self.choose(a, "#b-add-proto", "raw")
        a.q("#b-add-layer").click()
        a.wait(lambda: a.qa('.b-layer[data-proto="raw"]'), "no raw layer")
        self.type_into(a, '[aria-label="raw hex bytes"]', "deadbeef")
        a.wait(lambda: a.attr("#check", "data-state") == "valid", lambda: f"not valid: {a.text('#check')}")
        added = self.yaml_text(a)
        self.assertIn("stack:", added)
        for key in ("    eth:", "    vlan:", "    ipv4:", "    udp:"):
            self.assertNotIn(key, added)
        self.assertIn("    gateway: 10.0.0.254", added)
        self.comments_kept(added, [("    # the payload", "    payload: inc")], [("  - name: sh", "     # shorthand")])
        old, _ = self.dump(SHORT, "short-old", 9)
        new, _ = self.dump(added, "short-new", 9)
        want = decoded(tshark_fields, old, SHORT_FIELDS, "udp")
        got = decoded(tshark_fields, new, SHORT_FIELDS + ["data.data"], "udp")
        self.assertEqual(len(want), 9)
        self.assertEqual([r[:-1] for r in got], want, added)
        self.assertTrue(all(r[-1].startswith("deadbeef") for r in got), got)
        # The layer removed again: the stack the form wrote is the shorthand's, byte for byte.
        a.q('[aria-label="Remove raw (layer 5)"]').click()
        a.wait(lambda: not a.qa('.b-layer[data-proto="raw"]'), "the raw layer stays")
        a.wait(lambda: "raw" not in self.yaml_text(a), "the text keeps the raw layer")
        self.assertEqual(self.dump(self.yaml_text(a), "short-stack", 9)[1], self.dump(SHORT, "short-ref", 9)[1],
                         self.yaml_text(a))

    @staticmethod
    def hex_cells(a, css):
        """[(data-off, text)] of the hex cells @css names, read in one script: one call, not
        two a cell (a 128-byte frame took 256 WebDriver round trips), and atomic in the page."""
        return [tuple(x) for x in a.d.execute_script(
            "return Array.from(document.querySelectorAll(arguments[0]),"
            " (e) => [Number(e.dataset.off), e.textContent.trim()]);", css)]

    def frame_panel(self, a, c):
        if "streams.frame" not in c.info().get("methods", []):
            self.skipTest("the server has no streams.frame (h36/dissect not merged)")
        frames = pcap_frames(self.dump(HAND, "panel", 8)[0])
        self.choose(a, "#f-stream", "built")
        self.type_into(a, "#f-n", "5")
        a.q("#f-show").click()
        a.wait(lambda: a.attr("#f-out", "data-state") == "shown",
               lambda: f"no frame shown: {a.text('#f-out')}")
        cells = self.hex_cells(a, "#f-out .pkt-b")
        self.assertEqual([o for o, _ in cells], list(range(len(frames[5]))))
        self.assertEqual("".join(t for _, t in cells), frames[5].hex(), "the hex view is not dump's frame 5")
        for key, off, size in (("ipv4.src", 26, 4), ("udp.dst", 36, 2), ("eth.src", 6, 6),
                               ("ipv4.ttl", 22, 1)):
            a.click(f'#f-out .pkt-field[data-key="{key}"]')
            a.wait(lambda: a.qa("#f-out .pkt-b.hl") and key in (a.text("#f-selected") or ""),
                   f"{key}: nothing highlighted")
            hl = self.hex_cells(a, "#f-out .pkt-b.hl")
            self.assertEqual([o for o, _ in hl], list(range(off, off + size)), key)
            self.assertEqual(bytes(int(t, 16) for _, t in hl), frames[5][off:off + size], key)
        # And back: a byte of the hex selects the field that holds it.
        a.click('#f-out .pkt-b[data-off="37"]')
        a.wait(lambda: "udp.dst" in (a.text("#f-selected") or ""), lambda: a.text("#f-selected"))
        self.assertEqual(frames[5][26:30], bytes([10, 0, 0, 6]))
        # The frame on show follows the form: a TTL of 33 is byte 22 of the frame rebuilt.
        self.type_into(a, self.field(a, "ipv4.ttl", "value"), "33")
        ttl = '#f-out .pkt-field[data-key="ipv4.ttl"]'
        a.wait(lambda: a.text(ttl) == "ttl: 33", lambda: f"the frame did not follow: {a.text(ttl)}")
        self.assertEqual(a.text('#f-out .pkt-b[data-off="22"]'), "21")
        a.shot("builder-frame")


def shutil_which(name):
    import shutil
    return shutil.which(name)


class BuilderChromium(BuilderChecks, WebCase):
    browser = "chromium"


class BuilderFirefox(BuilderChecks, WebCase):
    browser = "firefox"


if __name__ == "__main__":
    unittest.main()
