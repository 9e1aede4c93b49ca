// SPDX-License-Identifier: BSD-3-Clause
// The one element maker of the console's views (app.js, runs.js): attributes as given,
// "class" and "dataset" as the DOM names them, the text as text (never as HTML).

export function node(tag, attrs = {}, text = null) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "dataset") Object.assign(e.dataset, v);
    else e.setAttribute(k, v);
  }
  if (text !== null) e.textContent = text;
  return e;
}
