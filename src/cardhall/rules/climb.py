"""Classification and comparison for ladder rule sets, from pattern declarations.

For each declared pattern whose size fits, the classifier finds the main
parts the cards hold (chains of ``n`` ranks with ``width`` cards each) and
accepts the reading if what remains is exactly a legal kicker set. Kicker
rules (K1–K4 and emperor Ruling 8) are applied here once for every variant:
see ``patterns.py``. Move generation, which reads the same declarations, is
in ``movegen.py``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from cardhall.cards import BIG_JOKER, SMALL_JOKER, Rank
from cardhall.rules.patterns import CHAIN_TOP, Pattern
from cardhall.rules.plays import Play

if TYPE_CHECKING:
    from cardhall.rules.ruleset import RuleSet

Main = tuple[tuple[Rank, ...], frozenset[Rank], Rank, Rank]


def ladder_beats(a: Play, b: Play) -> bool:
    """ddz-classic §3.2 generalised: bombs by (ladder tier, rank); others by kind, size, key."""
    if a.tier or b.tier:
        return (a.tier, a.key) > (b.tier, b.key)
    return a.kind == b.kind and a.size == b.size and (a.key, a.subkey) > (b.key, b.subkey)


def _starts(counts: Sequence[int], p: Pattern, n: int, width: int) -> list[Rank]:
    """Lowest ranks of every run of ``n`` ranks holding ``width`` cards each."""
    if not p.is_chain:
        return [r for r in p.ranks if counts[r] >= width]
    out: list[Rank] = []
    run = 0
    for r in range(CHAIN_TOP + 1):
        if counts[r] >= width:
            run += 1
            if run >= n:
                out.append(r - n + 1)
        else:
            run = 0
    return out


def _mains(counts: Sequence[int], p: Pattern, n: int) -> Iterator[Main]:
    """(main cards, main ranks, key, subkey) for every main part of ``n`` units."""
    for s in _starts(counts, p, n, p.width):
        ranks = range(s, s + n)
        top = s + n - 1
        if not p.second:
            main = tuple(r for r in ranks for _ in range(p.width))
            yield main, frozenset(ranks), top, -1
            continue
        for s2 in _starts(counts, p, n, p.second):
            if s2 + n <= s or s2 >= s + n:  # the two chains take distinct ranks
                ranks2 = range(s2, s2 + n)
                main = tuple(sorted([r for r in ranks for _ in range(p.width)]
                                    + [r for r in ranks2 for _ in range(p.second)]))
                yield main, frozenset(ranks) | frozenset(ranks2), top, s2 + n - 1


def _group_rank_ok(rs: RuleSet, r: Rank, size: int) -> bool:
    return r < SMALL_JOKER or (size == 2 and rs.joker_pairs)


def exact_kickers(rs: RuleSet, p: Pattern, rem: Sequence[int], used: frozenset[Rank],
                  n: int) -> tuple[Rank, ...] | None:
    """The kickers if ``rem`` is exactly a legal kicker set for ``p``, else None."""
    if not p.kickers:
        return () if not any(rem) else None
    if any(rem[r] for r in used):
        return None  # K1: a kicker never shares the main part's rank
    if p.single_kickers:
        if rem[SMALL_JOKER] and rem[BIG_JOKER]:
            return None  # K3: the rocket is never spent as kickers
    else:
        if sorted(v for v in rem if v) != sorted(p.kickers * n):
            return None  # K4 / Ruling 8: each kicker group its own rank
        if any(v and not _group_rank_ok(rs, r, v) for r, v in enumerate(rem)):
            return None
    return tuple(r for r, v in enumerate(rem) for _ in range(v))


def _joker_plays(p: Pattern, counts: Sequence[int], exact: bool) -> Iterator[Play]:
    for small, big in p.jokers:
        have_small, have_big = counts[SMALL_JOKER], counts[BIG_JOKER]
        fits = (have_small == small and have_big == big) if exact else (
            have_small >= small and have_big >= big)
        if fits:
            key = BIG_JOKER if big else SMALL_JOKER
            cards = (SMALL_JOKER,) * small + (BIG_JOKER,) * big
            yield Play(p.kind, key, 1, cards, (), p.tier)


def classify(rs: RuleSet, counts: Sequence[int]) -> list[Play]:
    """Every reading of exactly these cards, in declaration order."""
    total = sum(counts)
    out: list[Play] = []
    for p, unit in zip(rs.patterns, rs.gen.units, strict=True):
        if p.jokers:
            if total == counts[SMALL_JOKER] + counts[BIG_JOKER]:
                out.extend(_joker_plays(p, counts, exact=True))
            continue
        if total % unit:
            continue
        n = total // unit
        if not p.chain[0] <= n <= p.chain[1]:
            continue
        for main, used, key, subkey in _mains(counts, p, n):
            rem = list(counts)
            for r in main:
                rem[r] -= 1
            kick = exact_kickers(rs, p, rem, used, n)
            if kick is not None:
                out.append(Play(p.kind, key, n, main, kick, p.tier, subkey))
    return out

