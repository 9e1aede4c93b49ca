// SPDX-License-Identifier: BSD-3-Clause
// The stream builder: a form built from the server's protocol registry (protocols.list), kept in
// step with the editor's YAML both ways (the text through the loader's own tree, streams.parse;
// the form's edits written back as YAML here), "save as", and the frame panel (streams.frame,
// drawn by packet.js).  What a stream means is the server's to say (streams.check).
//
// The file's comments survive the form's rewrites: each whole-line comment (and blank line) goes
// with the key or list item on the next line, each trailing comment with the key or item its line
// starts (streams.parse says where every node starts); they are written back beside the same
// nodes, and follow them when the form moves, removes or converts them.

import { session } from "./session.js";

const $ = (id) => document.getElementById(id);
const PARSE_DELAY_MS = 250;
const MODES = ["default", "fixed", "list", "inc", "dec", "random"];
const SIZE_MODES = ["fixed", "inc", "random", "imix", "mix"];
// The order a stream's keys are written in when the form adds one (doc/streams: what, where,
// how many, how fast, then the frame).
const STREAM_ORDER = ["name", "port", "size", "count", "duration", "rate", "seed", "latency", "vary",
  "eth", "vlan", "ipv4", "udp", "stack", "payload"];
const SHORTHAND = ["eth", "vlan", "ipv4", "udp"];
// What the loader takes under each shorthand key (wr_yaml_stack.c): anything else in the form
// turns the stream into the `stack:` it stands for first.
const SHORTHAND_KEYS = {
  eth: ["src", "dst"], vlan: ["id", "pcp"], udp: ["src", "dst"],
  ipv4: ["src", "dst", "ttl", "dscp", "ecn", "id", "df", "gateway"],
};
const PAYLOADS = ["default", "zeros", "inc", "pattern", "string"];

const b = {
  rpc: null,
  protos: null,        // protocols.list's, by name
  tree: null,          // the file as streams.parse gave it (edited in place by the form)
  sel: 0,              // the stream shown
  written: null,       // the text the form wrote last (its own input event is not parsed back)
  parseSeq: 0,
  timer: null,
  seen: "",            // the text the form last looked at
  frameTimer: null,
  comments: null,      // {map: path -> {before: [lines], after: text}, tail: [lines]} of the text
  restore: session.get("builder.stream", null), // the stream shown before a reload: {index, name}
};

function el(tag, attrs = {}, text = null) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "dataset") Object.assign(e.dataset, v);
    else if (v !== null && v !== undefined) e.setAttribute(k, v);
  }
  if (text !== null) e.textContent = text;
  return e;
}

// ---- YAML, written: the subset the loader reads (wr_ytree), scalars quoted unless plain ----

const PLAIN = /^[A-Za-z0-9_.\/+-](?:[A-Za-z0-9 _.\/+%-]*[A-Za-z0-9_.\/+%-])?$/;

function scalar(s) {
  s = String(s);
  if (PLAIN.test(s) && !/^-( |$)/.test(s) && !/^(true|false|null|yes|no|on|off|~)$/i.test(s)) return s;
  return JSON.stringify(s); // a YAML double-quoted scalar: the same escapes for what a form holds
}

function flow(v) {
  if (Array.isArray(v)) return `[${v.map(flow).join(", ")}]`;
  if (v !== null && typeof v === "object")
    return `{${Object.entries(v).map(([k, x]) => `${scalar(k)}: ${flow(x)}`).join(", ")}}`;
  return scalar(v ?? "");
}

// Every path inside @v (keys and indexes), @v's own excluded.
function allPaths(v, path, out = []) {
  if (Array.isArray(v)) v.forEach((x, i) => { out.push([...path, i]); allPaths(x, [...path, i], out); });
  else if (v !== null && typeof v === "object")
    for (const [k, x] of Object.entries(v)) { out.push([...path, k]); allPaths(x, [...path, k], out); }
  return out;
}

// The paths with comments, while toYaml writes: a node with a comment inside it is written as a
// block, so that each comment keeps its own line.
let noted = null;

function notedInside(path) {
  if (!noted) return false;
  const pre = `${JSON.stringify(path).slice(0, -1)},`;
  for (const k of noted) if (k.startsWith(pre)) return true;
  return false;
}

