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
has valued the round's hand itself, which it does where that saves cards over
the round.

The choice stays the one the top-down worths make: both searches find the
same best worths, summed in other orders, so they differ in the last bits
only; where two or more of a round's worths (its hand's and its tries') come
within ``TIE_MARGIN`` of its best, the only ones whose order those bits could
change, they are valued again top-down before the greedy step compares them.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardhall.bots.split.hands import Planner
from cardhall.bots.split.mirror import TIE_MARGIN, MirrorPlanner, fresh_above, fresh_below
from cardhall.bots.split.packed import pack
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

    def prepare(self, hand: Sequence[int], tries: list[list[int]]) -> None:
        """Value ``hand`` by the mirrored search first where that saves cards over ``tries``.

        Each round's tries differ from its hand by one card; the mirrored search
        shares their states above that card only once it has valued the hand.
        """
        packed = pack(hand)
        if self.mirror is None or self.planner.capped or packed in self.up:
            return
        alone = sum(min(self.costs(t)) if self.up else self.costs(t)[0] for t in tries)
        first = self.costs(hand)[1]
        self.up.append(packed)
        if first + sum(min(self.costs(t)) for t in tries) < alone:
            self.mirror.worth(hand)
        else:
            self.up.pop()


def keep(planner: Planner, mirror: MirrorPlanner | None, hand: Sequence[int],
         kitty: Sequence[Rank]) -> list[Rank]:
    """The kitty cards to keep, in the order the greedy choice keeps them (see the module)."""
    counts, left = list(hand), list(kitty)
    valuer = _Valuer(planner, mirror)
    current: tuple[float, bool] = (valuer.exact(counts), True)
    kept: list[Rank] = []
    while left:
        ranks = sorted(set(left))
        tries = [_plus(counts, r) for r in ranks]
        valuer.prepare(counts, tries)
        # The round's hand first, then its tries: (worth, whether top-down to the last bit).
        hands, values = [counts, *tries], [current, *(valuer.worth(t) for t in tries)]
        top = max(v for v, _ in values)
        near = [i for i, (v, _) in enumerate(values) if v >= top - TIE_MARGIN]
        if len(near) > 1:  # the last bits may rank them: the top-down search's do
            for i in near:
                if not values[i][1]:
                    values[i] = (valuer.exact(hands[i]), True)
        best, pick = values[0][0], 0
        for i in range(1, len(values)):
            if values[i][0] > best:
                best, pick = values[i][0], i
        if not pick:
            break
        counts, current = hands[pick], values[pick]
        left.remove(ranks[pick - 1])
        kept.append(ranks[pick - 1])
    return kept


def _plus(counts: Sequence[int], r: Rank) -> list[int]:
    out = list(counts)
    out[r] += 1
    return out
