"""五人斗地主 hand types and the bomb ladder (shared/rules/ddz-5p.md §3, ruling 13).

Ladder (low → high): 4炸 < 双王 < 5炸 < 6炸 < 三王 < 7炸 < 8炸 < 天王. Pairs exclude the
jokers; SJSJ / BJBJ are 双王 bombs, never pairs or kicker pairs.
"""

from __future__ import annotations

import pytest

from cardhall import rules
from cardhall.rules import Play, RuleError

RS = rules.get("ddz5")


def _texts(plays: list[Play]) -> list[str]:
    return sorted(p.text for p in plays)


# -- readings ------------------------------------------------------------------------
# (cards, kind, canonical text, key, chain length, ladder tier per the §3 table)
READINGS = [
    ("3", "single", "3", "3", 1, 0),
    ("X", "single", "X", "X", 1, 0),
    ("D", "single", "D", "D", 1, 0),
    ("33", "pair", "33", "3", 1, 0),
    ("22", "pair", "22", "2", 1, 0),
    ("556677", "pair_chain", "556677", "7", 3, 0),
    ("QQKKAA", "pair_chain", "QQKKAA", "A", 3, 0),
    ("34567", "straight", "34567", "7", 5, 0),
    ("3456789TJQKA", "straight", "3456789TJQKA", "A", 12, 0),
    ("555", "trio", "555", "5", 1, 0),
    ("222", "trio", "222", "2", 1, 0),
    ("555666", "trio_chain", "555666", "6", 2, 0),
    ("55577", "trio_pair", "555+77", "5", 1, 0),
    ("22233", "trio_pair", "222+33", "2", 1, 0),
    ("33322", "trio_pair", "333+22", "3", 1, 0),
    ("55566677799JJKK", "plane_pair", "555666777+99JJKK", "7", 3, 0),
    ("3334445566", "plane_pair", "333444+5566", "4", 2, 0),
    ("6666", "bomb", "6666", "6", 1, 1),
    ("XX", "two_jokers", "XX", "X", 1, 2),
    ("DD", "two_jokers", "DD", "D", 1, 2),
    ("77777", "bomb", "77777", "7", 1, 3),
    ("777777", "bomb", "777777", "7", 1, 4),
    ("XXD", "three_jokers", "XXD", "D", 1, 5),
    ("XDD", "three_jokers", "XDD", "D", 1, 5),
    ("7777777", "bomb", "7777777", "7", 1, 6),
    ("88888888", "bomb", "88888888", "8", 1, 7),
    ("XXDD", "four_jokers", "XXDD", "D", 1, 8),
]


@pytest.mark.parametrize(("cards", "kind", "text", "key", "length", "tier"), READINGS,
                         ids=[f"{r[1]}:{r[0]}" for r in READINGS])
def test_only_reading(cards: str, kind: str, text: str, key: str, length: int,
                      tier: int) -> None:
    plays = RS.classify(cards)
    assert [(p.kind, p.text, p.key_text, p.length) for p in plays] == [(kind, text, key, length)]
    assert plays[0].tier == tier
    assert plays[0].is_bomb == (tier > 0)
    assert RS.parse_play(text) == plays[0]


NO_READING = [
    ("XD", "SJ+BJ is no hand"),
    ("3334", "no trio+single"),
    ("333X", "no trio+single joker"),
    ("33344456", "no plane+singles"),
    ("333356", "no four+two singles"),
    ("33335566", "no four+two pairs"),
    ("333XX", "ruling 13: no SJSJ kicker pair"),
    ("333DD", "ruling 13: no BJBJ kicker pair"),
    ("333XD", "no SJ+BJ kicker"),
    ("333444XXDD", "ruling 13: no joker wing pairs"),
    ("33344455XX", "ruling 13: one joker wing pair"),
    ("3333XX", "no four + joker pair"),
    ("3456", "straight needs 5"),
    ("JQKA2", "2 never in a straight"),
    ("3344", "pair chain needs 3 pairs"),
    ("KKAA22", "2 never in a pair chain"),
    ("AAA222", "2 never in a trio chain"),
    ("5556667777", "K4: plane pairs of one rank"),
    ("5556665577", "K1: wing pair of the chain's rank"),
    ("5556667789", "K2: wings not all pairs"),
    ("33334444", "no four chain"),
    ("2X", "mixed ranks"),
]


