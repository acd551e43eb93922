"""A decision's scores for a hand holding wild cards (癞子): ``Planner.worth_wild``'s, with bounds.

A hand holding wild cards is valued greedily (``Planner.worth_wild``): each
wild card in turn goes to the rank where the hand is then worth most, so
valuing the hand a candidate play leaves costs a split search per rank
tried and wild card, and a lead has a hundred candidates: tens of
thousands of search states a decision. The worths themselves are the
greedy's, to the last bit; what is new is what is *not* searched.

**Ranks not tried.** The rest of the hand with its wild cards placed so far
(``Z``) and one more at rank ``r``, and the play's own cards read as played
(the wild cards in it standing where they stand, ``Q``), make a hand the
whole hand makes with its wild cards placed: ``Z + Q + r``. A split of each
is a split of that union, so the try is worth at most the union's worth less
that of the play's cards (``Policy._bounds``' argument, under the same
conditions: no kicker pair or trio of the play riding where the rest holds
two or more, no rank past its count). The unions of every candidate that
places its cards as the whole hand's own greedy does share one family of
hands (``_family``), which that greedy searched already, so the bounds cost
next to nothing; a try bounded below the best try found is not searched.
The greedy breaks ties to the lowest rank: a try is skipped only if its bound
is below the best by a margin, and every try searched is the top-down
search's, so the rank chosen is the one the full greedy chooses.

**Candidates not scored.** A candidate that leaves one wild card is worth
its best try plus the wild card's bonus, so at most the best bound of its
tries plus that: as in ``Policy._scored``, a candidate whose score is bounded
below the best found is left out, the most promising scored first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cardhall.bots.hands import Planner, _useful
from cardhall.bots.hands import planner as shared_planner
from cardhall.bots.packed import FIELD, SLOT_SHIFT
from cardhall.bots.view import counts_minus
from cardhall.cards import TWO, Counts, Rank, to_counts
from cardhall.rules import Play

_NO, _INF = float("-inf"), float("inf")
#: Slack on a bound (sums of the same worths in another order), as ``planning.BOUND_MARGIN``.
BOUND_MARGIN = 1e-6
#: Worths this close tie but for the last bits, as ``planning.TIE_MARGIN``.
TIE_MARGIN = 1e-6
#: The bonus for each wild card held, as in ``Planner.worth_wild``.
WILD_BONUS = 0.5
#: A candidate: the play, its score as a function of the worth left, and its bound.
Candidate = tuple[Play, Callable[[float], float], Callable[[float], float]]


@dataclass(frozen=True, slots=True)
class Worth:
    """A hand's greedy worth, and the top-down state of its placed hand (to value it again)."""

    value: float
    #: Whether ``value`` is the top-down search's to the last bit.
    exact: bool
    state: int
    bonus: float


@dataclass(frozen=True, slots=True)
class _Left:
    """What one candidate leaves, and what bounds the tries of its greedy."""

    rest: Counts
    #: The whole hand less its wild cards plus those the play placed (None: no bounds).
    union: Counts | None
    #: The worth of the play's cards as played, and the ranks where 2+ of its kickers ride.
    own: float
    riding: tuple[Rank, ...]
    #: The search its tries go to (the top-down planner or the mirrored one).
    search: Planner


