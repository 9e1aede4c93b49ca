// SPDX-License-Identifier: BSD-3-Clause
// One frame as the server decoded it (wr_dissect: streams.frame, capture.frame): the layers as
// an expandable tree of "name: value" rows beside the hex (16 bytes a line, offset, ASCII).
// Selecting a field (click, or the keyboard in the tree) highlights exactly its bytes
// [off, off + len) in the hex, class "hl" on each byte cell (every byte cell has data-off);
// clicking a byte selects the field that holds it.  No decoding here: the server's JSON is
// rendered as it is (doc/api.md, "Frames").

const STYLE_ID = "wr-packet-style";

// Its stylesheet beside it, linked once: the console's Content-Security-Policy (default-src
// 'self') refuses an inline <style>, a stylesheet of its own origin it takes.
function ensureStyle(doc) {
  if (doc.getElementById(STYLE_ID)) return;
  const l = doc.createElement("link");
  l.id = STYLE_ID;
  l.rel = "stylesheet";
  l.href = new URL("./packet.css", import.meta.url).href;
  doc.head.appendChild(l);
}

function el(doc, tag, cls, text) {
  const e = doc.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

function hexBytes(hex) {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

// The field (or else the layer) holding byte @off: the narrowest one, so a byte of a TCI selects
// the VLAN id rather than the whole tag.
function itemAt(items, off) {
  let best = null;
  for (const it of items) {
    if (off < it.off || off >= it.off + it.len) continue;
    if (best === null || (it.field && !best.field) ||
        (!!it.field === !!best.field && it.len < best.len)) best = it;
  }
  return best;
}

/**
 * Draw @pkt (the decode JSON) into @el, replacing what it held.  @onSelect(sel) is called with
 * {layer, field (null for a whole layer), off, len} when the selection changes.
 * @return {select(key or {layer, field} index), selectByte(off), selected()}.
 */
export function renderPacket(el0, pkt, { onSelect } = {}) {
  const doc = el0.ownerDocument;
  ensureStyle(doc);
  el0.replaceChildren();
  const root = el(doc, "div", "pkt");
  const bytes = hexBytes(pkt.hex || "");
  const summary = el(doc, "div", "pkt-summary", pkt.summary || "");
  if (pkt.stream) {
    const s = pkt.stream;
    summary.appendChild(el(doc, "span", "pkt-muted",
      `  [stream ${s.name !== null && s.name !== undefined ? s.name : "#" + s.index} seq ${s.seq}]`));
  }
  if (pkt.truncated) summary.appendChild(el(doc, "span", "pkt-muted", "  [truncated]"));
  root.appendChild(summary);

  // ---- the tree ----
  const tree = el(doc, "div", "pkt-tree");
  const top = el(doc, "ul");
  top.setAttribute("role", "tree");
  top.setAttribute("aria-label", "decoded layers");
  tree.appendChild(top);
  const items = [];               // every selectable row: {row, layer, field, off, len}
  (pkt.layers || []).forEach((layer, li) => {
    const li_ = el(doc, "li", "pkt-layer");
    li_.setAttribute("role", "treeitem");
    li_.setAttribute("aria-expanded", "true");
    li_.dataset.proto = layer.proto;
    const row = el(doc, "div", "pkt-row",
      `${layer.title}${layer.truncated ? " (truncated)" : ""}`);
    row.appendChild(el(doc, "span", "pkt-muted", `  ${layer.off}..${layer.off + layer.len - 1}, ${layer.len} B`));
    row.tabIndex = -1;
    row.dataset.off = layer.off;
    row.dataset.len = layer.len;
    li_.appendChild(row);
    items.push({ row, layer: li, field: null, off: layer.off, len: layer.len, key: layer.proto });
    const ul = el(doc, "ul");
    ul.setAttribute("role", "group");
    (layer.fields || []).forEach((f, fi) => {
      const fli = el(doc, "li", "pkt-row pkt-field", `${f.name}: ${f.value}`);
      fli.setAttribute("role", "treeitem");
      fli.tabIndex = -1;
      fli.dataset.key = f.key;
      fli.dataset.off = f.off;
      fli.dataset.len = f.len;
      fli.title = `${f.key}: bytes ${f.off}..${f.off + f.len - 1}` +
        (f.bits % 8 || f.bit ? `, bits ${f.bit}..${f.bit + f.bits - 1} of the first` : "");
      ul.appendChild(fli);
      items.push({ row: fli, layer: li, field: fi, off: f.off, len: f.len, key: f.key });
    });
    li_.appendChild(ul);
    top.appendChild(li_);
  });
  root.appendChild(tree);

  // ---- the hex ----
  const hexBox = el(doc, "div", "pkt-hex");
  const table = el(doc, "table");
  table.setAttribute("aria-label", "frame bytes");
  const cells = [], acells = [];
  for (let base = 0; base < bytes.length; base += 16) {
    const tr = el(doc, "tr");
    tr.appendChild(el(doc, "th", null, base.toString(16).padStart(4, "0")));
    const td = el(doc, "td", "pkt-bytes"), ta = el(doc, "td", "pkt-ascii");
    for (let i = base; i < Math.min(base + 16, bytes.length); i++) {
      const b = el(doc, "span", "pkt-b", bytes[i].toString(16).padStart(2, "0"));
      b.dataset.off = i;
      td.appendChild(b);
      cells.push(b);
      const c = bytes[i] >= 0x20 && bytes[i] < 0x7f ? String.fromCharCode(bytes[i]) : ".";
      const a = el(doc, "span", "pkt-a", c);
      a.dataset.aoff = i;
      ta.appendChild(a);
      acells.push(a);
    }
    tr.appendChild(td);
    tr.appendChild(ta);
    table.appendChild(tr);
  }
  hexBox.appendChild(table);
  root.appendChild(hexBox);
  el0.appendChild(root);

  // ---- selection ----
  let current = null;
  const fieldItems = items.filter((it) => it.field !== null);
  function paint(it) {
    for (const c of cells) c.classList.remove("hl", "hl-layer");
    for (const a of acells) a.classList.remove("hl-a", "hl-layer");
    if (!it) return;
    const layer = pkt.layers[it.layer];
    for (let i = layer.off; i < layer.off + layer.len && i < cells.length; i++) {
      cells[i].classList.add("hl-layer");
      acells[i].classList.add("hl-layer");
    }
    for (let i = it.off; i < it.off + it.len && i < cells.length; i++) {
      cells[i].classList.add("hl");
      acells[i].classList.add("hl-a");
    }
  }
  function choose(it, focus) {
    if (current) current.row.setAttribute("aria-selected", "false");
    current = it;
    for (const x of items) x.row.tabIndex = x === it ? 0 : -1;
    if (!it) { paint(null); return; }
    it.row.setAttribute("aria-selected", "true");
    // a field of a collapsed layer: open it so the selection shows
    const li = it.row.closest(".pkt-layer");
    if (it.field !== null && li) li.setAttribute("aria-expanded", "true");
    paint(it);
    if (focus) it.row.focus();
    if (onSelect) {
      const layer = pkt.layers[it.layer];
      onSelect({ layer, field: it.field === null ? null : layer.fields[it.field], off: it.off, len: it.len });
    }
  }
  for (const it of items) it.row.setAttribute("aria-selected", "false");
  if (items.length) items[0].row.tabIndex = 0;

  tree.addEventListener("click", (ev) => {
    const row = ev.target.closest(".pkt-row");
    const it = row && items.find((x) => x.row === row);
    if (!it) return;
    // a layer's row toggles it when clicked again
    if (it.field === null && current === it) {
      const li = row.parentElement;
      li.setAttribute("aria-expanded", li.getAttribute("aria-expanded") === "true" ? "false" : "true");
    }
    choose(it, true);
  });
  const visible = () => items.filter((x) => x.field === null ||
    x.row.closest(".pkt-layer").getAttribute("aria-expanded") === "true");
  tree.addEventListener("keydown", (ev) => {
    const vis = visible();
    const at = Math.max(0, vis.indexOf(current || vis[0]));
    let next = null;
    switch (ev.key) {
      case "ArrowDown": next = vis[Math.min(vis.length - 1, at + (current ? 1 : 0))]; break;
      case "ArrowUp": next = vis[Math.max(0, at - 1)]; break;
      case "Home": next = vis[0]; break;
      case "End": next = vis[vis.length - 1]; break;
      case "ArrowRight":
      case "ArrowLeft": {
        if (!current) return;
        const li = current.row.closest(".pkt-layer");
        if (current.field === null) {
          li.setAttribute("aria-expanded", ev.key === "ArrowRight" ? "true" : "false");
        } else if (ev.key === "ArrowLeft") {
          next = items.find((x) => x.layer === current.layer && x.field === null);
        }
        break;
      }
      case "Enter":
      case " ": next = current || vis[0]; break;
      default: return;
    }
    ev.preventDefault();
    if (next) choose(next, true);
  });
  function byteClick(ev) {
    const t = ev.target;
    const off = t.dataset.off !== undefined ? Number(t.dataset.off) :
      t.dataset.aoff !== undefined ? Number(t.dataset.aoff) : NaN;
    if (Number.isNaN(off)) return;
    const it = itemAt(items, off);
    if (it) choose(it, false);
  }
  table.addEventListener("click", byteClick);

  return {
    // a field by its key ("ipv4.src": the first such) or {layer, field} indices
    select(what) {
      let it = null;
      if (typeof what === "string") it = fieldItems.find((x) => x.key === what) || items.find((x) => x.key === what);
      else if (what) it = items.find((x) => x.layer === what.layer && x.field === (what.field ?? null));
      choose(it || null, false);
      return !!it;
    },
    selectByte(off) {
      const it = itemAt(items, off);
      choose(it, false);
      return !!it;
    },
    selected() {
      if (!current) return null;
      const layer = pkt.layers[current.layer];
      return { layer, field: current.field === null ? null : layer.fields[current.field], off: current.off, len: current.len };
    },
  };
}
