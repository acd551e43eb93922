"""A decision's scores for a hand holding wild cards (癞子): ``Planner.worth_wild``'s, bounded.

A hand holding wild cards is valued greedily (``Planner.worth_wild``): each
wild card in turn goes to the rank where the hand is then worth most, so
valuing the hand a candidate play leaves costs a split search per rank
tried and wild card, and a lead has 100-300 candidates: tens of thousands
of search states a decision. The worths here are the greedy's; what is new
is what is *not* searched.

**Ranks not tried.** The whole hand's own greedy places its wild cards on a
*line* of hands (``_line``: the base, then one more placed card each). A
candidate's try is the rest of the hand without its wild cards, the ones
placed so far (``placed``) and one more at rank ``r``; add the play's other
cards and the line's placements that ``placed`` has not made, and it is a
line hand plus ``r``, whose worth the whole hand's greedy searched (the
line's *family*, ``_family``). A split of each part is a split of that
hand, so the try is worth at most the family's worth less the split of the
added cards (``Policy._bounds``' argument, under its conditions: no kicker
pair or trio of theirs riding where the try holds two or more, no rank past
its count). A try bounded below the best try found is not searched. The
greedy breaks ties to the lowest rank: a try is skipped only below the best
by a margin.

**Candidates not scored.** A candidate left with one wild card is worth its
best try plus the card's bonus, one left with none its split (bounded the
same way): so, as in ``Policy._scored``, a candidate bounded below the best
found is left out, the most promising scored first; one left with more is
left out at its last card, if every try of it is bounded below the best.

**Two searches.** A low play's tries go to the mirrored search (``mirror``),
which shares their states above the play; it sums the same worths in another
order, so tries (and candidates) that tie the best but for the last bits
are valued top-down again, whose bits the greedy's choice is made on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cardhall.bots.split.hands import Planner, _useful
from cardhall.bots.split.mirror import TIE_MARGIN
from cardhall.bots.split.own import own_split
from cardhall.bots.split.packed import FIELD, GUARD, SLOT_SHIFT, pack, unpack
from cardhall.bots.view import counts_minus
from cardhall.cards import TWO, Counts, Rank, from_counts
from cardhall.rules import Play

_NO, _INF = float("-inf"), float("inf")
#: Slack on a bound (sums of the same worths in another order), as ``scoring.BOUND_MARGIN``.
BOUND_MARGIN = 1e-6
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
    """What one candidate leaves, and the search its greedy's tries go to."""

    rest: Counts
    #: The play's cards other than wild cards (the whole hand's base less the rest's).
    real: Counts
    #: The same, packed (``packed.pack``).
    real_packed: int
    #: The top-down planner or the mirrored one.
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
        #: The whole hand without its wild cards.
        self.base: Counts = tuple(base)
        #: The whole hand's own greedy: the cards it has placed after each wild card (none
        #: first), whose hands (``base`` plus them) have ``_family`` bounds.
        self.line = _line(planner, self.base, hand[wild], wild, self.limits)
        self._line_packed = [pack(line) for line in self.line]
        #: Packed cards → their ``own_split`` (the same few cards come back every try).
        self._splits: dict[int, tuple[float, tuple[Rank, ...]]] = {}
        #: Line index → rank → the line hand's worth with a card more there.
        self._families: dict[int, dict[Rank, float]] = {}

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
        for i, (p, _score, bound) in enumerate(candidates):
            rest = counts_minus(self.hand, p.cards)
            left = self._left(p, rest)
            if not rest[self.wild]:
                limit = self._plain_bound(left)
            else:
                base = list(rest)
                base[self.wild] = 0
                tries = self._tries(left, base, 0)
                limit = max((t for t, _ in tries), default=_INF)
            if limit < _INF:
                limit = bound(limit + WILD_BONUS * rest[self.wild])
            waiting.append((limit, i, left))
        # The most promising first, so that the best is found early. With one wild card
        # left or none the bound is the candidate's; with more, only a guess at it.
        waiting.sort(key=lambda item: -item[0])
        for limit, i, left in waiting:
            if left.rest[self.wild] <= 1 and limit < best - BOUND_MARGIN:
                continue  # it scores below the best
            score, bound = candidates[i][1], candidates[i][2]
            if not left.rest[self.wild]:
                plain = worths[i] = self._plain(left)
                found[i] = score(plain.value)
                best = max(best, found[i])
                continue
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
        planner, search, wild = self.planner, left.search, self.wild
        exact_search = search is planner
        base = list(left.rest)
        spare = base[wild]
        base[wild] = 0
        down = planner._pack(base) | (planner._empty_slots << SLOT_SHIFT)
        packed = search._pack(base) | (search._empty_slots << SLOT_SHIFT)
        placed = 0  # the wild cards placed so far, packed
        value, exact = _NO, True
        bonus = WILD_BONUS * spare
        for placing in range(spare):
            order = self._tries(left, base, placed)
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
            placed += 1 << (FIELD * chosen)
            down += 1 << (FIELD * planner.position(chosen))
            packed += 1 << (FIELD * search.position(chosen))
        if value == _NO:  # the last card had no rank to try: it stays at its own
            value, exact = planner._solve(down), True
        return Worth(value + bonus, exact, down, bonus)

    def _tries(self, left: _Left, base: list[int], placed: int) -> list[tuple[float, Rank]]:
        """The ranks the next wild card is tried at, each with a bound on that try (inf: none).

        ``base`` is the rest without wild cards plus those ``placed`` (packed). The
        try (``base`` and one card at ``r``) and the cards ``extra`` = the play's
        own plus the line's placements less ``placed`` make a line hand plus one
        card at ``r``; so the try is worth at most that family's worth less the
        split of ``extra`` (where ``placed`` is within the line's cards, nothing
        rides that the search could not reach, and no rank is past its count: the
        family holds only ranks below their count).
        """
        limits = self.limits
        options: list[tuple[dict[Rank, float], float, tuple[Rank, ...]]] = []
        for j, line in enumerate(self._line_packed):
            if ((line | GUARD) - placed) & GUARD == GUARD:  # placed within the line's cards
                own, riding = self._split(left.real_packed + line - placed)
                options.append((self._family(j), own, riding))
        out: list[tuple[float, Rank]] = []
        for r in range(TWO + 1):
            if base[r] >= limits[r] or not _useful(base, r):
                continue
            limit = _INF
            for family, own, riding in options:
                worth = family.get(r)
                if worth is not None and worth - own < limit \
                        and not any(base[q] + (q == r) > 1 for q in riding):
                    limit = worth - own
            out.append((limit, r))
        return out

    def _plain_bound(self, left: _Left) -> float:
        """The most a rest without wild cards is worth (inf: no bound).

        The rest and the play's cards plus a line hand's placements make that
        line hand: the rest is worth at most its worth less their split's.
        """
        planner = self.planner
        out = _INF
        for line, packed in zip(self.line, self._line_packed, strict=True):
            own, riding = self._split(left.real_packed + packed)
            if any(left.rest[q] > 1 for q in riding):
                continue
            hand = [a + b for a, b in zip(self.base, line, strict=True)]
            whole = planner._solve(planner._pack(hand) | (planner._empty_slots << SLOT_SHIFT))
            out = min(out, whole - own)
        return out

    def _plain(self, left: _Left) -> Worth:
        """The worth of a rest without wild cards, from the search that shares more with it."""
        planner, search = self.planner, left.search
        state = planner._pack(left.rest) | (planner._empty_slots << SLOT_SHIFT)
        if search is planner:
            return Worth(planner._solve(state), True, state, 0.0)
        return Worth(search.worth(left.rest), False, state, 0.0)

    def _family(self, j: int) -> dict[Rank, float]:
        """The ``j``-th line hand's worths with one card more at each rank below its count.

        Top-down: but for the last line hand's, the whole hand's greedy's tries,
        searched already. (Bounds, not worths: the mirrored tries share enough.)
        """
        found = self._families.get(j)
        if found is None:
            planner = self.planner
            hand = [a + b for a, b in zip(self.base, self.line[j], strict=True)]
            state = planner._pack(hand) | (planner._empty_slots << SLOT_SHIFT)
            found = self._families[j] = {
                r: planner._solve(state + (1 << (FIELD * planner.position(r))))
                for r in range(TWO + 1) if hand[r] < self.limits[r] and _useful(hand, r)}
        return found

    def _split(self, cards: int) -> tuple[float, tuple[Rank, ...]]:
        """``own.own_split`` of ``cards`` (packed), kept for this decision by the packed int."""
        found = self._splits.get(cards)
        if found is None:
            found = self._splits[cards] = own_split(self.planner.rs, from_counts(unpack(cards)))
        return found

    def _left(self, p: Play, rest: Counts) -> _Left:
        """What ``p`` leaves, and the search that shares more with the line's hands.

        Top-down shares their states below the play's lowest rank, mirrored
        those above its highest: the side with fewer of the rest's cards.
        """
        real = [0 if r == self.wild else self.base[r] - n for r, n in enumerate(rest)]
        search = self.planner
        ranks = [r for r in p.cards if r != self.wild]
        if ranks and self.mirror is not None:
            low, high = min(ranks), max(ranks)
            above = sum(n for r, n in enumerate(rest) if r >= low and r != self.wild)
            below = sum(n for r, n in enumerate(rest) if r <= high and r != self.wild)
            if below < above:
                search = self.mirror
        return _Left(rest, tuple(real), pack(real), search)


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
          limits: Sequence[int]) -> list[Counts]:
    """The whole hand's greedy (``worth_wild``'s): the cards placed after each card, none first.

    Stops before the last card: its hand's family would be searches of its own.
    """
    counts = list(base)
    placed = [0] * len(base)
    line = [tuple(placed)]
    packed = planner._pack(counts) | (planner._empty_slots << SLOT_SHIFT)
    for _ in range(spare - 1):
        best, chosen = _NO, wild
        for r in range(TWO + 1):
            if counts[r] >= limits[r] or not _useful(counts, r):
                continue
            value = planner._solve(packed + (1 << (FIELD * planner.position(r))))
            if value > best:
                best, chosen = value, r
        counts[chosen] += 1
        placed[chosen] += 1
        packed += 1 << (FIELD * planner.position(chosen))
        line.append(tuple(placed))
    return line


