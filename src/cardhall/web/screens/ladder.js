// #/ladder/VARIANT: the bot ladder (天梯) of one variant, for anyone: ratings (the anchors
// planning and search fixed), the latest duplicate matches, every deal's replay.
import { registerScreen } from "../app.js";
import { t } from "../i18n.js";
import { botText, nameText } from "../names.js";
import { choice, errorText, fmtNumber, frame, h, variantName, variants } from "./common.js";

const who = (x) => (x.anchor ? t("lb.bot", { name: botText(x.name) }) : nameText(x.name));
const moved = (s) => `${s.before} → ${s.after}`;

function ratings(rows) {
  return h("table", { class: "sc-table ld-ratings" },
    h("caption", {}, t("ld.ratings")),
    h("thead", {}, h("tr", {}, ["lb.rank", "lb.name", "lb.value.rating", "ld.matches", "ld.deals"]
      .map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", {}, rows.map((r, i) => h("tr", { "data-subject": r.subject },
      h("td", {}, String(i + 1)), h("th", { scope: "row" }, who(r)),
      h("td", {}, String(r.rating)), h("td", {}, fmtNumber(r.matches)),
      h("td", {}, fmtNumber(r.deals))))));
}

// One match: both sides' matchpoints and rating moves, each deal's game a replay link.
function match(m) {
  const result = m.score === 0.5 ? t("ld.draw") : t("ld.won", { name: who(m.score ? m.a : m.b) });
  const games = (s) => h("p", { class: "ld-games" }, `${who(s)}: `,
    ...s.games.flatMap((g, d) => (g ? [h("a", { href: `#/replay/${encodeURIComponent(g)}` },
      t("ev.deal", { n: d + 1 })), " "] : [])));
  return h("li", { class: "ld-match", "data-challenge": m.challenge },
    h("p", {}, h("strong", {}, `${who(m.a)} ${m.a.matchpoints} : ${m.b.matchpoints} ${who(m.b)}`),
      ` · ${result} · ${t("ld.rated", { a: moved(m.a), b: moved(m.b), d: m.deals })}`),
    games(m.a), games(m.b));
}

registerScreen("ladder", {
  mount(root, ctx, params) {
    const f = frame(root, "ladder", t("ld.title"));
    const variant = params[0] || "ddz3";
    const out = h("div", { "aria-live": "polite" });
    f.body.append(h("p", { class: "sc-hint" }, t("ld.about")), out);
    variants(ctx).catch(() => ({})).then((list) => {
      const v = choice("ld-variant", t("lb.variant"),
        Object.keys(list).map((id) => [id, variantName(list, id)]), variant);
      v.select.addEventListener("change", () => { location.hash = `#/ladder/${v.select.value}`; });
      f.body.prepend(h("div", { class: "sc-filters" }, v.el));
    });
    f.status(t("sc.loading"));
    ctx.api("GET", `/api/ladder/${encodeURIComponent(variant)}`).then((board) => {
      f.status("");
      out.replaceChildren(ratings(board.ratings), h("h2", {}, t("ld.recent")),
        board.matches.length ? h("ul", { class: "ld-matches" }, board.matches.map(match))
          : h("p", { class: "sc-empty" }, t("ld.none")));
      f.section.dataset.loaded = variant;
    }).catch((err) => f.status(errorText(err), "error"));
  },
});
