"""How likely a seat still to play can beat the play winning a 找朋友 trick.

The planning bot does not deal the unseen cards out; it reasons about one
seat at a time. A seat holding ``n`` of the ``U`` cards this seat has not
seen holds each unseen copy with probability ``p = n / U`` (independently:
an approximation that is good while hands are large and plain arithmetic
otherwise). From that, for the play ``X`` winning the trick so far, whose
leading unit is a single, a pair or a tractor at some step:

- a seat that still has cards of the led group must follow it, and beats a
  side play only with a higher unit of the same kind in that group (a throw
  of several units is safe from followers: its leader checked it);
- a seat void in the led side suit may trump: any trumps of the lead's
  shape beat a side play, higher trumps a trump one;
- the seat is void with probability 1 if it showed it, else
  ``(1 − p) ** (unseen cards of the group)``.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

from cardhall.bots.trick.view import TrickView
from cardhall.rules.trick import NUM_STEPS, TRUMP, Shape

#: A follower answering a throw of several units in kind and higher: near impossible.
THROW_ANSWER = 0.02


@lru_cache(maxsize=4096)
def at_least(copies: int, need: int, p: float) -> float:
    """P(at least ``need`` of ``copies`` independent cards, each with probability ``p``)."""
    if need <= 0:
        return 1.0
    if copies < need:
        return 0.0
    return sum(comb(copies, k) * p ** k * (1 - p) ** (copies - k) for k in range(need, copies + 1))


class Odds:
    """Per-decision tables: unseen copies per group and step, and each seat's share."""

    def __init__(self, view: TrickView) -> None:
        self.view = view
        ctx = view.ctx
        self.by_step: list[list[list[int]]] = [[[] for _ in range(NUM_STEPS)] for _ in range(5)]
        self.group_unseen = [0] * 5
        for face in range(54):
            k = view.unseen[face]
            if k > 0:
                self.by_step[ctx.group[face]][ctx.step[face]].append(k)
                self.group_unseen[ctx.group[face]] += k
        total = max(1, view.unseen_total)
        self.share = [min(1.0, view.counts[s] / total) for s in range(5)]
        self._cache: dict[tuple[int, int, bool, int, Shape], float] = {}

    def void(self, seat: int, group: int) -> float:
        if self.view.voids[seat][group] or self.view.counts[seat] == 0:
            return 1.0
        return (1.0 - self.share[seat]) ** self.group_unseen[group]

    def pair_at(self, group: int, step: int, p: float) -> float:
        """P(the seat holds a pair on ``step`` of ``group``)."""
        miss = 1.0
        for k in self.by_step[group][step]:
            miss *= 1.0 - at_least(k, 2, p)
        return 1.0 - miss

    def higher(self, group: int, pairs: int, above: int, p: float) -> float:
        """P(a unit of ``pairs`` pairs (0: a single) in ``group`` leading above step ``above``)."""
        steps = self.by_step[group]
        if pairs == 0:
            n = sum(sum(steps[s]) for s in range(above + 1, NUM_STEPS))
            return 1.0 - (1.0 - p) ** n
        q = [self.pair_at(group, s, p) for s in range(NUM_STEPS)]
        if pairs == 1:
            miss = 1.0
            for s in range(above + 1, NUM_STEPS):
                miss *= 1.0 - q[s]
            return 1.0 - miss
        miss = 1.0
        for top in range(max(above + 1, pairs - 1), NUM_STEPS):
            window = 1.0
            for s in range(top - pairs + 1, top + 1):
                window *= q[s]
            miss *= 1.0 - window
        return 1.0 - miss

    def shaped(self, group: int, shape: Shape, p: float) -> float:
        """P(the seat can make ``shape`` out of its cards of ``group`` (trumping in))."""
        n = self.group_unseen[group]
        chance = at_least(n, shape.size, p)
        for t in shape.tractors:
            chance *= self.higher(group, t, -1, p)
        if shape.pairs:
            chance *= self.higher(group, 1, -1, p) ** shape.pairs
        return chance

    def beat(self, seat: int, shape: Shape, led: int, trump: bool, step: int) -> float:
        """P(``seat`` can beat a play of rank (``trump``, ``step``) in a trick led in ``led``."""
        key = (seat, led, trump, step, shape)
        found = self._cache.get(key)
        if found is not None:
            return found
        p = self.share[seat]
        lead_pairs = shape.tractors[0] if shape.tractors else 1 if shape.pairs else 0
        units = len(shape.tractors) + shape.pairs + shape.singles
        if p == 0.0:
            chance = 0.0
        elif led == TRUMP:
            chance = self.higher(TRUMP, lead_pairs, step, p)
            if units > 1:
                chance *= THROW_ANSWER
        else:
            void = self.void(seat, led)
            if trump:
                chance = void * self.higher(TRUMP, lead_pairs, step, p)
                if units > 1:
                    chance *= self.shaped(TRUMP, shape, p)
            else:
                follow = 0.0 if units > 1 else self.higher(led, lead_pairs, step, p)
                chance = (1.0 - void) * follow + void * self.shaped(TRUMP, shape, p)
        self._cache[key] = chance
        return chance


__all__ = ["Odds", "at_least"]
