// The table's liveliness: what just happened, animated and sounded. The table is drawn
// anew from each `state`, so after each draw `liven` compares it with the last state of
// that table and marks the elements drawn (fx-deal, fx-new, fx-play, fx-bomb, fx-pass…),
// with a burst over the page for a bomb, the rocket, a spring. What happened comes from
// the state's `events`, or for a full state from the change of the view. The marks are
// classes only: the animations are CSS (fx.css), off with effects or reduced motion.
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { muted, setMuted, sound } from "./sound.js";

const KEY = "cardhall.fx";
/** How long a mark is kept over a redraw of the same state (the longest animation). */
const KEEP_MS = 1600;
/** The multiplier's causes that count bombs (every variant's names), and the rocket's. */
const BOMB_CAUSES = ["bomb", "bombs", "soft", "hard", "pure"];
const ROCKETS = new Set(["rocket", "four_jokers"]);
/** The sound of a change with several steps: its loudest (a pass, a play, a bomb, the rocket). */
const LOUDNESS = ["pass", "play", "bomb", "rocket"];

export function effectsOn() {
  return localStorage.getItem(KEY) !== "0";
}

function setEffects(on) {
  localStorage.setItem(KEY, on ? "1" : "0");
  document.documentElement.dataset.fx = on ? "on" : "off";
}
document.documentElement.dataset.fx = effectsOn() ? "on" : "off";

/** @typedef {{kind: "play"|"pass", seat: number, bomb?: boolean, rocket?: boolean}} Step */

/** A seat's play or pass from an engine event (others: null). */
function stepOf(e) {
  if (e.type === "pass") return { kind: "pass", seat: e.seat };
  if (e.type !== "play") return null;
  const rocket = ROCKETS.has(e.kind);
  return { kind: "play", seat: e.seat, rocket, bomb: Boolean(e.bomb) && !rocket };
}

const causes = (view) => (view.multiplier && view.multiplier.causes) || {};

/** The steps of a change told by no events (a full state): each seat whose last word
 * changed; a play is a bomb or the rocket when the multiplier's cause for it grew. */
function stepsFromViews(before, view) {
  const was = causes(before);
  const now = causes(view);
  const grew = (k) => (now[k] || 0) > (was[k] || 0);
  const steps = [];
  view.last.forEach((text, seat) => {
    if (!text || text === before.last[seat]) return;
    if (text === "pass") steps.push({ kind: "pass", seat });
    else if (text.startsWith("play ")) {
      const rocket = grew("rocket");
      steps.push({ kind: "play", seat, rocket, bomb: !rocket && BOMB_CAUSES.some(grew) });
    }
  });
  return steps;
}

/** Cards in `after` beyond those in `before` (multisets of card texts). */
function gained(before, after) {
  const left = new Map();
  for (const c of before) left.set(c, (left.get(c) || 0) + 1);
  const out = [];
  for (const c of after) {
    const n = left.get(c) || 0;
    if (n) left.set(c, n - 1);
    else out.push(c);
  }
  return out;
}

/** What happened from the last state seen (`seen`, maybe none) to `st`. */
function happenings(seen, st) {
  const view = st.view;
  const same = Boolean(seen && seen.game === st.game);
  const out = { deal: false, got: [], steps: [], turn: false, over: null };
  const hadHand = same ? seen.view.hand : null;
  if (view.hand.length && ((seen ? !same : st.seq === 0) || (hadHand && !hadHand.length))) out.deal = true;
  else if (hadHand && view.hand.length > hadHand.length) out.got = gained(hadHand, view.hand);
  const me = st.seat;
  out.turn = Boolean(seen) && me >= 0 && view.acting.includes(me) && !view.auto[me]
    && !(same && seen.view.acting.includes(me));
  if (!same || st.seq <= seen.seq) return out;
  const told = st.seq === seen.seq + 1 && Array.isArray(st.events) && st.events.length
    ? st.events.map(stepOf).filter(Boolean) : null;
  out.steps = told || stepsFromViews(seen.view, view);
  if (view.result && !seen.view.result) out.over = view.result;
  return out;
}

/** Per table, the last state livened and the marks it made, when.
 * @type {Map<string, {game: string, seq: number, view: object, marks: Array<[Element, string[]]>, at: number}>} */
const livened = new Map();

let layer = null;
/** The layer over the page where bursts and banners go (it outlives the table's redraws). */
function layerEl() {
  if (!layer || !layer.isConnected) {
    layer = h("div", { id: "fx-layer", "aria-hidden": "true" });
    document.body.append(layer);
  }
  return layer;
}

/** `at` moved to lie `margin` from both ends of 0…size (the middle if size is small). */
function within(at, size, margin) {
  const m = Math.min(margin, size / 2);
  return Math.round(Math.min(size - m, Math.max(m, at)));
}

/** A burst (bomb, rocket) over `at`'s middle, or a banner (spring) over the page's. */
function burst(cls, text, at) {
  if (!effectsOn()) return;
  const el = h("div", { class: `fx-burst ${cls}` }, h("span", {}, text));
  const box = at ? at.getBoundingClientRect() : null;
  if (box && box.width) { // over the play, but whole on the screen (a slot at its edge)
    el.style.left = `${within(box.left + box.width / 2, window.innerWidth, 150)}px`;
    el.style.top = `${within(box.top + box.height / 2, window.innerHeight, 110)}px`;
  }
  layerEl().append(el);
  setTimeout(() => el.remove(), KEEP_MS + 400);
}

