// #/leaderboard/VARIANT/BY/PERIOD: the boards (排行榜) by points, beans or rating, overall
// or per variant, by period (UTC; a rating is all-time only: where a player stands now).
// The choice is kept in the address (replaceState, so the selectors keep focus).
import { registerScreen } from "../app.js";
import { t } from "../i18n.js";
import {
  choice, errorText, fmtNumber, frame, h, variantName, variants, whoami,
} from "./common.js";
import { botText, nameText, titleText } from "../names.js";

const BY = ["points", "beans", "rating"];
const PERIODS = ["all", "day", "week"];

function rowsTable(board, me) {
  if (!board.rows.length) return h("p", { class: "sc-empty" }, t("lb.empty"));
  return h("table", { class: "sc-table sc-board" },
    h("caption", { class: "sr-only" }, t("lb.caption")),
    h("thead", {}, h("tr", {}, ["lb.rank", "lb.name", "lb.title_col", `lb.value.${board.by}`,
      "lb.games"].map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", {}, board.rows.map((r) => {
      const mine = me && r.id === me.id;
      return h("tr", { class: mine ? "me" : null, "aria-current": mine ? "true" : null,
        "data-player": r.id },
      h("td", {}, String(r.rank)),
      h("th", { scope: "row" }, r.bot ? t("lb.bot", { name: botText(r.name) }) : nameText(r.name),
        mine ? h("span", { class: "sc-badge" }, t("lb.me")) : null),
      // a rating reads as chess players write it: 2064, never 2,064
      h("td", {}, titleText(r.title)),
      h("td", {}, board.by === "rating" ? String(r.value) : fmtNumber(r.value)),
      h("td", {}, fmtNumber(r.games)));
    })));
}

registerScreen("leaderboard", {
  mount(root, ctx, params) {
    const f = frame(root, "leaderboard", t("lb.title"));
    const want = {
      variant: params[0] && params[0] !== "all" ? params[0] : "",
      by: BY.includes(params[1]) ? params[1] : "points",
      period: PERIODS.includes(params[2]) ? params[2] : "all",
    };
    if (want.by === "rating") want.period = "all";
    const out = h("div", { class: "sc-board-rows", "aria-live": "polite" });
    let serial = 0;
    const load = async () => {
      const mine = ++serial;
      history.replaceState(null, "",
        `#/leaderboard/${want.variant || "all"}/${want.by}/${want.period}`);
      f.status(t("sc.loading"));
      const q = new URLSearchParams({ by: want.by, period: want.period, limit: "100" });
      if (want.variant) q.set("variant", want.variant);
      try {
        const [board, me] = await Promise.all([ctx.api("GET", `/api/leaderboard?${q}`),
          whoami(ctx)]);
        if (mine !== serial) return;
        f.status("");
        out.replaceChildren(rowsTable(board, me));
        f.section.dataset.loaded = `${want.variant || "all"}/${want.by}/${want.period}`;
      } catch (err) {
        if (mine === serial) f.status(errorText(err), "error");
      }
    };
    variants(ctx).catch(() => ({})).then((list) => {
      const v = choice("lb-variant", t("lb.variant"),
        [["", t("lb.all_games")], ...Object.keys(list).map((id) => [id, variantName(list, id)])], want.variant);
      const by = choice("lb-by", t("lb.by"), BY.map((b) => [b, t(`lb.by.${b}`)]), want.by);
      const period = choice("lb-period", t("lb.period"),
        PERIODS.map((p) => [p, t(`lb.period.${p}`)]), want.period);
      const note = h("p", { class: "sc-hint", id: "lb-note" });
      const fit = () => {  // a rating board is all-time: the period waits
        const rating = want.by === "rating";
        if (rating) want.period = "all";
        period.select.value = want.period;
        period.select.disabled = rating;
        note.textContent = t(rating ? "lb.note.rating" : "lb.note");
      };
      for (const [key, c] of [["variant", v], ["by", by], ["period", period]]) {
        c.select.addEventListener("change", () => {
          want[key] = c.select.value;
          fit();
          load();
        });
      }
      fit();
      f.body.append(h("div", { class: "sc-filters" }, v.el, by.el, period.el), out, note);
      load();
    });
  },
});
