// SPDX-License-Identifier: BSD-3-Clause
// The Captures view: start and stop the server's captures, list them, download their files,
// open a local pcap/pcapng file (capture.open), and read any of them frame by frame: the
// list (capture.read: paged, a libpcap filter), one frame decoded by the server's own
// dissector (capture.frame, drawn by packet.js), tshark's decode of it on request.
// Nothing is decoded here: the page shows what the server's registry parses.

import { renderPacket } from "./packet.js";

let ctx = null;   // what app.js lends: rpc, call, node, renderControls, state

const PART = 1 << 20;           // capture.fetch reads 1 MiB a call
const OPEN_PART = 700 << 10;    // capture.open: 700 KiB of file, its base64 inside a 1 MiB request
const $ = (id) => document.getElementById(id);

// What the reader shows: the capture, its filter, the page of frames, the frame selected.
const reader = { id: null, title: "", filter: "", first: 0, count: 200, matched: 0, total: 0, n: null, seq: 0, fseq: 0 };

export function initCaptures(c) {
  ctx = c;
  $("capture-file").addEventListener("change", (ev) => {
    const file = ev.target.files[0];
    if (file) openFile(file).finally(() => { ev.target.value = ""; });
  });
  $("reader-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    reader.filter = $("reader-form").filter.value.trim();
    reader.count = Number($("reader-form").count.value);
    reader.first = 0;
    readFrames();
  });
  $("reader-prev").addEventListener("click", () => {
    reader.first = Math.max(0, reader.first - reader.count);
    readFrames();
  });
  $("reader-next").addEventListener("click", () => {
    if (reader.first + reader.count < reader.matched) reader.first += reader.count;
    readFrames();
  });
  $("reader-close").addEventListener("click", closeReader);
  $("tshark-toggle").addEventListener("change", () => { if (reader.n !== null) showFrame(reader.n); });
  $("frames-table").tBodies[0].addEventListener("keydown", framesKey);
}

// ---- the list of captures (capture.status), start, stop, download ----

export async function refreshCaptures() {
  const { rpc, state, node } = ctx;
  if (!rpc.open || !state.methods.has("capture.status")) return;
  const r = await rpc.call("capture.status", {});
  const list = r.captures || [];
  const tb = $("captures-table").tBodies[0];
  tb.replaceChildren();
  state.capturesRunning = list.some((c) => c.state !== "done");
  for (const c of [...list].reverse()) {
    const tr = node("tr", { dataset: { capture: String(c.id), state: c.state, source: c.source || "port" } });
    if (c.id === reader.id) tr.setAttribute("aria-current", "true");
    tr.append(node("th", { scope: "row" }, String(c.id)));
    tr.append(node("td", { class: "l", dataset: { col: "source" } }, sourceText(c)));
    tr.append(node("td", { class: "l" }, c.filter || "–"));
    tr.append(node("td", { class: "l", dataset: { col: "state" } }, c.state + (c.error ? `: ${c.error}` : "")));
    for (const [col, v] of [["seen", c.seen], ["written", c.written], ["dropped", c.capture_dropped], ["bytes", c.bytes]])
      tr.append(node("td", { class: "num", dataset: { col } }, (v ?? 0).toLocaleString("en-US")));
    const act = node("td", { class: "actions" });
    if (c.state === "done") {
      const b = node("button", { type: "button", dataset: { act: "download" } }, `Download${c.files > 1 ? ` (${c.files} files)` : ""}`);
      b.addEventListener("click", () => downloadCapture(c));
      act.append(b);
      if (state.methods.has("capture.read")) {
        const f = node("button", { type: "button", dataset: { act: "frames" } }, "Frames");
        f.setAttribute("aria-label", `Read the frames of capture ${c.id}`);
        f.addEventListener("click", () => openReader(c));
        act.append(f);
      }
    } else {
      const b = node("button", { type: "button", class: "danger", "data-owner-only": "", dataset: { act: "stop" } }, "Stop");
      b.addEventListener("click", async () => { await ctx.call("capture.stop", { id: c.id }).catch(() => {}); refreshCaptures(); });
      act.append(b);
    }
    tr.append(act);
    tb.append(tr);
  }
  // A capture gone (server.reset): nothing left to read.
  if (reader.id !== null && !list.some((c) => c.id === reader.id)) closeReader();
  $("capture-open").hidden = !state.methods.has("capture.open");
  ctx.renderControls();
}

