"""The planning bot's hand split: fewest, strongest plays, on hand-picked hands.

Each case is a hand whose best split a player would name at a glance; the
planner must find exactly that split (plays in canonical text, kickers after
``+``), for the classic rules and for variants whose declarations differ.
"""

from __future__ import annotations

import pytest

from cardhall import rules
from cardhall.bots.split.hands import planner
from cardhall.bots.split.packed import pack, unpack
from cardhall.cards import parse_counts

CLASSIC = [
    # The whole hand is one play.
    ("3456789TJQKA", ["3456789TJQKA"]),
    ("334455667788", ["334455667788"]),
    # A plane carries the low singles rather than leaving them to be played alone.
    ("3334445559JQ", ["333444555+9JQ"]),
    ("33344456", ["333444+56"]),
    ("55566677", ["555666+77"]),
    ("3334445566", ["333444+5566"]),
    # A trio carries the lowest single; the higher one goes alone.
    ("33345", ["5", "333+4"]),
    # A bomb is kept whole, not spent as a trio and a kicker.
    ("3333456789", ["3333", "456789"]),
    # The rocket stays a rocket; 2s do not join chains.
    ("3456789TJQKA2XD", ["2", "XD", "3456789TJQKA"]),
    # Two straights beat one straight and a trail of pairs.
    ("3344556677889", ["345678", "3456789"]),
    # Every slot of a plane is filled or none: a single cannot make 333444555 a plane.
    ("3334445558", ["8", "333444555"]),
]


@pytest.mark.parametrize(("hand", "plays"), CLASSIC)
def test_classic_splits(hand: str, plays: list[str]) -> None:
    split = planner(rules.get("ddz3")).plan(parse_counts(hand))
    assert split.texts == sorted(plays, key=lambda t: (len(t), t))
    assert sorted(r for g in split.groups for r in g.cards) == sorted(
        r for r, n in enumerate(parse_counts(hand)) for _ in range(n))


def test_every_planned_play_is_legal() -> None:
    """Each play of a split is a legal lead of the variant (kickers included)."""
    for variant, hand in [("ddz3", "33344455566789TTJQK"), ("ddz4", "3334445566777889TTTJ"),
                          ("ddz5", "333444556677889TTJJQQKK"),
                          ("ddz_emperor", "3333444555666777889TTJJJQQKKKAA22XD")]:
        rs = rules.get(variant)
        for group in planner(rs).plan(parse_counts(hand)).groups:
            assert rs.parse_play(group.text).cards, f"{variant}: {group.text}"


def test_pair_only_kickers_in_the_two_pack_games() -> None:
    """ddz4 has no trio + single: a trio carries a pair or goes bare, a plane all its pairs."""
    assert planner(rules.get("ddz4")).plan(parse_counts("3334445566")).texts == ["333444+5566"]
    assert planner(rules.get("ddz4")).plan(parse_counts("33344455")).texts == ["55", "333444"]
    assert planner(rules.get("ddz4")).plan(parse_counts("33345")).texts == ["4", "5", "333"]


def test_emperor_four_carries_a_trio() -> None:
    assert planner(rules.get("ddz_emperor")).plan(
        parse_counts("4444555")).texts == ["4444+555"]


def test_baohuang_sets() -> None:
    """保皇: a rank goes as one set; jokers alone or hung."""
    split = planner(rules.get("baohuang")).plan(parse_counts("66777AAAA"))
    assert split.texts == ["66", "777", "AAAA"]


def test_wild_cards_fill_the_best_gap() -> None:
    """A wild card (癞子) counts where it helps most: here it completes a straight."""
    p = planner(rules.get("ddz3_laizi"))
    natural = p.worth(parse_counts("3456"))
    with_wild = p.worth_wild(parse_counts("3456" + "T"), wild=7)  # T is wild
    assert with_wild > natural


def test_pack_round_trips() -> None:
    counts = parse_counts("3334445566XD")
    assert unpack(pack(counts)) == counts
