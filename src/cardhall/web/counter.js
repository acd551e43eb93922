// 记牌器: how many of each rank (and, where plays follow suit, of each suit) are still out,
// from public cards only: the deck less the cards every seat has played (view.played) and
// the own hand. Nobody's hidden cards enter.
import { t } from "./i18n.js";
import { RANKS, rankOf, splitCards, suitOf } from "./cards.js";
import { h } from "./dom.js";

const SUITS = "shcd";
const SUIT_SIGN = { s: "♠", h: "♥", c: "♣", d: "♦" };

/** Cards still out: {ranks: {rank: n}, suits: {suit: n}}, from `deck`, the variant's
 * cards per rank (保皇 has no 3, 4 or 5). */
export function remaining(view, deck) {
  const ranks = {};
  const suits = {};
  for (const r of RANKS) ranks[r] = deck[r] || 0;
  const perSuit = [...RANKS].filter((r) => r !== "X" && r !== "D")
    .reduce((n, r) => n + ranks[r] / 4, 0);
  for (const s of SUITS) suits[s] = perSuit;
  const take = (c) => {
    ranks[rankOf(c)] -= 1;
    if (suits[suitOf(c)] !== undefined) suits[suitOf(c)] -= 1;
  };
  view.played.forEach((p) => splitCards(p).forEach(take));
  view.hand.forEach(take);
  return { ranks, suits };
}

/** One count: `data` names what it counts (data-rank / data-suit), `name` says it aloud. */
function cell(data, kind, label, name, n) {
  return h("span", { ...data, class: ["cell", kind, n ? "" : "gone"].filter(Boolean).join(" "),
    role: "img", "aria-label": `${name}: ${n}` },
  h("b", { "aria-hidden": "true" }, label), h("i", { "aria-hidden": "true" }, String(n)));
}

/** The counter for a variant as /api/variants describes it (`deck`; `suits` adds a count
 * per suit); ranks the deck lacks get no cell. */
export function counterEl(view, described) {
  const left = remaining(view, described.deck);
  const suits = described.suits;
  const label = (r) => ({ T: "10", X: t("lang.x"), D: t("lang.d") }[r] || r);
  return h("div", { class: "counter", role: "region", "aria-label": t("counter.title") },
    h("span", { class: "ctitle", title: t("counter.help") }, t("counter.title")),
    ...[...RANKS].reverse().filter((r) => described.deck[r]).map((r) => cell({ "data-rank": r }, "",
      label(r), label(r), left.ranks[r])),
    ...(suits ? [...SUITS].map((s) => cell({ "data-suit": s }, "suit", SUIT_SIGN[s],
      t(`suit.${s}`), left.suits[s])) : []));
}
