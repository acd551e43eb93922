// #/events: 比赛场. The event kinds with their fee, prizes and rules (said before entry),
// enter / withdraw, and the live standings of the player's event (the `event` message);
// its games are played at the normal table screen (table.js follows a new table here).
import { ctx as app, registerScreen, store } from "../app.js";
import { lang, t } from "../i18n.js";
import { refusalText } from "../reasons.js";
import { nameText } from "../names.js";
import { errorText, fmtNumber, frame, h, variantName, variants } from "./common.js";

app.ws.on("event", (msg) => { store.event = msg; });

const list = (xs) => xs.map(fmtNumber).join(" / ");
const named = new Map(); // kind → its name in the page's language (from /api/events)
// A bot entrant is a hall bot's name and his entry number ("机器人·甲2"): said as a bot.
const who = (e) => (e.bot ? `${nameText(e.name.replace(/\d+$/, ""))} ${(/\d+$/.exec(e.name) || [""])[0]}`
  : nameText(e.name));

function rules(k) {
  if (k.format === "duplicate") return t("ev.rules_dup", { fee: fmtNumber(k.fee), deals: k.deals,
    house: k.house, prizes: k.prizes_percent.map((p, i) => t("ev.place", { n: i + 1, p })).join(", ") });
  return t("ev.rules", { fee: fmtNumber(k.fee), chips: fmtNumber(k.chips), deals: k.deals,
    field: k.field.join(" → "), stakes: k.stakes.join(" / "), house: k.house,
    prizes: k.prizes_percent.map((p, i) => t("ev.place", { n: i + 1, p })).join(", ") });
}

// A duplicate event (复式) ranks by matchpoints: its results per entrant, by entry number.
const resultsOf = (ev) => new Map((ev.results || []).map((r) => [r.no, r]));

function standings(ev) {
  const res = resultsOf(ev);
  const score = (e) => (ev.results ? (res.get(e.no) || { total: 0 }).total : e.chips);
  const rows = [...ev.entrants].filter((e) => e.status !== "left")
    .sort((a, b) => (a.place || 99) - (b.place || 99) || score(b) - score(a));
  const seatOf = new Map(ev.tables.flatMap((tb, i) => tb.map((no) => [no, i + 1])));
  const status = ev.results && ev.status === "running" ? "ev.status.dup" : `ev.status.${ev.status}`;
  const state = (e) => (e.prize ? t("ev.prize", { n: fmtNumber(e.prize) })
    : ev.results && ev.status === "running" ? t("ev.played", { n: res.get(e.no)?.played ?? 0, of: ev.deals })
      : seatOf.has(e.no) ? t("ev.table", { n: seatOf.get(e.no) }) : t(`ev.e.${e.status}`));
  return h("table", { class: "sc-table ev-standings" },
    h("caption", {}, t(status, { r: ev.round + 1, n: ev.rounds, s: ev.stake, d: ev.deals })),
    h("thead", {}, h("tr", {}, ["ev.col.place", "ev.col.name", ev.results ? "ev.col.mp" : "ev.col.chips",
      "ev.col.state"].map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", {}, rows.map((e) => h("tr", { class: e.status === "out" ? "ev-out" : null },
      h("td", {}, e.place ? String(e.place) : "—"),
      h("th", { scope: "row" }, who(e)),
      h("td", {}, ev.results ? `${score(e)} (${res.get(e.no)?.percent ?? 0}%)` : fmtNumber(e.chips)),
      h("td", {}, state(e))))));
}

// Per deal: each entrant's points · matchpoints ("—" until every person has played it),
// each a link to its replay once the event is over.
function dealTable(ev) {
  const res = resultsOf(ev);
  const rows = [...ev.entrants].filter((e) => res.has(e.no))
    .sort((a, b) => (a.place || 99) - (b.place || 99) || res.get(b.no).total - res.get(a.no).total);
  const cell = (r, d) => {
    if (r.points[d] === null) return "—";
    const text = `${r.points[d]} · ${r.matchpoints[d]}`;
    return r.games && r.games[d] ? h("a", { href: `#/replay/${encodeURIComponent(r.games[d])}` }, text) : text;
  };
  return h("table", { class: "sc-table ev-deals" },
    h("caption", {}, t("ev.deals")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("ev.col.name")),
      ...Array.from({ length: ev.deals }, (_, d) => h("th", { scope: "col" }, t("ev.deal", { n: d + 1 }))))),
    h("tbody", {}, rows.map((e) => h("tr", {}, h("th", { scope: "row" }, who(e)),
      ...Array.from({ length: ev.deals }, (_, d) => h("td", {}, cell(res.get(e.no), d)))))));
}

registerScreen("events", {
  mount(root, ctx) {
    const f = frame(root, "events", t("ev.title"));
    const mine = h("div", { class: "ev-mine", "aria-live": "polite" });
    const kinds = h("div", { class: "ev-kinds" });
    f.body.append(h("p", {}, h("a", { href: "#/ladder/ddz3", class: "ev-ladder" }, t("ev.ladder"))),
      mine, kinds);
    const send = (msg) => { f.status(""); ctx.ws.send(msg); };
    const drawMine = () => {
      const ev = store.event;
      mine.replaceChildren(...(ev ? [h("h2", {}, named.get(ev.kind) || ev.name), standings(ev)] : []),
        ...(ev && ev.results && ev.status !== "open" ? [dealTable(ev)] : []),
        ...(ev && ev.status === "open" ? [h("button", { type: "button",
          onclick: () => send({ type: "withdraw", event: ev.event }) }, t("ev.withdraw"))] : []));
    };
    const draw = async () => {
      const [all, names] = await Promise.all([ctx.api("GET", "/api/events"), variants(ctx)]);
      for (const k of all) named.set(k.kind, lang() === "en" ? k.name_en : k.name);
      drawMine();
      const title = (k) => { // the game's name, unless the event's name says it already
        const n = named.get(k.kind), v = variantName(names, k.variant);
        return n.includes(v) ? n : `${n} · ${v}`;
      };
      kinds.replaceChildren(...all.map((k) => h("article", { class: "ev-kind", "data-kind": k.kind },
        h("h2", {}, title(k)),
        h("p", {}, t("ev.entered", { n: k.entered, of: k.entrants })),
        h("p", {}, t("ev.prizes", { p: list(k.prizes), of: k.entrants })),
        h("p", { class: "sc-hint" }, rules(k)),
        h("button", { type: "button", class: "primary",
          onclick: () => send({ type: "enter", kind: k.kind }) },
        t("ev.enter", { fee: fmtNumber(k.fee) })))));
    };
    // An entrant waits in no room's queue (the hall took him out of it on entry).
    const offs = [ctx.ws.on("event", () => { store.queued = null; drawMine(); draw().catch(() => null); }),
      ctx.ws.on("error", (msg) => f.status(refusalText(msg), "error"))];
    drawMine();
    draw().catch((err) => f.status(errorText(err), "error"));
    return () => offs.forEach((off) => off());
  },
});
