"""保皇 hands, the normal follow rule, 烤牌 and 憋6 (shared/rules/baohuang.md §1, §3;
rulings 1, 13–15, 17, 19).

Ranks are 6 … 2 then SJ (X) and BJ (D); the deck has no 3, 4 or 5. A hand is a set
of one rank, jokers, or jokers hung on a set (text ``77+D``).
"""

from __future__ import annotations

import pytest

from cardhall import rules
from cardhall.rules import Play, RuleError
from cardhall.rules.sets import dominates

RS = rules.get("baohuang")
KAO = rules.get("baohuang", kaopai=True)
BIE = rules.get("baohuang", bie6=True)
BOTH = rules.get("baohuang", kaopai=True, bie6=True)
OPTIONS = {"plain": RS, "kaopai": KAO, "bie6": BIE, "both": BOTH}
SIX = 3  # rank index of 6 in "3456789TJQKA2XD"


def _texts(plays: list[Play]) -> list[str]:
    return sorted(p.text for p in plays)


def _beats(rs: rules.RuleSet, new: str, old: str) -> bool:
    return rs.beats(rs.parse_play(new), rs.parse_play(old))


# -- §1 deck, ruling 1 ---------------------------------------------------------------
@pytest.mark.parametrize("cards", ["3", "4", "5", "33", "5555", "66+5", "3X", "44+D"])
@pytest.mark.parametrize("option", list(OPTIONS))
def test_no_three_four_five(option: str, cards: str) -> None:
    rs = OPTIONS[option]
    with pytest.raises(RuleError):
        rs.classify(cards)
    with pytest.raises(RuleError):
        rs.moves(cards)
    with pytest.raises(RuleError):
        rs.moves("66" + cards.replace("+", ""), rs.parse_play("7"))


@pytest.mark.parametrize(("cards", "ok"), [
    ("6" * 16, True), ("6" * 17, False), ("2" * 16, True), ("2" * 17, False),
    ("XXXX", True), ("XXXXX", False), ("DDDD", True), ("DDDDD", False),
    ("XXXXDDDD", True),
], ids=["16 sixes", "17 sixes", "16 twos", "17 twos", "4 SJ", "5 SJ", "4 BJ", "5 BJ",
        "all 8 jokers"])
def test_four_pack_counts(cards: str, ok: bool) -> None:
    if ok:
        assert len(RS.classify(cards)) == 1
    else:
        with pytest.raises(RuleError):
            RS.classify(cards)


# -- §3 hand kinds, ruling 13 --------------------------------------------------------
READINGS = [
    ("6", "set", "6", "6"),
    ("2", "set", "2", "2"),
    ("9999", "set", "9999", "9"),
    ("6" * 16, "set", "6" * 16, "6"),
    ("X", "jokers", "X", "X"),
    ("D", "jokers", "D", "D"),
    ("XXD", "jokers", "XXD", "D"),
    ("XXXX", "jokers", "XXXX", "X"),
    ("77D", "hung", "77+D", "7"),
    ("D77", "hung", "77+D", "7"),
    ("X888", "hung", "888+X", "8"),
    ("9999XD", "hung", "9999+XD", "9"),
    ("22X", "hung", "22+X", "2"),
    ("2222XXDD", "hung", "2222+XXDD", "2"),
]


@pytest.mark.parametrize(("cards", "kind", "text", "key"), READINGS,
                         ids=[f"{r[1]}:{r[0]}" for r in READINGS])
def test_only_reading(cards: str, kind: str, text: str, key: str) -> None:
    plays = RS.classify(cards)
    assert [(p.kind, p.text, p.key_text) for p in plays] == [(kind, text, key)]
    assert not plays[0].is_bomb  # ruling 19: no bombs
    assert RS.parse_play(text) == plays[0]


NO_READING = [
    ("78", "mixed ranks"),
    ("6789T", "no straights"),
    ("89TJQ", "no straights (higher)"),
    ("7788", "two sets"),
    ("77+88", "two sets with a plus"),
    ("7772", "ruling 13: 2 is no filler"),
    ("2227", "ruling 13: no filler on a set of 2s"),
    ("772X", "ruling 13: 2 no filler beside a joker"),
    ("AAAA2", "ruling 13: 2 is no wild"),
]


