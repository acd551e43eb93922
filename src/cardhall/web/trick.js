// The middle of the felt: a slot per seat on its side, holding in the play phase only the
// trick on the table (`table.acted` or `table.plays`), the winning play highlighted, a
// trick game's plays numbered. Between tricks the finished one stays, dimmed, with who
// took it; during a trick the last one can be peeked at. Outside the play phase the
// slots are the seats' last words (bids, calls, answers).
import { t } from "./i18n.js";
import { cardEl, splitCards } from "./cards.js";
import { h } from "./dom.js";
import { lastEl, positionOf } from "./seats.js";
import { nameText } from "./names.js";

const nameOf = (st, seat) => (st.players[seat] && nameText(st.players[seat].name)) || `#${seat}`;

/** What each seat's slot shows now: {seat: {text, order, lead, win, took, stale}}. */
export function slotsOf(view, { peek = false } = {}) {
  const n = view.counts.length;
  const out = {};
  const table = view.table;
  const d = view.detail || {};
  if (view.phase !== "play") {
    view.last.forEach((text, seat) => { if (text) out[seat] = { text }; });
    return out;
  }
  const last = d.last_trick;
  if (table && table.plays && !peek) { // a trick game's trick so far, in playing order
    table.plays.forEach((p, i) => {
      out[p.seat] = { text: `play ${p.cards}`, order: i + 1, lead: i === 0, win: p.seat === table.seat };
    });
    return out;
  }
  if (last && (peek || !table)) { // the trick just taken (or peeked at), dimmed
    last.plays.forEach(([seat, cards], i) => {
      out[seat] = { text: `play ${cards}`, order: i + 1, lead: i === 0, took: seat === last.winner,
        stale: true };
    });
    return out;
  }
  if (table && table.acted) {
    // A climbing game: each seat that acted in this trick, its latest word. No order:
    // a trick goes round as long as someone beats it, so first-to-act is not who leads now.
    for (const seat of table.acted) {
      const text = view.last[seat];
      if (text) out[seat] = { text, win: seat === table.seat };
    }
    return out;
  }
  if (!table && view.played.some(Boolean)) { // between tricks: the one just closed, dimmed
    for (let seat = 0; seat < n; seat++) {
      const text = view.last[seat];
      if (text) out[seat] = { text, stale: true };
    }
  }
  return out;
}

function slotEl(st, seat, slot, wild) {
  const view = st.view;
  const pos = positionOf(seat, st.seat, st.players.length);
  const el = h("div", { class: `slot pos-${pos}`, "data-seat": seat });
  if (!slot) return el;
  if (slot.stale) el.dataset.stale = "1";
  if (slot.win) el.dataset.win = "1";
  if (slot.took) el.dataset.took = "1";
  if (slot.lead) el.dataset.lead = "1";
  if (slot.order) el.dataset.order = String(slot.order);
  const bubble = lastEl(view, slot.text, wild);
  bubble.dataset.seat = String(seat);
  const marks = h("div", { class: "marks" });
  if (slot.order && view.phase === "play") {
    marks.append(h("span", { class: "order", title: t("pit.order", { n: slot.order }) }, String(slot.order)));
  }
  if (slot.lead) marks.append(h("span", { class: "badge lead" }, t("pit.lead")));
  if (slot.win) marks.append(h("span", { class: "badge win" }, t("pit.win")));
  if (slot.took) marks.append(h("span", { class: "badge win" }, t("pit.took")));
  if (marks.childElementCount) el.append(marks);
  el.append(bubble);
  return el;
}

/** The called card (找朋友's friend call, 保皇's guard card) and who it turned out to be. */
export function calledEl(st) {
  const view = st.view;
  const d = view.detail || {};
  const show = (label, card, who) => h("div", { class: "called", role: "note" },
    h("span", { class: "lbl" }, label), cardEl(card, { small: true }), h("span", { class: "who" }, who));
  if (d.friend_call) {
    const label = t("table.friendcall", { n: d.friend_call.n, c: "" }).replace(/\s+$/, "");
    const who = d.friend === null || d.friend === undefined ? t("pit.friend.unknown")
      : t("pit.friend", { name: nameOf(st, d.friend) });
    return show(label, d.friend_call.card, who);
  }
  if (d.called) {
    const guard = view.roles.findIndex((r) => r === "guard");
    const who = guard < 0 ? t("pit.guard.unknown") : t("pit.guard", { name: nameOf(st, guard) });
    return show(t("pit.called"), d.called, who);
  }
  return null;
}

/** A line under the slots: who led and who is winning, or who took the last trick and its
 * points; and the button to peek at the last trick while a new one is under way. */
function infoEl(st, peek, onPeek) {
  const view = st.view;
  const d = view.detail || {};
  const table = view.table;
  const bits = [];
  const last = d.last_trick;
  if (view.phase === "play" && last && (peek || !table)) {
    bits.push(t("pit.last", { name: nameOf(st, last.winner) }));
    if (last.points) bits.push(t("pit.points", { n: last.points }));
  } else if (view.phase === "play" && table && table.plays) {
    bits.push(t("pit.leader", { name: nameOf(st, table.leader) }));
    if (table.plays.length > 1) bits.push(t("pit.winning", { name: nameOf(st, table.seat) }));
  }
  const box = h("div", { class: "pit-info", role: "status" }, h("span", {}, bits.join(" · ")));
  if (view.phase === "play" && last && table) {
    box.append(h("button", { type: "button", id: "peek", "aria-pressed": String(peek), onclick: onPeek },
      t(peek ? "pit.peek.off" : "pit.peek")));
  }
  return box;
}

/** The middle of the felt: the kitty, the called card, a slot per seat and the line. */
export function pitEl(st, { peek = false, onPeek = () => {} } = {}) {
  const view = st.view;
  const wild = view.detail && view.detail.wild;
  const slots = slotsOf(view, { peek });
  const pit = h("div", { class: "pit", "data-peek": peek ? "1" : null });
  const top = h("div", { class: "pit-top" });
  const d = view.detail || {};
  const kitty = d.kitty || d.kitty_taken;
  if (kitty && typeof kitty === "string") {
    const row = h("div", { class: "kitty cards", role: "group", "aria-label": t("table.kitty") },
      h("span", { class: "lbl" }, t("table.kitty")));
    // With their suits where the game gives them (the climbing games' kitty_cards).
    for (const c of d.kitty_cards || splitCards(kitty)) row.append(cardEl(c, { small: true }));
    top.append(row);
  }
  const called = calledEl(st);
  if (called) top.append(called);
  if (top.childElementCount) pit.append(top);
  const ring = h("div", { class: "ring" });
  for (let seat = 0; seat < st.players.length; seat++) ring.append(slotEl(st, seat, slots[seat], wild));
  ring.append(infoEl(st, peek, onPeek)); // in the middle of the ring, where no seat plays
  pit.append(ring);
  return pit;
}
