"""A lead the planning bot calls bossless has no winning line in the hand's split.

``Policy.lead`` skips the top-down split (and ``winning_line``) when
``bossless`` says no split can have one: the opponents can bomb any plain
play, and the ranks the hand's unbeatable bombs leave are in no one play.
Were that wrong, a lead with a winning line would be scored like any other
and the bot would play differently. So on drawn leads of every size (short
hands, where lines are common, with and without the rocket or a top bomb, in
one- and two-pack games) a bossless lead's top-down split has no line.
"""

from __future__ import annotations

import random

import pytest

from cardhall import rules
from cardhall.bots.planning import Policy
from cardhall.bots.view import View
from cardhall.cards import NUM_RANKS


def _lead(rs: rules.RuleSet, rng: random.Random) -> tuple[View, int]:
    """A lead of a drawn hand against one opponent holding 1 to 20 cards; the rest unseen."""
    deck = [r for r, n in enumerate(rs.limits) for _ in range(n)]
    rng.shuffle(deck)
    size = rng.choice([rng.randint(2, 6), rng.randint(2, 12), rng.randint(12, 33)])
    hand = [0] * NUM_RANKS
    for r in deck[:size]:
        hand[r] += 1
    unseen = [rs.limits[r] - hand[r] for r in range(NUM_RANKS)]
    view = View(rs.name, rs, 0, 2, tuple(hand), [size, rng.randint(1, 20)], frozenset(),
                frozenset({1}), None, None, None, tuple(unseen))
    return view, size


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["ddz2", "ddz3", "ddz4"])
def test_a_bossless_lead_has_no_winning_line(variant: str) -> None:
    rs = rules.get(variant)
    policy = Policy(rs)
    rng = random.Random(variant)
    lines = with_top_bomb = 0
    for _ in range(3000):
        view, size = _lead(rs, rng)
        plays = rs.moves(view.hand)
        pool = view.opponent_pool()
        if any(p.size == size for p in plays):
            continue  # a lead that goes out is decided before any split
        line = policy.winning_line(view, policy.planner.plan(view.hand), plays, pool)
        lines += line is not None
        if policy.bossless(view, plays, pool):
            assert line is None, (variant, view.hand, view.counts)
            with_top_bomb += any(p.tier and policy.is_boss(view, p, pool) for p in plays)
    # Lines are common enough for a wrong answer to show, and the unbeatable bombs' case
    # (the one the ranks they leave decide) comes up.
    assert lines > 10 and with_top_bomb > 10
