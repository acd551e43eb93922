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

from collections.abc import Callable, Sequence
from itertools import combinations_with_replacement, compress, product
from typing import TYPE_CHECKING

from cardhall.cards import NUM_RANKS, RANK_CHARS, SMALL_JOKER, TWO, Rank, format_ranks
from cardhall.rules import climb
from cardhall.rules.movegen import HEAD_MASK, KICKERS
from cardhall.rules.plays import Play, new_play

if TYPE_CHECKING:
    from cardhall.rules.ruleset import RuleSet

SOFT, HARD, PURE = 1, 2, 3
_PACK_COPIES = 4
#: Substitution vectors listed by ``product`` and filtered, rather than walked, up to this many.
_PRODUCT_LIMIT = 512
#: Per distinct rank of a play: rank, cards, most substitutes.
_Part = tuple[Rank, int, int]
#: A move code's head as substitution sees it (``_head``): kind, key, length, tier, subkey,
#: main part, its parts, its cards packed 4 bits a rank, its ranks' mask, size, text,
#: single kickers.
Head = tuple[str, Rank, int, int, Rank, tuple[Rank, ...], tuple["_Part", ...], int, int, int,
             str, bool]
#: A kicker set as substitution sees it (``_kicker_set``): cards, parts, size, ``+`` text,
#: and itself as the one side natural single kickers realise to.
KickerSet = tuple[tuple[Rank, ...], tuple["_Part", ...], int, str, tuple["Side", ...]]
#: A main part or kicker set as the wild cards realise it: wild cards spent, the cards,
#: their text (a kicker set's after its ``+``).
Side = tuple[int, tuple[Rank, ...], str]
#: A way to cover a play (``_uses``): wild cards per part, their sum, the nonzero (part, count).
_Way = tuple[tuple[int, ...], int, tuple[tuple[int, int], ...]]


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


def _head(natural: Play, singles: bool) -> Head:
    """What substitution needs of a main part (every play of a move code's head has it),
    whatever the hand and the wild rank.

    The play's fields but its kickers; per distinct rank of the main part, in
    order, the rank, how many it has and the most wild cards that may stand for
    it (never for a joker); the main part as counts, 4 bits a rank (what
    ``movegen.Room`` reads), its ranks as a 4-bit mask, its size and text, and
    whether the play's kickers are singles.
    """
    main = natural.main
    parts: list[_Part] = []
    packed = mask = 0
    for r in dict.fromkeys(main):  # distinct ranks, in order
        k = main.count(r)
        packed += k << (4 * r)
        mask |= 15 << (4 * r)
        parts.append((r, k, k if r <= TWO else 0))
    return (natural.kind, natural.key, natural.length, natural.tier, natural.subkey, main,
            tuple(parts), packed, mask, len(main), format_ranks(main), singles)


def _kicker_set(kickers: tuple[Rank, ...], singles: bool) -> KickerSet:
    """What substitution needs of a kicker set: the cards; per distinct rank, in order,
    the rank, how many and the most wild cards that may stand for it; the size and
    the text after its ``+``.

    W6: a single kicker is never a substitute; a kicker group never all substitutes
    (docs/rulings.md): kickers do not compare, so it would only repeat the same play
    under other names.
    """
    parts = tuple((r, k, 0 if singles else k - 1)
                  for r, k in ((r, kickers.count(r)) for r in dict.fromkeys(kickers)))
    text = "+" + format_ranks(kickers)
    return kickers, parts, len(kickers), text, ((0, kickers, text),)


def _uses(parts: tuple[_Part, ...], short: int, wild: Rank,
          budget: int) -> tuple[_Way, ...]:
    """Every way to cover a play with the natural cards plus ``budget`` wild cards.

    ``short`` is the play's shortfall against the natural cards, 4 bits a rank
    (``movegen.Room.shortfall``); a way is the wild cards standing in at each
    of the play's ranks, in ``parts``' order. Lexicographic, first rank outermost.
    The ways depend only on each rank's (least, most) and the budget, which
    plays of every rank share (every 8-card straight the hand holds, say).
    """
    spans: list[tuple[int, int]] = []
    floor = 0
    for r, k, most in parts:
        if r == wild:
            spans.append((k, k))
            floor += k
        else:
            lo = (short >> (4 * r)) & 15
            if lo > most:
                return ()
            spans.append((lo, most))
            floor += lo
    if floor > budget:
        return ()
    key = (tuple(spans), budget)
    ways = _WAYS.get(key)
    if ways is None:
        if len(_WAYS) > _MEMO_LIMIT:
            _WAYS.clear()
        ways = _WAYS[key] = _enumerate([range(lo, hi + 1) for lo, hi in spans], budget)
    return ways


