# SPDX-License-Identifier: BSD-3-Clause
"""The console's session and layout in real browsers (headless Chromium through Selenium and
headless Firefox through Marionette, the same checks): the editor's text, its name, the open
view and the charts' window and measure kept across a reload and a fresh visit
(web/session.js, localStorage); "Clear counters" zeroing every counter stats.get reports (the
server's own counter table says which); one port's streams started from the port's row, one
stream stopped from its row while the other goes on (the frames counted by stats.get, exact);
the layout at 1366x800 and 390x844: no element wider than the viewport, every table header
cell visible inside its panel (1366) or its own scroll box (390).  Screenshots of every view at
both sizes go to $WR_ARTIFACTS (web-session-*.png, web-firefox-session-*.png)."""

import json
import math
import os
import unittest

from wrtest import wait_for
from test_web import WAIT_S, WebCase, Page, ARTIFACTS
import wirerate  # noqa: E402  (test_server put python/ on the path)
import wrfirefox  # noqa: E402

# Two ports (net_null0 and net_null1, both on TX lcore 1): a on port 0, b and c on port 1.
STREAMS = """version: 1
streams:
  - name: a
    port: 0
    size: 64
    rate: 100 kpps
  - name: b
    port: 1
    size: 128
    rate: 100 kpps
  - name: c
    port: 1
    size: 256
    rate: 100 kpps
"""
SECOND_PORT = "  - device: net_null1\n    tx_lcores: [1]\n"

FIREFOX_MIN_WIDTH = 500   # what headless firefox-esr 153 kept of a 390 px window

VIEWS = ("traffic", "streams", "latency", "captures", "hosts", "bench", "events")

# What overflows the page: every shown element not inside a scroll box of its own whose box
# leaves the viewport; then every shown table header cell: its scroll box (the nearest
# ancestor whose overflow-x is not visible), whether it is inside that box as laid out, and
# whether scrolling the box brings it into view (box and viewport).
LAYOUT_JS = r"""
const vw = document.documentElement.clientWidth;
const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
const boxOf = (e) => {
  for (let a = e.parentElement; a && a !== document.documentElement; a = a.parentElement)
    if (getComputedStyle(a).overflowX !== "visible") return a;
  return null;
};
const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") +
  (typeof e.className === "string" && e.className ? "." + e.className.trim().split(/\s+/).join(".") : "") +
  ` "${(e.textContent || "").trim().slice(0, 24)}"`;
const out = { vw, vh: window.innerHeight, page: document.documentElement.scrollWidth, wide: [], headers: [] };
for (const e of document.body.querySelectorAll("*")) {
  if (!shown(e) || e.closest(".sr-only") || boxOf(e)) continue;
  const r = e.getBoundingClientRect();
  if (r.right > vw + 0.5 || r.left < -0.5) out.wide.push(`${name(e)}: ${r.left.toFixed(1)}..${r.right.toFixed(1)}`);
}
for (const th of document.querySelectorAll("th")) {
  if (!shown(th)) continue;
  const box = boxOf(th);
  const table = th.closest("table").id || "?";
  if (box === null) { out.headers.push({ table, th: name(th), box: null }); continue; }
  const ox = getComputedStyle(box).overflowX;
  const r = th.getBoundingClientRect(), b = box.getBoundingClientRect();
  const inside = r.left >= b.left - 0.5 && r.right <= b.right + 0.5;
  const keep = box.scrollLeft;
  th.scrollIntoView({ block: "nearest", inline: "nearest" });
  const r2 = th.getBoundingClientRect(), b2 = box.getBoundingClientRect();
  // 1 CSS pixel of slack: a zoomed Firefox rounds edges to its device pixels.
  const reached = r2.left >= b2.left - 1 && r2.right <= b2.right + 1 && r2.left >= -1 && r2.right <= vw + 1;
  box.scrollLeft = keep;
  out.headers.push({ table, th: name(th), box: name(box), overflow: ox, inside, reached,
                     at: [r2.left, r2.right, b2.left, b2.right, box.scrollLeft, box.scrollWidth].map((x) => +x.toFixed(2)),
                     box_in_view: b.left >= -0.5 && b.right <= vw + 0.5 });
}
window.scrollTo(0, 0);
return JSON.stringify(out);
"""