def fast_scores(planner: Planner, mirror: Planner, hand: Counts, wild: Rank,
                candidates: Sequence[Candidate],
                first: Sequence[tuple[float, Play | None]]) -> list[tuple[float, Play]]:
    """Every candidate's score as ``worth_wild`` values the hand it leaves, on the C loop.

    There a search costs less than the bounds above would save, so every
    candidate is valued; each try of its greedy goes to the search meeting fewer
    new cards (``_search.c``'s ``worth_wild_two`` re-values a round's near-tied
    tries top-down, so the ranks placed are the top-down greedy's), and where
    candidates tie the best but for the last bits, the ones valued by the
    mirrored search are valued top-down again, as ``WildScores.scored`` does.
    """
    core, up_core = planner._core, mirror._core
    assert core is not None and up_core is not None
    base = list(hand)
    base[wild] = 0
    # The whole hand without its wild cards, packed for each search; the C loop takes each
    # play's cards out of it and values what is left (each try as described above).
    whole_down = planner._pack(base) | (planner._empty_slots << SLOT_SHIFT)
    whole_up = mirror._pack(base) | (mirror._empty_slots << SLOT_SHIFT)
    worths = core.wild_worths([p for p, _score, _bound in candidates], whole_down, whole_up,
                              hand[wild], wild, planner.rs.limits, up_core, TIE_MARGIN)
    scores = [c[1](w[0]) for c, w in zip(candidates, worths, strict=True)]
    best = max([s for s, _ in first] + scores, default=_NO)
    tied = sum(1 for s, _ in first if s >= best - TIE_MARGIN) \
        + sum(1 for s in scores if s >= best - TIE_MARGIN)
    if tied > 1:
        for i, (_worth, exact, state, bonus) in enumerate(worths):
            if not exact and scores[i] >= best - TIE_MARGIN:
                scores[i] = candidates[i][1](core.solve(state) + bonus)
    return [(s, c[0]) for s, c in zip(scores, candidates, strict=True)]
