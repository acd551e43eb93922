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

**Bounded** (issue 25). Nothing here lists what it only needs to count: the
ways to meet the pair and tractor obligations are numbered (``_Plan.way``), a
list is built only once the count says it is at most ``limit`` long, the
multiset walk enters no branch that cannot reach its size, and tractor search
is memoised. A whole hand thrown (31 cards) is answered in milliseconds; it
used never to return.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Protocol, TypeVar

from cardhall.cards import Card, format_cards
from cardhall.rules.trick import (
    NUM_STEPS,
    POINTS,
    TRUMP,
    Lead,
    Trumps,
    group_char,
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


@cache
def _cost_weights(ctx: Trumps) -> tuple[int, ...]:
    """Per card, ``4 ** (its place in (strength, id) order)``: for plays of one size, the sum
    orders them as ``cost``'s second part does (a card's copies number at most 3, so the
    sum's base-4 digits are the copies of each card, compared from the highest)."""
    order = sorted(range(54), key=lambda c: (ctx.strength[c], c))
    weight = [0] * 54
    for place, c in enumerate(order):
        weight[c] = 4 ** place
    return tuple(weight)


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
    lead tractor's length; 0 where no tractor is left.

    A search over placements, bounded: each holding left is solved once (a memo), and
    a placement whose rest matches the lead's lengths exactly ends the search (nothing is
    larger). Without both, five short lead tractors against a follower holding a pair on
    every step tried some 10^5 placements.
    """
    return _vector(avail, tuple(lengths), i, {})


def _vector(avail: list[int], lengths: tuple[int, ...], i: int,
            memo: dict[tuple[tuple[int, ...], int], tuple[int, ...]]) -> tuple[int, ...]:
    if i == len(lengths):
        return ()
    key = (tuple(avail), i)
    known = memo.get(key)
    if known is not None:
        return known
    ideal = lengths[i + 1:]
    top = min(lengths[i], _longest(avail))
    found: tuple[int, ...] = (0,) * (len(lengths) - i)
    for r in range(top, 1, -1):
        best: tuple[int, ...] | None = None
        for first in range(NUM_STEPS - r + 1):
            if all(avail[first + j] for j in range(r)):
                for j in range(r):
                    avail[first + j] -= 1
                cand = (r, *_vector(avail, lengths, i + 1, memo))
                for j in range(r):
                    avail[first + j] += 1
                if best is None or cand > best:
                    best = cand
                if cand[1:] == ideal:
                    break
        if best is not None:
            found = best
            break
    memo[key] = found
    return found


def _placements(ids_at: list[list[Card]], lengths: Sequence[int]) -> list[Cards]:
    """Every way to take disjoint tractors of exactly ``lengths``: the pair ids used, sorted.

    Tractors of equal length are placed in order of their first step (a set of them is
    found once, not once per order: five tractors of two pairs were 5! orders each).
    """
    found: set[Cards] = set()
    used: list[Card] = []

    def place(i: int, low: int) -> None:
        if i == len(lengths):
            found.add(tuple(sorted(used)))
            return
        t = lengths[i]
        for first in range(low, NUM_STEPS - t + 1):
            choices = [[c for c in ids_at[s] if c not in used] for s in range(first, first + t)]
            if all(choices):
                nxt = first if i + 1 < len(lengths) and lengths[i + 1] == t else 0
                for combo in itertools.product(*choices):
                    used.extend(combo)
                    place(i + 1, nxt)
                    del used[-t:]

    place(0, 0)
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


def _subsets(items: Sequence[tuple[Card, int]], k: int) -> Iterator[Cards]:
    """Every sub-multiset of size ``k`` of ``items`` ((card, multiplicity) pairs), most copies
    of the earlier cards first.

    A branch is entered only if the cards after it can still make up the size, so every
    branch yields and the work is the output's size times the number of faces (without the
    check, a short follower's "all my other cards" walked 2^faces dead ends).
    """
    room = [0] * (len(items) + 1)  # room[i]: copies held from items[i] on
    for i in range(len(items) - 1, -1, -1):
        room[i] = room[i + 1] + items[i][1]

    def walk(k: int, i: int) -> Iterator[Cards]:
        if k == 0:
            yield ()
            return
        card, m = items[i]
        for take in range(min(m, k), max(0, k - room[i + 1]) - 1, -1):
            for rest in walk(k - take, i + 1):
                yield (card,) * take + rest

    if k <= room[0]:
        yield from walk(k, 0)


def _minus(cards: Sequence[Card], gone: Sequence[Card]) -> list[Card]:
    left = Counter(cards)
    left.subtract(gone)
    return sorted(left.elements())


# -- following -----------------------------------------------------------------------------


def _unrank(n: int, k: int, j: int) -> list[int]:
    """The ``j``-th ``k``-combination of ``range(n)`` in ``itertools.combinations`` order."""
    out: list[int] = []
    x = 0
    while k:
        below = math.comb(n - x - 1, k - 1)  # the combinations that start with x
        if j < below:
            out.append(x)
            k -= 1
        else:
            j -= below
        x += 1
    return out


class _Plan:
    """The structure of the legal follows of one hand to one lead (see the module docstring).

    The ways to follow are numbered without being listed: a way is a placement of the
    tractors the follower owes, then the further pairs he owes from the pairs left; each
    placement leaves the same number of pairs, so way ``i`` is placement
    ``i // per`` with the ``i % per``-th combination of pairs (``way``). A follower with
    15 pairs owing 7 has 6 435 ways, each any cards beyond: those are only ever counted
    up to the listing limit, drawn from or scanned a bounded few.
    """

    def __init__(self, lead: Lead, hand: Sequence[Card], ctx: Trumps) -> None:
        self.lead, self.ctx = lead, ctx
        self.size = lead.size
        self.suit = sorted(c for c in hand if ctx.group[c] == lead.group)
        self.other = sorted(c for c in hand if ctx.group[c] != lead.group)
        self.short = len(self.suit) <= self.size
        self.free = 0
        self.placed: list[Cards] = [()]  # the tractors' pair ids, per placement
        self.pairs: list[Card] = []
        self.extra = 0  # further pairs owed beyond the tractors
        self.per = 1  # ways per placement
        self._ways: dict[int, tuple[Cards, list[Card]]] = {}
        self._cheapest: Cards | None = None
        self._faces = sorted(Counter(self.suit).items())  # (face, copies held)
        if self.short:
            self.free = self.size - len(self.suit)
            self.count = 1
            return
        shape = lead.shape
        self.pairs = pairs = pair_ids(self.suit)
        need = min(shape.total_pairs, len(pairs))
        self.free = self.size - 2 * need
        if shape.tractors:
            vector = tractor_vector(pair_profile(self.suit, ctx), shape.tractors)
            lengths = [r for r in vector if r >= 2]
            if lengths:
                ids_at: list[list[Card]] = [[] for _ in range(NUM_STEPS)]
                for c in pairs:
                    ids_at[ctx.step[c]].append(c)
                self.placed = _placements(ids_at, lengths)
        tractor_pairs = len(self.placed[0]) if self.placed else 0
        self.extra = need - tractor_pairs
        self.per = math.comb(len(pairs) - tractor_pairs, self.extra)
        self.count = len(self.placed) * self.per

    def way(self, i: int) -> tuple[Cards, list[Card]]:
        """Way ``i``: the cards it must hold (sorted) and what its free cards come from."""
        known = self._ways.get(i)
        if known is not None:
            return known
        if self.short:
            out: tuple[Cards, list[Card]] = (tuple(self.suit), self.other)
        else:
            placed = self.placed[i // self.per]
            rest = [c for c in self.pairs if c not in placed]
            extra = [rest[x] for x in _unrank(len(rest), self.extra, i % self.per)]
            out = self._way((*placed, *extra))
        self._ways[i] = out
        return out

    def _way(self, ids: Cards) -> tuple[Cards, list[Card]]:
        """The way that owes the pairs ``ids``: those pairs (sorted) and the suit's rest."""
        owed = set(ids)
        pool: list[Card] = []
        for c, m in self._faces:
            pool.extend((c,) * (m - 2 if c in owed else m))
        return tuple(sorted(ids * 2)), pool

    def ways(self) -> Iterator[Cards]:
        """The pairs owed by each way, in order (cheaper than ``way`` one by one)."""
        for placed in self.placed:
            rest = [c for c in self.pairs if c not in placed]
            for extra in itertools.combinations(rest, self.extra):
                yield (*placed, *extra)

    def more_than(self, limit: int) -> bool:
        """Whether there may be more than ``limit`` follows: the ways' counts of free cards
        summed (an upper bound; every way gives at least one follow), stopped past ``limit``."""
        if self.count > limit:
            return True
        total = 0
        for i in range(self.count):
            _, pool = self.way(i)
            total += _count_subsets(list(Counter(pool).values()), self.free)
            if total > limit:
                return True
        return False

    def all(self) -> list[Cards]:
        out: set[Cards] = set()
        for i in range(self.count):
            fixed, pool = self.way(i)
            items = sorted(Counter(pool).items())
            for fill in _subsets(items, self.free):
                out.add(tuple(sorted(fixed + fill)))
        return sorted(out)

    def cheapest(self) -> Cards:
        """The cheapest follow among the first 2 000 ways (all of them, but for the
        largest throws); the first found on equal costs."""
        if self._cheapest is not None:
            return self._cheapest
        ctx = self.ctx
        if self.short:
            fill = sorted(self.other, key=lambda c: card_cost(c, ctx))[:self.free]
            self._cheapest = tuple(sorted((*self.suit, *fill)))
            return self._cheapest
        # The suit's faces cheapest first: a way's free cards are the first ``free`` copies
        # left once its owed pairs are taken out.
        by_cost = sorted(self._faces, key=lambda face: card_cost(face[0], ctx))
        weight = _cost_weights(ctx)
        free = self.free
        best: Cards | None = None
        best_cost = (0, 0)
        for ids in itertools.islice(self.ways(), 2000):
            owed = set(ids)
            cand = [c for c in ids for _ in range(2)]
            left = free
            for c, m in by_cost:
                if not left:
                    break
                take = min(m - 2 if c in owed else m, left)
                cand.extend((c,) * take)
                left -= take
            cand_cost = (sum(POINTS[c] for c in cand), sum(weight[c] for c in cand))
            if best is None or cand_cost < best_cost:
                best, best_cost = tuple(sorted(cand)), cand_cost
        assert best is not None
        self._cheapest = best
        return best

    def sample(self, rng: Sampler) -> Cards:
        fixed, pool = self.way(rng.randrange(self.count))
        return tuple(sorted((*fixed, *rng.sample(pool, self.free))))


