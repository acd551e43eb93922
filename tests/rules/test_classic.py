"""ddz-classic §3 hand types, kicker rules K1–K4, comparison §3.2 and rulings 4–10.

ddz-2p §3 and ddz-happy §3 adopt exactly these rules, so every test runs on
the three variants.
"""

from itertools import product

import pytest

from cardhall import rules
from cardhall.cards import CardError
from cardhall.rules import RuleError


@pytest.fixture(params=["ddz3", "ddz3_happy", "ddz2"])
def rs(request):
    return rules.get(request.param)


def readings(rs, cards):
    return sorted((p.kind, p.text) for p in rs.classify(cards))


def texts(plays):
    return sorted(p.text for p in plays)


# -- the 13 hand types: (cards, kind, canonical text, key, chain length) ---------------

LEGAL = [
    ("3", "single", "3", "3", 1),
    ("2", "single", "2", "2", 1),
    ("X", "single", "X", "X", 1),
    ("D", "single", "D", "D", 1),
    ("33", "pair", "33", "3", 1),
    ("22", "pair", "22", "2", 1),
    ("333", "trio", "333", "3", 1),
    ("222", "trio", "222", "2", 1),
    ("9993", "trio_single", "999+3", "9", 1),
    ("A888", "trio_single", "888+A", "8", 1),
    ("3332", "trio_single", "333+2", "3", 1),
    ("333X", "trio_single", "333+X", "3", 1),
    ("D333", "trio_single", "333+D", "3", 1),
    ("QQQ66", "trio_pair", "QQQ+66", "Q", 1),
    ("10 10 10 KK", "trio_pair", "TTT+KK", "T", 1),
    ("33322", "trio_pair", "333+22", "3", 1),
    ("34567", "straight", "34567", "7", 5),
    ("76543", "straight", "34567", "7", 5),
    ("TJQKA", "straight", "TJQKA", "A", 5),
    ("3456789TJQKA", "straight", "3456789TJQKA", "A", 12),
    ("334455", "pair_chain", "334455", "5", 3),
    ("QQKKAA", "pair_chain", "QQKKAA", "A", 3),
    ("33445566778899TTJJQQ", "pair_chain", "33445566778899TTJJQQ", "Q", 10),
    ("333444", "trio_chain", "333444", "4", 2),
    ("KKKAAA", "trio_chain", "KKKAAA", "A", 2),
    ("333444555666777888", "trio_chain", "333444555666777888", "8", 6),
    ("333444+56", "plane_single", "333444+56", "4", 2),
    ("444555+79", "plane_single", "444555+79", "5", 2),
    ("333444+55", "plane_single", "333444+55", "4", 2),  # K3 / ruling 6
    ("KKKAAA+22", "plane_single", "KKKAAA+22", "A", 2),
    ("333444+2X", "plane_single", "333444+2X", "4", 2),
    ("333444555666+7777", "plane_single", "333444555666+7777", "6", 4),  # K3
    ("333444555666777+89TJQ", "plane_single", "333444555666777+89TJQ", "7", 5),
    ("333444+5566", "plane_pair", "333444+5566", "4", 2),
    ("333444555+7799JJ", "plane_pair", "333444555+7799JJ", "5", 3),
    ("333444+5522", "plane_pair", "333444+5522", "4", 2),
    ("333444555666+7788TTJJ", "plane_pair", "333444555666+7788TTJJ", "6", 4),
    ("6666+55", "four_single", "6666+55", "6", 1),  # K3 / ruling 6
    ("5555+38", "four_single", "5555+38", "5", 1),
    ("6666+2X", "four_single", "6666+2X", "6", 1),
    ("6666+3D", "four_single", "6666+3D", "6", 1),
    ("4444+5577", "four_pair", "4444+5577", "4", 1),
    ("6666+2233", "four_pair", "6666+3322", "6", 1),
    ("3333", "bomb", "3333", "3", 1),
    ("2222", "bomb", "2222", "2", 1),
    ("XD", "rocket", "XD", "D", 1),
    ("大王小王", "rocket", "XD", "D", 1),
]


