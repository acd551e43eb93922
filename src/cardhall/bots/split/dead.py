"""Dead split-search states: kicker debts the rest of the hand can never repay.

The split search (``hands.Planner``) takes one play at a time, and its slot
counters say what the rest of the hand still owes: open slots that cards
still to come must ride in, and kickers that rode ahead of a carrier still to
come (a debt). A state whose debts the rest cannot repay is worth ``-inf``,
and many states of a long hand are such dead ends (a 斗帝主 four carries a
trio: half the states of a dealt hand's search owed a trio or a pair with
nothing left to carry it, say ``33``); the search used to find that out by
expanding each of them and every state below. Its own check of debts runs
only where a play changes the counters, not after a plain play that spends
the cards a carrier needed.

``Dead.hopeless`` rules such a state out with a few popcounts of its packed
hand, chosen per slot-counter value (cached: the counters take few values). A
debt of slot kind ``k`` is repaid only by carriers that open kind ``k`` slots;
the cards of one rank can open at most ``f_k(count)`` of them, the best packing
of carrier units (a unit takes ``width`` cards of its rank and opens its
pattern's slots) into ``count`` cards: ``f_k(3) = 1`` and ``f_k(4) = 2`` where a
trio carries one single and a four two. So the rest repays at most ``sum(f_k(count))``
over its ranks, a sum of popcounts since ``f_k`` is a step function, and all
kinds together at most the same sum with every slot a unit opens counted. That
sum only shrinks along a path (a play takes cards, a rider adds a debt, a
carrier's unit repays what it opens and takes its cards), and a settled empty
hand owes nothing; so a state whose debt exceeds it has no settled completion,
and ruling it out changes no value and no split the search chooses. (Open
slots the rest cannot fill are left to the search: testing for them cost more
than it saved.)
"""

from __future__ import annotations

from cardhall.bots.split.packed import (
    FIELD,
    FIELD_LIMIT,
    GUARD,
    KINDS,
    OFFSET,
    SLOT_BITS,
    SLOT_MASK,
)
from cardhall.cards import NUM_RANKS

#: A debt test: (kickers owed, adders): dead if ``owed > sum(popcount((hand + adder) &
#: GUARD))``, where each adder sets the guard bit of the ranks holding one of the counts at
#: which one more slot can be opened (``_steps``).
_Test = tuple[int, tuple[int, ...]]


def _at_least(count: int) -> int:
    """The adder that sets a rank's guard bit exactly when it holds ``count`` or more."""
    return sum((FIELD_LIMIT - count) << (FIELD * r) for r in range(NUM_RANKS))


class Dead:
    """Rules out search states whose kicker debts cannot be repaid (one per planner)."""

    def __init__(self, carriers: dict[tuple[int, bool], list[tuple[int, ...]]],
                 most_held: int) -> None:
        """``carriers`` as ``Planner._carriers``; ``most_held``: most cards of one rank."""
        units = [(width, option) for (width, _chain), options in carriers.items()
                 for option in options]
        #: Per slot kind, then for all kinds together: the adders counting the slots the
        #: rest's carriers can open (none: no carrier opens that kind).
        self._repay = [_adders([(w, o[k]) for w, o in units if o[k]], most_held)
                       for k in range(KINDS)]
        self._repay_all = _adders([(w, sum(o)) for w, o in units if sum(o)], most_held)
        #: Slot counters → the debt tests of a state with them (None: nothing owed).
        self.tests: dict[int, tuple[_Test, ...] | None] = {}

    @property
    def adders(self) -> tuple[tuple[int, ...], ...]:
        """The adders per slot kind, then for all kinds together (the C loop's tests)."""
        return (*self._repay, self._repay_all)

    def hopeless(self, hand: int, slots: int) -> bool:
        """Whether the packed ``hand`` cannot repay the debts in the slot counters ``slots``."""
        tests = self.tests.get(slots, ())
        if tests == ():
            tests = self.tests[slots] = self._read(slots)
        if tests is None:
            return False
        for owed, adders in tests:
            slots = 0
            for adder in adders:  # a plain loop: a few adders, no generator's cost
                slots += ((hand + adder) & GUARD).bit_count()
            if owed > slots:
                return True
        return False

    def _read(self, slots: int) -> tuple[_Test, ...] | None:
        tests: list[_Test] = []
        total = 0
        for k in range(KINDS):
            owed = OFFSET - ((slots >> (SLOT_BITS * k)) & SLOT_MASK)
            if owed > 0:
                tests.append((owed, self._repay[k]))
                total += owed
        if len(tests) > 1:
            tests.append((total, self._repay_all))
        return tuple(tests) or None


def _adders(units: list[tuple[int, int]], most_held: int) -> tuple[int, ...]:
    """Adders summing to the most slots carrier ``units`` (width, slots) can open per rank.

    ``f(count)``, the best packing of units into ``count`` cards of a rank, is a
    step function; one adder per step (repeated where it steps by more than one).
    """
    best = [0] * (most_held + 1)
    for count in range(1, most_held + 1):
        best[count] = max([best[count - 1]] + [best[count - w] + n for w, n in units
                                               if w <= count])
    return tuple(_at_least(count) for count in range(1, most_held + 1)
                 for _ in range(best[count] - best[count - 1]))