@pytest.mark.parametrize(("cards", "why"), NO_READING, ids=[r[1] for r in NO_READING])
def test_no_reading(cards: str, why: str) -> None:
    assert RS.classify(cards) == []
    with pytest.raises(RuleError):
        RS.parse_play(cards)


@pytest.mark.parametrize("cards", ["XX", "DD"])
def test_joker_pair_is_a_bomb_not_a_pair(cards: str) -> None:
    assert [p.kind for p in RS.classify(cards)] == ["two_jokers"]
    assert RS.beats(RS.parse_play(cards), RS.parse_play("22"))


@pytest.mark.parametrize(("text", "bomb"), [("333+33", "33333"), ("555+555", "555555")],
                         ids=["333+33 is a 5-bomb only", "555+555 is a 6-bomb only"])
def test_equal_cards_are_a_bomb_only(text: str, bomb: str) -> None:
    with pytest.raises(RuleError):
        RS.parse_play(text)
    assert [(p.kind, p.text) for p in RS.classify(text)] == [("bomb", bomb)]


# -- the ladder ----------------------------------------------------------------------
# Low → high, two members per tier (lowest and highest) where two can exist. Two
# 三王 (or two 天王) cannot coexist in 108 cards, so each of those tiers gets one.
LADDER = [
    "3333", "2222",                 # 4炸
    "XX", "DD",                     # 双王: BJBJ > SJSJ
    "33333", "22222",               # 5炸
    "333333", "222222",             # 6炸
    "XXD",                          # 三王
    "3333333", "2222222",           # 7炸
    "33333333", "22222222",         # 8炸
    "XXDD",                         # 天王
]
ADJACENT = list(zip(LADDER[1:], LADDER, strict=False))
ALL_PAIRS = [(hi, lo) for i, lo in enumerate(LADDER) for hi in LADDER[i + 1:]]


@pytest.mark.parametrize(("hi", "lo"), ADJACENT, ids=[f"{h}>{lo}" for h, lo in ADJACENT])
def test_ladder_adjacent_steps(hi: str, lo: str) -> None:
    high, low = RS.parse_play(hi), RS.parse_play(lo)
    assert RS.beats(high, low)
    assert not RS.beats(low, high)
    assert not RS.beats(high, high)


@pytest.mark.parametrize(("hi", "lo"), ALL_PAIRS, ids=[f"{h}>{lo}" for h, lo in ALL_PAIRS])
def test_ladder_is_a_total_order(hi: str, lo: str) -> None:
    high, low = RS.parse_play(hi), RS.parse_play(lo)
    assert RS.beats(high, low)
    assert not RS.beats(low, high)


# XDD is the other 三王: the same place on the ladder as XXD.
@pytest.mark.parametrize(("new", "old", "expected"), [
    ("XDD", "222222", True), ("222222", "XDD", False),
    ("3333333", "XDD", True), ("XDD", "3333333", False),
    ("XDD", "DD", True), ("XDD", "22222", True),
], ids=["XDD>222222", "222222!>XDD", "3333333>XDD", "XDD!>3333333", "XDD>DD", "XDD>22222"])
def test_other_three_joker_bomb(new: str, old: str, expected: bool) -> None:
    assert RS.beats(RS.parse_play(new), RS.parse_play(old)) is expected


