"""Following and leading in 找朋友 (zhao-pengyou.md §4, Ruling 8): who must play what, and lists.

**Follow obligations** for a lead of ``c`` cards in group G, ``H`` the
follower's cards of G:

1. ``|H| ≤ c``: play all of H and any other cards to make ``c``.
2. Otherwise exactly ``c`` cards of G, and
   - tractors: for the lead's tractors, longest first, a tractor of the same
     length if H can still give one, else the longest shorter one. Which tractor
     is given can decide what is left for the next, so the obligation is the
     best that H allows: the *lexicographically largest* vector of matched
     lengths (``tractor_vector``), and a play must reach exactly that vector;
   - pairs: at least ``min(lead pairs, pairs in H)`` pairs in all, tractor
     pairs included;
   - the rest is free (any cards of G).

A play meeting these is legal; trumping when void is a free choice, and
whether it can win is ``trick.play_rank``'s business, not an obligation.

**Lists.** ``leads`` gives every single, pair and tractor of a hand.
``follows`` gives every legal follow when there are at most ``limit`` of them
(almost every trick); past that — a void follower of a tractor or a throw may
have hundreds of thousands of choices, all "any c cards" — it gives the
cheapest follow and a seeded sample, and says the list is incomplete, so a
caller judges any other play with ``follow_error``, which is always exact.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Protocol, TypeVar

from cardhall.cards import Card, format_cards
from cardhall.rules.trick import (
    NUM_STEPS,
    POINTS,
    TRUMP,
    Lead,
    Trumps,
    group_name,
    pair_ids,
    pair_profile,
    runs,
)

Cards = tuple[Card, ...]
T = TypeVar("T")


class Sampler(Protocol):
    """What ``follows`` draws its sample with: ``games.rng.Rng`` (or ``random.Random``)."""

    def randrange(self, n: int, /) -> int: ...

    def sample(self, items: Sequence[T], k: int, /) -> list[T]: ...


#: Default size above which ``follows`` samples instead of listing.
FOLLOW_LIMIT = 400


def cost(cards: Sequence[Card], ctx: Trumps) -> tuple[int, tuple[tuple[int, Card], ...]]:
    """Order of plays for 托管 (platform §4): fewest points, then lowest cards, highest first."""
    strength = ctx.strength
    return (sum(POINTS[c] for c in cards),
            tuple(sorted(((strength[c], c) for c in cards), reverse=True)))


def card_cost(c: Card, ctx: Trumps) -> tuple[int, int, Card]:
    return (POINTS[c], ctx.strength[c], c)


def lowest_cards(cards: Sequence[Card], ctx: Trumps, k: int) -> list[Card]:
    """The platform's default burial (§4): the ``k`` lowest non-trump non-point cards, then the
    lowest of the others (side point cards sit below every trump)."""
    def key(c: Card) -> tuple[int, int, Card]:
        return (int(ctx.is_trump(c) or POINTS[c] > 0), ctx.strength[c], c)
    return sorted(cards, key=key)[:k]


# -- tractors ------------------------------------------------------------------------------


def _longest(avail: Sequence[int]) -> int:
    return max((last - first + 1 for first, last in runs(avail)), default=0)


def tractor_vector(avail: list[int], lengths: Sequence[int], i: int = 0) -> tuple[int, ...]:
    """The best tractors a holding can give for lead tractors ``lengths[i:]`` (longest first):
    the lexicographically largest vector of lengths of disjoint tractors, each at most its
    lead tractor's length; 0 where no tractor is left."""
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
    """Every way to take disjoint tractors of exactly ``lengths``: the pair ids used, sorted."""
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


# -- multisets -----------------------------------------------------------------------------


def _count_subsets(mults: Sequence[int], k: int) -> int:
    """Sub-multisets of size ``k`` of a multiset with these multiplicities."""
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
    """Every sub-multiset of size ``k`` of ``items`` ((card, multiplicity) pairs) from ``i``."""
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


# -- following -----------------------------------------------------------------------------


