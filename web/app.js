// SPDX-License-Identifier: BSD-3-Clause
// The wirerate web console: ports, live rates, streams, traffic control, latency, events
// (benchmarks and captures when the server has their methods), all through the server's own
// JSON-RPC API over /ws (doc/web.md).  Plain ES modules, no build step, no third-party code.

import { Rpc, RpcError } from "./rpc.js";
import { node } from "./dom.js";
import { drawLines, drawHistogram, PALETTE, fmt } from "./chart.js";
import { setupRuns, refreshRuns, benchCharts, progressLine, wireExports } from "./runs.js";
import { session } from "./session.js";
import { initBuilder } from "./builder.js";
import { initCaptures, refreshCaptures, captureStart } from "./captures.js";
import { initControls, rowActions, renderRowControls, startParams, clearCounters } from "./controls.js";

const $ = (id) => document.getElementById(id);
const HISTORY_S = 600;          // rates kept for the charts: the last ten minutes
const TICK_MS = 1000;           // statistics once a second
const CHECK_DELAY_MS = 250;     // streams.check after the typing pauses this long

const state = {
  info: null,
  methods: new Set(),
  session: null,                // the session this console acts as
  ports: [],
  streams: [],                  // streams.list rows
  traffic: "idle",
  stats: null,
  prev: new Map(),              // row key -> counters at the previous sample
  rates: new Map(),             // row key -> the last interval's rates
  history: new Map(),           // row key -> [[t, rates], ...]
  hidden: new Set(session.get("chart.hidden", [])),   // series switched off in the legends (kept)
  view: "traffic",
  ready: false,
  tick: 0,
  checkSeq: 0,
  lastCheck: null,
  source: null,
  reconnectMs: 1000,
  capturesRunning: false,       // a capture armed or running (its view refreshes each tick)
};

const rpc = new Rpc();
const builder = initBuilder(rpc);

// ---- helpers ----

function showError(msg) {
  $("error-text").textContent = msg;
  $("error-banner").hidden = false;
}

function showBanner(msg) {
  $("banner-text").textContent = msg;
  $("banner").hidden = false;
}

// "method: message", once: the server's own messages often start with the method already.
function errorText(method, e) {
  const msg = String(e && e.message !== undefined ? e.message : e);
  return msg.startsWith(`${method}:`) ? msg : `${method}: ${msg}`;
}

async function call(method, params = {}) {
  try {
    return await rpc.call(method, params);
  } catch (e) {
    showError(errorText(method, e));
    throw e;
  }
}

