// The lobby: guest entry, every variant's rooms with stakes and live counts, quick
// match (join → queued, with the bots' countdown), private tables and joining by code.
import { ENDED, registerScreen, store } from "./app.js";
import { lang, t } from "./i18n.js";
import { h, countdown } from "./dom.js";
import { loadVariants, variantInfo } from "./variants.js";
import { refusalText } from "./reasons.js";
import { botText } from "./names.js";
import { watchList } from "./watch.js";

/** Variant names from /api/variants, fetched once: {id: {name, name_en, players, …}}. */
export function variantNames(api) {
  return loadVariants(api);
}

/** A room's name in the reader's language (`name_en` may be missing from an older hall). */
export function roomName(r) {
  return lang() === "en" && r.name_en ? r.name_en : r.name;
}

/** A variant's name in the reader's language, from `v` or else the page's own list (a
 * screen drawn before its own copy arrives); the id only for a variant nobody knows. */
export function variantName(v, id) {
  const d = (v && v[id]) || variantInfo(id);
  if (!d) return id;
  return lang() === "en" ? d.name_en : d.name;
}

async function guest(ctx, button) {
  button.disabled = true;
  try {
    const { token, player } = await ctx.api("POST", "/api/guest");
    ctx.setSession(token, player);
    ctx.navigate("#/");
  } catch (err) {
    ctx.notice(t("err.generic", { msg: err.message }), "error");
    button.disabled = false;
  }
}

function queuedBox(ctx, q, names) {
  const room = names[q.room] || q.room;
  const box = h("div", { class: "queued", role: "status" },
    h("span", { class: "spinner", "aria-hidden": "true" }),
    h("span", {}, t("lobby.queued", { room })));
  if (q.bots_at) {
    const c = h("span", { class: "botsin" });
    box.append(c);
    countdown(c, q.bots_at, (s) => t("lobby.botsin", { s }));
  }
  box.append(h("button", {
    type: "button", onclick: () => {
      ctx.ws.send({ type: "leave", room: q.room });
      store.queued = null;
      box.remove();
    },
  }, t("lobby.cancel")));
  return box;
}

