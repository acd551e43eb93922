"""保皇 hands (baohuang.md §3): sets of one rank, jokers, and jokers hung on a set.

There are no chains and no bombs. A hand is ``k`` cards of one rank 6 … 2
(a set, 套牌), jokers alone (王牌), or jokers hung on a set (王挂牌); its
text puts the set first and the hung jokers after ``+`` (``77+D``).

Comparison is not a ladder: the follower must beat *every* card
(Ruling 14: sort both hands high to low, each card strictly higher than its
partner). With the 烤牌 option, when the last hand holds a joker, each of its
cards may instead be covered by its own group (a rank by one higher card, SJ
by one BJ or two SJ, BJ by two BJ or three SJ) with only jokers left over
(Ruling 15). With 憋6, a play holding a 6 must empty the hand (Ruling 17).
"""

from __future__ import annotations

from collections.abc import Sequence

from cardhall.cards import BIG_JOKER, SIX, SMALL_JOKER, TWO, Rank
from cardhall.rules.plays import Play

SET, JOKERS, HUNG = "set", "jokers", "hung"
JOKER_SET = frozenset((SMALL_JOKER, BIG_JOKER))


def _play(rank: Rank | None, k: int, small: int, big: int) -> Play:
    jokers = (SMALL_JOKER,) * small + (BIG_JOKER,) * big
    if rank is None:
        return Play(JOKERS, BIG_JOKER if big else SMALL_JOKER, 1, jokers)
    return Play(HUNG if jokers else SET, rank, 1, (rank,) * k, jokers)


def classify(counts: Sequence[int]) -> list[Play]:
    ranks = [r for r in range(TWO + 1) if counts[r]]
    small, big = counts[SMALL_JOKER], counts[BIG_JOKER]
    if len(ranks) > 1 or not sum(counts):
        return []
    if not ranks:
        return [_play(None, 0, small, big)]
    return [_play(ranks[0], counts[ranks[0]], small, big)]


def dominates(new: Sequence[Rank], old: Sequence[Rank]) -> bool:
    """Normal rule: same count, each card strictly above its partner when both are sorted."""
    if len(new) != len(old):
        return False
    return all(a > b for a, b in zip(sorted(new, reverse=True), sorted(old, reverse=True),
                                     strict=True))


def roasts(new: Play, old: Play) -> bool:
    """烤牌: every card of ``old`` covered by its own group of ``new``; leftovers are jokers."""
    n_small, n_big = new.cards.count(SMALL_JOKER), new.cards.count(BIG_JOKER)
    o_small, o_big = old.cards.count(SMALL_JOKER), old.cards.count(BIG_JOKER)
    new_plain = new.size - n_small - n_big
    old_plain = old.size - o_small - o_big
    # Plain cards can only cover plain cards: one each, of a higher rank.
    if new_plain and (new_plain > old_plain or new.key <= old.key):
        return False
    uncovered = old_plain - new_plain  # plain cards of ``old`` that jokers must cover
    for big_by_big in range(o_big + 1):  # BJ ← 2 BJ, else 3 SJ
        for small_by_big in range(o_small + 1):  # SJ ← 1 BJ, else 2 SJ
            big_used = 2 * big_by_big + small_by_big
            small_used = 3 * (o_big - big_by_big) + 2 * (o_small - small_by_big)
            if big_used <= n_big and small_used <= n_small:
                spare = (n_big - big_used) + (n_small - small_used)
                if spare >= uncovered:
                    return True
    return False


def beats(new: Play, old: Play, kaopai: bool) -> bool:
    if kaopai and old.cards.count(SMALL_JOKER) + old.cards.count(BIG_JOKER):
        return roasts(new, old)
    return dominates(new.cards, old.cards)


def moves(counts: Sequence[int], last: Play | None, kaopai: bool, bie6: bool) -> list[Play]:
    small, big = counts[SMALL_JOKER], counts[BIG_JOKER]
    total = sum(counts)
    out: list[Play] = []
    heads: list[tuple[Rank | None, int]] = [(None, 0)]
    heads += [(r, k) for r in range(TWO + 1) for k in range(1, counts[r] + 1)]
    # Without 烤牌 (or when the last hand holds no joker) a follower plays as many cards.
    size = None if last is None or (kaopai and JOKER_SET & set(last.cards)) else last.size
    for rank, k in heads:
        for s in range(small + 1):
            for b in range(big + 1):
                if (rank is None and not s + b) or (size is not None and k + s + b != size):
                    continue
                if bie6 and rank == SIX and k + s + b != total:
                    continue  # 憋6: sixes only as the hand's last play
                play = _play(rank, k, s, b)
                if last is None or beats(play, last, kaopai):
                    out.append(play)
    return out
