// #/friends (好友): find players by name, requests in and out, the friends with where they
// are (观战 their table; 邀请 to this player's private table while it fills), blocks.
// A pushed `friend` shows a notice (and redraws the screen); a pushed `brought` (a
// friend's invite to his table) a prompt with 加入 (docs/protocol.md, "Friends").
// Nothing is pushed when a friend comes online or sits down: while the screen is shown
// (and the page visible) the list is read again every REFRESH_MS, and at once when the
// page is visible again; one read at a time, redrawn only when it changed.
import { registerScreen, store, ctx } from "../app.js";
import { t } from "../i18n.js";
import { nameText, titleText } from "../names.js";
import { watch } from "../watch.js";
import { errorText, frame, h, whoami } from "./common.js";

let redraw = null;
const REFRESH_MS = 15000;

ctx.ws.on("friend", (msg) => {
  ctx.notice(t(`fr.push.${msg.event}`, { name: nameText(msg.player.name) }), "ok");
  if (redraw) redraw();
});

ctx.ws.on("brought", (msg) => {
  document.querySelector(".fr-prompt")?.remove();
  const box = h("div", { class: "fr-prompt", role: "alertdialog", "aria-label": t("fr.invite") },
    h("p", {}, t("fr.brought", { name: nameText(msg.by.name) })),
    h("button", { type: "button", class: "primary", onclick: () => {
      box.remove();
      ctx.navigate(`#/join/${msg.code}`);
    } }, t("fr.join")),
    h("button", { type: "button", onclick: () => box.remove() }, t("fr.later")));
  document.body.append(box);
});

/** This player's private table still filling (he may bring friends to it), if any. */
function filling() {
  return [...store.tables.values()].find((s) => s.code && s.phase === "waiting") || null;
}

function person(p, ...tail) {
  return h("li", { class: "fr-row", "data-player": p.id },
    h("span", { class: "fr-name" }, nameText(p.name)),
    h("span", { class: "fr-title" }, titleText(p.title)), ...tail);
}

registerScreen("friends", {
  mount(root, c) {
    const f = frame(root, "friends", t("fr.title"));
    const lists = h("div", { class: "fr-lists" });
    const found = h("ul", { class: "fr-found" });
    const input = h("input", { id: "fr-name", type: "search", maxlength: "32",
      "aria-label": t("fr.search"), placeholder: t("fr.search") });
    const act = (path, id, then = draw) => c.api("POST", `/api/friends/${path}`, { player: id })
      .then(then, (err) => f.status(errorText(err), "error"));
    const btn = (key, onclick, cls) => h("button", { type: "button", class: cls, onclick }, t(key));
    const section = (key, rows) => rows.length
      ? [h("h2", {}, t(key, { n: rows.length })), h("ul", { class: `fr-${key.slice(3)}` }, rows)] : [];

    function search(ev) {
      ev.preventDefault();
      if (!input.value.trim()) return;
      c.api("GET", `/api/friends/find?name=${encodeURIComponent(input.value.trim())}`)
        .then(({ players }) => {
          f.status(players.length ? "" : t("fr.none"));
          found.replaceChildren(...players.map((p) => person(p, btn("fr.ask",
            () => act("ask", p.id, (r) => { f.status(t(`fr.state.${r.state}`), "ok"); draw(); })))));
        }, (err) => f.status(errorText(err), "error"));
    }

    function friendRow(p, mine) {
      const where = !p.online ? "fr.offline" : p.table ? "fr.at" : "fr.online";
      return person(p,
        h("span", { class: `fr-dot${p.online ? " on" : ""}`, "aria-hidden": "true" }),
        h("span", { class: "fr-where" }, t(where)),
        p.table && p.table !== mine?.table ? btn("fr.watch", () => {
          watch(p.table);
          c.navigate(`#/table/${p.table}`);
        }) : null,
        mine && p.online && p.table !== mine.table ? btn("fr.bring", (ev) => {
          c.ws.send({ type: "bring", table: mine.table, player: p.id });
          ev.target.disabled = true;
          f.status(t("fr.sent", { name: nameText(p.name) }), "ok");
        }, "primary") : null,
        btn("fr.remove", () => act("remove", p.id)),
        btn("fr.block", () => act("block", p.id)));
    }

    let reading = false, again = false, last = "";
    function draw() {
      if (reading) { again = true; return; } // one read at a time: the next follows it
      reading = true;
      c.api("GET", "/api/friends").then((all) => {
        const mine = filling();
        const seen = JSON.stringify([all, mine?.table]);
        if (seen === last) return; // unchanged: the screen (its focus) stays as it is
        last = seen;
        lists.replaceChildren(
          ...section("fr.incoming", all.incoming.map((p) => person(p,
            btn("fr.accept", () => act("accept", p.id), "primary"),
            btn("fr.decline", () => act("decline", p.id)),
            btn("fr.block", () => act("block", p.id))))),
          ...section("fr.outgoing", all.outgoing.map((p) => person(p,
            h("span", { class: "fr-where" }, t("fr.waiting")),
            btn("fr.withdraw", () => act("decline", p.id))))),
          h("h2", {}, t("fr.list", { n: all.friends.length })),
          all.friends.length ? h("ul", { class: "fr-friends" }, all.friends.map((p) => friendRow(p, mine)))
            : h("p", { class: "sc-empty" }, t("fr.empty")),
          ...section("fr.blocks", all.blocks.map((p) => person(p,
            btn("fr.unblock", () => act("unblock", p.id))))));
        f.section.dataset.loaded = "1";
      }, (err) => f.status(errorText(err), "error")).finally(() => {
        reading = false;
        if (again && redraw) { again = false; draw(); }
      });
    }
    const tick = () => { if (redraw && !document.hidden) draw(); };
    const timer = setInterval(tick, REFRESH_MS);
    document.addEventListener("visibilitychange", tick);

    whoami(c).then((me) => {
      if (!me || me.guest) {
        f.body.append(h("p", { class: "sc-empty" }, t("fr.guest")), h("a", { href: "#/register" }, t("nav.register")));
        return;
      }
      f.body.append(h("form", { class: "fr-search", onsubmit: search }, input,
        h("button", { type: "submit" }, t("fr.find"))), found, lists);
      redraw = draw;
      draw();
    });
    return () => {
      redraw = null;
      clearInterval(timer);
      document.removeEventListener("visibilitychange", tick);
    };
  },
});
