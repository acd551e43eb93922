"""A puzzle (残局): two open hands, the player's side to move, and its titles.

A puzzle is played by the classic Dou Dizhu rules (``position.RULES``). The player
holds ``hand`` and moves first: he leads, or answers ``last`` (a play the other side
has just made). ``level`` grades it from 1 (a few cards, one idea) to 5 (two long
hands, a long line); the hall starts its rating from the level (``start_mu``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date

from cardhall.puzzles.position import RULES, Position
from cardhall.rules.ruleset import RuleSet

#: The rating scale's middle (openskill's default mu) and how far a level moves it.
MU = 25.0
MU_PER_LEVEL = 3.0


@dataclass(frozen=True, slots=True)
class Puzzle:
    id: str
    title: str
    title_en: str
    hand: str
    other: str
    last: str | None = None
    level: int = 1
    #: The rule set it is played by (a mined puzzle keeps its game's).
    rules: str = RULES

    def position(self, rs: RuleSet) -> Position:
        return Position.of(rs, self.hand, self.other, self.last)

    def start_mu(self) -> float:
        """A new puzzle's rating before anyone has tried it: level 3 is the middle."""
        return MU + (self.level - 3) * MU_PER_LEVEL


def daily_index(day: date, count: int) -> int:
    """Which of ``count`` puzzles is the daily one on ``day``: the same for everyone,
    a stable hash of the date (not Python's ``hash``, which changes per process)."""
    digest = hashlib.sha256(day.isoformat().encode()).digest()
    return int.from_bytes(digest[:8], "big") % count
