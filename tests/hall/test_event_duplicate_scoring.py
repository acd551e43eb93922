"""A duplicate event's arithmetic (hall.events.duplicate; docs/rulings.md, "Events",
duplicate): matchpoints per deal, the totals and percentage, the ranking and its
tie-breaks, which deals may be shown, the deals' seeds."""

from __future__ import annotations

import random

import pytest

from cardhall.hall.domain.config import EventKind
from cardhall.hall.events.duplicate import (
    Line,
    compared,
    deal_seeds,
    matchpoints,
    ranked,
    results,
)


def test_matchpoints_are_two_per_entrant_beaten_and_one_per_tie() -> None:
    assert matchpoints({0: 6, 1: -3, 2: -3, 3: 12}) == {0: 4, 1: 1, 2: 1, 3: 6}
    assert matchpoints({0: 2, 1: 2}) == {0: 1, 1: 1}
    assert matchpoints({5: -4}) == {5: 0}  # alone on a deal: nobody to compare with
    assert matchpoints({}) == {}


def test_matchpoints_of_a_deal_sum_to_n_times_n_minus_one() -> None:
    rng = random.Random(7)
    for n in range(1, 9):
        scores = {no: rng.choice((-6, -3, 0, 3, 6)) for no in range(n)}
        assert sum(matchpoints(scores).values()) == n * (n - 1)


def test_results_total_top_percent_and_points() -> None:
    lines = results({0: [6, -2, None], 1: [-3, -2, 4], 2: [-3, 8, 4]}, 3)
    a, b, c = lines
    assert a.points == [6, -2, None] and a.matchpoints == [4, 1, None]
    assert b.matchpoints == [1, 1, 1] and c.matchpoints == [1, 4, 1]
    # Deal 2: only two played it, so its top is 2 for them.
    assert (a.total, a.top, a.score) == (5, 8, 4)
    assert (b.total, b.top) == (3, 10) and b.percent == 30.0
    assert (c.total, c.top, c.score) == (6, 10, 9) and c.percent == 60.0
    assert Line(9, [None], [None], 0, 0, 0).percent == 0.0


def test_ranking_matchpoints_then_points_then_earlier_entrant() -> None:
    # All tie on matchpoints (4 each): then the points over the deals.
    lines = results({0: [3, -6], 1: [-6, 12], 2: [0, 0]}, 2)
    assert [line.total for line in lines] == [4, 4, 4]
    assert [line.no for line in ranked(lines)] == [1, 2, 0]  # points: -3, 6, 0
    # All equal: the earlier entrant.
    same = results({2: [1], 0: [1], 1: [1]}, 1)
    assert [line.no for line in ranked(same)] == [0, 1, 2]


def test_a_deal_is_shown_once_every_person_has_played_it() -> None:
    lines = results({0: [1, None], 1: [2, 3], 2: [0, 5]}, 2)
    assert compared(lines, [0, 1]) == [True, False]
    assert compared(lines, [1, 2]) == [True, True]  # entrant 0 a bot: not waited for
    assert compared([], [0]) == []


def test_deal_seeds_are_distinct_and_repeatable() -> None:
    seeds = deal_seeds(random.Random(3), 40)
    assert len(set(seeds)) == 40 and seeds == deal_seeds(random.Random(3), 40)
    assert all(0 <= s < 2 ** 63 for s in seeds)


def test_a_duplicate_kind_is_one_round_of_everyone() -> None:
    kind = EventKind(id="dup", format="duplicate", entrants=4, deals=6, prizes=(50, 30, 20))
    assert kind.field_ == (4,) and kind.stakes == (1,)
    assert EventKind.model_validate(kind.model_dump(by_alias=True, mode="json"),
                                    strict=False) == kind
    with pytest.raises(ValueError, match="2 to 32"):
        EventKind(id="dup", format="duplicate", entrants=1, prizes=(100,))
    with pytest.raises(ValueError, match="duplicate"):
        EventKind(id="dup", format="duplicate", entrants=4, field=(4, 3))
    with pytest.raises(ValueError, match="at most 24 deals"):  # the message's size
        EventKind(id="dup", format="duplicate", entrants=4, deals=25)
    with pytest.raises(ValueError, match="2 to 32"):
        EventKind(id="dup", format="duplicate", entrants=33, prizes=(100,))
