"""Wild plays' action texts, spelt from their parts, are those ``_play_action`` spells."""

from __future__ import annotations

import random

from cardhall.games import new_game


def test_wild_action_texts_are_the_play_actions_own() -> None:
    checked = 0
    for g in range(8):
        state = new_game("ddz3_laizi", seed=g)
        rng = random.Random(g)
        while not state.over:
            actions = state._play_actions() if state.phase == "play" else []
            for act in actions:
                if act.play is not None:
                    assert act.arg == state._play_action(act.play).arg
                    checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 1000