function mount(root, ctx) {
  const me = ctx.me();
  const offs = [];
  if (!me) {
    const b = h("button", { type: "button", class: "primary big", id: "guest" }, t("lobby.guest"));
    b.addEventListener("click", () => guest(ctx, b));
    root.append(h("section", { class: "hero" },
      h("h1", {}, t("app.title")), b, h("p", { class: "hint" }, t("lobby.guest.hint"))));
  } else {
    const code = h("input", {
      id: "code", "aria-label": t("lobby.code"), placeholder: t("lobby.code"),
      maxlength: "12", autocomplete: "off",
    });
    const go = () => code.value.trim() && ctx.navigate(`#/join/${code.value.trim().toUpperCase()}`);
    code.addEventListener("keydown", (e) => e.key === "Enter" && go());
    // A private table's two choices, kept for the next one: bots fill, others may watch.
    const pref = (id, key) => {
      const box = h("input", { type: "checkbox", id, checked: localStorage.getItem(key) !== "0" });
      box.addEventListener("change", () => localStorage.setItem(key, box.checked ? "1" : "0"));
      return box;
    };
    root.append(h("section", { class: "joincode" },
      h("label", { class: "check" }, pref("private-bots", "cardhall.privatebots"), t("lobby.bots")),
      h("label", { class: "check" }, pref("private-watch", "cardhall.privatewatch"), t("lobby.watchable")),
      code, h("button", { type: "button", onclick: go }, t("lobby.join"))));
  }
  const status = h("div", { id: "queue" });
  const back = h("div", { id: "back" }); // the way back to a table he sits at
  const list = h("div", { class: "rooms", id: "rooms" });
  root.append(back, status, h("h2", {}, t("lobby.rooms")), list);
  const roomNames = {};
  const minBeans = {};
  let asked = null; // the room of the last quick match or private table asked for
  const open = new Set(); // the rooms whose tables to watch are shown (观战)
  const draw = async () => {
    const [v, rooms] = await Promise.all([variantNames(ctx.api), ctx.api("GET", "/api/rooms")]);
    const lists = Object.fromEntries(await Promise.all([...open].map(async (id) =>
      [id, await watchList(id).catch(() => null)])));
    list.replaceChildren();
    const byVariant = new Map();
    for (const r of rooms) {
      if (!byVariant.has(r.variant)) byVariant.set(r.variant, []);
      byVariant.get(r.variant).push(r);
    }
    for (const [variant, rs] of byVariant) {
      const card = h("section", { class: "variant", "data-variant": variant },
        h("header", {},
          h("h3", {}, variantName(v, variant)),
          h("span", { class: "players" }, t("lobby.players", { n: rs[0].players })),
          h("a", { href: `#/rules/${variant}`, class: "rules" }, t("lobby.rules"))));
      for (const r of rs) {
        roomNames[r.id] = `${variantName(v, variant)} · ${roomName(r)}`;
        minBeans[r.id] = r.min_beans;
        const row = h("div", { class: "room", "data-room": r.id },
          h("div", { class: "info" },
            h("strong", {}, roomName(r)),
            h("span", {}, t("lobby.stake", { N: r.N, A: r.A })),
            h("span", {}, r.min_beans ? t("lobby.min", { n: r.min_beans }) : t("lobby.nomin")),
            // Which bot fills the empty seats: a player picks his opponent's strength
            // (each bot a rated identity on the rating board).
            r.bot_wait_seconds === null ? null : h("span", { class: "bot" }, t("lobby.bot", { name: botText(r.bot) })),
            r.bot_accounts ? h("span", { class: "botacct" }, t("lobby.botacct")) : null,
            h("span", { class: "live" }, t("lobby.live", { w: r.waiting, t: r.tables }))));
        if (me) {
          row.append(h("div", { class: "acts" },
            h("button", {
              type: "button", class: "primary", "aria-label": `${t("lobby.quick")} ${roomNames[r.id]}`,
              onclick: () => { asked = r.id; ctx.ws.send({ type: "join", room: r.id }); },
            }, t("lobby.quick")),
            h("button", {
              type: "button", "aria-label": `${t("lobby.private")} ${roomNames[r.id]}`,
              onclick: () => {
                asked = r.id;
                ctx.ws.send({ type: "private", room: r.id,
                  bots: localStorage.getItem("cardhall.privatebots") !== "0",
                  spectators: localStorage.getItem("cardhall.privatewatch") !== "0" });
              },
            }, t("lobby.private")),
            r.tables ? h("button", { type: "button", class: "watch-rooms", "aria-expanded": String(open.has(r.id)),
              onclick: () => { if (!open.delete(r.id)) open.add(r.id); draw().catch(() => null); },
            }, t("watch.button")) : null));
        }
        card.append(row);
        if (lists[r.id]) card.append(lists[r.id]);
      }
      list.append(card);
    }
    if (!list.dataset.loaded) document.body.dataset.interactive = String(performance.now());
    list.dataset.loaded = "1";
  };
  draw().catch((err) => ctx.notice(t("err.generic", { msg: err.message }), "error"));
  const showQueue = () => {
    status.replaceChildren();
    if (store.queued) status.append(queuedBox(ctx, store.queued, roomNames));
  };
  showQueue();
  const showBack = () => variantNames(ctx.api).then((v) => {
    back.replaceChildren();
    for (const [id, st] of store.tables) {
      if (st.seat < 0 || st.phase === "waiting") continue; // watching, or not yet dealt
      const name = variantName(v, st.view ? st.view.variant : "");
      back.append(h("div", { class: "queued at-table", role: "status" },
        h("span", {}, t("lobby.atTable", { v: name })),
        h("button", { type: "button", class: "primary",
          onclick: () => ctx.navigate(`#/table/${id}`) }, t("lobby.back"))));
    }
  }).catch(() => null);
  showBack();
  offs.push(ctx.ws.on("left", showBack));
  offs.push(ctx.ws.on("queued", () => { asked = null; showQueue(); }));
  // A room the player cannot enter says so (the hall's refusal, never dropped): what the
  // room asks and what he has, in his language; any other refusal as the hall says it.
  offs.push(ctx.ws.on("error", (msg) => {
    if (asked === null || ENDED.has(msg.code)) return; // not ours / the shell's
    if (msg.code === "not_enough_beans" && asked in minBeans) {
      ctx.notice(t("lobby.poor", { room: roomNames[asked], n: minBeans[asked],
        have: me ? me.beans : "?" }), "error");
    } else if (msg.code === "not_allowed") { // a lobby request's only one: seated elsewhere
      ctx.notice(t("lobby.seated"), "error");
    } else {
      ctx.notice(refusalText(msg), "error");
    }
    asked = null;
  }));
  const timer = setInterval(() => draw().catch(() => null), 5000);
  return () => {
    clearInterval(timer);
    offs.forEach((off) => off());
  };
}

registerScreen("lobby", { mount });