// Small mappings and lists on one line (as the shipped examples write them), the rest as blocks:
// [{t: the line, p: the paths of the nodes it starts}].
function block(v, indent, path) {
  const pad = " ".repeat(indent);
  const lines = [];
  if (Array.isArray(v)) {
    v.forEach((x, i) => {
      const ip = [...path, i];
      const f = flow(x);
      const one = x !== null && typeof x === "object" && !Array.isArray(x) && Object.keys(x).length === 1;
      if (x === null || typeof x !== "object" || (indent + 2 + f.length <= 100 && !bulky(x) && !notedInside(ip)))
        lines.push({ t: one ? `${pad}- ${f.slice(1, -1)}` : `${pad}- ${f}`, p: [ip, ...allPaths(x, ip)] }); // "- ipv4: {...}", a layer as the examples write it
      else {
        const inner = block(x, indent + 2, ip);
        inner[0] = { t: `${pad}- ${inner[0].t.slice(indent + 2)}`, p: [ip, ...inner[0].p] };
        lines.push(...inner);
      }
    });
    return lines;
  }
  for (const [k, x] of Object.entries(v)) {
    const kp = [...path, k];
    const f = flow(x);
    const empty = x !== null && typeof x === "object" && Object.keys(x).length === 0;
    if (x === null || typeof x !== "object" || empty || (indent + k.length + 2 + f.length <= 100 && !hasBlockList(x) && !notedInside(kp)))
      lines.push({ t: `${pad}${scalar(k)}: ${f}`, p: [kp, ...allPaths(x, kp)] });
    else {
      lines.push({ t: `${pad}${scalar(k)}:`, p: [kp] });
      lines.push(...block(x, indent + 2, kp));
    }
  }
  return lines;
}

// A stream (many keys, or a stack of mappings) reads best one key a line.
function bulky(x) {
  return !Array.isArray(x) && (Object.keys(x).length >= 4 || Object.values(x).some(hasBlockList));
}

// A stack or the streams list reads best one item a line.
function hasBlockList(x) {
  return Array.isArray(x) && x.some((i) => i !== null && typeof i === "object");
}

// The text of @tree, with @comments (extractComments') beside the nodes they were written by.
export function toYaml(tree, comments = null) {
  if (tree === null || typeof tree !== "object") return "";
  const out = [];
  const used = new Set();
  noted = comments ? new Set([...comments.map].filter(([, e]) => e.before.length || e.after).map(([k]) => k)) : null;
  const lines = block(tree, 0, []);
  noted = null;
  for (const l of lines) {
    const pad = l.t.match(/^ */)[0];
    let after = "";
    for (const p of comments ? l.p : []) {
      const k = JSON.stringify(p);
      const e = comments.map.get(k);
      if (!e || used.has(k)) continue;
      used.add(k);
      out.push(...e.before.map((c) => (c === "" ? "" : pad + c)));
      if (e.after) after += after ? ` ${e.after.trimStart()}` : e.after;
    }
    out.push(l.t + after);
  }
  if (comments) out.push(...comments.tail);
  return `${out.join("\n")}\n`;
}

// ---- comments: read from the text, kept by path, moved with the nodes ----

// Where a comment starts in @line (a "#" at the start or after a blank, outside quotes), or -1.
function commentAt(line) {
  let q = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (q === '"') { if (c === "\\") i++; else if (c === '"') q = null; continue; }
    if (q === "'") { if (c === "'") { if (line[i + 1] === "'") i++; else q = null; } continue; }
    const prev = i === 0 ? " " : line[i - 1];
    if (c === "#" && (prev === " " || prev === "\t")) return i;
    if ((c === '"' || c === "'") && " \t[{,".includes(prev)) q = c;
  }
  return -1;
}

// @text's comments by the node they stand beside; @at: streams.parse's [line, col, path...].
function extractComments(text, at) {
  const starts = new Map(); // line -> the outermost node starting there
  for (const [line, , ...path] of at ?? []) {
    const was = starts.get(line);
    if (!was || path.length < was.length) starts.set(line, path);
  }
  const map = new Map();
  const entry = (p) => {
    const k = JSON.stringify(p);
    if (!map.has(k)) map.set(k, { before: [], after: null });
    return map.get(k);
  };
  let pending = []; // whole-line comments and blank lines waiting for the next node
  let last = null;
  text.split("\n").forEach((raw0, i) => {
    const raw = raw0.replace(/\r$/, "");
    const c = commentAt(raw);
    if (raw.trim() === "") { pending.push(""); return; }
    if (c >= 0 && raw.slice(0, c).trim() === "") { pending.push(raw.slice(c).trimEnd()); return; }
    const p = starts.get(i + 1);
    if (p) {
      if (pending.length) entry(p).before.push(...pending);
      pending = [];
      last = p;
    }
    if (c >= 0 && (p || last)) {
      const e = entry(p ?? last);
      const gap = raw.slice(0, c).match(/[ \t]*$/)[0] || " ";
      e.after = e.after ? `${e.after} ${raw.slice(c).trimEnd()}` : gap + raw.slice(c).trimEnd();
    }
  });
  while (pending.length && pending[pending.length - 1] === "") pending.pop();
  return { map, tail: pending };
}

const startsWith = (p, pre) => p.length >= pre.length && pre.every((x, i) => p[i] === x);

// The items of the list at @arr moved: item i is now fn(i) (-1: gone, and its comments with it).
function moveItems(arr, fn) {
  const c = b.comments;
  if (!c) return;
  const next = new Map();
  for (const [k, e] of c.map) {
    const p = JSON.parse(k);
    if (startsWith(p, arr) && p.length > arr.length && typeof p[arr.length] === "number") {
      const j = fn(p[arr.length]);
      if (j < 0) continue;
      p[arr.length] = j;
      next.set(JSON.stringify(p), e);
    } else next.set(k, e);
  }
  c.map = next;
}

