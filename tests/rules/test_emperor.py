"""斗帝主: the 16 hand types and comparison (shared/rules/dou-dizhu-emperor.md §3, rulings 4–10).

A four of a kind is not a bomb; bombs are 5–8 cards (more cards first), 天王 on top.
Every kicker group takes its own rank, distinct from the main groups (ruling 8).
"""

from __future__ import annotations

import pytest

from cardhall import rules
from cardhall.rules import Play, RuleError

RS = rules.get("ddz_emperor")


def _texts(plays: list[Play]) -> list[str]:
    return sorted(p.text for p in plays)


# -- the 16 types --------------------------------------------------------------------
# (cards, kind, canonical text, key_text, chain length)
READINGS = [
    ("3", "single", "3", "3", 1),
    ("X", "single", "X", "X", 1),
    ("D", "single", "D", "D", 1),
    ("34567", "straight", "34567", "7", 5),
    ("3456789TJQKA", "straight", "3456789TJQKA", "A", 12),
    ("33", "pair", "33", "3", 1),
    ("22", "pair", "22", "2", 1),
    ("XX", "pair", "XX", "X", 1),
    ("DD", "pair", "DD", "D", 1),
    ("33445566", "pair_chain", "33445566", "6", 4),
    ("JJQQKKAA", "pair_chain", "JJQQKKAA", "A", 4),
    ("333", "trio", "333", "3", 1),
    ("222", "trio", "222", "2", 1),
    ("333444555", "trio_chain", "333444555", "5", 3),
    ("333444555666", "trio_chain", "333444555666", "6", 4),
    ("33344", "trio_pair", "333+44", "3", 1),
    ("333XX", "trio_pair", "333+XX", "3", 1),
    ("222DD", "trio_pair", "222+DD", "2", 1),
    ("333444555667788", "plane", "333444555+667788", "5", 3),
    ("33344455566XXDD", "plane", "333444555+66XXDD", "5", 3),
    ("3333", "four", "3333", "3", 1),
    ("2222", "four", "2222", "2", 1),
    ("33334444", "four_chain", "33334444", "4", 2),
    ("3333444455556666", "four_chain", "3333444455556666", "6", 4),
    ("3333444", "four_trio", "3333+444", "3", 1),
    ("2222333", "four_trio", "2222+333", "2", 1),
    ("33334444555666", "carrier", "33334444+555666", "4", 2),
    ("33334444666TTT", "carrier", "33334444+666TTT", "4", 2),
    ("33334444666222", "carrier", "33334444+666222", "4", 2),
    ("55556666333444", "carrier", "55556666+333444", "6", 2),
    ("333344445555666777888", "carrier", "333344445555+666777888", "5", 3),
    ("333344455", "dress", "3333+44455", "3", 1),
    ("3333444XX", "dress", "3333+444XX", "3", 1),
    ("2222AAADD", "dress", "2222+AAADD", "2", 1),
    ("333344445556667788", "spaceship", "33334444555666+7788", "46", 2),
    ("333344446667778899", "spaceship", "33334444666777+8899", "47", 2),
    ("55556666333444XXDD", "spaceship", "33344455556666+XXDD", "64", 2),
    ("33333", "bomb", "33333", "3", 1),
    ("222222", "bomb", "222222", "2", 1),
    ("3333333", "bomb", "3333333", "3", 1),
    ("22222222", "bomb", "22222222", "2", 1),
    ("XXDD", "four_jokers", "XXDD", "D", 1),
]


@pytest.mark.parametrize(("cards", "kind", "text", "key", "length"), READINGS,
                         ids=[f"{r[1]}:{r[0]}" for r in READINGS])
def test_only_reading(cards: str, kind: str, text: str, key: str, length: int) -> None:
    plays = RS.classify(cards)
    assert [(p.kind, p.text, p.key_text, p.length) for p in plays] == [(kind, text, key, length)]
    assert plays[0].is_bomb == (kind in ("bomb", "four_jokers"))
    assert RS.parse_play(text) == plays[0]


def test_sixteen_kinds_covered() -> None:
    kinds = {r[1] for r in READINGS}
    assert kinds == {"single", "straight", "pair", "pair_chain", "trio", "trio_chain",
                     "trio_pair", "plane", "four", "four_chain", "four_trio", "carrier",
                     "dress", "spaceship", "bomb", "four_jokers"}


