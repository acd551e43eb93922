"""Each seat's view of a table's current state, built once per state.

One change at a table reads the views several times: the turn timer's length comes
from the acting seat's view, every seated player's ``state`` message carries his
own, and a watcher's public view is made from all of them. ``observe`` builds a
fresh view each time (legal actions, counts, the variant's section), so a change
built the acting seat's view twice and, with a watcher, every view twice. A view is
a function of the game and how many actions it has taken (every change is an
action), so it is kept until either differs. Bots are handed a view of their own
(they run elsewhere and may keep or change what they are given).
"""

from __future__ import annotations

from typing import Any

from cardhall.games import GameState
from cardhall.hall.live.spectator import spectator_view

Observation = dict[str, Any]


class Views:
    """The views of one state of one game, by seat (``-1``: a watcher's)."""

    def __init__(self) -> None:
        self._game: GameState | None = None
        self._seq = -1
        self._views: dict[int, Observation] = {}

    def _current(self, game: GameState) -> dict[int, Observation]:
        seq = len(game.actions)
        if game is not self._game or seq != self._seq:
            self._game, self._seq, self._views = game, seq, {}
        return self._views

    def of(self, game: GameState, seat: int) -> Observation:
        """``game.observe(seat)`` of the game's current state."""
        views = self._current(game)
        view = views.get(seat)
        if view is None:
            view = views[seat] = game.observe(seat)
        return view

    def public(self, game: GameState) -> Observation:
        """What a watcher sees: only what every seat sees alike."""
        views = self._current(game)
        view = views.get(-1)
        if view is None:
            view = views[-1] = spectator_view([self.of(game, s) for s in range(game.players)])
        return view
