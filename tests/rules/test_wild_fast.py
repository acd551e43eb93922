"""The fast wildcard generator equals the plain one it replaced, order included.

``wild.moves`` drops uncoverable plays inside generation (``movegen.Room``, which
lists single kickers from the hand as it is), enumerates substitutions with
``product``, realises the codes of one main part together and memoises each
side (main part, kicker set) as the wild cards realise it. The
order of legal actions is behaviour (the random and 托管 bots pick by
position, golden games record it), so these properties compare lists, not
sets, against the original algorithm written out here: every code of the
virtual hand, filtered by its shortfall, each substitution walked
recursively, no memo.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations_with_replacement, islice

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardhall import rules
from cardhall.cards import TWO, Rank
from cardhall.rules import Play, RuleSet, climb, wild
from tests.rules.variants import counts_of, deck_ranks

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _virtual(counts: tuple[int, ...], w: Rank) -> tuple[list[int], list[int], int]:
    budget = counts[w]
    base = list(counts)
    base[w] = 0
    virtual = list(base)
    for r in range(TWO + 1):
        virtual[r] = min(base[r] + budget, 4)
    return base, virtual, budget


def _short(rs: RuleSet, code: int, base: list[int], w: Rank) -> int:
    return sum(k if r == w else max(0, k - base[r]) for r, k in rs.gen.needs(code))


def _coverable(rs: RuleSet, code: int, base: list[int], w: Rank, budget: int) -> bool:
    """The wild cards can cover the play, and its single kickers are held (W6: a single
    kicker is never a substitute; a wild card may be one as its own rank)."""
    if _short(rs, code, base, w) > budget:
        return False
    play = rs.gen.play(code)
    if play.kind not in rs.single_kicker_kinds:
        return True
    return all(r == w or play.kickers.count(r) <= base[r] for r in set(play.kickers))


def _walk_uses(natural: Play, base: list[int], w: Rank, budget: int,
               singles: bool) -> Iterator[dict[Rank, int]]:
    """The original recursive enumeration of substitutions."""
    need: dict[Rank, int] = {}
    for r in natural.cards:
        need[r] = need.get(r, 0) + 1
    ranges: list[tuple[Rank, int, int]] = []
    for r, k in need.items():
        have = 0 if r == w else base[r]
        lo, hi = max(0, k - have), (k if r <= TWO else 0)
        if r == w:
            lo = hi = k
        elif r in natural.kickers:
            hi = 0 if singles else k - 1
        if lo > hi:
            return
        ranges.append((r, lo, hi))

    def walk(i: int, left: int, acc: dict[Rank, int]) -> Iterator[dict[Rank, int]]:
        if i == len(ranges):
            yield dict(acc)
            return
        r, lo, hi = ranges[i]
        floor = sum(x[1] for x in ranges[i + 1:])
        for k in range(lo, min(hi, left - floor) + 1):
            acc[r] = k
            yield from walk(i + 1, left - k, acc)
        acc.pop(r, None)

    yield from walk(0, budget, {})


def old_moves(rs: RuleSet, counts: tuple[int, ...], w: Rank, last: Play | None) -> list[Play]:
    base, virtual, budget = _virtual(counts, w)
    out: list[Play] = []
    for code in rs.gen.codes(virtual, last, filter_bombs=False):
        if _short(rs, code, base, w) > budget:
            continue
        natural = rs.gen.play(code)
        singles = natural.kind in rs.single_kicker_kinds
        for use in _walk_uses(natural, base, w, budget, singles):
            play = wild._realise(natural, use, w)
            if play is not None and (last is None or climb.ladder_beats(play, last)):
                out.append(play)
    return out


Deal = tuple[RuleSet, tuple[int, ...], tuple[int, ...]]


@st.composite
def wild_deals(draw: st.DrawFn) -> Deal:
    """A wild rank and two disjoint hands; four wild cards are made likely (the costly case)."""
    w = draw(st.integers(0, TWO))
    rs = rules.get("ddz3_laizi", wild=w)
    deck = draw(st.permutations(deck_ranks(rs)))
    wilds = draw(st.integers(0, 4))
    rest = [r for r in deck if r != w]
    size = draw(st.integers(1, 20))
    hand = [w] * wilds + rest[:size]
    other = rest[size:size + draw(st.integers(1, 17))]
    return rs, counts_of(hand), counts_of(other)


@pytest.mark.slow
@SETTINGS
@given(deal=wild_deals(), data=st.data())
def test_room_codes_are_the_covered_codes_in_order(deal: Deal, data: st.DataObject) -> None:
    rs, hand, other = deal
    assert rs.wild is not None
    base, virtual, budget = _virtual(hand, rs.wild)
    lasts: list[Play | None] = [None]
    follows = rs.moves(other)
    if follows:
        lasts.append(data.draw(st.sampled_from(follows)))
    for last in lasts:
        plain = [c for c in rs.gen.codes(virtual, last, filter_bombs=False)
                 if _coverable(rs, c, base, rs.wild, budget)]
        fast = rs.gen.codes(virtual, last, filter_bombs=False,
                            room=rs.gen.room(base, budget, hand))
        assert fast == plain


@pytest.mark.slow
@SETTINGS
@given(deal=wild_deals(), data=st.data())
def test_moves_equal_the_original_algorithm_in_order(deal: Deal, data: st.DataObject) -> None:
    rs, hand, other = deal
    assert rs.wild is not None
    assert rs.moves(hand) == old_moves(rs, hand, rs.wild, None)
    assert rs.moves(hand) == old_moves(rs, hand, rs.wild, None)  # again: sides from the memo
    follows = rs.moves(other)
    if follows:
        last = data.draw(st.sampled_from(follows))
        assert rs.moves(hand, last) == old_moves(rs, hand, rs.wild, last)


@SETTINGS
@given(deal=wild_deals(), data=st.data())
def test_spelt_moves_are_the_moves_with_the_texts_that_name_them(deal: Deal,
                                                                 data: st.DataObject) -> None:
    """``spelt_moves`` spells each side of a play once for all its plays: every text is
    still the play's own (cards, then what the wild cards stand for) and reads back to it."""
    rs, hand, other = deal
    lasts: list[Play | None] = [None]
    follows = rs.moves(other)
    if follows:
        lasts.append(data.draw(st.sampled_from(follows)))
    for last in lasts:
        for _ in range(2):  # afresh, then with the sides from the memo
            plays, texts = rs.spelt_moves(hand, last)
            assert plays == rs.moves(hand, last)
            assert texts == [p.text + (f"={p.as_text}" if p.as_text else "") for p in plays]
        for play, text in zip(plays[:40], texts[:40], strict=True):
            assert rs.parse_play(text) == play


def test_wild_readings_are_kept_by_cards_and_wild_rank_and_bounded() -> None:
    """``readings`` of bare cards with four wild cards classifies them once per reading it
    checks: the readings are kept, per wild rank, and the memo never outgrows its bound."""
    three, four = rules.get("ddz3_laizi", wild=0), rules.get("ddz3_laizi", wild=1)
    memo = three.gen.wild_readings
    assert memo is four.gen.wild_readings  # one generator: the key names the wild rank
    memo.clear()
    first = three.classify("333378")
    assert three.classify("333378") == first and len(memo) == 1
    assert four.classify("333378") != first and len(memo) == 2
    sets = (c for n in range(1, 6) for c in combinations_with_replacement("456789TJQKA2", n)
            if max(map(c.count, c)) <= 4)
    for cards in islice(sets, wild._READINGS_LIMIT + 10):
        three.classify("".join(cards))
        assert len(memo) <= wild._READINGS_LIMIT + 1