def _enumerate(ranges: list[range], budget: int) -> tuple[_Way, ...]:
    """The vectors of ``product(*ranges)`` that sum to at most ``budget``, in its order,
    each with its sum and its nonzero entries as (index, value) pairs."""
    return tuple((ks, sum(ks), tuple(compress(enumerate(ks), ks)))
                 for ks in _vectors(ranges, budget))


def _vectors(ranges: list[range], budget: int) -> list[tuple[int, ...]]:
    if sum(span.stop - 1 for span in ranges) <= budget:
        return list(product(*ranges))
    combos = 1
    for span in ranges:
        combos *= len(span)
    if combos <= _PRODUCT_LIMIT:
        return [ks for ks in product(*ranges) if sum(ks) <= budget]
    found: list[tuple[int, ...]] = []
    floors = [sum(span.start for span in ranges[i + 1:]) for i in range(len(ranges))]

    def walk(i: int, left: int, acc: tuple[int, ...]) -> None:
        if i == len(ranges):
            found.append(acc)
            return
        span = ranges[i]
        for k in range(span.start, min(span.stop - 1, left - floors[i]) + 1):
            walk(i + 1, left - k, (*acc, k))

    walk(0, budget, ())
    return found


def _sides(memo: dict[tuple[int, ...], tuple[Side, ...]], key: tuple[int, ...],
           cards: tuple[Rank, ...], parts: tuple[_Part, ...], short: int, wild: Rank,
           spend: int, head: str) -> tuple[Side, ...]:
    """Each way (``_uses``) to cover ``cards`` (a main part or a kicker set, ``parts``
    its parts), realised: the wild cards it spends, the cards as played, their text
    (after ``head``), kept in ``memo`` under ``key``."""
    if len(memo) > _MEMO_LIMIT:
        memo.clear()
    sides = []
    for ks, n_wild, _ in _uses(parts, short, wild, spend):
        played = _swap(cards, parts, ks, n_wild, wild) if n_wild else cards
        sides.append((n_wild, played, head + bytes(played).translate(_CHARS).decode()))
    found = memo[key] = tuple(sides)
    return found


def _swap(cards: tuple[Rank, ...], parts: tuple[_Part, ...], ks: tuple[int, ...],
          n_wild: int, wild: Rank) -> tuple[Rank, ...]:
    """``cards`` (ascending, ``parts`` their ranks in order) with ``ks[i]`` cards of part
    ``i``'s rank played by wild cards, ascending: each rank's cards left, the ``n_wild``
    wild cards in the wild rank's place (a part of the wild rank keeps none of its own,
    ``_uses``), built in one pass rather than by removing cards one at a time (a crafted
    hand's first list realises thousands of sides)."""
    out: list[Rank] = []
    wilds: tuple[Rank, ...] = _WILDS[wild][n_wild]
    for (r, k, _), u in zip(parts, ks, strict=True):
        if wilds and r >= wild:
            out += wilds
            wilds = ()
        if k > u:
            out += (r,) * (k - u)
    if wilds:
        out += wilds
    return tuple(out)


def _kicker_substituted(natural: Play, use: dict[Rank, int], wild: Rank, singles: bool) -> bool:
    """A substitution the rules refuse in kickers: see ``_uses``."""
    for r in set(natural.kickers):
        if r != wild and use.get(r, 0) and (singles or use[r] == natural.kickers.count(r)):
            return True
    return False


def moves(rs: RuleSet, counts: Sequence[int], wild: Rank, last: Play | None) -> list[Play]:
    return spelt_moves(rs, counts, wild, last, spelt=False)[0]


