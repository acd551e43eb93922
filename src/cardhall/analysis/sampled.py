"""Win chance and expected points of candidate moves, by sampling what the seat cannot see.

The estimate is the search bot's (``bots.sampling``), kept apart from its choice: the
cards the seat cannot see are dealt to the other seats consistently with what it has
seen (``determinise``), and each candidate is played out on every sampled deal with
the planning policy at every seat (``Rollout``). The same deals serve every candidate,
so a difference between two moves comes from the moves, not from the luck of the deals.

Expected points are the seat's score at the stake of the moment (the view's
``multiplier``), its share of it (a lone landlord is paid by every opponent, a farmer
pays or is paid once: ``share``), doubled by each bomb or rocket played in the rollout,
won or lost with the rollout; the spring and each variant's own caps are left out, so
the figure is an estimate in the game's points, not its settlement.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from cardhall.bots.planning import Policy
from cardhall.bots.sampling import Rollout, determinise
from cardhall.bots.view import View
from cardhall.cards import Counts
from cardhall.rules import Play


@dataclass(frozen=True, slots=True)
class Outcome:
    """A move's estimated win chance (0..1) and expected points for the seat."""

    win: float
    points: float


class ScoredRollout(Rollout):
    """A rollout that also counts the bombs played in it (each doubles the stake)."""

    def __init__(self, view: View, policy: Policy, hands: Sequence[Counts]) -> None:
        super().__init__(view, policy, hands)
        self.bombs = 0

    def _decide(self, seat: int, trick: Play | None, owner: int | None) -> Play | None:
        answer = super()._decide(seat, trick, owner)
        if answer is not None and answer.is_bomb:
            self.bombs += 1
        return answer


def share(view: View) -> float:
    """The seat's part of the stake: opponents per member of its side, at least one."""
    return max(1.0, len(view.opponents) / (len(view.partners) + 1))


def estimate(view: View, policy: Policy, moves: Sequence[Play | None], stake: float,
             rng: random.Random, samples: int) -> list[Outcome]:
    """Each move's outcome over ``samples`` deals of the unseen cards (None: pass)."""
    wins = [0.0] * len(moves)
    points = [0.0] * len(moves)
    worth = stake * share(view)
    for _ in range(samples):
        hands = determinise(view, rng)
        for i, move in enumerate(moves):
            rollout = ScoredRollout(view, policy, hands)
            won = rollout.play(move)
            bombs = rollout.bombs + (1 if move is not None and move.is_bomb else 0)
            wins[i] += won
            points[i] += (2.0 * won - 1.0) * worth * 2 ** bombs
    return [Outcome(w / samples, p / samples) for w, p in zip(wins, points, strict=True)]
