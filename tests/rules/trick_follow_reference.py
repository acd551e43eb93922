"""找朋友's follow listing as it was before issue 25 bounded it (main at 2760a27), kept
as the reference the bounded engine is compared with on small hands
(test_trick_follow_bounded.py). Exponential on large ones: use it on small hands only."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence

from cardhall.cards import Card
from cardhall.rules.trick import NUM_STEPS, Lead, Trumps, pair_ids, pair_profile, runs
from cardhall.rules.trick_follow import Sampler, card_cost, cost

Cards = tuple[Card, ...]


def _longest(avail: Sequence[int]) -> int:
    return max((last - first + 1 for first, last in runs(avail)), default=0)


def tractor_vector(avail: list[int], lengths: Sequence[int], i: int = 0) -> tuple[int, ...]:
    if i == len(lengths):
        return ()
    top = min(lengths[i], _longest(avail))
    for r in range(top, 1, -1):
        best: tuple[int, ...] | None = None
        for first in range(NUM_STEPS - r + 1):
            if all(avail[first + j] for j in range(r)):
                for j in range(r):
                    avail[first + j] -= 1
                cand = (r, *tractor_vector(avail, lengths, i + 1))
                for j in range(r):
                    avail[first + j] += 1
                if best is None or cand > best:
                    best = cand
        if best is not None:
            return best
    return (0,) * (len(lengths) - i)


def _placements(ids_at: list[list[Card]], lengths: Sequence[int]) -> list[Cards]:
    found: set[Cards] = set()
    used: list[Card] = []

    def place(i: int) -> None:
        if i == len(lengths):
            found.add(tuple(sorted(used)))
            return
        t = lengths[i]
        for first in range(NUM_STEPS - t + 1):
            choices = [[c for c in ids_at[s] if c not in used] for s in range(first, first + t)]
            if all(choices):
                for combo in itertools.product(*choices):
                    used.extend(combo)
                    place(i + 1)
                    del used[-t:]

    place(0)
    return sorted(found)


def _count_subsets(mults: Sequence[int], k: int) -> int:
    ways = [1] + [0] * k
    for m in mults:
        new = [0] * (k + 1)
        for size, w in enumerate(ways):
            if w:
                for take in range(min(m, k - size) + 1):
                    new[size + take] += w
        ways = new
    return ways[k]


def _subsets(items: Sequence[tuple[Card, int]], k: int, i: int = 0) -> Iterator[Cards]:
    if k == 0:
        yield ()
        return
    if i == len(items):
        return
    card, m = items[i]
    for take in range(min(m, k), -1, -1):
        for rest in _subsets(items, k - take, i + 1):
            yield (card,) * take + rest


def _minus(cards: Sequence[Card], gone: Sequence[Card]) -> list[Card]:
    left = Counter(cards)
    left.subtract(gone)
    return sorted(left.elements())


class Plan:
    def __init__(self, lead: Lead, hand: Sequence[Card], ctx: Trumps) -> None:
        self.ctx = ctx
        self.size = lead.size
        self.suit = sorted(c for c in hand if ctx.group[c] == lead.group)
        self.other = sorted(c for c in hand if ctx.group[c] != lead.group)
        self.fixed: list[Cards] = []
        self.pools: list[list[Card]] = []
        self.free = 0
        if len(self.suit) <= self.size:
            self.fixed, self.pools = [tuple(self.suit)], [self.other]
            self.free = self.size - len(self.suit)
            return
        shape = lead.shape
        pairs = pair_ids(self.suit)
        need = min(shape.total_pairs, len(pairs))
        self.free = self.size - 2 * need
        lengths: list[int] = []
        if shape.tractors:
            vector = tractor_vector(pair_profile(self.suit, ctx), shape.tractors)
            lengths = [r for r in vector if r >= 2]
        ids_at: list[list[Card]] = [[] for _ in range(NUM_STEPS)]
        for c in pairs:
            ids_at[ctx.step[c]].append(c)
        for placed in (_placements(ids_at, lengths) if lengths else [()]):
            rest = [c for c in pairs if c not in placed]
            for extra in itertools.combinations(rest, need - len(placed)):
                chosen = tuple(sorted((*placed, *extra) * 2))
                self.fixed.append(chosen)
                self.pools.append(_minus(self.suit, chosen))

    def estimate(self) -> int:
        return sum(_count_subsets(list(Counter(pool).values()), self.free) for pool in self.pools)

    def all(self) -> list[Cards]:
        out: set[Cards] = set()
        for fixed, pool in zip(self.fixed, self.pools, strict=True):
            items = sorted(Counter(pool).items())
            for fill in _subsets(items, self.free):
                out.add(tuple(sorted(fixed + fill)))
        return sorted(out)

    def cheapest(self) -> Cards:
        best: Cards | None = None
        ctx = self.ctx
        for fixed, pool in itertools.islice(zip(self.fixed, self.pools, strict=True), 2000):
            fill = sorted(pool, key=lambda c: card_cost(c, ctx))[:self.free]
            cand = tuple(sorted((*fixed, *fill)))
            if best is None or cost(cand, ctx) < cost(best, ctx):
                best = cand
        assert best is not None
        return best

    def sample(self, rng: Sampler) -> Cards:
        i = rng.randrange(len(self.fixed))
        return tuple(sorted((*self.fixed[i], *rng.sample(self.pools[i], self.free))))


def follows(lead: Lead, hand: Sequence[Card], ctx: Trumps, limit: int,
            rng: Sampler | None = None) -> tuple[list[Cards], bool]:
    plan = Plan(lead, hand, ctx)
    if plan.estimate() <= limit:
        return plan.all(), True
    rng = rng or random.Random(0)
    chosen = {plan.cheapest()}
    for _ in range(4 * limit):
        if len(chosen) >= limit:
            break
        chosen.add(plan.sample(rng))
    return sorted(chosen), False