@pytest.mark.parametrize(
    ("cards", "kind", "text", "key", "length"),
    [pytest.param(*row, id=f"{row[1]}-{row[0].replace(' ', '')}") for row in LEGAL],
)
def test_legal_hand_has_exactly_this_reading(rs, cards, kind, text, key, length):
    [play] = rs.classify(cards)
    assert (play.kind, play.text, play.key_text, play.length) == (kind, text, key, length)
    assert play.size == len(text.replace("+", ""))
    assert rs.parse_play(text) == play


ILLEGAL = {
    "pair-of-different": "34",
    "single-and-joker": "3X",
    "pair-and-single": "334",
    "two-pairs": "3344",  # pair chain needs 3 pairs
    "straight-of-4": "3456",
    "gapped-straight": "34568",
    "straight-with-pair": "34455",
    "bomb-plus-single": "33334",  # no 5-card type
    "trio-plus-pair-plus-single": "333445",
    "straight-JQKA2": "JQKA2",  # ruling 10
    "straight-QKA23": "QKA23",
    "straight-KA234": "KA234",
    "straight-A2345": "A2345",
    "straight-23456": "23456",
    "straight-with-joker": "TJQKAX",
    "straight-XD-end": "QKAXD",
    "pair-chain-KKAA22": "KKAA22",
    "pair-chain-AA2233": "AA2233",
    "trio-chain-AAA222": "AAA222",
    "trio-chain-222333": "222333",
    "plane-KKKAAA222": "KKKAAA222",
    "gapped-trio-chain": "333555",
    "K1-3334444+9": "3334444+9",  # ruling 8
    "K2-mixed-wings": "333444+6+77",
    "K2-mixed-wings-n3": "333444555+6+77+88",
    "K3-plane-XD": "333444+XD",  # ruling 5
    "K3-plane3-7XD": "333444555+7XD",
    "K3-four-XD": "6666+XD",
    "trio-pair-XD": "333+XD",  # no joker pair
    "plane-pair-XD": "333444+55XD",
    "four-pair-XD": "6666+55XD",
    "K4-6666+88+88": "6666+88+88",  # ruling 7
    "K4-333444+5555": "333444+5555",
    "K4-plane3-same-pairs": "333444555+6666+77",
    "two-bombs": "33334444",
    "three-bombs": "333344445555",
    "four-plus-three": "6666+777",
    "four-plus-one": "6666+5",
}


@pytest.mark.parametrize("cards", list(ILLEGAL.values()), ids=list(ILLEGAL))
def test_illegal_hand_has_no_reading(rs, cards):
    assert rs.classify(cards) == []
    with pytest.raises(RuleError):
        rs.parse_play(cards.replace("+", ""))


MULTI = {
    # ruling 9: 333444555666 is a trio chain or a plane with either end as wings
    "333444555666": [("plane_single", "333444555+666"), ("plane_single", "444555666+333"),
                     ("trio_chain", "333444555666")],
    "3334445556667779": [("plane_single", "333444555666+7779"),
                         ("plane_single", "444555666777+3339")],
    "3333": [("bomb", "3333")],  # K1 / ruling 4: never 333+3
    "333344": [("four_single", "3333+44")],  # never a bomb plus a pair
    "33334455": [("four_pair", "3333+4455")],
    "KKKAAA22": [("plane_single", "KKKAAA+22")],
}


@pytest.mark.parametrize(("cards", "expected"), list(MULTI.items()), ids=list(MULTI))
def test_every_reading(rs, cards, expected):
    assert readings(rs, cards) == expected


