// #/leaderboard/VARIANT/BY/PERIOD: the boards (排行榜) by points or beans, overall or per
// variant, all time, today or this week (UTC, as the server counts). The choice is kept
// in the address (replaceState, so the selectors keep focus); the player's row is marked.
import { registerScreen } from "../app.js";
import { addStrings, t } from "../i18n.js";
import {
  choice, errorText, fmtNumber, frame, h, variantName, variants, whoami,
} from "./common.js";
import { nameText, titleText } from "../names.js";

const BY = ["points", "beans"];
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
      h("th", { scope: "row" }, nameText(r.name),
        mine ? h("span", { class: "sc-badge" }, t("lb.me")) : null),
      h("td", {}, titleText(r.title)), h("td", {}, fmtNumber(r.value)),
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
      for (const [key, c] of [["variant", v], ["by", by], ["period", period]]) {
        c.select.addEventListener("change", () => {
          want[key] = c.select.value;
          load();
        });
      }
      f.body.append(h("div", { class: "sc-filters" }, v.el, by.el, period.el), out,
        h("p", { class: "sc-hint" }, t("lb.note")));
      load();
    });
  },
});

addStrings({
  zh: {
    "lb.title": "排行榜", "lb.variant": "玩法", "lb.all_games": "全部玩法", "lb.by": "排行",
    "lb.by.points": "按积分", "lb.by.beans": "按欢乐豆", "lb.period": "时间",
    "lb.period.all": "总榜", "lb.period.day": "今日", "lb.period.week": "本周",
    "lb.rank": "名次", "lb.name": "玩家", "lb.title_col": "头衔", "lb.value.points": "积分",
    "lb.value.beans": "欢乐豆", "lb.games": "局数", "lb.me": "我", "lb.caption": "排行榜",
    "lb.empty": "这里还没有人上榜。",
    "lb.note": "同分时局数少的在前，再按先达到的在前。今日、本周按世界协调时（UTC）计。",
  },
  en: {
    "lb.title": "Leaderboard", "lb.variant": "Game", "lb.all_games": "All games", "lb.by": "Rank by",
    "lb.by.points": "Points", "lb.by.beans": "Beans", "lb.period": "Period",
    "lb.period.all": "All time", "lb.period.day": "Today", "lb.period.week": "This week",
    "lb.rank": "Rank", "lb.name": "Player", "lb.title_col": "Title", "lb.value.points": "Points",
    "lb.value.beans": "Beans", "lb.games": "Games", "lb.me": "me", "lb.caption": "Leaderboard",
    "lb.empty": "Nobody is on this board yet.",
    "lb.note": "Ties go to fewer games, then to whoever got there first. Today and this week are counted in UTC.",
  },
});
