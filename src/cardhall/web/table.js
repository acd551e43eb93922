// The table screen (#/table/ID) and the routing of table messages into the store.
import { currentRoute, registerScreen, store, ctx } from "./app.js";
import { h } from "./dom.js";
import { cardEl, sortCards } from "./cards.js";

function follow(tableId) {
  const { name } = currentRoute();
  if (["lobby", "join", "table"].includes(name)) ctx.navigate(`#/table/${tableId}`);
}

ctx.ws.on("queued", (msg) => { store.queued = msg; });
ctx.ws.on("state", (msg) => {
  const fresh = !store.tables.has(msg.table);
  store.tables.set(msg.table, msg);
  store.queued = null;
  if (fresh) follow(msg.table);
});
ctx.ws.on("settled", (msg) => store.settled.set(msg.table, msg));
ctx.ws.on("left", (msg) => store.tables.delete(msg.table));

function mount(root, c, [tableId]) {
  const draw = () => {
    const st = store.tables.get(tableId);
    root.replaceChildren();
    if (!st) return;
    const hand = h("div", { class: "hand" });
    for (const card of sortCards(st.view.hand, st.view.variant)) hand.append(cardEl(card, { button: true }));
    root.append(hand);
  };
  draw();
  return c.ws.on("state", (msg) => msg.table === tableId && draw());
}

registerScreen("table", { mount });