@pytest.mark.parametrize(
    ("text", "kind", "key"),
    [
        pytest.param("333444555666", "trio_chain", "6", id="no-plus-trio-chain"),
        pytest.param("333444555+666", "plane_single", "5", id="plane-wings-666"),
        pytest.param("444555666+333", "plane_single", "6", id="plane-wings-333"),
        pytest.param("333444555666+7779", "plane_single", "6", id="plane-3456"),
        pytest.param("444555666777+3339", "plane_single", "7", id="plane-4567"),
    ],
)
def test_parse_play_names_one_reading(rs, text, kind, key):
    play = rs.parse_play(text)
    assert (play.kind, play.key_text, play.text) == (kind, key, text)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("3334445556667779", id="ambiguous-without-plus"),
        pytest.param("333444+555666", id="split-names-no-reading"),
        pytest.param("333+4+5", id="two-plus"),
        pytest.param("33Z", id="bad-char"),
        pytest.param("+3", id="empty-main"),
    ],
)
def test_parse_play_errors(rs, text):
    with pytest.raises(RuleError):
        rs.parse_play(text)


# -- chain limits ----------------------------------------------------------------------

CHAIN_LIMITS = [
    # (kind, shortest legal, one unit shorter, longest a 20-card hand can play)
    ("straight", "34567", "3456", "3456789TJQKA"),
    ("pair_chain", "334455", "3344", "33445566778899TTJJQQ"),
    ("trio_chain", "333444", "333", "333444555666777888"),
    ("plane_single", "333444+56", "333+5", "333444555666777+89TJQ"),
    ("plane_pair", "333444+5566", "333+55", "333444555666+7788TTJJ"),
]


@pytest.mark.parametrize(("kind", "shortest", "shorter", "longest"), CHAIN_LIMITS,
                         ids=[row[0] for row in CHAIN_LIMITS])
def test_chain_limits(rs, kind, shortest, shorter, longest):
    assert [p.kind for p in rs.classify(shortest)] == [kind]
    assert kind not in [p.kind for p in rs.classify(shorter)]
    assert [p.kind for p in rs.classify(longest)] == [kind]


def test_no_chain_ever_holds_a_2_or_joker(rs):
    for hand in ["3456789TJQKA2XD", "JJQQKKAA22", "QQQKKKAAA222X"]:
        for play in rs.moves(hand):
            if play.kind in ("straight", "pair_chain", "trio_chain", "plane_single",
                             "plane_pair"):
                assert max(play.main) <= 11, play  # 11 = A


# -- comparison §3.2: (a, b, a beats b, b beats a) -------------------------------------

BEATS = [
    ("999+3", "888+A", True, False, "source-trio-single"),
    ("QQQ+66", "TTT+KK", True, False, "source-trio-pair"),
    ("4", "3", True, False, "single"),
    ("2", "A", True, False, "single-2-over-A"),
    ("X", "2", True, False, "small-joker-over-2"),
    ("D", "X", True, False, "big-over-small-joker"),
    ("22", "AA", True, False, "pair"),
    ("333", "222", False, True, "trio"),
    ("45678", "34567", True, False, "straight"),
    ("456789", "34567", False, False, "straight-length-differs"),
    ("TJQKA", "9TJQK", True, False, "straight-to-A"),
    ("445566", "334455", True, False, "pair-chain"),
    ("44556677", "334455", False, False, "pair-chain-length-differs"),
    ("444555", "333444", True, False, "trio-chain"),
    ("444555666", "333444", False, False, "trio-chain-length-differs"),
    ("444555+33", "333444+AA", True, False, "plane-kickers-never-matter"),
    ("444555+6677", "333444+AAKK", True, False, "plane-pair"),
    ("333444555+666", "444555666777", False, False, "plane-vs-trio-chain"),
    ("444555666+333", "333444555+666", True, False, "plane-same-cards"),
    ("AAA+3", "333+44", False, False, "trio-single-vs-trio-pair"),
    ("AAA", "333+4", False, False, "trio-vs-trio-single"),
    ("2", "33", False, False, "single-vs-pair"),
    ("7777+34", "6666+55", True, False, "four-single"),
    ("7777+3344", "6666+8899", True, False, "four-pair"),
    ("7777+34", "6666+3344", False, False, "13a-vs-13b"),
    ("6666+34", "7777+3344", False, False, "13a-vs-13b-lower"),
    ("333444555666777+89TJQ", "333444555666+7788TTJJ", False, False, "20-cards-kinds-differ"),
    ("4444", "3333", True, False, "bombs-by-rank"),
    ("2222", "AAAA", True, False, "bomb-2-top"),
    ("3333", "22", True, False, "bomb-over-pair"),
    ("3333", "AAA+K", True, False, "bomb-over-trio-single"),
    ("3333", "3456789TJQKA", True, False, "bomb-over-long-straight"),
    ("3333", "6666+55", True, False, "lower-bomb-over-four-single"),
    ("3333", "6666+8899", True, False, "lower-bomb-over-four-pair"),
    ("XD", "2222", True, False, "rocket-over-bomb"),
    ("XD", "D", True, False, "rocket-over-big-joker"),
    ("XD", "3456789TJQKA", True, False, "rocket-over-straight"),
    ("XD", "2222+AA", True, False, "rocket-over-four-single"),
    ("34567", "34567", False, False, "equal-straight"),
    ("333+4", "333+5", False, False, "equal-trio-single"),
    ("6666+34", "6666+58", False, False, "equal-four-single"),
    ("3333", "3333", False, False, "equal-bomb"),
    ("7", "7", False, False, "equal-single"),
]