function sourceText(c) {
  if (c.source === "upload") return `file ${c.name ?? c.file ?? ""}`.trim();
  return `port ${c.port}, ${c.dir}`;
}

export async function captureStart(ev) {
  ev.preventDefault();
  const f = $("capture-form");
  const params = { port: Number(f.port.value || 0), dir: f.dir.value };
  if (f.filter.value.trim()) params.filter = f.filter.value.trim();
  for (const k of ["count", "size", "snaplen"]) if (f[k].value.trim()) params[k] = Number(f[k].value);
  if (f.duration.value.trim()) params.duration = Number(f.duration.value);
  await ctx.call("capture.start", params).catch(() => {});
  await refreshCaptures();
}

function fromBase64(s) {
  const bin = atob(s);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

function toBase64(bytes) {
  // String.fromCharCode takes its arguments on the stack: 32 K bytes at a time.
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

// Each file of a capture, read back 1 MiB at a time (base64), saved as it was written.
async function downloadCapture(c) {
  const { node } = ctx;
  for (let part = 0; part < (c.files || 1); part++) {
    const chunks = [];
    let offset = 0;
    for (;;) {
      let r;
      try {
        r = await ctx.call("capture.fetch", { id: c.id, part, offset, length: PART });
      } catch {
        return;
      }
      const bytes = fromBase64(r.data);
      chunks.push(bytes);
      offset += bytes.length;
      if (r.eof || bytes.length === 0) break;
    }
    const url = URL.createObjectURL(new Blob(chunks, { type: "application/octet-stream" }));
    // An uploaded file goes back under its own name (it may be a pcap, not a pcapng).
    const name = c.source === "upload" && c.name ? c.name
      : (c.files > 1 ? `capture-${c.id}-${part}` : `capture-${c.id}`) + ".pcapng";
    const a = node("a", { href: url, download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }
}

// ---- a local file opened (capture.open, 1 MiB parts) ----

async function openFile(file) {
  const st = $("capture-open-state");
  st.textContent = `Sending ${file.name} (${file.size.toLocaleString("en-US")} bytes)…`;
  const bytes = new Uint8Array(await file.arrayBuffer());
  const parts = Math.max(1, Math.ceil(bytes.length / OPEN_PART));
  let r = null;
  for (let part = 0; part < parts; part++) {
    const data = toBase64(bytes.subarray(part * OPEN_PART, (part + 1) * OPEN_PART));
    const params = { name: file.name, data, part, eof: part === parts - 1 };
    try {
      r = await ctx.call("capture.open", params);
    } catch (e) {
      st.textContent = `${file.name}: not opened (${e.message ?? e})`;
      return;
    }
  }
  st.textContent = `${file.name}: capture ${r.id}`;
  await refreshCaptures();
  await openReader({ id: r.id, source: "upload", name: file.name });
}

// ---- the reader: frames (capture.read) and one frame (capture.frame) ----

async function openReader(c) {
  reader.id = c.id;
  reader.title = `capture ${c.id} (${sourceText(c)})`;
  reader.first = 0;
  reader.n = null;
  reader.filter = $("reader-form").filter.value.trim();
  reader.count = Number($("reader-form").count.value);
  $("capture-reader").hidden = false;
  $("reader-title").textContent = reader.title;
  for (const tr of $("captures-table").tBodies[0].rows)
    tr.toggleAttribute("aria-current", tr.dataset.capture === String(c.id));
  await readFrames();
  $("capture-reader").scrollIntoView({ block: "nearest" });
}

function closeReader() {
  reader.id = null;
  reader.n = null;
  $("capture-reader").hidden = true;
  $("frames-table").tBodies[0].replaceChildren();
  $("packet").replaceChildren();
}

async function readFrames() {
  const { node } = ctx;
  if (reader.id === null) return;
  const seq = ++reader.seq;
  const params = { id: reader.id, first: reader.first, count: reader.count };
  if (reader.filter) params.filter = reader.filter;
  let r;
  try {
    r = await ctx.call("capture.read", params);
  } catch (e) {
    $("reader-count").textContent = String(e.message ?? e);
    $("reader-form").dataset.state = "error";
    return;
  }
  if (seq !== reader.seq) return;   // a later read overtook this one
  $("reader-form").dataset.state = "ok";
  reader.total = r.total;
  reader.matched = r.matched;
  const tb = $("frames-table").tBodies[0];
  tb.replaceChildren();
  for (const f of r.frames) {
    const tr = node("tr", { tabindex: "-1", dataset: { n: String(f.n) } });
    tr.setAttribute("aria-selected", f.n === reader.n ? "true" : "false");
    tr.append(node("th", { scope: "row", dataset: { col: "n" } }, String(f.n)));
    tr.append(node("td", { class: "num", dataset: { col: "t", t: String(f.t) } }, f.t.toFixed(6)));
    const len = node("td", { class: "num", dataset: { col: "len", caplen: String(f.caplen) } }, String(f.len));
    if (f.caplen !== f.len) len.title = `${f.caplen} bytes captured of ${f.len}`;
    tr.append(len);
    tr.append(node("td", { class: "l", dataset: { col: "stream" } }, f.stream ?? "–"));
    tr.append(node("td", { class: "l", dataset: { col: "top" } }, f.top));
    tr.append(node("td", { class: "l summary", dataset: { col: "summary" } }, f.summary + (f.caplen !== f.len ? ` [${f.caplen} of ${f.len} bytes captured]` : "")));
    tr.addEventListener("click", () => selectRow(tr));
    tb.append(tr);
  }
  // One row reachable by Tab: the selected one, else the first.
  const cur = tb.querySelector('tr[aria-selected="true"]') || tb.rows[0];
  if (cur) cur.tabIndex = 0;
  const last = reader.first + r.frames.length;
  $("reader-count").textContent = r.frames.length === 0
    ? `no frame of ${r.total.toLocaleString("en-US")} matches`
    : `frames ${(reader.first + 1).toLocaleString("en-US")}–${last.toLocaleString("en-US")} of ${r.matched.toLocaleString("en-US")} matched` +
      (reader.filter ? ` (of ${r.total.toLocaleString("en-US")})` : "");
  $("reader-count").dataset.matched = String(r.matched);
  $("reader-count").dataset.total = String(r.total);
  $("reader-prev").disabled = reader.first === 0;
  $("reader-next").disabled = last >= r.matched;
}

function selectRow(tr) {
  for (const o of tr.parentNode.rows) {
    o.setAttribute("aria-selected", o === tr ? "true" : "false");
    o.tabIndex = o === tr ? 0 : -1;
  }
  showFrame(Number(tr.dataset.n));
}

function framesKey(ev) {
  const tr = ev.target.closest("tr");
  if (!tr) return;
  let to = null;
  if (ev.key === "ArrowDown") to = tr.nextElementSibling;
  else if (ev.key === "ArrowUp") to = tr.previousElementSibling;
  else if (ev.key === "Home") to = tr.parentNode.firstElementChild;
  else if (ev.key === "End") to = tr.parentNode.lastElementChild;
  else if (ev.key === "Enter" || ev.key === " ") to = tr;
  else return;
  ev.preventDefault();
  if (!to) return;
  to.focus();
  selectRow(to);
}

async function showFrame(n) {
  reader.n = n;
  const seq = ++reader.fseq;
  const tshark = $("tshark-toggle").checked;
  const out = $("packet");
  const ts = $("tshark-json");
  $("frame-title").textContent = `Frame ${n}`;
  let pkt, tsErr = null;
  try {
    pkt = await ctx.rpc.call("capture.frame", tshark ? { id: reader.id, n, tshark: true } : { id: reader.id, n });
  } catch (e) {
    // tshark asked and not there (or failing): the server's decode all the same, and why not tshark's.
    if (tshark) tsErr = String(e.message ?? e);
    try {
      pkt = tsErr === null ? null : await ctx.rpc.call("capture.frame", { id: reader.id, n });
    } catch (e2) {
      e = e2;
    }
    if (!pkt) {
      if (seq !== reader.fseq) return;
      out.replaceChildren(ctx.node("p", { class: "bad-text", role: "alert" }, `capture.frame: ${e.message ?? e}`));
      ts.hidden = true;
      return;
    }
  }
  if (seq !== reader.fseq) return;
  // packet.js draws every decoded frame of the console (the builder's too).
  out.dataset.n = String(n);
  renderPacket(out, pkt, {});
  ts.hidden = !tshark;
  ts.classList.toggle("bad-text", tsErr !== null);
  ts.textContent = !tshark ? "" : tsErr !== null ? `tshark: ${tsErr}` : JSON.stringify(pkt.tshark, null, 2);
}