class WildScores:
    """One decision's worths of the hands a candidate leaves, the hand holding wild cards."""

    def __init__(self, planner: Planner, mirror: Planner | None, hand: Counts,
                 wild: Rank) -> None:
        self.planner = planner
        self.mirror = mirror
        self.hand = hand
        self.wild = wild
        self.limits = planner.rs.limits
        base = list(hand)
        base[wild] = 0
        #: The whole hand without its wild cards, and its own greedy's placements.
        self.base: Counts = tuple(base)
        self.line = _line(planner, self.base, hand[wild], wild, self.limits)
        #: (top-down?, union hand packed by its search) → rank → worth with a card more there.
        self._families: dict[tuple[bool, int], dict[Rank, float]] = {}

    def scored(self, candidates: Sequence[Candidate],
               first: Sequence[tuple[float, Play | None]]) -> list[tuple[float, Play]]:
        """The candidates that may score best, with their scores, in candidate order.

        Every candidate whose score could reach the best (``first``'s included)
        is scored as ``worth_wild`` values the hand it leaves, and where the best
        ties others but for the last bits, each of those from the top-down
        worth, so that the first best is the full ranking's; the others are
        left out, as ``Policy._scored`` leaves them.
        """
        best = max((s for s, _ in first), default=_NO)
        found: dict[int, float] = {}
        worths: dict[int, Worth] = {}
        waiting: list[tuple[float, int, _Left]] = []
        for i, (p, score, bound) in enumerate(candidates):
            rest = counts_minus(self.hand, p.cards)
            left = self._left(p, rest)
            if not rest[self.wild]:
                plain = worths[i] = self._plain(left)
                found[i] = score(plain.value)
                best = max(best, found[i])
                continue
            limit = self._first_bound(left)
            if limit < _INF:
                limit = bound(limit + WILD_BONUS * rest[self.wild])
            waiting.append((limit, i, left))
        # The most promising first, so that the best is found early. With one wild card
        # left the first tries' bound is the candidate's; with more, only a guess at it.
        waiting.sort(key=lambda item: -item[0])
        for limit, i, left in waiting:
            if left.rest[self.wild] == 1 and limit < best - BOUND_MARGIN:
                continue  # it scores below the best
            score, bound = candidates[i][1], candidates[i][2]
            worth = self.worth(left, best, bound)
            if worth is None:
                continue  # its last card's tries are bounded below the best
            worths[i] = worth
            found[i] = score(worth.value)
            best = max(best, found[i])
        tied = sum(1 for s, _ in first if s >= best - TIE_MARGIN) \
            + sum(1 for v in found.values() if v >= best - TIE_MARGIN)
        if tied > 1:
            for i, worth in worths.items():
                if not worth.exact and found[i] >= best - TIE_MARGIN:
                    found[i] = candidates[i][1](self.planner._solve(worth.state) + worth.bonus)
        return [(found[i], candidates[i][0]) for i in sorted(found)]

    # -- the greedy, bounded ---------------------------------------------------------

    def worth(self, left: _Left, cutoff: float = _NO,
              bound: Callable[[float], float] | None = None) -> Worth | None:
        """``Planner.worth_wild(left.rest)``: the same placement, tries bounded below skipped.

        Tries go to ``left.search``; where that is the mirrored one and tries tie
        but for the last bits, the tied are valued top-down again, so that the
        rank chosen is the lowest of the top-down best, as ``worth_wild``'s.
        None if the last card's tries are all bounded and ``bound`` (the
        candidate's score bound) of the best of them is below ``cutoff``.
        """
        planner, search, wild, limits = self.planner, left.search, self.wild, self.limits
        exact_search = search is planner
        base = list(left.rest)
        spare = base[wild]
        base[wild] = 0
        down = planner._pack(base) | (planner._empty_slots << SLOT_SHIFT)
        packed = search._pack(base) | (search._empty_slots << SLOT_SHIFT)
        placed = list(left.union) if left.union is not None else None
        value, exact = _NO, True
        bonus = WILD_BONUS * spare
        for placing in range(spare):
            tries = [r for r in range(TWO + 1) if base[r] < limits[r] and _useful(base, r)]
            family = self._family(placed, search) if placed is not None else None
            order: list[tuple[float, Rank]] = []
            for r in tries:
                limit = _INF
                if family is not None and r in family \
                        and not any(base[q] + (q == r) > 1 for q in left.riding):
                    limit = family[r] - left.own
                order.append((limit, r))
            order.sort(key=lambda item: (-item[0], item[1]))
            if bound is not None and placing == spare - 1 and order and order[0][0] < _INF \
                    and bound(order[0][0] + bonus) < cutoff - BOUND_MARGIN:
                return None
            values: dict[Rank, float] = {}
            best = _NO
            for limit, r in order:
                if limit < best - BOUND_MARGIN:
                    break  # no try after it can reach the best
                v = values[r] = search._solve(packed + (1 << (FIELD * search.position(r))))
                best = max(best, v)
            chosen, value, exact = _choose(planner, down, values, exact_search)
            if chosen is None:
                chosen, value, exact = wild, _NO, True
            base[chosen] += 1
            down += 1 << (FIELD * planner.position(chosen))
            packed += 1 << (FIELD * search.position(chosen))
            if placed is not None:
                placed[chosen] += 1
                if placed[chosen] > limits[chosen]:
                    placed = None  # a union past a rank's count: no bounds from here
        if value == _NO:  # the last card had no rank to try: it stays at its own
            value, exact = planner._solve(down), True
        return Worth(value + bonus, exact, down, bonus)

    def _plain(self, left: _Left) -> Worth:
        """The worth of a rest without wild cards, from the search that shares more with it."""
        planner, search = self.planner, left.search
        state = planner._pack(left.rest) | (planner._empty_slots << SLOT_SHIFT)
        if search is planner:
            return Worth(planner._solve(state), True, state, 0.0)
        return Worth(search.worth(left.rest), False, state, 0.0)

    def _first_bound(self, left: _Left) -> float:
        """The most the first card's tries of ``left.rest`` are worth; inf: no bound.

        With one wild card left, it bounds the hand's worth less the bonus.
        """
        if left.union is None:
            return _INF
        base = list(left.rest)
        base[self.wild] = 0
        tries = [r for r in range(TWO + 1) if base[r] < self.limits[r] and _useful(base, r)]
        family = self._family(list(left.union), left.search)
        if family is None or not tries:
            return _INF
        out = _NO
        for r in tries:
            if r not in family or any(base[q] + (q == r) > 1 for q in left.riding):
                return _INF
            out = max(out, family[r] - left.own)
        return out

    def _family(self, union: list[int], search: Planner) -> dict[Rank, float] | None:
        """The union hand's worths with one card more at each rank, if on the main line.

        Only the hands the whole hand's own greedy placed its cards on get a
        family (their top-down states are that greedy's already); any other
        union gets none. A rank at its count gets no entry: no bound there.
        """
        if self.planner._pack(union) not in self.line:
            return None
        packed = search._pack(union)
        key = (search is self.planner, packed)
        found = self._families.get(key)
        if found is None:
            state = packed | (search._empty_slots << SLOT_SHIFT)
            found = self._families[key] = {
                r: search._solve(state + (1 << (FIELD * search.position(r))))
                for r in range(TWO + 1) if union[r] < self.limits[r] and _useful(union, r)}
        return found

    def _left(self, p: Play, rest: Counts) -> _Left:
        """What ``p`` leaves: the union of its cards as played with the whole hand, its search.

        A wild card in the play stands for the rank its reading gives
        (``as_main`` / ``as_kickers``). The search is the one that shares more
        with the family's hands: top-down shares their states below the play's
        lowest rank, mirrored those above its highest.
        """
        main = p.as_main if p.as_main is not None else p.main
        kickers = p.as_kickers if p.as_kickers is not None else p.kickers
        natural = to_counts(main + kickers)
        played = to_counts(p.cards)
        search = self.planner
        ranks = [r for r in p.cards if r != self.wild]
        if ranks and self.mirror is not None:
            low, high = min(ranks), max(ranks)
            above = sum(n for r, n in enumerate(rest) if r >= low and r != self.wild)
            below = sum(n for r, n in enumerate(rest) if r <= high and r != self.wild)
            if below < above:
                search = self.mirror
        union = list(self.base)
        for r, n in enumerate(natural):
            union[r] += n - (played[r] if r != self.wild else 0)
            if union[r] < 0 or union[r] > self.limits[r]:
                return _Left(rest, None, 0.0, (), search)
        split = shared_planner(self.planner.rs).plan(natural)
        riding = tuple(r for g in split.groups for r in set(g.kickers) if g.kickers.count(r) > 1)
        return _Left(rest, tuple(union), split.worth, riding, search)


