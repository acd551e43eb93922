// The table's own words for a replay (roles, actions, the multiplier), so a replay reads
// like the game did.
import { cardEl, splitCards } from "../cards.js";
import { h } from "../dom.js";
import { lastEl, roleLabel } from "../seats.js";
import { multiplierText } from "../settle.js";

export { multiplierText };

/** A frame as the table's helpers read a view: variant, phase, roles, detail. */
export function asView(variant, frame) {
  return { variant, phase: frame.phase, roles: frame.roles, detail: frame.detail || {} };
}

export function roleName(variant, frame, seat) {
  return roleLabel(asView(variant, frame), seat);
}

/** Small card faces for card text ("333444+56", "3335=3333", "Qd Qd"): the cards played. */
export function cardsEl(text) {
  return h("span", { class: "sc-cards" },
    splitCards(text.split("=")[0].replace(/\+/g, " ")).map((c) => cardEl(c, { small: true })));
}

/** An action as the table shows a seat's last one (cards for a play), "—" for none.
 * ``phase`` is the phase it was taken in ("pass" is 不叫 while bidding). */
export function actionEl(variant, phase, frame, text) {
  if (!text) return h("span", { class: "sc-act none" }, "—");
  const wild = (frame.detail || {}).wild;
  return lastEl({ ...asView(variant, frame), phase }, text, wild);
}
