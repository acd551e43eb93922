"""The relaxed search bounds what the plain one finds (``bots.split.relaxed``).

``Policy`` bounds a candidate whose pair kickers clash with the rest's cards
by the relaxed worth of the whole hand less the plain worth of the play's
cards; that is sound only if the relaxed search finds at least the plain
worth of every hand, and at least the plain worths of any two hands that add
up to it, which is what these check on random hands of the kicker variants.
"""

from __future__ import annotations

import random

import pytest

from cardhall import rules
from cardhall.bots.split.hands import Planner
from cardhall.bots.split.mirror import MirrorPlanner
from cardhall.bots.split.relaxed import RelaxedPlanner
from cardhall.cards import ACE, Counts

SIZES = {"ddz2": 23, "ddz3": 20, "ddz4": 33, "ddz_emperor": 38, "ddz5": 26}


def _deal(rs: rules.RuleSet, rng: random.Random, size: int) -> Counts:
    deck = [r for r, n in enumerate(rs.limits) for _ in range(n)]
    counts = [0] * len(rs.limits)
    for r in rng.sample(deck, size):
        counts[r] += 1
    return tuple(counts)


@pytest.mark.parametrize("variant", sorted(SIZES))
def test_the_relaxed_worth_bounds_every_split_of_two_parts(variant: str) -> None:
    rs = rules.get(variant)
    rng = random.Random(3)
    plain, relaxed = Planner(rs), RelaxedPlanner(rs, MirrorPlanner(rs))
    for _ in range(25):
        hand = _deal(rs, rng, SIZES[variant])
        ranks = frozenset(r for r in range(ACE + 1) if hand[r] >= 3)
        loose = relaxed.worth_at(hand, ranks)
        whole = plain.worth(hand)
        assert loose >= whole - 1e-9
        for _ in range(6):  # a part of the hand and the rest: their worths add up below
            part = [rng.randint(0, n) if rng.random() < 0.3 else 0 for n in hand]
            rest = [n - k for n, k in zip(hand, part, strict=True)]
            assert plain.worth(part) + plain.worth(rest) <= loose + 1e-9, (hand, part)
    assert relaxed.worth_at(hand, frozenset()) == pytest.approx(whole, abs=1e-9)