// The node at @from now at @to (its comments, and its children's, follow).
function moveNode(from, to, inner = to) {
  const c = b.comments;
  if (!c) return;
  const next = new Map();
  for (const [k, e] of c.map) {
    const p = JSON.parse(k);
    if (!startsWith(p, from)) next.set(k, e);
    else next.set(JSON.stringify(p.length === from.length ? to : [...inner, ...p.slice(from.length)]), e);
  }
  c.map = next;
}

// ---- the model: a stream's layers, whichever way the file wrote them ----

function streams() {
  return Array.isArray(b.tree?.streams) ? b.tree.streams : [];
}

function current() {
  return streams()[b.sel] ?? null;
}

const isMap = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// A stack item's protocol and its mapping.
function itemOf(it) {
  if (typeof it === "string") return [it, {}];
  const name = isMap(it) ? Object.keys(it)[0] : String(it);
  const v = isMap(it) ? it[name] : null;
  return [name, isMap(v) ? v : {}];
}

// The layers the shorthand keys stand for (the loader's wr_stream_shorthand): eth, vlan when
// given, ipv4, udp, whichever keys the file writes; none for a replayed stream (pcap:, frame:).
function shorthandNames(s) {
  if ("pcap" in s || "frame" in s) return [];
  return ["eth", ...("vlan" in s ? ["vlan"] : []), "ipv4", "udp"];
}

// Whether mapping @m can stay under shorthand key @k.
function fitsShorthand(k, m) {
  return Object.entries(m).every(([f, v]) => SHORTHAND_KEYS[k].includes(f)
    && (!["ecn", "df", "gateway"].includes(f) || !isMap(v)));
}

// Stream @s's shorthand keys turned into the `stack:` they stand for (the same frames: the
// loader builds the shorthand as this very stack), where the first of them was written;
// ipv4's df (true/false there, the bit here) and gateway (the stream's key with a stack) moved.
function toStack(s) {
  if (Array.isArray(s.stack)) return;
  const si = streams().indexOf(s);
  const names = shorthandNames(s);
  let gateway;
  const stack = names.map((k, i) => {
    const m = isMap(s[k]) ? { ...s[k] } : {};
    if (k === "ipv4") {
      if (m.df !== undefined) m.df = /^true$/i.test(String(m.df)) ? "1" : /^false$/i.test(String(m.df)) ? "0" : m.df;
      if (m.gateway !== undefined) {
        gateway = m.gateway;
        delete m.gateway;
        moveNode(["streams", si, "ipv4", "gateway"], ["streams", si, "gateway"]);
      }
    }
    moveNode(["streams", si, k], ["streams", si, "stack", i], ["streams", si, "stack", i, k]);
    return Object.keys(m).length ? { [k]: m } : k;
  });
  const keys = Object.keys(s);
  const copy = { ...s };
  for (const x of keys) delete s[x];
  let placed = false;
  for (const x of keys) {
    if (SHORTHAND.includes(x)) {
      if (!placed) s.stack = stack;
      placed = true;
      if (gateway !== undefined) s.gateway = gateway;
      continue;
    }
    s[x] = copy[x];
  }
  if (!placed) {
    setKey(s, "stack", stack);
    if (gateway !== undefined) s.gateway = gateway;
  }
}

// [{proto, get(), set(map), path()}]: a stack's items, or the layers the shorthand stands for.
// A shorthand layer given what its key does not take (a field the loader reads in a stack only,
// ecn or df varying, options) turns the stream into its stack first; the accessors follow.
function layers(s) {
  if (Array.isArray(s.stack)) {
    return s.stack.map((item, i) => {
      const name = itemOf(item)[0];
      return {
        proto: name,
        get: () => itemOf(s.stack[i])[1],
        set: (m) => { s.stack[i] = Object.keys(m).length ? { [name]: m } : name; },
        path: () => ["streams", streams().indexOf(s), "stack", i, name],
      };
    });
  }
  return shorthandNames(s).map((k, i) => ({
    proto: k,
    get: () => (Array.isArray(s.stack) ? itemOf(s.stack[i])[1] : isMap(s[k]) ? s[k] : {}),
    set: (m) => {
      if (!Array.isArray(s.stack) && fitsShorthand(k, m)) {
        setKey(s, k, Object.keys(m).length || k === "vlan" ? m : undefined);
        return;
      }
      toStack(s);
      s.stack[i] = Object.keys(m).length ? { [k]: m } : k;
    },
    path: () => (Array.isArray(s.stack) ? ["streams", streams().indexOf(s), "stack", i, k] : ["streams", streams().indexOf(s), k]),
  }));
}

