"""四人斗地主 hand types and comparison (shared/rules/ddz-4p.md §3, rulings 6 and 10).

Every row is a rule from the file: the readings a card set must have, the sets
that must have none, who beats whom (and who must not), the bomb ladder, and
exact move lists from small hands.
"""

from __future__ import annotations

import pytest

from cardhall import rules
from cardhall.rules import Play, RuleError

RS = rules.get("ddz4")


def _texts(plays: list[Play]) -> list[str]:
    return sorted(p.text for p in plays)


# -- readings ------------------------------------------------------------------------
# (cards, kind, canonical text, key, chain length): the one and only reading.
READINGS = [
    ("3", "single", "3", "3", 1),
    ("2", "single", "2", "2", 1),
    ("X", "single", "X", "X", 1),
    ("D", "single", "D", "D", 1),
    ("33", "pair", "33", "3", 1),
    ("22", "pair", "22", "2", 1),
    ("XX", "pair", "XX", "X", 1),
    ("DD", "pair", "DD", "D", 1),
    ("333", "trio", "333", "3", 1),
    ("222", "trio", "222", "2", 1),
    ("33344", "trio_pair", "333+44", "3", 1),
    ("44433", "trio_pair", "444+33", "4", 1),
    ("22233", "trio_pair", "222+33", "2", 1),
    ("AAA22", "trio_pair", "AAA+22", "A", 1),
    ("333XX", "trio_pair", "333+XX", "3", 1),
    ("333DD", "trio_pair", "333+DD", "3", 1),
    ("34567", "straight", "34567", "7", 5),
    ("TJQKA", "straight", "TJQKA", "A", 5),
    ("3456789TJQKA", "straight", "3456789TJQKA", "A", 12),
    ("334455", "pair_chain", "334455", "5", 3),
    ("QQKKAA", "pair_chain", "QQKKAA", "A", 3),
    ("33445566778899TTJJQQKKAA", "pair_chain", "33445566778899TTJJQQKKAA", "A", 12),
    ("333444", "trio_chain", "333444", "4", 2),
    ("KKKAAA", "trio_chain", "KKKAAA", "A", 2),
    ("333444555", "trio_chain", "333444555", "5", 3),
    ("3334445566", "plane_pair", "333444+5566", "4", 2),
    ("333444XXDD", "plane_pair", "333444+XXDD", "4", 2),
    ("KKKAAA22XX", "plane_pair", "KKKAAA+22XX", "A", 2),
    ("QQQKKKAAA223344", "plane_pair", "QQQKKKAAA+334422", "A", 3),
    ("3333", "bomb", "3333", "3", 1),
    ("2222", "bomb", "2222", "2", 1),
    ("33333", "bomb", "33333", "3", 1),
    ("333333", "bomb", "333333", "3", 1),
    ("3333333", "bomb", "3333333", "3", 1),
    ("33333333", "bomb", "33333333", "3", 1),
    ("XXDD", "rocket", "XXDD", "D", 1),
]


@pytest.mark.parametrize(("cards", "kind", "text", "key", "length"), READINGS,
                         ids=[f"{r[1]}:{r[0]}" for r in READINGS])
def test_only_reading(cards: str, kind: str, text: str, key: str, length: int) -> None:
    plays = RS.classify(cards)
    assert [(p.kind, p.text, p.key_text, p.length) for p in plays] == [(kind, text, key, length)]
    assert plays[0].is_bomb == (kind in ("bomb", "rocket"))
    assert RS.parse_play(text) == plays[0]


