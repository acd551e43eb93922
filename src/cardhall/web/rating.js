// Skill ratings as shown (docs/protocol.md, "Skill ratings"): "?" while provisional, a
// change with its sign, a history as a small SVG line (its look in CSS: the CSP refuses
// inline styles).
import { t } from "./i18n.js";

/** "1596?" while provisional, else "1596". */
export function ratingText(rating, provisional) {
  return `${rating}${provisional ? "?" : ""}`;
}

/** "+96", "−80", "±0". */
export function ratingDelta(before, after) {
  const d = after - before;
  if (d > 0) return `+${d}`;
  return d < 0 ? `−${-d}` : "±0";
}

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** The history (ratings after each game, oldest first) as a line in a `w`×`h` box, with
 * the newest marked; one game draws a flat line from where the rating started. */
export function chartEl(history, { start = 1500, w = 160, h = 40 } = {}) {
  const values = [start, ...history.map((p) => p.rating)];
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = Math.max(high - low, 20);
  const pad = 4;
  const x = (i) => pad + (i * (w - 2 * pad)) / Math.max(values.length - 1, 1);
  const y = (v) => h - pad - ((v - low) * (h - 2 * pad)) / span;
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const last = values.length - 1;
  const label = t("rt.chart", { a: values[0], b: values[last], n: history.length });
  const el = svg("svg", { class: "rt-chart", viewBox: `0 0 ${w} ${h}`, width: w, height: h,
    role: "img", "aria-label": label, "data-games": history.length });
  const title = svg("title", {});
  title.textContent = label;
  el.append(title,
    svg("line", { class: "rt-base", x1: pad, x2: w - pad, y1: y(start), y2: y(start) }),
    svg("polyline", { class: "rt-line", points, fill: "none" }),
    svg("circle", { class: "rt-dot", cx: x(last), cy: y(values[last]), r: 3 }));
  return el;
}
