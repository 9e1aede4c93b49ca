// SPDX-License-Identifier: BSD-3-Clause
// The console's session: what the user was doing (the editor's text and its name, the open
// view, the charts' window and measure, the builder's and the runs' selections) kept in the
// browser's localStorage, so that a reload, or the console opened again tomorrow, starts
// where it was left.  The API every module uses (doc/web.md, "Session"):
//
//   import { session } from "./session.js";
//   session.get("runs.selected", [])     // the value kept, or the fallback
//   session.set("runs.selected", ids)    // any JSON value; undefined removes the key
//   session.remove("runs.selected")
//   session.bind(selectElement, "chart.window")   // restore now, keep each change
//
// Keys are "<module>.<what>" (editor.text, view, chart.window, builder.*, runs.*): one
// namespace, one module writing each key.  Everything lives in ONE localStorage item,
// "wr.session", a JSON object: localStorage is per origin, so each server a browser reaches
// (host and port, a tunnel's included) has a session of its own.  The tab's ownership secret
// is not here: it stays in sessionStorage (app.js), a tab's and not every tab's.

const ITEM = "wr.session";
const VERSION = 1;

// What this tab knows: the stored object, re-read before each write, so two tabs of the
// same console writing different keys do not undo each other's.
let memory = { v: VERSION };
let refused = false;   // the browser refused a write: this tab's copy is the one that counts

function load() {
  if (refused) return memory;
  try {
    const text = localStorage.getItem(ITEM);
    if (text === null) return { v: VERSION };
    const o = JSON.parse(text);
    // A session written by another version of the page is started afresh rather than
    // half understood.
    if (o === null || typeof o !== "object" || Array.isArray(o) || o.v !== VERSION) return { v: VERSION };
    return o;
  } catch {
    // Storage disabled (a locked-down profile) or a corrupt item: the page works, it forgets.
    return memory;
  }
}

function store(o) {
  memory = o;
  try {
    localStorage.setItem(ITEM, JSON.stringify(o));
    return true;
  } catch {
    // Quota exceeded (a browser's 5 MiB per origin) or storage disabled: kept in this tab only.
    refused = true;
    return false;
  }
}

function checkKey(key) {
  if (typeof key !== "string" || key === "" || key === "v") throw new TypeError(`session: bad key ${JSON.stringify(key)}`);
}

// The value kept under @key, a fresh copy (a caller may change it), else @fallback.
function get(key, fallback = undefined) {
  checkKey(key);
  const o = load();
  memory = o;
  if (!Object.prototype.hasOwnProperty.call(o, key)) return fallback;
  return JSON.parse(JSON.stringify(o[key]));
}

// Keep @value (JSON: strings, numbers, booleans, null, arrays, plain objects) under @key; false
// when the browser refused to store it (then this tab still remembers it).
function set(key, value) {
  checkKey(key);
  const o = load();
  if (value === undefined) delete o[key];
  else o[key] = JSON.parse(JSON.stringify(value));
  return store(o);
}

function remove(key) {
  return set(key, undefined);
}

// Every key kept, for a module that keeps several ("builder." ...).
function keys(prefix = "") {
  return Object.keys(load()).filter((k) => k !== "v" && k.startsWith(prefix));
}

// Keep a form control's value under @key: the kept value restored now (a <select> only to
// one of its options: a window the page no longer offers is not forced on it), every change
// kept.  Returns true when a value was restored, so the caller redraws with it.
function bind(el, key) {
  const kept = get(key);
  let restored = false;
  if (typeof kept === "string" && kept !== el.value) {
    if (el.tagName !== "SELECT" || [...el.options].some((o) => o.value === kept)) {
      el.value = kept;
      restored = true;
    }
  }
  const save = () => set(key, el.value);
  el.addEventListener("change", save);
  if (el.tagName !== "SELECT") el.addEventListener("input", save);
  return restored;
}

// Forget the whole session of this console (every key, every module's).
function clear() {
  try {
    localStorage.removeItem(ITEM);
  } catch {
    // nothing stored
  }
  memory = { v: VERSION };
  refused = false;
}

export const session = { get, set, remove, keys, bind, clear };