function randomName() {
  const b = new Uint8Array(4);
  crypto.getRandomValues(b);
  return "web-" + Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

// ---- connection, login, session ----

function setConn(text, kind) {
  const p = $("conn-state");
  p.textContent = text;
  p.className = `pill ${kind}`;
}

async function connect() {
  state.ready = false;
  setConn("connecting", "warn");
  try {
    await rpc.connect();
  } catch {
    scheduleReconnect();
    return;
  }
  state.reconnectMs = 1000;
  const token = sessionStorage.getItem("wr.token");
  if (token !== null) {
    try {
      await rpc.call("auth.login", { token });
    } catch (e) {
      sessionStorage.removeItem("wr.token");
      showLogin(e instanceof RpcError ? e.message : "the server closed the connection");
      return;
    }
  }
  try {
    state.info = await rpc.call("server.info");
  } catch (e) {
    if (e instanceof RpcError && e.code === -32005) showLogin("");
    return;
  }
  state.methods = new Set(state.info.methods || []);
  state.session = state.info.session;
  $("server-meta").textContent = `${state.info.name} ${state.info.version} · ${state.info.dpdk_version} · pid ${state.info.pid}`;
  await rejoin();
  await rpc.call("events.subscribe");
  const ev = await rpc.call("events.poll", { since: Math.max(0, state.info.last_event - 50) });
  for (const e of ev.events) logEvent(e);
  state.ready = true;
  setConn("connected", "ok");
  if ($("yaml").value.trim() !== "") scheduleCheck();   // the text kept across a reload, checked
  await refreshAll();
  builder.connected();
  setupOptionalViews();
}

function scheduleReconnect() {
  setConn(`disconnected: retrying in ${state.reconnectMs / 1000} s`, "bad");
  setTimeout(connect, state.reconnectMs);
  state.reconnectMs = Math.min(state.reconnectMs * 2, 10000);
}

rpc.onClose = () => {
  state.ready = false;
  if (!$("login-dialog").open) scheduleReconnect();
};
rpc.onEvent = (e) => onEvent(e);

function showLogin(why) {
  setConn("login needed", "warn");
  $("login-error").textContent = why || "";
  if (!$("login-dialog").open) $("login-dialog").showModal();
  $("login-token").focus();
}

$("login-form").addEventListener("submit", () => {
  sessionStorage.setItem("wr.token", $("login-token").value);
  $("login-token").value = "";
  rpc.close();
  setTimeout(connect, 50);
});

// A reload of the page acts as its session again: its secret is kept in sessionStorage.
async function rejoin() {
  const name = sessionStorage.getItem("wr.session");
  const secret = sessionStorage.getItem("wr.secret");
  if (!name || !secret) return;
  try {
    const r = await rpc.call("ports.acquire", { ports: [], session: name, secret });
    remember(r);
  } catch {
    sessionStorage.removeItem("wr.session");
    sessionStorage.removeItem("wr.secret");
  }
}

function remember(r) {
  state.session = r.session;
  sessionStorage.setItem("wr.session", r.session);
  if (r.secret) sessionStorage.setItem("wr.secret", r.secret);
}

async function takeControl() {
  const others = state.ports.filter((p) => p.owner && p.owner !== state.session);
  let force = false;
  if (others.length > 0) {
    const who = [...new Set(others.map((p) => p.owner))].join(", ");
    $("confirm-text").textContent =
      `Port${others.length > 1 ? "s" : ""} ${others.map((p) => p.index).join(", ")} ` +
      `${others.length > 1 ? "are" : "is"} owned by ${who}. Taking over lets this console change ` +
      `the traffic; running traffic keeps running, and every console sees that you took over.`;
    const dlg = $("confirm-dialog");
    dlg.returnValue = "";
    dlg.showModal();
    const ok = await new Promise((res) => dlg.addEventListener("close", () => res(dlg.returnValue === "ok"), { once: true }));
    if (!ok) return;
    force = true;
  }
  const name = sessionStorage.getItem("wr.session") || randomName();
  const params = { session: name, force };
  const secret = sessionStorage.getItem("wr.secret");
  if (secret && name === sessionStorage.getItem("wr.session")) params.secret = secret;
  try {
    remember(await call("ports.acquire", params));
  } catch {
    return;
  }
  await refreshPorts();
}

async function release() {
  try {
    await call("ports.release", {});
  } catch {
    return;
  }
  await refreshPorts();
}

// ---- refreshing ----

async function refreshAll() {
  await Promise.all([refreshPorts(), refreshStreams(), refreshSource()]);
  renderStatic();
}

async function refreshPorts() {
  if (!rpc.open) return;
  state.ports = await rpc.call("ports.info");
  renderOwnership();
  renderPorts();
}

async function refreshStreams() {
  if (!rpc.open) return;
  const r = await rpc.call("streams.list");
  state.traffic = r.state;
  const names = r.streams.map((s) => s.name).join("\n");
  const changed = names !== state.streams.map((s) => s.name).join("\n");
  state.streams = r.streams;
  if (changed) buildStreamRows();
  renderStreams();
  renderTraffic();
}

async function refreshSource() {
  if (!rpc.open) return;
  const r = await rpc.call("streams.list", { source: true });
  state.source = r.source;
  const info = $("loaded-info");
  if (!r.source) {
    info.textContent = "Nothing loaded.";
    $("btn-copy-loaded").hidden = true;
  } else {
    info.textContent = `${r.source.file}: ${r.streams.length} stream${r.streams.length === 1 ? "" : "s"} (${r.streams.map((s) => s.name).join(", ")})`;
    $("btn-copy-loaded").hidden = false;
  }
}

function myPorts() {
  return state.ports.filter((p) => p.owner === state.session).map((p) => p.index);
}

// This console may change the traffic: it owns a port and every port the loaded streams use.
function canControl() {
  const mine = new Set(myPorts());
  if (mine.size === 0) return false;
  return state.streams.every((s) => mine.has(s.port));
}

function renderOwnership() {
  const mine = myPorts();
  const pill = $("owner-state");
  $("session").textContent = `session: ${state.session ?? "–"}`;
  if (mine.length === state.ports.length && mine.length > 0) {
    pill.textContent = "in control";
    pill.className = "pill ok";
  } else if (mine.length > 0) {
    pill.textContent = `in control of port ${mine.join(", ")}`;
    pill.className = "pill ok";
  } else {
    const owners = [...new Set(state.ports.map((p) => p.owner).filter((o) => o))];
    pill.textContent = owners.length ? `viewer: ${owners.join(", ")} in control` : "viewer: nobody in control";
    pill.className = "pill";
  }
  $("take-control").hidden = mine.length === state.ports.length && mine.length > 0;
  $("release").hidden = mine.length === 0;
  renderControls();
}

function renderControls() {
  const ok = state.ready && canControl();
  const running = state.traffic === "running";
  for (const e of document.querySelectorAll("[data-owner-only]")) {
    let dis = !ok;
    if (e.dataset.needs === "running") dis = dis || !running;
    if (e.dataset.needs === "stopped") dis = dis || running;
    e.disabled = dis;
    e.title = ok ? "" : "Take control to change the traffic";
  }
  const bench = state.traffic === "bench";   // a benchmark job has the ports
  $("btn-start").disabled = !ok || running || bench || state.streams.length === 0;
  $("btn-stop").disabled = !ok || !running;
  $("btn-pause").disabled = !ok || !running;
  $("btn-resume").disabled = !ok || !running;
  $("btn-load").disabled = !ok || running || bench;
  for (const e of document.querySelectorAll("#bench-form [data-owner-only]")) e.disabled = !ok || running || bench;
  renderRowControls();
}

// ---- statistics ----

function rowRates(key, row, t) {
  const rx = row.rx_pkts ?? 0;
  const cur = { t, d: row.duration_s ?? 0, tx: row.tx_pkts ?? 0, b: row.tx_bytes ?? 0,
    b1: row.tx_bytes_l1 ?? 0, rx, rb: row.rx_bytes };
  const p = state.prev.get(key);
  state.prev.set(key, cur);
  if (!p || cur.tx < p.tx || cur.rx < p.rx || t <= p.t) return null;
  const dt = t - p.t;
  const dd = cur.d - p.d;
  const txdt = dd > 0.05 ? dd : dt;    // TX over its own (TSC-timed) duration
  const avg = cur.tx > 0 ? cur.b / cur.tx : (row.size_max ?? 64);
  const rxd = cur.rx - p.rx;
  const rxb = cur.rb !== undefined && p.rb !== undefined ? cur.rb - p.rb : rxd * avg;
  return {
    // The counters the figures come from: two stats.get documents, the same interval.
    from: { tx: p.tx, d: p.d, t: p.t }, to: { tx: cur.tx, d: cur.d, t },
    tx_kpps: (cur.tx - p.tx) / txdt / 1e3,
    tx_l2: ((cur.b - p.b) * 8) / txdt / 1e6,
    tx_l1: ((cur.b1 - p.b1) * 8) / txdt / 1e6,
    rx_kpps: rxd / dt / 1e3,
    rx_l2: (rxb * 8) / dt / 1e6,
    rx_l1: ((rxb + 20 * rxd) * 8) / dt / 1e6,
  };
}

function record(key, t, r) {
  state.rates.set(key, r);
  if (r === null) return;
  let h = state.history.get(key);
  if (!h) state.history.set(key, (h = []));
  h.push([t, r]);
  while (h.length > 0 && h[0][0] < t - HISTORY_S) h.shift();
}

async function tick() {
  const started = performance.now();
  try {
    if (state.ready && rpc.open) {
      state.tick++;
      const hist = state.view === "latency";
      const [stats] = await Promise.all([
        rpc.call("stats.get", hist ? { histogram: true } : {}),
        refreshStreams(),
      ]);
      if (state.tick % 5 === 0) await refreshPorts();
      // A running capture's counts, live while its view is open.
      if (state.view === "captures" && state.capturesRunning) await refreshCaptures();
      // Hosts change state on their own (leases, neighbours' ages): live while shown.
      if (state.view === "hosts") await refreshHosts();
      onStats(stats);
    }
  } catch {
    // a closed connection: connect() takes over
  }
  setTimeout(tick, Math.max(0, TICK_MS - (performance.now() - started)));
}

function onStats(st) {
  state.stats = st;
  const t = st.time;
  if (t !== undefined && st.state !== "idle") {
    for (const p of st.ports) record(`port:${p.name}`, t, rowRates(`port:${p.name}`, p, t));
    for (const s of st.streams) record(`stream:${s.name}`, t, rowRates(`stream:${s.name}`, s, t));
  }
  // The charts' clock runs on while a benchmark holds the engine (its documents have no
  // rows): what was drawn scrolls away with time, it is not wiped.
  if (t !== undefined) {
    state.now = t;
    for (const [k, h] of state.history) {
      while (h.length > 0 && h[0][0] < t - HISTORY_S) h.shift();
      if (h.length === 0) state.history.delete(k);
    }
  }
  renderPorts();
  renderStreams();
  renderTcp(st);
  renderTraffic();   // its stop reason is this document's, not the one before
  renderCharts();
  if (state.view === "latency") renderLatency();
}

// ---- rendering: traffic view ----

// The tcp: classes (stats.get's "tcp", doc/tcp.md): a row per class and side, rates from the
// counters' change since the previous document.
const tcpPrev = new Map();

function renderTcp(st) {
  const classes = st.tcp && st.tcp.classes ? st.tcp.classes : [];
  $("tcp-panel").hidden = classes.length === 0;
  const tb = $("tcp-table").tBodies[0];
  tb.replaceChildren();
  for (const c of classes) {
    for (const side of ["client", "server"]) {
      const x = c[side];
      if (!x) continue;
      const key = `${c.name}:${side}`;
      const old = tcpPrev.get(key);
      const dt = old && st.time > old.time ? st.time - old.time : 0;
      const per = (f, k = 1) => (dt > 0 && x[f] >= old.x[f] ? ((x[f] - old.x[f]) * k) / dt : null);
      tcpPrev.set(key, { time: st.time, x });
      const fmt = (v, d = 1) => (v === null ? "–" : v.toFixed(d));
      const failed = x.failed_refused + x.failed_timeout + x.failed_reset + x.failed_other;
      const tr = node("tr", { dataset: { tcp: key } });
      const cell = (col, text, title) => node("td", title ? { class: "num", title, dataset: { col } } : { class: "num", dataset: { col } }, text);
      tr.append(node("th", { scope: "row" }, c.name), node("td", { class: "l" }, side),
                cell("rate", side === "client" ? (c.stopped ? "ended" : c.rate === 0 ? "unpaced" : fmt(c.rate)) : "–"),
                cell("cps", fmt(per("established"))),
                cell("active", Number(x.active).toLocaleString("en-US")),
                cell("established", Number(x.established).toLocaleString("en-US")),
                cell("failed", Number(failed).toLocaleString("en-US"),
                     `refused ${x.failed_refused}, timeout ${x.failed_timeout}, reset ${x.failed_reset}, other ${x.failed_other}`),
                cell("mbps-out", fmt(per("tx_bytes", 8e-6), 3)),
                cell("mbps-in", fmt(per("rx_bytes", 8e-6), 3)),
                cell("rexmit", Number(x.rexmit_segs).toLocaleString("en-US")));
      tb.append(tr);
    }
  }
}

function portStats(p) {
  const rows = state.stats && state.stats.ports ? state.stats.ports : [];
  return rows.find((r) => r.name === p.device) || null;
}

function setCells(tr, values) {
  for (const [col, v] of Object.entries(values)) {
    const td = tr.querySelector(`[data-col="${col}"]`);
    if (td && td.textContent !== v) td.textContent = v;
  }
}

// The interval a TX figure covers, as the counters gave it: the frames and the TX duration of
// the two stats.get documents it comes from (what the figure can be checked against).
function intervalOf(cell, r) {
  if (!cell || !r) return;
  cell.dataset.txFrom = String(r.from.tx);
  cell.dataset.txTo = String(r.to.tx);
  cell.dataset.dFrom = String(r.from.d);
  cell.dataset.dTo = String(r.to.d);
}

function renderPorts() {
  const tb = $("ports-table").tBodies[0];
  if (tb.rows.length !== state.ports.length) {
    tb.replaceChildren();
    for (const p of state.ports) {
      const tr = node("tr", { dataset: { row: `port:${p.index}` } });
      tr.append(node("th", { scope: "row" }, String(p.index)));
      for (const c of ["device", "link", "owner"]) tr.append(node("td", { class: "l", dataset: { col: c } }));
      for (const c of ["tx_kpps", "tx_l2", "tx_l1", "rx_kpps", "rx_l2", "rx_l1"])
        tr.append(node("td", { class: "num", dataset: { col: c } }));
      tr.append(rowActions("port", p.index));
      tb.append(tr);
    }
  }
  state.ports.forEach((p, i) => {
    const row = portStats(p);
    const r = row ? state.rates.get(`port:${row.name}`) : null;
    intervalOf(tb.rows[i].querySelector('[data-col="tx_kpps"]'), r);
    setCells(tb.rows[i], {
      device: `${p.device} (${p.driver})`,
      link: p.link_up ? `up, ${p.link_speed_mbps ? p.link_speed_mbps.toLocaleString("en-US") + " Mbps" : "speed unknown"}` : "down",
      owner: p.owner ? `${p.owner}${p.owner === state.session ? " (you)" : ""}${p.owner_connected ? "" : " (away)"}` : "nobody",
      tx_kpps: r ? fmt(r.tx_kpps) : "–", tx_l2: r ? fmt(r.tx_l2) : "–", tx_l1: r ? fmt(r.tx_l1) : "–",
      rx_kpps: r ? fmt(r.rx_kpps) : "–", rx_l2: r ? fmt(r.rx_l2) : "–", rx_l1: r ? fmt(r.rx_l1) : "–",
    });
  });
}

// The slider's range: 1 kpps to the line rate of the stream's frames, logarithmic.
function sliderMax(s) {
  const port = state.ports[s.port];
  const row = state.stats && state.stats.streams ? state.stats.streams.find((x) => x.name === s.name) : null;
  const size = row ? row.size_max : 64;
  if (port && port.link_speed_mbps > 0) return (port.link_speed_mbps * 1e6) / ((size + 20) * 8);
  return 100e6;
}

function toSlider(pps, max) {
  const lo = Math.log10(1000), hi = Math.log10(max);
  return Math.round((1000 * (Math.log10(Math.max(pps, 1000)) - lo)) / (hi - lo));
}

function fromSlider(v, max) {
  const lo = Math.log10(1000), hi = Math.log10(max);
  return Math.pow(10, lo + ((hi - lo) * v) / 1000);
}

function fmtRate(pps, written = "max") {
  if (pps === null || pps === undefined) return written ?? "max";
  if (pps >= 1e6) return `${fmt(pps / 1e6, 3)} Mpps`;
  return `${fmt(pps / 1e3, 1)} kpps`;
}

async function updateRate(name, rate) {
  try {
    await call("traffic.update", { streams: [name], rate });
  } catch {
    // shown in the error banner
  }
  await refreshStreams();
}

function buildStreamRows() {
  const tb = $("streams-table").tBodies[0];
  tb.replaceChildren();
  for (const s of state.streams) {
    const tr = node("tr", { dataset: { row: `stream:${s.name}` } });
    tr.append(node("th", { scope: "row" }, s.name));
    tr.append(node("td", { dataset: { col: "port" } }, String(s.port)));
    tr.append(node("td", { class: "l", dataset: { col: "state" } }));
    const rc = node("td");
    const wrap = node("div", { class: "rate-cell" });
    const out = node("output", { dataset: { col: "rate" } });
    const slider = node("input", { type: "range", min: "0", max: "1000", step: "1", "data-owner-only": "",
      "data-needs": "running", "aria-label": `Rate of ${s.name}`, dataset: { stream: s.name } });
    const text = node("input", { type: "text", placeholder: "e.g. 2 Mpps", "data-owner-only": "",
      "data-needs": "running", "aria-label": `Exact rate of ${s.name} (Enter applies)`, autocomplete: "off" });
    slider.addEventListener("input", () => { out.textContent = fmtRate(fromSlider(+slider.value, sliderMax(s))); });
    slider.addEventListener("change", () => updateRate(s.name, Math.round(fromSlider(+slider.value, sliderMax(s)))));
    text.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && text.value.trim()) {
        updateRate(s.name, text.value.trim());
        text.value = "";
      }
    });
    wrap.append(out, slider, text);
    rc.append(wrap);
    tr.append(rc);
    for (const c of ["tx_kpps", "tx_l2", "tx_l1", "tx_pkts", "rx_kpps", "rx_l2", "rx_l1"])
      tr.append(node("td", { class: "num", dataset: { col: c } }));
    tr.append(rowActions("stream", s.name));
    tb.append(tr);
  }
  renderControls();
}

