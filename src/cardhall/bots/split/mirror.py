"""The split search run from the lowest rank up: the same worths, other shared states.

``hands.Planner`` takes the highest card first, so the hands a lead's
candidates leave share its states below the play: a 2 or a king played costs
a handful of new states, but a 3 played changes every state of the search
and costs a search of the whole hand again (a thousand states and more in a
34-card hand). Most of a lead's candidates are low plays. ``MirrorPlanner``
packs the ranks in reverse and takes, at each state, the plays that *start*
at the lowest rank held, so the hands low plays leave share its states above
the play instead. Both searches try every split of the hand with the same
kicker rules and counters (a carrier met first opens slots, a kicker met
first is a debt), so both find the same best worth; ``Policy`` asks each
candidate of whichever search shares more with it.

Worths are summed in another order, so the two may differ in the last bits:
where that could decide (``TIE_MARGIN``), the top-down worth is taken.
"""

from __future__ import annotations

from cardhall.bots.split.hands import Planner
from cardhall.bots.split.moves import Move
from cardhall.bots.split.packed import FIELD, card_count
from cardhall.cards import NUM_RANKS, Rank


class MirrorPlanner(Planner):
    """``Planner`` from the 3s up (its packed ranks reversed); worths only, no wild cards."""

    tables = "/mirror"
    mirrored = True

    def _moves_at(self, top: Rank, have: int) -> list[Move]:
        """The main parts whose *lowest* card is the rank at ``top``, given ``have`` of it."""
        cached = self._moves.get((top, have))
        if cached is None:
            low = NUM_RANKS - 1 - top
            cached = self._moves[top, have] = [
                m for high in range(low, NUM_RANKS) for m in self._ending_at(high)
                if min(m.group.main) == low and m.group.main.count(low) <= have]
        return cached

    def _ending_at(self, high: Rank) -> list[Move]:
        """Every main part whose highest card is ``high`` (packed in reverse), made once."""
        found = _ENDING.setdefault(self.rs.name, {}).get(high)
        if found is None:
            found = _ENDING[self.rs.name][high] = self._generate(high, self.rs.limits[high])
        return found


#: Scores this close to the best tie but for the last bits: the two searches sum the same
#: worths (multiples of 0.05) in other orders, so tied candidates scored from the mirrored
#: one are scored again from the top-down one, whose bits break the tie.
TIE_MARGIN = 1e-6
#: Rule set name → highest rank → the main parts ending there, packed in reverse.
_ENDING: dict[str, dict[Rank, list[Move]]] = {}


def fresh_above(taken: int, seen: list[int], rest: int) -> int:
    """Cards of ``rest`` the top-down search meets before it reaches states it has seen.

    ``taken`` and ``seen`` are the cards taken out of the hand, packed: the states
    below the lowest rank where ``taken`` differs from one in ``seen`` are shared.
    """
    lowest = 0  # the lowest differing rank's bit, highest over ``seen``
    for other in seen:
        differ = other ^ taken
        if not differ:
            return 0
        lowest = max(lowest, differ & -differ)
    return card_count(rest >> (FIELD * ((lowest.bit_length() - 1) // FIELD)))


def fresh_below(taken: int, seen: list[int], rest: int) -> int:
    """``fresh_above`` for the mirrored search: the states above the highest rank differing."""
    highest = min(other ^ taken for other in seen)
    if not highest:
        return 0
    return card_count(rest & ((1 << (FIELD * ((highest.bit_length() - 1) // FIELD + 1))) - 1))
