# SPDX-License-Identifier: BSD-3-Clause
"""The console's charts (web/chart.js, web/runs.js) in headless Chromium and Firefox against a
real server on net_ring (its ring hands every frame back: echoes, latency, benchmarks):
- a finished sweep's chart in the Benchmarks view: its points are the job's result, row for
  row as its table shows them;
- a chart saved as SVG and as PNG through the page's own buttons, the files the browser wrote
  read back from disk: the SVG parsed (Python's XML parser) with the chart's points in it,
  the PNG's signature and size (its IHDR: the chart's size at two pixels a CSS pixel);
- the latency histogram's count axis logarithmic: its decades evenly spaced, each bar's top
  at log10 of its count (the counts the server's stats.get gives);
- two stored runs (runs.list / runs.get) ticked in the Runs view and overlaid: every curve's
  points are runs.get's samples, and the table lists each run with its stream's SHA-256."""

import hashlib
import math
import re
import os
import shutil
import tempfile
import unittest
import xml.etree.ElementTree as ET

from test_web import ARTIFACTS, WebCase, yaml_stream
from test_web_session import SessionPage as Page   # a Page whose viewport can be set
import wrfirefox

PNG_SIG = b"\x89PNG\r\n\x1a\n"


class RunsChecks:
    """The charts' checks, the same in each browser (the test classes below name it)."""

    browser = None

    def chart_page(self, port, downloads):
        if self.browser == "firefox":
            # Saved files go to @downloads without asking (Firefox's own preferences).
            old = dict(wrfirefox.PREFS)
            wrfirefox.PREFS.update({"browser.download.dir": downloads, "browser.download.folderList": 2,
                                    "browser.download.useDownloadDir": True,
                                    "browser.download.always_ask_before_handling_new_types": False})
            try:
                a = Page(self, port, cpus={0}, name=self.browser, browser="firefox")
            finally:
                wrfirefox.PREFS.clear()
                wrfirefox.PREFS.update(old)
        else:
            a = Page(self, port, cpus={0}, name=self.browser, browser="chromium")
            a.d.execute_cdp_cmd("Browser.setDownloadBehavior",
                                {"behavior": "allow", "downloadPath": downloads})
        return a

    @staticmethod
    def points(a, css):
        """{data-x: data-y} of the chart's points @css names, read in one script."""
        return {float(x): float(y) for x, y in a.attrs(css, "data-x", "data-y")}

    def saved(self, a, downloads, css, name):
        """Click the export button @css; the file @name the browser wrote, its bytes."""
        path = os.path.join(downloads, name)
        if os.path.exists(path):
            os.unlink(path)
        a.click(css)
        # Complete: no partial file beside it, and its size the same in two looks 0.1 s apart.
        sizes = []

        def done():
            if (not os.path.exists(path) or os.path.exists(path + ".part") or
                    [f for f in os.listdir(downloads) if f.endswith(".crdownload")]):
                return False
            sizes.append(os.path.getsize(path))
            return len(sizes) >= 2 and sizes[-1] == sizes[-2] > 0
        a.wait(done, lambda: f"{name} not saved: {os.listdir(downloads)}")
        with open(path, "rb") as f:
            return f.read()

    def test_charts(self):
        downloads = tempfile.mkdtemp(prefix="wrcharts-")
        self.addCleanup(shutil.rmtree, downloads, True)
        runs_dir = self.path("runs")
        p, sock, port = self.web_serve(vdev="net_ring0", tag="c", extra=("--runs-dir", runs_dir))
        c = self.client(sock)
        c.acquire()
        text = yaml_stream(rate="20 kpps", size=128, extra="    latency: true\n")
        c.load(text, name="charts.yaml")
        a = self.chart_page(port, downloads)

        # 1. A sweep's result as a chart: its points are the job's figures and the table's.
        job = c.bench_start("sweep", {"sizes": [64, 128, 256], "duration": "0.2"})["job"]
        self.assertEqual(c.bench_wait(job, timeout=60)["state"], "done")
        doc = c.bench_result(job, "json")
        self.assertEqual(doc["schema"], "wirerate-sweep/1")
        a.view("bench")
        a.wait(lambda: a.qa(f'#jobs-table tr[data-job="{job}"]'), "the job is not listed")
        a.click(f'#jobs-table tr[data-job="{job}"] th')
        a.wait(lambda: len(a.qa('#chart-bench-throughput circle')) == 3, "no sweep chart")
        # Charts and tables read each in one script (a redraw between a find and a read
        # leaves a stale element): points(), and the table's rows below.
        pts = self.points(a, '#chart-bench-throughput g[data-series="kpps"] circle')
        self.assertEqual(pts, {float(r["frame_size"]): r["kpps"] for r in doc["rows"]})
        table = {float(size): float(kpps.replace(",", "")) for size, kpps in a.d.execute_script(
            "return Array.from(document.querySelectorAll('#result-table tbody tr'), (tr) =>"
            " [tr.dataset.size, tr.querySelector('[data-col=\"kpps\"]').textContent.trim()])")}
        self.assertEqual(sorted(table), sorted(pts))
        for size, kpps in table.items():
            self.assertAlmostEqual(pts[size], kpps, delta=0.0005 + 1e-9)   # the table's 3 decimals
        # The points sit where the axis says: larger Kpps higher (SVG y grows downwards).
        ys = {float(y): float(cy) for y, cy in a.attrs('#chart-bench-throughput circle', "data-y", "cy")}
        order = sorted(ys)
        self.assertEqual([ys[k] for k in order], sorted((ys[k] for k in order), reverse=True))
        a.d.execute_script("document.getElementById('bench-charts').scrollIntoView()")
        a.shot("charts-bench-sweep")

        # 2. Export: the same chart saved as SVG (parsed) and PNG (signature, size).
        svg = self.saved(a, downloads, '[data-chart="chart-bench-throughput"] button[data-export="svg"]',
                         "wirerate-chart-bench-throughput.svg")
        root = ET.fromstring(svg)
        ns = "{http://www.w3.org/2000/svg}"
        self.assertEqual(root.tag, f"{ns}svg")
        w, h = float(root.get("width")), float(root.get("height"))
        circles = root.findall(f".//{ns}circle")
        self.assertEqual({float(e.get("data-x")): float(e.get("data-y")) for e in circles}, pts)
        self.assertTrue(root.findall(f".//{ns}polyline"))
        # Styled without the page's stylesheet: the line's colour and no fill on the element.
        for e in root.findall(f".//{ns}polyline"):
            self.assertEqual(e.get("fill"), "none")
            self.assertTrue(e.get("stroke", "").startswith(("#", "rgb")), e.attrib)
        png = self.saved(a, downloads, '[data-chart="chart-bench-throughput"] button[data-export="png"]',
                         "wirerate-chart-bench-throughput.png")
        self.assertEqual(png[:8], PNG_SIG)
        self.assertEqual(png[12:16], b"IHDR")
        pw, ph = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
        self.assertEqual((pw, ph), (round(w * 2), round(h * 2)))
        self.assertGreater(len(png), 2000)   # drawn, not a blank canvas's few hundred bytes
        os.makedirs(ARTIFACTS, exist_ok=True)
        with open(os.path.join(ARTIFACTS, f"web-charts-export-{self.browser}.png"), "wb") as f:
            f.write(png)

        # 3. An RFC 2544 job: the progress line says "trial k of n, about T left" for each
        # trial event the server pushed (a subscriber's copy), then its NDR curve.
        ev = self.client(sock)
        ev.subscribe()
        a.d.execute_script(
            "window.wrSeen = []; const e = document.getElementById('bench-status');"
            "new MutationObserver(() => window.wrSeen.push(e.textContent))"
            ".observe(e, {childList: true, characterData: true, subtree: true});")
        job = c.bench_start("rfc2544", {"tx-port": 0, "rx-port": 0, "sizes": "64,128",
                                        "trial": "0.2", "drain": "0.05",
                                        "max-rate": "10 kpps"})["job"]
        self.assertEqual(c.bench_wait(job, timeout=90)["state"], "done")
        events = []
        while (e := ev.next_event(timeout=0.5)) is not None:
            if e.get("event", e.get("type")) == "bench_progress" or "estimate" in e:
                events.append(e)
        self.assertGreaterEqual(len(events), 2, events)   # a trial per size at least
        a.wait(lambda: a.q("#bench-status").get_attribute("data-state") == "done", "job not done")
        seen = a.d.execute_script("return window.wrSeen")
        lines = [m for m in (re.search(r"trial (\d+) of (\d+)(?:, (about|at most) (.+?) left)?", t)
                             for t in seen) if m]

        def eta(s):
            s = math.floor(s + 0.5)   # JavaScript's Math.round
            return f"{s} s" if s < 60 else f"{s // 60} min {s % 60:02d} s"
        want = {(x["done"], x["estimate"], ("at most" if x["eta_bound"] else "about") if x["eta_s"] > 0 else None,
                 eta(x["eta_s"]) if x["eta_s"] > 0 else None) for x in events}
        got = {(int(m[1]), int(m[2]), m[3], m[4]) for m in lines}
        # Every event's line is shown; between events the line counts down (the page each
        # second, bench.list's eta_s as of its answer): any other line is one of an event's
        # trial, its word the event's, its time left at most the event's.
        self.assertLessEqual(want, got, seen)

        def secs(t):
            m = re.fullmatch(r"(?:(\d+) min )?(\d+) s", t)
            return int(m[1] or 0) * 60 + int(m[2])
        for done, est, word, left in got - want:
            trial = [x for x in events if (x["done"], x["estimate"]) == (done, est)]
            self.assertTrue(any(left is None or (
                word == ("at most" if x["eta_bound"] else "about") and
                secs(left) <= secs(eta(x["eta_s"]))) for x in trial),
                (done, est, word, left, events))
        doc = c.bench_result(job, "json")
        a.wait(lambda: a.qa(f'#jobs-table tr[data-job="{job}"]'), "the job is not listed")
        a.click(f'#jobs-table tr[data-job="{job}"] th')   # a script's job: shown when asked
        a.wait(lambda: len(a.qa('#chart-bench-throughput g[data-series="ndr"] circle')) ==
               sum(r["throughput_pps"] is not None for r in doc["results"]), "no NDR curve")
        ndr = self.points(a, '#chart-bench-throughput g[data-series="ndr"] circle')
        self.assertEqual(ndr, {float(r["frame_size"]): r["throughput_pps"] / 1000
                               for r in doc["results"] if r["throughput_pps"] is not None})

        # An rtt job: its latency per frame size, each point the result's round trip in µs.
        job = c.bench_start("rtt", {"sizes": "50:100:50", "count": 200})["job"]
        self.assertEqual(c.bench_wait(job, timeout=60)["state"], "done")
        rtt = c.bench_result(job, "json")["sizes"]
        a.wait(lambda: a.qa(f'#jobs-table tr[data-job="{job}"]'), "the rtt job is not listed")
        a.click(f'#jobs-table tr[data-job="{job}"] th')
        for k in ("min", "avg", "p99", "max"):
            sel = f'#chart-bench-latency g[data-series="{k}"] circle'
            a.wait(lambda: len(a.qa(sel)) == len(rtt), f"no rtt {k} curve")
            got = self.points(a, sel)
            self.assertEqual(got, {float(r["frame_bytes"]): r["rtt_ns"][k] / 1000 for r in rtt})
        self.assertEqual(a.attr("#chart-bench-latency", "data-yscale"), "log")

        # 4. Two trials, stored by the server; the latency histogram's log count axis.
        trials = []
        for n in (30000, 50000):   # 1.5 and 2.5 s: 2 and 3 samples
            c.start(count=n)
            self.assertEqual(c.wait(timeout=30)["stop_reason"], "count")
            trials.append(c.stats(histogram=True))
        st = trials[-1]
        row = [s for s in st["streams"] if s["name"] == "s"][0]
        self.assertGreater(row["latency_ns"]["n"], 0, row)
        a.view("latency")
        a.wait(lambda: a.qa("#chart-hist rect.bar"), "no histogram drawn")
        self.assertEqual(a.attr("#chart-hist", "data-yscale"), "log")
        # One reading of the chart (it is redrawn each second): ticks and bars together.
        snap = a.d.execute_script(
            "const s = document.querySelector('#chart-hist');"
            "const g = (css, at) => [...s.querySelectorAll(css)].map((e) => at.map((k) => e.getAttribute(k)));"
            "return [g('text.ytick', ['data-v', 'y']),"
            "        g('rect.bar', ['data-lo', 'data-hi', 'data-n', 'y'])];")
        ticks = [(float(v), float(y)) for v, y in snap[0]]
        self.assertGreaterEqual(len(ticks), 2, ticks)
        vals = [v for v, _ in ticks]
        self.assertEqual(vals, [10.0 ** i for i in range(len(vals))])   # 1, 10, 100, ...
        gaps = [ticks[i][1] - ticks[i + 1][1] for i in range(len(ticks) - 1)]
        self.assertLess(max(gaps) - min(gaps), 0.2, gaps)                 # decades evenly spaced
        decade, y1 = gaps[0], ticks[0][1] - 4                               # text baseline +4
        counts = {(b[0], b[1]): b[2] for b in row["histogram"] if b[2] > 0}
        shown = {}
        for lo, hi, n, top in snap[1]:
            n, top = int(n), float(top)
            shown[(int(lo), int(hi))] = n
            self.assertAlmostEqual(y1 - top, decade * math.log10(n), delta=0.05)
        self.assertEqual(shown, counts)
        a.shot("charts-latency-log")
        # The live TX chart saved: its legend (HTML on the page, with switches) drawn into
        # the file, the same series in the same order.
        a.view("traffic")
        a.wait(lambda: a.qa("#chart-tx polyline"), "no TX chart")
        tx = ET.fromstring(self.saved(a, downloads, '.chart-export[data-for="chart-tx"] button[data-export="svg"]',
                                      "wirerate-tx.svg"))
        in_file = [t.text for t in tx.findall(f".//{ns}g[@data-legend]/{ns}text")]
        # The legend in one read: it is redrawn each second (CI once saw a label go stale
        # between finding the labels and reading their text).
        on_page = [t.split(":")[0] for t in a.texts("#legend-tx label")]
        self.assertTrue(on_page, "no legend on the page")
        self.assertEqual(in_file, on_page)
        self.assertEqual(len(tx.findall(f".//{ns}polyline")), len(on_page))

        # 5. The two runs overlaid in the Runs view: each curve is runs.get's samples.
        runs = c.call("runs.list", kind="trial")["runs"]
        self.assertGreaterEqual(len(runs), 2, runs)
        two = runs[:2]
        sha = hashlib.sha256(text.encode()).hexdigest()
        a.view("runs")
        for r in two:
            a.wait(lambda: a.qa(f'#runs-table tr[data-run="{r["id"]}"]'), "a run is not listed")
            self.assertEqual(a.attr(f'#runs-table tr[data-run="{r["id"]}"] [data-col="sha256"]',
                                    "data-sha256"), sha)
            a.click(f'#runs-table tr[data-run="{r["id"]}"] input[type="checkbox"]')
        docs = [c.call("runs.get", id=r["id"]) for r in two]
        for d in docs:
            for port_name in {k for s in d["samples"] for k in s["ports"]}:
                sid = f'{d["id"]}:ports:{port_name}'
                a.wait(lambda: a.qa(f'#chart-runs-rate g[data-series="{sid}"]'),
                       f"run {d['id']} port {port_name} not drawn")
                want = [[s["t"], s["ports"][port_name]["tx_pps"]] for s in d["samples"]
                        if port_name in s["ports"]]
                got = [[float(x), float(y)] for x, y in
                       a.attrs(f'#chart-runs-rate g[data-series="{sid}"] circle', "data-x", "data-y")]
                self.assertEqual(got, want)
        legend = a.texts("#chart-runs-rate .chart-legend text")
        for r in two:
            self.assertTrue(any(t.startswith(f'#{r["id"]} ') for t in legend), legend)
        # The stream has latency: true: each trial kept its histogram, and both are overlaid.
        for d in docs:
            self.assertGreater(sum(b[2] for b in d["latency"]["s"]["histogram"]), 0, d["latency"])
        a.wait(lambda: a.attr("#runs-hist-panel", "hidden") is None and
               sorted(x for x, in a.attrs("#chart-runs-hist g.series", "data-series")) ==
               sorted(f'{d["id"]}:s' for d in docs), "no histograms overlaid")
        self.assertEqual(a.attr("#chart-runs-hist", "data-yscale"), "log")
        for d in docs:
            got = {(int(lo), int(hi)): int(n) for lo, hi, n in
                   a.attrs(f'#chart-runs-hist g[data-series="{d["id"]}:s"] rect', "data-lo", "data-hi", "data-n")}
            self.assertEqual(got, {(b[0], b[1]): b[2] for b in d["latency"]["s"]["histogram"] if b[2] > 0})
        a.shot("charts-runs-overlay")
        # The sweep's and the RFC 2544 job's stored results overlaid as curves per size.
        jobs = {r["kind"]: r for r in c.call("runs.list")["runs"] if r["kind"] in ("sweep", "rfc2544")}
        self.assertEqual(sorted(jobs), ["rfc2544", "sweep"])
        for r in jobs.values():
            a.click(f'#runs-table tr[data-run="{r["id"]}"] input[type="checkbox"]')
        sweep = c.call("runs.get", id=jobs["sweep"]["id"])["result"]
        rfc = c.call("runs.get", id=jobs["rfc2544"]["id"])["result"]
        want = {f'{jobs["sweep"]["id"]}:kpps': {float(r["frame_size"]): r["kpps"] for r in sweep["rows"]},
                f'{jobs["rfc2544"]["id"]}:ndr': {float(r["frame_size"]): r["throughput_pps"] / 1000
                                                 for r in rfc["results"] if r["throughput_pps"] is not None}}

        def curves():
            return {sid: self.points(a, f'#chart-runs-throughput g[data-series="{sid}"] circle')
                    for sid in want}
        a.wait(lambda: curves() == want, lambda: f"result curves {curves()} != {want}")
        ticked = sorted([r["id"] for r in two] + [r["id"] for r in jobs.values()])
        # A reload keeps the view, the runs ticked and so their charts (session.js).
        a.reload()
        a.wait(lambda: a.q("#view-runs").is_displayed(), "the Runs view not kept")
        a.wait(lambda: sorted(a.d.execute_script(
            "return [...document.querySelectorAll('#runs-table tr[data-run]')]"
            ".filter((tr) => tr.querySelector('input').checked).map((tr) => +tr.dataset.run)")) == ticked,
            "the ticks not kept")
        a.wait(lambda: curves() == want, "the result curves not drawn again")
        # The Runs and Benchmarks views with their charts drawn: nothing wider than a laptop's
        # or a phone's viewport (test_web_session's measure).
        problems = []
        for w, h in ((1366, 800), (390, 844)):
            a.viewport(w, h)
            for view in ("runs", "bench"):
                a.view(view)
                a.settle()
                lay = a.layout()
                if lay["page"] > lay["vw"]:
                    problems.append(f"{w} {view}: the page is {lay['page']} px wide, the viewport {lay['vw']}")
                problems += [f"{w} {view}: wider than the viewport: {e}" for e in lay["wide"]]
            a.shot(f"charts-runs-{w}")
        self.assertEqual(problems, [], "\n".join(problems))
        self.assertEqual(a.errors(), [])
        self.assert_alive(p, sock)


class ChartsChromium(RunsChecks, WebCase):
    browser = "chromium"


class ChartsFirefox(RunsChecks, WebCase):
    browser = "firefox"


if __name__ == "__main__":
    unittest.main()
