"""What the endgame solvers (rules/solve.py, rules/solve3.py) answer, and the small
helpers both search with.

A ``Verdict`` is issue 21's JSON: ``{"win": …, "move": …}``, the move an action text as
the games write it (``"play 33"``, ``"pass"``) or None when every action loses.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardhall.rules.plays import Play

Counts = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether the side to move can force going out first, and a move that does."""

    win: bool
    move: str | None

    def to_json(self) -> dict[str, object]:
        return {"win": self.win, "move": self.move}


def action_text(play: Play) -> str:
    """The game's action for a play: ``play 333+5``, a wild play with what it stands for."""
    return f"play {play.text}" + (f"={play.as_text}" if play.as_text else "")


def without(counts: Counts, play: Play) -> Counts:
    """``counts`` less the cards of ``play``."""
    left = list(counts)
    for rank in play.cards:
        left[rank] -= 1
    return tuple(left)
