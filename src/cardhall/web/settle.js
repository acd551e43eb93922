// The settlement at the table: the outcome, the board that explains it (settle/board.js)
// and "play again". Drawn as soon as the game is over, from the view's result; the hall's
// `settled` (beans, fees, balances, titles) fills it in when it comes.
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { roleLabel } from "./seats.js";
import { boardEl, outcomeOf, outcomeText } from "./settle/board.js";
import { titleText } from "./names.js";

export { causeLabel, multiplierText } from "./settle/explain.js";

/** Each seat's cards at the end: the view's detail names them by rank once the game is
 * over; the reader's own, suited, from his hand. */
function handsAtEnd(view) {
  const all = (view.detail || {}).hands;
  if (!Array.isArray(all)) return null;
  return all.map((x, seat) => (seat === view.seat && view.hand.length ? view.hand : x));
}

/** The settlement dialog. ``msg`` is the hall's `settled`, or, while that is on its way,
 * the view's result in its shape (no `type`): beans then read 结算中…, never a dash. */
export function settleEl(st, msg, { again, lobby }) {
  const settled = msg.type === "settled";
  const res = msg.result;
  const me = st.seat;
  const outcome = outcomeOf(res, me);
  const board = boardEl({
    variant: st.view.variant, result: res, me,
    seats: st.players.map((p, seat) => ({ id: p.id, name: p.name, bot: p.bot,
      title: p.bot ? t("seat.bot")
        : titleText((settled && msg.titles[String(seat)]) || p.title || "") })),
    role: (seat) => roleLabel(st.view, seat),
    hands: handsAtEnd({ ...st.view, seat: me }),
    beans: settled ? msg.beans : null,
    fees: settled ? msg.fees || null : null,
    balances: settled ? msg.balances || null : null,
    ratings: settled ? msg.ratings || null : null,
  });
  return h("div", { class: "settle", role: "dialog", "aria-modal": "false", "aria-labelledby": "settle-h",
    "data-settled": settled ? "1" : "0", "data-outcome": outcome || "" },
    h("h2", { id: "settle-h", "data-outcome": outcome || "" },
      t("settle.title"), outcome ? ` · ${outcomeText(outcome)}` : ""),
    board,
    msg.dissolved ? h("p", { class: "sx-note" }, t("settle.dissolved")) : null,
    h("div", { class: "acts" },
      msg.dissolved ? null : h("button", { type: "button", class: "primary", id: "again", onclick: again },
        t("settle.again")),
      h("button", { type: "button", onclick: lobby }, t("settle.lobby"))));
}