// Set key k of stream s, a new key in STREAM_ORDER's place; undefined removes it.
function setKey(s, k, v) {
  if (v === undefined) {
    delete s[k];
    return;
  }
  if (k in s || !STREAM_ORDER.includes(k)) {
    s[k] = v;
    return;
  }
  const keys = Object.keys(s);
  const rank = (x) => { const i = STREAM_ORDER.indexOf(x); return i < 0 ? STREAM_ORDER.length : i; };
  const copy = Object.fromEntries(keys.map((x) => [x, s[x]]));
  for (const x of keys) delete s[x];
  let placed = false;
  for (const x of keys) {
    if (!placed && rank(x) > rank(k)) {
      s[k] = v;
      placed = true;
    }
    s[x] = copy[x];
  }
  if (!placed) s[k] = v;
}

// A field's value in the tree -> {mode, ...} for the form.
function fieldOf(v) {
  if (v === undefined) return { mode: "default" };
  if (v === null || typeof v !== "object") return { mode: "fixed", value: String(v) };
  const [mode] = Object.keys(v);
  const body = v[mode];
  if (mode === "list") return { mode, list: Array.isArray(body) ? body.map(String) : [] };
  if (mode === "inc" || mode === "dec") return { mode, from: body?.from ?? "", to: body?.to ?? "", step: body?.step ?? "" };
  if (mode === "random") return { mode, min: body?.min ?? "", max: body?.max ?? "", prefix: body?.prefix ?? "" };
  return { mode: "fixed", value: flow(v) };
}

// The form's {mode, ...} -> the tree's value (undefined: the key absent, the default).
function valueOf(f) {
  const keep = (o) => Object.fromEntries(Object.entries(o).filter(([, x]) => x !== "" && x !== undefined));
  switch (f.mode) {
    case "fixed": return f.value;
    case "list": return { list: f.list };
    case "inc": case "dec": return { [f.mode]: keep({ from: f.from, to: f.to, step: f.step }) };
    case "random": return { random: keep({ min: f.min, max: f.max, prefix: f.prefix }) };
    default: return undefined;
  }
}

// ---- text -> form ----

function scheduleParse() {
  const text = $("yaml").value;
  b.seen = text;
  if (text === b.written) return; // what the form wrote: the form already says it
  clearTimeout(b.timer);
  b.timer = setTimeout(parse, PARSE_DELAY_MS);
}

async function parse() {
  if (!b.rpc?.open) return;
  const text = $("yaml").value;
  const seq = ++b.parseSeq;
  let r;
  try {
    r = await b.rpc.call("streams.parse", { yaml: text, name: $("file-name").value || "console.yaml" });
  } catch (e) {
    return status(`streams.parse: ${e.message}`, "bad");
  }
  if (seq !== b.parseSeq) return;
  const form = $("builder-form");
  if (!r.valid) {
    form.dataset.state = "stale";
    status(`The form waits for the text: line ${r.error.line}, column ${r.error.col}: ${r.error.message}`, "bad");
    return;
  }
  b.tree = r.tree !== null && typeof r.tree === "object" && !Array.isArray(r.tree) ? r.tree : { version: "1", streams: [] };
  if (!Array.isArray(b.tree.streams)) b.tree.streams = [];
  b.comments = extractComments(text, r.at);
  if (b.restore) { // the stream shown before the reload: by its name, else its place
    const byName = streams().findIndex((x) => x?.name === b.restore.name);
    b.sel = byName >= 0 ? byName : Number(b.restore.index) || 0;
    b.restore = null;
  }
  b.sel = Math.min(b.sel, Math.max(0, streams().length - 1));
  form.dataset.state = "synced";
  form.dataset.followed = mark(text);
  status("The form follows the text.", "ok");
  render();
  refreshFrame();
}

// FNV-1a of a text, as a mark of which text the form stands for (data-followed): a script
// driving the page can tell the form has followed the very text it typed.
function mark(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16);
}

function status(text, kind) {
  const s = $("builder-status");
  s.textContent = text;
  s.className = `check ${kind}`;
}

// ---- form -> text ----

function write() {
  const text = toYaml(b.tree, b.comments);
  b.written = text;
  b.seen = text;
  const ta = $("yaml");
  ta.value = text;
  // The editor's own listeners (the server's check, the gutter) run as if typed.
  ta.dispatchEvent(new Event("input", { bubbles: true }));
  $("builder-form").dataset.state = "synced";
  $("builder-form").dataset.followed = mark(text);
  status("The text follows the form.", "ok");
  refreshFrame();
}

// A frame on show follows the text it was built from (the form's edits, the text's).
function refreshFrame() {
  const st = $("f-out").dataset.state;
  if (st !== "shown" && st !== "error") return;
  clearTimeout(b.frameTimer);
  b.frameTimer = setTimeout(showFrame, PARSE_DELAY_MS);
}

function edited(structural = false) {
  write();
  if (structural) render();
}

// ---- the form ----

function input(attrs, value, onInput) {
  const i = el("input", { autocomplete: "off", spellcheck: "false", ...attrs });
  i.value = value ?? "";
  i.addEventListener("input", () => onInput(i.value.trim()));
  return i;
}

function labelled(text, control, cls = null) {
  const l = el("label", cls ? { class: cls } : {}, text);
  l.append(control);
  return l;
}

