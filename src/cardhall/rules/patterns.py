"""Pattern declarations: what a hand type is, as data the engine reads.

A Dou Dizhu-family hand type is a *main part* (a chain of ``n`` consecutive
ranks, ``width`` cards each; ``n = 1`` for a hand that is not a chain) plus
*kicker groups* per chain unit (``(1,)`` one single per trio of a plane,
``(2, 2)`` two pairs on a four, ``(3, 2)`` the trio and pair of a 连衣裙).
Joker-only hands (rocket, 双王, 天王) are listed as fixed (small, big) counts.
Every variant's type list is a tuple of these, so one generator and one
classifier serve them all; nothing about a variant lives in code.

Kicker rules shared by every variant (ddz-classic K1–K4, emperor Ruling 8):
a kicker never shares a rank with the main part; single kickers may repeat a
rank but never spend the rocket (small and big joker together); kicker groups
of two or more cards each take a distinct rank.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardhall.cards import ACE, NUM_RANKS, THREE, TWO, Rank

#: Ranks a one-rank group may use by default: 3 … 2 (jokers are not a pair, a trio …).
SUITED: tuple[Rank, ...] = tuple(range(THREE, TWO + 1))
#: Every rank, jokers included (singles).
ALL: tuple[Rank, ...] = tuple(range(NUM_RANKS))
#: 3 … 2 plus the jokers: pairs in the two-pack games that allow SJSJ / BJBJ.
WITH_JOKERS: tuple[Rank, ...] = ALL
CHAIN_TOP = ACE


@dataclass(frozen=True, slots=True)
class Pattern:
    """One hand type of a climbing game."""

    kind: str
    #: Cards per rank in the main chain; 0 for a joker-only hand.
    width: int = 0
    #: (shortest, longest) chain; (1, 1) for a hand that is not a chain.
    chain: tuple[int, int] = (1, 1)
    #: Kicker group sizes carried per chain unit.
    kickers: tuple[int, ...] = ()
    #: Place on the bomb ladder (higher beats lower); 0 for a hand that is not a bomb.
    tier: int = 0
    #: Ranks a one-rank main part may use (a chain always uses 3 … A).
    ranks: tuple[Rank, ...] = SUITED
    #: Width of a second chain of the same length, consecutive on its own (飞船's trios).
    second: int = 0
    #: Joker-only hands: the (small, big) joker counts that make this type.
    jokers: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        if 1 in self.kickers and set(self.kickers) != {1}:
            raise ValueError(f"{self.kind}: single kickers cannot mix with kicker groups")
        if not self.jokers and self.width <= 0:
            raise ValueError(f"{self.kind}: a pattern needs a width or joker combinations")

    @property
    def unit(self) -> int:
        """Cards per chain unit, kickers included."""
        return self.width + self.second + sum(self.kickers)

    @property
    def is_chain(self) -> bool:
        return self.chain[1] > 1

    @property
    def single_kickers(self) -> bool:
        return bool(self.kickers) and self.kickers[0] == 1

    def main_ranks(self) -> tuple[Rank, ...]:
        return tuple(range(THREE, CHAIN_TOP + 1)) if self.is_chain else self.ranks