def follows(lead: Lead, hand: Sequence[Card], ctx: Trumps, limit: int = FOLLOW_LIMIT,
            rng: Sampler | None = None) -> tuple[list[Cards], bool]:
    """The legal follows of ``hand`` to ``lead`` (sorted card tuples) and whether that is all.

    Past ``limit`` possible follows: the cheapest (platform §4's 托管 choice) and
    up to ``limit - 1`` others drawn with ``rng``, sorted; ``False``.
    """
    return _follows(_Plan(lead, hand, ctx), limit, rng)


def follows_within(lead: Lead, hand: Sequence[Card], ctx: Trumps, fit: int,
                   rng: Callable[[], Sampler]) -> tuple[list[Cards], bool]:
    """``follows`` with the default limit, then, if that is a sample longer than ``fit``,
    with the limit ``fit`` (a fresh ``rng()`` each time): the game's list, from one plan."""
    plan = _Plan(lead, hand, ctx)
    plays, complete = _follows(plan, FOLLOW_LIMIT, rng())
    if not complete and len(plays) > fit:
        plays, _ = _follows(plan, fit, rng())
    return plays, complete


def _follows(plan: _Plan, limit: int, rng: Sampler | None) -> tuple[list[Cards], bool]:
    if not plan.more_than(limit):
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