def spelt_moves(rs: RuleSet, counts: Sequence[int], wild: Rank,
                last: Play | None, spelt: bool = True) -> tuple[list[Play], list[str]]:
    """``moves`` and each play's text (``RuleSet.spelt_moves``); with ``spelt`` false, no
    texts (``moves``: a bot generating a lead's plays reads none of them, and spelling
    each of thousands costs a tenth of the time).

    The plays of ``blocks`` (``realise``), made afresh: two thirds of them are never
    asked for again (a memo of them cost more than it saved, and its objects slowed
    the collector).
    """
    plays, texts = realise(rs.gen.play, blocks(rs, counts, wild, last, spelt), spelt)
    if last is None:
        return plays, texts
    beats = climb.ladder_beats
    kept = [i for i, p in enumerate(plays) if beats(p, last)]
    return [plays[i] for i in kept], [texts[i] for i in kept] if spelt else texts


def realise(gen_play: Callable[[int], Play], found: list[Block],
            spelt: bool = True) -> tuple[list[Play], list[str]]:
    """The plays of ``blocks`` (and their texts if ``spelt``), in order: each natural play's
    main-part ways, each with the kickers' in turn (``_uses``' order), every way that spends
    no more wild cards than it may, and a way of wild cards alone only where W3 lets it be
    (``gen_play``: the rule set's natural play of a code)."""
    plays: list[Play] = []
    texts: list[str] = []
    play, spell = plays.append, texts.append
    for code, kind, rank, length, tier, subkey, main, kicks, mains, kickers, spend, size, \
            by_wilds_alone, bomb, text in found:
        as_text = "=" + text if spelt else ""
        for in_main, new_main, main_spelt in mains:
            for in_kickers, new_kickers, kickers_spelt in kickers:
                n_wild = in_main + in_kickers
                if n_wild > spend:
                    continue
                if not n_wild:
                    play(gen_play(code))
                    if spelt:
                        spell(text)
                    continue
                if n_wild == size:
                    if not by_wilds_alone:
                        continue
                    if bomb:
                        play(new_play(kind, rank, 1, main, (), PURE, -1, main, ()))
                        if spelt:
                            spell(main_spelt + as_text)
                        continue
                play(new_play(kind, rank, length, new_main, new_kickers,
                              (SOFT if in_main else HARD) if bomb else tier, subkey,
                              main, kicks))
                if spelt:
                    spell(main_spelt + kickers_spelt + as_text)
    return plays, texts


#: One natural play of the virtual hand, as ``spelt_moves`` realises it (``blocks``): its
#: code; its reading (kind, key, length, tier, subkey, the main part and the kickers the
#: wild cards stand in); the ways to realise its main part and its kickers (``Side``s);
#: the wild cards it may spend; its size; whether wild cards alone may make it (W3);
#: whether it is a bomb; its text (empty unless spelt).
Block = tuple[int, str, Rank, int, int, Rank, tuple[Rank, ...], tuple[Rank, ...],
              tuple["Side", ...], tuple["Side", ...], int, int, bool, bool, str]


