"""The sentence a player reads for a refusal, in Chinese or English, from its code.

A refusal (``games.errors``) carries a stable ``reason`` code and plain-data
``params``; this table turns them into a short sentence in the player's
language, so that a client (or the server, for a client that only shows
text) never parses the English message. The closed set of reasons is this
table: a game that refuses for a new reason adds it here, and
tests/games/test_reasons.py fails until it has both languages and every
refusal a fuzzed game makes renders in both.

Params are language-neutral (seat numbers, card text, counts, verbs, a
``phase`` or a suit ``group`` code); the few that are words (``phase``,
``group``) are named per language here, lists are joined per language.
Sentences use bare ``{name}`` fields only (no conversions or format specs),
so that the browser renders the same table (``/api/reasons``, web/reasons.js).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from cardhall.games.errors import IllegalAction, Params

Language = Literal["zh", "en"]
LANGUAGES: tuple[Language, ...] = ("zh", "en")


@dataclass(frozen=True, slots=True)
class Reason:
    """One reason: the kind of refusal that gives it (``IllegalAction.code``) and its
    sentence in each language (``str.format`` fields are the refusal's params)."""

    kind: str
    zh: str
    en: str


def _r(kind: str, zh: str, en: str) -> Reason:
    return Reason(kind, zh, en)


U, T, W, X, S = "unreadable", "not_your_turn", "not_in_window", "illegal", "bad_setup"
# (X: a rule forbids it; ``I`` would read as 1)

REASONS: dict[str, Reason] = {
    # -- unreadable: the text names no action ---------------------------------------------
    "not_text": _r(U, "动作必须是文字", "an action is text"),
    "too_long": _r(U, "动作太长：最多 {limit} 个字符（这个有 {length} 个）",
                   "an action is at most {limit} characters (this one has {length})"),
    "empty": _r(U, "动作是空的", "the action is empty"),
    "bad_seat_tag": _r(U, "{text} 不是座位：写 @座位 动作",
                       "{text} is not a seat: write @SEAT ACTION"),
    "no_such_seat": _r(U, "这局 {players} 人游戏没有座位 {seat}",
                       "there is no seat {seat} in this {players}-player game"),
    "no_seat_named": _r(U, "请说明是哪个座位：@座位 {text}", "say which seat: @SEAT {text}"),
    "bad_auto": _r(U, "托管是 auto on 或 auto off", "托管 is auto on or auto off"),
    "bad_leave": _r(U, "离开是 leave，强退或踢出是 leave forced",
                    "leaving is leave, or leave forced for a forced quit or a kick"),
    "unknown_action": _r(U, "看不懂「{text}」：可以 {allowed}",
                         "'{text}' is not an action here: {allowed}"),
    "bad_argument": _r(U, "{verb} 后面不跟任何东西（收到「{text}」）",
                       "{verb} takes nothing after it, not '{text}'"),
    "not_cards": _r(U, "「{text}」不是牌", "'{text}' is not cards"),
    "no_cards": _r(U, "{verb} 哪些牌？", "{verb} which cards?"),
    "bad_eye": _r(U, "黄金眼要选两张不同的底牌位置（1 到 3），例如 eye 1 3",
                  "eye takes two different kitty positions from 1 to 3, e.g. eye 1 3"),
    "bad_friend_call": _r(U, "叫朋友写作 call-friend N 牌，N 为 1 到 3，例如 call-friend 1 As",
                          "call a friend as call-friend N CARD, N from 1 to 3 "
                          "(e.g. call-friend 1 As)"),
    # -- not your turn ---------------------------------------------------------------------
    "not_your_turn": _r(T, "现在轮到座位 {to_act}，不是座位 {seat}",
                        "it is seat {to_act}'s turn, not seat {seat}'s"),
    "waiting_for": _r(T, "座位 {seat} 现在不用回答（在等座位 {acting}）",
                      "seat {seat} has nothing to answer now (waiting for seats {acting})"),
    "guard_chooses": _r(T, "还没轮到你：保子（只有他自己知道）在选择亮保或不亮",
                        "not your turn: the guard (whom only he knows) chooses open or hidden"),
    # -- not in the window: another step of the game ----------------------------------------
    "game_over": _r(W, "这局已经结束", "the game is over"),
    "wrong_step": _r(W, "现在是{phase}：可以 {allowed}", "this is {phase}: {allowed}"),
    "no_play_now": _r(W, "{phase}时不出牌", "no cards are played during {phase}"),
    "no_identity_answer": _r(W, "座位 {seat} 现在没有身份要回答（只有地主回答，各一次）",
                             "seat {seat} has no identity answer to give now (only the "
                             "landlords answer, each once)"),
    "eye_not_now": _r(W, "黄金眼只能在自己叫地主或抢地主时用",
                      "Golden Eye (黄金眼) is used only on your own call or rob turn"),
    "hand_not_over": _r(W, "这一副还没打完", "the hand is still being played"),
    "match_over": _r(W, "这场比赛已经结束", "the match is over"),
    # -- illegal: a rule forbids it ------------------------------------------------------------
    "not_your_seat": _r(X, "座位 {seat} 不能替座位 {other} 行动",
                        "seat {seat} cannot act for seat {other}"),
    "has_left": _r(X, "座位 {seat} 已经离开了", "seat {seat} has left the game"),
    "already_auto": _r(X, "座位 {seat} 已经在托管", "seat {seat} is already on 托管"),
    "not_auto": _r(X, "座位 {seat} 没有在托管", "seat {seat} is not on 托管"),
    "auto_locked": _r(X, "座位 {seat} 已托管 {entries} 次，托管已锁定",
                      "托管 is locked for seat {seat}: it was entered {entries} times"),
    "not_in_hand": _r(X, "你手里没有这些牌：{cards}", "you do not hold {cards}"),
    "not_a_combination": _r(X, "「{cards}」不是一手合法的牌型", "'{cards}' is no combination"),
    "does_not_beat": _r(X, "{play} 管不上 {beat}", "{play} does not beat {beat}"),
    "not_legal_now": _r(X, "现在不能出 {play}", "{play} is not a legal play now"),
    "must_lead": _r(X, "轮到你先出：必须出牌", "you lead: you must play"),
    "wrong_count": _r(X, "需要正好 {need} 张牌，不是 {got} 张",
                      "this takes exactly {need} cards, not {got}"),
    "bid_too_low": _r(X, "叫分必须高于 {high} 分", "a bid must be higher than {high}"),
    "not_in_kitty": _r(X, "底牌是 {kitty}，没有 {cards}", "the kitty holds {kitty}, not {cards}"),
    "double_needs_beans": _r(X, "加倍需要你和每个可能的对手都有超过 {least} 个豆子",
                             "doubling needs more than {least} beans for you and every "
                             "possible opponent"),
    "no_eye_left": _r(X, "你没有黄金眼道具了", "you have no Golden Eye (黄金眼) item left"),
    "eye_used_up": _r(X, "黄金眼每局最多用 {uses} 次",
                      "Golden Eye (黄金眼) can be used at most {uses} times a game"),
    # 保皇
    "sixes_last": _r(X, "憋6：6 只能作为最后一手一起打出",
                     "憋6: sixes go only as your last hand, all of them at once"),
    "must_beat_each": _r(X, "{play} 管不上 {beat}：张数相同，每张都要比对应的牌大",
                         "{play} does not beat {beat}: the same number of cards, each higher "
                         "than its partner"),
    "must_beat_kaopai": _r(X, "{play} 管不上 {beat}：烤牌时每张牌都要有更大的一组来管",
                           "{play} does not beat {beat}: with 烤牌 every card needs its own "
                           "higher group"),
    "must_accept_emperor": _r(X, "转了一圈，第一个持有者必须接受皇帝牌",
                              "after a full lap the first holder must accept the emperor card"),
    "no_guard_to_open": _r(X, "你自己就是保子（暗独保）：没有保子可亮",
                           "you are your own guard (暗独保): there is no guard to open"),
    "no_guard_card": _r(X, "你没有保子牌：持有者就是你的保子（no-solo）",
                        "you do not hold the guard card: its holder is your guard (no-solo)"),
    "holds_guard_card": _r(X, "保子牌在你自己手里：暗独保（hidden-solo）或明独保（solo）",
                           "you hold the guard card yourself: hidden-solo or solo"),
    "joker_call": _r(X, "只能叫有花色的牌（6 到 2）：王没有花色",
                     "only a suited card (6 … 2) can be called: jokers have no suit"),
    "call_needs_three": _r(X, "你只有 {held} 张 {card}：叫保子需要 3 张相同的牌",
                           "you hold {held} × {card}: a guard call needs 3 identical cards"),
    "redeal_not_forced": _r(X, "只有被迫接受皇帝牌的第一个持有者可以要求重新发牌",
                            "only a first holder forced to accept may ask for a redeal"),
    "redeal_can_call": _r(X, "你能叫保子：重新发牌只给叫不了的人",
                          "you can call a guard: a redeal is only for who cannot"),
    # 找朋友
    "no_pass": _r(X, "找朋友不能过牌：请跟牌", "nobody passes in 找朋友: play to the trick"),
    "lead_mixes_suits": _r(X, "{cards} 花色混杂：首出必须是同一花色或全是主牌",
                           "{cards} mixes suits: a lead is cards of one suit or all trumps"),
    "must_play_all_suit": _r(X, "你必须先出完手里的 {held} 张{group}",
                             "you must play all your {held} {group} cards first"),
    "must_follow_suit": _r(X, "你还有{group}：要跟 {need} 张{group}",
                           "you still hold {group} cards: follow with {need} of them"),
    "must_follow_pair": _r(X, "你必须出 {need} 对{group}来跟这手牌",
                           "you must play {need} pairs of {group} to follow this lead"),
    "must_follow_tractor": _r(X, "你有 {pairs} 对的{group}拖拉机："
                              "要用它跟首家 {lead_pairs} 对的拖拉机",
                              "you hold a tractor of {pairs} pairs in {group}: answer the "
                              "lead's tractor of {lead_pairs} pairs with it"),
    "declare_identical": _r(X, "亮主要亮 1、2 或 3 张相同的级牌（{level}）",
                            "declare 1, 2 or 3 identical level cards ({level})"),
    "declare_level": _r(X, "级牌是 {level}：请用同一花色的 {level} 亮主",
                        "the level rank is {level}: declare with {level}s of one suit"),
    "declare_too_few": _r(X, "新的亮主必须多于 {standing} 张相同的级牌",
                          "a new declaration must show more than {standing} identical level "
                          "cards"),
    # -- several readings ----------------------------------------------------------------------
    "ambiguous": _r("ambiguous", "这些牌有几种出法，请选一种：{readings}",
                    "these cards read several ways; choose one: {readings}"),
    # -- set-up: options, deals, records --------------------------------------------------------
    "unknown_variant": _r(S, "没有这种玩法：{variant}", "unknown variant '{variant}'"),
    "bad_seed": _r(S, "种子必须是整数", "a seed is an integer"),
    "bad_option": _r(S, "选项 {option} 的值不对", "option {option} has a wrong value"),
    "bad_deal": _r(S, "指定的发牌不对", "the given deal is wrong"),
    "card_not_dealt": _r(S, "指定的牌 {card} 没有发到指定位置",
                         "the card {card} is not dealt there"),
    "bad_record": _r(S, "这份记录不完整或格式不对", "this record is incomplete or malformed"),
    "record_version": _r(S, "这份 {variant} 记录是第 {version} 版；"
                         "本程序是第 {plays} 版，无法重放",
                         "this {variant} record is of version {version}; this cardhall plays "
                         "version {plays}"),
    "record_action": _r(S, "记录中的第 {number} 步无法重放",
                        "action {number} of the record cannot be replayed"),
    # -- an IllegalAction raised without a reason (outside the games) ------------------------------
    "illegal_action": _r("illegal_action", "现在不能这样做", "that is not allowed now"),
}

#: Each game step's name, for ``phase`` params.
PHASES: dict[str, dict[Language, str]] = {
    "start": {"zh": "开局", "en": "the start"},
    "bid": {"zh": "叫分阶段", "en": "bidding"},
    "kitty": {"zh": "选底牌阶段", "en": "the kitty choice"},
    "play": {"zh": "出牌阶段", "en": "play"},
    "over": {"zh": "结束", "en": "the end"},
    "identity": {"zh": "亮身份阶段", "en": "the identity step"},
    "double": {"zh": "加倍阶段", "en": "the doubling step"},
    "ready": {"zh": "开局准备", "en": "the start"},
    "deal": {"zh": "发牌阶段", "en": "the deal"},
    "call": {"zh": "叫地主阶段", "en": "calling"},
    "rob": {"zh": "抢地主阶段", "en": "robbing"},
    "show": {"zh": "明牌阶段", "en": "showing"},
    "emperor": {"zh": "定皇帝阶段", "en": "the emperor card"},
    "guard": {"zh": "叫保子阶段", "en": "choosing a guard"},
    "disclose": {"zh": "亮保阶段", "en": "disclosure"},
    "rebellion": {"zh": "造反阶段", "en": "rebellion"},
    "declare": {"zh": "亮主阶段", "en": "the trump declaration"},
    "bury": {"zh": "埋底阶段", "en": "burying the kitty"},
    "friend": {"zh": "叫朋友阶段", "en": "calling a friend"},
}
#: Suit groups (``group`` params: ``s h c d`` or ``trump``).
GROUPS: dict[str, dict[Language, str]] = {
    "s": {"zh": "黑桃", "en": "♠"},
    "h": {"zh": "红桃", "en": "♥"},
    "c": {"zh": "梅花", "en": "♣"},
    "d": {"zh": "方块", "en": "♦"},
    "trump": {"zh": "主牌", "en": "trump"},
}
_JOIN: dict[Language, str] = {"zh": "、", "en": ", "}
_NOTHING: dict[Language, str] = {"zh": "（无）", "en": "nothing"}


def table() -> dict[str, object]:
    """The whole table as plain data (``/api/reasons``): a client renders a refusal's
    ``reason`` and ``params`` as ``render`` does, ``{name}`` fields and all."""
    return {"reasons": {code: {"kind": r.kind, "zh": r.zh, "en": r.en}
                        for code, r in REASONS.items()},
            "phases": PHASES, "groups": GROUPS, "join": _JOIN, "nothing": _NOTHING}


def render(reason: str, params: Params, language: Language) -> str:
    """The sentence for ``reason`` with ``params`` in ``language``; KeyError if the reason
    is not in ``REASONS`` or a param its sentence needs is missing."""
    entry = REASONS[reason]
    template = entry.zh if language == "zh" else entry.en
    words: dict[str, str | int | bool] = {}
    for key, value in params.items():
        if isinstance(value, list):
            words[key] = _JOIN[language].join(map(str, value)) or _NOTHING[language]
        elif key == "phase" and isinstance(value, str):
            words[key] = PHASES.get(value, {}).get(language, value)
        elif key == "group" and isinstance(value, str):
            words[key] = GROUPS.get(value, {}).get(language, value)
        else:
            words[key] = value
    return template.format_map(words)


def sentence(refusal: IllegalAction, language: Language = "en") -> str:
    """The player-facing sentence for ``refusal``; a reason this table lacks falls back to
    the generic one (a refusal made outside the games), never to an exception."""
    try:
        return render(refusal.reason, refusal.params, language)
    except (KeyError, IndexError, ValueError):
        return render("illegal_action", {}, language)


__all__ = ["GROUPS", "LANGUAGES", "PHASES", "REASONS", "Language", "Reason", "render",
           "sentence", "table"]
