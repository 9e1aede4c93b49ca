// SPDX-License-Identifier: BSD-3-Clause
// The stream builder: a form built from the server's protocol registry (protocols.list), kept in
// step with the editor's YAML both ways (the text through the loader's own tree, streams.parse;
// the form's edits written back as YAML here), "save as", and the frame panel (streams.frame,
// drawn by packet.js).  What a stream means is the server's to say (streams.check).

const $ = (id) => document.getElementById(id);
const PARSE_DELAY_MS = 250;
const MODES = ["default", "fixed", "list", "inc", "dec", "random"];
const SIZE_MODES = ["fixed", "inc", "random", "imix", "mix"];
// The order a stream's keys are written in when the form adds one (doc/streams: what, where,
// how many, how fast, then the frame).
const STREAM_ORDER = ["name", "port", "size", "count", "duration", "rate", "seed", "latency", "vary",
  "eth", "vlan", "ipv4", "udp", "stack", "payload"];
const SHORTHAND = ["eth", "vlan", "ipv4", "udp"];

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

// Small mappings and lists on one line (as the shipped examples write them), the rest as blocks.
function block(v, indent) {
  const pad = " ".repeat(indent);
  const lines = [];
  if (Array.isArray(v)) {
    for (const x of v) {
      const f = flow(x);
      const one = x !== null && typeof x === "object" && !Array.isArray(x) && Object.keys(x).length === 1;
      if (x === null || typeof x !== "object" || (indent + 2 + f.length <= 100 && !bulky(x)))
        lines.push(one ? `${pad}- ${f.slice(1, -1)}` : `${pad}- ${f}`); // "- ipv4: {...}", a layer as the examples write it
      else {
        const inner = block(x, indent + 2);
        lines.push(`${pad}- ${inner.slice(indent + 2)}`);
      }
    }
    return lines.join("\n");
  }
  for (const [k, x] of Object.entries(v)) {
    const f = flow(x);
    const empty = x !== null && typeof x === "object" && Object.keys(x).length === 0;
    if (x === null || typeof x !== "object" || empty || (indent + k.length + 2 + f.length <= 100 && !hasBlockList(x)))
      lines.push(`${pad}${scalar(k)}: ${f}`);
    else lines.push(`${pad}${scalar(k)}:\n${block(x, Array.isArray(x) ? indent + 2 : indent + 2)}`);
  }
  return lines.join("\n");
}

// A stream (many keys, or a stack of mappings) reads best one key a line.
function bulky(x) {
  return !Array.isArray(x) && (Object.keys(x).length >= 4 || Object.values(x).some(hasBlockList));
}

// A stack or the streams list reads best one item a line.
function hasBlockList(x) {
  return Array.isArray(x) && x.some((i) => i !== null && typeof i === "object");
}

export function toYaml(tree) {
  if (tree === null || typeof tree !== "object") return "";
  return `${block(tree, 0)}\n`;
}

// ---- the model: a stream's layers, whichever way the file wrote them ----

function streams() {
  return Array.isArray(b.tree?.streams) ? b.tree.streams : [];
}

function current() {
  return streams()[b.sel] ?? null;
}

// [{proto, get(), set(map)}]: a stack's items, or the shorthand keys present.
function layers(s) {
  if (Array.isArray(s.stack)) {
    return s.stack.map((item, i) => {
      const name = typeof item === "string" ? item : Object.keys(item)[0];
      return {
        proto: name,
        get: () => {
          const it = s.stack[i];
          const v = typeof it === "string" ? {} : it[name];
          return v !== null && typeof v === "object" ? v : {};
        },
        set: (m) => { s.stack[i] = Object.keys(m).length ? { [name]: m } : name; },
      };
    });
  }
  return SHORTHAND.filter((k) => k in s).map((k) => ({
    proto: k,
    get: () => (s[k] !== null && typeof s[k] === "object" ? s[k] : {}),
    set: (m) => { setKey(s, k, m); },
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
  const text = toYaml(b.tree);
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
    const move = (d) => {
      const j = li + d;
      if (j < 0 || j >= s.stack.length) return;
      [s.stack[li], s.stack[j]] = [s.stack[j], s.stack[li]];
      edited(true);
    };
    const btn = (text, label, fn, dis) => {
      const x = el("button", { type: "button", "aria-label": `${label} ${layer.proto} (layer ${li + 1})` }, text);
      x.disabled = dis;
      x.addEventListener("click", fn);
      return x;
    };
    bar.append(btn("↑", "Move up", () => move(-1), li === 0), btn("↓", "Move down", () => move(1), li === all - 1),
      btn("Remove", "Remove", () => { s.stack.splice(li, 1); edited(true); }, false));
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
  if (p.opts && layer.get()[p.opts.key] !== undefined)
    fs.append(el("p", { class: "muted" }, `${p.opts.key}: as the text writes them (${p.opts.doc})`));
  return fs;
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
        frameStreams();
      }
    }));
  row.append(str("name", "Name"), str("port", "Port", { type: "number", min: "0" }), str("rate", "Rate", { placeholder: "1 Mpps, 1 Gbps, 10%" }),
    str("count", "Frames (count)", { type: "number", min: "0", placeholder: "unlimited" }),
    str("duration", "Seconds (duration)", { type: "number", min: "0", placeholder: "unlimited" }));
  row.append(labelled("Fields combine", select(["together", "product"], s.vary ?? "together",
    (v) => { setKey(s, "vary", v === "together" && s.vary === undefined ? undefined : v); edited(); }, { id: "b-vary" })));
  wrap.append(row, sizeRow(s));
  const ls = layers(s);
  const box = el("div", { id: "b-layers" });
  ls.forEach((l, i) => box.append(layerBox(s, l, i, ls.length)));
  wrap.append(box);
  const add = el("div", { class: "form-row" });
  if (Array.isArray(s.stack) || ls.length === 0) {
    const pick = select([...b.protos.values()].map((p) => [p.name, `${p.title} (${p.name})`]), "eth", () => {}, { id: "b-add-proto" });
    const btn = el("button", { type: "button", id: "b-add-layer" }, "Add layer");
    btn.addEventListener("click", () => {
      if (!Array.isArray(s.stack)) setKey(s, "stack", []);
      s.stack.push(pick.value);
      edited(true);
    });
    add.append(labelled("Layer", pick), btn);
  } else {
    add.append(el("p", { class: "muted" }, "This stream writes its headers with the shorthand keys (eth, vlan, ipv4, udp): edit their fields here; a new stream takes any stack."));
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

function addStream() {
  if (!b.tree) b.tree = { version: "1", streams: [] };
  const names = new Set(streams().map((s) => s.name));
  let n = streams().length + 1;
  while (names.has(`stream-${n}`)) n++;
  b.tree.streams.push({ name: `stream-${n}`, port: "0", size: "64", rate: "1 Mpps", stack: ["eth", "ipv4", "udp"] });
  b.sel = b.tree.streams.length - 1;
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
  $("b-stream").addEventListener("change", () => { b.sel = Number($("b-stream").value); render(); });
  $("b-add-stream").addEventListener("click", addStream);
  $("b-remove-stream").addEventListener("click", () => {
    if (!current()) return;
    b.tree.streams.splice(b.sel, 1);
    b.sel = Math.max(0, b.sel - 1);
    edited(true);
  });
  $("b-save").addEventListener("click", saveAs);
  $("frame-form").addEventListener("submit", showFrame);
  return { connected };
}