// A paced stream more than this far below its set rate is flagged, as the Python client's
// summary() does (RATE_SHORT_PCT): the rate tests hold a paced stream within 0.1 %.
const RATE_SHORT_PCT = 1.0;

// wirerate run's line for a stream that sent below its set rate (target, achieved, why), from
// the results row; null when on its rate, unpaced or not measured yet.
function rateShortfall(row) {
  const target = row.target_kpps || 0;
  const kpps = row.kpps;
  if (!(target > 0) || kpps === null || kpps === undefined || kpps >= target * (1 - RATE_SHORT_PCT / 100)) return null;
  const why = [];
  if (row.pacer_skipped) why.push(`${row.pacer_skipped} frames skipped after stalls of the TX lcore (another thread on its CPU?)`);
  if (row.tx_full) why.push(`${row.tx_full} bursts refused by the TX port (its ring was full)`);
  if (row.alloc_fail) why.push(`${row.alloc_fail} frames without an mbuf (the pool was empty)`);
  if (!why.length) why.push("no frame skipped, no burst refused: the pacer's schedule fell short");
  const pct = (kpps / target - 1) * 100;
  return `stream ${row.name}: target ${target.toFixed(3)} Kpps, achieved ${kpps.toFixed(3)} Kpps (${pct >= 0 ? "+" : ""}${pct.toFixed(3)} %); ${why.join("; ")}`;
}

