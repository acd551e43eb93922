"""The bounded greedy of hands holding wild cards (``wild_worth``) values them as ``worth_wild``.

``WildScores`` skips the ranks and candidates whose bound is below the best
found, and tries some ranks in the mirrored search; that is sound only if
the bounds hold and the ties are broken as the top-down greedy breaks them.
So, over hands drawn with one to four wild cards and a wild rank drawn too,
every candidate play's worth is compared with ``Planner.worth_wild``'s, and
the best of the bounded scoring with the best of scoring every candidate.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardhall.bots.planning import Policy
from cardhall.bots.split.hands import Planner
from cardhall.bots.split.mirror import TIE_MARGIN, MirrorPlanner
from cardhall.bots.split.wild_worth import WildScores
from cardhall.bots.view import counts_minus
from cardhall.cards import BIG_JOKER, NUM_RANKS, RANK_CHARS, SMALL_JOKER, TWO, Counts
from cardhall.rules import Play, RuleSet
from cardhall.rules import get as get_rules

_RULES: dict[int, RuleSet] = {}


def _rules(wild: int) -> RuleSet:
    found = _RULES.get(wild)
    if found is None:
        found = _RULES[wild] = get_rules("ddz3_laizi", wild=RANK_CHARS[wild])
    return found


@st.composite
def wild_hands(draw: st.DrawFn) -> tuple[int, Counts]:
    """A wild rank and a hand of 8-20 cards of one pack holding 1-4 wild cards."""
    wild = draw(st.integers(0, TWO))
    wilds = draw(st.integers(1, 4))
    size = draw(st.integers(8, 20))
    counts = [0] * NUM_RANKS
    counts[wild] = wilds
    pool = [r for r in range(NUM_RANKS) if r != wild
            for _ in range(1 if r in (SMALL_JOKER, BIG_JOKER) else 4)]
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size - wilds,
                          max_size=size - wilds, unique=True))
    for i in picks:
        counts[pool[i]] += 1
    return wild, tuple(counts)


def _candidates(rs: RuleSet, hand: Counts) -> list[Play]:
    return Policy.candidates(rs.moves(hand))


@settings(max_examples=40, deadline=None)
@given(wild_hands())
def test_every_candidates_worth_is_worth_wilds(drawn: tuple[int, Counts]) -> None:
    wild, hand = drawn
    rs = _rules(wild)
    reference = Planner(rs)
    planner = Planner(rs)
    scores = WildScores(planner, MirrorPlanner(rs), hand, wild)
    checked = 0
    for p in _candidates(rs, hand)[:60]:
        rest = counts_minus(hand, p.cards)
        expected = reference.worth_wild(rest, wild)
        left = scores._left(p, rest)
        # A rest without wild cards is worth its split; one holding them, the greedy's.
        worth = scores.worth(left) if rest[wild] else scores._plain(left)
        assert worth is not None
        if worth.exact:
            assert worth.value == expected, (hand, p)
        else:
            assert abs(worth.value - expected) < TIE_MARGIN / 100, (hand, p)
            # The placement is the greedy's: valued top-down, it is its worth to the bit.
            assert planner._solve(worth.state) + worth.bonus == expected, (hand, p)
        checked += 1
    assert checked


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(wild_hands(), st.floats(-60.0, 0.0))
def test_bounded_scoring_keeps_the_full_scorings_best(drawn: tuple[int, Counts],
                                                     passing: float) -> None:
    """The first best of every candidate's score (and a pass scored ``passing``) is kept."""
    wild, hand = drawn
    rs = _rules(wild)
    plays = _candidates(rs, hand)
    reference = Planner(rs)
    first: list[tuple[float, Play | None]] = [(passing, None)]
    full = first + [(reference.worth_wild(counts_minus(hand, p.cards), wild), p) for p in plays]
    scores = WildScores(Planner(rs), MirrorPlanner(rs), hand, wild)
    bounded = first + scores.scored([(p, _same, _same) for p in plays], first)
    assert len(bounded) <= len(full)
    full.sort(key=lambda item: -item[0])
    bounded.sort(key=lambda item: -item[0])
    assert bounded[0][1] == full[0][1], hand
    # Its score may be the mirrored search's (the same worths summed in another order).
    assert abs(bounded[0][0] - full[0][0]) < TIE_MARGIN, hand


def _same(worth: float) -> float:
    return worth