# -- no reading ----------------------------------------------------------------------
NO_READING = [
    ("3334", "no trio+single"),
    ("333X", "no trio+single joker"),
    ("33344456", "no plane+singles"),
    ("333444555789", "no plane+singles of three"),
    ("333356", "no four+two singles"),
    ("33335566", "no four+two pairs"),
    ("3333XX", "no four+joker pair"),
    ("XD", "SJ+BJ is not a pair"),
    ("XXD", "three jokers (ruling 6)"),
    ("XDD", "three jokers BJ (ruling 6)"),
    ("333XD", "SJ+BJ is no kicker pair"),
    ("3456", "straight needs 5"),
    ("JQKA2", "2 never in a straight"),
    ("QKA23", "no wrap-around straight"),
    ("3344", "pair chain needs 3 pairs"),
    ("KKAA22", "2 never in a pair chain"),
    ("22XXDD", "jokers never in a pair chain"),
    ("AAA222", "2 never in a trio chain"),
    ("33334444", "no four chain in ddz4"),
    ("3334445555", "K4: plane kicker pairs of one rank"),
    ("3334445567", "K2: wings not all pairs"),
    ("3333444455", "K1: kicker pair shares the chain's rank"),
    ("333444XD", "SJ+BJ is not a wing pair"),
    ("333444+55", "plane short of wings"),
    ("3345", "mixed ranks"),
]


@pytest.mark.parametrize(("cards", "why"), NO_READING, ids=[r[1] for r in NO_READING])
def test_no_reading(cards: str, why: str) -> None:
    assert RS.classify(cards) == []
    with pytest.raises(RuleError):
        RS.parse_play(cards)


# -- ruling 10: K1 and K4 in two packs ----------------------------------------------
@pytest.mark.parametrize(("text", "bomb"), [
    ("333+33", "33333"),
    ("333+333", "333333"),
    ("333+3333", "3333333"),
    ("3333+3333", "33333333"),
], ids=["333+33 is a 5-bomb only", "333+333 is a 6-bomb only", "333+3333 is a 7-bomb only",
        "3333+3333 is an 8-bomb only"])
def test_equal_cards_are_a_bomb_only(text: str, bomb: str) -> None:
    with pytest.raises(RuleError):
        RS.parse_play(text)
    assert [(p.kind, p.text) for p in RS.classify(text)] == [("bomb", bomb)]


@pytest.mark.parametrize("text", ["333444+5555", "333444+3355", "333444+4455", "333+XD"],
                         ids=["K4 same-rank pairs", "K1 kicker 3", "K1 kicker 4", "SJ+BJ kicker"])
def test_kicker_reading_rejected(text: str) -> None:
    with pytest.raises(RuleError):
        RS.parse_play(text)


# -- comparison ----------------------------------------------------------------------
# (new, old, beats?)
BEATS = [
    ("D", "X", True), ("X", "2", True), ("2", "X", False), ("X", "X", False),
    ("XX", "22", True), ("22", "XX", False), ("DD", "XX", True), ("XX", "DD", False),
    ("DD", "22", True), ("DD", "DD", False), ("33", "22", False), ("33", "3", False),
    ("444+33", "333+XX", True), ("333+XX", "333+44", False), ("333+DD", "222+33", False),
    ("444+55", "333", False), ("444", "333+55", False),
    ("45678", "34567", True), ("34567", "45678", False), ("456789", "34567", False),
    ("445566", "334455", True), ("44556677", "334455", False), ("334455", "445566", False),
    ("444555", "333444", True), ("444555666", "333444", False), ("444555", "444555", False),
    ("444555+3366", "333444+XXDD", True), ("333444+XXDD", "333444+5566", False),
    ("444555666+778899", "333444+5566", False), ("444555+6677", "333444", False),
    ("3333", "22", True), ("3333", "DD", True), ("3333", "D", True),
    ("3333", "3456789TJQKA", True), ("3333", "KKKAAA+22XX", True),
    ("DD", "3333", False), ("3456789TJQKA", "3333", False),
    ("4444", "3333", True), ("3333", "4444", False), ("3333", "3333", False),
    ("44444", "33333", True), ("33333", "33333", False), ("22222", "33333", True),
    ("33333", "2222", True), ("2222", "33333", False),
    ("333333", "22222", True), ("22222", "333333", False),
    ("3333333", "222222", True), ("222222", "3333333", False),
    ("33333333", "2222222", True), ("2222222", "33333333", False),
    ("22222222", "33333333", True), ("33333333", "22222222", False),
    ("XXDD", "22222222", True), ("22222222", "XXDD", False),
    ("XXDD", "D", True), ("XXDD", "DD", True), ("XXDD", "333444+XXDD", True),
]