NO_READING = [
    ("3334", "no trio+single"),
    ("333356", "no four+two singles"),
    ("33335566", "no four+two pairs"),
    ("333344", "no four+pair"),
    ("XD", "no SJ+BJ rocket or pair (ruling 4)"),
    ("XXD", "no three-joker hand"),
    ("334455", "ruling 5: pair chain of 3 pairs"),
    ("333444", "ruling 5: trio chain of 2 trios"),
    ("3334445566", "ruling 6: plane of 2 trios"),
    ("3456", "straight needs 5"),
    ("JQKA2", "2 never in a straight"),
    ("QQKKAA22", "2 never in a pair chain"),
    ("KKKAAA222", "2 never in a trio chain"),
    ("AAAA2222", "2 never in a four chain"),
    ("33334444555", "carrier short of a trio"),
    ("33334444666666", "ruling 8: carrier trios of one rank"),
    ("33334444444555", "ruling 8: carrier trio of a four's rank"),
    ("333444555667777", "ruling 8: plane pairs of one rank"),
    ("333444555556677", "ruling 8: plane pair of a trio's rank"),
    ("333344444", "ruling 8: dress pair of the trio's rank"),
    ("333333444", "ruling 8: dress pair of the four's rank"),
    ("3333XXD", "four + three jokers"),
    ("333344445557778899", "spaceship trio chain not consecutive"),
    ("333344445556667777", "ruling 8: spaceship pairs of one rank"),
    ("333344445556665577", "ruling 8: spaceship pair of a trio rank"),
    ("333344444445556677", "ruling 8: spaceship trio chain shares a four's rank"),
    ("33334444555666777888", "four chain of 2 with four trios"),
    ("3333444455566677", "spaceship short of a pair"),
    ("3334449", "trio chain of 2 plus a single"),
]


@pytest.mark.parametrize(("cards", "why"), NO_READING, ids=[r[1] for r in NO_READING])
def test_no_reading(cards: str, why: str) -> None:
    assert RS.classify(cards) == []
    with pytest.raises(RuleError):
        RS.parse_play(cards)


# Ruling 8: equal groups would be one bigger group, i.e. a bomb.
@pytest.mark.parametrize(("text", "bomb"), [
    ("3333+333", "3333333"),
    ("3333+3333", "33333333"),
    ("333+33", "33333"),
    ("3333+33", "333333"),
], ids=["3333+333 is no four+trio", "3333+3333 is no four chain",
        "333+33 is no trio+pair", "3333+33 is no four+pair"])
def test_equal_groups_are_a_bomb_only(text: str, bomb: str) -> None:
    with pytest.raises(RuleError):
        RS.parse_play(text)
    assert [(p.kind, p.text) for p in RS.classify(text)] == [("bomb", bomb)]


def test_four_of_a_kind_is_not_a_bomb() -> None:
    four = RS.parse_play("3333")
    assert four.kind == "four"
    assert not four.is_bomb
    assert four.tier == 0


def test_spaceship_json_key() -> None:
    ship = RS.parse_play("33334444555666+7788")
    assert ship.to_json() == {"cards": "33334444555666+7788", "kind": "spaceship",
                              "key": "46", "length": 2}


# -- comparison ----------------------------------------------------------------------
BEATS = [
    ("D", "X", True), ("X", "2", True), ("X", "X", False),
    ("XX", "22", True), ("DD", "XX", True), ("22", "XX", False), ("XX", "DD", False),
    ("45678", "34567", True), ("456789", "34567", False),
    ("44556677", "33445566", True), ("4455667788", "33445566", False),
    ("33445566", "33445566", False),
    ("444555666", "333444555", True), ("444555666777", "333444555", False),
    ("444+33", "333+XX", True), ("333+DD", "333+44", False), ("444+33", "333", False),
    ("444555666+3377XX", "333444555+667788", True),
    ("333444555+XXDD22", "333444555+667788", False),
    ("444555666+778899", "333444555666+77889922", False),
    ("4444", "3333", True), ("3333", "4444", False), ("3333", "3333", False),
    ("3333", "2", False), ("3333", "22", False), ("3333", "XX", False),
    ("3333", "333+22", False), ("3333", "222", False),
    ("44445555", "33334444", True), ("44445555", "333344445555", False),
    ("44445555", "4444", False),
    ("4444+333", "3333+222", True), ("3333+222", "3333+444", False),
    ("4444+333", "4444", False),
    ("44445555+333666", "33334444+AAA222", True),
    ("33334444+AAA222", "33334444+555666", False),
    ("333344445555+666777888", "33334444+555666", False),
    ("4444+33355", "3333+AAA22", True), ("3333+AAA22", "3333+44455", False),
    ("3333+AAADD", "3333+44455", False), ("4444+33355", "3333+222", False),
    ("44445555666777+8899", "33334444666777+8899", True),
    ("33334444666777+8899", "33334444555666+7799", True),
    ("33334444555666+7799", "33334444666777+8899", False),
    ("33334444555666+7799", "33334444555666+88JJ", False),
    ("55556666333444+7788", "44445555JJJQQQ+AA22", True),
    ("44445555JJJQQQ+AA22", "55556666333444+7788", False),
    ("33334444555666+7788", "33334444+555666", False),
    ("33333", "2222", True), ("33333", "3333+222", True), ("33333", "XX", True),
    ("33333", "33334444555666+7788", True), ("2222", "33333", False),
    ("44444", "33333", True), ("33333", "33333", False), ("33333", "44444", False),
    ("333333", "22222", True), ("22222", "333333", False),
    ("3333333", "222222", True), ("33333333", "2222222", True),
    ("22222222", "33333333", True), ("2222222", "33333333", False),
    ("XXDD", "22222222", True), ("22222222", "XXDD", False), ("XXDD", "DD", True),
    ("DD", "XXDD", False),
]