function renderRateNotes() {
  const ul = $("rate-notes");
  const rows = state.stats && state.stats.streams ? state.stats.streams : [];
  const lines = rows.map((r) => [r.name, rateShortfall(r)]).filter(([, t]) => t !== null);
  const text = lines.map(([, t]) => t).join("\n");
  if (ul.dataset.text === text) return;
  ul.dataset.text = text;
  ul.replaceChildren(...lines.map(([name, t]) => node("li", { dataset: { stream: name } }, `Below its set rate: ${t}`)));
}

function renderStreams() {
  renderRateNotes();
  const tb = $("streams-table").tBodies[0];
  state.streams.forEach((s, i) => {
    const tr = tb.rows[i];
    if (!tr) return;
    const r = state.rates.get(`stream:${s.name}`);
    const row = state.stats && state.stats.streams ? state.stats.streams.find((x) => x.name === s.name) : null;
    const short = row ? rateShortfall(row) : null;
    tr.classList.toggle("below", short !== null);
    const out = tr.querySelector('[data-col="rate"]');
    if (out) out.title = short ?? "";
    intervalOf(tr.querySelector('[data-col="tx_kpps"]'), r);
    setCells(tr, {
      state: s.state, rate: fmtRate(s.rate_pps, s.rate),
      tx_kpps: r ? fmt(r.tx_kpps) : "–", tx_l2: r ? fmt(r.tx_l2) : "–", tx_l1: r ? fmt(r.tx_l1) : "–",
      tx_pkts: row ? row.tx_pkts.toLocaleString("en-US") : "–",
      rx_kpps: r && row && row.rx_pkts !== undefined ? fmt(r.rx_kpps) : "–",
      rx_l2: r && row && row.rx_pkts !== undefined ? fmt(r.rx_l2) : "–",
      rx_l1: r && row && row.rx_pkts !== undefined ? fmt(r.rx_l1) : "–",
    });
    const slider = tr.querySelector('input[type="range"]');
    if (slider && document.activeElement !== slider && s.rate_pps !== null)
      slider.value = String(toSlider(s.rate_pps, sliderMax(s)));
  });
}

function renderTraffic() {
  const running = state.traffic === "running";
  const st = state.stats;
  $("traffic-state").textContent = state.traffic + (st && st.stop_reason && !running && state.traffic === "done" ? ` (${st.stop_reason})` : "");
  const tcp = st && st.tcp && st.tcp.classes ? st.tcp.classes : [];
  $("traffic-detail").textContent = state.streams.length === 0 && tcp.length > 0
    ? `${tcp.length} tcp class${tcp.length === 1 ? "" : "es"}: ${tcp.map((c) => c.name).join(", ")} (below)`
    : state.streams.length === 0
    ? "Nothing loaded: load streams in the Streams view."
    : `${state.streams.length} stream${state.streams.length === 1 ? "" : "s"} loaded: ${state.streams.map((s) => `${s.name} (${s.state})`).join(", ")}`;
  renderControls();
}

function series(kind) {
  const out = [];
  let i = 0;
  const add = (key, label, rxOnly) => {
    const h = state.history.get(key);
    const color = PALETTE[i++ % PALETTE.length];
    if (!h) return;
    if (rxOnly && !h.some(([, r]) => r.rx_kpps > 0)) return;
    out.push({ id: key, label, color, h });
  };
  // Every row with history, ports first: a document without rows (a benchmark's, or
  // idle after one) wipes nothing.
  const keys = [...state.history.keys()];
  for (const k of keys.filter((x) => x.startsWith("port:"))) add(k, `port ${k.slice(5)}`, kind === "rx");
  for (const k of keys.filter((x) => x.startsWith("stream:"))) add(k, `stream ${k.slice(7)}`, kind === "rx");
  return out;
}

function renderChart(kind) {
  const metric = $("chart-metric").value;
  const windowS = +$("chart-window").value;
  const field = `${kind}_${metric}`;
  const list = series(kind);
  const unit = metric === "kpps" ? "Kpps" : metric === "l2" ? "Mbps L2" : "Mbps L1";
  const shown = list.filter((s) => !state.hidden.has(`${kind}:${s.id}`))
    .map((s) => ({ id: s.id, label: s.label, color: s.color, points: s.h.map(([t, r]) => [t, r[field]]) }));
  drawLines($(`chart-${kind}`), shown, state.now ?? 0, windowS, state.traffic === "idle" ? "no traffic yet" : "no data");
  $(`chart-${kind}`).setAttribute("aria-label", `${kind === "tx" ? "Transmitted" : "Received"} ${unit} over the last ${windowS / 60} min`);
  const legend = $(`legend-${kind}`);
  legend.replaceChildren();
  for (const s of list) {
    const id = `${kind}:${s.id}`;
    const last = s.h.length ? s.h[s.h.length - 1][1][field] : null;
    const cb = node("input", { type: "checkbox" });
    cb.checked = !state.hidden.has(id);
    cb.addEventListener("change", () => {
      if (cb.checked) state.hidden.delete(id);
      else state.hidden.add(id);
      session.set("chart.hidden", [...state.hidden]);
      renderCharts();
    });
    const sw = node("span", { class: "swatch" });
    sw.style.background = s.color;
    const lab = node("label", { dataset: { series: s.id } });
    lab.append(cb, sw, document.createTextNode(`${s.label}: ${fmt(last)} ${unit}`));
    legend.append(lab);
  }
}

function renderCharts() {
  if (state.view !== "traffic") return;
  renderChart("tx");
  renderChart("rx");
}

// ---- rendering: latency view ----

function renderLatency() {
  const st = state.stats;
  const tb = $("latency-table").tBodies[0];
  const rows = st && st.streams ? st.streams.filter((s) => s.latency_ns !== undefined || s.lost !== undefined) : [];
  const running = st && st.state === "running";
  const away = rows.reduce((n, s) => n + Math.max(0, s.tx_pkts - (s.rx_pkts ?? 0)), 0);
  $("latency-note").textContent = running && rows.length
    ? `Running: ${away.toLocaleString("en-US")} frames sent and not back yet, in flight or lost; loss is counted when the run has ended (after its drain).`
    : "";
  tb.replaceChildren();
  const us = (ns) => (ns === null || ns === undefined ? "–" : fmt(ns / 1000, 2));
  for (const s of rows) {
    const l = s.latency_ns || {};
    const tr = node("tr", { dataset: { row: `latency:${s.name}` } });
    tr.append(node("th", { scope: "row" }, s.name));
    // While traffic runs, frames not back yet are on their way (or lost: the drain after
    // the last frame tells): no loss is shown before it.
    const loss = !running && s.tx_pkts > 0 ? (100 * (s.lost ?? 0)) / s.tx_pkts : null;
    for (const v of [s.tx_pkts.toLocaleString("en-US"), (s.rx_pkts ?? 0).toLocaleString("en-US"),
      running ? "–" : (s.lost ?? 0).toLocaleString("en-US"), loss === null ? "–" : fmt(loss, 4),
      (s.reordered ?? 0).toLocaleString("en-US"), (s.duplicated ?? 0).toLocaleString("en-US"),
      us(l.min), us(l.avg), us(l.p50), us(l.p99), us(l.max), us(s.jitter_ns)])
      tr.append(node("td", { class: "num" }, v));
    tb.append(tr);
  }
  if (rows.length === 0) {
    const tr = node("tr");
    tr.append(node("td", { colspan: "13", class: "l muted" }, "No stream with latency: true in this run."));
    tb.append(tr);
  }
  const sel = $("hist-stream");
  const names = rows.map((s) => s.name);
  if ([...sel.options].map((o) => o.value).join() !== names.join()) {
    const keep = sel.value || session.get("latency.stream", "");  // the one shown before a reload
    sel.replaceChildren(...names.map((n) => node("option", { value: n }, n)));
    if (names.includes(keep)) sel.value = keep;
  }
  const cur = rows.find((s) => s.name === sel.value);
  drawHistogram($("chart-hist"), cur ? cur.histogram : null, "no echoes yet");
  $("hist-note").textContent = cur && cur.histogram
    ? `${(cur.latency_ns?.n ?? 0).toLocaleString("en-US")} echoes of ${cur.name}; buckets as the percentiles use them (error ≤ 0.4 %).`
    : "";
}