@dataclass(frozen=True, slots=True)
class FollowRefusal:
    """Why a follow is refused: a stable ``reason`` code, its plain-data ``params`` and
    the English ``text`` (the game layer makes it an ``Illegal`` refusal; rules stay
    below games and raise nothing of theirs).

    Reasons: ``wrong_count`` (need, got), ``must_play_all_suit`` (group, held: every
    card of the led suit when one holds no more than the lead), ``must_follow_suit``
    (group, need), ``must_follow_tractor`` (group, pairs, lead_pairs) and
    ``must_follow_pair`` (group, need). ``group`` is ``s h c d`` or ``trump``.
    """

    reason: str
    text: str
    params: dict[str, str | int]


def follow_error(lead: Lead, hand: Sequence[Card], play: Sequence[Card],
                 ctx: Trumps) -> str | None:
    """None if ``play`` (held cards) is a legal follow to ``lead``, else why not, for a player."""
    refusal = follow_refusal(lead, hand, play, ctx)
    return None if refusal is None else refusal.text


def follow_refusal(lead: Lead, hand: Sequence[Card], play: Sequence[Card],
                   ctx: Trumps) -> FollowRefusal | None:
    """None if ``play`` (held cards) is a legal follow to ``lead``, else why not."""
    c, group = lead.size, lead.group
    name = group_name(group)
    noun = "trump" if group == TRUMP else f"{name} card"
    g = group_char(group)
    if len(play) != c:
        return FollowRefusal("wrong_count", f"follow {format_cards(lead.cards)} with {c} "
                             f"card{'s' * (c != 1)}, not {len(play)}", {"need": c,
                                                                        "got": len(play)})
    suit = [x for x in hand if ctx.group[x] == group]
    mine = [x for x in play if ctx.group[x] == group]
    if len(suit) <= c:
        if len(mine) < len(suit):
            return FollowRefusal("must_play_all_suit", f"you must play all your {len(suit)} "
                                 f"{noun}{'s' * (len(suit) != 1)} first",
                                 {"group": g, "held": len(suit)})
        return None
    if len(mine) < c:
        return FollowRefusal("must_follow_suit", f"you still hold {noun}s: follow with {c} "
                             "of them", {"group": g, "need": c})
    shape = lead.shape
    if shape.tractors:
        want = tractor_vector(pair_profile(suit, ctx), shape.tractors)
        got = tractor_vector(pair_profile(mine, ctx), shape.tractors)
        if got != want:
            i = next(j for j in range(len(want)) if want[j] != got[j])
            return FollowRefusal("must_follow_tractor", f"you hold a tractor of {want[i]} "
                                 f"pairs in {name}: answer the lead's tractor of "
                                 f"{shape.tractors[i]} pairs with it",
                                 {"group": g, "pairs": want[i],
                                  "lead_pairs": shape.tractors[i]})
    need = min(shape.total_pairs, len(pair_ids(suit)))
    if len(pair_ids(mine)) < need:
        return FollowRefusal("must_follow_pair", f"you must play {need} "
                             f"pair{'s' * (need != 1)} of {name} to follow this lead",
                             {"group": g, "need": need})
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


__all__ = ["FOLLOW_LIMIT", "FollowRefusal", "card_cost", "cheapest_follow", "cost",
           "follow_error", "follow_refusal", "follows", "follows_within", "leads",
           "lowest_cards", "tractor_vector"]
