// SPDX-License-Identifier: BSD-3-Clause
// The traffic view's finer controls: start and stop one stream, or one port's streams, from
// their rows (traffic.start / traffic.stop / traffic.resume with "streams"), and "Clear
// counters" (stats.clear).  The same methods a script calls (doc/api.md); app.js builds the
// rows and calls in here for their buttons.

let ctx = null;   // { state, call, refresh, node }: app.js's, given once by initControls

export function initControls(c) {
  ctx = c;
}

// A start's parameters from the start form (rate, count, duration), for the whole run's Start
// and for a row's alike: one reading of the form.
export function startParams() {
  const f = document.getElementById("start-form");
  const params = {};
  const rate = f.rate.value.trim();
  if (rate) params.rate = /^[0-9.]+$/.test(rate) ? Number(rate) : rate;
  if (f.count.value.trim()) params.count = Number(f.count.value.trim());
  if (f.duration.value.trim()) params.duration = Number(f.duration.value.trim());
  return params;
}

async function act(method, params) {
  try {
    await ctx.call(method, params);
  } catch {
    // shown in the error banner by call()
  }
  await ctx.refresh();
}

// The streams a row stands for: the stream itself, or every stream of the port.
function rowStreams(kind, key) {
  return ctx.state.streams.filter((s) => (kind === "stream" ? s.name === key : s.port === key));
}

const SENDING = new Set(["running", "paused"]);

// What a row's Start does now, or why it cannot: {method, params} or {why}.
function startAction(kind, key) {
  const st = ctx.state;
  const list = rowStreams(kind, key);
  if (list.length === 0) return { why: kind === "port" ? "no stream loaded on this port" : "not loaded" };
  if (st.traffic === "bench") return { why: "a benchmark has the ports" };
  if (st.traffic === "running") {
    // A run's streams are fixed at its start: a paused one resumes, the others wait for
    // the next start (each start rebuilds every stream's context).
    const paused = list.filter((s) => s.state === "paused");
    if (paused.length > 0) return { method: "traffic.resume", params: { streams: paused.map((s) => s.name) } };
    return { why: list.every((s) => s.state === "running") ? "sending" : "traffic is running: stop it to start this on its own" };
  }
  return { method: "traffic.start", params: { ...startParams(), streams: list.map((s) => s.name) } };
}

function stopAction(kind, key) {
  const st = ctx.state;
  const list = rowStreams(kind, key).filter((s) => SENDING.has(s.state));
  if (st.traffic !== "running" || list.length === 0) return { why: "not sending" };
  return { method: "traffic.stop", params: { streams: list.map((s) => s.name) } };
}

// This console owns the ports of the row's streams (of the port itself for a port row).
function owns(kind, key) {
  const st = ctx.state;
  const ports = kind === "port" ? [key] : rowStreams(kind, key).map((s) => s.port);
  return st.ready && ports.length > 0 &&
    ports.every((i) => st.ports.some((p) => p.index === i && p.owner === st.session));
}

// The cell with a row's Start and Stop: @kind "stream" (key: its name) or "port" (its index).
export function rowActions(kind, key) {
  const label = kind === "stream" ? `stream ${key}` : `port ${key}'s streams`;
  const td = ctx.node("td", { class: "row-actions" });
  for (const [what, text, get] of [["start", "Start", startAction], ["stop", "Stop", stopAction]]) {
    const b = ctx.node("button", { type: "button", class: `small${what === "stop" ? " danger" : ""}`,
      dataset: { action: what }, "aria-label": `${text} ${label}` }, text);
    b.disabled = true;
    b.toggleAttribute("data-owner-only", true);
    b.addEventListener("click", () => {
      const a = get(kind, key);
      if (a.method) act(a.method, a.params);
    });
    td.append(b);
  }
  return td;
}

// Each row's buttons enabled for what they can do now; a disabled one says why.
export function renderRowControls() {
  if (ctx === null) return;
  for (const b of document.querySelectorAll("td.row-actions button")) {
    const row = b.closest("tr").dataset.row || "";
    const [kind, ...rest] = row.split(":");
    const key = kind === "port" ? Number(rest.join(":")) : rest.join(":");
    const a = (b.dataset.action === "start" ? startAction : stopAction)(kind, key);
    const mine = owns(kind, key);
    const can = mine && a.method !== undefined;
    b.disabled = !can;
    b.title = !mine ? "Take control to change the traffic" : can ? "" : a.why;
    if (b.dataset.action === "start") {
      const text = a.method === "traffic.resume" ? "Resume" : "Start";
      if (b.textContent !== text) {
        b.textContent = text;
        b.setAttribute("aria-label", b.getAttribute("aria-label").replace(/^\S+/, text));
      }
    }
  }
  const clear = document.getElementById("btn-clear");
  clear.disabled = !(ctx.canControl() && ctx.state.traffic !== "bench");
  clear.title = clear.disabled ? "Take control to clear the counters" : "";
}

// "Clear counters": every counter stats.get reports counts from now (stats.clear).
export async function clearCounters() {
  await act("stats.clear", {});
}