// ---- streams view ----

function renderGutter(errLine) {
  const n = $("yaml").value.split("\n").length;
  const g = $("gutter");
  g.replaceChildren();
  for (let i = 1; i <= n; i++) {
    if (i === errLine) g.append(node("span", { class: "err", title: "the error is on this line" }, `▶${i}`));
    else g.append(document.createTextNode(String(i)));
    if (i < n) g.append(document.createTextNode("\n"));
  }
  const ta = $("yaml");
  ta.style.height = "auto";
  ta.style.height = `${ta.scrollHeight}px`;
}

let checkTimer = null;

function scheduleCheck() {
  session.set("editor", { name: $("file-name").value, text: $("yaml").value });
  renderGutter(state.lastCheck && !state.lastCheck.valid ? state.lastCheck.error.line : 0);
  clearTimeout(checkTimer);
  checkTimer = setTimeout(check, CHECK_DELAY_MS);
}

async function check() {
  const text = $("yaml").value;
  const box = $("check");
  if (!state.ready) return;
  if (text.trim() === "") {
    box.className = "check";
    box.textContent = "Type or open a stream file.";
    state.lastCheck = null;
    renderGutter(0);
    return;
  }
  const seq = ++state.checkSeq;
  let r;
  try {
    r = await rpc.call("streams.check", { yaml: text, name: $("file-name").value || "console.yaml" });
  } catch (e) {
    if (seq === state.checkSeq) {
      box.className = "check bad";
      box.textContent = e.message;
    }
    return;
  }
  if (seq !== state.checkSeq) return; // an older answer
  state.lastCheck = r;
  showCheck(r);
}

function showCheck(r) {
  const box = $("check");
  box.replaceChildren();
  if (r.valid) {
    box.className = "check ok";
    box.dataset.state = "valid";
    box.append(node("span", {}, `✓ Valid: ${r.streams.length} stream${r.streams.length === 1 ? "" : "s"}, seed ${r.seed}, sha256 ${r.sha256.slice(0, 16)}…`));
    $("btn-goto").hidden = true;
    renderGutter(0);
    const sum = $("summary");
    sum.replaceChildren();
    for (const seqp of r.sequences)
      sum.append(node("p", { class: "muted" }, `Port ${seqp.port} runs its streams as a sequence (next:), loops: ${seqp.loops || "for ever"}.`));
    for (const s of r.streams) sum.append(node("pre", { class: "summary", dataset: { stream: s.name } }, s.summary.trimEnd()));
    return;
  }
  const e = r.error;
  box.className = "check bad";
  box.dataset.state = "error";
  const where = e.line ? `Line ${e.line}, column ${e.col}` : "The file";
  box.append(node("span", { class: "where", dataset: { line: String(e.line), col: String(e.col) } }, `${where}${e.path ? ` (${e.path})` : ""}:`));
  box.append(node("pre", { dataset: { testid: "check-message" } }, e.message));
  if (e.line) {
    const line = $("yaml").value.split("\n")[e.line - 1] ?? "";
    box.append(node("pre", { "aria-hidden": "true" }, `${line}\n${" ".repeat(Math.max(0, e.col - 1))}^`));
  }
  $("btn-goto").hidden = !e.line;
  renderGutter(e.line);
}

function gotoError() {
  const r = state.lastCheck;
  if (!r || r.valid) return;
  const lines = $("yaml").value.split("\n");
  let off = 0;
  for (let i = 0; i < r.error.line - 1 && i < lines.length; i++) off += lines[i].length + 1;
  off += Math.max(0, r.error.col - 1);
  const ta = $("yaml");
  ta.focus();
  ta.setSelectionRange(off, off);
}

async function loadIntoServer() {
  const text = $("yaml").value;
  try {
    const r = await rpc.call("streams.load", { yaml: text, name: $("file-name").value || "console.yaml" });
    showBanner(`Loaded ${r.streams.length} stream${r.streams.length === 1 ? "" : "s"}: ${r.streams.map((s) => s.name).join(", ")}`);
  } catch (e) {
    if (e instanceof RpcError && e.code === -32000 && e.data) showCheck({ valid: false, error: e.data });
    else showError(errorText("streams.load", e));
  }
  await Promise.all([refreshStreams(), refreshSource()]);
}

// ---- events ----

function describe(e) {
  switch (e.type) {
    case "owner_changed": return `port ${e.port} taken over by ${e.to} (was ${e.from})`;
    case "owner_released": return `port ${e.port} released (${e.session} went away)`;
    case "stream_ended": return `stream ${e.stream} ended`;
    case "traffic_done": return `traffic done (${e.reason})`;
    case "traffic_started": return "traffic started";
    case "rate_updated": return "rates updated";
    case "link_down": return `port ${e.port}: link down`;
    case "link_up": return `port ${e.port}: link up`;
    case "streams_loaded": return `${e.session} loaded ${e.file}: ${e.streams.join(", ")}`;
    case "streams_removed": return `${e.session} removed streams`;
    case "bench_queued": return `${e.session} queued benchmark job ${e.job} (${e.kind})`;
    case "bench_started": return `benchmark job ${e.job} (${e.kind}) started`;
    case "bench_progress": return `job ${e.job}: ${e.line}`;
    case "bench_done": return `benchmark job ${e.job}: ${e.state}${e.error ? ": " + e.error : ""}`;
    default: return e.type;
  }
}

function logEvent(e) {
  const li = node("li", { dataset: { type: e.type } });
  li.append(node("time", { datetime: new Date(e.time * 1000).toISOString() }, new Date(e.time * 1000).toLocaleTimeString()));
  li.append(document.createTextNode(describe(e)));
  const ol = $("events");
  ol.prepend(li);
  while (ol.children.length > 500) ol.lastChild.remove();
}

async function onEvent(e) {
  logEvent(e);
  if (!state.ready) return;
  switch (e.type) {
    case "owner_changed":
      if (e.from === state.session) showError(`You lost control of port ${e.port}: ${e.to} took it over.`);
      else showBanner(`Port ${e.port} taken over by ${e.to} (was ${e.from}).`);
      await refreshPorts();
      break;
    case "owner_released":
      await refreshPorts();
      break;
    case "streams_loaded":
    case "streams_removed":
      await Promise.all([refreshStreams(), refreshSource()]);
      break;
    case "traffic_started":
    case "traffic_done":
    case "stream_ended":
    case "rate_updated":
      await refreshStreams();
      if (state.view === "captures") await refreshCaptures();
      break;
    case "link_up":
    case "link_down":
      await refreshPorts();
      break;
    case "bench_progress":
      showProgress({ job: e.job, state: "running", session: null, progress: { ...e }, line: e.line });
      break;
    case "bench_queued":
    case "bench_started":
      await refreshJobs();
      await refreshStreams();
      break;
    case "capture_done":
      await refreshCaptures();
      break;
    case "run_stored":
    case "runs_deleted":
      if (state.view === "runs") await refreshRuns();
      break;
    case "bench_done":
      await refreshJobs();
      await refreshStreams();
      if (e.job === state.myJob || e.job === state.shownJob || state.shownJob === undefined) {
        state.shownJob = e.job;
        await refreshJobs();
        await showResult(e.job);
      }
      break;
    default:
      break;
  }
}