@pytest.mark.parametrize(("cards", "why"), NO_READING, ids=[r[1] for r in NO_READING])
def test_no_reading(cards: str, why: str) -> None:
    assert RS.classify(cards) == []
    with pytest.raises(RuleError):
        RS.parse_play(cards)


# -- normal follow rule (ruling 14), source examples and negatives ---------------------
NORMAL = [
    ("8888", "7777", True, "8888 > 7777"),
    ("7777", "8888", False, "7777 !> 8888"),
    ("7777", "7777", False, "equal sets never beat"),
    ("888", "7777", False, "fewer cards"),
    ("88888", "7777", False, "more cards"),
    ("DXXX", "AAAA", True, "BJ+SJ+SJ+SJ > AAAA"),
    ("777X", "6666", True, "SJ+777 > 6666"),
    ("9999", "888X", False, "9999 !> SJ+888"),
    ("7777D", "6666X", True, "in-deck BJ+7777 > SJ+6666"),
    ("6666X", "7777D", False, "SJ+6666 !> BJ+7777"),
    ("DDDDX", "6666D", False, "set with BJ hung: all jokers"),
    ("2222D", "6666D", False, "set with BJ hung: 2s and BJ"),
    ("XXXXD", "6666D", False, "set with BJ hung: SJs and BJ"),
    ("DD", "XX", True, "DD > XX"),
    ("DX", "XX", False, "SJ does not beat SJ"),
    ("XX", "DX", False, "XX !> DX"),
    ("D", "X", True, "D > X"),
    ("X", "2", True, "X > 2"),
    ("2", "X", False, "2 !> X"),
    ("D", "D", False, "D !> D"),
    ("X7", "66", True, "hung beats a set"),
    ("8+D", "7+D", False, "BJ against BJ"),
    ("88", "7+X", False, "8 does not beat SJ"),
    ("D8", "7X", True, "BJ>SJ and 8>7"),
    ("XXX", "D", False, "no count change without 烤牌"),
    ("DD", "D", False, "no count change without 烤牌 (DD on D)"),
    ("DDDD", "6", False, "ruling 19: four of a kind is no bomb"),
    ("8888", "7", False, "ruling 19: no bomb on a single"),
]


@pytest.mark.parametrize(("new", "old", "expected", "why"), NORMAL, ids=[r[3] for r in NORMAL])
def test_normal_rule(new: str, old: str, expected: bool, why: str) -> None:
    assert _beats(RS, new, old) is expected


# Last hands without a joker follow the normal rule under every option.
@pytest.mark.parametrize(("new", "old", "expected", "why"),
                         [r for r in NORMAL if "X" not in r[1] and "D" not in r[1]],
                         ids=[r[3] for r in NORMAL if "X" not in r[1] and "D" not in r[1]])
@pytest.mark.parametrize("option", list(OPTIONS))
def test_normal_rule_without_joker_any_option(option: str, new: str, old: str, expected: bool,
                                              why: str) -> None:
    assert _beats(OPTIONS[option], new, old) is expected


# The file's "BJ+6666 > SJ+5555" (5s are not in the deck) on raw rank indices.
X_, D_ = 13, 14
RAW = [
    ([D_, 3, 3, 3, 3], [X_, 2, 2, 2, 2], True, "BJ+6666 > SJ+5555"),
    ([X_, 2, 2, 2, 2], [D_, 3, 3, 3, 3], False, "SJ+5555 !> BJ+6666"),
    ([3, 3, 3, 3], [2, 2, 2, 2], True, "6666 > 5555"),
    ([D_, 3, 3, 3], [X_, 2, 2, 2, 2], False, "counts differ"),
    ([D_, 3, 3, 3, 3], [D_, 2, 2, 2, 2], False, "BJ vs BJ"),
    ([3, D_, 3, 3, 3], [2, 2, X_, 2, 2], True, "order of the lists is irrelevant"),
    ([1, 1, 1, 1], [0, 0, 0, 0], True, "4444 > 3333"),
]


