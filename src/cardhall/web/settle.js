// The settlement: each seat's points and beans, the multiplier by cause, the new title,
// and "play again" (next) at the same table.
import { addStrings, t } from "./i18n.js";
import { h } from "./dom.js";
import { roleLabel } from "./seats.js";
import { avatarEl } from "./avatar.js";

const CAUSES = {
  zh: { contract: "叫分", bombs: "炸弹", bomb: "炸弹", rocket: "王炸", robs: "抢地主", show: "明牌",
    spring: "春天", M0: "底倍", soft: "软炸", hard: "硬炸", pure: "纯癞子炸", reveal: "亮明",
    double: "加倍", doubles: "加倍", open_solo: "明独", hidden_solo: "暗独", solo: "独保",
    rebellion: "造反", M: "倍数" },
  en: { contract: "bid", bombs: "bombs", bomb: "bombs", rocket: "rocket", robs: "robs", show: "open hand",
    spring: "spring", M0: "base", soft: "soft bombs", hard: "hard bombs", pure: "pure wild bombs",
    reveal: "reveal", double: "doubling", doubles: "doubling", open_solo: "open solo",
    hidden_solo: "secret solo", solo: "solo", rebellion: "rebellion", M: "multiplier" },
};
addStrings(Object.fromEntries(Object.entries(CAUSES).map(([l, m]) => [l, Object.fromEntries(
  Object.entries(m).map(([k, v]) => [`cause.${k}`, v]))])));
addStrings({
  zh: { "settle.title": "本局结算", "settle.win": "胜利！", "settle.lose": "失败", "settle.seat": "玩家",
    "settle.points": "积分", "settle.beans": "欢乐豆", "settle.newtitle": "头衔", "settle.again": "再来一局",
    "settle.lobby": "返回大厅", "settle.mult": "倍数 {n}", "settle.unscored": "本局不计分",
    "settle.escape": "有人逃跑", "settle.dissolved": "牌桌已解散", "settle.role": "身份" },
  en: { "settle.title": "Result", "settle.win": "You win!", "settle.lose": "You lose", "settle.seat": "Player",
    "settle.points": "Points", "settle.beans": "Beans", "settle.newtitle": "Title", "settle.again": "Play again",
    "settle.lobby": "Back to lobby", "settle.mult": "Multiplier {n}", "settle.unscored": "Not scored",
    "settle.escape": "A player escaped", "settle.dissolved": "The table breaks up", "settle.role": "Role" },
});

export function causeLabel(k) {
  const key = `cause.${k}`;
  return t(key) === key ? k : t(key);
}

/** The multiplier as "×total (cause ×f, …)", causes of factor 1 left out. */
export function multiplierText(m) {
  const parts = Object.entries(m.causes || {}).filter(([, f]) => f !== 1)
    .map(([k, f]) => `${causeLabel(k)}×${f}`);
  return `×${m.total}${parts.length ? ` (${parts.join(" · ")})` : ""}`;
}

const signed = (n) => (n > 0 ? `+${n}` : String(n));

export function settleEl(st, msg, { again, lobby }) {
  const res = msg.result;
  const me = st.seat;
  const won = res.winners.includes(me);
  const rows = st.players.map((p, seat) => {
    const beans = msg.beans[String(seat)];
    return h("tr", { "data-seat": seat, class: seat === me ? "me" : null },
      h("th", { scope: "row" }, avatarEl(p), p.name, seat === me ? ` (${t("seat.you")})` : ""),
      h("td", {}, roleLabel(st.view, seat) || ""),
      h("td", { class: "points" }, signed(res.points[seat])),
      h("td", { class: "beans" }, beans === undefined ? "—" : signed(beans)),
      h("td", {}, msg.titles[String(seat)] || p.title || ""));
  });
  const note = { unscored: "settle.unscored", escape: "settle.escape" }[res.ended];
  return h("div", { class: "settle", role: "dialog", "aria-modal": "false", "aria-labelledby": "settle-h" },
    h("h2", { id: "settle-h", class: won ? "won" : "lost" },
      t("settle.title"), " · ", won ? t("settle.win") : t("settle.lose")),
    note ? h("p", {}, t(note)) : null,
    h("p", { class: "mult" }, t("settle.mult", { n: multiplierText(res.multiplier) })),
    h("table", {},
      h("thead", {}, h("tr", {}, ...["settle.seat", "settle.role", "settle.points", "settle.beans",
        "settle.newtitle"].map((k) => h("th", { scope: "col" }, t(k))))),
      h("tbody", {}, rows)),
    msg.dissolved ? h("p", {}, t("settle.dissolved")) : null,
    h("div", { class: "acts" },
      msg.dissolved ? null : h("button", { type: "button", class: "primary", id: "again", onclick: again },
        t("settle.again")),
      h("button", { type: "button", onclick: lobby }, t("settle.lobby"))));
}
