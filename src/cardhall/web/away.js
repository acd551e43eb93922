// What happened while the player was away (docs/protocol.md, `away`; platform ruling 13):
// his connection dropped during a game, 托管 played his seat meanwhile. Told once, when
// he comes back, in a box under the header wherever he is (the table if he still sits
// there, else the lobby): how many turns 托管 took, and, if the game ended meanwhile,
// his result (points and beans) with a link to the game's full settlement (its replay).
// Each box stays until he dismisses it (or follows its link); a language switch redraws.
import { addStrings, t } from "./i18n.js";
import { h } from "./dom.js";

addStrings({
  zh: {
    "away.turns": "您断线期间由托管代打了 {n} 手。",
    "away.none": "您断线期间托管替您看着座位，还没轮到您出牌。",
    "away.over": "您离开期间牌局已结束：",
    "away.won": "您赢了", "away.lost": "您输了",
    "away.result": "{outcome}，积分 {points}，欢乐豆 {beans}。",
    "away.pending": "结算完成后会通知您。",
    "away.see": "查看本局结算", "away.ok": "知道了", "away.label": "断线期间发生的事",
  },
  en: {
    "away.turns": "While you were away, autoplay played {n} turns for you.",
    "away.turns1": "While you were away, autoplay played 1 turn for you.",
    "away.none": "While you were away, autoplay kept your seat; no turn of yours came up.",
    "away.over": "The game ended while you were away: ",
    "away.won": "you won", "away.lost": "you lost",
    "away.result": "{outcome}, points {points}, beans {beans}.",
    "away.pending": "You will see its settlement once it is recorded.",
    "away.see": "See the settlement", "away.ok": "Got it", "away.label": "While you were away",
  },
});

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