def blocks(rs: RuleSet, counts: Sequence[int], wild: Rank, last: Play | None,
           spelt: bool = True) -> list[Block]:
    """Every natural play of the virtual hand that the wild cards can cover (most cannot:
    ``movegen.Room``), with the ways to realise it: ``spelt_moves``' plays before they
    are made (a bot reads them per set of cards, and makes few: ``bots.split.sift``).

    A play's main part and its kickers never share a rank, so a way to cover it is a
    way to cover the main part and one to cover the kickers, and each side is realised
    and spelt once (``_sides``) for every play it comes back in: the codes of one main
    part come in a row, one per kicker set beside it, and a kicker set comes back
    beside many main parts. What a side realises to depends only on its shortfall at
    each rank and on the wild cards to spend, which many hands share.
    """
    budget = counts[wild]
    base = list(counts)
    base[wild] = 0
    virtual = list(base)
    for r in range(TWO + 1):
        virtual[r] = min(base[r] + budget, _PACK_COPIES)
    gen = rs.gen
    heads, kicker_sets = gen.wild_heads, gen.wild_kicker_sets
    main_memo, kicker_memo = gen.wild_mains, gen.wild_kickers
    for table in (heads, kicker_sets, main_memo, kicker_memo):
        if len(table) > _MEMO_LIMIT:
            table.clear()
    room = gen.room(base, budget, counts)
    shortfall = room.shortfall
    wild_nibble = 15 << (4 * wild)
    out: list[Block] = []
    block = out.append
    at = -1  # the head (main part) of the codes in hand, and what it needs:
    kind, rank, length, tier, subkey, main, parts, packed, mask, main_size, main_text, \
        singles = _NO_HEAD
    alone = bomb = False
    mains = _NO_KICKERS
    for code in gen.codes(virtual, last, filter_bombs=False, room=room):
        if code & HEAD_MASK != at:
            at = code & HEAD_MASK
            head = heads.get(at)
            if head is None:
                natural = gen.play(code)
                head = heads[at] = _head(natural, natural.kind in rs.single_kicker_kinds)
            kind, rank, length, tier, subkey, main, parts, packed, mask, main_size, \
                main_text, singles = head
            main_short = shortfall(packed)
            # A main part's ways never spend more wild cards than it has cards.
            key: tuple[int, ...] = (wild, at, main_short, min(budget, main_size))
            found = main_memo.get(key)
            mains = found if found is not None else _sides(
                main_memo, key, main, parts, main_short, wild, key[3], "")
            # W3: wild cards alone stand for themselves, so a play made only of them
            # must be all of the wild rank: one rank only, the wild one.
            alone = len(parts) == 1 and parts[0][0] == wild
            bomb = kind == "bomb"
        packed_kickers = code >> KICKERS
        if packed_kickers:
            assert not packed_kickers & mask, code  # the generators keep the sides apart
            kick = kicker_sets.get(packed_kickers << 1 | singles)
            if kick is None:
                kick = kicker_sets[packed_kickers << 1 | singles] = _kicker_set(
                    gen.play(code).kickers, singles)
            kicks, kick_parts, kick_size, kick_text, as_kickers = kick
            size = main_size + kick_size
            spend = budget if budget < size else size
            if singles and not packed_kickers & wild_nibble:
                kickers = as_kickers  # W6: held, as ``room`` lists them, and played as they are
            else:
                kick_short = shortfall(packed_kickers)
                key = (wild, packed_kickers, kick_short, spend, singles)
                found = kicker_memo.get(key)
                kickers = found if found is not None else _sides(
                    kicker_memo, key, kicks, kick_parts, kick_short, wild, spend, "+")
            block((code, kind, rank, length, tier, subkey, main, kicks, mains, kickers, spend,
                   size, False, bomb, main_text + kick_text if spelt else ""))
        else:
            spend = budget if budget < main_size else main_size
            block((code, kind, rank, length, tier, subkey, main, (), mains, _NO_KICKERS, spend,
                   main_size, alone, bomb, main_text))
    return out


_MEMO_LIMIT = 1 << 17
#: Card sets whose readings ``classify`` keeps (a client's texts fill it: bounded small).
_READINGS_LIMIT = 1 << 12
#: ``_uses``' ways by each rank's (least, most) substitutes and the budget.
_WAYS: dict[tuple[tuple[tuple[int, int], ...], int], tuple[_Way, ...]] = {}
_NO_KICKERS: tuple[Side, ...] = ((0, (), ""),)
#: ``(w,) * n`` by wild rank ``w`` and count ``n`` (one pack: at most four wild cards).
_WILDS = [[(w,) * n for n in range(_PACK_COPIES + 1)] for w in range(TWO + 1)]
#: Rank to its character, for ``bytes.translate`` (an ascending tuple of ranks spelt at C
#: speed: a realised side's text, ``format_ranks`` of what it plays).
_CHARS = bytes.maketrans(bytes(range(NUM_RANKS)), RANK_CHARS.encode())
#: No head yet (``spelt_moves`` reads one from the first code).
_NO_HEAD: Head = ("", 0, 0, 0, -1, (), (), 0, 0, 0, "", False)


def classify(rs: RuleSet, counts: Sequence[int], wild: Rank) -> list[Play]:
    """Every reading of exactly these cards, kept by their counts and the wild rank: a
    client's bare cards with four wild cards read a score of ways, and ``readings``
    asks again for each (each costs a pass over the wild cards' 1 820 substitutions)."""
    memo = rs.gen.wild_readings
    key = (*counts, wild)
    found = memo.get(key)
    if found is None:
        if len(memo) > _READINGS_LIMIT:
            memo.clear()
        found = memo[key] = tuple(_classify(rs, counts, wild))
    return list(found)


def _classify(rs: RuleSet, counts: Sequence[int], wild: Rank) -> list[Play]:
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
