"""The split search's effort cap: exact below it, a complete greedy split past it, replayable."""

from __future__ import annotations

import random

import pytest

from cardhall import rules
from cardhall.bots.planning import PlanningBot
from cardhall.bots.split.hands import Planner
from cardhall.cards import parse_counts
from cardhall.games import new_game
from cardhall.sim import MAX_ACTIONS

HANDS = ["33344456", "3456789TJQKA2XD", "3334445559JQ", "33345", "3344556677889",
         "334455667788AA22"]


def _cards(plan_groups: object) -> list[int]:
    return sorted(r for g in plan_groups for r in g.cards)  # type: ignore[attr-defined]


@pytest.mark.parametrize("hand", HANDS)
def test_a_cap_the_search_stays_under_gives_the_exact_split(hand: str) -> None:
    rs = rules.get("ddz3")
    full, capped = Planner(rs), Planner(rs)
    capped.limit(10_000)
    counts = parse_counts(hand)
    assert capped.plan(counts) == full.plan(counts)
    assert not capped.spent


@pytest.mark.parametrize("variant", ["ddz3", "ddz4", "ddz_emperor", "baohuang"])
def test_past_the_cap_the_split_is_complete_legal_and_no_better(variant: str) -> None:
    """A greedy split still plays every card in legal plays, and never beats the exact one."""
    rs = rules.get(variant)
    rng = random.Random(7)
    deck = [r for r, n in enumerate(rs.limits) for _ in range(n)]
    for _ in range(10):
        counts = [0] * len(rs.limits)
        for r in rng.sample(deck, 20):
            counts[r] += 1
        capped = Planner(rs)
        capped.limit(5)
        rough = capped.plan(counts)
        assert capped.spent
        assert _cards(rough.groups) == sorted(r for r, n in enumerate(counts) for _ in range(n))
        for group in rough.groups:
            assert rs.parse_play(group.text).cards
        assert rough.worth <= Planner(rs).worth(counts) + 1e-9


def test_rough_values_do_not_enter_the_exact_memo() -> None:
    """After a capped decision, an uncapped search of the same hand is exact again."""
    rs = rules.get("ddz_emperor")
    counts = parse_counts("3333444555666777889TTJJJQQKKKAA22XD")
    p = Planner(rs)
    p.limit(50)
    p.worth(counts)
    p.limit(None)
    assert p.worth(counts) == Planner(rs).worth(counts)


def _decisions(variant: str, seed: int, states: int | None = 400) -> list[str]:
    """A game of planning bots, each capped at ``states`` per decision (``PlanningBot.states``)."""
    state = new_game(variant, seed=seed)
    seats = [PlanningBot(variant, s, seed) for s in range(state.players)]
    for bot in seats:
        bot.states = states
    out = []
    for _ in range(MAX_ACTIONS):
        if state.over:
            break
        seat = state.to_act
        assert seat is not None
        answer = seats[seat].act(state.observe(seat))
        out.append(answer)
        state.apply(answer)
    return out


@pytest.mark.parametrize("variant", ["ddz_emperor", "ddz3_laizi"])
def test_capped_decisions_replay_identically(variant: str) -> None:
    """The cap counts states, not time, and each bot owns its memo: a replay is the same game,
    whatever was played before it in the process."""
    first = _decisions(variant, 3)
    _decisions(variant, 4)
    assert _decisions(variant, 3) == first
