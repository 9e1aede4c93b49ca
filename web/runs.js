// SPDX-License-Identifier: BSD-3-Clause
// Runs kept by the server (runs.list / runs.get / runs.delete, doc/api.md) compared in one
// chart: rates over time, sweep and RFC 2544 curves per frame size, latency histograms; and
// a benchmark job's result as charts in the Benchmarks view.  Every chart is chart.js's and
// every figure is the server's: nothing here measures or recomputes a result.

import { drawXY, drawHistograms, exportButtons, PALETTE, fmt } from "./chart.js";
import { session } from "./session.js";
import { node } from "./dom.js";

const $ = (id) => document.getElementById(id);

const ctx = {
  rpc: null,
  showError: (m) => console.warn(m),
  runs: [],                   // runs.list's rows
  selected: new Set(session.get("runs.selected", []).map(String)),   // ids ticked (kept across a reload)
  docs: new Map(),            // id -> runs.get's document (a stored run never changes)
};

function errText(method, e) {
  const msg = String(e && e.message !== undefined ? e.message : e);
  return msg.startsWith(`${method}:`) ? msg : `${method}: ${msg}`;
}

// A chart in a panel of @box: its title, export buttons, the <svg>; @return the svg.
function chartPanel(box, id, title) {
  const p = node("div", { class: "panel mt chart-panel", dataset: { chart: id } });
  const head = node("div", { class: "chart-head" });
  const h = node("h3", { id: `${id}-title`, class: "inline" }, title);
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "chart");
  svg.setAttribute("id", id);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-labelledby", `${id}-title`);
  svg.setAttribute("aria-label", title);
  head.append(h, node("span", { class: "spacer" }), exportButtons(svg, `wirerate-${id}`, (e) => ctx.showError(`export: ${e.message || e}`)));
  p.append(head, svg);
  box.append(p);
  return svg;
}

// ---- a benchmark result's curves (one document: a job's, or a stored run's "result") ----

const median = (v) => (v === null || v === undefined ? null : typeof v === "object" ? v.median : v);

// The curves a result document holds, per chart: {throughput, loss, latency}, each
// {title, yLabel, series: [{key, label, dash, points: [[frame size, value], ...]}]}.
// Values are the document's own (Kpps as the tables show them, loss in %, latency in µs).
export function resultCurves(kind, doc) {
  const out = {};
  const add = (chart, title, yLabel, key, label, points, dash) => {
    if (!points.some(([, y]) => y !== null && y !== undefined)) return;
    if (!out[chart]) out[chart] = { title, yLabel, series: [] };
    out[chart].series.push({ key, label, dash, points: points.map(([x, y]) => [x, y ?? null]) });
  };
  const us = (ns) => (ns === null || ns === undefined ? null : ns / 1000);
  if (!doc) return out;
  if (kind === "sweep" && doc.rows) {
    add("throughput", "Throughput per frame size", "Kpps", "kpps", "Kpps", doc.rows.map((r) => [r.frame_size, r.kpps]));
  } else if (kind === "sweep" && doc.sizes) {
    // A sweep with echoes (wirerate-sweep-repeat/1): each figure the median of its repeats.
    add("throughput", "Throughput per frame size", "Kpps (median of repeats)", "kpps", "TX Kpps", doc.sizes.map((r) => [r.frame_size, median(r.kpps)]));
    add("throughput", "Throughput per frame size", "Kpps (median of repeats)", "rx_kpps", "RX Kpps", doc.sizes.map((r) => [r.frame_size, r.returned ? median(r.returned.kpps) : null]), "5 3");
    add("loss", "Loss per frame size", "loss %", "loss", "loss %", doc.sizes.map((r) => [r.frame_size, r.returned ? median(r.returned.loss_pct) : null]));
  } else if (kind === "rfc2544" && doc.results) {
    const rs = doc.results;
    add("throughput", "Throughput per frame size", "Kpps", "ndr", "NDR Kpps", rs.map((r) => [r.frame_size, r.throughput_pps === null ? null : r.throughput_pps / 1000]));
    add("throughput", "Throughput per frame size", "Kpps", "pdr", "PDR Kpps", rs.map((r) => [r.frame_size, r.pdr && r.pdr.pps !== null && r.pdr.pps !== undefined ? r.pdr.pps / 1000 : null]), "5 3");
    // Frame loss: at the test's first (highest) rate step, per size.
    add("loss", "Frame loss per frame size (at the highest rate)", "loss %", "loss", "loss %",
      rs.map((r) => [r.frame_size, r.frame_loss && r.frame_loss.steps && r.frame_loss.steps.length ? r.frame_loss.steps[0].loss_pct : null]));
    const ov = (r) => (r.latency && r.latency.overall ? r.latency.overall : null);
    for (const [k, label, dash] of [["min_ns", "min", "2 3"], ["avg_ns", "avg", null], ["p99_ns", "p99", "5 3"], ["max_ns", "max", "1 4"]])
      add("latency", "Latency per frame size", "µs", k, label, rs.map((r) => [r.frame_size, ov(r) ? us(ov(r)[k]) : null]), dash);
  } else if (kind === "rtt" && doc.sizes) {
    for (const [k, label, dash] of [["min", "min", "2 3"], ["avg", "avg", null], ["p99", "p99", "5 3"], ["max", "max", "1 4"]])
      add("latency", "Round-trip time per frame size", "µs", k, label, doc.sizes.map((r) => [r.frame_bytes, r.rtt_ns ? us(r.rtt_ns[k]) : null]), dash);
    add("loss", "Loss per frame size", "lost", "lost", "lost", doc.sizes.map((r) => [r.frame_bytes, r.lost]));
  }
  return out;
}

