"""Puzzle ratings: a rated attempt is a 1v1 game of the player against the puzzle.

Both sides carry an openskill (Plackett-Luce) rating; solving is the player's win,
failing the puzzle's. A hard puzzle's rating rises as players fail it, so "a puzzle
near the player's rating" is one he solves about half the time. What a player sees is
``shown(mu)``: mu on a chess-like scale (the default 25 shows as 1500).
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()
#: A new player's rating: openskill's defaults.
START_MU = _MODEL.mu
START_SIGMA = _MODEL.sigma
#: A player's or puzzle's sigma never falls below this: ratings keep moving a little.
MIN_SIGMA = 1.0
#: The shown rating: 1500 at the start, 40 points per unit of mu (a first solve or
#: failure moves it about 100, less as sigma shrinks).
BASE = 1500
SCALE = 40.0


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        return shown(self.mu)


def shown(mu: float) -> int:
    """The rating a player reads: ``mu`` on the 1500 scale."""
    return round(BASE + (mu - START_MU) * SCALE)


def rate(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The new ratings of the player and the puzzle after one attempt."""
    a = _MODEL.rating(mu=player.mu, sigma=player.sigma)
    b = _MODEL.rating(mu=puzzle.mu, sigma=puzzle.sigma)
    [[a2], [b2]] = _MODEL.rate([[a], [b]], ranks=[0, 1] if solved else [1, 0])
    return (Rating(a2.mu, max(a2.sigma, MIN_SIGMA)), Rating(b2.mu, max(b2.sigma, MIN_SIGMA)))