function mark(rec, el, ...classes) {
  if (!el) return;
  el.classList.add(...classes);
  rec.marks.push([el, classes]);
}

/** After a redraw of the same state: the marks again, their animations carried on from
 * where they were (a negative delay), not started over. */
function remark(screen, rec) {
  const gone = performance.now() - rec.at;
  if (gone > KEEP_MS) return;
  for (const [old, classes] of rec.marks) {
    const el = old.isConnected ? old : findAgain(screen, old);
    if (!el) continue;
    el.classList.add(...classes);
    el.style.setProperty("--fx-t", `${-Math.round(gone)}ms`);
  }
}

/** The element drawn anew in place of `old` (a slot by its seat; the hand stays itself). */
function findAgain(screen, old) {
  if (old.classList.contains("slot")) return screen.querySelector(`.pit .slot[data-seat="${old.dataset.seat}"]`);
  if (old.classList.contains("felt")) return screen.querySelector(".felt");
  return null;
}

/** Mark and sound what just happened, on the screen just drawn for `st`; a redraw of the
 * state already seen only carries its marks on. */
export function liven(screen, st) {
  if (!st || !st.view || !st.view.hand) return;
  const last = livened.get(st.table);
  if (last && last.game === st.game && last.seq === st.seq) {
    remark(screen, last);
    return;
  }
  const rec = { game: st.game, seq: st.seq, view: st.view, marks: [], at: performance.now() };
  livened.set(st.table, rec);
  const what = happenings(last, st);
  const hand = screen.querySelector(".hand");
  if (hand) {
    hand.classList.remove("fx-deal", "fx-got");
    hand.style.removeProperty("--fx-t");
    hand.querySelectorAll(".fx-new").forEach((c) => c.classList.remove("fx-new"));
  }
  if (what.deal && hand) {
    hand.querySelectorAll(".card").forEach((c, i) => c.style.setProperty("--i", String(i)));
    mark(rec, hand, "fx-deal");
    sound("deal");
  } else if (what.got.length && hand) {
    mark(rec, hand, "fx-got");
    const want = [...what.got];
    for (const c of hand.querySelectorAll(".card")) {
      const k = want.indexOf(c.dataset.card);
      if (k >= 0) { want.splice(k, 1); c.classList.add("fx-new"); }
    }
  }
  let loudest = -1;
  for (const step of what.steps) {
    const slot = screen.querySelector(`.pit .slot[data-seat="${step.seat}"]`);
    if (step.kind === "pass") {
      mark(rec, slot, "fx-pass");
      loudest = Math.max(loudest, 0);
      continue;
    }
    const big = step.rocket ? "fx-rocket" : step.bomb ? "fx-bomb" : null;
    mark(rec, slot, "fx-play", ...(big ? [big] : []));
    if (big) {
      mark(rec, screen.querySelector(".felt"), "fx-shake");
      burst(big, t(step.rocket ? "fx.rocket" : "fx.bomb"), slot);
    }
    loudest = Math.max(loudest, step.rocket ? 3 : step.bomb ? 2 : 1);
  }
  if (loudest >= 0) sound(LOUDNESS[loudest]);
  if (what.over) over(st, what.over);
  else if (what.turn) sound("turn");
}

/** The game is over: a spring's banner, and the win or loss sounded. */
function over(st, result) {
  const d = result.detail || {};
  const spring = ((result.multiplier || {}).causes || {}).spring > 1 || Boolean(d.spring);
  if (spring) {
    const anti = d.spring === "anti-spring";
    burst("fx-spring", t(anti ? "fx.antispring" : "fx.spring"), null);
    sound("spring");
  }
  if (st.seat >= 0) sound(result.winners.includes(st.seat) ? "win" : "lose");
}

/** A small line icon: `parts`, each a path and how it is drawn ("fill" or "line"). */
function icon(parts) {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "fx-icon");
  for (const [d, how] of parts) {
    const p = document.createElementNS(NS, "path");
    p.setAttribute("d", d);
    p.setAttribute("class", how);
    svg.append(p);
  }
  return svg;
}

const SPEAKER = ["M3 9h4l5-4v14l-5-4H3z", "fill"];
const WAVES = ["M15 8.5a5 5 0 0 1 0 7M17.5 6a8.5 8.5 0 0 1 0 12", "line"];
const CROSS = ["M15 9l6 6M21 9l-6 6", "line"];
const SPARK = ["M11 2l2.2 6.3L19.5 10l-6.3 2.2L11 18.5l-2.2-6.3L2.5 10l6.3-1.7z", "fill"];
const TWINKLE = ["M19 14l.9 2.1 2.1.9-2.1.9L19 20l-.9-2.1-2.1-.9 2.1-.9z", "fill"];
const SLASH = ["M3 3l18 18", "line"];

/** The bar's two switches, sound and effects (each remembered): `redraw` after a change. */
export function fxTools(redraw) {
  const on = !muted();
  const fx = effectsOn();
  return [
    h("button", { type: "button", id: "sound-toggle", class: "fx-tool", "aria-pressed": String(on),
      title: t("fx.sound"), "aria-label": t("fx.sound"),
      onclick: () => { setMuted(on); if (!on) sound("play"); redraw(); } },
    icon([SPEAKER, on ? WAVES : CROSS])),
    h("button", { type: "button", id: "fx-toggle", class: "fx-tool", "aria-pressed": String(fx),
      title: t("fx.effects"), "aria-label": t("fx.effects"),
      onclick: () => { setEffects(!fx); redraw(); } },
    icon([SPARK, fx ? TWINKLE : SLASH])),
  ];
}
