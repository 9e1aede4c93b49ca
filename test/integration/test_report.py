# SPDX-License-Identifier: BSD-3-Clause
"""The HTML reports (tools/wr-report) as a browser lays them out: Chromium through Selenium.

Issue 17: throughput bars invisible against a 4.5 Mpps line-rate axis, and tables clipped
at 1,200 px.  Each report is opened at a phone's width (375 px, as a phone lays it out)
and at 1,200 px: the page never gets wider than the window (a wide table scrolls in its
own box, and at 1,200 px none needs to), and every throughput bar is a visible share of
its plot's height, with a line rate far above the data marked inside the plot instead of
stretching its axis.  Runs under /usr/bin/python3 (Debian's python3-selenium, with
chromium and chromium-driver)."""

import json
import os
import shutil
import subprocess
import unittest

from wrtest import ROOT, STREAMS, EalCase
import wrfirefox  # noqa: E402  (reaped_service: chromedriver and Chromium die with the test)

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
except ImportError:  # the test says how to get it
    webdriver = None

CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")
WIDTHS = (375, 1200)


class ReportLayout(EalCase):

    @classmethod
    def setUpClass(cls):
        cls.driver = None
        if webdriver is None or CHROMIUM is None or CHROMEDRIVER is None:
            return
        opts = webdriver.ChromeOptions()
        opts.binary_location = CHROMIUM
        for a in ("--headless=new", "--no-sandbox", "--disable-gpu",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run", "--window-size=1200,900"):
            opts.add_argument(a)
        cls.driver = webdriver.Chrome(service=wrfirefox.reaped_service(Service, CHROMEDRIVER),
                                      options=opts)

    @classmethod
    def tearDownClass(cls):
        if cls.driver is not None:
            cls.driver.quit()

    def setUp(self):
        super().setUp()
        if self.driver is None:
            self.skipTest("needs python3-selenium, chromium and chromium-driver under "
                          "/usr/bin/python3 (tools/lib/common.sh installs them)")

    def report(self, json_path, html):
        p = subprocess.run([os.path.join(ROOT, "tools", "wr-report"), json_path, html],
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        return html

    def open_at(self, html, width):
        """The page laid out @width CSS pixels wide (a phone's 375: not a phone browser's
        980-pixel virtual window, which would hide an overflow by zooming out)."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        self.driver.get("file://" + html)
        self.driver.save_screenshot(html + f".{width}.png")

    def js(self, script):
        return self.driver.execute_script(script)

    def check_layout(self, html, what):
        for width in WIDTHS:
            with self.subTest(report=what, width=width):
                self.open_at(html, width)
                page = self.js("return [document.documentElement.scrollWidth, "
                               "window.innerWidth, document.body.scrollWidth]")
                self.assertLessEqual(page[0], page[1], f"the page overflows at {width} px")
                self.assertLessEqual(page[2], page[1], f"the body overflows at {width} px")
                # Every table sits in a box no wider than the window; at 1,200 px
                # none is clipped (its box shows it whole, no scrolling needed).
                boxes = self.js("""return [...document.querySelectorAll('table')].map(t => {
                    const b = t.parentElement, r = b.getBoundingClientRect();
                    return [b.className, r.right, b.scrollWidth, b.clientWidth,
                            getComputedStyle(b).overflowX];});""")
                self.assertGreaterEqual(len(boxes), 2)
                for cls, right, sw, cw, ov in boxes:
                    self.assertLessEqual(right, page[1] + 0.5, f"a table past {width} px")
                    if width >= 1200:
                        self.assertLessEqual(sw, cw, f"a table clipped at {width} px")
                    # Narrower: it scrolls in its own box.
                    self.assertEqual((cls, ov), ("scroll", "auto"))
                # Plots fit the window too.
                for right in self.js("return [...document.querySelectorAll('svg.plot')]"
                                     ".map(s => s.getBoundingClientRect().right)"):
                    self.assertLessEqual(right, page[1] + 0.5)

    def bars(self):
        """(id, bar height / axes height, bar top inside the axes) of each throughput bar."""
        return self.js("""const ax = document.getElementById('axes-throughput')
                              .getBoundingClientRect();
            return [...document.querySelectorAll('#plot-throughput g[id^="bar-"]')].map(g => {
                const r = g.getBoundingClientRect();
                return [g.id, r.height / ax.height, r.top >= ax.top - 0.5];});""")

    def check_bars(self, bars, res):
        """The axis is the data's: the tallest bar fills most of it, and each bar is as
        tall, against it, as its figure is against the tallest (never a sliver)."""
        figs = {}
        for r in res["results"]:
            for key, x in (("ndr", r), ("pdr", r.get("pdr") or {})):
                v = x.get("at_least_pps") if x.get("limited_by") == "generator" else \
                    x.get("throughput_pps", x.get("pps"))
                figs[f"bar-{key}-{r['frame_size']}"] = v or 0
        top = max(share for _, share, _ in bars)
        self.assertGreater(top, 0.5, bars)
        for gid, share, inside in bars:
            self.assertTrue(inside, gid)
            self.assertAlmostEqual(share / top, figs[gid] / max(figs.values()), delta=0.02)
            if figs[gid] > 0:
                self.assertGreater(share, 0.02, gid)

    def test_rfc2544_report(self):
        """rfc2544 --tests all at 20 kpps on net_ring (no line: a placeholder speed), and
        the same results on a port with a real 10 GbE line (14.9 Mpps at 64 bytes: 744
        times the data)."""
        prof = self.profile("net_ring0", f"wrsrlay{os.getpid()}")
        html = self.path("r.html")
        p = self.wirerate("rfc2544", os.path.join(STREAMS, "udp-64.yaml"), "--config", prof,
                          "--tx-port", "0", "--rx-port", "0", "--tests", "all", "--sizes",
                          "64,256,1518", "--trial", "0.2", "--drain", "0.05", "--max-rate",
                          "20 kpps", "--pdr", "0.5%", "--phases", "2", "--first-trial", "0.1",
                          "--latency-trials", "2", "--latency-trial", "0.2", "--loss-step",
                          "50%", "--b2b-trial", "0.01", "--b2b-repeats", "2",
                          "--report", html, timeout=120)
        self.assertIn(p.returncode, (0, 3), p.stderr)
        with open(html + ".json") as f:
            res = json.load(f)
        self.assertTrue(res["link_speed_placeholder"])
        self.check_layout(html, "rfc2544")
        self.open_at(html, 1200)
        bars = self.bars()
        self.assertEqual(len(bars), 6, bars)   # NDR and PDR at three sizes
        self.check_bars(bars, res)
        self.assertEqual(self.js("return document.querySelectorAll("
                                 "'[id^=\"line-rate\"]').length"), 0)   # no line
        # A real 10 GbE port: the line is marked inside the plot, the bars stay tall.
        res["link_speed_placeholder"] = False
        nic_json = self.path("nic.json")
        with open(nic_json, "w") as f:
            json.dump(res, f)
        nic = self.report(nic_json, self.path("nic.html"))
        self.check_layout(nic, "rfc2544 with a line")
        for width in WIDTHS:
            self.open_at(nic, width)
            self.check_bars(self.bars(), res)
            marks = self.js("""const ax = document.getElementById('axes-throughput')
                                  .getBoundingClientRect();
                const m = document.getElementById('line-rate-above').getBoundingClientRect();
                return [m.height > 0, m.top >= ax.top - 1, m.bottom <= ax.bottom + 1];""")
            self.assertEqual(marks, [True, True, True], width)
            self.assertIn("line 14.9 M", self.driver.page_source)

    def test_sweep_report(self):
        """sweep on net_null: Mbps against size, no line (net_null's speed is a placeholder)."""
        prof = self.profile("net_null0", f"wrsslay{os.getpid()}")
        html = self.path("s.html")
        p = self.wirerate("sweep", os.path.join(STREAMS, "udp-64.yaml"), "--config", prof,
                          "--sizes", "64,512,1518", "--duration", "0.1", "--report", html,
                          timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.check_layout(html, "sweep")
        self.open_at(html, 375)
        # The Mbps series span the plot's height: the axis is the data's.
        share = self.js("""const ax = document.getElementById('axes-sweep')
                              .getBoundingClientRect();
            return document.getElementById('series-mbps').getBoundingClientRect().height
                   / ax.height;""")
        self.assertGreater(share, 0.5)
        self.assertIn("a placeholder of net_null: no line rate", self.driver.page_source)


if __name__ == "__main__":
    unittest.main()
