"""ddz-laizi: wildcards W1–W6, bomb classes (§4) and rulings 2–6 and 12.

A wild play keeps two texts: ``text`` (the cards actually played) and
``as_text`` (what the wild cards stand for); a play without wild cards has
``as_text`` None.
"""

from functools import cache
from itertools import product

import pytest

from cardhall import rules
from cardhall.cards import RANK_CHARS
from cardhall.rules import RuleError

R = {c: i for i, c in enumerate(RANK_CHARS)}
CHAINS = ("straight", "pair_chain", "trio_chain", "plane_single", "plane_pair")


@cache
def lz(wild):
    return rules.get("ddz3_laizi", wild=wild)


def readings(wild, cards):
    return sorted((p.kind, p.as_text or p.text) for p in lz(wild).classify(cards))


def only(wild, cards, as_text):
    """The one reading of ``cards`` that stands for ``as_text``."""
    found = [p for p in lz(wild).classify(cards) if (p.as_text or p.text) == as_text]
    assert len(found) == 1, (cards, as_text, lz(wild).classify(cards))
    return found[0]


def bomb_class(rs, play):
    """Class names from the ladder the rule set itself exposes via natural hands."""
    hard = rs.classify("3333" if rs.wild != R["3"] else "4444")[0].tier
    rocket = rs.classify("XD")[0].tier
    if not play.tier:
        return "none"
    if play.tier == rocket:
        return "rocket"
    if play.tier == hard:
        return "hard"
    return "soft" if play.tier < hard else "pure"


# -- source examples (§3, §4) ----------------------------------------------------------

SOURCE = [
    ("7", "445567", [("pair_chain", "445566")], "W7-445566-pair-chain"),
    ("7", "77", [("pair", "77")], "W7-77-pair-of-7s"),
    ("5", "3335", [("bomb", "3333"), ("trio_single", "333+5")], "W5-333+5"),
    ("5", "7755", [("bomb", "7777"), ("trio_single", "777+5")], "W5-77+55"),
    ("5", "5555", [("bomb", "5555")], "W5-5555"),
    ("6", "7777", [("bomb", "7777")], "W6-7777"),
    ("5", "33375", [("trio_pair", "333+77")], "W5-333+7+5-trio-pair"),
    ("7", "7", [("single", "7")], "W7-single"),
    ("7", "777", [("trio", "777")], "W7-trio-face-value"),
    ("7", "XD", [("rocket", "XD")], "rocket"),
]


@pytest.mark.parametrize(("wild", "cards", "expected"), [r[:3] for r in SOURCE],
                         ids=[r[3] for r in SOURCE])
def test_source_examples(wild, cards, expected):
    assert readings(wild, cards) == expected


@pytest.mark.parametrize(
    ("wild", "cards", "as_text", "klass"),
    [
        pytest.param("5", "3335", "3333", "soft", id="W5-333+5-soft"),
        pytest.param("5", "7755", "7777", "soft", id="W5-77+55-soft"),
        pytest.param("5", "5552", "2222", "soft", id="W5-three-wilds-soft-2222"),
        pytest.param("7", "2227", "2222", "soft", id="W7-wild-as-2-soft"),
        pytest.param("5", "5555", "5555", "pure", id="W5-pure"),
        pytest.param("3", "3333", "3333", "pure", id="W3-pure"),
        pytest.param("6", "7777", "7777", "hard", id="W6-7777-hard"),
        pytest.param("7", "2222", "2222", "hard", id="W7-2222-hard"),
        pytest.param("7", "XD", "XD", "rocket", id="rocket"),
    ],
)
def test_bomb_classes(wild, cards, as_text, klass):
    rs = lz(wild)
    bombs = [p for p in rs.classify(cards) if p.is_bomb]
    assert len(bombs) == 1
    [bomb] = bombs
    assert (bomb.as_text or bomb.text) == as_text
    assert bomb_class(rs, bomb) == klass
    assert len(bomb.main) == 4 or klass == "rocket"


def test_hard_bomb_has_no_substitution():
    bomb = lz("6").parse_play("7777")
    assert bomb.as_text is None
    assert bomb.to_json()["cards"] == "7777"
    assert "as" not in bomb.to_json()