@pytest.mark.parametrize(("new", "old", "expected"), BEATS,
                         ids=[f"{a}{'>' if e else '!>'}{b}" for a, b, e in BEATS])
def test_beats(new: str, old: str, expected: bool) -> None:
    assert RS.beats(RS.parse_play(new), RS.parse_play(old)) is expected


LADDER = ["33333", "22222", "333333", "222222", "3333333", "2222222", "33333333",
          "22222222", "XXDD"]
LADDER_PAIRS = [(hi, lo) for i, lo in enumerate(LADDER) for hi in LADDER[i + 1:]]


@pytest.mark.parametrize(("hi", "lo"), LADDER_PAIRS, ids=[f"{h}>{lo}" for h, lo in LADDER_PAIRS])
def test_bomb_ladder(hi: str, lo: str) -> None:
    high, low = RS.parse_play(hi), RS.parse_play(lo)
    assert RS.beats(high, low)
    assert not RS.beats(low, high)


@pytest.mark.parametrize("cards", ["333333333", "XXX", "DDD"])
def test_beyond_two_packs_raises(cards: str) -> None:
    with pytest.raises(RuleError):
        RS.classify(cards)
    with pytest.raises(RuleError):
        RS.moves(cards)


# -- move generation -----------------------------------------------------------------
MOVES = [
    ("3333444XX", None,
     ["3", "33", "333", "333+44", "333+XX", "3333", "3333+444", "3333+444XX",
      "4", "44", "444", "444+33", "444+XX", "X", "XX"]),
    ("3333344445", "3333", ["33333", "4444"]),
    ("3333344445", "2222", ["33333"]),
    ("3333344445", "33333", []),
    ("3333444XX", "22", ["XX"]),
    ("44445558XX", "3333+222AA", ["4444+555XX"]),
    ("44445555333222", "33334444+AAA222", ["44445555+333222"]),
    ("33334444666777XX88", "33334444555666+7799", ["33334444666777+88XX"]),
    ("33334444666777XX88", "33334444666777+5599", []),
    ("4444555566667777", "33334444", ["44445555", "55556666", "66667777"]),
    ("XXDD", "22222222", ["XXDD"]),
    ("4444555566677788XX99", "33334444555666+7788",
     ["44445555666777+8899", "44445555666777+88XX", "44445555666777+99XX"]),
    ("44445555333666222", "33334444+555666",
     ["44445555+333666", "44445555+333222", "44445555+666222"]),
]


@pytest.mark.parametrize(("hand", "last", "expected"), MOVES,
                         ids=[f"{h}/{last or 'lead'}" for h, last, _ in MOVES])
def test_moves_exact(hand: str, last: str | None, expected: list[str]) -> None:
    last_play = RS.parse_play(last) if last else None
    assert _texts(RS.moves(hand, last_play)) == sorted(expected)


DUP_HANDS = [
    ("3333444455566677XXDD", None), ("33334444555566667777", None),
    ("4444555566677788XX99", "33334444555666+7788"), ("3333344444XXDD", "3333"),
    ("333444555666778899XX", "333444555+667788"), ("44445555333666222", "33334444+555666"),
    ("333344444445556677", None), ("333344444445556677XX", "33334444555666+7788"),
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
