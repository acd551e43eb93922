"""The split search's moves: a main part it may take out, its riding form, and a split read
back with its kickers on their carriers (``hands.Planner``)."""

from __future__ import annotations

from dataclasses import dataclass

from cardhall.bots.split.packed import KINDS, SLOT_BITS, SLOT_MASK
from cardhall.bots.split.splits import Group, kicker_worth, play_worth
from cardhall.cards import Rank


@dataclass(frozen=True, slots=True)
class Move:
    """A main part the search may take out: its packed cards and what it opens or fills."""

    delta: int
    worth: float
    group: Group
    #: Slots opened, per slot kind (carriers), ``SLOT_BITS`` bits a kind.
    opens: int
    #: Group size when it may ride as a kicker (0: never).
    rides: int


def as_kicker(move: Move, kind_index: int) -> Move:
    """The same cards riding in a slot of kind ``kind_index`` (``rides`` < 0 marks it)."""
    worth = kicker_worth(move.group.key)
    g = move.group
    return Move(move.delta, worth, Group("kicker", g.main, g.key, 1, 0, worth), 0,
                 -1 - kind_index)


def attach(picked: list[Move]) -> list[Group]:
    """Put each kicker on a carrier that opened a slot of its kind, either side of it."""
    plays: list[tuple[Group, list[tuple[int, list[Rank]]]]] = []
    waiting: list[tuple[int, tuple[Rank, ...]]] = []
    for move in picked:
        if move.rides < 0:
            waiting.append((-move.rides - 1, move.group.main))
            continue
        slots: list[tuple[int, list[Rank]]] = [
            (k, []) for k in range(KINDS)
            for _ in range((move.opens >> (SLOT_BITS * k)) & SLOT_MASK)]
        plays.append((move.group, slots))
    for kind_index, cards in waiting:  # highest carrier first, as the search met them
        for group, slots in plays:
            free = next((s for s in slots if s[0] == kind_index and not s[1]
                         and cards[0] not in group.main), None)
            if free is not None:
                free[1].extend(cards)
                break
        else:
            plays.append((Group("single" if len(cards) == 1 else "pair", cards, cards[0],
                                1, 0, play_worth(cards[0], 1, 0)), []))
    out = []
    for group, slots in plays:
        kickers = tuple(sorted(r for _, cards in slots for r in cards))
        out.append(Group(group.kind, group.main, group.key, group.length, group.tier,
                         group.worth, kickers) if kickers else group)
    return sorted(out, key=lambda g: (g.key, len(g.cards)))
