"""The mirrored split search and the dead-state test change no worth and no split.

``Policy`` scores a candidate from whichever search shares more states with
the hand it leaves, so the two must find the same best worth for every hand;
``dead.Dead`` may only rule out states the search would have found worth
``-inf``. Both are checked on random hands of every climbing variant, of the
sizes its deals and games hold, against the top-down search without the test.
"""

from __future__ import annotations

import random

import pytest

from cardhall import rules
from cardhall.bots.split.hands import Planner
from cardhall.bots.split.mirror import MirrorPlanner
from cardhall.cards import Counts

#: (variant, hand sizes): a dealt hand (with the kitty where there is one) down to a few.
SIZES = {"ddz2": (25, 17, 9), "ddz3": (20, 14, 6), "ddz4": (33, 25, 12),
         "ddz5": (26, 18, 8), "ddz3_happy": (20, 11), "ddz3_laizi": (20, 12),
         "ddz_emperor": (38, 34, 20), "baohuang": (33, 27, 10)}


def _hands(variant: str, seed: int) -> list[Counts]:
    rs = rules.get(variant)
    rng = random.Random(seed)
    deck = [r for r, n in enumerate(rs.limits) for _ in range(n)]
    out = []
    for size in SIZES[variant]:
        for _ in range(12):
            rng.shuffle(deck)
            counts = [0] * len(rs.limits)
            for r in deck[:size]:
                counts[r] += 1
            out.append(tuple(counts))
    return out


def _without_dead_test(rs: rules.RuleSet) -> Planner:
    planner = Planner(rs, native=False)  # the Python loop's test is the one patched out
    planner._dead.hopeless = lambda hand, slots: False  # type: ignore[method-assign]
    return planner


@pytest.mark.parametrize("variant", sorted(SIZES))
def test_the_mirrored_search_finds_the_same_worth(variant: str) -> None:
    rs = rules.get(variant)
    for counts in _hands(variant, 11):
        plain, mirror = _without_dead_test(rs).worth(counts), MirrorPlanner(rs).worth(counts)
        assert abs(mirror - plain) < 1e-9, (counts, plain, mirror)


@pytest.mark.parametrize("variant", sorted(SIZES))
def test_ruling_out_dead_states_changes_no_split(variant: str) -> None:
    rs = rules.get(variant)
    searched = ruled_out = 0
    for counts in _hands(variant, 12):
        plain, fast = _without_dead_test(rs), Planner(rs, native=False)
        assert fast.plan(counts) == plain.plan(counts)
        assert Planner(rs, native=True).plan(counts) == plain.plan(counts)  # the C loop's test
        searched += len(plain._memo)
        ruled_out += len(plain._memo) - len(fast._memo)
    if variant != "baohuang":  # 保皇's sets carry no kickers
        assert ruled_out > 0
    if variant == "ddz_emperor":
        assert ruled_out > searched // 4  # fours carrying trios: dead ends abound
