"""保皇: how many plays of the unseen cards beat a set, counted without listing them.

The planning policy asks, of a play it might make, how many answers the
opponents' pooled cards hold that are no bigger than the largest opponent
hand (``Policy.beatable``, ``answers``): a play with none is unbeatable. For
the ladder games the move generator lists them fast; ``rules.sets.moves``
builds every play of the pool (a play object for each set and joker choice,
thousands for the 70-odd unseen cards of a first lead) and compares each, and
a lead asks it once per play of its split: most of a slow 保皇 decision.

Without 烤牌 (or against a play holding no joker) an answer has as many
cards as the play, and beats it when, both sorted high to low, each card is
strictly higher than its partner (Ruling 14). An answer of ``b`` big jokers,
``s`` small ones and ``k`` cards of one rank sorts as ``BJ^b SJ^s r^k``, so
against the play's cards ``old`` (high to low) that is three tests: ``old[0]``
below a big joker if ``b``, ``old[b]`` below a small one if ``s``, ``old[b +
s]`` below ``r`` if ``k``; what is left to count is the ranks held ``k``
times or more above ``old[b + s]``. (憋6, a set of 6s only as the last play,
never matters: 6 is the lowest rank dealt, so a set of 6s beats nothing.) 烤牌
against a play holding a joker covers cards group by group, any number of
cards: those few decisions ask ``sets.moves``.
"""

from __future__ import annotations

from cardhall.cards import BIG_JOKER, SMALL_JOKER, TWO, Counts
from cardhall.rules import Play, RuleSet


def count(rs: RuleSet, pool: Counts, play: Play, most: int) -> int:
    """Plays of ``pool`` that beat ``play`` with at most ``most`` cards (``sets.moves``'s)."""
    cards = play.cards
    if rs.kaopai and (SMALL_JOKER in cards or BIG_JOKER in cards):
        return sum(1 for p in rs.moves(pool, play) if p.size <= most)
    n = len(cards)
    if n > most:
        return 0
    old = sorted(cards, reverse=True)
    small, big = pool[SMALL_JOKER], pool[BIG_JOKER]
    found = 0
    for b in range(min(big, n) + 1):
        if b and old[0] >= BIG_JOKER:
            break
        for s in range(min(small, n - b) + 1):
            if s and old[b] >= SMALL_JOKER:
                break
            k = n - b - s
            if not k:
                found += 1  # jokers alone
                continue
            below = old[b + s]
            for r in range(below + 1, TWO + 1):
                if pool[r] >= k:
                    found += 1
    return found
