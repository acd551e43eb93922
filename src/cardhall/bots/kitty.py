"""斗帝主's kitty choice: which kitty cards the landlord keeps, searched where it is cheapest.

The choice is greedy: keep, one at a time, the kitty card that raises the
hand's worth most, while one does (ties to the lowest rank). Each try is the
worth of the hand plus one card, and the top-down search (``hands.Planner``)
shares only the states below the card's rank with the hand's own search: a 3
tried costs a search of the whole 34-card hand again, some thousand states,
and a round tries every rank of the kitty. The mirrored search
(``mirror.MirrorPlanner``) shares the states *above* the rank instead, so each
try goes to the search that meets fewer new cards before reaching states it
has seen (``mirror.fresh_above``, ``fresh_below``), once the mirrored search
has valued the hand itself; it is started where that saves cards over the
round.

The choice stays the one the top-down worths make: both searches find the
same best worths, summed in other orders, so they differ in the last bits
only; the tries whose worth is within ``TIE_MARGIN`` of a round's best (the
only ones whose order those bits could change) are valued again top-down
before the greedy step compares them. The hand that is kept is left in the
mirrored search's memo, whose states the first lead's candidates share.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardhall.bots.hands import Planner
from cardhall.bots.mirror import TIE_MARGIN, MirrorPlanner, fresh_above, fresh_below
from cardhall.bots.packed import pack
from cardhall.cards import Rank


class _Valuer:
    """Worths of hands near one hand, each from the search that shares more with it."""

    def __init__(self, planner: Planner, mirror: MirrorPlanner | None) -> None:
        self.planner, self.mirror = planner, mirror
        #: Packed hands each search has valued in this choice.
        self.down: list[int] = []
        self.up: list[int] = []

    def exact(self, hand: Sequence[int]) -> float:
        """The top-down worth, the one the choice is made on."""
        self.down.append(pack(hand))
        return self.planner.worth(hand)

    def costs(self, hand: Sequence[int]) -> tuple[int, int]:
        """New cards each search (top-down, mirrored) meets in ``hand`` before shared states."""
        packed, total = pack(hand), sum(hand)
        down = fresh_above(packed, self.down, packed) if self.down else total
        up = fresh_below(packed, self.up, packed) if self.up else total
        return down, up

    def worth(self, hand: Sequence[int]) -> tuple[float, bool]:
        """The worth of ``hand`` and whether it is the top-down search's to the last bit."""
        if self.mirror is not None and self.up:
            down, up = self.costs(hand)
            if up < down:
                self.up.append(pack(hand))
                return self.mirror.worth(hand), False
        return self.exact(hand), True

    def start_mirror(self, hand: Sequence[int], tries: list[list[int]]) -> None:
        """Value ``hand`` by the mirrored search if that saves cards over ``tries``."""
        if self.mirror is None or self.up or self.planner.capped:
            return
        alone = sum(self.costs(t)[0] for t in tries)
        self.up.append(pack(hand))
        shared = sum(hand) + sum(min(self.costs(t)) for t in tries)
        if shared < alone:
            self.mirror.worth(hand)
        else:
            self.up.clear()


def keep(planner: Planner, mirror: MirrorPlanner | None, hand: Sequence[int],
         kitty: Sequence[Rank]) -> list[Rank]:
    """The kitty cards to keep, in the order the greedy choice keeps them (see the module)."""
    counts, left = list(hand), list(kitty)
    valuer = _Valuer(planner, mirror)
    current, exact = valuer.exact(counts), True
    kept: list[Rank] = []
    while left:
        ranks = sorted(set(left))
        tries = [_plus(counts, r) for r in ranks]
        valuer.start_mirror(counts, tries)
        values = [valuer.worth(t) for t in tries]
        top = max(current, *(v for v, _ in values))
        if not exact and current >= top - TIE_MARGIN:
            current = valuer.exact(counts)
        values = [(valuer.exact(t), True) if not ok and v >= top - TIE_MARGIN else (v, ok)
                  for t, (v, ok) in zip(tries, values, strict=True)]
        best, pick = current, -1
        for i, (value, _) in enumerate(values):
            if value > best:
                best, pick = value, i
        if pick < 0:
            break
        counts = tries[pick]
        left.remove(ranks[pick])
        kept.append(ranks[pick])
        current, exact = values[pick]
    if mirror is not None and not planner.capped:
        mirror.worth(counts)  # the first lead's candidates share its states
    return kept


def _plus(counts: Sequence[int], r: Rank) -> list[int]:
    out = list(counts)
    out[r] += 1
    return out
