"""Seeded planning-bot 癞子 games decide exactly as before the wild engine was made cheaper.

Issue 25 made a 癞子 ``check`` judge a text by its readings, paused the collector
while a wild list is built and kept ``wild.classify``'s readings: none of it may
change what a bot sees or picks. The digest covers every action of seeded
planning-bot games, in order; it was computed by the engine as it was before
(main at 2e1589b, where 120 games, every observation hashed too, also agree).
"""

from __future__ import annotations

import hashlib

from cardhall.games import new_game
from cardhall.sim import seat_bots

GAMES = 20
DIGEST = "f4fe2d6fcbe3c7cf625660a2ffb043d529134ee87a080aa2d5aaec3efc2b4908"


def test_planning_bots_play_the_same_laizi_games() -> None:
    h = hashlib.sha256()
    actions = 0
    for g in range(GAMES):
        state = new_game("ddz3_laizi", seed=g)
        bots = seat_bots("ddz3_laizi", ["planning"], 3, g)
        while not state.over:
            seat = state.to_act
            assert seat is not None
            act = bots[seat].act(state.observe(seat))
            h.update(f"|{act}\n".encode())
            state.apply(act)
            actions += 1
    assert actions == 886
    assert h.hexdigest() == DIGEST
