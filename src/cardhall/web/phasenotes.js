// One line above a set-up decision saying what the phase is and what each answer does,
// to the multiplier above all (issue 26: 明牌 ×5, 加倍 ×2, 亮明身份 …), in the
// player's language. Each line restates the variant's rules (docs/rules/, the game
// modules' docstrings); a phase name means different things in different variants
// (五人's 加倍 is per pair of seats, 欢乐's too but with the landlord's counting twice),
// so a line is looked up by what is being decided: the variant, the phase and a verb
// the seat may answer, from the most specific key to the least ("phase.verb" where the
// verbs tell two meanings of a phase apart, the bare phase where it has one).
import { addStrings, t } from "./i18n.js";

const NOTES = {
  zh: {
    "bid.bid": "叫分：叫 1–3 分，须比前面叫的高；最高的当地主，叫的分就是底分，叫 3 分立即成交；都不叫则重新发牌。",
    "ddz4.bid.bid": "叫分：叫 1–3 分，须比前面叫的高；最高的当地主，叫的分就是底分，叫 3 分立即成交；连续三次都不叫则散桌。",
    "ddz_emperor.bid.bid": "叫分：叫 1–3 分，须比前面叫的高；最高的当帝主（一打二），叫的分就是底分，叫 3 分立即成交；都不叫则重新发牌。",
    "bid.call": "叫地主：先叫的人当地主（底分 1）；两人都不叫则重新发牌。",
    "kitty": "选底牌：点选要收进手里的底牌（0 到 6 张都行），没拿的不再参与本局；对手只知道你拿了几张，倍数不变。",
    "ready": "开始前：明牌开始让大家全程看到你的手牌，倍数 ×5；点开始则不明牌。",
    "deal": "发牌中明牌：发到第 8 张时 ×4，发完时 ×3（明牌只算最大的一次）；不明牌倍数不变。",
    "call": "叫地主：叫了就是地主，后面的人还可以抢；都不叫时先明牌的人当地主，没人明牌则重新发牌。",
    "rob": "抢地主：每抢一次倍数 ×2，最后抢的人当地主；不抢倍数不变。",
    "double.no-double": "加倍：你和对手之间的输赢 ×2（地主加倍对两家农民都算，双方都加倍则 ×4）；不加倍不变。",
    "show": "明牌：出第一手牌前亮出手牌，倍数 ×2；不明牌倍数不变。",
    "identity": "亮明身份：明地主或暗地主有一人亮明，暗地主就公开、两位地主互看手牌，倍数 ×2（只有你一位地主时，亮明即公开一打四）；不亮则保持秘密。",
    "double.decline": "加倍：你和每个对手之间的输赢 ×2（双方都加倍则 ×4）；不加倍不变。",
    "emperor": "登基：你拿着皇牌，可以登基当皇帝，也可以让位给上家（简明玩法从第二次让位起要随牌贴一张 2；经典玩法让位满一圈就必须登基）。",
    "guard.call": "叫侍卫：点一张你有三张的牌，拿着第四张的人就是你的侍卫（四张都在你手里就是暗独保）；独保则亮明一打四，输赢 ×2。",
    "guard.solo": "独保：你没有三张相同的牌可叫侍卫，可以亮明一打四（明独保，输赢 ×2）。",
    "guard.hidden-solo": "侍卫牌在你自己手里：暗独保（不声张，一打四），或明独保（亮明一打四，输赢 ×2）。",
    "guard.no-solo": "侍卫牌在别人手里，拿到它的人就是你的侍卫。",
    "guard.rob-solo": "抢独：抢到就由你当皇帝，亮明一打四（明独保，输赢 ×2）；不抢则照常。",
    "disclose.open": "你是侍卫：明保就亮明身份，输赢 ×2；暗保则继续隐藏。",
    "disclose.hidden": "暗独保：你一人保皇，继续隐藏身份。",
    "rebellion": "造反：两人以上造反，侍卫（或独保的皇帝）就公开；造反成功输赢 ×2。",
    "declare": "亮主：亮出 1 到 3 张同花色的级牌定主，张数更多才能改主，亮 3 张立即定主；没人亮主则重新发牌。",
    "bury": "扣底：你已拿到 7 张底牌，从手中选 7 张扣下（主牌、分牌都可以）；闲家赢最后一墩时，底牌的分乘倍数（至少 ×2）算给闲家。",
    "friend": "找朋友：点一张牌，再选第几张；谁打出这张牌的第 N 张，谁就是你的朋友（是你自己，或一直没人打出，你就一打四）。",
  },
  en: {
    "bid.bid": "Bidding: bid 1–3, higher than any bid before; the highest bidder is landlord and his bid the base score; a 3 ends it at once. Nobody bids: a new deal.",
    "ddz4.bid.bid": "Bidding: bid 1–3, higher than any bid before; the highest bidder is landlord and his bid the base score; a 3 ends it at once. Three deals without a bid end the table.",
    "ddz_emperor.bid.bid": "Bidding: bid 1–3, higher than any bid before; the highest bidder is the emperor (alone against two) and his bid the base score; a 3 ends it at once. Nobody bids: a new deal.",
    "bid.call": "Calling: the first to call is landlord (base 1); if neither calls, a new deal.",
    "kitty": "The kitty: click the kitty cards to keep (any of the 6, or none); the rest leave the game. The others learn only how many you kept; the multiplier does not change.",
    "ready": "Before the deal: Start open shows your hand to everyone all game, ×5; Start keeps it hidden.",
    "deal": "Show your hand during the deal: ×4 after 8 cards, ×3 once all are dealt (only the largest show counts); not showing changes nothing.",
    "call": "Calling: a call makes you landlord, and the others may still rob; if nobody calls, the first to show is landlord, else a new deal.",
    "rob": "Robbing: each rob ×2, and the last robber is landlord; not robbing changes nothing.",
    "double.no-double": "Doubling: ×2 on what you and an opponent win or lose (the landlord's double counts against both farmers; both doubling ×4); not doubling changes nothing.",
    "show": "Show: reveal your hand before your first lead, ×2; not showing changes nothing.",
    "identity": "Identity: if either landlord reveals, the hidden landlord is known, the two see each other's hands, ×2 (a single landlord reveals that he plays alone); declining keeps it secret.",
    "double.decline": "Doubling: ×2 on what you and each opponent win or lose (both doubling ×4); not doubling changes nothing.",
    "emperor": "Emperor: you hold the emperor card; be emperor, or cede it to the seat before you (simple mode: from the second cede on, a 2 goes with it; classic: after a full round of cedes it must be accepted).",
    "guard.call": "Guard call: click a card you hold three of; whoever holds the fourth is your guard (all four in your hand: a hidden solo). Or play alone openly: scores ×2.",
    "guard.solo": "Solo: you hold no three equal cards to call a guard; you may play alone openly (open solo, scores ×2).",
    "guard.hidden-solo": "You hold the guard card yourself: a secret solo (alone, unannounced), or an open solo (announced, scores ×2).",
    "guard.no-solo": "Another player holds the guard card: he is your guard.",
    "guard.rob-solo": "Rob the solo: if you win it you are emperor and play alone openly (open solo, scores ×2); otherwise play goes on.",
    "disclose.open": "You are the guard: Open guard reveals you, scores ×2; Hidden guard stays secret.",
    "disclose.hidden": "Hidden solo: you guard yourself and stay secret.",
    "rebellion": "Rebellion: if two or more rebel, the guard (or the solo emperor) is revealed; a successful rebellion scores ×2.",
    "declare": "Trump: show 1 to 3 equal level cards of one suit; only more cards can change it, and 3 fix it at once. Nobody declares: a new deal.",
    "bury": "Burying: the 7 kitty cards are in your hand; pick 7 cards to bury (trumps and point cards allowed). If the attackers win the last trick, the kitty's points count for them, multiplied (×2 or more).",
    "friend": "Friend call: click a card, then which copy; whoever plays its N-th copy is your friend (if that is you, or nobody plays it, you play alone).",
  },
};
addStrings(Object.fromEntries(Object.entries(NOTES).map(([l, m]) => [l, Object.fromEntries(
  Object.entries(m).map(([k, v]) => [`note.${k}`, v]))])));

const known = (k) => t(`note.${k}`) !== `note.${k}`;

/** The line for the seat's decision now (its legal actions `legal`), or "" if none. */
export function phaseNote(view, legal) {
  const verbs = [...new Set(legal.map((a) => a.replace(/^@\d+\s+/, "").split(" ")[0]))];
  const keys = [
    ...verbs.map((v) => `${view.variant}.${view.phase}.${v}`),
    ...verbs.map((v) => `${view.phase}.${v}`),
    `${view.variant}.${view.phase}`, view.phase,
  ];
  const key = keys.find(known);
  return key ? t(`note.${key}`) : "";
}
