"""What a split is made of: its plays (``Group``), the split itself (``Plan``), their worths.

A hand is worth what it costs to play out (see ``hands``): every play costs a
turn, and is worth more or less by how likely it is to win its trick.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardhall.cards import ACE, RANK_CHARS, Rank

#: What one more play to make costs: the unit of every worth below.
TURN = 7.0
#: Worth per rank step of a play's key: ``3`` is a liability, ``2`` and the jokers nearly free.
RANK_WEIGHT = 0.7
#: The key rank at which a plain play is "average" (K): keys above it win more tricks.
MIDDLE = 10
#: A bomb wins its trick whatever was played; its worth grows with its place on the ladder.
BOMB_WORTH = 10.0
#: Kickers ride along for free, but the higher the card the more it would be worth alone.
KICKER_COST = 1.0
#: Kickers are low cards: a 2 or a joker is worth more as a play of its own.
KICKER_TOP = ACE

@dataclass(frozen=True, slots=True)
class Group:
    """One play of a split: main cards, kickers once attached, and its worth."""

    kind: str
    main: tuple[Rank, ...]
    key: Rank
    length: int
    tier: int
    worth: float
    kickers: tuple[Rank, ...] = ()

    @property
    def cards(self) -> tuple[Rank, ...]:
        return self.main + self.kickers

    @property
    def text(self) -> str:
        main = "".join(RANK_CHARS[r] for r in sorted(self.main))
        if not self.kickers:
            return main
        return main + "+" + "".join(RANK_CHARS[r] for r in sorted(self.kickers))


@dataclass(frozen=True)
class Plan:
    """The best split found: its total worth and its plays (kickers attached)."""

    worth: float
    groups: tuple[Group, ...] = ()

    @property
    def turns(self) -> int:
        return len(self.groups)

    @property
    def texts(self) -> list[str]:
        """The plays as text, shortest first (a stable order for tests and logs)."""
        return sorted((g.text for g in self.groups), key=lambda t: (len(t), t))


def play_worth(key: Rank, length: int, tier: int) -> float:
    """Worth of one play standing alone, its turn included (the split's unit)."""
    if tier:
        return BOMB_WORTH + tier + 0.1 * key
    chain = 0.5 if length > 1 else 0.0
    return RANK_WEIGHT * (key - MIDDLE) + chain - TURN


def kicker_worth(key: Rank) -> float:
    """A card riding as a kicker: nearly free, a little dearer the higher it is."""
    return -KICKER_COST + 0.05 * key
