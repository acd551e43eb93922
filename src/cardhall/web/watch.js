// 观战: the lobby's list of a room's tables to watch, and the watches of this page (sent
// again after a reconnect: the hall forgets a watcher whose connection dropped).
import { ctx } from "./app.js";
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { nameText } from "./names.js";
import { refusalText } from "./reasons.js";

export const watching = new Set();
let asked = false; // a watch on its way: its refusal is said

export function watch(id) {
  watching.add(id);
  asked = true;
  ctx.ws.send({ type: "watch", table: id });
}

export function unwatch(id) {
  watching.delete(id);
  ctx.ws.send({ type: "leave", table: id });
}

ctx.ws.on("welcome", () => { for (const id of watching) ctx.ws.send({ type: "watch", table: id }); });
ctx.ws.on("state", (msg) => { if (watching.has(msg.table)) asked = false; });
ctx.ws.on("left", (msg) => watching.delete(msg.table));
ctx.ws.on("error", (msg) => {
  if (!asked) return;
  asked = false;
  watching.clear();
  ctx.notice(refusalText(msg), "error");
});

/** A room's live tables one may watch (GET /api/rooms/ID/tables), each with its button. */
export async function watchList(roomId) {
  const { tables } = await ctx.api("GET", `/api/rooms/${encodeURIComponent(roomId)}/tables`);
  if (!tables.length) return h("p", { class: "watch-list hint" }, t("watch.none"));
  return h("ul", { class: "watch-list" }, ...tables.map((tb) => h("li", { "data-table": tb.id },
    h("span", {}, tb.players.map(nameText).join(" · ")),
    tb.watchers ? h("span", { class: "hint" }, t("watch.count", { n: tb.watchers })) : null,
    h("button", { type: "button", class: "watch", onclick: () => watch(tb.id) }, t("watch.button")))));
}