@pytest.mark.parametrize(("new", "old", "expected", "why"), RAW, ids=[r[3] for r in RAW])
def test_dominates_raw(new: list[int], old: list[int], expected: bool, why: str) -> None:
    assert dominates(new, old) is expected


def test_big_joker_hung_set_unbeatable_normally() -> None:
    last = RS.parse_play("6666D")
    assert RS.moves("777722222XXXXDDDD", last) == []
    assert KAO.moves("777722222XXXXDDDD", last) != []  # 烤牌 can: BJ ← 2 BJ


# -- 烤牌 (ruling 15) ------------------------------------------------------------------
KAOPAI = [
    ("DDXX", "DX", "2BJ+2SJ > BJ+SJ"),
    ("DDXXX", "DD", "2BJ+3SJ > 2BJ"),
    ("DDD", "DX", "3BJ > BJ+SJ"),
    ("DXX", "XX", "BJ+2SJ > 2SJ"),
    ("DXXX", "DX", "BJ+3SJ > BJ+SJ"),
    ("DDDXX", "DXX", "3BJ+2SJ > BJ+2SJ"),
    ("8888+DD", "7777+D", "2BJ+8888 > BJ+7777"),
    ("88+DDDX", "777+DX", "3BJ+SJ+88 > BJ+SJ+777"),
]


@pytest.mark.parametrize(("new", "old", "why"), KAOPAI, ids=[r[2] for r in KAOPAI])
def test_kaopai_examples(new: str, old: str, why: str) -> None:
    assert _beats(KAO, new, old)
    assert _beats(BOTH, new, old)
    assert not _beats(RS, new, old)  # without the option the counts must be equal
    assert not _beats(BIE, new, old)


KAOPAI_MORE = [
    ("DD", "D", True, "BJ by 2 BJ"),
    ("XXX", "D", True, "BJ by 3 SJ"),
    ("XX", "X", True, "SJ by 2 SJ"),
    ("DDX", "D", True, "leftover SJ is a joker"),
    ("DDD", "7+D", True, "a joker covers the 7"),
    ("8+DD", "77+X", True, "SJ by BJ, 7 by 8, 7 by BJ"),
    ("DX", "D", False, "ruling 15: no BJ+SJ unit for a BJ"),
    ("DXX", "D", False, "ruling 15: no BJ+2SJ unit for a BJ"),
    ("DXXX", "DD", False, "ruling 15: one BJ left for a BJ"),
    ("DDX", "DX", False, "SJ does not cover SJ"),
    ("XX", "D", False, "BJ needs 3 SJ"),
    ("X", "X", False, "equal joker"),
    ("X8", "X7", False, "SJ on SJ even with 8 > 7"),
    ("88+D", "7+X", False, "leftover 8 is not a joker"),
    ("7+DD", "7+D", False, "7 does not cover 7"),
    ("DD", "77+X", False, "too few cards to cover"),
    ("88", "77+X", False, "SJ left uncovered"),
    ("8+D", "77+X", False, "one 7 left uncovered"),
    ("88+D", "777+X", False, "one 7 left uncovered (hung)"),
    ("88X", "77", False, "last hand holds no joker"),
    ("8888D", "7777", False, "last hand holds no joker (5 on 4)"),
    ("DD", "2", False, "last single holds no joker"),
]


@pytest.mark.parametrize(("new", "old", "expected", "why"), KAOPAI_MORE,
                         ids=[r[3] for r in KAOPAI_MORE])
def test_kaopai_rule(new: str, old: str, expected: bool, why: str) -> None:
    assert _beats(KAO, new, old) is expected
    if len(new.replace("+", "")) != len(old.replace("+", "")):
        assert not _beats(RS, new, old)


