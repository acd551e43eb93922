"""Wildcards (癞子, ddz-laizi.md): a play is legal if some substitution makes it so.

Every card of the wild rank ``W`` may stand for any rank 3 … 2 (W1), its own
included, never a joker. Rather than a second generator, the engine runs the
natural one on a *virtual* hand where each rank could be topped up by the
wild cards, then decides for every natural play how many wild cards stand in
at each rank (at least the shortfall, at most what the play needs), which
yields each legal (cards, reading) pair exactly once. The rule set's own
rules then apply:

- W3: a play made only of wild cards is read at face value;
- W6: a single kicker is never a substitute (it would change nothing), and
  by the same reasoning a kicker pair is never made only of substitutes;
- bomb classes: soft (some wild cards), hard (none), pure (the four wild
  cards together), each its own ladder tier (``SOFT < HARD < PURE < rocket``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations_with_replacement, product
from typing import TYPE_CHECKING

from cardhall.cards import SMALL_JOKER, TWO, Rank
from cardhall.rules import climb
from cardhall.rules.plays import Play

if TYPE_CHECKING:
    from cardhall.rules.ruleset import RuleSet

SOFT, HARD, PURE = 1, 2, 3
_PACK_COPIES = 4
#: Substitution vectors listed by ``product`` and filtered, rather than walked, up to this many.
_PRODUCT_LIMIT = 512


def _bomb_tier(natural: Play, wilds_in_main: int) -> int:
    if natural.kind != "bomb":
        return natural.tier
    if wilds_in_main == len(natural.main):
        return PURE
    return SOFT if wilds_in_main else HARD


def _realise(natural: Play, use: dict[Rank, int], wild: Rank) -> Play | None:
    """The play made by spending ``use[r]`` wild cards for rank ``r`` in ``natural``."""
    n_wild = sum(use.values())
    if n_wild == 0:
        return natural
    if n_wild == natural.size and any(r != wild for r, k in use.items() if k):
        return None  # W3: wild cards alone stand for themselves
    if natural.kind == "bomb" and n_wild == natural.size:
        return Play(natural.kind, natural.key, 1, natural.main, (), PURE, -1,
                    natural.main, ())
    left = dict(use)

    def swap(group: tuple[Rank, ...]) -> tuple[tuple[Rank, ...], int]:
        out: list[Rank] = []
        swapped = 0
        for r in group:
            if left.get(r, 0):
                left[r] -= 1
                out.append(wild)
                swapped += 1
            else:
                out.append(r)
        return tuple(sorted(out)), swapped

    main, in_main = swap(natural.main)
    kickers, _ = swap(natural.kickers)
    return Play(natural.kind, natural.key, natural.length, main, kickers,
                _bomb_tier(natural, in_main), natural.subkey, natural.main, natural.kickers)


def _uses(natural: Play, base: Sequence[int], wild: Rank, budget: int,
          single_kickers: bool) -> Iterator[dict[Rank, int]]:
    """Every way to cover ``natural`` with ``base`` (natural cards) plus wild cards."""
    need: dict[Rank, int] = {}
    for r in natural.cards:
        need[r] = need.get(r, 0) + 1
    in_kickers = set(natural.kickers)
    ranges: list[tuple[Rank, int, int]] = []
    floor = 0
    for r, k in need.items():
        have = 0 if r == wild else base[r]
        lo = max(0, k - have)
        hi = k if r <= TWO else 0
        if r == wild:
            lo = hi = k
        elif r in in_kickers:
            # W6: a single kicker is never a substitute; a kicker group never all
            # substitutes (docs/rulings.md): kickers do not compare, so it would only
            # repeat the same play under other names.
            hi = 0 if single_kickers else k - 1
            if lo > hi:
                return
        if lo > hi:
            return
        floor += lo
        ranges.append((r, lo, hi))
    if floor > budget:
        return
    combos = 1
    for _, lo, hi in ranges:
        combos *= hi - lo + 1
    if combos <= _PRODUCT_LIMIT:
        # The same order as ``walk`` (lexicographic, first rank outermost), at C speed.
        ranks = [r for r, _, _ in ranges]
        for ks in product(*[range(lo, hi + 1) for _, lo, hi in ranges]):
            if sum(ks) <= budget:
                yield dict(zip(ranks, ks, strict=True))
        return

    def walk(i: int, left: int, acc: dict[Rank, int]) -> Iterator[dict[Rank, int]]:
        if i == len(ranges):
            yield dict(acc)
            return
        r, lo, hi = ranges[i]
        rest_floor = sum(x[1] for x in ranges[i + 1:])
        for k in range(lo, min(hi, left - rest_floor) + 1):
            acc[r] = k
            yield from walk(i + 1, left - k, acc)
        acc.pop(r, None)

    yield from walk(0, budget, {})


def _kicker_substituted(natural: Play, use: dict[Rank, int], wild: Rank, singles: bool) -> bool:
    """A substitution the rules refuse in kickers: see ``_uses``."""
    for r in set(natural.kickers):
        if r != wild and use.get(r, 0) and (singles or use[r] == natural.kickers.count(r)):
            return True
    return False


def moves(rs: RuleSet, counts: Sequence[int], wild: Rank, last: Play | None) -> list[Play]:
    budget = counts[wild]
    base = list(counts)
    base[wild] = 0
    virtual = list(base)
    for r in range(TWO + 1):
        virtual[r] = min(base[r] + budget, _PACK_COPIES)
    out: list[Play] = []
    gen = rs.gen
    memo, real = gen.wild_plays, gen.wild_real
    if len(memo) > _MEMO_LIMIT:
        memo.clear()
    if len(real) > _MEMO_LIMIT:
        real.clear()
    room = gen.room(base, budget)
    # Only plays the wild cards can cover (most plays of the virtual hand cannot).
    for code in gen.codes(virtual, last, filter_bombs=False, room=room):
        # What a natural play realises to depends only on its shortfall at each rank
        # and on the wild cards there are (see ``_uses``), which many hands share.
        # More wild cards than the play has cards change nothing.
        need, size = gen.need_packed(code)
        spend = budget if budget < size else size
        key = (wild, code, room.shortfall(need), spend)
        plays = memo.get(key)
        if plays is None:
            natural = gen.play(code)
            singles = natural.kind in rs.single_kicker_kinds
            found: list[Play] = []
            for use in _uses(natural, base, wild, spend, singles):
                # Interned: one object per (cards, reading), whichever hand it came from.
                ukey = (wild, code, tuple(use.values()))
                play = real.get(ukey, _MISSING)
                if play is _MISSING:
                    play = real[ukey] = _realise(natural, use, wild)
                if play is not None:
                    found.append(play)
            plays = memo[key] = tuple(found)
        if last is None:
            out.extend(plays)
        else:
            out.extend([p for p in plays if climb.ladder_beats(p, last)])
    return out


_MEMO_LIMIT = 1 << 17
_MISSING = Play("", -1, 0, ())


def classify(rs: RuleSet, counts: Sequence[int], wild: Rank) -> list[Play]:
    n_wild = counts[wild]
    if n_wild == 0:
        return climb.classify(rs, counts)
    if n_wild == sum(counts):  # W3
        return [p for p in (_realise(nat, {wild: nat.size}, wild)
                            for nat in climb.classify(rs, counts)) if p is not None]
    base = list(counts)
    base[wild] = 0
    seen: set[Play] = set()
    out: list[Play] = []
    cache = rs.gen.readings
    for subs in combinations_with_replacement(range(TWO + 1), n_wild):
        virtual = list(base)
        for r in subs:
            virtual[r] += 1
        if max(virtual[: SMALL_JOKER]) > _PACK_COPIES:
            continue
        # The natural readings of a virtual hand do not depend on the wild rank, and
        # the same virtual hands come back for every wild card set: share the memo.
        key = tuple(virtual)
        readings = cache.get(key)
        if readings is None:
            if len(cache) > _MEMO_LIMIT:
                cache.clear()
            readings = cache[key] = tuple(climb.classify(rs, virtual))
        for natural in readings:
            use: dict[Rank, int] = {}
            for r in subs:
                use[r] = use.get(r, 0) + 1
            if _kicker_substituted(natural, use, wild, natural.kind in rs.single_kicker_kinds):
                continue  # W6, and wild-only kicker groups
            play = _realise(natural, use, wild)
            if play is not None and play not in seen:
                seen.add(play)
                out.append(play)
    return out