const CHART_ORDER = ["throughput", "loss", "latency"];

// A colour per run compared: the palette without its yellow (too faint on the light theme
// for a thin line); a run's ports or streams differ by their dash.
const RUN_COLORS = PALETTE.filter((c) => c !== "#f0e442");
const runColor = (i) => RUN_COLORS[i % RUN_COLORS.length];

// Curves of several documents overlaid: docs [{id, label, kind, doc}], one colour per
// document, one dash per curve of it.  Draws into @box (emptied); @prefix names the charts.
function drawResults(box, docs, prefix) {
  box.replaceChildren();
  const charts = {};
  docs.forEach((d, i) => {
    const curves = resultCurves(d.kind, d.doc);
    const color = runColor(i);
    for (const [key, c] of Object.entries(curves)) {
      if (!charts[key]) charts[key] = { title: c.title, yLabel: c.yLabel, series: [] };
      c.series.forEach((s, j) => {
        charts[key].series.push({
          id: docs.length > 1 ? `${d.id}:${s.key}` : s.key,
          label: docs.length > 1 ? `${d.label} ${s.label}` : s.label,
          color: docs.length > 1 ? color : PALETTE[j % PALETTE.length],
          dash: docs.length > 1 ? s.dash : null,
          legend: true,
          points: s.points,
        });
      });
    }
  });
  for (const key of CHART_ORDER) {
    const c = charts[key];
    if (!c) continue;
    const sizes = [...new Set(c.series.flatMap((s) => s.points.map((p) => p[0])))].sort((a, b) => a - b);
    const svg = chartPanel(box, `${prefix}-${key}`, c.title);
    drawXY(svg, c.series, { xLabel: "frame size (bytes)", yLabel: c.yLabel, xTicks: sizes, xFmt: (v) => String(v),
      logY: key === "latency", emptyText: "nothing measured" });
  }
  return Object.keys(charts).length;
}

// The Benchmarks view: a finished job's result (bench.result's JSON) as charts.
export function benchCharts(box, kind, doc) {
  if (!box) return;
  if (!doc) {
    box.replaceChildren();
    return;
  }
  drawResults(box, [{ id: "job", label: "", kind, doc }], "chart-bench");
}

// The progress line of a running job, from bench.status: "trial k of n, about T left"
// (eta_bound: the server's upper bound, said as one).
export function progressLine(st) {
  const p = st.progress || {};
  if (!(st.state === "running" && p.test))
    return `Job ${st.job}: ${st.state}${st.error ? ": " + st.error : ""}`;
  const eta = p.eta_s > 0 ? `, ${p.eta_bound ? "at most" : "about"} ${fmtSeconds(p.eta_s)} left` : "";
  return `Job ${st.job}: ${p.test} ${p.size} B: trial ${p.done} of ${p.estimate}${eta}, ${fmt(p.rate_pps, 0)} pps`;
}

