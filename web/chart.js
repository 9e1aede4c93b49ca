// SPDX-License-Identifier: BSD-3-Clause
// Small SVG charts for the console: time series of rates, and the latency histogram.
// No library: a few hundred points per series, redrawn once a second.

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

// The latency histogram: buckets [[lo_ns, hi_ns, count], ...] on a logarithmic time axis.
export function drawHistogram(svg, buckets, emptyText) {
  const [w, h] = size(svg);
  const m = { l: 58, r: 10, t: 10, b: 34 };
  const pw = w - m.l - m.r, ph = h - m.t - m.b;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  if (!buckets || buckets.length === 0) {
    el("text", { x: w / 2, y: h / 2, "text-anchor": "middle", class: "empty" }, svg).textContent = emptyText;
    return;
  }
  const lo = Math.max(1, Math.min(...buckets.map((b) => b[0])));
  const hi = Math.max(...buckets.map((b) => b[1]));
  const l0 = Math.log10(lo), l1 = Math.log10(Math.max(hi, lo * 10));
  const x = (ns) => m.l + (pw * (Math.log10(Math.max(ns, lo)) - l0)) / (l1 - l0);
  const cmax = niceCeil(Math.max(...buckets.map((b) => b[2])));
  for (let i = 0; i <= 4; i++) {
    const y = m.t + ph - (ph * i) / 4;
    el("line", { x1: m.l, x2: m.l + pw, y1: y, y2: y, class: i ? "grid-line" : "axis" }, svg);
    el("text", { x: m.l - 6, y: y + 4, "text-anchor": "end" }, svg).textContent = fmtAxis((cmax * i) / 4);
  }
  for (let d = Math.ceil(l0); d <= Math.floor(l1); d++) {
    const xx = x(Math.pow(10, d));
    el("line", { x1: xx, x2: xx, y1: m.t, y2: m.t + ph, class: "grid-line" }, svg);
    const us = Math.pow(10, d) / 1000;
    el("text", { x: xx, y: h - 18, "text-anchor": "middle" }, svg).textContent =
      us >= 1 ? `${fmtAxis(us)} µs` : `${Math.pow(10, d)} ns`;
  }
  el("text", { x: m.l + pw / 2, y: h - 3, "text-anchor": "middle" }, svg).textContent = "latency (logarithmic)";
  for (const [blo, bhi, n] of buckets) {
    const x0 = x(blo), x1 = Math.max(x(bhi), x0 + 1.5);
    const bh = (ph * n) / cmax;
    const r = el("rect", { x: x0, y: m.t + ph - bh, width: x1 - x0, height: bh, class: "bar" }, svg);
    el("title", {}, r).textContent = `${fmt(blo / 1000, 2)}–${fmt(bhi / 1000, 2)} µs: ${n.toLocaleString("en-US")}`;
  }
}