def test_wild_play_carries_its_substitution():
    soft = only("5", "3335", "3333")
    assert (soft.text, soft.as_text, soft.key_text) == ("3335", "3333", "3")
    assert soft.main == (R["3"], R["3"], R["3"], R["5"])
    assert soft.as_main == (R["3"],) * 4
    assert soft.to_json()["as"] == "3333"
    assert soft.to_json()["bomb"] == soft.tier
    chain = only("7", "445567", "445566")
    assert (chain.text, chain.key_text, chain.length) == ("445567", "6", 3)


# -- bomb ladder: rocket > pure > hard > soft > non-bombs; rank within a class --------

LADDER_W7 = ["3337", "4777", "2227", "3333", "4444", "2222", "7777", "XD"]
#            soft 3  soft 4  soft 2  hard 3  hard 4  hard 2  pure    rocket
LADDER_AS = ["3333", "4444", "2222", "3333", "4444", "2222", "7777", "XD"]


def _ladder():
    return [only("7", cards, as_text) for cards, as_text in zip(LADDER_W7, LADDER_AS,
                                                                strict=True)]


@pytest.mark.parametrize(("lo", "hi"), [(i, j) for i in range(8) for j in range(i + 1, 8)],
                         ids=[f"{LADDER_W7[j]}>{LADDER_W7[i]}"
                              for i in range(8) for j in range(i + 1, 8)])
def test_bomb_ladder(lo, hi):
    rs, ladder = lz("7"), _ladder()
    assert rs.beats(ladder[hi], ladder[lo])
    assert not rs.beats(ladder[lo], ladder[hi])


NON_BOMBS = ["2", "22", "222+A", "2222+AK", "2222+AAKK", "3456789TJQKA", "AAAKKK+QQJJ",
             "D"]


@pytest.mark.parametrize("other", NON_BOMBS)
@pytest.mark.parametrize("i", range(8), ids=LADDER_W7)
def test_every_bomb_beats_every_non_bomb(i, other):
    rs = lz("7")
    bomb, plain = _ladder()[i], rs.parse_play(other)
    assert not plain.is_bomb
    assert rs.beats(bomb, plain)
    assert not rs.beats(plain, bomb)


@pytest.mark.parametrize(
    ("a", "a_as", "b", "b_as"),
    [
        pytest.param("3337", "3333", "3377", "3333", id="soft-3333-one-vs-two-wilds"),
        pytest.param("3337", "3333", "3337", "3333", id="soft-same"),
        pytest.param("445567", "445566", "445566", "445566", id="W4-pair-chain"),
        pytest.param("997", "999", "999", "999", id="W4-trio"),
        pytest.param("TJQA7", "TJQKA", "TJQKA", "TJQKA", id="W4-straight"),
        pytest.param("333+7", "333+7", "333+4", "333+4", id="equal-key-trio-single"),
    ],
)
def test_equal_never_beats(a, a_as, b, b_as):
    rs = lz("7")
    pa, pb = only("7", a, a_as), only("7", b, b_as)
    assert not rs.beats(pa, pb)
    assert not rs.beats(pb, pa)


@pytest.mark.parametrize(
    ("wild", "a", "a_as", "b", "b_as"),
    [
        pytest.param("7", "997", "999", "888", "888", id="wild-trio-beats-lower-natural"),
        pytest.param("7", "77", "77", "66", "66", id="pair-of-wilds-is-7s-over-66"),
        pytest.param("7", "88", "88", "77", "77", id="88-over-pair-of-wilds"),
        pytest.param("5", "5553", "222+3", "AAA+K", "AAA+K", id="wild-trio-as-2s"),
    ],
)
def test_non_bomb_comparisons(wild, a, a_as, b, b_as):
    rs = lz(wild)
    pa, pb = only(wild, a, a_as), only(wild, b, b_as)
    assert rs.beats(pa, pb)
    assert not rs.beats(pb, pa)


# -- W1 substitution, W2 legality ------------------------------------------------------