BEATS = [
    ("D", "X", True), ("X", "2", True), ("2", "X", False), ("D", "D", False),
    ("33", "22", False), ("AA", "KK", True), ("22", "AA", True),
    ("22", "XX", False), ("D", "XX", False), ("XX", "D", True),
    ("XX", "3456789TJQKA", True), ("3456789TJQKA", "XX", False),
    ("3333", "22", True), ("3333", "D", True), ("22", "3333", False),
    ("3333", "555666777+99JJKK", True),
    ("444+22", "333+AA", True), ("333+AA", "333+22", False), ("333+AA", "222+33", False),
    ("444+22", "333", False), ("444", "333+22", False),
    ("45678", "34567", True), ("456789", "34567", False), ("34567", "34567", False),
    ("667788", "556677", True), ("66778899", "556677", False),
    ("666777", "555666", True), ("555666", "666777", False), ("666777888", "555666", False),
    ("666777+3344", "555666+7788", True), ("555666+7788", "666777+3344", False),
    ("555666+7788", "555666", False), ("555666777+3388JJ", "555666+7788", False),
]


@pytest.mark.parametrize(("new", "old", "expected"), BEATS,
                         ids=[f"{a}{'>' if e else '!>'}{b}" for a, b, e in BEATS])
def test_beats(new: str, old: str, expected: bool) -> None:
    assert RS.beats(RS.parse_play(new), RS.parse_play(old)) is expected


@pytest.mark.parametrize("cards", ["333333333", "XXX", "DDD", "XXXDD"])
def test_beyond_two_packs_raises(cards: str) -> None:
    with pytest.raises(RuleError):
        RS.classify(cards)
    with pytest.raises(RuleError):
        RS.moves(cards)


# -- move generation -----------------------------------------------------------------
MOVES = [
    ("33XXD", None, ["3", "33", "D", "X", "XX", "XXD"]),
    ("444XX22", "333+22", ["444+22", "XX"]),
    ("444XX22", "333+AA", ["444+22", "XX"]),
    ("3344XXD", "22", ["XX", "XXD"]),
    ("3344XXD", "XX", ["XXD"]),
    ("XXDD", "XX", ["DD", "XDD", "XXD", "XXDD"]),
    ("XXDD", "DD", ["XDD", "XXD", "XXDD"]),
    ("XXDD", "22222222", ["XXDD"]),
    ("2222XX", "DD", []),
    ("2222XX", "3333", ["2222", "XX"]),
    ("3333344", "DD", ["33333"]),
    ("3333344", "XX", ["33333"]),
    ("3333333XD", "XXD", ["3333333"]),
    ("333XX44", None, ["3", "33", "333", "333+44", "4", "44", "X", "XX"]),
    ("555666XX77DD", "333444+5566", ["DD", "XX", "XXD", "XDD", "XXDD"]),
    ("555666778899", "333444+5566", ["555666+7788", "555666+7799", "555666+8899"]),
]


@pytest.mark.parametrize(("hand", "last", "expected"), MOVES,
                         ids=[f"{h}/{last or 'lead'}" for h, last, _ in MOVES])
def test_moves_exact(hand: str, last: str | None, expected: list[str]) -> None:
    last_play = RS.parse_play(last) if last else None
    assert _texts(RS.moves(hand, last_play)) == sorted(expected)


DUP_HANDS = [
    ("3334445566XXDD", None), ("33334444555566667777", None), ("3333344444XXDD", "3333"),
    ("333444555666XXDD22", "333444+5566"), ("22222XXD", "XX"), ("3456789TJQKA2XD", "34567"),
]


@pytest.mark.parametrize(("hand", "last"), DUP_HANDS,
                         ids=[f"{h}/{x or 'lead'}" for h, x in DUP_HANDS])
def test_moves_unique_and_legal(hand: str, last: str | None) -> None:
    last_play = RS.parse_play(last) if last else None
    moves = RS.moves(hand, last_play)
    assert moves
    assert len(set(moves)) == len(moves)
    assert len({(p.kind, p.text) for p in moves}) == len(moves)
    for play in moves:
        assert play in RS.classify(play.text)
        if last_play is not None:
            assert RS.beats(play, last_play)
