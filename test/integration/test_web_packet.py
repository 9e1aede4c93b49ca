# SPDX-License-Identifier: BSD-3-Clause
"""web/packet.js, the one component that draws a decoded frame (the builder's frame panel and
the Captures view import it), in Chromium and in Firefox against a real server: streams.frame's
frame 3 of a tagged, optioned latency stream rendered from the server's own module; selecting
each field (a click on its row, the keyboard) highlights exactly its bytes, which are `wirerate
dump`'s frame 3 bytes at those offsets; a click on a byte selects the field that holds it."""

import json
import subprocess
import unittest

from wrtest import WIRERATE, pcap_frames
from test_web import Page, WebCase
import wirerate  # noqa: E402  (test_server put python/ on the path)
import wrfirefox  # noqa: E402

STREAMS = """version: 1
streams:
  - name: tagged
    port: 0
    size: 128
    latency: true
    stack:
      - eth: {src: "02:00:00:00:00:01", dst: "02:00:00:00:00:02"}
      - vlan: {id: {inc: {from: 10, to: 12}}, pcp: 3}
      - ipv4: {src: {inc: {from: 10.0.0.1, to: 10.0.0.9}}, dst: 10.1.0.1, options: [{type: 148, data: "0000"}]}
      - udp: {src: 1024, dst: 5000}
"""

# The page's module, loaded into the console's page (same origin: the server serves it; the
# page's Content-Security-Policy allows no inline script, a module import from 'self' it does).
LOAD = """
import("/packet.js").then((m) => { window.__renderPacket = m.renderPacket; },
                          (e) => { window.__loadError = String(e); });
"""
RENDER = """
const box = document.createElement("div");
box.id = "pkt-under-test";
document.body.prepend(box);
window.__sel = [];
window.__ctl = window.__renderPacket(box, JSON.parse(arguments[0]),
                                    { onSelect: (x) => window.__sel.push(x.field ? x.field.key : x.layer.proto) });
return box.querySelectorAll(".pkt-b").length;
"""
# Every field row clicked in turn (as a user's click: a MouseEvent that bubbles); the
# highlighted byte cells after each, with their text.
CLICK_ALL = """
const out = [];
for (const row of document.querySelectorAll("#pkt-under-test .pkt-field")) {
  row.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  out.push([row.dataset.key, Array.from(document.querySelectorAll("#pkt-under-test .pkt-b.hl"),
                                        (c) => [Number(c.dataset.off), c.textContent])]);
}
return JSON.stringify(out);
"""
HL = """return JSON.stringify(Array.from(document.querySelectorAll("#pkt-under-test .pkt-b.hl"),
                                     (c) => Number(c.dataset.off)));"""


class PacketChecks:
    browser = None

    def test_fields_highlight_their_bytes(self):
        path = self.write("s.yaml", STREAMS)
        dump = self.path("dump.pcap")
        subprocess.run([WIRERATE, "dump", path, "--count", "4", "--pcap", dump], check=True,
                       capture_output=True)
        want = pcap_frames(dump)[3]
        p, sock, port = self.web_serve(tag="wp" + self.browser[0])
        c = wirerate.connect(sock, acquire=False)
        self.addCleanup(c.close)
        pkt = c.call("streams.frame", yaml=STREAMS, stream="tagged", frame=3)
        self.assertEqual(bytes.fromhex(pkt["hex"]), want)
        a = Page(self, port, cpus={0}, name="packet", browser=self.browser)
        a.d.execute_script(LOAD)
        a.wait(lambda: a.d.execute_script("return typeof window.__renderPacket") == "function",
               lambda: f"packet.js did not load: {a.d.execute_script('return window.__loadError')}")
        self.assertEqual(a.d.execute_script(RENDER, json.dumps(pkt)), len(want))
        fields = [f for y in pkt["layers"] for f in y["fields"]]
        rows = a.qa("#pkt-under-test .pkt-field")
        self.assertEqual([r.get_attribute("data-key") for r in rows], [f["key"] for f in fields])
        self.assertEqual(len(a.qa("#pkt-under-test .pkt-layer")), len(pkt["layers"]))
        # Each field's row: exactly its bytes, and they are dump's.
        got = json.loads(a.d.execute_script(CLICK_ALL))
        self.assertEqual(len(got), len(fields))
        for f, (key, cells) in zip(fields, got):
            self.assertEqual(key, f["key"])
            self.assertEqual([o for o, _ in cells], list(range(f["off"], f["off"] + f["len"])), key)
            self.assertEqual("".join(t for _, t in cells), want[f["off"]:f["off"] + f["len"]].hex(), key)
        # A real click on a row, then the keyboard moves to the next field.
        a.q('#pkt-under-test .pkt-field[data-key="ipv4.src"]').click()
        self.assertEqual(json.loads(a.d.execute_script(HL)), [30, 31, 32, 33])
        # Its stylesheet (packet.css, beside it) applies: a highlighted byte looks apart.
        a.wait(lambda: a.d.execute_script(
            "const c = (o) => getComputedStyle(document.querySelector("
            "`#pkt-under-test .pkt-b[data-off='${o}']`)).backgroundColor;"
            "return c(30) !== c(0) && c(30) === c(33);"), "the highlight shows nothing")
        self.assertEqual(a.q('#pkt-under-test .pkt-field[data-key="ipv4.src"]').text, "src: 10.0.0.4")
        a.q('#pkt-under-test .pkt-field[data-key="ipv4.src"]').send_keys("\ue015")  # ArrowDown
        self.assertEqual(json.loads(a.d.execute_script(HL)), [34, 35, 36, 37])
        self.assertEqual(a.d.execute_script("return window.__sel.at(-1)"), "ipv4.dst")
        # A byte selects its field: the UDP destination port's second byte.
        a.q('#pkt-under-test .pkt-b[data-off="45"]').click()
        self.assertEqual(a.d.execute_script("return window.__sel.at(-1)"), "udp.dst")
        self.assertEqual(json.loads(a.d.execute_script(HL)), [44, 45])
        self.assertEqual(a.errors(), [])
        a.shot("packet")
        self.assertIsNone(p.poll())


class PacketChromium(PacketChecks, WebCase):
    browser = "chromium"


class PacketFirefox(PacketChecks, WebCase):
    browser = "firefox"


if __name__ == "__main__":
    unittest.main()
