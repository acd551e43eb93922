"""The planning bot's bounded scoring picks what scoring every candidate picks.

``Policy.choose`` leaves out candidates whose score is bounded below the best
found (``Policy._scored``); the bound is only sound where the split search can
reach the union of two splits, so this compares it with the full ranking at
every play decision of seeded games, in the variants whose hands are long
enough for the bound to prune (two packs, kickers of every kind, 保皇's sets,
wild cards), and in ddz3.
"""

from __future__ import annotations

from typing import Any

import pytest

from cardhall.bots.base import Observation
from cardhall.bots.planning import TIE_MARGIN, PlanningBot, Policy
from cardhall.bots.view import generated_plays, legal_plays, read_view, rule_set
from cardhall.games import new_game
from cardhall.rules import Play
from cardhall.sim import play_out


def _plays(obs: Observation, policy: Policy) -> tuple[list[Play], bool]:
    view = read_view(obs, policy.rs)
    legal = list(obs["legal"])
    if not obs.get("legal_complete", True):
        return generated_plays(obs, view), "pass" in legal
    texts = legal_plays(obs, view, legal)
    return [p for p in texts.values() if p is not None], "pass" in texts


class Checking(PlanningBot):
    """The planning bot, comparing the bounded choice with the full ranking first."""

    name = "planning-checking"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.compared = self.pruned = 0

    def choose_play(self, observation: Observation, legal: list[str]) -> str:
        policy = self.policy(rule_set(observation))
        view = read_view(observation, policy.rs)
        plays, can_pass = _plays(observation, policy)
        full = policy.ranked(view, plays, can_pass)
        best = policy.ranked(view, plays, can_pass, best_only=True)
        # The same play; its score may come from the mirrored search (the same worth summed
        # in another order), so it agrees to within the ties' margin.
        assert best[0][1] == full[0][1], (observation["hand"], observation.get("table"))
        assert abs(best[0][0] - full[0][0]) < TIE_MARGIN
        self.compared += 1
        self.pruned += len(best) < len(full)
        return super().choose_play(observation, legal)


@pytest.mark.parametrize("variant,games", [("ddz2", 12), ("ddz3", 10), ("ddz4", 10),
                                           ("ddz_emperor", 6), ("baohuang", 3),
                                           ("ddz3_laizi", 4)])
def test_bounded_choice_is_the_full_rankings_first(variant: str, games: int) -> None:
    compared = pruned = 0
    for g in range(games):
        state = new_game(variant, seed=g)
        seats = [Checking(variant, s, g) for s in range(state.players)]
        assert play_out(state, list(seats))
        compared += sum(bot.compared for bot in seats)
        pruned += sum(bot.pruned for bot in seats)
    assert compared > 50 and pruned > compared // 10
