// Small DOM helpers shared by the play screens.

/** h("button", {class: "x", onclick: fn}, "text", child) → an element. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "style") throw new Error("h(): set el.style, not a style attribute (the CSP refuses it)");
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Count down to `at` (ms since the epoch) in el, each second; stops when el leaves. */
export function countdown(el, at, text) {
  const tick = () => {
    if (!el.isConnected && el.dataset.started) return;
    el.dataset.started = "1";
    const s = Math.max(0, Math.ceil((at - Date.now()) / 1000));
    el.textContent = text(s);
    el.dataset.seconds = String(s);
    if (s > 0) setTimeout(tick, 1000 - ((at - Date.now()) % 1000 + 1000) % 1000 || 1000);
  };
  tick();
}