@pytest.mark.parametrize(("a", "b", "a_beats_b", "b_beats_a"), [row[:4] for row in BEATS],
                         ids=[row[4] for row in BEATS])
def test_beats(rs, a, b, a_beats_b, b_beats_a):
    pa, pb = rs.parse_play(a), rs.parse_play(b)
    assert rs.beats(pa, pb) is a_beats_b
    assert rs.beats(pb, pa) is b_beats_a


@pytest.mark.parametrize(
    ("text", "is_bomb"),
    [("3333", True), ("XD", True), ("6666+55", False), ("6666+8899", False),
     ("333444", False), ("2", False)],
    ids=["bomb", "rocket", "four-single-not-bomb", "four-pair-not-bomb", "trio-chain", "single"],
)
def test_is_bomb(rs, text, is_bomb):
    play = rs.parse_play(text)
    assert play.is_bomb is is_bomb
    assert (play.tier > 0) is is_bomb


def test_rocket_above_bombs_on_the_ladder(rs):
    assert rs.parse_play("XD").tier > rs.parse_play("2222").tier > 0


# -- moves ---------------------------------------------------------------------------

MOVES = [
    ("34567", None, ["3", "34567", "4", "5", "6", "7"], "lead-34567"),
    ("34567", "3", ["4", "5", "6", "7"], "follow-3-singles-only"),
    ("3333", None, ["3", "33", "333", "3333"], "lead-3333-no-333+3"),
    ("XD", None, ["D", "X", "XD"], "lead-jokers"),
    ("XD", "2", ["D", "X", "XD"], "jokers-on-2"),
    ("XD", "X", ["D", "XD"], "on-small-joker"),
    ("3333XD", "2222", ["XD"], "only-rocket-on-2222"),
    ("33334444", "22", ["3333", "4444"], "bombs-on-pair"),
    ("4444", "3333", ["4444"], "higher-bomb"),
    ("3333", "4444", [], "lower-bomb-cannot"),
    ("3333", "6666+55", ["3333"], "lower-bomb-on-four-single"),
    ("3333456789", "34567", ["3333", "45678", "56789"], "straights-same-length"),
    ("55566678", "333444+9T", ["555666+78"], "plane-follow"),
    ("444555XD", "333444+56", ["XD"], "rocket-never-wings"),
    ("6666XD", "5555+34", ["6666", "XD"], "rocket-never-four-kickers"),
    ("2222XD", "XD", [], "nothing-on-rocket"),
    ("33344", "222+3", [], "trio-single-needs-higher-trio"),
    ("44433", "333+22", ["444+33"], "trio-pair-follow"),
]


@pytest.mark.parametrize(("hand", "last", "expected"), [row[:3] for row in MOVES],
                         ids=[row[3] for row in MOVES])