@pytest.mark.parametrize(
    ("wild", "cards", "kind", "as_text"),
    [
        pytest.param("7", "56789", "straight", "56789", id="W1-own-rank-in-straight"),
        pytest.param("7", "667", "trio", "666", id="W1-other-rank"),
        pytest.param("7", "27", "pair", "22", id="ruling2-wild-as-2-pair"),
        pytest.param("7", "2227", "trio_single", "222+7", id="wild-single-kicker"),
        pytest.param("5", "5553", "trio_single", "555+3", id="ruling4-trio-face"),
        pytest.param("5", "5553", "trio_single", "222+3", id="W2-trio-as-2s"),
        pytest.param("7", "JQKA7", "straight", "TJQKA", id="chain-extends-down"),
        pytest.param("7", "KKAA77", "pair_chain", "QQKKAA", id="pair-chain-down"),
        pytest.param("7", "KKKAAA777", "trio_chain", "QQQKKKAAA", id="trio-chain-down"),
        pytest.param("5", "33345", "trio_pair", "333+44", id="W6-pair-kicker"),
        pytest.param("7", "333444X7", "plane_single", "333444+7X", id="K3-wild-wing-stays-7"),
    ],
)
def test_substitution_readings(wild, cards, kind, as_text):
    assert only(wild, cards, as_text).kind == kind


@pytest.mark.parametrize(
    ("wild", "cards"),
    [
        pytest.param("7", "X7", id="W1-no-small-joker-pair"),
        pytest.param("7", "D7", id="W1-no-big-joker-pair"),
        pytest.param("7", "XD7", id="W1-no-joker-trio"),
        pytest.param("7", "333X7", id="W1-no-joker-kicker-pair"),
        pytest.param("7", "333444XD", id="K3-rocket-as-wings"),
        pytest.param("7", "6666XD", id="K3-rocket-four-kickers"),
        pytest.param("5", "33335", id="W5-no-5-card-bomb"),
        pytest.param("5", "77775", id="W5-natural-four-plus-wild"),
        pytest.param("7", "22227", id="W5-2222-plus-wild"),
        pytest.param("5", "66668885", id="K4-substituted-6666+88+88"),
        pytest.param("2", "3456789TJQKA2", id="ruling2-no-2-in-chain"),
        pytest.param("7", "QKA27", id="no-K-A-2-chain"),
        pytest.param("7", "A2347", id="no-A-2-3-chain"),
        pytest.param("7", "KKAA27", id="no-pair-chain-through-2"),
    ],
)
def test_no_legal_reading(wild, cards):
    assert lz(wild).classify(cards) == []


HANDS = [("7", "JQKA7"), ("7", "KKAA77"), ("7", "QQKKAA277"), ("2", "JQKA2"),
         ("2", "3456789TJQK2"), ("7", "X7D"), ("7", "333444X7"), ("5", "5553"),
         ("5", "3335X"), ("A", "KKQQJJAA")]


@pytest.mark.parametrize(("wild", "cards"), HANDS, ids=[f"W{w}-{c}" for w, c in HANDS])
def test_substitution_invariants(wild, cards):
    rs = lz(wild)
    w = R[wild]
    for p in rs.classify(cards):
        stands = p.cards if p.as_main is None else p.as_main + (p.as_kickers or ())
        assert len(stands) == len(p.cards)
        # W1: only wild cards change rank, and never into a joker
        assert stands.count(13) == p.cards.count(13)
        assert stands.count(14) == p.cards.count(14)
        for r in range(13):
            if r != w:
                assert stands.count(r) >= p.cards.count(r), p
        # ruling 2 / 10: a wild may be a 2, but no chain ever holds a 2
        if p.kind in CHAINS:
            assert R["2"] not in (p.as_main or p.main), p
        # W6: a single kicker stays its own rank
        if p.kind in ("trio_single", "plane_single", "four_single") and p.as_kickers:
            assert p.as_kickers == p.kickers, p


# -- W3 wild-only plays ----------------------------------------------------------------

@pytest.mark.parametrize("wild", ["3", "7", "2"])
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_wild_only_play_is_face_value(wild, n):
    [play] = lz(wild).classify(wild * n)
    assert play.as_text == wild * n
    assert play.key == R[wild]
    assert play.kind == ["single", "pair", "trio", "bomb"][n - 1]
    assert bomb_class(lz(wild), play) == ("pure" if n == 4 else "none")


# -- ruling 4: several readings, the player picks --------------------------------------

def test_ruling4_trio_or_soft_bomb():
    found = readings("5", "5553")
    assert ("trio_single", "555+3") in found
    assert ("bomb", "3333") in found
    rs = lz("5")
    assert rs.parse_play("5553=3333").is_bomb
    assert not rs.parse_play("555+3=555+3").is_bomb
    assert rs.parse_play("555+3=555+3").key_text == "5"