class SessionPage(Page):
    """A Page whose viewport can be set exactly."""

    def viewport(self, width, height):
        if self.browser == "firefox":
            # Firefox keeps a window at least 500 px wide, even headless: a narrower viewport
            # is that window zoomed (more device pixels to the CSS pixel, as a phone has),
            # which lays the page out at @width CSS pixels.
            # Gecko counts 60 app units to a CSS pixel and a whole number of them to a device
            # pixel: the zoom is 60/k, the largest k whose window is still 500 px or more.
            zoom = 60 / min(60, math.floor(60 * width / FIREFOX_MIN_WIDTH))
            ww, wh = math.ceil(width * zoom), round(height * zoom)
            self.d.call("Marionette:SetContext", value="chrome")
            try:
                self.d.execute_script("gBrowser.selectedBrowser.fullZoom = arguments[0]", zoom)
            finally:
                self.d.call("Marionette:SetContext", value="content")
            for _ in range(3):   # the window's frame, measured
                self.d.call("WebDriver:SetWindowRect", width=ww, height=wh)
                iw, ih = self.d.execute_script("return [innerWidth, innerHeight]")
                if (iw, ih) == (width, height):
                    break
                ww += round((width - iw) * zoom)
                wh += round((height - ih) * zoom)
        else:
            self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": height, "deviceScaleFactor": 1,
                "mobile": False})
        self.wait(lambda: self.d.execute_script("return [innerWidth, innerHeight]") == [width, height],
                  lambda: f"viewport {self.d.execute_script('return [innerWidth, innerHeight]')}, "
                          f"not {width}x{height}")

    def reload(self, url=None):
        """Reload the page (or visit @url) until the new page is connected: the old one is
        marked, so that its own "connected" is not taken for the new page's."""
        self.d.execute_script("window.wrOldPage = true")
        if url is None:
            self.d.execute_script("location.reload()")
        else:
            self.d.get(url)
        self.wait(lambda: self.d.execute_script(
            "return !window.wrOldPage && document.getElementById('conn-state')?.textContent")
            == "connected", "no connection after the reload")

    def value(self, css):
        return self.q(css).get_attribute("value") if self.browser == "chromium" else \
            self.d.execute_script("return document.querySelector(arguments[0]).value", css)

    def select(self, css, value):
        self.d.execute_script("const s = document.querySelector(arguments[0]); s.value = arguments[1];"
                              "s.dispatchEvent(new Event('change'));", css, value)

    @staticmethod
    def row_css(row, action):
        return f'[data-row="{row}"] td.row-actions button[data-action="{action}"]'

    def row_button(self, row, action):
        return self.q(self.row_css(row, action))

    def row_enabled(self, row, action):
        """Whether a row's button is enabled, read in one script (the tables are redrawn each
        second: an element found, then asked, may be gone); None while it is not drawn."""
        return self.d.execute_script("const b = document.querySelector(arguments[0]);"
                                     "return b ? !b.matches(':disabled') : null;", self.row_css(row, action))

    def row_click(self, row, action):
        self.click(self.row_css(row, action))

    def layout(self):
        return json.loads(self.d.execute_script(LAYOUT_JS))


def counters_of(doc):
    """Every counter (not gauge) of the server's counter table, per port and stream row:
    {("port"|"stream", row name, key): value}."""
    out = {}
    for ctr in doc["counters"]:
        if ctr["type"] != "counter":
            continue
        for scope, rows in (("port", doc["ports"]), ("stream", doc["streams"])):
            if scope not in ctr["scope"]:
                continue
            for r in rows:
                if ctr["key"] in r:
                    out[(scope, r["name"], ctr["key"])] = r[ctr["key"]]
    return out