class _Plan:
    """The structure of the legal follows of one hand to one lead (see the module docstring)."""

    def __init__(self, lead: Lead, hand: Sequence[Card], ctx: Trumps) -> None:
        self.lead, self.ctx = lead, ctx
        self.size = lead.size
        self.suit = sorted(c for c in hand if ctx.group[c] == lead.group)
        self.other = sorted(c for c in hand if ctx.group[c] != lead.group)
        self.short = len(self.suit) <= self.size
        self.fixed: list[Cards] = []  # the structural part of each way to follow
        self.pools: list[list[Card]] = []  # what the free part of that way draws from
        self.free = 0
        if self.short:
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
        """An upper bound on the number of distinct legal follows."""
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


def follows(lead: Lead, hand: Sequence[Card], ctx: Trumps, limit: int = FOLLOW_LIMIT,
            rng: Sampler | None = None) -> tuple[list[Cards], bool]:
    """The legal follows of ``hand`` to ``lead`` (sorted card tuples) and whether that is all.

    Past ``limit`` possible follows: the cheapest (platform §4's 托管 choice) and
    up to ``limit - 1`` others drawn with ``rng``, sorted; ``False``.
    """
    plan = _Plan(lead, hand, ctx)
    if plan.estimate() <= limit:
        return plan.all(), True
    rng = rng or random.Random(0)
    chosen = {plan.cheapest()}
    for _ in range(4 * limit):
        if len(chosen) >= limit:
            break
        chosen.add(plan.sample(rng))
    return sorted(chosen), False


def cheapest_follow(lead: Lead, hand: Sequence[Card], ctx: Trumps) -> Cards:
    """The legal follow with the fewest points, then the lowest cards (托管, platform §4)."""
    return _Plan(lead, hand, ctx).cheapest()


def follow_error(lead: Lead, hand: Sequence[Card], play: Sequence[Card],
                 ctx: Trumps) -> str | None:
    """None if ``play`` (held cards) is a legal follow to ``lead``, else why not, for a player."""
    c, group = lead.size, lead.group
    name = group_name(group)
    noun = "trump" if group == TRUMP else f"{name} card"
    if len(play) != c:
        return f"follow {format_cards(lead.cards)} with {c} card{'s' * (c != 1)}, not {len(play)}"
    suit = [x for x in hand if ctx.group[x] == group]
    mine = [x for x in play if ctx.group[x] == group]
    if len(suit) <= c:
        if len(mine) < len(suit):
            return f"you must play all your {len(suit)} {noun}{'s' * (len(suit) != 1)} first"
        return None
    if len(mine) < c:
        return f"you still hold {noun}s: follow with {c} of them"
    shape = lead.shape
    if shape.tractors:
        want = tractor_vector(pair_profile(suit, ctx), shape.tractors)
        got = tractor_vector(pair_profile(mine, ctx), shape.tractors)
        if got != want:
            i = next(j for j in range(len(want)) if want[j] != got[j])
            return (f"you hold a tractor of {want[i]} pairs in {name}: "
                    f"answer the lead's tractor of {shape.tractors[i]} pairs with it")
    need = min(shape.total_pairs, len(pair_ids(suit)))
    if len(pair_ids(mine)) < need:
        return f"you must play {need} pair{'s' * (need != 1)} of {name} to follow this lead"
    return None


# -- leading -------------------------------------------------------------------------------


def leads(hand: Sequence[Card], ctx: Trumps) -> list[Cards]:
    """Every single, pair and tractor the hand can lead (throws: ``trick.safe_throws``)."""
    counts = Counter(hand)
    faces = sorted(counts)
    out: list[Cards] = [(c,) for c in faces]
    out.extend((c, c) for c in faces if counts[c] >= 2)
    for group in range(TRUMP + 1):
        ids_at: list[list[Card]] = [[] for _ in range(NUM_STEPS)]
        for c in faces:
            if counts[c] >= 2 and ctx.group[c] == group:
                ids_at[ctx.step[c]].append(c)
        for first, last in runs([len(ids) for ids in ids_at]):
            for a in range(first, last):
                for b in range(a + 1, last + 1):
                    for combo in itertools.product(*ids_at[a:b + 1]):
                        out.append(tuple(sorted(combo * 2)))
    return out


__all__ = ["FOLLOW_LIMIT", "card_cost", "cheapest_follow", "cost", "follow_error",
           "follows", "leads", "lowest_cards", "tractor_vector"]