# -- ruling 12: no soft or hard bomb of rank W -----------------------------------------

@pytest.mark.parametrize("wild", ["3", "5", "9", "A", "2"])
def test_ruling12_bombs_of_the_wild_rank_are_pure(wild):
    rs = lz(wild)
    others = "".join(c for c in "3456" if c != wild)[:3]
    for hand in [wild * 4 + others, wild * 3 + others, wild * 2 + others + others]:
        for p in rs.moves(hand):
            if p.is_bomb and p.key == R[wild]:
                assert bomb_class(rs, p) == "pure", (hand, p)
                assert p.cards == (R[wild],) * 4


# -- moves -----------------------------------------------------------------------------

def _full(p):
    return p.text + (f"={p.as_text}" if p.as_text else "")


MOVES = [
    ("5", "3335", "22", ["3335=3333"], "W5-only-soft-bomb-on-22"),
    ("7", "33337", "4447=4444", ["3333"], "hard-3333-over-soft-4444"),
    ("7", "7777XD", "2222", ["7777=7777", "XD"], "pure-and-rocket-over-hard-2222"),
    ("7", "77", "66", ["77=77"], "pair-of-wilds-over-66"),
    ("7", "77", "88", [], "pair-of-wilds-under-88"),
    ("7", "7", None, ["7=7"], "lead-lone-wild"),
    ("7", "37", None, ["3", "37=33", "7=7"], "lead-3-and-wild"),
    ("7", "3337", "2227=2222", [], "soft-3-under-soft-2"),
    ("7", "2227", "3337=3333", ["7222=2222"], "soft-2-over-soft-3"),
    ("7", "3337", "3333", [], "soft-under-hard"),
    ("7", "XD", "7777", ["XD"], "rocket-over-pure"),
]


@pytest.mark.parametrize(("wild", "hand", "last", "expected"), [m[:4] for m in MOVES],
                         ids=[m[4] for m in MOVES])
def test_moves_exact(wild, hand, last, expected):
    rs = lz(wild)
    got = rs.moves(hand, None if last is None else rs.parse_play(last))
    assert sorted(_full(p) for p in got) == sorted(expected)


def _submultisets(counts):
    for sub in product(*[range(n + 1) for n in counts]):
        if any(sub):
            yield sub


@pytest.mark.parametrize(
    ("wild", "hand", "last"),
    [("5", "5553", None), ("7", "33377", None), ("7", "445567", "334455"),
     ("5", "333455", "2222"), ("2", "QKA22", None), ("7", "7777XD", "3333")],
)
def test_moves_equal_brute_force_without_duplicates(wild, hand, last):
    rs = lz(wild)
    lastp = None if last is None else rs.parse_play(last)
    got = rs.moves(hand, lastp)
    assert len(got) == len(set(got))
    want = {p for sub in _submultisets(rs.hand(hand)) for p in rs.classify(sub)
            if lastp is None or rs.beats(p, lastp)}
    assert set(got) == want
    for p in got:
        assert not p.is_bomb or len(p.cards) in (2, 4)  # W5: no 5-card bomb
        assert not {13, 14} <= set(p.kickers)


# -- options ---------------------------------------------------------------------------

@pytest.mark.parametrize("bad", ["X", "D", "33", "Z"])
def test_wild_rank_never_a_joker(bad):
    with pytest.raises((RuleError, ValueError)):
        rules.get("ddz3_laizi", wild=bad)


def test_wild_rank_only_for_laizi():
    with pytest.raises(RuleError):
        rules.get("ddz3", wild="7")


# -- docs/rulings.md 4: a kicker group made only of wild cards stands for itself --------


@pytest.mark.parametrize(
    ("wild", "cards", "expected"),
    [
        pytest.param("5", "33355", ["333+55"], id="wild-pair-kicker-is-55"),
        pytest.param("5", "33375", ["333+77"], id="wild-completes-a-natural-pair"),
        pytest.param("5", "33344455", ["333444+55"], id="plane-with-single-wings-only"),
    ],
)
def test_wild_only_kicker_group_is_not_substituted(wild, cards, expected):
    rs = rules.get("ddz3_laizi", wild=wild)
    readings = [p.as_text for p in rs.classify(cards) if p.kickers]
    assert readings == expected
