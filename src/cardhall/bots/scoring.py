"""How the planning bot scores candidate plays: by the worth of the hand each leaves.

A decision scores each candidate as a function of the worth of the hand the play
leaves, and that worth costs a split search. Most candidates cannot be the best, and
a bound says so without the search: a split of the rest plus a split of the play's
own cards is a split of the whole hand (``_bounds``), so the best is found first and
the rest are left out (``_scored``). The search asked is the one that shares more
states with what it valued before (``worth_left``: top-down or mirrored), and hands
holding wild cards take bounds of their own (``split.wild_worth``).

Its own module because this is the bot's effort, not its judgement: the rules of
play (going out, blocking, feeding, following) stay in ``planning``, whose
``Policy`` inherits ``CandidateScoring``; ``planning`` re-exports the names below.
"""

from __future__ import annotations

from collections.abc import Callable

from cardhall.bots.split import wild_worth
from cardhall.bots.split.hands import Planner
from cardhall.bots.split.mirror import TIE_MARGIN, MirrorPlanner, fresh_above, fresh_below
from cardhall.bots.split.own import own_split
from cardhall.bots.split.packed import pack
from cardhall.bots.split.relaxed import RelaxedPlanner
from cardhall.bots.view import View, counts_minus
from cardhall.cards import Counts, to_counts
from cardhall.rules import Play, RuleSet

_NO, _INF = float("-inf"), float("inf")

#: Slack on the bound of a candidate's score (sums of the same worths in another order).
BOUND_MARGIN = 1e-6
#: Candidates whose bound needs the relaxed search (see ``Policy._bounds``) worth that
#: search: one search of the whole hand, where scoring a candidate costs a part of one.
#: Over 30 seeded ddz4 games the 99th percentile of states searched per decision is 1 117
#: at 1 or 2, 1 189 at 4, 1 271 at 6 and 1 573 without the relaxed search.
RELAX_AT = 2