def _choose(planner: Planner, down: int, values: dict[Rank, float],
            exact: bool) -> tuple[Rank | None, float, bool]:
    """The lowest rank of the best worth as the top-down worths rank them, its worth, exact?

    ``values`` are the top-down search's if ``exact``; else those within
    ``TIE_MARGIN`` of the best, if more than one, are valued top-down again.
    """
    if not values:
        return None, _NO, True
    top = max(values.values())
    if top == _NO:
        return None, _NO, True  # worth_wild keeps the wild card at its own rank then
    close = sorted(r for r, v in values.items() if v >= top - TIE_MARGIN)
    if not exact and len(close) == 1:
        return close[0], top, False
    chosen, best = None, _NO
    for r in close:
        v = values[r] if exact else planner._solve(down + (1 << (FIELD * planner.position(r))))
        if v > best:
            chosen, best = r, v
    return chosen, best, True


def _line(planner: Planner, base: Counts, spare: int, wild: Rank,
          limits: Sequence[int]) -> set[int]:
    """The hands (packed, no slots) the whole hand's greedy places its wild cards on."""
    counts = list(base)
    line = {planner._pack(counts)}
    packed = planner._pack(counts) | (planner._empty_slots << SLOT_SHIFT)
    for _ in range(spare):
        best, chosen = _NO, wild
        for r in range(TWO + 1):
            if counts[r] >= limits[r] or not _useful(counts, r):
                continue
            value = planner._solve(packed + (1 << (FIELD * planner.position(r))))
            if value > best:
                best, chosen = value, r
        counts[chosen] += 1
        packed += 1 << (FIELD * planner.position(chosen))
        line.add(planner._pack(counts))
    return line
