// The seats around the table: name, title, role badge, card count, the one/two-card
// warning, 保皇's places, 托管 and offline marks, and the turn timer. What a seat played
// is drawn in front of it, in the middle of the felt (trick.js).
import { t } from "./i18n.js";
import { cardEl, splitCards } from "./cards.js";
import { actionLabel } from "./actions.js";
import { playCards } from "./judge.js";
import { h } from "./dom.js";
import { display, ownRoleLabel } from "./variants.js";
import { avatarEl } from "./avatar.js";
import { nameText, titleText } from "./names.js";

/** Where the other seats sit, going round from the right (下家) to the left (上家). */
const POSITIONS = { 1: [], 2: ["top"], 3: ["right", "left"], 4: ["right", "top", "left"],
  5: ["right", "topright", "topleft", "left"] };

export function positionOf(seat, me, n) {
  if (me < 0) me = 0; // a watcher sees the table from seat 0's side
  if (seat === me) return "me";
  return POSITIONS[n][(seat - me + n) % n - 1];
}

/** The role's label: the variant's own (/api/variants' display.roles: 斗帝主's emperor is
 * 帝主) before the shared one. A variant that labels an "open" and a "hidden landlord"
 * (五人) has its landlords told apart by the view's detail, where they are known. */
export function roleLabel(view, seat) {
  let role = view.roles[seat];
  if (!role) return null;
  const own = display(view.variant).roles;
  if (role === "landlord" && own["hidden landlord"] && own["open landlord"]) {
    const d = view.detail || {};
    if (d.hidden_landlord === seat) role = "hidden landlord";
    else if (d.landlords && d.landlords.length > 1) role = "open landlord";
  }
  return ownRoleLabel(view.variant, role) || t(`role.${role}`);
}

/** The last action as shown in a seat's bubble: the cards of a play, else the label. */
export function lastEl(view, text, wild) {
  const box = h("div", { class: "last" });
  if (!text) return box;
  if (/^play /.test(text)) {
    const cards = h("div", { class: "cards" });
    for (const c of playCards(text)) cards.append(cardEl(c, { small: true, wild: wild && c[0] === wild }));
    box.append(cards);
  } else if (/^bury/.test(text)) {
    const cards = h("div", { class: "cards" });
    const arg = text.slice(5);
    if (arg) for (const c of splitCards(arg)) cards.append(cardEl(c, { small: true }));
    box.append(h("span", { class: "said" }, actionLabel("bury", view.variant, view.phase)), cards);
  } else {
    box.append(h("span", { class: "said" }, actionLabel(text, view.variant, view.phase)));
  }
  return box;
}

export function seatEl(st, seat, deadline) {
  const view = st.view;
  const p = st.players[seat] || {};
  const n = view ? view.counts[seat] : 0;
  const mine = seat === st.seat;
  const role = view ? roleLabel(view, seat) : null;
  const acting = view && view.acting.includes(seat);
  const el = h("div", {
    class: `seat pos-${positionOf(seat, st.seat, st.players.length)}`, "data-seat": seat,
    "data-acting": acting ? "1" : null,
  });
  const who = h("div", { class: "who" }, avatarEl(p),
    h("span", { class: "name" }, p.id || p.bot ? nameText(p.name) : t("seat.empty")),
    // A bot account (a player's program, docs/bots.md): marked by its name.
    p.bot && p.id ? h("span", { class: "badge mark botmark", title: t("seat.botacct") }, t("seat.bot"))
      : p.title ? h("span", { class: "title" }, titleText(p.title)) : null);
  if (role) who.append(h("span", { class: `badge role r-${view.roles[seat].replace(" ", "-")}` }, role));
  if (p.bot && titleText(p.title) !== t("seat.bot")) {
    who.append(h("span", { class: "badge mark" }, t("seat.bot")));
  }
  if (view && view.auto[seat]) who.append(h("span", { class: "badge mark auto" }, t("seat.auto")));
  if (p.id && !p.connected) who.append(h("span", { class: "badge mark off" }, t("seat.offline")));
  if (view && view.left[seat]) who.append(h("span", { class: "badge mark" }, t("seat.left")));
  el.append(who);
  if (view) {
    const info = h("div", { class: "info" });
    if (!mine) info.append(h("span", { class: "count", "aria-label": t("seat.cards", { n }) },
      h("span", { class: "back", "aria-hidden": "true" }), String(n)));
    if (view.warnings.includes(seat) && n <= 2) {
      info.append(h("span", { class: "badge warn", role: "status" }, t(n === 1 ? "seat.warn1" : "seat.warn2")));
    }
    if (acting && deadline) {
      const secs = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      const clock = h("span", { class: "clock", "data-deadline": deadline }, t("seat.secs", { s: secs }));
      info.append(clock);
    }
    const place = ((view.detail || {}).places || [])[seat];
    if (place) info.append(h("span", { class: "badge place" }, t("seat.place", { n: place })));
    el.append(info);
    const shown = (view.detail.shown || []).find((s) => s.seat === seat);
    if (shown && !mine && shown.hand) {
      const row = h("div", { class: "shown cards", "aria-label": t("seat.shown") });
      for (const c of splitCards(shown.hand)) row.append(cardEl(c, { small: true }));
      el.append(row);
    }
  }
  return el;
}

/** Tick every .clock under root once a second until the root leaves the page. */
export function runClocks(root) {
  const tick = () => {
    if (!root.isConnected) return;
    for (const c of root.querySelectorAll(".clock")) {
      const s = Math.max(0, Math.ceil((Number(c.dataset.deadline) - Date.now()) / 1000));
      c.textContent = t("seat.secs", { s });
      c.classList.toggle("hurry", s <= 5);
    }
  };
  tick();
  const id = setInterval(tick, 500);
  return () => clearInterval(id);
}
