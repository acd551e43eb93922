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

``Dead.hopeless`` rules such a state out with a popcount or two of its packed
hand, chosen per slot-counter value (cached: the counters take few values). A
debt of slot kind ``k`` is repaid only by carriers that open kind ``k``
slots, at most ``most`` a chain unit, and each unit takes ``width`` cards of
one rank: so by at most ``most * sum(count // width)`` over the rest's
ranks. That sum only shrinks along a path (a play takes cards, a rider adds
a debt, a carrier's unit repays at most ``most`` and takes ``width`` cards of
its rank), and a settled empty hand owes nothing; so a state whose debt
exceeds it has no settled completion, and ruling it out changes no value and
no split the search chooses. (Open slots the rest cannot fill are left to the
search: testing for them cost more than it saved.)
"""

from __future__ import annotations

from cardhall.bots.packed import FIELD, FIELD_LIMIT, GUARD, KINDS, OFFSET, SLOT_BITS, SLOT_MASK
from cardhall.cards import NUM_RANKS

#: A debt test: (kickers owed, adders, most): dead if ``owed > most * sum(popcount((hand +
#: adder) & GUARD))``, where each adder sets the guard bit of the ranks holding a multiple of
#: the carriers' width or more.
_Test = tuple[int, tuple[int, ...], int]


def _at_least(count: int) -> int:
    """The adder that sets a rank's guard bit exactly when it holds ``count`` or more."""
    return sum((FIELD_LIMIT - count) << (FIELD * r) for r in range(NUM_RANKS))


class Dead:
    """Rules out search states whose kicker debts cannot be repaid (one per planner)."""

    def __init__(self, carriers: dict[tuple[int, bool], list[tuple[int, ...]]],
                 most_held: int) -> None:
        """``carriers`` as ``Planner._carriers``; ``most_held``: most cards of one rank."""
        #: Per slot kind: the adders counting carrier units, and most slots a unit opens
        #: (no adders: no carrier opens that kind).
        self._repay: list[tuple[tuple[int, ...], int]] = []
        for k in range(KINDS):
            opening = [(width, option[k]) for (width, _chain), options in carriers.items()
                       for option in options if option[k]]
            width = min((w for w, _ in opening), default=most_held + 1)
            self._repay.append((tuple(_at_least(n) for n in range(width, most_held + 1, width)),
                                max((n for _, n in opening), default=0)))
        #: Slot counters → the debt tests of a state with them (None: nothing owed).
        self._tests: dict[int, tuple[_Test, ...] | None] = {}

    def hopeless(self, hand: int, slots: int) -> bool:
        """Whether the packed ``hand`` cannot repay the debts in the slot counters ``slots``."""
        tests = self._tests.get(slots, ())
        if tests == ():
            tests = self._tests[slots] = self._read(slots)
        if tests is None:
            return False
        for owed, adders, most in tests:
            units = 0
            for adder in adders:  # a plain loop: one or two adders, no generator's cost
                units += ((hand + adder) & GUARD).bit_count()
            if owed > most * units:
                return True
        return False

    def _read(self, slots: int) -> tuple[_Test, ...] | None:
        tests: list[_Test] = []
        for k in range(KINDS):
            owed = OFFSET - ((slots >> (SLOT_BITS * k)) & SLOT_MASK)
            if owed > 0:
                tests.append((owed, *self._repay[k]))
        return tuple(tests) or None
