"""A duplicate event's arithmetic (复式), pure: the deals' seeds, matchpoints, the ranking.

In a duplicate event every entrant plays the same deals at the same seat against the
same bots, so luck of the cards is taken out: he is compared, deal by deal, with the
others who held the same cards (docs/rulings.md, "Events", duplicate). Every rule here
is held by tests/hall/test_event_duplicate_scoring.py; nothing reads a clock, a
database or a random source the caller did not give, so a restarted hall recomputes
the same table.

- **A deal's score** is the points the entrant's seat took in it (a game that ended
  unscored or dissolved: 0).
- **Matchpoints** on a deal: 2 for each other entrant who played it and scored less,
  1 for each who scored the same. The top on a deal is ``2 × (n − 1)`` for ``n``
  entrants who played it; an entrant's percentage is his matchpoints over the top of
  the deals he played.
- **Ranking**: more matchpoints; a tie goes to more points over all the deals; then
  to the earlier entrant.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


def deal_seeds(rng: random.Random, deals: int) -> list[int]:
    """``deals`` distinct seeds (a game's seed tells which deal it is)."""
    seeds: list[int] = []
    while len(seeds) < deals:
        seed = rng.getrandbits(63)
        if seed not in seeds:
            seeds.append(seed)
    return seeds


def matchpoints(scores: Mapping[int, int]) -> dict[int, int]:
    """Each entrant's matchpoints on one deal, from the scores of those who played it."""
    return {no: sum(2 if score > other else 1 if score == other else 0
                    for o, other in scores.items() if o != no)
            for no, score in scores.items()}


@dataclass(frozen=True, slots=True)
class Line:
    """One entrant's row of the results: per deal his points and matchpoints (None: not
    played yet), his totals, the top he could have had, and his place in ``ranked``."""

    no: int
    points: list[int | None]
    matchpoints: list[int | None]
    total: int
    top: int
    score: int

    @property
    def percent(self) -> float:
        """His matchpoints as a percentage of the top (0 before any deal is compared)."""
        return round(100 * self.total / self.top, 2) if self.top else 0.0


def results(scores: Mapping[int, Sequence[int | None]], deals: int) -> list[Line]:
    """Each entrant's line, in entry order: ``scores[no][d]`` his points on deal ``d``
    (None: not played), compared with every other entrant who has played it."""
    lines: dict[int, tuple[list[int | None], list[int | None]]] = {
        no: ([None] * deals, [None] * deals) for no in scores}
    tops = dict.fromkeys(scores, 0)
    for d in range(deals):
        played = {no: s[d] for no, s in scores.items() if d < len(s) and s[d] is not None}
        for no, mp in matchpoints({n: int(p) for n, p in played.items()
                                   if p is not None}).items():
            lines[no][0][d] = played[no]
            lines[no][1][d] = mp
            tops[no] += 2 * (len(played) - 1)
    return [Line(no, pts, mps, sum(m or 0 for m in mps), tops[no], sum(p or 0 for p in pts))
            for no, (pts, mps) in sorted(lines.items())]


def ranked(lines: Sequence[Line]) -> list[Line]:
    """Best first: matchpoints, then points over all deals, then the earlier entrant."""
    return sorted(lines, key=lambda line: (-line.total, -line.score, line.no))


def compared(lines: Sequence[Line], entrants: Sequence[int]) -> list[bool]:
    """Per deal, whether every one of ``entrants`` (the people, not the bots) has played
    it: only then are its results shown to anyone (another's score on a deal one has
    not played yet would tell him about its cards)."""
    by_no = {line.no: line for line in lines}
    deals = len(lines[0].points) if lines else 0
    return [all(n in by_no and by_no[n].points[d] is not None for n in entrants)
            for d in range(deals)]
