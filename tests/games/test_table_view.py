"""A climbing game's table says which seats' last words belong to the trick on it
(``table.acted``) and who led it (``leader``): the client draws only those in front of
the seats (issue 26: the previous trick sat beside the current one). Checked against the
trick followed independently from the actions and events of random games."""

from __future__ import annotations

import random

import pytest

from cardhall.games import VARIANTS, new_game

CLIMBING = [v for v, d in VARIANTS.items() if d.rules is not None]


@pytest.mark.parametrize("variant", CLIMBING)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_acted_is_the_trick_so_far(variant: str, seed: int) -> None:
    game = new_game(variant, seed=seed)
    rng = random.Random(seed)
    trick: list[int] = []  # seats that acted since the lead, in order, each once
    checked = 0
    while game.to_act is not None:
        seat = game.to_act
        playing = game.phase == "play"
        leading = playing and game.observe(seat)["table"] is None
        action = rng.choice([str(a) for a in game.legal_actions(seat)])
        events = game.apply(action, seat=seat)
        if not playing:
            continue
        if leading:
            trick = []
        if seat not in trick:
            trick.append(seat)
        if any(e["type"] == "trick-over" for e in events):
            trick = []
        for viewer in range(game.players):
            table = game.observe(viewer)["table"]
            if game.phase != "play" or not trick:
                continue
            assert table is not None
            assert table["acted"] == trick
            assert table["leader"] == trick[0]
            checked += 1
        if not trick:
            assert game.observe(seat)["table"] is None
    assert checked > 0
