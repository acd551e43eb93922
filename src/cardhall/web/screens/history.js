// #/history: the player's scored games, newest first, each a link to its replay.
import { registerScreen } from "../app.js";
import { t } from "../i18n.js";
import {
  errorText, fmtDate, frame, h, signed, variantName, variants, whoami,
} from "./common.js";

function item(g, list) {
  const result = g.won ? "sc.won" : "sc.lost";
  return h("li", { "data-game": g.game },
    h("a", { class: "sc-game", href: `#/replay/${encodeURIComponent(g.game)}`,
      "aria-label": t("hist.item", {
        game: variantName(list, g.variant), date: fmtDate(g.ended), result: t(result),
        beans: signed(g.beans),
      }) },
    h("span", { class: "sc-game-variant" }, variantName(list, g.variant)),
    h("time", { datetime: g.ended || "" }, fmtDate(g.ended)),
    h("span", { class: `sc-result ${g.won ? "won" : "lost"}` }, t(result)),
    h("span", { class: "sc-points" }, t("hist.points", { n: signed(g.points) })),
    h("span", { class: `sc-beans ${g.beans >= 0 ? "won" : "lost"}` },
      t("hist.beans", { n: signed(g.beans) })),
    h("span", { class: "sc-go", "aria-hidden": "true" }, t("hist.replay"))));
}

registerScreen("history", {
  mount(root, ctx) {
    const f = frame(root, "history", t("hist.title"));
    f.status(t("sc.loading"));
    whoami(ctx).then((me) => {
      if (!me) throw Object.assign(new Error(""), { code: "not_authenticated" });
      return Promise.all([ctx.api("GET", "/api/history?limit=100"), variants(ctx).catch(() => ({}))]);
    }).then(([games, list]) => {
        f.status("");
        f.body.append(games.length
          ? h("ol", { class: "sc-games" }, games.map((g) => item(g, list)))
          : h("p", { class: "sc-empty" }, t("hist.empty")));
        f.section.dataset.loaded = "1";
      }, (err) => f.status(errorText(err), "error"));
  },
});