class SessionChecks:
    """The checks each browser passes (the test cases below name their @browser)."""

    browser = None

    def setUp(self):
        super().setUp()
        p, sock, port = self.web_serve(eal=("--vdev=net_null1",), profile_extra=SECOND_PORT)
        self.p, self.sock, self.port = p, sock, port
        self.c = self.client(sock)   # a script watching: it owns nothing

    def page(self, name="a", beside=None):
        return SessionPage(self, self.port, cpus={0}, name=name, browser=self.browser, beside=beside)

    def shot(self, pg, name):
        os.makedirs(ARTIFACTS, exist_ok=True)
        prefix = "web-session-" if self.browser == "chromium" else "web-firefox-session-"
        pg.d.save_screenshot(os.path.join(ARTIFACTS, f"{prefix}{name}.png"))

    def tx(self, name):
        return wirerate.stream_row(self.c.stats(), name)["tx_pkts"]

    def test_session(self):
        a = self.page()
        a.viewport(1366, 800)
        url = f"http://127.0.0.1:{self.port}/"
        # The editor's text and its name, the chart's window and measure, the view: kept.
        a.view("streams")
        a.d.execute_script("const n = document.getElementById('file-name'); n.value = 'two-ports.yaml';"
                           "n.dispatchEvent(new Event('change'));")
        a.type_yaml(STREAMS)
        a.wait(lambda: a.q("#check").get_attribute("data-state") == "valid", "no valid check")
        a.view("traffic")
        a.select("#chart-window", "600")
        a.select("#chart-metric", "l1")
        a.view("latency")
        for how in ("reload", "visit"):
            a.reload(None if how == "reload" else url)   # a visit: no #latency in the URL
            self.assertEqual(a.value("#yaml"), STREAMS, how)
            self.assertEqual(a.value("#file-name"), "two-ports.yaml", how)
            self.assertEqual(a.attr("#tab-latency", "aria-selected"), "true", how)
            self.assertTrue(a.q("#view-latency").is_displayed(), how)
            self.assertEqual(a.value("#chart-window"), "600", how)
            self.assertEqual(a.value("#chart-metric"), "l1", how)
            # The text kept is checked again by the server, as if typed.
            a.view("streams")
            a.wait(lambda: a.q("#check").get_attribute("data-state") == "valid", f"{how}: no check")
            self.assertIn("stream c: port 1, 256-byte frames", a.text("#summary"))
            a.view("latency")
        self.assertEqual(a.errors(), [])

    def test_rows_clear_layout(self):
        c = self.c
        a = self.page()
        a.viewport(1366, 800)
        a.view("streams")
        a.paste_yaml(STREAMS)
        a.wait(lambda: a.q("#check").get_attribute("data-state") == "valid", "no valid check")
        a.q("#take-control").click()
        a.wait(lambda: a.text("#owner-state") == "in control", "not in control")
        a.wait(lambda: a.q("#btn-load").is_enabled(), "load stays disabled")
        a.q("#btn-load").click()
        a.wait(lambda: [s["name"] for s in c.streams()] == ["a", "b", "c"], "streams not loaded")
        a.view("traffic")
        a.wait(lambda: a.qa('[data-row="stream:c"] td.row-actions button'), "no row buttons")
        # Port 1's row starts port 1's streams, b and c; a, on port 0, sends nothing.
        a.wait(lambda: a.row_enabled("port:1", "start"), "port 1's Start disabled")
        self.assertFalse(a.row_enabled("port:1", "stop"))
        a.row_click("port:1", "start")
        # (A stream a start leaves out is "ended" for that run.)
        a.wait(lambda: [s["state"] for s in c.streams()] == ["ended", "running", "running"],
               lambda: f"after port 1's start: {c.streams()}")
        a.wait(lambda: a.stream_cell("b", "state") == "running", "the page: b not running")
        # While the run goes on, a cannot join it (each start rebuilds every stream).
        self.assertIs(a.row_enabled("stream:a", "start"), False)
        self.assertIn("stop it", a.attr(a.row_css("stream:a", "start"), "title"))
        # b stopped from its row: b's count stands still, exactly; c goes on; a never sent.
        self.assertTrue(wait_for(lambda: self.tx("b") > 1000 and self.tx("c") > 1000, WAIT_S))
        a.wait(lambda: a.row_enabled("stream:b", "stop"), "b's Stop disabled")
        a.row_click("stream:b", "stop")
        self.assertTrue(wait_for(lambda: c.streams()[1]["state"] == "ended", WAIT_S), c.streams())
        self.assertEqual(c.info()["state"], "running")
        b_end = self.tx("b")
        c_then = self.tx("c")
        # Until c has sent 50,000 more (0.5 s at its 100 kpps): b's count meanwhile stands
        # still, however long a loaded CPU takes to let c send them.
        self.assertTrue(wait_for(lambda: self.tx("c") >= c_then + 50000, WAIT_S), self.tx("c"))
        st = c.stats()
        self.assertEqual(wirerate.stream_row(st, "b")["tx_pkts"], b_end)
        self.assertGreater(wirerate.stream_row(st, "c")["tx_pkts"], c_then)
        self.assertEqual(wirerate.stream_row(st, "a")["tx_pkts"], 0)
        a.wait(lambda: a.stream_cell("b", "tx_pkts") == f"{b_end:,}",
               lambda: f"the page's b: {a.stream_cell('b', 'tx_pkts')}, the server's {b_end:,}")
        self.assertIs(a.row_enabled("stream:b", "stop"), False)
        self.assertIs(a.row_enabled("stream:c", "stop"), True)
        self.shot(a, "rows")
        # Port 1's Stop stops what is left there (c): the run ends.
        a.row_click("port:1", "stop")
        self.assertTrue(wait_for(lambda: c.info()["state"] == "done", WAIT_S), c.info())
        done = counters_of(c.stats(counters=True))
        self.assertGreater(done[("stream", "c", "tx_pkts")], 0)
        self.assertEqual(done[("stream", "b", "tx_pkts")], b_end)
        # A viewer's "Clear counters" is disabled (a console in a second window: a session
        # of its own); the owner's zeroes every counter.
        v = self.page(name="viewer", beside=a)
        v.wait(lambda: v.stream_cell("b", "tx_pkts") == f"{b_end:,}", "viewer: b's frames")
        self.assertFalse(v.q("#btn-clear").is_enabled())
        self.assertEqual(v.owner_only_enabled(), [])
        v.quit()
        a.wait(lambda: a.q("#btn-clear").is_enabled(), "Clear counters disabled")
        a.q("#btn-clear").click()
        self.assertTrue(wait_for(lambda: c.stats()["cleared"], WAIT_S))
        cleared = counters_of(c.stats(counters=True))
        self.assertEqual(set(cleared), set(done))
        nonzero = {k: v for k, v in cleared.items() if v != 0}
        self.assertEqual(nonzero, {}, "counters stats.get still reports after the clear")
        for s in ("a", "b", "c"):
            a.wait(lambda: a.stream_cell(s, "tx_pkts") == "0",
                   lambda: f"the page's {s}: {a.stream_cell(s, 'tx_pkts')} frames after the clear")
        # The layout, with the rows and the charts drawn: both sizes, every view.
        problems = []
        for w, h in ((1366, 800), (390, 844)):
            a.viewport(w, h)
            # Every tab the page has (the views of other modules included), not a list here.
            views = [i[4:] for i, in a.attrs('nav.tabs [role="tab"]', "id")]
            self.assertTrue(set(VIEWS) <= set(views), views)
            for view in views:
                a.view(view)
                a.settle()
                lay = a.layout()
                self.shot(a, f"{view}-{w}")
                where = f"{self.browser} {w}x{h} {view}"
                if lay["page"] > lay["vw"]:
                    problems.append(f"{where}: the page is {lay['page']} px wide, the viewport {lay['vw']}")
                problems += [f"{where}: wider than the viewport: {e}" for e in lay["wide"]]
                for hd in lay["headers"]:
                    if hd["box"] is None or hd["overflow"] not in ("auto", "scroll"):
                        problems.append(f"{where}: {hd['table']} {hd['th']} in no scroll box: {hd}")
                    elif not (hd["reached"] and hd["box_in_view"]):
                        problems.append(f"{where}: {hd['table']} {hd['th']} not visible: {hd}")
                    elif w >= 1366 and not hd["inside"]:
                        problems.append(f"{where}: {hd['table']} {hd['th']} clipped (scrolled out)")
        self.assertEqual(problems, [], "\n".join(problems))
        self.assertEqual(a.errors(), [])
        self.assert_alive(self.p, self.sock)


class Chromium(SessionChecks, WebCase):
    browser = "chromium"


class Firefox(SessionChecks, WebCase):
    browser = "firefox"


if __name__ == "__main__":
    unittest.main()
