# SPDX-License-Identifier: BSD-3-Clause
"""The Captures view reading a capture, in headless Chromium and Firefox against a real
server: a mixed pcap made here with Scapy (Ethernet/IPv4/UDP, TCP, 802.1Q, QinQ,
IPv6/ICMPv6, ARP, MPLS, GRE, VXLAN, a truncated frame, a non-IP EtherType) opened in the
page from the file picker (capture.open) lists the same frames, lengths, times and top
protocols as `tshark -r` of the same file, page by page; a libpcap filter keeps the frames
tcpdump keeps (a bad one answered with libpcap's words); a frame's decoded tree and hex come
from capture.frame, the byte picked in the hex highlights exactly the field tshark's `-x`
places there; tshark's decode on request; the file downloaded again byte for byte; at
1366 px nothing of the tables clipped."""

import base64
import json
import struct
import subprocess
import unittest

from test_web import WebCase, Page, ARTIFACTS, decoded  # noqa: F401  (ARTIFACTS: screenshots go there)

T0 = 1_700_000_000   # the file's first second (pcap: seconds and microseconds)

# tshark's protocol names (frame.protocols) -> the registry's (wr_proto .name): the top
# protocol of a frame is the last of its layers that both know.
TSHARK_TO_WR = {"eth": "eth", "vlan": "vlan", "ip": "ipv4", "ipv6": "ipv6", "udp": "udp",
                "tcp": "tcp", "icmp": "icmp", "icmpv6": "icmp6", "arp": "arp", "mpls": "mpls",
                "gre": "gre", "vxlan": "vxlan", "ieee8021ad": "vlan"}


def vxlan(vni):
    """VXLAN's header as RFC 7348 writes it: Scapy 2.5's VXLAN() binds VXLAN-GPE's next
    protocol before an Ethernet (flags 0x0c, next protocol 3), which is not RFC 7348's."""
    return bytes([0x08, 0, 0, 0]) + vni.to_bytes(3, "big") + b"\0"


def mixed_frames(rounds=5):
    """[(bytes written, wire length)]: twelve kinds of frame, @rounds times with other
    addresses, ports and sizes; the truncated one keeps 40 bytes of its wire length (its UDP
    header cut) in even rounds, 30 (its IPv4 header cut) in odd ones."""
    from scapy.all import (ARP, GRE, ICMP, IP, TCP, UDP, Dot1AD, Dot1Q, Ether, IPv6, Raw,
                           ICMPv6EchoRequest)
    from scapy.contrib.mpls import MPLS
    out = []
    for r in range(rounds):
        e = Ether(src=f"02:00:00:00:01:{r:02x}", dst="02:00:00:00:00:02")
        ip = IP(src=f"10.0.{r}.1", dst=f"10.1.{r}.1", ttl=64)
        pay = Raw(bytes(range(18 + r)))
        frames = [
            e / ip / UDP(sport=1024 + r, dport=5000) / pay,
            e / ip / TCP(sport=40000 + r, dport=80, flags="S", seq=1000 * r),
            e / Dot1Q(vlan=100 + r) / ip / UDP(sport=1100, dport=5001) / pay,
            e / Dot1AD(vlan=200 + r) / Dot1Q(vlan=300 + r) / ip / UDP(sport=1200, dport=5002) / pay,
            e / IPv6(src=f"2001:db8::{r + 1:x}", dst="2001:db8::ff") / ICMPv6EchoRequest(id=r, seq=r) / pay,
            e / ARP(op=1, hwsrc=f"02:00:00:00:01:{r:02x}", psrc=f"10.0.{r}.1", pdst=f"10.0.{r}.254"),
            e / MPLS(label=100 + r, s=1, ttl=64) / ip / UDP(sport=1300, dport=5003) / pay,
            e / ip / GRE() / IP(src="192.168.0.1", dst=f"192.168.{r}.2") / UDP(sport=1400, dport=5004) / pay,
            e / ip / UDP(sport=49152 + r, dport=4789) / Raw(vxlan(42 + r)) /
            Ether(src="02:00:00:00:0a:01", dst="02:00:00:00:0a:02") /
            IP(src="172.16.0.1", dst=f"172.16.{r}.9") / UDP(sport=1500, dport=5005) / pay,
            e / ip / ICMP(type=8, id=r, seq=r) / pay,
            Ether(src=e.src, dst=e.dst, type=0x88B5) / Raw(b"\x5a" * (46 + r)),
        ]
        out += [(bytes(f), len(f)) for f in frames]
        big = bytes(e / ip / UDP(sport=1600, dport=5006) / Raw(b"\xa5" * (200 + r)))
        out.append((big[:40 if r % 2 == 0 else 30], len(big)))   # cut in its UDP / IPv4 header
    return out


