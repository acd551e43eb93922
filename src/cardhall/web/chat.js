// Quick chat at the table (docs/protocol.md, "Quick chat"): the chat button by one's own
// seat (the tools bar is full on a phone) opens a panel of the catalog's phrases and emotes; a line shows as a bubble by its speaker's seat for
// a few seconds; tapping another seat's name mutes it (the server stops sending its
// lines) or unmutes it. The table redraws often: decorate() puts all this back each time.
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { nameText } from "./names.js";

const PHRASES = ["hello", "hurry", "thinking", "well_played", "lucky", "partner", "again",
  "till_dawn", "dropped", "bye"];
const EMOTES = ["smile", "laugh", "cry", "angry", "cool", "shock", "wink", "heart"];
const SHOW_MS = 4000;

export function chatOf(c, tableId, screen, st) {
  const lines = new Map(); // seat → {say, until}
  const key = `cardhall.mute.${tableId}`; // this tab's mutes here (the server keeps them)
  const muted = new Set(JSON.parse(sessionStorage.getItem(key) || "[]"));
  let open = false;
  const pick = (id) => h("button", { type: "button", "data-say": id, onclick: () => {
    open = false;
    c.ws.send({ type: "chat", table: tableId, say: id });
    decorate();
  } }, t(`chat.${id}`));
  const mute = (seat) => {
    const on = !muted.has(seat);
    muted[on ? "add" : "delete"](seat);
    sessionStorage.setItem(key, JSON.stringify([...muted]));
    c.ws.send({ type: "mute", table: tableId, seat, on });
    decorate();
  };
  function decorate() {
    const s = st();
    if (!s) return;
    screen.querySelectorAll(".bubble, .chat-panel, .badge.muted").forEach((e) => e.remove());
    const mine = s.seat >= 0 ? screen.querySelector(".seat.pos-me") : null; // a watcher may not speak
    if (mine) (mine.querySelector("#chat") || mine.appendChild(button())).setAttribute("aria-expanded", String(open));
    for (const el of screen.querySelectorAll(".seat[data-seat]")) {
      const seat = Number(el.dataset.seat);
      const line = lines.get(seat);
      if (line && line.until > Date.now()) {
        el.append(h("span", { class: `bubble${EMOTES.includes(line.say) ? " emote" : ""}`,
          role: "status" }, t(`chat.${line.say}`)));
      }
      const who = el.querySelector(".who");
      const p = s.players[seat];
      if (seat === s.seat || !who || !p || !(p.id || p.bot)) continue;
      const on = muted.has(seat);
      who.classList.add("mutable");
      who.tabIndex = 0;
      who.setAttribute("role", "button");
      who.setAttribute("aria-pressed", String(on));
      who.setAttribute("aria-label", t(on ? "chat.unmute" : "chat.mute", { name: nameText(p.name) }));
      who.onclick = () => mute(seat);
      who.onkeydown = (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); mute(seat); } };
      if (on) who.append(h("span", { class: "badge muted" }, t("chat.muted")));
    }
    if (open && mine) { // over my seat: its chat button stays free to close the panel
      mine.append(h("div", { class: "chat-panel", role: "group", "aria-label": t("chat.panel") },
        ...PHRASES.map(pick), h("div", { class: "emotes" }, ...EMOTES.map(pick))));
    }
  }
  const button = () => h("button", { type: "button", id: "chat", onclick: () => { open = !open; decorate(); } },
    t("chat.open"));
  const off = c.ws.on("chat", (msg) => {
    if (msg.table !== tableId) return;
    lines.set(msg.seat, { say: msg.say, until: Date.now() + SHOW_MS });
    decorate();
    setTimeout(decorate, SHOW_MS + 50);
  });
  return { decorate, off };
}
