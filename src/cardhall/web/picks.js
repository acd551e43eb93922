// Decisions made by clicking cards, not by reading a list (issue 26): 斗帝主's kitty,
// 找朋友's friend call (a face, then which copy), 保皇's guard call. Cards are toggle
// buttons, and one confirm button names what it sends: always a text the view lists as
// legal, so a picker never offers what the server would refuse.
// The controls are redrawn on every state and selection change: what was clicked is kept
// per decision (memo), and the focus goes back to the button that had it.
import { t } from "./i18n.js";
import { RANKS, cardEl, cardName, rankOf, splitCards } from "./cards.js";
import { h } from "./dom.js";

/** An action text as listed: "@2 call 7s" → {prefix: "@2 ", verb: "call", args: ["7s"]}. */
function parse(text) {
  const m = /^(@\d+\s+)?(\S+)\s*(.*)$/.exec(text);
  return { prefix: m[1] || "", verb: m[2], args: m[3] ? m[3].split(" ") : [] };
}

/** What was clicked for the decision `key`; a new decision starts from `fresh`. */
let memo = { key: "", state: null };
function remembered(key, fresh) {
  if (memo.key !== key) memo = { key, state: fresh() };
  return memo.state;
}

/** The data-focus name of the focused button if it is in a picker. */
function focusedPick() {
  const el = document.activeElement;
  return el && el.closest && el.closest(".picks") ? el.dataset.focus || null : null;
}

function refocus(box, name) {
  const twin = name && box.querySelector(`[data-focus="${name}"]`);
  if (!twin) return;
  const inRow = twin.closest(".pick-row");
  if (inRow) rove(inRow, twin);
  twin.focus({ preventScroll: true });
}

/** How many copies of `card` the hand holds. */
const held = (hand, card) => hand.filter((c) => c === card).length;

/** A card face as a toggle button, with how many the hand holds written under it (on
 * the face it would hide a phone-sized card's corner). */
function pickCard(card, { pressed, label, held: n = 0, focus, onclick }) {
  const b = cardEl(card, { button: true });
  b.classList.add("pick-card");
  b.setAttribute("aria-pressed", String(pressed));
  b.setAttribute("aria-label", label || cardName(card));
  b.dataset.focus = focus;
  b.addEventListener("click", onclick);
  return h("span", { class: "pick-cell" }, b,
    n ? h("span", { class: "held", "aria-hidden": "true" }, t("picks.held.short", { n })) : null);
}

/** Make `target` the one button of its row that Tab stops at (a roving tabindex). */
function rove(rowEl, target) {
  for (const b of rowEl.querySelectorAll("button")) b.tabIndex = b === target ? 0 : -1;
}

/** A row of toggle buttons that Tab enters and leaves in one step and the arrow keys
 * move along, as in a toolbar. */
function row(label, cls, items) {
  const el = h("div", { class: `pick-row ${cls}`, role: "group", "aria-label": label }, ...items);
  rove(el, el.querySelector("button[aria-pressed='true']") || el.querySelector("button"));
  el.addEventListener("keydown", (e) => {
    const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[e.key];
    if (!step) return;
    const all = [...el.querySelectorAll("button")];
    const i = all.indexOf(document.activeElement);
    if (i < 0) return;
    e.preventDefault();
    const next = all[(i + step + all.length) % all.length];
    rove(el, next);
    next.focus();
  });
  return el;
}

function confirmButton(action, label, ui, legal) {
  return h("button", { type: "button", class: "act primary confirm", "data-focus": "confirm",
    "data-action": action, disabled: ui.busy() || !action || !legal.includes(action),
    onclick: () => ui.send(action) }, label);
}

// -- 斗帝主: the kitty ------------------------------------------------------------------

/** "take 7TA": the kept cards by rank, lowest first (the engine's canonical text). */
function takeText(prefix, cards) {
  if (!cards.length) return `${prefix}take none`;
  const ranks = cards.map(rankOf).sort((a, b) => RANKS.indexOf(a) - RANKS.indexOf(b));
  return `${prefix}take ${ranks.join("")}`;
}

/** Which cards `kept` (a count per rank) stands for: the first kept[r] cards of rank r. */
function firstOfEachRank(cards, kept) {
  const seen = {};
  return cards.map((c) => {
    const r = rankOf(c);
    seen[r] = (seen[r] || 0) + 1;
    return seen[r] <= (kept[r] || 0);
  });
}

function kittyPicker(view, legal, ui, redraw) {
  // What is sent is ranks, and the game keeps the kitty's first cards of each rank: so
  // the picker counts per rank and presses those, never showing a suit the hand won't get.
  const d = view.detail || {};
  const kitty = d.kitty_cards || splitCards(d.kitty || "");
  if (!kitty.length) return null;
  const state = remembered(`take|${view.hand.join()}|${kitty.join()}`, () => ({ kept: {} }));
  const pressed = firstOfEachRank(kitty, state.kept);
  const chosen = kitty.filter((_, i) => pressed[i]);
  const action = takeText(parse(legal[0]).prefix, chosen);
  const toggle = (i) => {
    const r = rankOf(kitty[i]);
    state.kept[r] = (state.kept[r] || 0) + (pressed[i] ? -1 : 1);
    redraw();
  };
  const cards = kitty.map((c, i) => pickCard(c, { pressed: pressed[i], focus: `k${i}`,
    onclick: () => toggle(i) }));
  const every = chosen.length === kitty.length;
  const all = h("button", { type: "button", class: "pick-all", "data-focus": "all",
    onclick: () => {
      state.kept = {};
      if (!every) for (const c of kitty) state.kept[rankOf(c)] = (state.kept[rankOf(c)] || 0) + 1;
      redraw();
    } }, t(every ? "picks.none" : "picks.all"));
  const label = chosen.length ? t("picks.take", { n: chosen.length }) : t("picks.takenone");
  return [row(t("picks.kitty"), "pick-cards", cards),
    h("div", { class: "pick-go" }, all, confirmButton(action, label, ui, legal))];
}

