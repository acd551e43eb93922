// What happened while the player was away (docs/protocol.md, `away`; platform ruling 13):
// told once he is back, in a box under the header: how many turns 托管 took and, if the
// game ended meanwhile, his result with a link to its replay. Each box stays until he
// dismisses it (or follows its link).
import { t } from "./i18n.js";
import { h } from "./dom.js";

const signed = (n) => (n > 0 ? `+${n}` : String(n));

/** The boxes shown, newest last: the `away` messages not yet dismissed. */
const shown = [];
let root = null;

function turnsText(n) {
  if (n === 0) return t("away.none");
  if (n === 1 && t("away.turns1") !== "away.turns1") return t("away.turns1");
  return t("away.turns", { n });
}

function resultText(msg) {
  const s = msg.settled;
  const seat = msg.seat;
  if (!s || seat === null || seat === undefined) return t("away.pending");
  const won = (s.result.winners || []).includes(seat);
  const points = s.points[String(seat)] ?? (s.result.points || [])[seat] ?? 0;
  const beans = s.beans[String(seat)] ?? 0;
  return t("away.result", { outcome: t(won ? "away.won" : "away.lost"),
    points: signed(points), beans: signed(beans) });
}

function boxEl(msg) {
  const dismiss = () => {
    shown.splice(shown.indexOf(msg), 1);
    draw();
  };
  const lines = [];
  if (msg.turns > 0 || !msg.over) lines.push(h("p", { class: "away-turns" }, turnsText(msg.turns)));
  if (msg.over) {
    lines.push(h("p", { class: "away-result" }, t("away.over"), resultText(msg)));
  }
  const acts = h("div", { class: "acts" });
  if (msg.over && msg.game && msg.settled) {
    acts.append(h("a", { class: "btn away-see", href: `#/replay/${encodeURIComponent(msg.game)}`,
      onclick: dismiss }, t("away.see")));
  }
  acts.append(h("button", { type: "button", class: "away-ok", onclick: dismiss }, t("away.ok")));
  return h("div", { class: "away-box", role: "status", "data-table": msg.table,
    "data-turns": String(msg.turns), "data-over": String(Boolean(msg.over)) },
  h("div", { class: "away-text" }, ...lines), acts);
}

function draw() {
  if (!root) return;
  root.replaceChildren(...shown.map(boxEl));
  root.hidden = shown.length === 0;
}

/** Wire the `away` messages of `socket` to the box in `el` (the shell's #away). */
export function watchAway(el, socket) {
  root = el;
  root.setAttribute("aria-label", t("away.label"));
  socket.on("away", (msg) => {
    const i = shown.findIndex((m) => m.table === msg.table && m.game === msg.game);
    if (i >= 0) shown.splice(i, 1);
    shown.push(msg);
    draw();
  });
  // The settlement of a game that ended while he was away may commit after he is back.
  socket.on("settled", (msg) => {
    const m = shown.find((x) => x.table === msg.table && x.game === msg.game && x.over);
    if (m && !m.settled) {
      m.settled = msg;
      draw();
    }
  });
  window.addEventListener("langchange", () => {
    root.setAttribute("aria-label", t("away.label"));
    draw();
  });
}
