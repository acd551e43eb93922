"""``hall/live/views.py``: a table's views are ``observe``'s, built once per state of the game."""

from __future__ import annotations

import random

from cardhall.games import new_game, replay
from cardhall.hall.live.spectator import spectator_view
from cardhall.hall.live.views import Views


def test_views_are_observes_built_once_per_state() -> None:
    game = new_game("ddz3", seed=11)
    views = Views()
    rng = random.Random(3)
    for _ in range(12):
        for seat in range(game.players):
            view = views.of(game, seat)
            assert view == game.observe(seat)
            assert views.of(game, seat) is view  # the same state: not built again
        public = views.public(game)
        assert public == spectator_view([game.observe(s) for s in range(game.players)])
        assert views.public(game) is public
        before = views.of(game, game.acting[0])
        game.apply(rng.choice(game.legal_actions()))
        assert views.of(game, 0) == game.observe(0)  # a new state: built anew
        assert views.of(game, game.acting[0]) is not before


def test_another_game_at_the_same_count_of_actions_gets_its_own_views() -> None:
    """A table rebuilt from its record has a new game object with as many actions."""
    game = new_game("ddz3", seed=5)
    views = Views()
    mine = views.of(game, 0)
    other = new_game("ddz3", seed=6)
    assert views.of(other, 0) == other.observe(0) != mine
    again = replay(game.record())
    assert views.of(again, 0) == mine and views.of(again, 0) is not mine
