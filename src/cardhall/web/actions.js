// What each action is called on a button. One table, looked up from the most specific
// key to the least: the variant's own "phase:text" (its display hint `actions`, from
// /api/variants), "phase:text", "text", the variant's own "verb", "verb"; an argument
// that names cards is shown as cards. A new phase needs only new labels.
import { addStrings, lang, t } from "./i18n.js";
import { cardName, splitCards } from "./cards.js";
import { display } from "./variants.js";

const LABELS = {
  zh: {
    pass: "不出", "bid:pass": "不叫", "declare:pass": "不亮", "bid 1": "1分", "bid 2": "2分",
    "bid 3": "3分", call: "叫地主", "no-call": "不叫", rob: "抢地主", "no-rob": "不抢",
    double: "加倍", "no-double": "不加倍", decline: "不加倍", "identity:decline": "不亮明",
    reveal: "亮明身份", start: "开始", "show-start": "明牌开始", show: "明牌", "no-show": "不明牌",
    eye: "黄金眼 看第{arg}张底牌", take: "拿底牌 {arg}", "take none": "不拿底牌", accept: "登基",
    cede: "让位", solo: "独保", "hidden-solo": "暗独", "no-solo": "不独", redeal: "重新发牌",
    "rob-solo": "抢独", no: "不抢", open: "明保", hidden: "暗保", rebel: "造反",
    bury: "扣底", "call-friend": "找朋友：第{n}张 {arg}",
    declare: "亮主 {arg}", play: "出牌", "auto on": "托管", "auto off": "取消托管",
  },
  en: {
    pass: "Pass", "bid:pass": "No bid", "declare:pass": "No trump", "bid 1": "Bid 1",
    "bid 2": "Bid 2", "bid 3": "Bid 3", call: "Call landlord", "no-call": "Don't call",
    rob: "Rob", "no-rob": "Don't rob", double: "Double", "no-double": "Don't double",
    decline: "Don't double", "identity:decline": "Stay hidden", reveal: "Reveal identity",
    start: "Start", "show-start": "Start open", show: "Show hand", "no-show": "Keep hidden",
    eye: "Golden Eye: kitty cards {arg}", take: "Take {arg}", "take none": "Take nothing",
    accept: "Be emperor", cede: "Cede", solo: "Play alone", "hidden-solo": "Secret solo",
    "no-solo": "No solo", redeal: "Redeal", "rob-solo": "Rob the solo", no: "Don't rob",
    open: "Open guard", hidden: "Hidden guard", rebel: "Rebel",
    bury: "Bury", "call-friend": "Friend: copy {n} of {arg}",
    declare: "Trump {arg}", play: "Play", "auto on": "Autoplay", "auto off": "Stop autoplay",
  },
};
addStrings(Object.fromEntries(Object.entries(LABELS).map(([l, m]) => [l, Object.fromEntries(
  Object.entries(m).map(([k, v]) => [`act.${k}`, v]))])));

const known = (k) => t(`act.${k}`) !== `act.${k}`;

function cardsText(arg) {
  if (!/^[0-9TJQKAXDshcd ]+$/.test(arg) || arg === "none") return arg;
  return splitCards(arg).map(cardName).join(" ");
}

/** The variant's own label for `key`, its {placeholders} filled; null if it has none. */
function ownLabel(variant, key, vars = {}) {
  const label = display(variant).actions[key];
  if (!label) return null;
  return label[lang() === "en" ? "en" : "zh"].replace(/\{(\w+)\}/g,
    (m, k) => (k in vars ? String(vars[k]) : m));
}

/** The button label of an action text in a variant's phase. */
export function actionLabel(text, variant, phase) {
  const plain = text.replace(/^@\d+\s+/, "");
  const own = ownLabel(variant, `${phase}:${plain}`);
  if (own) return own;
  for (const k of [`${phase}:${plain}`, plain]) {
    // A bare verb whose label names its argument ("take" as others see it, the cards
    // hidden): the label without the argument.
    if (known(k)) return t(`act.${k}`).replace(/\s*\{\w+\}/g, "");
  }
  const [verb, ...rest] = plain.split(" ");
  let arg = rest.join(" ");
  let n = "";
  if (verb === "call-friend") [n, arg] = [rest[0], rest.slice(1).join(" ")];
  const vars = { arg: verb === "eye" ? arg : cardsText(arg), n };
  return ownLabel(variant, verb, vars) || (known(verb) ? t(`act.${verb}`, vars) : plain);
}