# -- 憋6 (ruling 17) --------------------------------------------------------------------
# (hand, option, every lead)
LEADS = [
    ("667", "bie6", ["7"]),
    ("667", "plain", ["6", "66", "7"]),
    ("66", "bie6", ["66"]),
    ("66", "plain", ["6", "66"]),
    ("6", "bie6", ["6"]),
    ("66X", "bie6", ["X", "66+X"]),
    ("66X", "plain", ["6", "66", "X", "6+X", "66+X"]),
    ("66XD", "bie6", ["X", "D", "XD", "66+XD"]),
    ("66XD", "both", ["X", "D", "XD", "66+XD"]),
    ("667X", "bie6", ["7", "X", "7+X"]),
    ("6667D", "bie6", ["7", "D", "7+D"]),
    ("6667D", "kaopai", ["6", "66", "666", "7", "D", "6+D", "66+D", "666+D", "7+D"]),
    ("77", "bie6", ["7", "77"]),
]


@pytest.mark.parametrize(("hand", "option", "expected"), LEADS,
                         ids=[f"{h}/{o}" for h, o, _ in LEADS])
def test_leads_and_bie6(hand: str, option: str, expected: list[str]) -> None:
    assert _texts(OPTIONS[option].moves(hand)) == sorted(expected)


@pytest.mark.parametrize("hand", ["66667777XD", "6XXDD", "6666", "66AA22XXDD", "6789TJQKA2",
                                  "66XD", "6"])
@pytest.mark.parametrize("option", ["bie6", "both"])
def test_bie6_sixes_only_as_last_play(option: str, hand: str) -> None:
    with_six = [p for p in OPTIONS[option].moves(hand) if SIX in p.cards]
    if set(hand) <= set("6XD"):  # only 6s and jokers left: the whole hand, once
        assert [p.size for p in with_six] == [len(hand)]
    else:
        assert with_six == []
    # without 憋6 the same hand may play its 6s at once
    assert any(SIX in p.cards and p.size < len(hand) for p in RS.moves(hand)) == (len(hand) > 1)


# -- follows ---------------------------------------------------------------------------
FOLLOWS = [
    ("78X", "plain", "7", ["8", "X"]),
    ("8DX", "plain", "7+X", ["8+D", "XD"]),
    ("8DX", "kaopai", "7+X", ["8+D", "XD", "8+XD"]),
    ("66D", "bie6", "7", ["D"]),
    ("66D", "plain", "7", ["D"]),
    ("66", "plain", "6", []),
    ("8888", "plain", "7", ["8"]),
    ("8888", "plain", "777", ["888"]),
    ("99XX", "plain", "88", ["99", "9+X", "XX"]),
    ("99XX", "plain", "8X", []),
    ("99XD", "plain", "8X", ["9+D", "XD"]),
    ("DDXXX", "kaopai", "D", ["DD", "XDD", "XXDD", "XXXDD", "XXX", "XXXD"]),
    ("DDXXX", "plain", "D", []),
    ("DDXXX", "kaopai", "2", ["X", "D"]),
]


@pytest.mark.parametrize(("hand", "option", "last", "expected"), FOLLOWS,
                         ids=[f"{h}/{o}/{last}" for h, o, last, _ in FOLLOWS])
def test_follows_exact(hand: str, option: str, last: str, expected: list[str]) -> None:
    rs = OPTIONS[option]
    assert _texts(rs.moves(hand, rs.parse_play(last))) == sorted(expected)


DUP = [("6677XD", "plain", None), ("7777XXDD", "kaopai", "6+X"), ("66AAXXD", "both", None),
       ("889922XXDD", "kaopai", "77+D"), ("TTTTJJJJ", "plain", "99")]


@pytest.mark.parametrize(("hand", "option", "last"), DUP,
                         ids=[f"{h}/{o}/{x or 'lead'}" for h, o, x in DUP])
def test_moves_unique_and_legal(hand: str, option: str, last: str | None) -> None:
    rs = OPTIONS[option]
    last_play = rs.parse_play(last) if last else None
    moves = rs.moves(hand, last_play)
    assert moves
    assert len(set(moves)) == len(moves)
    assert len({p.text for p in moves}) == len(moves)
    for play in moves:
        assert rs.classify(play.text) == [play]
        if last_play is not None:
            assert rs.beats(play, last_play)