// ---- optional views (methods the server may not have) ----

function setupOptionalViews() {
  // Captures and benchmarks appear with their methods (server.info lists them).
  const caps = state.methods.has("capture.start");
  $("captures-body").hidden = !caps;
  $("captures-missing").hidden = caps;
  if (caps) refreshCaptures();
  const hosts = state.methods.has("hosts.list");
  $("hosts-body").hidden = !hosts;
  $("hosts-missing").hidden = hosts;
  const has = state.methods.has("bench.start");
  $("bench-body").hidden = !has;
  $("bench-missing").hidden = has;
  if (has) refreshJobs();
  setupRuns(rpc, state.methods, { showError });
}

// ---- emulated hosts (hosts.list, hosts.counters) ----

const hostsPage = { offset: 0, next: null, limit: 100 };

function hostsQuery() {
  const f = $("hosts-form");
  const q = { port: Number(f.port.value || 0), offset: hostsPage.offset, limit: Number(f.limit.value) };
  if (f.group.value.trim()) q.group = f.group.value.trim();
  if (f.state.value) q.state = f.state.value;
  return q;
}

// A host's neighbour entries, one line each in a cell.
function neighCell(h, key) {
  const td = node("td", { class: "l", dataset: { col: key } });
  td.textContent = (h.neighbours || []).map((n) => {
    if (key === "gateway") return n.ip;
    if (key === "neigh-state") return n.state + (n.probes ? ` (${n.probes} asked)` : "");
    if (key === "gateway-mac") return n.mac || "–";
    return String(n.age_ms);
  }).join("\n") || "–";
  return td;
}

async function refreshHosts() {
  if (!rpc.open || !state.methods.has("hosts.list")) return;
  let r;
  try {
    r = await rpc.call("hosts.list", hostsQuery());
  } catch (e) {
    $("hosts-info").textContent = e.message || String(e);
    $("hosts-table").tBodies[0].replaceChildren();
    return;
  }
  hostsPage.next = r.next_offset;
  const tb = $("hosts-table").tBodies[0];
  tb.replaceChildren();
  for (const h of r.hosts) {
    const tr = node("tr", { dataset: { host: String(h.index), state: h.state } });
    tr.append(node("th", { scope: "row" }, String(h.index)));
    const v4 = h.ipv4 && h.ipv4.address ? `${h.ipv4.address}/${h.ipv4.prefix}` : "–";
    const v6 = (h.ipv6 || []).map((a) => `${a.address}/${a.prefix} ${a.origin}, ${a.state}`).join("\n") || "–";
    const vl = (h.vlans || []).map((v) => String(v.id)).join(".") || "–";
    const mods = Object.entries(h.modules || {}).map(([m, w]) => `${m}: ${w}`).join("\n") || "–";
    for (const [col, v] of [["group", h.group || "–"], ["state", h.state], ["mac", h.mac], ["vlans", vl],
                            ["ipv4", v4], ["ipv6", v6]])
      tr.append(node("td", { class: "l", dataset: { col } }, v));
    tr.append(neighCell(h, "gateway"), neighCell(h, "neigh-state"), neighCell(h, "gateway-mac"));
    const age = neighCell(h, "age");
    age.className = "num";
    tr.append(age, node("td", { class: "l", dataset: { col: "modules" } }, mods));
    tb.append(tr);
  }
  const n = (x) => x.toLocaleString("en-US");
  $("hosts-info").textContent = r.total === 0 ? `No hosts on port ${r.port}.`
    : r.matched === 0 ? `No host matches (${n(r.total)} on port ${r.port}).`
    : r.hosts.length === 0 ? `No more of the ${n(r.matched)} matching (${n(r.total)} on port ${r.port}).`
    : `Hosts ${n(r.offset + 1)} to ${n(r.offset + r.hosts.length)} of ${n(r.matched)} matching (${n(r.total)} on port ${r.port}).`;
  $("hosts-prev").disabled = hostsPage.offset === 0;
  $("hosts-next").disabled = r.next_offset === null;
  const c = await rpc.call("hosts.counters", {}).catch(() => ({ ports: [] }));
  const cb = $("host-counters-table").tBodies[0];
  cb.replaceChildren();
  for (const p of c.ports) {
    // The counts by state first; a counter of the same name (the engine's "hosts") once.
    const rows = [["hosts", p.hosts], ["up", p.up], ["pending", p.pending], ["failed", p.failed], ["idle", p.idle]];
    const seen = new Set(rows.map((r) => r[0]));
    rows.push(...Object.entries(p.counters || {}).filter(([k]) => !seen.has(k)));
    for (const [name, v] of rows) {
      const tr = node("tr", { dataset: { counter: `${p.port}:${name}` } });
      tr.append(node("th", { scope: "row" }, String(p.port)), node("td", { class: "l" }, name),
                node("td", { class: "num" }, Number(v).toLocaleString("en-US")));
      cb.append(tr);
    }
  }
}

// ---- benchmarks ----

const BENCH_OPTS = {
  rfc2544: ["tx-port", "rx-port", "sizes", "trial", "max-rate", "pdr", "search"],
  sweep: ["rx-port", "sizes", "duration"],
  rtt: ["sizes"],
};

// "--drain 0.05 --first-trial 1" as options; a value may be quoted ("1 Mpps").
function extraOptions(text) {
  const words = text.match(/"[^"]*"|'[^']*'|\S+/g) || [];
  const out = {};
  for (let i = 0; i < words.length; i += 2) {
    if (!words[i].startsWith("--") || i + 1 >= words.length)
      throw new Error(`More options: expected --OPTION VALUE, got "${words[i]}"`);
    out[words[i].slice(2)] = words[i + 1].replace(/^["']|["']$/g, "");
  }
  return out;
}

async function benchStart(ev) {
  ev.preventDefault();
  const f = $("bench-form");
  const kind = f.kind.value;
  let options;
  try {
    options = extraOptions(f.extra.value);
  } catch (e) {
    showError(e.message);
    return;
  }
  for (const name of BENCH_OPTS[kind]) {
    const v = f[name].value.trim();
    if (v && !(name === "search" && v === "binary")) options[name] = v;
  }
  if (kind === "rfc2544") {
    const tests = ["throughput", "latency", "loss", "b2b"].filter((t) => f[`t-${t}`].checked);
    if (tests.length && !(tests.length === 1 && tests[0] === "throughput")) options.tests = tests.join(",");
  }
  try {
    const st = await call("bench.start", { kind, options });
    state.myJob = st.job;
    state.shownJob = st.job;
    showProgress(st);
  } catch {
    // shown
  }
  await refreshJobs();
}

// The line's time left counts down between the server's progress lines, which come per trial
// and can be seconds apart: redrawn each second from the last estimate less its age (the
// server's eta_s is already counted down to the moment it answered).
const progressTick = { st: null, at: 0, timer: 0 };

function tickProgress() {
  const st = progressTick.st;
  const p = (st && st.progress) || {};
  if (!st || st.state !== "running" || !(p.eta_s > 0)) {
    clearInterval(progressTick.timer);
    progressTick.timer = 0;
    return;
  }
  const left = Math.max(p.eta_s - (performance.now() - progressTick.at) / 1000, 0);
  $("bench-status").textContent = progressLine({ ...st, progress: { ...p, eta_s: left } });
}

function showProgress(st) {
  progressTick.st = st;
  progressTick.at = performance.now();
  if (!progressTick.timer && st.state === "running") progressTick.timer = setInterval(tickProgress, 1000);
  const p = st.progress || {};
  $("bench-progress").hidden = false;
  $("btn-bench-cancel").hidden = !(st.state === "queued" || st.state === "running") || st.session !== state.session;
  const bar = $("bench-bar");
  bar.max = Math.max(p.estimate || 1, p.done || 0, 1);
  bar.value = p.done || 0;
  // The server's ETA spreads the time per trial so far over the trials its estimate still
  // counts: until an RFC 2544 size is done that count is the plan's, each search at its
  // longest (eta_bound: an upper bound, said as one); after, what the sizes done took.
  $("bench-status").textContent = progressLine(st);
  $("bench-line").textContent = st.line || "";
  $("bench-status").dataset.state = st.state;
  $("bench-status").dataset.job = String(st.job);
}

async function refreshJobs() {
  if (!rpc.open || !state.methods.has("bench.list")) return;
  const r = await rpc.call("bench.list");
  state.jobs = r.jobs;
  const tb = $("jobs-table").tBodies[0];
  tb.replaceChildren();
  for (const j of [...r.jobs].reverse()) {
    const tr = node("tr", { tabindex: "0", dataset: { job: String(j.job) } });
    tr.setAttribute("aria-selected", j.job === state.shownJob ? "true" : "false");
    tr.append(node("th", { scope: "row" }, String(j.job)));
    for (const v of [j.kind, j.state, j.session, j.stream_file]) tr.append(node("td", { class: "l" }, v));
    const open = () => { state.shownJob = j.job; refreshJobs(); showResult(j.job); };
    tr.addEventListener("click", open);
    tr.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); open(); } });
    tb.append(tr);
  }
  const cur = r.jobs.find((j) => j.state === "running" || j.state === "queued");
  if (cur) showProgress(cur);
  else {
    // The job shown has ended: its final state, not its last trial's ETA.
    const shown = $("bench-status").dataset.job;
    const last = r.jobs.find((j) => String(j.job) === shown) || r.jobs[r.jobs.length - 1];
    if (last && !$("bench-progress").hidden) showProgress(last);
  }
}