function select(options, value, onChange, attrs = {}) {
  const s = el("select", attrs);
  for (const o of options) {
    const [v, t] = Array.isArray(o) ? o : [o, o];
    s.append(el("option", { value: v }, t));
  }
  s.value = value;
  s.addEventListener("change", () => onChange(s.value));
  return s;
}

function placeholderOf(kind) {
  return { mac: "02:00:00:00:00:01", ipv4: "198.18.0.1", ipv6: "2001:db8::1", hex: "0x0800", bool: "0 or 1" }[kind] ?? "0";
}

function inputType(f) {
  return f.kind === "uint" && f.bits <= 32 ? "number" : "text";
}

function fieldRow(layer, li, pf) {
  const key = `${layer.proto}.${pf.name}`;
  const row = el("div", { class: "b-field", dataset: { field: key, layer: String(li) } });
  const cur = fieldOf(layer.get()[pf.name]);
  const save = () => {
    const m = { ...layer.get() };
    const v = valueOf(cur);
    if (v === undefined) delete m[pf.name];
    else m[pf.name] = v;
    layer.set(m);
  };
  const modes = pf.vary ? MODES : ["default", "fixed"];
  row.append(el("span", { class: "b-name", title: pf.doc ?? "" }, pf.name));
  row.append(select(modes, cur.mode, (m) => {
    const was = { ...cur };
    for (const k of Object.keys(cur)) delete cur[k];
    cur.mode = m;
    // Carry what was typed across modes: a value becomes a range's start.
    const first = was.value ?? was.from ?? was.min ?? (was.list ? was.list[0] : undefined) ?? pf.default;
    if (m === "fixed") cur.value = first;
    else if (m === "list") cur.list = was.list ?? [first];
    else if (m === "inc" || m === "dec") Object.assign(cur, { from: first, to: first, step: "1" });
    else if (m === "random") Object.assign(cur, { min: first, max: first });
    save();
    edited(true);
  }, { "aria-label": `${key} variation`, dataset: { part: "mode" } }));
  const ph = pf.kind === "bool" ? "0" : placeholderOf(pf.kind);
  const t = inputType(pf);
  const box = (part, label) => input({ type: t, min: t === "number" ? "0" : null, placeholder: ph, "aria-label": `${key} ${label}`, dataset: { part } },
    cur[part], (v) => { cur[part] = v; save(); edited(); });
  // A field that names the layer above (eth.type, ipv4.proto, udp.dst) or says where a stack
  // ends takes its value from the layers around it unless given (doc/stack.md).
  const around = /^(next_|my_ethertype|bottom)/.test(pf.role ?? "");
  if (cur.mode === "default") row.append(el("span", { class: "muted b-def" }, around ? "from the layers around it" : `default ${pf.default}`));
  else if (cur.mode === "fixed") row.append(box("value", "value"));
  else if (cur.mode === "list")
    row.append(input({ placeholder: `${ph}, …`, "aria-label": `${key} list`, dataset: { part: "list" } }, cur.list.join(", "),
      (v) => { cur.list = v.split(",").map((x) => x.trim()).filter((x) => x !== ""); save(); edited(); }));
  else if (cur.mode === "random") row.append(box("min", "min"), box("max", "max"));
  else row.append(box("from", "from"), box("to", "to"),
    input({ type: "number", min: "1", placeholder: "step 1", "aria-label": `${key} step`, dataset: { part: "step" } }, cur.step,
      (v) => { cur.step = v; save(); edited(); }));
  return row;
}

function layerBox(s, layer, li, all) {
  const p = b.protos.get(layer.proto);
  const fs = el("fieldset", { class: "b-layer", dataset: { proto: layer.proto, index: String(li) } });
  fs.append(el("legend", {}, p ? `${p.title} (${layer.proto})` : layer.proto));
  if (Array.isArray(s.stack)) {
    const bar = el("div", { class: "b-layer-bar" });
    const at = ["streams", b.sel, "stack"];
    const move = (d) => {
      const j = li + d;
      if (j < 0 || j >= s.stack.length) return;
      [s.stack[li], s.stack[j]] = [s.stack[j], s.stack[li]];
      moveItems(at, (x) => (x === li ? j : x === j ? li : x));
      edited(true);
    };
    const btn = (text, label, fn, dis) => {
      const x = el("button", { type: "button", "aria-label": `${label} ${layer.proto} (layer ${li + 1})` }, text);
      x.disabled = dis;
      x.addEventListener("click", fn);
      return x;
    };
    bar.append(btn("↑", "Move up", () => move(-1), li === 0), btn("↓", "Move down", () => move(1), li === all - 1),
      btn("Remove", "Remove", () => {
        s.stack.splice(li, 1);
        moveItems(at, (x) => (x === li ? -1 : x > li ? x - 1 : x));
        edited(true);
      }, false));
    fs.append(bar);
  }
  if (!p) {
    fs.append(el("p", { class: "muted" }, "Not a protocol this server knows: the check says why."));
    return fs;
  }
  if (p.raw) {
    const row = el("div", { class: "b-field", dataset: { field: `${layer.proto}.hex` } });
    row.append(el("span", { class: "b-name" }, "hex"),
      input({ placeholder: "0001020304", "aria-label": `${layer.proto} hex bytes`, dataset: { part: "value" } }, layer.get().hex,
        (v) => { layer.set(v ? { ...layer.get(), hex: v } : {}); edited(); }));
    fs.append(row);
  }
  for (const pf of p.fields) fs.append(fieldRow(layer, li, pf));
  if (p.opts) fs.append(optsBox(layer, li, p.opts));
  return fs;
}

