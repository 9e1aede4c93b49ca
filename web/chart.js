// SPDX-License-Identifier: BSD-3-Clause
// Small SVG charts for the console: time series of rates, x-y curves (a benchmark's figures
// per frame size, a stored run's rates over time), latency histograms with a logarithmic
// count axis, several runs overlaid with a legend, and export as SVG or PNG.
// No library: a few hundred points per series, redrawn once a second (README, "Libraries").

const SVG = "http://www.w3.org/2000/svg";

// Okabe-Ito: told apart by colour-blind readers, legible on both themes.
export const PALETTE = ["#56b4e9", "#e69f00", "#5fd3a3", "#f0e442", "#cc79a7", "#d55e00", "#0072b2", "#a0a0a0"];

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// 1, 2, 2.5, 5 x 10^n at or above v.
export function niceCeil(v) {
  if (!(v > 0)) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(v)));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

export function fmt(v, digits = 1) {
  if (v === null || v === undefined || Number.isNaN(v)) return "–";
  return v.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function fmtAxis(v) {
  if (v >= 1e6) return `${fmt(v / 1e6, v % 1e6 ? 1 : 0)}M`;
  if (v >= 1e3) return `${fmt(v / 1e3, v % 1e3 ? 1 : 0)}k`;
  return fmt(v, v % 1 ? 1 : 0);
}

function fmtAgo(s) {
  if (s === 0) return "now";
  return s % 60 === 0 ? `-${s / 60}m` : `-${s}s`;
}

function size(svg) {
  const r = svg.getBoundingClientRect();
  return [Math.max(r.width, 200), Math.max(r.height, 120)];
}

// Rates over time: series [{id, label, color, points: [[t_s, value], ...]}], the last
// windowS seconds up to now.
export function drawLines(svg, series, now, windowS, emptyText) {
  const [w, h] = size(svg);
  const m = { l: 58, r: 10, t: 10, b: 22 };
  const pw = w - m.l - m.r, ph = h - m.t - m.b;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  let max = 0;
  for (const s of series)
    for (const [t, v] of s.points)
      if (t >= now - windowS && v > max) max = v;
  const ymax = niceCeil(max * 1.1); // headroom: a flat line does not sit on the top edge
  svg.dataset.ymax = String(ymax);
  for (let i = 0; i <= 4; i++) {
    const y = m.t + ph - (ph * i) / 4;
    el("line", { x1: m.l, x2: m.l + pw, y1: y, y2: y, class: i ? "grid-line" : "axis" }, svg);
    el("text", { x: m.l - 6, y: y + 4, "text-anchor": "end" }, svg).textContent = fmtAxis((ymax * i) / 4);
  }
  const step = windowS / 5;
  for (let i = 0; i <= 5; i++) {
    const x = m.l + (pw * i) / 5;
    el("text", { x, y: h - 6, "text-anchor": i === 0 ? "start" : i === 5 ? "end" : "middle" }, svg)
      .textContent = fmtAgo(windowS - i * step);
  }
  // The page's legend is HTML beside the chart (with its switches): kept for an export.
  svg.wrLegend = series.filter((s) => s.label).map((s) => ({ id: s.id, label: s.label, color: s.color }));
  let drawn = 0;
  for (const s of series) {
    const pts = s.points.filter(([t]) => t >= now - windowS - 1);
    if (pts.length === 0) continue;
    const xy = pts.map(([t, v]) => {
      const x = m.l + pw * Math.min(1, Math.max(0, (t - (now - windowS)) / windowS));
      const y = m.t + ph - (ph * Math.min(v, ymax)) / ymax;
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    });
    if (xy.length === 1) xy.push(xy[0]);
    el("polyline", { points: xy.join(" "), stroke: s.color, "data-series": s.id }, svg);
    drawn++;
  }
  if (drawn === 0)
    el("text", { x: m.l + pw / 2, y: m.t + ph / 2, "text-anchor": "middle", class: "empty" }, svg)
      .textContent = emptyText;
}

// ---- axes shared by the x-y charts and the histograms ----

// A linear axis from 0 (or the data's minimum when it is below 0) to a nice ceiling:
// four steps.  A logarithmic one: whole decades around the data (no zero on it).
function linAxis(vmin, vmax) {
  const lo = vmin < 0 ? -niceCeil(-vmin) : 0;
  const hi = Math.max(niceCeil(vmax), lo + 1);
  const ticks = [];
  for (let i = 0; i <= 4; i++) ticks.push(lo + ((hi - lo) * i) / 4);
  return { lo, hi, ticks, f: (v) => (v - lo) / (hi - lo), log: false };
}

function logAxis(vmin, vmax, floor = null) {
  const d0 = Math.floor(Math.log10(vmin));
  const d1 = Math.max(Math.ceil(Math.log10(vmax)), d0 + 1);
  // The floor: a count of 1 (10^0) still a bar, half a decade's worth above the base.
  const lo = floor !== null ? floor : Math.pow(10, d0);
  const l0 = Math.log10(lo), l1 = d1;
  const ticks = [];
  for (let d = Math.ceil(l0); d <= d1; d++) ticks.push(Math.pow(10, d));
  return { lo, hi: Math.pow(10, d1), ticks, f: (v) => (Math.log10(Math.max(v, lo)) - l0) / (l1 - l0), log: true };
}

// The legend inside the chart (so that an exported file carries it): rows of swatch and
// label across the top; @return the height it took.
function legendRows(svg, series, x0, width) {
  const items = series.filter((s) => s.label);
  if (items.length < 2 && !(items.length === 1 && items[0].legend)) return 0;
  const g = el("g", { class: "chart-legend" }, svg);
  let x = x0, y = 12, rows = 1;
  for (const s of items) {
    const wEst = 18 + s.label.length * 6.4;
    if (x > x0 && x + wEst > x0 + width) { x = x0; y += 15; rows++; }
    el("rect", { x, y: y - 8, width: 10, height: 10, fill: s.color, stroke: s.color, "data-series": s.id }, g);
    const t = el("text", { x: x + 14, y: y + 1, "data-series": s.id }, g);
    t.textContent = s.label;
    x += wEst + 12;
  }
  return rows * 15 + 4;
}

function emptyChart(svg, w, h, text) {
  el("text", { x: w / 2, y: h / 2, "text-anchor": "middle", class: "empty" }, svg).textContent = text;
}

// ---- x-y curves ----

// series [{id, label, color, points: [[x, y], ...], dash?}] (y null: not measured, a gap);
// opts {xLabel, yLabel, logX, logY, xTicks: [values to label], xFmt, yFmt, emptyText}.
// Every point is a <circle> carrying its own values (data-x, data-y): what it shows is
// readable without inverting the scales.
export function drawXY(svg, series, opts = {}) {
  const [w, h] = size(svg);
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const pts = series.flatMap((s) => s.points.filter(([x, y]) => x !== null && y !== null && Number.isFinite(x) && Number.isFinite(y)));
  if (pts.length === 0) {
    emptyChart(svg, w, h, opts.emptyText || "no data");
    return;
  }
  const m = { l: 62, r: 14, t: 10, b: opts.xLabel ? 36 : 22 };
  m.t += legendRows(svg, series, m.l, w - m.l - m.r);
  const pw = w - m.l - m.r, ph = h - m.t - m.b;
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  const xmin = Math.min(...xs), xmax = Math.max(...xs);
  const ax = opts.logX
    ? logAxis(Math.max(Math.min(...xs.filter((v) => v > 0)), 1e-9), Math.max(xmax, 1e-9))
    : xmin === xmax ? { lo: xmin - 1, hi: xmax + 1, ticks: [xmin], f: (v) => (v - xmin + 1) / 2, log: false }
      : { lo: xmin, hi: xmax, ticks: null, f: (v) => (v - xmin) / (xmax - xmin), log: false };
  const pos = ys.filter((v) => v > 0);
  const ay = opts.logY && pos.length
    ? logAxis(Math.min(...pos), Math.max(...pos))
    : linAxis(Math.min(0, ...ys), Math.max(...ys) * 1.05);
  svg.dataset.yscale = ay.log ? "log" : "linear";
  svg.dataset.xscale = ax.log ? "log" : "linear";
  const X = (v) => m.l + pw * ax.f(v);
  const Y = (v) => m.t + ph - ph * Math.min(1, Math.max(0, ay.f(v)));
  const yf = opts.yFmt || fmtAxis, xf = opts.xFmt || fmtAxis;
  for (const v of ay.ticks) {
    const y = Y(v);
    el("line", { x1: m.l, x2: m.l + pw, y1: y, y2: y, class: v === ay.ticks[0] ? "axis" : "grid-line" }, svg);
    el("text", { x: m.l - 6, y: y + 4, "text-anchor": "end", class: "ytick", "data-v": String(v) }, svg).textContent = yf(v);
  }
  let xticks = opts.xTicks || ax.ticks;
  if (!xticks) xticks = [0, 1, 2, 3, 4, 5].map((i) => xmin + ((xmax - xmin) * i) / 5);
  if (xticks.length > 12) xticks = xticks.filter((_, i) => i % Math.ceil(xticks.length / 12) === 0);
  for (const v of xticks) {
    const x = X(v);
    el("line", { x1: x, x2: x, y1: m.t, y2: m.t + ph, class: "grid-line" }, svg);
    el("text", { x, y: m.t + ph + 14, "text-anchor": "middle", class: "xtick", "data-v": String(v) }, svg).textContent = xf(v);
  }
  if (opts.xLabel)
    el("text", { x: m.l + pw / 2, y: h - 4, "text-anchor": "middle", class: "axis-label" }, svg).textContent = opts.xLabel;
  if (opts.yLabel) {
    const t = el("text", { x: 12, y: m.t + ph / 2, "text-anchor": "middle", class: "axis-label",
      transform: `rotate(-90 12 ${m.t + ph / 2})` }, svg);
    t.textContent = opts.yLabel;
  }
  for (const s of series) {
    const g = el("g", { "data-series": s.id, class: "series" }, svg);
    let run = [];
    const flush = () => {
      if (run.length > 1)
        el("polyline", { points: run.join(" "), stroke: s.color, ...(s.dash ? { "stroke-dasharray": s.dash } : {}) }, g);
      run = [];
    };
    for (const [x, y] of s.points) {
      if (x === null || y === null || !Number.isFinite(x) || !Number.isFinite(y)) { flush(); continue; }
      run.push(`${X(x).toFixed(1)},${Y(y).toFixed(1)}`);
    }
    flush();
    if (s.points.length <= 200 || opts.dots)
      for (const [x, y] of s.points) {
        if (x === null || y === null || !Number.isFinite(x) || !Number.isFinite(y)) continue;
        const c = el("circle", { cx: X(x).toFixed(1), cy: Y(y).toFixed(1), r: 2.5, fill: s.color, "data-x": String(x), "data-y": String(y) }, g);
        el("title", {}, c).textContent = `${s.label ? s.label + ": " : ""}${xf(x)} → ${yf(y)}`;
      }
    else
      // Long series (a run's samples): the values on the group, not a circle each.
      g.dataset.points = JSON.stringify(s.points);
  }
}

// ---- latency histograms ----

// One histogram: buckets [[lo_ns, hi_ns, count], ...]; its counts on a logarithmic axis
// unless opts.linear (the tail's few echoes are bars, not a line on the floor).
export function drawHistogram(svg, buckets, emptyText, opts = {}) {
  const sets = buckets && buckets.length ? [{ id: "h", label: "", color: null, buckets }] : [];
  drawHistograms(svg, sets, { ...opts, emptyText });
}

// Several histograms overlaid (runs compared): sets [{id, label, color, buckets}], each
// bucket a <rect> carrying data-lo, data-hi and data-n; the time axis logarithmic, the
// count axis too (opts.linear: not).
export function drawHistograms(svg, sets, opts = {}) {
  const [w, h] = size(svg);
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const all = sets.flatMap((s) => s.buckets || []).filter((b) => b[2] > 0);
  if (all.length === 0) {
    emptyChart(svg, w, h, opts.emptyText || "no data");
    return;
  }
  const m = { l: 58, r: 10, t: 10, b: 34 };
  m.t += legendRows(svg, sets, m.l, w - m.l - m.r);
  const pw = w - m.l - m.r, ph = h - m.t - m.b;
  const lo = Math.max(1, Math.min(...all.map((b) => b[0])));
  const hi = Math.max(...all.map((b) => b[1]));
  const l0 = Math.log10(lo), l1 = Math.log10(Math.max(hi, lo * 10));
  const x = (ns) => m.l + (pw * (Math.log10(Math.max(ns, lo)) - l0)) / (l1 - l0);
  const cmax = Math.max(...all.map((b) => b[2]));
  const ay = opts.linear ? linAxis(0, cmax) : logAxis(1, cmax, 0.5);
  svg.dataset.yscale = ay.log ? "log" : "linear";
  const Y = (n) => m.t + ph - ph * Math.min(1, Math.max(0, ay.f(n)));
  for (const v of ay.ticks) {
    const y = Y(v);
    el("line", { x1: m.l, x2: m.l + pw, y1: y, y2: y, class: "grid-line" }, svg);
    el("text", { x: m.l - 6, y: y + 4, "text-anchor": "end", class: "ytick", "data-v": String(v) }, svg).textContent = fmtAxis(v);
  }
  el("line", { x1: m.l, x2: m.l + pw, y1: m.t + ph, y2: m.t + ph, class: "axis" }, svg);
  for (let d = Math.ceil(l0); d <= Math.floor(l1); d++) {
    const xx = x(Math.pow(10, d));
    el("line", { x1: xx, x2: xx, y1: m.t, y2: m.t + ph, class: "grid-line" }, svg);
    const us = Math.pow(10, d) / 1000;
    el("text", { x: xx, y: h - 18, "text-anchor": "middle" }, svg).textContent =
      us >= 1 ? `${fmtAxis(us)} µs` : `${Math.pow(10, d)} ns`;
  }
  el("text", { x: m.l + pw / 2, y: h - 3, "text-anchor": "middle" }, svg).textContent =
    ay.log ? "latency (logarithmic); count (logarithmic)" : "latency (logarithmic)";
  const overlay = sets.length > 1;
  for (const s of sets) {
    const g = el("g", { "data-series": s.id, class: "series" }, svg);
    for (const [blo, bhi, n] of s.buckets) {
      if (!(n > 0)) continue;
      const x0 = x(blo), x1 = Math.max(x(bhi), x0 + 1.5);
      const top = Y(n);
      const attrs = { x: x0.toFixed(2), y: top.toFixed(2), width: (x1 - x0).toFixed(2), height: (m.t + ph - top).toFixed(2),
        class: "bar", "data-lo": String(blo), "data-hi": String(bhi), "data-n": String(n) };
      // Overlaid: each run's colour, see-through, outlined, so that every run shows.
      if (overlay || s.color) Object.assign(attrs, { fill: s.color, stroke: s.color, "fill-opacity": overlay ? "0.35" : "1" });
      const r = el("rect", attrs, g);
      el("title", {}, r).textContent = `${s.label ? s.label + ": " : ""}${fmt(blo / 1000, 2)}–${fmt(bhi / 1000, 2)} µs: ${n.toLocaleString("en-US")}`;
    }
  }
}

// ---- export ----

// The properties the stylesheet gives a chart's parts: written onto the copy as SVG
// presentation attributes (not style="": the page's content security policy refuses inline
// styles), so that the file looks as the page does without the page's CSS.
const STYLED = ["fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray", "opacity",
  "font-family", "font-size", "font-weight"];

// The chart as a standalone SVG document (text): its size, a background of the panel's
// colour, every part's computed style inline.
export function svgText(svg) {
  return svgDoc(svg).text;
}

// {text, w, h}: the document and its size in CSS pixels.
function svgDoc(svg) {
  const [w, h] = size(svg);
  const copy = svg.cloneNode(true);
  const src = [svg, ...svg.querySelectorAll("*")];
  const dst = [copy, ...copy.querySelectorAll("*")];
  for (let i = 1; i < src.length; i++) {
    const cs = getComputedStyle(src[i]);
    for (const p of STYLED) {
      const v = cs.getPropertyValue(p);
      if (v) dst[i].setAttribute(p, v);
    }
    dst[i].removeAttribute("class");
  }
  copy.setAttribute("xmlns", SVG);
  copy.setAttribute("width", String(Math.round(w)));
  copy.setAttribute("height", String(Math.round(h)));
  copy.setAttribute("viewBox", `0 0 ${w} ${h}`);
  copy.removeAttribute("class");
  copy.removeAttribute("style");
  // A chart whose legend is the page's (the live rates'): drawn into the file, above it.
  let top = 0;
  if (svg.wrLegend && svg.wrLegend.length && !copy.querySelector(".chart-legend, [data-legend]")) {
    const g = document.createElementNS(SVG, "g");
    g.setAttribute("data-legend", "");
    const probe = document.createElementNS(SVG, "svg");
    top = legendRows(probe, svg.wrLegend.map((x) => ({ ...x, legend: true })), 58, w - 68);
    for (const e of [...probe.querySelectorAll("rect, text")]) {
      if (e.tagName === "text") {
        e.setAttribute("fill", getComputedStyle(svg.querySelector("text") || svg).getPropertyValue("fill") || "#000");
        e.setAttribute("font-family", getComputedStyle(svg).getPropertyValue("font-family"));
        e.setAttribute("font-size", "11px");
      }
      g.appendChild(e);
    }
    const body = document.createElementNS(SVG, "g");
    body.setAttribute("transform", `translate(0 ${top})`);
    while (copy.firstChild) body.appendChild(copy.firstChild);
    copy.append(body, g);
  }
  const H = h + top;
  copy.setAttribute("height", String(Math.round(H)));
  copy.setAttribute("viewBox", `0 0 ${w} ${H}`);
  let bg = "#ffffff";
  for (let e = svg; e && e.nodeType === 1; e = e.parentElement) {
    const c = getComputedStyle(e).backgroundColor;
    if (c && c !== "transparent" && !/rgba\(.*, 0\)$/.test(c)) { bg = c; break; }
  }
  const back = document.createElementNS(SVG, "rect");
  for (const [k, v] of Object.entries({ x: 0, y: 0, width: w, height: H, fill: bg })) back.setAttribute(k, v);
  copy.insertBefore(back, copy.firstChild);
  return { text: '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(copy), w: Math.round(w), h: Math.round(H) };
}

// The chart as PNG: the SVG text drawn by the browser into an <img>, that onto a canvas
// (@scale device pixels per CSS pixel).  @return a Blob of type image/png.
export async function pngBlob(svg, scale = 2) {
  const { text, w, h } = svgDoc(svg);
  const url = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = Math.round(w * scale);
    c.height = Math.round(h * scale);
    const ctx = c.getContext("2d");
    ctx.drawImage(img, 0, 0, c.width, c.height);
    return await new Promise((res, rej) => c.toBlob((b) => (b ? res(b) : rej(new Error("the canvas gave no PNG"))), "image/png"));
  } finally {
    URL.revokeObjectURL(url);
  }
}

// Save @blob as @filename (a download); the button that asked keeps the file's URL a
// minute (data-url) so that a test can read back what was saved.
function save(blob, filename, button) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  if (button) button.dataset.url = url;
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

// Two buttons, "SVG" and "PNG", that save the chart @svg as @name.svg / @name.png.
export function exportButtons(svg, name, onError = (e) => console.warn(e)) {
  const box = document.createElement("span");
  box.className = "chart-export";
  for (const kind of ["svg", "png"]) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = kind.toUpperCase();
    b.dataset.export = kind;
    const title = svg.getAttribute("aria-label") || name;
    b.setAttribute("aria-label", `Save ${title} as ${kind.toUpperCase()}`);
    b.addEventListener("click", async () => {
      const n = typeof name === "function" ? name() : name;
      try {
        if (kind === "svg") save(new Blob([svgText(svg)], { type: "image/svg+xml" }), `${n}.svg`, b);
        else save(await pngBlob(svg), `${n}.png`, b);
      } catch (e) {
        onError(e);
      }
    });
    box.append(b);
  }
  return box;
}