function cell(tr, col, text) {
  tr.append(node("td", { class: col === "size" ? "" : "num", dataset: { col } }, text));
}

function resultTable(kind, doc) {
  const head = $("result-table").tHead, body = $("result-table").tBodies[0];
  head.replaceChildren();
  body.replaceChildren();
  const hr = node("tr");
  const cols = kind === "rfc2544"
    ? [["size", "Frame size"], ["ports", "Ports"], ["ndr_pps", "NDR pps"], ["mbps_l1", "Mbps L1"], ["mbps_l2", "Mbps L2"],
      ["line_pct", "% of line"], ["pdr_pps", "PDR pps"], ["trials", "Trials"], ["converged", "Converged"]]
    : kind === "sweep"
      ? [["size", "Frame size"], ["kpps", "Kpps"], ["mbps_l1", "Mbps L1"], ["mbps_l2", "Mbps L2"], ["line_pct", "% of line"], ["limited_by", "Limited by"]]
      : [["size", "Payload B"], ["frame", "Frame B"], ["sent", "Sent"], ["lost", "Lost"], ["min", "Min µs"], ["avg", "Avg µs"], ["p99", "p99 µs"], ["max", "Max µs"]];
  for (const [, label] of cols) hr.append(node("th", { scope: "col" }, label));
  head.append(hr);
  const num = (v, d = 3) => (v === null || v === undefined ? "–" : fmt(v, d));
  if (kind === "rfc2544") {
    for (const r of doc.results) {
      const tr = node("tr", { dataset: { size: String(r.frame_size) } });
      tr.append(node("th", { scope: "row", dataset: { col: "size" } }, String(r.frame_size)));
      cell(tr, "ports", `${r.tx_port}→${r.rx_port}`);
      cell(tr, "ndr_pps", r.limited_by === "generator" ? `≥ ${num(r.at_least_pps)}` : num(r.throughput_pps));
      cell(tr, "mbps_l1", num(r.mbps_l1));
      cell(tr, "mbps_l2", num(r.mbps_l2));
      cell(tr, "line_pct", num(r.line_pct, 2));
      cell(tr, "pdr_pps", r.pdr ? (r.pdr.limited_by === "generator" ? `≥ ${num(r.pdr.at_least_pps)}` : num(r.pdr.pps)) : "–");
      cell(tr, "trials", String((r.trials || []).length));
      cell(tr, "converged", r.converged === undefined || r.converged === null ? "–" : r.converged ? "yes" : "no");
      body.append(tr);
    }
  } else if (kind === "sweep" && doc.rows) {
    for (const r of doc.rows) {
      const tr = node("tr", { dataset: { size: String(r.frame_size) } });
      tr.append(node("th", { scope: "row", dataset: { col: "size" } }, String(r.frame_size)));
      cell(tr, "kpps", num(r.kpps));
      cell(tr, "mbps_l1", num(r.mbps_l1));
      cell(tr, "mbps_l2", num(r.mbps_l2));
      cell(tr, "line_pct", num(r.line_pct, 2));
      cell(tr, "limited_by", r.limited_by || "–");
      body.append(tr);
    }
  } else if (kind === "sweep" && doc.sizes) {
    // With echoes (wirerate-sweep-repeat/1): the medians of the repeats.
    for (const r of doc.sizes) {
      const tr = node("tr", { dataset: { size: String(r.frame_size) } });
      tr.append(node("th", { scope: "row", dataset: { col: "size" } }, String(r.frame_size)));
      cell(tr, "kpps", num(r.kpps && r.kpps.median));
      cell(tr, "mbps_l1", num(r.mbps_l1 && r.mbps_l1.median));
      cell(tr, "mbps_l2", num(r.mbps_l2 && r.mbps_l2.median));
      cell(tr, "line_pct", "–");
      cell(tr, "limited_by", r.limited_by || "–");
      body.append(tr);
    }
  } else if (kind === "rtt" && doc.sizes) {
    for (const r of doc.sizes) {
      const tr = node("tr", { dataset: { size: String(r.payload_bytes) } });
      tr.append(node("th", { scope: "row", dataset: { col: "size" } }, String(r.payload_bytes)));
      const t = r.rtt_ns || {};
      cell(tr, "frame", String(r.frame_bytes));
      cell(tr, "sent", String(r.sent));
      cell(tr, "lost", String(r.lost));
      for (const k of ["min", "avg", "p99", "max"]) cell(tr, k, t[k] === undefined ? "–" : fmt(t[k] / 1000, 2));
      body.append(tr);
    }
  }
}

async function showResult(id) {
  const j = (state.jobs || []).find((x) => x.job === id);
  if (!j) return;
  const box = $("bench-result");
  box.hidden = false;
  box.dataset.job = String(id);
  $("bench-result-title").textContent = `Result of job ${id}: ${j.kind}, ${j.state}${j.stop_reason && j.stop_reason !== "done" ? ` (${j.stop_reason})` : ""}`;
  $("btn-report").hidden = j.kind === "rtt";
  for (const b of box.querySelectorAll("button[data-format]")) b.disabled = !(j.state === "done" || j.state === "cancelled") && b.dataset.format !== "log";
  $("result-table").tHead.replaceChildren();
  $("result-table").tBodies[0].replaceChildren();
  $("result-text").textContent = "";
  benchCharts($("bench-charts"), j.kind, null);
  if (!(j.state === "done" || j.state === "cancelled") || !j.stop_reason) {
    $("result-caption").textContent = j.error ? `No results: ${j.error}` : "No results yet.";
    return;
  }
  try {
    const [doc, table] = await Promise.all([
      rpc.call("bench.result", { job: id, format: "json" }),
      rpc.call("bench.result", { job: id, format: "table" }),
    ]);
    const parsed = JSON.parse(doc.text);
    $("result-caption").textContent = `${parsed.stream_file}, stream ${parsed.stream || ""}, ${parsed.started_at} to ${parsed.finished_at || ""}`;
    resultTable(j.kind, parsed);
    benchCharts($("bench-charts"), j.kind, parsed);
    $("result-text").textContent = table.text;
  } catch (e) {
    showError(errorText("bench.result", e));
  }
}