export function fmtSeconds(s) {
  s = Math.round(s);
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
  return `${s} s`;
}

// ---- the Runs view ----

const MEASURES = {
  tx_pps: "TX pps", rx_pps: "RX pps", tx_bps: "TX bit/s L2", rx_bps: "RX bit/s L2",
  tx_bps_l1: "TX bit/s L1", rx_bps_l1: "RX bit/s L1",
};

function runLabel(r) {
  return `#${r.id} ${r.name || r.kind}`;
}

function fmtDate(s) {
  if (!s) return "–";
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? s : d.toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z");
}

function summaryText(sum) {
  if (!sum || typeof sum !== "object") return "";
  return Object.entries(sum).filter(([, v]) => v !== null && typeof v !== "object").slice(0, 5)
    .map(([k, v]) => `${k} ${typeof v === "number" ? fmt(v, Number.isInteger(v) ? 0 : 3) : v}`).join(", ");
}

export function setupRuns(rpc, methods, { showError } = {}) {
  ctx.rpc = rpc;
  if (showError) ctx.showError = showError;
  const has = methods.has("runs.list");
  $("runs-body").hidden = !has;
  $("runs-missing").hidden = has;
  if (!$("runs-body").dataset.wired) {
    $("runs-body").dataset.wired = "1";
    $("runs-refresh").addEventListener("click", () => refreshRuns());
    $("runs-kind").addEventListener("change", () => refreshRuns());
    $("runs-measure").addEventListener("change", () => renderRuns());
    $("runs-rows").addEventListener("change", () => renderRuns());
    $("runs-delete").addEventListener("click", deleteSelected);
    session.bind($("runs-kind"), "runs.kind");
    session.bind($("runs-measure"), "runs.measure");
    session.bind($("runs-rows"), "runs.rows");
  }
  if (has && !$("view-runs").hidden) refreshRuns();
}

function keepSelection() {
  session.set("runs.selected", [...ctx.selected]);
}

export async function refreshRuns() {
  if (!ctx.rpc || !ctx.rpc.open || $("runs-body").hidden) return;
  const kind = $("runs-kind").value;
  let r;
  try {
    r = await ctx.rpc.call("runs.list", kind ? { kind } : {});
  } catch (e) {
    ctx.showError(errText("runs.list", e));
    return;
  }
  ctx.runs = r.runs || [];
  const ids = new Set(ctx.runs.map((x) => String(x.id)));
  // Runs gone (pruned, deleted elsewhere) leave the selection; a kind filter hides, not drops.
  let gone = false;
  for (const id of [...ctx.selected]) if (!ids.has(id) && !kind) { ctx.selected.delete(id); gone = true; }
  if (gone) keepSelection();
  const tb = $("runs-table").tBodies[0];
  tb.replaceChildren();
  for (const run of ctx.runs) {
    const id = String(run.id);
    const tr = node("tr", { dataset: { run: id } });
    const cb = node("input", { type: "checkbox", "aria-label": `Compare run ${runLabel(run)}` });
    cb.checked = ctx.selected.has(id);
    cb.addEventListener("change", () => {
      if (cb.checked) ctx.selected.add(id);
      else ctx.selected.delete(id);
      keepSelection();
      renderRuns();
    });
    const td0 = node("td");
    td0.append(cb);
    const sha = run.stream_sha256 || "";
    tr.append(td0, node("th", { scope: "row" }, id),
      node("td", { class: "l", dataset: { col: "name" } }, run.name || "–"),
      node("td", { class: "l", dataset: { col: "kind" } }, run.kind),
      node("td", { class: "l", dataset: { col: "started" } }, fmtDate(run.started)),
      node("td", { class: "l", dataset: { col: "stream" } }, run.stream_name || "–"),
      node("td", { class: "l mono", dataset: { col: "sha256", sha256: sha }, title: sha }, sha ? sha.slice(0, 12) : "–"),
      node("td", { class: "l", dataset: { col: "summary" } }, summaryText(run.summary)));
    tb.append(tr);
  }
  if (ctx.runs.length === 0) {
    const tr = node("tr");
    tr.append(node("td", { colspan: "8", class: "l muted" }, "No runs kept yet: every trial and benchmark is stored when it ends."));
    tb.append(tr);
  }
  await renderRuns();
}

