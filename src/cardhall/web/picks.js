// Decisions made by clicking cards, not by reading a list (issue 26): 斗帝主's kitty (keep
// any of the six cards), 找朋友's friend call (a card of the 54 faces, then which copy of
// it), 保皇's guard call (one of the cards he holds three of). Each draws the cards it
// chooses among as large toggle buttons and one confirm button that names what it will
// send; what it sends is always a text the view lists as legal, built from the cards
// clicked, so a picker never offers what the server would refuse.
//
// A click draws the picker again in place. The controls around it are drawn again on
// every state and every change of the hand's selection: what was clicked is kept here,
// per decision (memo), and either way the focus goes back to the button that had it,
// so that a keyboard player keeps his place.
import { addStrings, t } from "./i18n.js";
import { RANKS, cardEl, cardName, rankOf, splitCards } from "./cards.js";
import { h } from "./dom.js";

addStrings({
  zh: {
    "picks.kitty": "底牌（点选要拿的牌）", "picks.take": "拿这 {n} 张",
    "picks.takenone": "一张不拿", "picks.all": "全选", "picks.none": "全不选",
    "picks.faces": "叫哪张牌", "picks.suits": "花色", "picks.which": "第几张",
    "picks.nth": "第{n}张", "picks.friend": "叫朋友：第{n}张 {card}",
    "picks.friend.choose": "请先点一张牌", "picks.guard": "叫侍卫 {card}",
    "picks.guard.choose": "点一张牌叫侍卫", "picks.guards": "可叫的侍卫牌",
    "picks.held": "你有{n}张", "picks.held.short": "有{n}张",
    "picks.hidden": "四张都在你手里：暗独保", "picks.trump": "主", "picks.jokers": "王",
    "picks.suit.s": "黑桃", "picks.suit.h": "红桃", "picks.suit.c": "梅花", "picks.suit.d": "方块",
    "picks.suit.j": "王",
  },
  en: {
    "picks.kitty": "Kitty (click the cards to keep)", "picks.take": "Keep these {n}",
    "picks.takenone": "Keep none", "picks.all": "Select all", "picks.none": "Select none",
    "picks.faces": "Card to call", "picks.suits": "Suit", "picks.which": "Which copy",
    "picks.nth": "Copy {n}", "picks.friend": "Call friend: copy {n} of {card}",
    "picks.friend.choose": "Click a card first", "picks.guard": "Call guard {card}",
    "picks.guard.choose": "Click a card to call your guard",
    "picks.guards": "Cards you can call", "picks.held": "you hold {n}",
    "picks.held.short": "have {n}", "picks.hidden": "you hold all four: a hidden solo",
    "picks.trump": "trump", "picks.jokers": "JK",
    "picks.suit.s": "Spades", "picks.suit.h": "Hearts", "picks.suit.c": "Clubs",
    "picks.suit.d": "Diamonds", "picks.suit.j": "Jokers",
  },
});

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

/**
 * A card face as a toggle button of the picker (44 px and more: CSS .picks), with
 * `held`, how many of it the hand holds, written under it (on the face it would hide
 * the corner or the pip of a phone-sized card).
 */
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

/**
 * A row of toggle buttons that Tab enters and leaves in one step (at the pressed one,
 * else the first) and the arrow keys move along, as in a toolbar.
 */
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
  // With their suits where the view gives them (kitty_cards). What is sent is ranks, and
  // the game keeps the kitty's first cards of each rank: so the picker counts per rank
  // and shows those pressed (a click on the second A presses the first), never a suit
  // the hand will not get.
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

/** Which legal actions each picker takes over (by verb: the protocol's words, as in
 * actions.js) and how it draws its children. */
const PICKERS = [
  { verb: "take", takes: (a) => a.verb === "take", draw: kittyPicker },
  { verb: "call-friend", takes: (a) => a.verb === "call-friend", draw: friendPicker },
  { verb: "call", takes: (a) => a.verb === "call" && a.args.length === 1, draw: guardPicker },
];

/**
 * The picker for this decision if some of its legal actions are a card choice, else
 * null. `rest(actions)` draws the buttons of the other answers (保皇's 独保), which go
 * beside the confirm button.
 */
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
    // Drawn again from outside (a state, the hand): the controls put this box in place
    // of the old one once this returns, so the focus follows then.
    if (had) queueMicrotask(() => refocus(box, had));
    return box;
  }
  return null;
}
