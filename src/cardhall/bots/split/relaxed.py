"""The split search with kickers riding at any count of some ranks: an upper bound on worths.

``Policy`` skips a candidate play whose score is bounded below the best found:
the hand it leaves is worth at most the whole hand's worth less that of the
play's own cards, because a split of each is a split of the whole. That fails
where the play's kickers hold a pair (a trio) of a rank the rest holds two or
more of: the search lets a pair ride only as the last cards of its rank, so
the rest's split may carry another pair of that rank, and the union of the two
splits is none the search can reach. Those candidates went unbounded, and in a
two-pack hand they are most of a lead's (``KKK+44`` with ``4444`` in hand):
scored one by one, each a search of its own, nearly all far below the best.

``RelaxedPlanner`` lifts that one rule at those ranks: there a pair or trio
may ride at any count. Every split the plain search reaches it reaches too, at
the same worth, so it finds at least the plain worth of any hand; and a union
of two of its splits is one of its splits where the two only clash at those
ranks. So the rest is worth at most the relaxed worth of the whole hand less
the plain worth of the play's cards: a bound for every candidate.

It searches from the 3s up, as ``mirror`` does, because kickers are low cards:
a state that holds none of the relaxed ranks is searched under the plain rules
from there on, so it is the plain mirrored search's state, and its worth is
taken from (and left in) that search's memo, which the candidates' own searches
then share.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardhall.bots.split.hands import _STEPS
from cardhall.bots.split.mirror import MirrorPlanner
from cardhall.bots.split.packed import FIELD, MASK
from cardhall.bots.split.steps import Family
from cardhall.cards import Rank
from cardhall.rules import RuleSet


class RelaxedPlanner(MirrorPlanner):
    """``MirrorPlanner`` whose pairs and trios ride at any count at some ranks (worths only)."""

    def __init__(self, rs: RuleSet, plain: MirrorPlanner) -> None:
        super().__init__(rs, native=False)  # its C loop is made per rank set (``worth_at``)
        self._plain = plain
        self._ranks: frozenset[Rank] = frozenset()
        #: The relaxed ranks' count fields: a state with none of them set is a plain one.
        self._fields = 0
        #: The loop's steps for the current ranks: relaxed at theirs, the plain table's else.
        self._steps = {}
        self._loose = _STEPS.setdefault(rs.name + self.tables + "/any", {})

    def worth_at(self, counts: Sequence[int], ranks: frozenset[Rank]) -> float:
        """The worth of ``counts`` with pairs and trios riding at any count at ``ranks``."""
        if ranks != self._ranks:
            self._ranks, self._memo, self._path, self._steps = ranks, {}, {}, {}
            self._fields = sum(MASK << (FIELD * self.position(r)) for r in ranks)
            plain = self._plain._core
            if plain is not None:  # the C loop, handing plain states to the plain one's
                self._core = self._native_core(plain, self._fields)
        return self.worth(counts)

    #: ``warm`` builds the relaxed tables of every rank (the plain ones are the plain search's).
    warm_tables = "/any"

    def _warm_at(self, top: Rank, have: int) -> tuple[Family, ...]:
        return self._loose_at(top, have)

    def _expand(self, state: int) -> float:
        if not state & self._fields:
            return self._plain._solve(state)
        return super()._expand(state)

    def _steps_at(self, top: Rank, have: int) -> tuple[Family, ...]:
        key = top << FIELD | have
        if self.position(top) not in self._ranks:
            found = self._plain._steps_at(top, have)
        else:
            found = self._loose_at(top, have)
        self._steps[key] = found
        return found

    def _loose_at(self, top: Rank, have: int) -> tuple[Family, ...]:
        """The steps at ``top`` with pairs and trios riding at any count (shared per rule set)."""
        found = self._loose.get(top << FIELD | have)
        if found is None:
            found = self._loose[top << FIELD | have] = self._build(top, have, True)
        return found