@pytest.mark.parametrize(("new", "old", "expected"), BEATS,
                         ids=[f"{a}{'>' if e else '!>'}{b}" for a, b, e in BEATS])
def test_beats(new: str, old: str, expected: bool) -> None:
    assert RS.beats(RS.parse_play(new), RS.parse_play(old)) is expected


# Bomb ladder: 4-card (by rank) < 5-card < 6-card < 7-card < 8-card < rocket.
LADDER = ["3333", "2222", "33333", "22222", "333333", "222222", "3333333", "2222222",
          "33333333", "22222222", "XXDD"]
LADDER_PAIRS = [(hi, lo) for i, lo in enumerate(LADDER) for hi in LADDER[i + 1:]]


@pytest.mark.parametrize(("hi", "lo"), LADDER_PAIRS, ids=[f"{h}>{lo}" for h, lo in LADDER_PAIRS])
def test_bomb_ladder(hi: str, lo: str) -> None:
    high, low = RS.parse_play(hi), RS.parse_play(lo)
    assert high.is_bomb and low.is_bomb
    assert RS.beats(high, low)
    assert not RS.beats(low, high)


# -- deck limits ---------------------------------------------------------------------
@pytest.mark.parametrize("cards", ["333333333", "XXX", "DDD", "XXXDD", "222222222"])
def test_beyond_two_packs_raises(cards: str) -> None:
    with pytest.raises(RuleError):
        RS.classify(cards)
    with pytest.raises(RuleError):
        RS.moves(cards)


def test_full_two_pack_counts_accepted() -> None:
    assert [p.kind for p in RS.classify("22222222")] == ["bomb"]
    assert [p.kind for p in RS.classify("XXDD")] == ["rocket"]


# -- move generation -----------------------------------------------------------------
# (hand, last play or None, every legal play as text)
MOVES = [
    ("3344XXD", None, ["3", "33", "4", "44", "D", "X", "XX"]),
    ("3344XXD", "22", ["XX"]),
    ("3344XXD", "XX", []),
    ("3344XXD", "X", ["D"]),
    ("333445XX", None,
     ["3", "33", "333", "333+44", "333+XX", "4", "44", "5", "X", "XX"]),
    ("44455XXDD", "333+22", ["444+55", "444+DD", "444+XX", "XXDD"]),
    ("444555XXDD", "333444+6677", ["444555+XXDD", "XXDD"]),
    ("33333444", "2222", ["33333"]),
    ("33333444", "22222", []),
    ("3333XX", "22", ["3333", "XX"]),
    ("333344445", "34567", ["3333", "4444"]),
    ("3344556677", "334455", ["445566", "556677"]),
    ("XXDD", "22222222", ["XXDD"]),
    ("XXDD", None, ["D", "DD", "X", "XX", "XXDD"]),
]


@pytest.mark.parametrize(("hand", "last", "expected"), MOVES,
                         ids=[f"{h}/{last or 'lead'}" for h, last, _ in MOVES])
def test_moves_exact(hand: str, last: str | None, expected: list[str]) -> None:
    last_play = RS.parse_play(last) if last else None
    assert _texts(RS.moves(hand, last_play)) == sorted(expected)


def test_moves_any_beats_any_reading() -> None:
    assert _texts(RS.moves_any("3344XXD", "22")) == ["XX"]


DUP_HANDS = [
    ("3334445566XXDD", None), ("33334444555566667777", None), ("3333344444XXDD", "3333"),
    ("333444555666XXDD22", "333444+5566"), ("3456789TJQKA2XD", "34567"),
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