def write_pcap(path, frames):
    """A classic pcap (microseconds, Ethernet, snap length 65535), frame i at
    T0 + i * 1.25 ms + i² µs: a distinct time each, known here."""
    times = []
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, (data, wire) in enumerate(frames):
            us = i * 1250 + i * i
            times.append(us)
            f.write(struct.pack("<IIII", T0 + us // 1_000_000, us % 1_000_000, len(data), wire))
            f.write(data)
    return times


def tshark_rows(path):
    """[(n, t since the first frame, wire length, top protocol)] as tshark reads @path."""
    out = subprocess.run(["tshark", "-r", path, "-T", "fields", "-E", "separator=\t",
                          "-e", "frame.number", "-e", "frame.time_relative", "-e", "frame.len",
                          "-e", "frame.protocols"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    rows = []
    for line in out.stdout.splitlines():
        n, t, length, protos = line.split("\t")
        top = [TSHARK_TO_WR[p] for p in protos.split(":") if p in TSHARK_TO_WR][-1]
        rows.append((int(n), float(t), int(length), top))
    return rows


def tshark_chain(path, n):
    """Frame @n's layers as tshark names them, in the registry's names (those both know)."""
    out = subprocess.run(["tshark", "-r", path, "-T", "fields", "-e", "frame.protocols",
                          "-Y", f"frame.number == {n}"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return [TSHARK_TO_WR[p] for p in out.stdout.strip().split(":") if p in TSHARK_TO_WR]


def tcpdump_kept(path, flt, times):
    """The record numbers libpcap's @flt keeps of @path: tcpdump writes what it keeps to a
    pcap (the same microsecond times), whose records' times name them."""
    out = subprocess.run(["tcpdump", "-r", path, "-w", "-", flt], capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr
    by_time = {us: i + 1 for i, us in enumerate(times)}
    kept, b = [], out.stdout
    pos = 24
    while pos < len(b):
        sec, usec, caplen, _ = struct.unpack_from("<IIII", b, pos)
        kept.append(by_time[(sec - T0) * 1_000_000 + usec])
        pos += 16 + caplen
    return kept


def tshark_layers(path, n):
    """tshark's -T json -x of frame @n: {layer: [its dicts, outermost first]} (a protocol
    found twice, as VXLAN's inner IPv4, is kept twice: JSON with duplicate keys)."""
    out = subprocess.run(["tshark", "-r", path, "-T", "json", "-x", "-Y", f"frame.number == {n}"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr

    def pairs(kv):
        d = {}
        for k, v in kv:
            d.setdefault(k, []).append(v)
        return d
    doc = json.loads(out.stdout, object_pairs_hook=pairs)
    return doc[0]["_source"][0]["layers"][0]


class CapturesChecks:
    """The checks, in the browser the class names (@browser)."""

    browser = None

    def rows(self, a):
        """The frames listed now: [(n, t, len, caplen, stream, top, summary)]."""
        js = """return Array.from(document.querySelectorAll('#frames-table tbody tr'), (tr) => {
          const c = (k) => tr.querySelector(`[data-col="${k}"]`);
          return [Number(tr.dataset.n), Number(c("t").dataset.t), Number(c("len").textContent),
                  Number(c("len").dataset.caplen), c("stream").textContent, c("top").textContent,
                  c("summary").textContent];
        });"""
        return [tuple(r) for r in a.d.execute_script(js)]

    def apply(self, a, flt, count):
        form = a.q("#reader-form")
        inp = form.find_element(a.By.NAME, "filter")
        inp.clear()
        if flt:
            inp.send_keys(flt)
        a.d.execute_script("document.querySelector('#reader-form select[name=count]').value = arguments[0]",
                           str(count))
        form.find_element(a.By.CSS_SELECTOR, 'button[type="submit"]').click()

    def unclipped(self, a):
        """At this width: no page-wide horizontal scroll, and every header cell of the two
        tables (the captures' Download column included) inside its table's box."""
        js = """const out = [];
        const doc = document.scrollingElement;
        if (doc.scrollWidth > window.innerWidth) out.push(`page ${doc.scrollWidth} > ${window.innerWidth}`);
        for (const id of ["captures-table", "frames-table"]) {
          const t = document.getElementById(id), box = t.parentElement.getBoundingClientRect();
          if (t.parentElement.scrollWidth > t.parentElement.clientWidth) out.push(`${id} scrolls sideways`);
          for (const b of t.querySelectorAll("thead th, tbody tr:first-child button")) {
            const r = b.getBoundingClientRect();
            if (r.left < box.left - 0.5 || r.right > box.right + 0.5) out.push(`${id}: ${b.textContent} at ${r.left}-${r.right} outside ${box.left}-${box.right}`);
          }
        }
        return out;"""
        return a.d.execute_script(js)

    def test_read_a_file(self):
        pcap = self.path("mixed.pcap")
        frames = mixed_frames()
        times = write_pcap(pcap, frames)
        ref = decoded(tshark_rows, pcap)
        self.assertEqual(len(ref), len(frames))
        p, sock, port = self.web_serve()
        c = self.client(sock)
        a = Page(self, port, cpus={0}, name=f"{self.browser}-cap", browser=self.browser)
        a.view("captures")
        a.wait(lambda: a.q("#capture-open").is_displayed(), "no file picker: capture.open missing?")
        # The page's own Download is caught (the blob it saves), in both browsers alike
        # (the page's CSP keeps fetch() off blob: URLs).
        a.d.execute_script("""window.wrSaved = []; window.wrBlobs = new Map();
          const made = URL.createObjectURL;
          URL.createObjectURL = (b) => { const u = made.call(URL, b); window.wrBlobs.set(u, b); return u; };
          HTMLAnchorElement.prototype.click = function () {
            if (this.download) window.wrSaved.push([this.download, this.href]);
          };""")
        a.q("#capture-file").send_keys(pcap)
        a.wait(lambda: a.attr("#reader-count", "data-total") == str(len(frames)),
               lambda: f"the file was not read: {a.text('#capture-open-state')!r} {a.text('#reader-count')!r}")
        cid = c.capture_status()["captures"][-1]
        self.assertEqual(cid["source"], "upload", cid)
        row = f'#captures-table tr[data-capture="{cid["id"]}"]'
        self.assertEqual(a.attr(row, "data-source"), "upload")

        # Every frame, 50 a page: what tshark reads, and what capture.read says.
        self.apply(a, "", 50)
        a.wait(lambda: len(self.rows(a)) == 50, lambda: f"page 1: {len(self.rows(a))} rows")
        got = self.rows(a)
        self.assertTrue(a.q("#reader-prev").get_attribute("disabled") is not None)
        a.q("#reader-next").click()
        a.wait(lambda: self.rows(a) and self.rows(a)[0][0] == 51, "page 2 not shown")
        got += self.rows(a)
        self.assertIsNotNone(a.q("#reader-next").get_attribute("disabled"))
        self.assertEqual([g[0] for g in got], [r[0] for r in ref])
        wrong = [(g, r) for g, r, (data, wire) in zip(got, ref, frames)
                 if (g[2], g[3], g[5]) != (r[2], len(data), r[3]) or abs(g[1] - r[1]) > 1e-6]
        # (checked last: the other checks still say what they find)
        api = c.call("capture.read", id=cid["id"], count=1000)
        self.assertEqual([(f["n"], f["len"], f["caplen"], f["stream"] or "–", f["top"]) for f in api["frames"]],
                         [(g[0], g[2], g[3], g[4], g[5]) for g in got])
        for f, g in zip(api["frames"], got):
            self.assertTrue(g[6].startswith(f["summary"]), (f, g))
        self.assertEqual(self.unclipped(a), [])
        a.shot("captures-frames")

        # A libpcap filter: the frames tcpdump keeps; a bad one in libpcap's words.
        for flt in ("udp", "vlan and udp", "arp or icmp6"):
            want = decoded(tcpdump_kept, pcap, flt, times)
            self.assertTrue(want)
            self.apply(a, flt, 200)
            a.wait(lambda: [g[0] for g in self.rows(a)] == want,
                   lambda: f"{flt}: {[g[0] for g in self.rows(a)]} != tcpdump's {want}")
            self.assertEqual(a.attr("#reader-count", "data-matched"), str(len(want)))
        self.apply(a, "udp and", 200)
        a.wait(lambda: a.attr("#reader-form", "data-state") == "error", "a bad filter accepted")
        self.assertIn("udp and", a.text("#error-text") or "")
        self.assert_alive(p, sock)

        # The VXLAN frame of round 0 (the 9th): its tree and hex as capture.frame gives them;
        # the innermost IPv4 destination the server decoded, picked in the hex, highlights
        # exactly its bytes, where tshark's -x puts an ip.dst.
        n = 9
        self.apply(a, "", 200)
        a.wait(lambda: len(self.rows(a)) == len(frames), "the whole list is not back")
        a.click(f'#frames-table tr[data-n="{n}"] [data-col="summary"]')   # a cell: Marionette clicks no <tr>
        a.wait(lambda: a.attr("#packet", "data-n") == str(n) and a.qa("#packet .pkt-hex [data-off]"),
               "frame 9 not drawn")
        pkt = c.call("capture.frame", id=cid["id"], n=n)
        data = frames[n - 1][0]
        self.assertEqual(pkt["hex"], data.hex())
        cells = a.d.execute_script("""return Array.from(document.querySelectorAll('#packet .pkt-hex [data-off]'),
            (e) => [Number(e.dataset.off), e.textContent.trim()]);""")
        self.assertEqual([(o, t.lower()) for o, t in cells], [(i, f"{b:02x}") for i, b in enumerate(data)])
        tree = a.text("#packet")
        for layer in pkt["layers"]:
            self.assertIn(layer["title"], tree)
            for f in layer["fields"]:
                self.assertIn(f"{f['name']}: {f['value']}", tree)
        chain = [l["proto"] for l in pkt["layers"] if l["proto"] != "payload"]
        if chain != decoded(tshark_chain, pcap, n):
            wrong.append((n, chain, decoded(tshark_chain, pcap, n)))
        # A cut frame's layers as capture.frame gives them (the cut one "truncated"), to say
        # what its top protocol is made of when it differs from tshark's.
        for g, r in list(wrong):
            if isinstance(g, tuple) and g[3] != g[2]:
                dec = c.call("capture.frame", id=cid["id"], n=g[0])
                wrong.append((g[0], [(l["proto"], l.get("truncated", False)) for l in dec["layers"]], r[3]))
        ts = decoded(tshark_layers, pcap, n)
        v4 = [l for l in pkt["layers"] if l["proto"] == "ipv4"][-1]
        fld = [f for f in v4["fields"] if f["key"] == "ipv4.dst"][0]
        off, length = fld["off"], fld["len"]
        ts_dst = [d[:3] for layer in ts["ip"] for d in layer["ip.dst_raw"]]   # [hex, offset, length]
        self.assertIn([data[off:off + length].hex(), off, length], ts_dst)
        a.click(f'#packet .pkt-hex [data-off="{off}"]')
        a.wait(lambda: a.qa("#packet .pkt-hex .hl"), "nothing highlighted")
        hl = sorted({int(o) for o in a.d.execute_script(
            "return Array.from(document.querySelectorAll('#packet .pkt-hex .hl[data-off]'), (e) => e.dataset.off);")})
        self.assertEqual(hl, list(range(off, off + length)), fld)

        # tshark's own decode of that frame, shown beside it on request.
        a.q("#tshark-toggle").click()
        a.wait(lambda: a.q("#tshark-json").is_displayed()
               and '"frame.number"' in (a.d.execute_script("return document.getElementById('tshark-json').textContent") or ""),
               "no tshark decode shown")
        shown = json.loads(a.d.execute_script("return document.getElementById('tshark-json').textContent"))
        if isinstance(shown, list):
            shown = shown[0]
        layers = shown["_source"]["layers"]
        # (the server hands tshark that one record: its frame.number is 1)
        self.assertEqual(layers["frame"]["frame.len"], str(frames[n - 1][1]))
        self.assertEqual(layers["frame_raw"][0], data.hex())
        self.assertEqual(list(layers), list(ts))
        self.assertEqual(layers["ip"]["ip.dst"], ts["ip"][-1]["ip.dst"][0])   # the innermost
        a.shot("captures-tree")

        # Download: the bytes the page saves are the file's, under its name.
        a.click(f'{row} button[data-act="download"]')
        a.wait(lambda: a.d.execute_script("return window.wrSaved.length") == 1, "nothing saved")
        name, b64 = a.d.execute_script("""return (async () => {
          const [name, href] = window.wrSaved[0];
          const b = new Uint8Array(await window.wrBlobs.get(href).arrayBuffer());
          let s = ""; for (const x of b) s += String.fromCharCode(x);
          return [name, btoa(s)];
        })();""")
        self.assertEqual(name, "mixed.pcap")
        with open(pcap, "rb") as f:
            self.assertEqual(base64.b64decode(b64), f.read())
        self.assert_alive(p, sock)
        self.maxDiff = None
        with self.subTest("the page's console"):
            self.assertEqual(a.errors(), [])
        with self.subTest("as tshark reads them"):
            self.assertEqual(wrong, [], "frames listed or decoded otherwise than tshark reads them: [(page, tshark)]")


class Chromium(CapturesChecks, WebCase):
    browser = "chromium"


class Firefox(CapturesChecks, WebCase):
    browser = "firefox"


if __name__ == "__main__":
    unittest.main()
