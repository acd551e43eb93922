"""The split search's loop steps at one top rank, grouped so the loop skips what is not held.

At a state the search tries every main part whose highest (``mirror``: lowest)
card is the state's top rank: for a king in a two-pack game some fifty, most
of them chains the hand cannot make. Testing each one's cards against the
hand was most of the loop's cost. Here the plays are grouped into
*families*, each a run of ever larger card sets (a straight of 5, of 6, ...;
a pair chain of 3, of 4, ...): a play holds every card of the one before it,
so once one is not in hand, none after it is, and the loop leaves the family
at the first miss. Plays with the same cards (a main part bare and with each
of its kicker options) share one test.

The loop then meets the plays in another order than the table's, which
matters only where two plays tie for the best worth: each step keeps its
place in the table (``index``), and the search breaks ties by it, so it
chooses what the table order chose.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardhall.bots.split.packed import GUARD, card_count

#: One step: (worth, opens, slot unit it rides in, worth riding, the move's number, its
#: riding form's number or -1, its card count, its place in the table).
Step = tuple[float, int, int, float, int, int, int, int]
#: A family: (packed cards, the steps with exactly those cards), each holding the last's cards.
Family = tuple[tuple[int, tuple[Step, ...]], ...]


def families(deltas: Sequence[int], steps: Sequence[Step]) -> tuple[Family, ...]:
    """``steps`` (with their packed cards ``deltas``) as families of nested card sets."""
    by_cards: dict[int, list[Step]] = {}
    for delta, step in zip(deltas, steps, strict=True):
        by_cards.setdefault(delta, []).append(step)
    out: list[list[tuple[int, tuple[Step, ...]]]] = []
    for delta in sorted(by_cards, key=card_count):
        group = (delta, tuple(by_cards[delta]))
        for family in out:
            if _holds(delta, family[-1][0]):
                family.append(group)
                break
        else:
            out.append([group])
    return tuple(tuple(family) for family in out)


def _holds(bigger: int, smaller: int) -> bool:
    """Whether packed cards ``bigger`` hold every card of ``smaller`` (rank by rank)."""
    return ((bigger | GUARD) - smaller) & GUARD == GUARD
