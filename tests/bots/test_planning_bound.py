"""The planning bot's bounded scoring picks what scoring every candidate picks.

``Policy.choose`` leaves out candidates whose score is bounded below the best
found (``Policy._scored``); the bound is only sound where the split search can
reach the union of two splits, so this compares it with the full ranking at
every play decision of seeded games, in the variants whose hands are long
enough for the bound to prune (two packs, kickers of every kind, 保皇's sets,
wild cards), and in ddz3.
"""

from __future__ import annotations

import pytest

from cardhall import bots
from cardhall.bots.planning import PlanningBot, Policy
from cardhall.bots.view import generated_plays, legal_plays, read_view, rule_set
from cardhall.games import new_game
from cardhall.rules import Play
from cardhall.sim import MAX_ACTIONS


def _plays(obs: dict, policy: Policy) -> tuple[list[Play], bool]:
    view = read_view(obs, policy.rs)
    legal = list(obs["legal"])
    if not obs.get("legal_complete", True):
        return generated_plays(obs, view), "pass" in legal
    texts = legal_plays(obs, view, legal)
    return [p for p in texts.values() if p is not None], "pass" in texts


@pytest.mark.parametrize("variant,games", [("ddz2", 12), ("ddz3", 10), ("ddz4", 10),
                                           ("ddz_emperor", 6), ("baohuang", 3),
                                           ("ddz3_laizi", 4)])
def test_bounded_choice_is_the_full_rankings_first(variant: str, games: int) -> None:
    compared = pruned = 0
    for g in range(games):
        state = new_game(variant, seed=g)
        seats = [bots.make("planning", variant=variant, seat=s, seed=g)
                 for s in range(state.players)]
        for _ in range(MAX_ACTIONS):
            if state.over:
                break
            seat = state.to_act
            assert seat is not None
            obs = state.observe(seat)
            bot = seats[seat]
            assert isinstance(bot, PlanningBot)
            if obs.get("phase") == "play":
                policy = bot.policy(rule_set(obs))
                view = read_view(obs, policy.rs)
                plays, can_pass = _plays(obs, policy)
                full = policy.ranked(view, plays, can_pass)
                best = policy.ranked(view, plays, can_pass, best_only=True)
                assert best[0] == full[0], (g, obs["hand"], obs.get("table"))
                compared += 1
                pruned += len(best) < len(full)
            state.apply(bot.act(obs))
    assert compared > 50 and pruned > compared // 10