class CandidateScoring:
    """The worth of a hand, and the scores of candidate plays by the hand each leaves."""

    rs: RuleSet
    planner: Planner
    mirror: MirrorPlanner | None
    relaxed: RelaxedPlanner | None

    def worth(self, view: View, counts: Counts) -> float:
        if view.wild is not None:
            return self.planner.worth_wild(counts, view.wild)
        return self.planner.worth(counts)

    def worth_left(self, view: View, play: Play,
                   searched: tuple[list[int], list[int]]) -> tuple[float, bool]:
        """``worth`` of the hand ``play`` leaves, from the search that shares more with it.

        The top-down search shares the states below the lowest rank where the
        hand differs from one it valued before, the mirrored one those above the
        highest: the one with fewer of the hand's cards on the other side searches
        less. ``searched`` holds, per search (top-down, mirrored), the cards taken
        out of the hand of the hands it has valued in this decision (packed; 0, the
        whole hand, in both, as the mirrored one shares its first search with every
        later one); the one asked is told of this hand. A play ``KKK+44`` after
        ``AAA+44`` shares the top-down states below the kings, though both searches
        share nothing with the whole hand's between the 4s and the kings.

        The flag says whether the worth is the top-down search's to the last bit
        (the mirrored one sums the same worths in another order). Hands holding
        wild cards, and capped decisions (their budget is the top-down planner's),
        take the top-down search.
        """
        rest = counts_minus(view.hand, play.cards)
        hand, mirror = view.hand, self.mirror
        if mirror is None or self.planner.capped or (view.wild is not None and hand[view.wild]):
            return self.worth(view, rest), True
        taken, left = pack(to_counts(play.cards)), pack(rest)
        down, up = searched
        if fresh_below(taken, up, left) < fresh_above(taken, down, left):
            up.append(taken)
            return mirror.worth(rest), False
        down.append(taken)
        return self.worth(view, rest), True

    def _scored(self, view: View, whole: float,
                candidates: list[tuple[Play, Callable[[float], float], Callable[[float], float]]],
                first: list[tuple[float, Play | None]],
                best_only: bool) -> list[tuple[float, Play | None]]:
        """``first`` and each candidate's score, in candidate order: (play, score, bound).

        A score is a function of the worth of the hand the play leaves, which
        costs a split search. With ``best_only``, a candidate whose score is
        bounded below the best found so far is left out: the hand it leaves is
        worth at most ``whole`` less the worth of its own cards (``_bounds``),
        and the bound function turns that into the score's. The most promising are
        scored first, so the best is found early and most of the rest fall
        below it. A hand holding wild cards is valued greedily, not by an exact
        maximum, and gets bounds of its own (``wild_worth``). On the C loop, where a
        search costs less than a bound saves, every such candidate is valued instead
        (``fast_scores``): the loop built chooses how the best is found, never which
        play it is (``tests/bots/test_either_loop.py``).
        """
        if best_only and view.wild is not None and view.hand[view.wild] \
                and not self.planner.capped:
            if self.planner.fast and self.mirror is not None and self.mirror.fast:
                return first + wild_worth.fast_scores(self.planner, self.mirror, view.hand,
                                                      view.wild, candidates, first)
            scores = wild_worth.WildScores(self.planner, self.mirror, view.hand, view.wild)
            return first + scores.scored(candidates, first)
        if not best_only or (view.wild is not None and view.hand[view.wild]):
            return first + [(score(self.worth(view, counts_minus(view.hand, p.cards))), p)
                            for p, score, _ in candidates]
        bounds, clashing = self._bounds(view.hand, whole, candidates)
        best = max((s for s, _ in first), default=_NO)
        found: dict[int, float] = {}
        close: list[int] = []  # scored from the mirrored search
        searched: tuple[list[int], list[int]] = ([0], [0])  # see worth_left

        def score_down(order: list[int]) -> None:
            """Score ``order``'s candidates by falling bound until one is below the best."""
            nonlocal best
            for i in sorted(order, key=lambda i: -bounds[i]):
                if bounds[i] < best - BOUND_MARGIN:
                    break  # this one and all after it score below the best
                p, score, _ = candidates[i]
                worth, exact = self.worth_left(view, p, searched)
                found[i] = value = score(worth)
                if not exact:
                    close.append(i)
                best = max(best, value)
        # The candidates whose bound needs the relaxed search go last: the best of the
        # others may leave too few of them that it could rule out (those whose bound from
        # the plain worth, a guess at theirs, is below the best) to be worth that search.
        score_down([i for i in range(len(candidates)) if i not in clashing])
        if clashing:
            hopeless = sum(1 for i in clashing if candidates[i][2](
                whole - self._own(candidates[i][0])[0]) < best - BOUND_MARGIN)
            if hopeless >= RELAX_AT and self.relaxed is not None:
                loose = self.relaxed.worth_at(view.hand, frozenset(
                    r for ranks in clashing.values() for r in ranks))
                for i in clashing:
                    bounds[i] = candidates[i][2](loose - self._own(candidates[i][0])[0])
            score_down(list(clashing))
        # Scores that tie the best but for the last bits are ranked as the top-down search's
        # bits rank them (its sums are the ones the choice has always been made on).
        tied = sum(1 for s, _ in first if s >= best - TIE_MARGIN) \
            + sum(1 for v in found.values() if v >= best - TIE_MARGIN)
        if tied > 1:
            for i in close:
                if found[i] >= best - TIE_MARGIN:
                    p, score, _ = candidates[i]
                    found[i] = score(self.worth(view, counts_minus(view.hand, p.cards)))
        return first + [(found[i], candidates[i][0]) for i in sorted(found)]

    def _bounds(self, hand: Counts, whole: float,
                candidates: list[tuple[Play, Callable[[float], float], Callable[[float], float]]]
                ) -> tuple[list[float], dict[int, list[int]]]:
        """The bound on each candidate's score, given the worth of the ``whole`` hand.

        A split of the rest plus a split of the play's cards is a split of the
        hand, so the rest is worth at most ``whole`` less those cards, if the
        search can reach that union. It can when the play's cards split without
        kickers (a plain group goes with any split). Kickers ride under rules
        the union may break: a pair (a trio) rides only as the last cards of
        its rank, so if the rest holds two or more of that rank it might hold
        another riding pair there. Such a play *clashes* (its index maps to
        those ranks; its bound here is ``_INF``): the worth of the hand in the
        search where pairs and trios ride at any count at those ranks bounds it
        instead (``relaxed``: the union is one of its splits; one search for all
        of them, which ``_scored`` makes where enough clash). One card of it in
        the rest is no conflict: a single rides at any count, and a rank's plain
        groups can go first. (The slot counters' limits, at most
        ``packed.MAX_SLOTS`` open and debts the rest can repay, could in
        principle refuse a union too: tests compare the bounded choice with the
        full ranking decision by decision, and hashed
        game traces agree.)
        """
        bounds: list[float] = []
        clashing: dict[int, list[int]] = {}
        for i, (p, _, bound) in enumerate(candidates):
            worth, riding = self._own(p)
            clash = [r for r in riding if hand[r] - p.cards.count(r) > 1] if riding else []
            if clash:
                clashing[i] = clash
            bounds.append(_INF if clash else bound(whole - worth))
        return bounds, clashing

    def _own(self, p: Play) -> tuple[float, tuple[int, ...]]:
        """The worth of the best split of a play's cards, and the ranks where 2+ kickers ride."""
        return own_split(self.rs, _sorted_cards(p))


def _sorted_cards(p: Play) -> tuple[int, ...]:
    """A play's cards ascending (main and kickers are each ascending already)."""
    return p.main if not p.kickers else tuple(sorted(p.main + p.kickers))
