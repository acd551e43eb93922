"""Shared helpers for the rules tests: every variant's rule sets and random hands."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from cardhall import rules
from cardhall.cards import NUM_RANKS, SIX
from cardhall.games import VARIANTS
from cardhall.rules import Play, RuleSet

#: Every rule set a test should cover: each variant, laizi with a few wild
#: ranks, baohuang with each option.
RULESETS: dict[str, RuleSet] = {v.id: v.rules for v in VARIANTS.values() if v.rules is not None}
RULESETS.update({
    "ddz3_laizi-W5": rules.get("ddz3_laizi", wild="5"),
    "ddz3_laizi-W2": rules.get("ddz3_laizi", wild="2"),
    "baohuang-kaopai": rules.get("baohuang", kaopai=True),
    "baohuang-bie6": rules.get("baohuang", bie6=True),
})
#: The largest hand each variant deals (landlord / emperor / first seats).
HAND_SIZE = {v.id: v.layout.largest for v in VARIANTS.values()
             if v.rules is not None and v.layout is not None}


def deck_ranks(rs: RuleSet) -> list[int]:
    """One rank entry per physical card of the variant's deck."""
    return [r for r in range(NUM_RANKS) for _ in range(rs.limits[r])]


def hand_size(rs: RuleSet) -> int:
    return HAND_SIZE[rs.name]


def counts_of(ranks: list[int]) -> tuple[int, ...]:
    return tuple(ranks.count(r) for r in range(NUM_RANKS))


def sub_hands(counts: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every non-empty sub-multiset of a hand."""
    for sub in itertools.product(*(range(c + 1) for c in counts)):
        if any(sub):
            yield sub


def brute_force(rs: RuleSet, counts: tuple[int, ...], last: Play | None = None) -> set[Play]:
    """Legal plays by definition: every reading of every sub-multiset that beats ``last``.

    With 憋6 a play holding a 6 must also be the whole hand (baohuang Ruling 17).
    """
    return {p for sub in sub_hands(counts) for p in rs.classify(sub)
            if (last is None or rs.beats(p, last))
            and not (rs.bie6 and SIX in p.cards and p.size != sum(counts))}


def full_text(p: Play) -> str:
    return p.text + (f"={p.as_text}" if p.as_text is not None else "")