// A layer's option list (protocols.list's opts: IPv4 and IPv6 options, SRv6 segments, Geneve
// options, GTP-U extension headers): one row an item, its named values and its data bytes, or
// (bare) its one value; items added, edited, removed.  The module says what an item must hold.
function optsBox(layer, li, o) {
  const key = `${layer.proto}.${o.key}`;
  const box = el("div", { class: "b-opts", dataset: { opts: key, layer: String(li) } });
  box.append(el("span", { class: "b-name", title: o.doc }, o.key));
  const items = () => { const v = layer.get()[o.key]; return Array.isArray(v) ? [...v] : []; };
  const put = (list) => {
    const m = { ...layer.get() };
    if (list.length) m[o.key] = list;
    else delete m[o.key];
    layer.set(m);
  };
  const setPart = (k, name, v) => {
    const list = items();
    const m = isMap(list[k]) ? { ...list[k] } : {};
    if (v === "") delete m[name];
    else m[name] = v;
    list[k] = m;
    put(list);
    edited();
  };
  const list = items();
  list.forEach((it, k) => {
    const row = el("div", { class: "b-opt", dataset: { item: String(k) } });
    const name = `${key}[${k}]`;
    if (o.bare) {
      row.append(input({ "aria-label": name, dataset: { part: "value" }, placeholder: placeholderOf(o.fields[0]?.kind) },
        isMap(it) || Array.isArray(it) ? flow(it) : it, (v) => { const l = items(); l[k] = v; put(l); edited(); }));
    } else {
      const m = isMap(it) ? it : {};
      for (const f of o.fields)
        row.append(labelled(f.name, input({ "aria-label": `${name}.${f.name}`, dataset: { part: f.name }, placeholder: f.default },
          m[f.name], (v) => setPart(k, f.name, v))));
      if (o.data_max)
        row.append(labelled("data", input({ "aria-label": `${name}.data`, dataset: { part: "data" }, placeholder: "hex bytes" },
          m.data, (v) => setPart(k, "data", v)), "wide"));
    }
    const rm = el("button", { type: "button", "aria-label": `Remove ${name}` }, "Remove");
    rm.addEventListener("click", () => {
      const l = items();
      l.splice(k, 1);
      moveItems([...layer.path(), o.key], (x) => (x === k ? -1 : x > k ? x - 1 : x));
      put(l);
      edited(true);
    });
    row.append(rm);
    box.append(row);
  });
  const add = el("button", { type: "button", "aria-label": `Add ${key}`, dataset: { part: "add" } }, `Add ${o.bare ? "item" : "option"}`);
  add.disabled = list.length >= o.max;
  add.addEventListener("click", () => {
    const f0 = o.fields[0];
    const l = items();
    l.push(o.bare ? (f0?.default ?? "") : { [f0.name]: f0.default });
    put(l);
    edited(true);
  });
  box.append(add, el("span", { class: "muted" }, o.doc));
  return box;
}

// The frame's payload after the headers (README: zeros, inc, {pattern: hex}, {string: text}).
function payloadRow(s) {
  const row = el("div", { class: "form-row", id: "b-payload" });
  const v = s.payload;
  let mode = v === undefined ? "default" : isMap(v) ? Object.keys(v)[0] : String(v);
  const text = isMap(v) ? String(v[mode] ?? "") : "";
  const save = (m, t) => setKey(s, "payload", m === "default" ? undefined : m === "pattern" || m === "string" ? { [m]: t } : m);
  row.append(labelled("Payload", select(PAYLOADS.includes(mode) ? PAYLOADS : [...PAYLOADS, mode], mode, (m) => {
    mode = m;
    save(m, m === "pattern" ? "00" : "");
    edited(true);
  }, { id: "b-payload-mode" })));
  if (mode === "pattern" || mode === "string")
    row.append(labelled(mode === "pattern" ? "Bytes (hex, repeated)" : "Text (then zeros)",
      input({ id: "b-payload-value", placeholder: mode === "pattern" ? "deadbeef" : "hello" }, text,
        (t) => { save(mode, t); edited(); }), "wide"));
  return row;
}

