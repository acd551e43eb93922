"""An event's arithmetic, pure: chips moved by a game, the ranking, the cut, the prizes.

Every rule here is stated in docs/rulings.md ("Events") and held by
tests/hall/test_event_standings.py. Nothing here reads a clock, a database or a random
source the caller did not give: a restarted hall recomputes the same answers.

- **Chips**: a game's points ``X`` move ``X × stake`` chips (the round's stake), by the
  platform's rule for beans (``economy.split_points``, no fee): nobody loses more than he
  holds, nobody wins more than he holds, the moves sum to 0. A game that is unscored or
  dissolved moves nothing.
- **Ranking** (a round's end, and the final places): more chips first; a tie goes to
  whoever held more chips when the round began; then to the earlier entrant.
- **Cut**: after round ``r`` the best ``field[r + 1]`` go on; the others are out, placed
  below everyone still in, in ranking order.
- **Prizes**: the fees paid less the house's share are the pool; place ``i`` receives
  ``prizes[i]`` percent of it, rounded down, the remainder to first place; a place a
  bot took is not paid (bots hold no beans: nothing is minted for them).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardhall.hall.domain.economy import split_points


@dataclass(frozen=True, slots=True)
class Standing:
    """One entrant as the event sees him: ``no`` his number in entry order, ``chips``
    now, ``before`` his chips when the current round began, ``place`` once final."""

    no: int
    chips: int
    before: int
    player: str | None = None  # None: a bot
    place: int | None = None


def chip_moves(result: dict[str, Any], stake: int, chips: Sequence[int]) -> list[int]:
    """Each seat's chip change for a finished game's result, at ``stake`` chips a point."""
    seats = len(result["points"])
    if result.get("ended") in ("unscored", "dissolved") or result.get("dissolve"):
        return [0] * seats
    return split_points([int(x) for x in result["points"]], stake, 0, chips).changes


def ranked(standings: Sequence[Standing]) -> list[Standing]:
    """Best first: chips, then chips at the round's start, then the earlier entrant."""
    return sorted(standings, key=lambda s: (-s.chips, -s.before, s.no))


def cut(standings: Sequence[Standing], keep: int) -> tuple[list[Standing], list[Standing]]:
    """(those who go on, those knocked out), each best first."""
    order = ranked(standings)
    return order[:keep], order[keep:]


def seat(entrants: Sequence[int], seats: int, rng: random.Random) -> list[list[int]]:
    """The tables of a round: the entrants shuffled by ``rng``, ``seats`` a table."""
    order = list(entrants)
    rng.shuffle(order)
    return [order[i:i + seats] for i in range(0, len(order), seats)]


def prize_pool(fees_paid: int, house: int) -> int:
    """What the places share: the fees paid less the house's percent (rounded up)."""
    return fees_paid - (fees_paid * house + 99) // 100


def prizes(pool: int, shares: Sequence[int]) -> list[int]:
    """Each place's prize: its percent of the pool's share, rounded down; what the
    rounding leaves goes to first place, so they sum to the pool exactly."""
    total = sum(shares)
    out = [pool * s // total for s in shares] if total else []
    if out:
        out[0] += pool - sum(out)
    return out
