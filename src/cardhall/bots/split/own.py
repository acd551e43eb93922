"""The split of a few cards on their own: its worth, and the ranks where 2+ of its kickers ride.

The planning policy's bounds subtract the worth of a play's own cards from
the whole hand's (``Policy._bounds``, ``wild_worth``), and must know where the
play's kickers ride two or more of a rank (the search reaches such a union
of splits only where the rest holds at most one there). Both depend on the
rules alone, so the shared, uncapped planner finds them once for every bot.
"""

from __future__ import annotations

from cardhall.bots.split.hands import planner
from cardhall.cards import Rank, to_counts
from cardhall.rules import RuleSet

#: Entries of the shared cache of own splits before it is cleared (bounded memory).
OWN_LIMIT = 1 << 17
#: (rule set name, cards ascending) → the worth of their best split and its riding ranks.
_OWN: dict[tuple[str, tuple[Rank, ...]], tuple[float, tuple[Rank, ...]]] = {}


def own_split(rs: RuleSet, cards: tuple[Rank, ...]) -> tuple[float, tuple[Rank, ...]]:
    """The worth of the best split of ``cards`` (ascending), and the ranks where 2+ kickers ride."""
    key = (rs.name, cards)
    own = _OWN.get(key)
    if own is None:
        split = planner(rs).plan(to_counts(cards))
        riding = tuple(r for g in split.groups for r in set(g.kickers) if g.kickers.count(r) > 1)
        if len(_OWN) > OWN_LIMIT:
            _OWN.clear()
        own = _OWN[key] = (split.worth, riding)
    return own