// -- 找朋友: the friend call -----------------------------------------------------------

const SUITS = ["s", "h", "c", "d"];
/** A suit's faces as players scan them for a call: the ace first. */
const FACE_ORDER = "AKQJT98765432";
const SYMBOL = { s: "♠", h: "♥", c: "♣", d: "♦" };

function facesOf(suit) {
  return suit === "j" ? ["D", "X"] : [...FACE_ORDER].map((r) => r + suit);
}

function friendPicker(view, legal, ui, redraw) {
  const { prefix } = parse(legal[0]);
  const trump = view.detail && view.detail.trump;
  const state = remembered(`friend|${view.hand.join()}`,
    () => ({ suit: SUITS.find((s) => s !== trump) || "s", card: null, n: 1 }));
  const action = state.card ? `${prefix}call-friend ${state.n} ${state.card}` : null;
  const tabs = [...SUITS, "j"].map((s) => h("button", { type: "button", class: "pick-suit",
    "data-suit": s, "data-focus": `s${s}`, "aria-pressed": String(state.suit === s),
    "aria-label": t(`picks.suit.${s}`) + (s === trump ? ` (${t("picks.trump")})` : ""),
    onclick: () => { state.suit = s; redraw(); } },
  h("span", { class: s === "h" || s === "d" ? "red" : null, "aria-hidden": "true" },
    SYMBOL[s] || t("picks.jokers")),
  s === trump ? h("small", { "aria-hidden": "true" }, t("picks.trump")) : null));
  const cards = facesOf(state.suit).map((c) => {
    const n = held(view.hand, c);
    return pickCard(c, { pressed: state.card === c, focus: `f${c}`,
      label: cardName(c) + (n ? `, ${t("picks.held", { n })}` : ""),
      held: n, onclick: () => { state.card = c; redraw(); } });
  });
  const copies = [1, 2, 3].map((n) => h("button", { type: "button", class: "pick-nth",
    "data-n": n, "data-focus": `n${n}`, "aria-pressed": String(state.n === n),
    onclick: () => { state.n = n; redraw(); } }, t("picks.nth", { n })));
  const label = state.card ? t("picks.friend", { n: state.n, card: cardName(state.card) })
    : t("picks.friend.choose");
  return [row(t("picks.suits"), "pick-suits", tabs),
    row(t("picks.faces"), "pick-cards", cards),
    h("div", { class: "pick-go" }, row(t("picks.which"), "pick-nths", copies),
      confirmButton(action, label, ui, legal))];
}

// -- 保皇: the guard call --------------------------------------------------------------

function guardPicker(view, legal, ui, redraw) {
  const calls = legal.filter((a) => parse(a).verb === "call" && parse(a).args.length === 1);
  const state = remembered(`guard|${view.hand.join()}|${calls.join()}`, () => ({ card: null }));
  const chosen = calls.find((a) => parse(a).args[0] === state.card) || null;
  const cards = calls.map((a) => {
    const c = parse(a).args[0];
    const n = held(view.hand, c);
    return pickCard(c, { pressed: state.card === c, focus: `g${c}`,
      label: `${cardName(c)}, ${t("picks.held", { n })}${n >= 4 ? `: ${t("picks.hidden")}` : ""}`,
      held: n, onclick: () => { state.card = c; redraw(); } });
  });
  const label = state.card ? t("picks.guard", { card: cardName(state.card) }) : t("picks.guard.choose");
  return [row(t("picks.guards"), "pick-cards", cards),
    h("div", { class: "pick-go" }, confirmButton(chosen, label, ui, legal))];
}

/** Which legal actions each picker takes over, and how it draws them. */
const PICKERS = [
  { verb: "take", takes: (a) => a.verb === "take", draw: kittyPicker },
  { verb: "call-friend", takes: (a) => a.verb === "call-friend", draw: friendPicker },
  { verb: "call", takes: (a) => a.verb === "call" && a.args.length === 1, draw: guardPicker },
];

/** The picker for this decision if some of its legal actions are a card choice, else
 * null; `rest(actions)` draws the other answers (保皇's 独保) beside the confirm button. */
export function pickerFor(view, legal, ui, rest = () => []) {
  for (const p of PICKERS) {
    const mine = legal.filter((a) => p.takes(parse(a)));
    if (!mine.length) continue;
    const takes = (a) => p.takes(parse(a));
    const others = rest(legal.filter((a) => !takes(a)));
    const box = h("div", { class: "picks", "data-pick": p.verb });
    const render = () => {
      const had = focusedPick();
      const children = p.draw(view, mine, ui, render);
      if (!children) return false;
      box.replaceChildren(...children);
      box.querySelector(".pick-go").append(...others);
      refocus(box, had);
      return true;
    };
    const had = focusedPick();
    if (!render()) return null;
    // The controls put this box in place of the old one once this returns: refocus then.
    if (had) queueMicrotask(() => refocus(box, had));
    return box;
  }
  return null;
}
