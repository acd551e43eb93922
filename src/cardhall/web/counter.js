// 记牌器: how many of each rank are still out, from public cards only: the deck less the
// cards every seat has played (view.played) and the own hand. Nobody's hidden cards enter.
import { addStrings, t } from "./i18n.js";
import { RANKS, rankOf, splitCards } from "./cards.js";
import { h } from "./dom.js";

addStrings({
  zh: { "counter.title": "记牌器", "counter.help": "其他玩家手中（及未亮的底牌）还有的牌" },
  en: { "counter.title": "Card counter", "counter.help": "cards still out: in other hands or unseen" },
});

export function remaining(view, packs) {
  const left = {};
  for (const r of RANKS) left[r] = packs * (r === "X" || r === "D" ? 1 : 4);
  const take = (c) => { left[rankOf(c)] -= 1; };
  view.played.forEach((p) => splitCards(p).forEach(take));
  view.hand.forEach(take);
  return left;
}

export function counterEl(view, packs) {
  const left = remaining(view, packs);
  const label = (r) => ({ T: "10", X: t("lang.x"), D: t("lang.d") }[r] || r);
  return h("div", { class: "counter", role: "region", "aria-label": t("counter.title") },
    h("span", { class: "ctitle", title: t("counter.help") }, t("counter.title")),
    ...[...RANKS].reverse().map((r) => h("span", { class: `cell${left[r] ? "" : " gone"}`, role: "img",
      "data-rank": r, "aria-label": `${label(r)}: ${left[r]}` },
      h("b", { "aria-hidden": "true" }, label(r)), h("i", { "aria-hidden": "true" }, String(left[r])))));
}

addStrings({ zh: { "lang.x": "小", "lang.d": "大" }, en: { "lang.x": "SJ", "lang.d": "BJ" } });
