// The settlement board of the table (../settle.js) and the replay: each seat's role,
// points and beans, the reader's beans before → after, how the points came about
// (./explain.js), everyone's cards at the end. Drawn from a plain description, so each
// screen hands it what it knows:
// { variant, result (the engine's), me (the reader's seat, -1: none), seats: [{id, name,
// bot, title}], role(seat) → label or null, hands: by seat, or null; beans / fees /
// balances: by seat as text, as the hall's `settled` says them (beans null: still on its
// way); ratings: by seat {before, after, provisional}, or null }.
import { t } from "../i18n.js";
import { h } from "../dom.js";
import { cardEl, sortCards, splitCards } from "../cards.js";
import { avatarEl } from "../avatar.js";
import { explainEl, placeLabel, seatName, signed } from "./explain.js";
import { nameText } from "../names.js";
import { ratingDelta, ratingText } from "../rating.js";

/** A seat's outcome: won, lost or draw (no points either way: 保皇's 6-place tie); the
 * game's own end when nobody scored (unscored, dissolved); null for no seat. */
export function outcomeOf(result, seat) {
  if (result.ended === "unscored" || result.ended === "dissolved") return result.ended;
  if (seat === null || seat === undefined || seat < 0) return null;
  if (result.winners.includes(seat)) return "won";
  return result.points[seat] === 0 ? "draw" : "lost";
}

/** The headline for the reader's outcome ("胜利！", "平局"…); "" for none. */
export function outcomeText(outcome) {
  return outcome ? t(`sx.outcome.${outcome}`) : "";
}

const levelText = (x) => (x === "T" ? "10" : x);

/** Role, then what the game says of the seat besides (保皇's place, 找朋友's levels). */
function roleText(s, seat) {
  const d = s.result.detail || {};
  const parts = [s.role(seat)];
  if (d.base && Array.isArray(d.places)) parts.push(placeLabel(d.places[seat]));
  if (Array.isArray(d.levels_before) && Array.isArray(d.levels_after)) {
    parts.push(t("sx.level", { a: levelText(d.levels_before[seat]), b: levelText(d.levels_after[seat]) }));
  }
  const outcome = outcomeOf(s.result, seat);
  if (outcome === "won" || outcome === "lost" || outcome === "draw") parts.push(t(`sx.${outcome}`));
  return parts.filter(Boolean).join(" · ");
}

function rowEl(s, seat) {
  const r = s.result;
  const p = s.seats[seat];
  const penalty = (r.penalties || [])[seat] || 0;
  let beans = "";
  if (!p.bot) beans = s.beans === null ? t("sx.settling") : signed(s.beans[String(seat)] ?? 0);
  const outcome = outcomeOf(r, seat);
  return h("tr", { "data-seat": String(seat), class: seat === s.me ? "me" : null,
    "data-outcome": outcome || "", "data-bot": p.bot ? "1" : null },
    h("th", { scope: "row" }, avatarEl(p), nameText(p.name), seat === s.me ? ` (${t("seat.you")})` : "",
      p.title ? h("small", { class: "sx-title" }, p.title) : null, seatRatingEl(s, seat)),
    h("td", { class: "role" }, roleText(s, seat)),
    h("td", { class: "points" }, signed(r.points[seat]),
      penalty ? h("small", { class: "sx-penalty" }, signed(penalty)) : null),
    h("td", { class: s.beans === null && !p.bot ? "beans settling" : "beans" }, beans));
}

/** A seat's rating after the game and its move, under the name ("等级分 1596?（+96）"). */
function seatRatingEl(s, seat) {
  const r = (s.ratings || {})[String(seat)];
  if (!r) return null;
  return h("small", { class: "sx-rating", "data-delta": String(r.after - r.before) },
    t("sx.rating", { r: ratingText(r.after, r.provisional), d: ratingDelta(r.before, r.after) }));
}

/** "before → after", of the reader's beans or rating. */
function balanceEl(before, after) {
  return h("span", { class: "sx-balance" }, h("span", { class: "before" }, String(before)), " → ",
    h("strong", { class: "after" }, String(after)));
}