async function download(format) {
  const id = Number($("bench-result").dataset.job);
  const j = (state.jobs || []).find((x) => x.job === id);
  try {
    const r = await call("bench.result", { job: id, format });
    const type = { csv: "text/csv", json: "application/json", html: "text/html", log: "text/plain" }[format];
    const ext = { csv: "csv", json: "json", html: "html", log: "log" }[format];
    const url = URL.createObjectURL(new Blob([r.text], { type }));
    const a = node("a", { href: url, download: `wirerate-${j ? j.kind : "bench"}-job${id}.${ext}` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch {
    // shown
  }
}

// ---- tabs, theme, wiring ----

const VIEWS = ["traffic", "streams", "latency", "captures", "hosts", "bench", "runs", "events"];

function showView(v, focus = false) {
  if (!VIEWS.includes(v)) v = "traffic";
  state.view = v;
  session.set("view", v);
  for (const name of VIEWS) {
    const tab = $(`tab-${name}`);
    const on = name === v;
    tab.setAttribute("aria-selected", on ? "true" : "false");
    tab.tabIndex = on ? 0 : -1;
    $(`view-${name}`).hidden = !on;
    if (on && focus) tab.focus();
  }
  if (location.hash !== `#${v}`) history.replaceState(null, "", `#${v}`);
  if (v === "traffic") renderCharts();
  if (v === "latency") renderLatency();
  if (v === "captures" && state.ready && state.methods.has("capture.status")) refreshCaptures();
  if (v === "hosts" && state.ready) refreshHosts();
  if (v === "runs" && state.ready) refreshRuns();
  if (v === "streams") renderGutter(state.lastCheck && !state.lastCheck.valid ? state.lastCheck.error.line : 0);
}

function renderStatic() {
  renderOwnership();
  renderPorts();
  renderStreams();
  renderTraffic();
}

function setTheme(t) {
  document.documentElement.dataset.theme = t;
  $("theme").textContent = t === "dark" ? "Light theme" : "Dark theme";
  $("theme").setAttribute("aria-pressed", t === "light" ? "true" : "false");
  localStorage.setItem("wr.theme", t);
  renderCharts();
}

function wire() {
  for (const v of VIEWS) $(`tab-${v}`).addEventListener("click", () => showView(v));
  document.querySelector("nav.tabs").addEventListener("keydown", (ev) => {
    const i = VIEWS.indexOf(state.view);
    if (ev.key === "ArrowRight") showView(VIEWS[(i + 1) % VIEWS.length], true);
    else if (ev.key === "ArrowLeft") showView(VIEWS[(i + VIEWS.length - 1) % VIEWS.length], true);
    else if (ev.key === "Home") showView(VIEWS[0], true);
    else if (ev.key === "End") showView(VIEWS[VIEWS.length - 1], true);
    else return;
    ev.preventDefault();
  });
  window.addEventListener("hashchange", () => showView(location.hash.slice(1)));
  $("theme").addEventListener("click", () => setTheme(document.documentElement.dataset.theme === "dark" ? "light" : "dark"));
  $("banner-close").addEventListener("click", () => { $("banner").hidden = true; });
  $("error-close").addEventListener("click", () => { $("error-banner").hidden = true; });
  $("take-control").addEventListener("click", takeControl);
  $("release").addEventListener("click", release);
  $("start-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await call("traffic.start", startParams());
    } catch {
      // shown
    }
    await refreshStreams();
  });
  $("btn-clear").addEventListener("click", clearCounters);
  $("btn-stop").addEventListener("click", async () => { await call("traffic.stop").catch(() => {}); await refreshStreams(); });
  $("btn-pause").addEventListener("click", async () => { await call("traffic.pause").catch(() => {}); await refreshStreams(); });
  $("btn-resume").addEventListener("click", async () => { await call("traffic.resume").catch(() => {}); await refreshStreams(); });
  session.bind($("chart-metric"), "chart.metric");
  session.bind($("chart-window"), "chart.window");
  $("chart-metric").addEventListener("change", renderCharts);
  $("chart-window").addEventListener("change", renderCharts);
  $("hist-stream").addEventListener("change", () => { session.set("latency.stream", $("hist-stream").value); renderLatency(); });
  $("yaml").addEventListener("input", scheduleCheck);
  $("yaml").addEventListener("keydown", (ev) => {
    // Tab indents (YAML takes spaces); Escape leaves the editor for keyboard users.
    if (ev.key === "Tab" && !ev.shiftKey && !ev.ctrlKey && !ev.altKey) {
      ev.preventDefault();
      const ta = ev.target;
      ta.setRangeText("  ", ta.selectionStart, ta.selectionEnd, "end");
      scheduleCheck();
    } else if (ev.key === "Escape") {
      $("btn-load").focus();
    }
  });
  $("file-name").addEventListener("change", scheduleCheck);
  $("file-input").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    if (file.size > 1024 * 1024) {
      showError(`${file.name}: ${file.size.toLocaleString("en-US")} bytes; the server takes stream files of at most 1 MiB over the console`);
      return;
    }
    $("yaml").value = await file.text();
    $("file-name").value = file.name;
    scheduleCheck();
  });
  $("btn-load").addEventListener("click", loadIntoServer);
  $("bench-form").addEventListener("submit", benchStart);
  $("capture-form").addEventListener("submit", captureStart);
  $("hosts-form").addEventListener("submit", (ev) => { ev.preventDefault(); hostsPage.offset = 0; refreshHosts(); });
  $("hosts-prev").addEventListener("click", () => {
    hostsPage.offset = Math.max(0, hostsPage.offset - Number($("hosts-form").limit.value));
    refreshHosts();
  });
  $("hosts-next").addEventListener("click", () => {
    if (hostsPage.next !== null) hostsPage.offset = hostsPage.next;
    refreshHosts();
  });
  $("btn-bench-cancel").addEventListener("click", async () => {
    await call("bench.cancel", { job: state.myJob }).catch(() => {});
    await refreshJobs();
  });
  for (const b of document.querySelectorAll("#bench-result button[data-format]"))
    b.addEventListener("click", () => download(b.dataset.format));
  $("bench-form").kind.addEventListener("change", () => {
    const kind = $("bench-form").kind.value;
    for (const name of ["tx-port", "rx-port", "sizes", "trial", "duration", "max-rate", "pdr", "search"])
      $("bench-form")[name].closest("label").hidden = !BENCH_OPTS[kind].includes(name);
    $("bench-form").querySelector("fieldset.tests").hidden = kind !== "rfc2544";
  });
  $("btn-goto").addEventListener("click", gotoError);
  $("btn-copy-loaded").addEventListener("click", () => {
    if (!state.source) return;
    $("yaml").value = state.source.yaml;
    $("file-name").value = state.source.file;
    scheduleCheck();
  });
  new ResizeObserver(() => renderCharts()).observe($("chart-tx"));
  wireExports();
}

setTheme(localStorage.getItem("wr.theme") || (matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark"));
initControls({ state, call, refresh: refreshStreams, node, canControl });
const kept = session.get("editor");
if (kept && typeof kept.text === "string") {
  $("yaml").value = kept.text;
  $("file-name").value = kept.name || "console.yaml";
}
wire();
initCaptures({ rpc, call, node, renderControls, state });
showView(location.hash.slice(1) || session.get("view", "traffic"));
renderGutter(0);
connect();
setTimeout(tick, TICK_MS);