async function deleteSelected() {
  const ids = [...ctx.selected].map(Number);
  if (ids.length === 0) return;
  try {
    await ctx.rpc.call("runs.delete", { ids });
  } catch (e) {
    ctx.showError(errText("runs.delete", e));
    return;
  }
  for (const id of ids) ctx.docs.delete(String(id));
  ctx.selected.clear();
  keepSelection();
  await refreshRuns();
}

async function docsOf(ids) {
  const out = [];
  for (const id of ids) {
    if (!ctx.docs.has(id)) {
      try {
        ctx.docs.set(id, await ctx.rpc.call("runs.get", { id: Number(id) }));
      } catch (e) {
        ctx.showError(errText("runs.get", e));
        continue;
      }
    }
    out.push(ctx.docs.get(id));
  }
  return out;
}

let renderSeq = 0;

// The selected runs overlaid: rates over time (trials), result curves (benchmarks),
// latency histograms (whatever has them).
export async function renderRuns() {
  const seq = ++renderSeq;
  const ids = ctx.runs.map((r) => String(r.id)).filter((id) => ctx.selected.has(id));
  const docs = await docsOf(ids);
  if (seq !== renderSeq) return;   // a newer selection drew meanwhile
  $("runs-selected").textContent = docs.length === 0
    ? "Select runs above to chart them; two or more are overlaid."
    : `${docs.length} run${docs.length === 1 ? "" : "s"} charted: ${docs.map((d) => runLabel(d)).join(", ")}`;
  // Rates over time: one curve per run and port (or stream), against seconds from its start.
  const measure = $("runs-measure").value;
  const rows = $("runs-rows").value;
  const rate = [];
  docs.forEach((d, i) => {
    const samples = d.samples || [];
    const keys = [...new Set(samples.flatMap((s) => Object.keys(s[rows] || {})))];
    keys.forEach((k, j) => {
      rate.push({
        id: `${d.id}:${rows}:${k}`,
        label: `${runLabel(d)} ${rows === "ports" ? "port" : "stream"} ${k}`,
        color: runColor(i),
        dash: j ? ["5 3", "2 3", "1 4"][(j - 1) % 3] : null,
        legend: true,
        points: samples.map((s) => [s.t, s[rows] && s[rows][k] ? s[rows][k][measure] ?? null : null]),
      });
    });
  });
  $("runs-rate-panel").hidden = rate.length === 0;
  if (rate.length) {
    $("chart-runs-rate").setAttribute("aria-label", `${MEASURES[measure]} over time`);
    drawXY($("chart-runs-rate"), rate, { xLabel: "seconds from the start", yLabel: MEASURES[measure], emptyText: "no samples" });
  }
  // Benchmark results: curves per frame size.
  const results = docs.filter((d) => d.result).map((d) => ({ id: String(d.id), label: runLabel(d), kind: d.kind, doc: d.result }));
  $("runs-results").hidden = drawResults($("runs-results"), results, "chart-runs") === 0;
  // Latency histograms: per run and stream.
  const sets = [];
  docs.forEach((d, i) => {
    Object.entries(d.latency || {}).forEach(([name, l], j) => {
      if (!l || !l.histogram || l.histogram.length === 0) return;
      sets.push({ id: `${d.id}:${name}`, label: `${runLabel(d)} ${name}`, color: RUN_COLORS[(i * 2 + j) % RUN_COLORS.length], legend: true, buckets: l.histogram });
    });
  });
  $("runs-hist-panel").hidden = sets.length === 0;
  if (sets.length) drawHistograms($("chart-runs-hist"), sets, { emptyText: "no echoes" });
}

// Every chart of the page's own markup (traffic, latency, runs) gets its export buttons,
// once, in its panel's head.
export function wireExports() {
  for (const svg of document.querySelectorAll("svg.chart[id]")) {
    const head = svg.closest(".panel") && svg.closest(".panel").querySelector(".chart-head");
    if (!head || head.querySelector(`.chart-export[data-for="${svg.id}"]`)) continue;
    const box = exportButtons(svg, `wirerate-${svg.id.replace(/^chart-/, "")}`, (e) => ctx.showError(`export: ${e.message || e}`));
    box.dataset.for = svg.id;
    head.append(box);
  }
}
