// #/profile: beans, points, title, level, Golden Eyes, the record per variant, the skill
// ratings with their history charts, the daily relief grant (救济), and the account's
// security (./security.js).
import { registerScreen } from "../app.js";
import { t } from "../i18n.js";
import { errorText, fmtNumber, frame, h, signed, variantName, variants } from "./common.js";
import { securityPanel } from "./security.js";
import { nameText, titleText } from "../names.js";
import { chartEl, ratingText } from "../rating.js";

function stat(key, value, id) {
  return h("div", { class: "sc-stat", "data-stat": id || key },
    h("dt", {}, t(key)), h("dd", {}, value));
}

/** The refusal in the player's language: the daily count used up, or beans too many. */
function reliefRefusal(err, me) {
  const below = /below (\d+)/.exec(err.message || "");
  if (below) return t("prof.relief.rich", { n: fmtNumber(below[1]), have: fmtNumber(me.beans) });
  if (err.code === "relief_refused") return t("prof.relief.used");
  return errorText(err);
}

function levelBar(me) {
  const start = me.level_points ?? 0;
  const next = me.next_level_points;
  if (next === null || next === undefined) return h("p", { class: "sc-level" }, t("prof.top"));
  const pct = Math.max(0, Math.min(100, Math.round((100 * (me.points - start)) / (next - start))));
  // Through the CSSOM, not a style="" attribute: the page's CSP refuses inline styles.
  const fill = h("span");
  fill.style.width = `${pct}%`;
  return h("div", { class: "sc-level" },
    h("div", {
      class: "sc-bar", role: "progressbar", "aria-label": t("prof.progress"),
      "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": String(pct),
      "aria-valuetext": t("prof.to_next", { n: fmtNumber(next - Math.max(start, me.points)) }),
    }, fill),
    h("small", {}, t("prof.to_next", { n: fmtNumber(next - Math.max(start, me.points)) })));
}

function recordTable(me, list) {
  const rows = Object.entries(me.record || {});
  if (!rows.length) return h("p", { class: "sc-empty" }, t("prof.no_games"));
  return h("div", { class: "sc-scroll" }, h("table", { class: "sc-table sc-record" },
    h("caption", {}, t("prof.record")),
    h("thead", {}, h("tr", {}, ["prof.variant", "prof.games", "prof.wins", "prof.points",
      "prof.beans"].map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", {}, rows.map(([v, r]) => h("tr", { "data-variant": v },
      h("th", { scope: "row" }, h("a", { href: `#/rules/${v}` }, variantName(list, v))),
      h("td", {}, fmtNumber(r.games)),
      h("td", {}, `${fmtNumber(r.wins)} (${r.games ? Math.round((100 * r.wins) / r.games) : 0}%)`),
      h("td", {}, signed(r.points)), h("td", {}, signed(r.beans)))))));
}

/** The skill ratings, overall first, each with its history drawn (GET /api/ratings). */
function ratingsTable(ratings, list) {
  const rows = Object.entries((ratings && ratings.ratings) || {});
  if (!rows.length) return h("p", { class: "sc-empty", id: "prof-no-ratings" }, t("prof.no_ratings"));
  return h("div", { class: "sc-scroll" }, h("table", { class: "sc-table sc-ratings" },
    h("caption", {}, t("prof.ratings")),
    h("thead", {}, h("tr", {}, ["prof.variant", "rt.rating", "prof.games", "prof.trend"]
      .map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", {}, rows.map(([v, r]) => h("tr", { "data-variant": v,
      "data-provisional": r.provisional ? "1" : "0" },
    h("th", { scope: "row" }, v === "all" ? t("prof.overall") : variantName(list, v)),
    h("td", { class: "sc-rating" }, ratingText(r.rating, r.provisional)),
    h("td", {}, fmtNumber(r.games)),
    h("td", { class: "sc-trend" }, chartEl(r.history)))))),
  h("p", { class: "sc-hint" }, t("rt.provisional", { n: ratings.provisional_games })));
}

function draw(f, ctx, me, list, ratings) {
  const relief = h("button", { type: "button", class: "primary", id: "relief" },
    t("prof.relief", { n: me.relief_left }));
  relief.disabled = me.relief_left <= 0;
  relief.addEventListener("click", async () => {
    relief.disabled = true;
    try {
      const got = await ctx.api("POST", "/api/relief");
      f.status(t("prof.relief.ok", { beans: fmtNumber(got.beans), n: got.relief_left }), "ok");
      draw(f, ctx, { ...(await ctx.refreshMe()) }, list, ratings);
    } catch (err) {
      f.status(reliefRefusal(err, me), "error");
      relief.disabled = me.relief_left <= 0;
    }
  });
  f.body.replaceChildren(
    h("p", { class: "sc-who" }, h("strong", { id: "prof-name" }, nameText(me.name)),
      me.guest ? h("span", { class: "sc-badge" }, t("prof.guest")) : null),
    h("dl", { class: "sc-stats" },
      stat("prof.beans", fmtNumber(me.beans), "beans"),
      stat("prof.points", fmtNumber(me.points), "points"),
      stat("prof.title", titleText(me.title), "title"),
      stat("prof.level", t("prof.level.n", { n: me.level }), "level"),
      stat("prof.golden_eyes", fmtNumber(me.golden_eyes), "golden_eyes")),
    levelBar(me),
    h("div", { class: "sc-actions" }, relief,
      h("span", { class: "sc-hint", id: "relief-left" }, t("prof.relief.left", { n: me.relief_left }))),
    recordTable(me, list),
    ratingsTable(ratings, list),
    h("div", { class: "sc-actions" },
      h("a", { class: "sc-button", href: "#/history" }, t("nav.history")),
      h("a", { class: "sc-button", href: "#/leaderboard" }, t("nav.leaderboard")),
      me.guest ? h("a", { class: "sc-button", href: "#/register" }, t("nav.register")) : null,
      h("button", { type: "button", onclick: () => ctx.logout() }, t("acct.logout"))),
    securityPanel(ctx, me));
}

registerScreen("profile", {
  mount(root, ctx) {
    const f = frame(root, "profile", t("prof.title.h"));
    f.status(t("sc.loading"));
    Promise.all([ctx.refreshMe(), variants(ctx).catch(() => ({})),
      ctx.api("GET", "/api/ratings").catch(() => null)]).then(([me, list, ratings]) => {
      if (!me) {
        f.status(t("err.not_authenticated"), "error");
        return;
      }
      f.status("");
      draw(f, ctx, me, list, ratings);
      f.section.dataset.loaded = "1";
    }, (err) => f.status(errorText(err), "error"));
  },
});
