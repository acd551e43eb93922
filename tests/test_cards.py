"""Card notation (README, "Card notation"): parse forgivingly, format canonically."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardhall.cards import (
    RANK_CHARS,
    CardError,
    deck,
    format_card,
    format_cards,
    format_ranks,
    parse_cards,
    parse_groups,
    parse_ranks,
    rank_text,
)

R = {c: i for i, c in enumerate(RANK_CHARS)}  # "3" -> 0 … "D" -> 14


def ranks(chars: str) -> tuple[int, ...]:
    """Expected rank indices written one canonical char each (independent of the parser)."""
    return tuple(R[c] for c in chars)


def test_rank_chars_order():
    assert RANK_CHARS == "3456789TJQKA2XD"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("34567", "34567", id="plain"),
        pytest.param("543", "543", id="order-kept"),
        pytest.param("3 3, 4", "334", id="spaces-and-commas"),
        pytest.param(" 3\t4\n5 ", "345", id="tabs-newlines"),
        pytest.param("10", "T", id="10-is-T"),
        pytest.param("1010J", "TTJ", id="10-twice"),
        pytest.param("9 10 J", "9TJ", id="10-between"),
        pytest.param("T", "T", id="T"),
        pytest.param("t j q k a", "TJQKA", id="lower-case-tjqka"),
        pytest.param("小王大王", "XD", id="chinese-jokers"),
        pytest.param("小王 大王 2", "XD2", id="chinese-jokers-spaced"),
        pytest.param("SJ BJ", "XD", id="SJ-BJ"),
        pytest.param("BJSJ", "DX", id="BJ-SJ-order-kept"),
        pytest.param("XD", "XD", id="X-D"),
        pytest.param("3s4h5c6d", "3456", id="suit-letters-ignored"),
        pytest.param("Ts Ad", "TA", id="suited-T-A"),
        pytest.param("3♠4♥", "34", id="suit-symbols-ignored"),
        pytest.param("3D", "3D", id="upper-D-is-big-joker-not-suit"),
        pytest.param("3d", "3", id="lower-d-is-a-suit"),
        pytest.param("333444+56", "33344456", id="plus-dropped"),
        pytest.param("", "", id="empty"),
    ],
)
def test_parse_ranks(text, expected):
    assert parse_ranks(text) == ranks(expected)


@pytest.mark.parametrize(
    ("text", "char", "position"),
    [
        pytest.param("33Z", "Z", 3, id="Z-at-3"),
        pytest.param("Z", "Z", 1, id="Z-at-1"),
        pytest.param("3 Z", "Z", 3, id="space-counts"),
        pytest.param("10Z", "Z", 3, id="after-10"),
        pytest.param("小王Z", "Z", 3, id="characters-not-bytes"),
        pytest.param("1", "1", 1, id="lone-1"),
        pytest.param("31", "1", 2, id="1-without-0"),
        pytest.param("x", "x", 1, id="lower-x-not-a-joker"),
        pytest.param("s", "s", 1, id="suit-without-rank"),
        pytest.param("3ss", "s", 3, id="second-suit"),
        pytest.param("3-4", "-", 2, id="dash"),
    ],
)
def test_parse_ranks_error_names_char_and_position(text, char, position):
    with pytest.raises(CardError) as info:
        parse_ranks(text)
    message = str(info.value)
    assert f"'{char}'" in message
    assert f"position {position}" in message


def test_card_error_is_value_error():
    assert issubclass(CardError, ValueError)
    with pytest.raises(ValueError, match="position 2"):
        parse_ranks("3?")


@pytest.mark.parametrize(
    ("given_ranks", "expected"),
    [
        pytest.param("D X 2 A T 3", "3TA2XD", id="ascending"),
        pytest.param("2A", "A2", id="2-above-A"),
        pytest.param("DX", "XD", id="jokers-last"),
        pytest.param("T", "T", id="ten-is-T"),
        pytest.param("", "", id="empty"),
        pytest.param("44 33", "3344", id="groups-sorted"),
    ],
)
def test_format_ranks_canonical(given_ranks, expected):
    assert format_ranks(ranks(given_ranks.replace(" ", ""))) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("333444+56", ("333444", "56"), id="plane-wings"),
        pytest.param("333444555+666", ("333444555", "666"), id="plane-with-666"),
        pytest.param("333444555666", ("333444555666",), id="no-plus"),
        pytest.param("6666 + 5 5", ("6666", "55"), id="spaces"),
        pytest.param("10 10 10+小王", ("TTT", "X"), id="aliases"),
    ],
)
def test_parse_groups(text, expected):
    assert parse_groups(text) == tuple(ranks(g) for g in expected)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        pytest.param("3+4+5", "position 4", id="second-plus"),
        pytest.param("+5", "empty", id="empty-main"),
        pytest.param("33+", "empty", id="empty-kickers"),
        pytest.param("33+Z", "'Z'", id="bad-kicker"),
    ],
)
def test_parse_groups_errors(text, fragment):
    with pytest.raises(CardError) as info:
        parse_groups(text)
    assert fragment in str(info.value)


# -- suited cards -----------------------------------------------------------------


def suited(rank_char: str, suit: int) -> int:
    return R[rank_char] * 4 + suit


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("Ts", (suited("T", 0),), id="Ts"),
        pytest.param("Ad", (suited("A", 3),), id="Ad"),
        pytest.param("3h 2c", (suited("3", 1), suited("2", 2)), id="3h-2c"),
        pytest.param("10s", (suited("T", 0),), id="10s"),
        pytest.param("X D", (52, 53), id="jokers-without-suit"),
        pytest.param("小王大王", (52, 53), id="chinese-jokers"),
        pytest.param("A♠", (suited("A", 0),), id="suit-symbol"),
    ],
)
def test_parse_cards(text, expected):
    assert parse_cards(text) == expected


@pytest.mark.parametrize(
    ("card", "text"),
    [
        pytest.param(suited("T", 0), "Ts", id="Ts"),
        pytest.param(suited("A", 3), "Ad", id="Ad"),
        pytest.param(suited("3", 1), "3h", id="3h"),
        pytest.param(suited("2", 2), "2c", id="2c"),
        pytest.param(52, "X", id="small-joker"),
        pytest.param(53, "D", id="big-joker"),
    ],
)
def test_format_card(card, text):
    assert format_card(card) == text


def test_format_cards_canonical_order():
    assert format_cards(parse_cards("D Ad 3h 3s X")) == "3s 3h Ad X D"


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("T", id="lone-rank"),
        pytest.param("Ts Q", id="last-rank-without-suit"),
        pytest.param("3", id="three-without-suit"),
        pytest.param("Zs", id="not-a-rank"),
    ],
)
def test_parse_cards_rank_needs_suit(text):
    with pytest.raises(CardError):
        parse_cards(text)


@pytest.mark.parametrize(
    ("text", "pairs"),
    [
        # Either the rank that lacks its suit (and where it is) or the character
        # found where the suit should be (and where that is) must be named.
        pytest.param("TQs", [("'T'", 1), ("'Q'", 2)], id="TQs"),
        pytest.param("3Z", [("'3'", 1), ("'Z'", 2)], id="3Z"),
        pytest.param("Zs", [("'Z'", 1)], id="Zs"),
    ],
)
def test_parse_cards_error_names_char_and_position(text, pairs):
    with pytest.raises(CardError) as info:
        parse_cards(text)
    message = str(info.value)
    assert any(char in message and f"position {pos}" in message for char, pos in pairs), message


# -- decks ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("packs", "without", "size"),
    [
        pytest.param(1, (), 54, id="one-pack"),
        pytest.param(2, (), 108, id="two-packs"),
        pytest.param(3, (), 162, id="three-packs"),
        pytest.param(4, (R["3"], R["4"], R["5"]), 168, id="baohuang-4-packs-without-345"),
    ],
)
def test_deck_sizes(packs, without, size):
    cards = deck(packs, without)
    assert len(cards) == size
    counts = Counter(cards)
    assert set(counts.values()) == {packs}  # every distinct card exactly once per pack
    dropped = {c for c in range(54) if c < 52 and c // 4 in without}
    assert not dropped & set(counts)
    assert len(counts) == 54 - len(dropped)


def test_deck_default_is_one_pack_of_distinct_cards():
    assert sorted(deck()) == list(range(54))


# -- round trips ------------------------------------------------------------------

rank_lists = st.lists(st.integers(min_value=0, max_value=len(RANK_CHARS) - 1), max_size=30)


@given(rank_lists)
def test_format_then_parse_ranks_round_trip(rs):
    text = format_ranks(rs)
    assert Counter(parse_ranks(text)) == Counter(rs)
    assert list(parse_ranks(text)) == sorted(rs)
    assert len(text) == len(rs)  # one character per card


@given(rank_lists, st.randoms(use_true_random=False))
def test_parse_is_forgiving_of_order_and_spaces(rs, rnd):
    shuffled = list(rs)
    rnd.shuffle(shuffled)
    text = " ".join(RANK_CHARS[r] for r in shuffled)
    assert parse_ranks(text) == tuple(shuffled)
    assert format_ranks(parse_ranks(text)) == format_ranks(rs)


@given(st.lists(st.sampled_from(deck(2)), max_size=30))
def test_format_then_parse_cards_round_trip(cards):
    text = format_cards(cards)
    assert Counter(parse_cards(text)) == Counter(cards)
    assert parse_cards(text) == tuple(sorted(cards))


@given(st.lists(st.sampled_from(deck(2)), max_size=40))
def test_rank_text_is_the_cards_ranks_in_canonical_order(cards):
    # Each card's text starts with its rank's char (test_format_card checks those).
    expected = sorted((format_card(c)[0] for c in cards), key=R.__getitem__)
    assert rank_text(cards) == "".join(expected)
    assert rank_text(cards) == format_ranks(parse_ranks(rank_text(cards)))
