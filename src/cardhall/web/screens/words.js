// Words of the games as a spectator reads them: phases, roles, actions, multiplier
// causes, in zh and en. An unknown word is shown as the engine wrote it.
import { addStrings, t } from "../i18n.js";
import { cardEl, splitCards } from "../cards.js";
import { h } from "../dom.js";

function word(prefix, key) {
  const k = `${prefix}.${key}`;
  const text = t(k);
  return text === k ? key : text;
}

export const phaseName = (p) => word("ph", p);
export const roleName = (r) => word("role", r);
export const causeName = (c) => word("cause", c);

/** Verbs whose argument is cards (shown as faces); others show their argument as text. */
const CARD_VERBS = new Set(["play", "take", "bury", "declare", "show", "call"]);

/** Small card faces for card text ("333444+56", "3335=3333", "Qd Qd"). */
export function cardsEl(text) {
  const [played, stands] = text.split("=");
  const wild = stands ? splitCards(stands.replace("+", "")) : [];
  return h("span", { class: "sc-cards" }, splitCards(played.replace("+", " ")).map((c, i) =>
    cardEl(c, { small: true, stands: wild[i] && wild[i] !== c[0] ? wild[i] : undefined })));
}

/** An action as words and cards: "出 ♠3♠3", "不出", "叫 3 分", "@2 double" → "加倍". */
export function actionEl(action) {
  if (!action) return h("span", { class: "sc-act none" }, "—");
  const body = action.replace(/^@\d+\s+/, "");
  const [verb, ...rest] = body.split(" ");
  const arg = rest.join(" ");
  const whole = `act.${verb}.${arg}`; // a verb and argument said as one ("auto on")
  const key = t(whole) !== whole ? whole
    : arg && verb === "bid" ? "act.bid" : arg && verb === "call" ? "act.call-card" : `act.${verb}`;
  const label = t(key, { n: arg });
  const out = h("span", { class: "sc-act", "data-verb": verb },
    h("span", {}, label === key ? verb : label));
  if (arg && key !== whole && verb !== "bid") {
    out.append(" ", CARD_VERBS.has(verb) && /^[3-9TJQKA2XDshcd+=\s]+$/.test(arg)
      ? cardsEl(arg) : h("span", {}, arg));
  }
  return out;
}

addStrings({
  zh: {
    "ph.ready": "准备", "ph.deal": "发牌", "ph.bid": "叫分", "ph.call": "叫地主",
    "ph.rob": "抢地主", "ph.double": "加倍", "ph.play": "出牌", "ph.over": "结束",
    "ph.identity": "亮身份", "ph.kitty": "选底牌", "ph.emperor": "选皇帝", "ph.guard": "定侍卫",
    "ph.disclose": "明保", "ph.declare": "亮主", "ph.bury": "扣底", "ph.friend": "叫朋友",
    "ph.rebel": "造反",
    "role.landlord": "地主", "role.farmer": "农民", "role.emperor": "皇帝", "role.guard": "侍卫",
    "role.rebel": "起义军", "role.dealer": "庄家", "role.friend": "朋友", "role.attacker": "闲家",
    "act.pass": "不出", "act.play": "出", "act.bid": "叫 {n} 分", "act.call": "叫地主",
    "act.no-call": "不叫", "act.rob": "抢地主", "act.no-rob": "不抢", "act.double": "加倍",
    "act.no-double": "不加倍", "act.show": "明牌", "act.no-show": "不明牌",
    "act.show-start": "明牌开始", "act.start": "开始", "act.take": "拿底牌", "act.bury": "扣底",
    "act.declare": "亮主", "act.call-friend": "叫朋友", "act.accept": "当皇帝", "act.cede": "让位",
    "act.solo": "独保", "act.open": "明保", "act.hidden": "暗保", "act.reveal": "亮明",
    "act.decline": "不亮", "act.leave": "离开", "act.auto.on": "托管", "act.auto.off": "取消托管",
    "act.call-card": "叫牌", "act.leave.forced": "强退", "act.rebel": "造反",
    "act.no-rebel": "不造反", "act.qiangdu": "抢独", "act.redeal": "重新发牌",
    "cause.contract": "叫分", "cause.bombs": "炸弹", "cause.bomb": "炸弹", "cause.rocket": "火箭",
    "cause.spring": "春天", "cause.robs": "抢地主", "cause.show": "明牌", "cause.M0": "初始",
    "cause.open_guard": "明保", "cause.open_solo": "明独保", "cause.reveal": "亮明",
    "cause.stake": "级差", "cause.hard": "硬炸", "cause.soft": "软炸", "cause.pure": "纯癞子炸",
    "cause.double": "加倍", "cause.rebellion": "造反",
  },
  en: {
    "ph.ready": "Ready", "ph.deal": "Deal", "ph.bid": "Bidding", "ph.call": "Calling",
    "ph.rob": "Robbing", "ph.double": "Doubling", "ph.play": "Play", "ph.over": "Over",
    "ph.identity": "Identity", "ph.kitty": "Kitty", "ph.emperor": "Choosing the emperor",
    "ph.guard": "The guard", "ph.disclose": "Disclosure", "ph.declare": "Trump declaration",
    "ph.bury": "Burying", "ph.friend": "Friend call", "ph.rebel": "Rebellion",
    "role.landlord": "Landlord", "role.farmer": "Farmer", "role.emperor": "Emperor",
    "role.guard": "Guard", "role.rebel": "Rebel", "role.dealer": "Dealer", "role.friend": "Friend",
    "role.attacker": "Attacker",
    "act.pass": "Pass", "act.play": "Play", "act.bid": "Bid {n}", "act.call": "Call",
    "act.no-call": "No call", "act.rob": "Rob", "act.no-rob": "No rob", "act.double": "Double",
    "act.no-double": "No double", "act.show": "Show", "act.no-show": "No show",
    "act.show-start": "Start shown", "act.start": "Start", "act.take": "Take", "act.bury": "Bury",
    "act.declare": "Declare", "act.call-friend": "Call a friend", "act.accept": "Accept",
    "act.cede": "Cede", "act.solo": "Solo", "act.open": "Open guard", "act.hidden": "Hidden guard",
    "act.reveal": "Reveal", "act.decline": "Decline", "act.leave": "Leave",
    "act.auto.on": "Auto-play on", "act.auto.off": "Auto-play off", "act.call-card": "Call",
    "act.leave.forced": "Forced out",
    "act.rebel": "Rebel", "act.no-rebel": "No rebellion", "act.qiangdu": "Grab solo",
    "act.redeal": "Redeal",
    "cause.contract": "Contract", "cause.bombs": "Bombs", "cause.bomb": "Bomb",
    "cause.rocket": "Rocket", "cause.spring": "Spring", "cause.robs": "Robs", "cause.show": "Show",
    "cause.M0": "Initial", "cause.open_guard": "Open guard", "cause.open_solo": "Open solo",
    "cause.reveal": "Reveal", "cause.stake": "Stake", "cause.hard": "Hard bomb",
    "cause.soft": "Soft bomb", "cause.pure": "Pure wild bomb", "cause.double": "Double",
    "cause.rebellion": "Rebellion",
  },
});
