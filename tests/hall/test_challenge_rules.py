"""A challenge's and the ladder's rules, pure (hall.events.challenge; docs/rulings.md,
"Challenges and the ladder")."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from cardhall.games import VARIANTS
from cardhall.hall.domain.config import EventKind, HallConfig, Ladder
from cardhall.hall.domain.ratings import Skill
from cardhall.hall.events import challenge
from cardhall.hall.events.duplicate import results


@pytest.mark.parametrize(("a", "b", "first"), [
    ([4, -2, 0], [2, -2, -1], 1.0),   # two deals won, one tied: won
    ([4, -2, 0], [2, 0, 0], 0.5),     # a deal each, one tied: drawn (points don't count)
    ([-8, -2], [2, -1], 0.0),         # both deals lost
    ([0, 0], [0, 0], 0.5),            # every deal tied
])
def test_a_match_goes_to_more_matchpoints_a_tie_is_a_draw(a: list[int], b: list[int],
                                                            first: float) -> None:
    lines = results({0: a, 1: b}, len(a))
    assert challenge.score(lines) == first
    assert lines[0].total + lines[1].total == 2 * len(a)


def test_an_unfinished_match_has_no_outcome() -> None:
    assert challenge.score(results({0: [1, None], 1: [0, 2]}, 2)) is None


def test_the_seat_rotates_deal_by_deal() -> None:
    assert [challenge.seat_of(d, 3) for d in range(7)] == [0, 1, 2, 0, 1, 2, 0]
    assert [challenge.seat_of(d, 5) for d in range(6)] == [0, 1, 2, 3, 4, 0]


def test_the_winner_rises_the_loser_falls_an_anchor_never_moves() -> None:
    a, b = Skill(), Skill()
    won, lost = challenge.rate(a, b, 1.0, (False, False))
    assert won.mu > a.mu > lost.mu and won.games == lost.games == 1
    anchor = Skill(27.0, challenge.ANCHOR_SIGMA)
    mine, fixed = challenge.rate(a, anchor, 1.0, (False, True))
    assert fixed == anchor and mine.mu > a.mu
    fixed, mine = challenge.rate(anchor, a, 1.0, (True, False))
    assert fixed == anchor and mine.mu < a.mu
    drawn = challenge.rate(a, b, 0.5, (False, False))
    assert drawn[0].mu == pytest.approx(drawn[1].mu) and drawn[0].sigma < a.sigma


def test_a_round_pairs_everyone_and_the_odd_one_meets_an_anchor_in_turn() -> None:
    rng = random.Random(3)
    four = challenge.pairs(["a", "b", "c", "d"], ["planning", "search"], 0, rng)
    assert len(four) == 2 and sorted(x for p in four for x in p) == ["a", "b", "c", "d"]
    for round_no, anchor in ((0, "bot:planning"), (1, "bot:search"), (2, "bot:planning")):
        three = challenge.pairs(["a", "b", "c"], ["planning", "search"], round_no, rng)
        assert len(three) == 2 and three[-1][1] == anchor
    assert challenge.pairs(["a"], [], 0, rng) == []
    assert challenge.pairs([], ["planning"], 0, rng) == []


def test_the_rounds_take_every_variant_in_turn() -> None:
    assert {challenge.round_variant(r) for r in range(9)} == set(VARIANTS)


def test_a_challenge_is_the_halls_never_a_configured_event() -> None:
    kind = challenge.kind_for("zhaopengyou", 40, Ladder(), ("", "search"))
    assert kind.rotate and kind.entrants == 2 and kind.seats == 5
    assert kind.room().variant == "zhaopengyou" and kind.room().bot == "planning"
    with pytest.raises(ValidationError):
        challenge.kind_for("ddz3", 41, Ladder())
    with pytest.raises(ValidationError):  # only the hall names an entrant's bot
        EventKind(id="x", format="duplicate", entrants=2, bots=("", "search"))
    with pytest.raises(ValidationError):
        Ladder(anchors={"rlcard-rule": 20.0})
    with pytest.raises(ValidationError, match="challenge"):  # its room is a challenge's
        HallConfig(events=(EventKind(id="ch-ddz3"),))


def test_a_round_never_pairs_two_bots_of_one_owner() -> None:
    """Bots of one owner never meet in a round (he would rate one up by the other's
    losses): each meets another's bot, or an anchor when none is left."""
    owners = {"a1": "ann", "a2": "ann", "a3": "ann", "b1": "bob"}
    for seed in range(30):
        got = challenge.pairs(list(owners), ["planning", "search"], seed,
                              random.Random(seed), owners)
        assert sorted(x for pair in got for x in pair if x in owners) == sorted(owners)
        for a, b in got:
            assert owners.get(a, a) != owners.get(b, b)
        assert sum(b.startswith("bot:") for _a, b in got) == 2  # two of ann's meet anchors