def test_moves_exact(rs, hand, last, expected):
    got = rs.moves(hand, None if last is None else rs.parse_play(last))
    assert texts(got) == sorted(expected)


@pytest.mark.parametrize(
    ("hand", "present", "absent"),
    [
        pytest.param("3333444555667", ["34567", "334455", "33445566", "333444", "333444555",
                                       "333444+55", "333444+66", "3333", "3333+44"],
                     ["333444+33", "333+3", "3333+3"], id="3333-still-starts-chains"),
        pytest.param("333444XD", ["333+X", "333+D", "333+4", "XD"], ["333444+XD"],
                     id="rocket-never-kickers"),
        pytest.param("KKKAAA222X", ["KKKAAA", "KKKAAA+22", "KKKAAA+2X"],
                     ["KKKAAA222"], id="no-2-in-plane"),
    ],
)
def test_moves_include_and_exclude(rs, hand, present, absent):
    got = texts(rs.moves(hand))
    for text in present:
        assert text in got
    for text in absent:
        assert text not in got


@pytest.mark.parametrize("hand", ["3333444555667", "33344455566677XD", "34567789TJQKA2XD",
                                  "333444555666", "66667777XD"])
def test_moves_no_duplicates_and_no_rocket_kickers(rs, hand):
    got = rs.moves(hand)
    assert len(got) == len(set(got))
    assert len({(p.kind, p.text) for p in got}) == len(got)
    for play in got:
        assert not {13, 14} <= set(play.kickers), play
        assert play in rs.classify(play.text)


def _submultisets(counts):
    for sub in product(*[range(n + 1) for n in counts]):
        if any(sub):
            yield sub


@pytest.mark.parametrize(
    ("hand", "last"),
    [("3334445", None), ("33344455", "333+4"), ("6666XD5", "5555+34"), ("4455667", "334455"),
     ("3456789", "34567"), ("2222AX", None), ("33445566", None)],
)
def test_moves_equal_brute_force(rs, hand, last):
    lastp = None if last is None else rs.parse_play(last)
    want = {p for sub in _submultisets(rs.hand(hand)) for p in rs.classify(sub)
            if lastp is None or rs.beats(p, lastp)}
    assert set(rs.moves(hand, lastp)) == want


def test_moves_any_beats_any_reading(rs):
    # 333444555666 reads three ways; moves_any answers all of them at once
    got = texts(rs.moves_any("444555666777", "333444555666"))
    assert got == ["444555666+777", "444555666777", "555666777+444"]
    only_chain = texts(rs.moves("444555666777", rs.parse_play("333444555666")))
    assert only_chain == ["444555666777"]
    with pytest.raises(RuleError):
        rs.moves_any("3456", "34")


# -- errors and the Play value ---------------------------------------------------------


def test_unknown_variant():
    with pytest.raises(RuleError):
        rules.get("ddz9")


@pytest.mark.parametrize("cards", ["33333", "XX", "DD", "22222"])
def test_impossible_cards(rs, cards):
    with pytest.raises(RuleError):
        rs.classify(cards)


@pytest.mark.parametrize("call", ["hand", "classify", "moves"])
def test_bad_character(rs, call):
    # The brief promised CardError; the engine now re-raises it as RuleError. Either
    # way the message must say which character and where.
    with pytest.raises((CardError, RuleError)) as info:
        getattr(rs, call)("33Z")
    assert "'Z'" in str(info.value)
    assert "position 3" in str(info.value)


def test_play_fields_and_json(rs):
    plane = rs.parse_play("444333+65")
    assert plane.main == (0, 0, 0, 1, 1, 1)
    assert plane.kickers == (2, 3)
    assert (plane.key, plane.length, plane.size, plane.tier) == (1, 2, 8, 0)
    assert plane.to_json() == {"cards": "333444+56", "kind": "plane_single", "key": "4",
                               "length": 2}
    bomb = rs.parse_play("2222").to_json()
    assert bomb["kind"] == "bomb"
    assert bomb["key"] == "2"
    assert bomb["bomb"] > 0