/** The reader's rating: before → after (change), as his beans are shown. */
function myRatingEl(s) {
  const r = s.me >= 0 ? (s.ratings || {})[String(s.me)] : null;
  if (!r) return null;
  const up = r.after - r.before;
  return h("p", { class: "sx-my-rating", "data-delta": String(up) }, t("sx.rating.mine"),
    balanceEl(r.before, ratingText(r.after, r.provisional)),
    h("span", { class: up > 0 ? "sx-change up" : up < 0 ? "sx-change down" : "sx-change" },
      t("sx.paren", { x: ratingDelta(r.before, r.after) })));
}

function seatsTableEl(s) {
  return h("table", { class: "sx-seats" },
    h("thead", {}, h("tr", {}, ...["settle.seat", "settle.role", "settle.points", "settle.beans"]
      .map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", {}, s.seats.map((_, seat) => rowEl(s, seat))));
}

/** The fee of each seated player: the hall's word, else the game's own (欢乐's beans). */
function feesOf(s) {
  if (s.fees) return s.fees;
  const own = ((s.result.detail || {}).beans || {}).fees;
  if (!Array.isArray(own) || s.beans === null) return null;
  return Object.fromEntries(Object.keys(s.beans).map((seat) => [seat, own[Number(seat)]]));
}

/** "服务费：每人 5", or each player's where they differ. */
function feeEl(s, fees) {
  const seats = Object.keys(fees);
  if (!seats.length) return null;
  const values = seats.map((seat) => fees[seat]);
  const same = values.every((x) => x === values[0]);
  return h("p", { class: "sx-fee" }, t("sx.fee"), same ? t("sx.fee.each", { n: values[0] })
    : seats.map((seat) => `${seatName(s, Number(seat))} ${fees[seat]}`).join(" · "));
}

/** The reader's beans: before → after (change, fee included), or that it is on its way. */
function mineEl(s, fees) {
  if (s.me < 0 || !s.seats[s.me] || s.seats[s.me].bot) return null;
  if (s.beans === null) return h("p", { class: "sx-mine settling" }, t("sx.mine.settling"));
  const key = String(s.me);
  const change = s.beans[key] ?? 0;
  const after = s.balances ? s.balances[key] : undefined;
  const fee = fees ? fees[key] : undefined;
  const said = [signed(change)];
  if (fee !== undefined) said.push(t("sx.fee.in", { n: fee }));
  const text = said.join(t("sx.sep"));
  return h("p", { class: "sx-mine" }, t("sx.mine"),
    after !== undefined ? balanceEl(after - change, after) : null,
    h("span", { class: "sx-change" }, after !== undefined ? t("sx.paren", { x: text }) : text));
}

function cardsEl(s, cards) {
  const wild = (s.result.detail || {}).wild;
  return h("span", { class: "cards" }, sortCards(cards, s.variant, { wild })
    .map((c) => cardEl(c, { small: true, wild: Boolean(wild) && c[0] === wild })));
}

/** Everyone's cards at the end (none when every hand was played out, as in 找朋友). */
function handsEl(s) {
  const hands = (s.hands || []).map((x) => (typeof x === "string" ? splitCards(x) : x || []));
  if (!hands.some((cards) => cards.length)) return null;
  return h("div", { class: "sx-hands" }, h("strong", {}, t("sx.hands")),
    h("ul", {}, hands.map((cards, seat) => h("li", { "data-seat": String(seat) },
      h("span", { class: "sx-who" }, seatName(s, seat)),
      cards.length ? cardsEl(s, cards) : h("span", { class: "sx-empty" }, t("sx.out"))))));
}

/** 找朋友's kitty, whose points 扣底 counted (or not). */
function kittyEl(s) {
  const kitty = (s.result.detail || {}).kitty;
  if (typeof kitty !== "string" || !kitty) return null;
  return h("div", { class: "sx-hands sx-kitty" }, h("strong", {}, t("sx.kitty")),
    cardsEl(s, splitCards(kitty)));
}

/** The whole board: seats, the reader's beans and the fee, the explanation, the cards. */
export function boardEl(s) {
  const fees = feesOf(s);
  return h("div", { class: "sx" }, seatsTableEl(s), mineEl(s, fees), myRatingEl(s),
    fees ? feeEl(s, fees) : null,
    explainEl(s), handsEl(s), kittyEl(s));
}