function sizeRow(s) {
  const row = el("div", { class: "form-row", id: "b-size" });
  const v = s.size;
  let mode = "fixed";
  if (v === "imix") mode = "imix";
  else if (v !== null && typeof v === "object") mode = Object.keys(v)[0];
  const cur = mode === "fixed" ? { value: v ?? "" } : mode === "mix"
    ? { mix: (v.mix ?? []).map((m) => `${m.size}:${m.weight}`).join(", ") } : { ...(typeof v === "object" ? v[mode] : {}) };
  const save = () => {
    const keep = (o) => Object.fromEntries(Object.entries(o).filter(([, x]) => x !== "" && x !== undefined));
    let out;
    if (mode === "fixed") out = cur.value === "" ? undefined : cur.value;
    else if (mode === "imix") out = "imix";
    else if (mode === "mix") out = { mix: cur.mix.split(",").map((x) => x.trim()).filter(Boolean).map((x) => {
      const [size, weight] = x.split(":").map((y) => y.trim());
      return { size, weight: weight ?? "1" };
    }) };
    else if (mode === "inc") out = { inc: keep({ from: cur.from, to: cur.to, step: cur.step }) };
    else out = { random: keep({ min: cur.min, max: cur.max }) };
    setKey(s, "size", out);
  };
  row.append(labelled("Size", select(SIZE_MODES, mode, (m) => {
    mode = m;
    for (const k of Object.keys(cur)) delete cur[k];
    Object.assign(cur, m === "inc" ? { from: "64", to: "1518", step: "1" } : m === "random" ? { min: "64", max: "1518" }
      : m === "mix" ? { mix: "64:7, 594:4, 1518:1" } : { value: "64" });
    save();
    edited(true);
  }, { id: "b-size-mode" })));
  const box = (k, label, ph) => labelled(label, input({ id: `b-size-${k}`, type: k === "mix" ? "text" : "number", placeholder: ph },
    cur[k], (x) => { cur[k] = x; save(); edited(); }), k === "mix" ? "wide" : null);
  if (mode === "fixed") row.append(box("value", "Bytes (with FCS)", "64"));
  else if (mode === "inc") row.append(box("from", "From", "64"), box("to", "To", "1518"), box("step", "Step", "1"));
  else if (mode === "random") row.append(box("min", "Min", "64"), box("max", "Max", "1518"));
  else if (mode === "mix") row.append(box("mix", "Sizes size:weight, …", "64:7, 594:4"));
  return row;
}

function streamBox(s) {
  const wrap = el("div", { id: "b-stream-form" });
  const row = el("div", { class: "form-row" });
  const str = (k, label, attrs = {}) => labelled(label, input({ id: `b-${k}`, ...attrs }, s[k] ?? "",
    (v) => {
      setKey(s, k, v === "" ? undefined : v);
      edited();
      if (k === "name") { // the pickers follow without redrawing the form under the cursor
        $("b-stream").options[b.sel].textContent = v;
        choose(b.sel);
        frameStreams();
      }
    }));
  row.append(str("name", "Name"), str("port", "Port", { type: "number", min: "0" }), str("rate", "Rate", { placeholder: "1 Mpps, 1 Gbps, 10%" }),
    str("count", "Frames (count)", { type: "number", min: "0", placeholder: "unlimited" }),
    str("duration", "Seconds (duration)", { type: "number", min: "0", placeholder: "unlimited" }));
  row.append(labelled("Fields combine", select(["together", "product"], s.vary ?? "together",
    (v) => { setKey(s, "vary", v === "together" && s.vary === undefined ? undefined : v); edited(); }, { id: "b-vary" })));
  wrap.append(row, sizeRow(s), payloadRow(s));
  const ls = layers(s);
  const box = el("div", { id: "b-layers" });
  ls.forEach((l, i) => box.append(layerBox(s, l, i, ls.length)));
  wrap.append(box);
  const add = el("div", { class: "form-row" });
  if (Array.isArray(s.stack) || !("pcap" in s || "frame" in s)) {
    const pick = select([...b.protos.values()].map((p) => [p.name, `${p.title} (${p.name})`]), "eth", () => {}, { id: "b-add-proto" });
    const btn = el("button", { type: "button", id: "b-add-layer" }, "Add layer");
    btn.addEventListener("click", () => {
      toStack(s); // the shorthand keys first become the stack they stand for: the same frames
      s.stack.push(pick.value);
      edited(true);
    });
    add.append(labelled("Layer", pick), btn);
    if (!Array.isArray(s.stack))
      add.append(el("p", { class: "muted" }, "The shorthand keys (eth, vlan, ipv4, udp) stand for the stack eth, vlan, ipv4, udp: a layer added, or a field only a stack takes, writes that stack first."));
  } else {
    add.append(el("p", { class: "muted" }, "A replayed stream (pcap:, frame:) has no layers to edit."));
  }
  wrap.append(add);
  return wrap;
}

