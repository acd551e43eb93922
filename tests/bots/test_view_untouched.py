"""A bot reads its view and never changes it: the hall hands the hall's bots (and 托管)
the very view it caches for the seat's own messages (``Views.of``), so a bot that
sorted a hand in place would change what its player is sent."""

from __future__ import annotations

import copy

import pytest

from cardhall import bots
from cardhall.games import VARIANTS, new_game

#: The bots a hall seats (a room's ``bot``: bots.SEATABLE) and 托管 (hall.live.table.AUTO_BOT).
HALL_BOTS = bots.SEATABLE
#: The search bot's options here: few samples, the same reading of the view.
QUICK = {"search": {"samples": 2, "candidates": 2}}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_halls_bots_leave_their_view_as_it_was(variant: str) -> None:
    state = new_game(variant, seed=5)
    players = {name: [bots.make(name, variant, s, seed=5, **QUICK.get(name, {}))
                      for s in range(state.players)]
               for name in HALL_BOTS}
    for step in range(40):
        if state.over:
            break
        seat = state.to_act
        view = state.observe(seat)
        kept = copy.deepcopy(view)
        answers = [players[name][seat].act(view) for name in HALL_BOTS]
        assert view == kept, f"a bot changed the view at step {step}"
        state.apply(answers[step % len(answers)], seat)