function render() {
  const form = $("builder-form");
  if (!b.protos || !b.tree) return;
  const list = streams();
  const pick = $("b-stream");
  pick.replaceChildren(...list.map((s, i) => el("option", { value: String(i) }, s.name ?? `stream ${i + 1}`)));
  pick.value = String(b.sel);
  $("b-remove-stream").disabled = list.length === 0;
  const body = $("b-body");
  body.replaceChildren();
  const s = current();
  if (s === null) body.append(el("p", { class: "muted" }, "No stream yet: add one."));
  else if (s === null || typeof s !== "object") body.append(el("p", { class: "muted" }, "This item is not a stream mapping: the check says why."));
  else body.append(streamBox(s));
  form.hidden = false;
  frameStreams();
}

// Show stream @i, and keep the choice across a reload (by name, then by place).
function choose(i) {
  b.sel = i;
  b.restore = null;
  session.set("builder.stream", { index: i, name: streams()[i]?.name ?? null });
}

function addStream() {
  if (!b.tree) b.tree = { version: "1", streams: [] };
  const names = new Set(streams().map((s) => s.name));
  let n = streams().length + 1;
  while (names.has(`stream-${n}`)) n++;
  b.tree.streams.push({ name: `stream-${n}`, port: "0", size: "64", rate: "1 Mpps", stack: ["eth", "ipv4", "udp"] });
  choose(b.tree.streams.length - 1);
  edited(true);
}

// ---- save as ----

function saveAs() {
  const name = $("b-save-name").value.trim() || $("file-name").value || "console.yaml";
  const text = $("yaml").value;
  const a = $("b-saved");
  if (a.href) URL.revokeObjectURL(a.href);
  a.href = URL.createObjectURL(new Blob([text], { type: "text/yaml" }));
  a.download = name;
  a.textContent = `Download ${name} again`;
  a.hidden = false;
  $("file-name").value = name;
  $("file-name").dispatchEvent(new Event("change"));
  a.click();
}

// ---- the frame panel ----

function frameStreams() {
  const sel = $("f-stream");
  const names = streams().map((s) => s?.name).filter((x) => typeof x === "string");
  const was = sel.value;
  sel.replaceChildren(...names.map((n) => el("option", { value: n }, n)));
  const want = current()?.name;
  sel.value = names.includes(was) && was !== "" ? was : want ?? "";
  if (want && names.includes(want)) sel.value = want;
}

async function showFrame(ev) {
  ev?.preventDefault();
  const out = $("f-out");
  const stream = $("f-stream").value;
  const frame = Number($("f-n").value || 0);
  out.dataset.state = "loading";
  let pkt;
  try {
    pkt = await b.rpc.call("streams.frame", { yaml: $("yaml").value, name: $("file-name").value || "console.yaml", stream, frame });
  } catch (e) {
    out.dataset.state = "error";
    out.replaceChildren(el("p", { class: "check bad" }, e.data?.message ?? e.message));
    return;
  }
  let mod;
  try {
    mod = await import("./packet.js");
  } catch (e) {
    out.dataset.state = "error";
    out.replaceChildren(el("p", { class: "check bad" }, `packet.js: ${e.message}`));
    return;
  }
  out.replaceChildren();
  out.append(el("p", { class: "muted", id: "f-summary" }, `${stream}, frame ${frame}: ${pkt.len} bytes without FCS`));
  const view = el("div", { id: "f-packet" });
  out.append(view);
  mod.renderPacket(view, pkt, {
    onSelect: (sel) => {
      const what = sel.field ? `${sel.field.key} = ${sel.field.value}` : pkt.layers[sel.layer]?.title ?? "";
      $("f-selected").textContent = `${what}: bytes ${sel.off}..${sel.off + sel.len - 1}`;
    },
  });
  out.dataset.state = "shown";
  out.dataset.frame = String(frame);
  out.dataset.stream = stream;
}

// ---- wiring ----

async function connected() {
  try {
    const r = await b.rpc.call("protocols.list");
    b.protos = new Map(r.protocols.map((p) => [p.name, p]));
  } catch (e) {
    status(`protocols.list: ${e.message}`, "bad");
    return;
  }
  $("builder").hidden = false;
  if ($("yaml").value.trim() === "") {
    b.restore = null; // no text kept: no stream of it to show again
    b.tree = { version: "1", streams: [] };
    render();
  } else {
    await parse();
  }
}

export function initBuilder(rpc) {
  b.rpc = rpc;
  $("yaml").addEventListener("input", scheduleParse);
  // The console also sets the text without an input event (a file opened, the loaded text
  // copied, a session restored): the form follows those too.
  setInterval(() => { if ($("yaml").value !== b.seen && b.protos) scheduleParse(); }, 500);
  $("b-stream").addEventListener("change", () => { choose(Number($("b-stream").value)); render(); });
  $("b-add-stream").addEventListener("click", addStream);
  $("b-remove-stream").addEventListener("click", () => {
    if (!current()) return;
    b.tree.streams.splice(b.sel, 1);
    const gone = b.sel;
    moveItems(["streams"], (x) => (x === gone ? -1 : x > gone ? x - 1 : x));
    choose(Math.max(0, b.sel - 1));
    edited(true);
  });
  $("b-save").addEventListener("click", saveAs);
  $("frame-form").addEventListener("submit", showFrame);
  return { connected };
}
