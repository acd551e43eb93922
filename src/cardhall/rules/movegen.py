"""Move generation for ladder rule sets, as compact ints (the bots' fast path).

A move code packs one reading into an int:

    bits 0–5    pattern index in the rule set's declaration
    bits 6–9    lowest rank of the main chain (joker hands: which combination)
    bits 10–13  chain length n
    bits 14–17  lowest rank of the second chain (飞船 only)
    bits 18+    kicker counts, 4 bits per rank

so generating a move is a handful of integer operations, and ``play(code)``
turns a code into its interned ``Play`` (made once, then shared). Hands are
scanned once into per-width rank bitmasks; chains are runs of set bits; the
kicker sets beside a main part depend only on which ranks remain, so they are
memoised by that availability signature. Profiling showed the time in the
readable generator went to per-move object creation and generator frames;
this layout removes both without a second copy of the rules: it reads the
same declarations as ``climb.classify``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from cardhall.cards import BIG_JOKER, NUM_RANKS, SMALL_JOKER, Rank
from cardhall.rules.patterns import CHAIN_TOP, Pattern
from cardhall.rules.plays import Play, new_play

if TYPE_CHECKING:
    from cardhall.rules.ruleset import RuleSet
    from cardhall.rules.wild import Head, KickerSet, Side

START, LENGTH, SECOND, KICKERS = 6, 10, 14, 18
_CHAIN_MASK = (1 << (CHAIN_TOP + 1)) - 1
_JOKER_BITS = (1 << SMALL_JOKER) | (1 << BIG_JOKER)
_CACHE_LIMIT = 1 << 18
_HAND_CACHE = 1 << 14

#: Set bits of every 15-bit mask, ascending.
BITS: list[tuple[int, ...]] = [()] * (1 << NUM_RANKS)
for _m in range(1, 1 << NUM_RANKS):
    BITS[_m] = ((_m & -_m).bit_length() - 1, *BITS[_m & (_m - 1)])


def _nibbles(ranks: range | Sequence[int]) -> int:
    return sum(15 << (4 * r) for r in ranks)


def _kicker_ranks(packed: int) -> tuple[Rank, ...]:
    out: list[Rank] = []
    r = 0
    while packed:
        out.extend([r] * (packed & 15))
        packed >>= 4
        r += 1
    return tuple(out)


class MoveGen:
    """The compiled form of one ladder rule set."""

    def __init__(self, rs: RuleSet) -> None:
        self.rs = rs
        self.patterns = rs.patterns
        self._plays: dict[int, Play] = {}
        self._kickers: dict[tuple[int, int, int], tuple[int, ...]] = {}
        self._hands: dict[tuple[int, ...], _Hand] = {}
        self._needs: dict[int, tuple[tuple[Rank, int], ...]] = {}
        #: ``_decode``'s parts: main part and subkey by the code's head, kickers by theirs.
        self._mains: dict[int, tuple[tuple[Rank, ...], Rank]] = {}
        self._kicker_sets: dict[int, tuple[Rank, ...]] = {}
        #: A main part / kicker set as wild cards realise it (``wild._sides``).
        self.wild_mains: dict[tuple[int, ...], tuple[Side, ...]] = {}
        self.wild_kickers: dict[tuple[int, ...], tuple[Side, ...]] = {}
        #: What substituting into a code's main part / kicker set needs, whatever the
        #: hand (``wild._head``, by head; ``wild._kicker_set``, by kickers and singles).
        self.wild_heads: dict[int, Head] = {}
        self.wild_kicker_sets: dict[int, KickerSet] = {}
        #: Readings of card sets already classified (ruleset.classify's memo).
        self.readings: dict[tuple[int, ...], tuple[Play, ...]] = {}
        #: Readings of card sets with wild cards, by their counts and the wild rank
        #: (``wild.classify``'s memo: ``readings`` of bare cards reads each of theirs).
        self.wild_readings: dict[tuple[int, ...], tuple[Play, ...]] = {}
        self._by_kind: dict[str, list[int]] = {}
        self._bombs: list[int] = []
        self._allowed: list[int] = []
        self._group_sizes: list[list[tuple[int, int]]] = []
        for i, p in enumerate(self.patterns):
            if p.tier:
                self._bombs.append(i)
            else:
                self._by_kind.setdefault(p.kind, []).append(i)
            self._allowed.append(_CHAIN_MASK if p.is_chain else sum(1 << r for r in p.ranks))
            sizes = sorted({s: p.kickers.count(s) for s in p.kickers}.items(), reverse=True)
            self._group_sizes.append(sizes)
        # Hot-loop copies of each pattern's fields: (width, mask of allowed ranks,
        # shortest, longest, cards per unit, has kickers or a second chain).
        self._specs = [(p.width, self._allowed[i], p.chain[0], p.chain[1], p.unit,
                        bool(p.kickers or p.second)) for i, p in enumerate(self.patterns)]
        self._jokers = [i for i, p in enumerate(self.patterns) if p.jokers]
        #: Cards per chain unit of each pattern (a property: classify reads it per pattern).
        self.units = [p.unit for p in self.patterns]
        self._widest = max((max(p.width, p.second) for p in self.patterns), default=0)

    # -- codes and plays -------------------------------------------------------------

    def plays(self, codes: list[int]) -> list[Play]:
        """The interned plays of ``codes``."""
        table = self._plays
        try:
            return [table[code] for code in codes]
        except KeyError:
            return [self.play(code) for code in codes]

    def needs(self, code: int) -> tuple[tuple[Rank, int], ...]:
        """(rank, count) pairs of the play's cards: what a hand must cover."""
        need = self._needs.get(code)
        if need is None:
            counts: dict[Rank, int] = {}
            for r in self.play(code).cards:
                counts[r] = counts.get(r, 0) + 1
            need = self._needs[code] = tuple(counts.items())
        return need

    def room(self, natural: Sequence[int], budget: int, held: Sequence[int]) -> Room:
        """The wildcard filter of ``codes``: ``budget`` wild cards on top of ``natural``;
        ``held`` is the hand itself, its wild cards at their own rank."""
        if type(held) is not tuple:
            held = tuple(held)
        return Room(natural, budget, self._widest, self._hands.get(held) or self._scan(held))

    def play(self, code: int) -> Play:
        play = self._plays.get(code)
        if play is None:
            play = self._plays[code] = self._decode(code)
        return play

    def _decode(self, code: int) -> Play:
        p = self.patterns[code & 63]
        start, n = (code >> START) & 15, (code >> LENGTH) & 15
        if p.jokers:
            small, big = p.jokers[start]
            cards = (SMALL_JOKER,) * small + (BIG_JOKER,) * big
            return Play(p.kind, BIG_JOKER if big else SMALL_JOKER, 1, cards, (), p.tier)
        # A main part comes back with every kicker set beside it, and a kicker set
        # beside every main part: each is spelt once, and shared.
        head = code & HEAD_MASK
        found = self._mains.get(head)
        if found is None:
            main = [r for r in range(start, start + n) for _ in range(p.width)]
            subkey = -1
            if p.second:
                second = (code >> SECOND) & 15
                main += [r for r in range(second, second + n) for _ in range(p.second)]
                subkey = second + n - 1
            found = self._mains[head] = (tuple(sorted(main)), subkey)
        packed = code >> KICKERS
        kickers = self._kicker_sets.get(packed)
        if kickers is None:
            kickers = self._kicker_sets[packed] = _kicker_ranks(packed)
        return new_play(p.kind, start + n - 1, n, found[0], kickers, p.tier, found[1], None, None)

    # -- generation ------------------------------------------------------------------

    def codes(self, counts: Sequence[int], last: Play | None = None,
              filter_bombs: bool = True, room: Room | None = None) -> list[int]:
        """Codes of every play from ``counts``; beating ``last`` if given.

        ``filter_bombs=False`` keeps every bomb regardless of ``last`` (the
        wildcard game decides a bomb's class only after substitution).
        ``room`` (the wildcard game's virtual hand) keeps only the plays whose
        shortfall against the natural cards fits the wild cards: most plays of
        a virtual hand do not, and dropping a main part before its kicker sets
        are listed is what makes a four-wild lead affordable. The order of the
        codes kept is the order without ``room``.
        """
        if type(counts) is not tuple:
            counts = tuple(counts)
        hand = self._hands.get(counts)
        if hand is None:
            hand = self._scan(counts)
        out: list[int] = []
        if last is None:
            masks = hand[1]
            for i, spec in enumerate(self._specs):
                if masks[spec[0]] & spec[1]:
                    self._emit(i, hand, None, out, room)
            for i in self._jokers:
                self._emit_jokers(i, hand[0], None, out)
            return out
        if not last.tier:
            for i in self._by_kind.get(last.kind, ()):
                self._emit(i, hand, last, out, room)
        for i in self._bombs:
            self._emit(i, hand, last if filter_bombs else None, out, room)
        return out

    def _scan(self, counts: Sequence[int]) -> _Hand:
        """Per-width rank masks of a hand, kept for the hands a game asks about again."""
        masks = [0] * 17
        total = packed = 0
        for r in range(NUM_RANKS):
            k = counts[r]
            if k:
                total += k
                packed |= k << (4 * r)
                bit = 1 << r
                for w in _LEVELS[k]:
                    masks[w] |= bit
        counts = tuple(counts)
        hand = (counts, masks, total, packed)
        if len(self._hands) > _HAND_CACHE:
            self._hands.clear()
        self._hands[counts] = hand
        return hand

    def _emit_jokers(self, i: int, counts: Sequence[int], last: Play | None,
                     out: list[int]) -> None:
        p = self.patterns[i]
        for j, (small, big) in enumerate(p.jokers):
            if counts[SMALL_JOKER] >= small and counts[BIG_JOKER] >= big:
                key = BIG_JOKER if big else SMALL_JOKER
                if last is None or (p.tier, key) > (last.tier, last.key):
                    out.append(i | j << START)

    def _emit(self, i: int, hand: _Hand, last: Play | None, out: list[int],
              room: Room | None = None) -> None:
        width, allowed, lo, hi, unit, extra = self._specs[i]
        if not width:
            self._emit_jokers(i, hand[0], last, out)  # jokers are never substituted
            return
        if room is not None:
            self._emit_room(i, hand, last, out, room)
            return
        masks = hand[1]
        full = masks[width] & allowed
        if not full:
            return
        p = self.patterns[i]
        if last is not None and not p.tier:
            lo = hi = last.length  # same kind: same length
        hi = min(hi, hand[2] // unit)
        run = full
        for n in range(1, hi + 1):
            if n > 1:
                run &= full >> (n - 1)
                if not run:
                    return
            if n < lo:
                continue
            starts = run
            if last is not None:
                starts &= self._above(p, n, last)
            head = i | n << LENGTH
            if not extra:
                out.extend([head | s << START for s in BITS[starts]])
                continue
            chain = (1 << n) - 1
            for s in BITS[starts]:
                base = head | s << START
                if p.second:
                    self._emit_second(i, p, s, n, base, chain << s, hand, last, out)
                else:
                    out.extend([base + k for k in self._kicker_codes(i, p, n, chain << s, hand)])

    def _emit_room(self, i: int, hand: _Hand, last: Play | None, out: list[int],
                   room: Room) -> None:
        """``_emit`` keeping only plays the wild cards can cover (same loops, same order)."""
        width, allowed, lo, hi, unit, extra = self._specs[i]
        masks = hand[1]
        full = masks[width] & allowed
        if not full:
            return
        p = self.patterns[i]
        if last is not None and not p.tier:
            lo = hi = last.length
        hi = min(hi, hand[2] // unit)
        short_at = room.short[width]
        budget = room.budget
        run = full
        for n in range(1, hi + 1):
            if n > 1:
                run &= full >> (n - 1)
                if not run:
                    return
            if n < lo:
                continue
            starts = run
            if last is not None:
                starts &= self._above(p, n, last)
            head = i | n << LENGTH
            chain = (1 << n) - 1
            for s in BITS[starts]:
                short = sum(short_at[s:s + n])
                if short > budget:
                    continue
                base = head | s << START
                if not extra:
                    out.append(base)
                elif p.second:
                    kept: list[int] = []
                    self._emit_second(i, p, s, n, base, chain << s, hand, last, kept)
                    second_at = room.short[p.second]
                    for code in kept:
                        s2 = (code >> SECOND) & 15
                        left = budget - short - sum(second_at[s2:s2 + n])
                        if left >= 0 and room.kicker_short(code >> KICKERS) <= left:
                            out.append(code)
                else:
                    # W6: single kickers are never substitutes, so they are the hand's
                    # own cards (a wild card among them plays its own rank).
                    kicks: Sequence[int] = self._kicker_codes(
                        i, p, n, chain << s, room.held if p.single_kickers else hand)
                    left = budget - short
                    # A kicker set lacks at most its own cards: past that, every one fits.
                    if left < n * (unit - width):
                        kicks = room.kickers_within(kicks, left)
                    out.extend([base + k for k in kicks])

    @staticmethod
    def _above(p: Pattern, n: int, last: Play) -> int:
        """Start ranks whose play of ``n`` units may beat ``last`` (bit mask)."""
        if p.tier != last.tier:
            return _ALL if p.tier > last.tier else 0
        floor = last.key - n + 1  # the start of an equal play: it does not beat
        if p.second:
            floor -= 1  # equal four chains may still win on the trio chain
        return _ALL if floor < 0 else _ALL & ~((2 << floor) - 1)

    def _emit_second(self, i: int, p: Pattern, s: int, n: int, base: int, used: int,
                     hand: _Hand, last: Play | None, out: list[int]) -> None:
        run = full = hand[1][p.second] & _CHAIN_MASK & ~used
        for k in range(1, n):
            run &= full >> k
        for s2 in BITS[run]:
            used2 = ((1 << n) - 1) << s2
            if used2 & used:
                continue
            top, sub = s + n - 1, s2 + n - 1
            if last is not None and not p.tier and (top, sub) <= (last.key, last.subkey):
                continue
            code = base | s2 << SECOND
            kicks = self._kicker_codes(i, p, n, used | used2, hand)
            out.extend([code + k for k in kicks])

    def _kicker_codes(self, i: int, p: Pattern, n: int, used: int,
                      hand: _Hand) -> tuple[int, ...]:
        """Kicker sets beside a main part, memoised by what the hand has left for them."""
        _, masks, _, packed = hand
        if p.single_kickers:
            m = n * len(p.kickers)
            if m == 1:
                key: tuple[int, int, int] = (-1, 1, masks[1] & ~used)
            else:
                ranks = 0
                for r in BITS[used]:
                    ranks |= 15 << (4 * r)
                key = (-1, m, packed & ~ranks)
        else:
            sig = 0
            for size, _ in self._group_sizes[i]:
                sig = sig << NUM_RANKS | (masks[size] & ~used)
            key = (i, n, sig)
        codes = self._kickers.get(key)
        if codes is None:
            codes = self._make_kickers(i, p, n, key[2])
            if len(self._kickers) > _CACHE_LIMIT:
                self._kickers.clear()
            self._kickers[key] = codes
        return codes

    def _make_kickers(self, i: int, p: Pattern, n: int, sig: int) -> tuple[int, ...]:
        if p.single_kickers:
            m = n * len(p.kickers)
            if m == 1:
                return tuple(1 << (KICKERS + 4 * r) for r in BITS[sig])
            avail = [(r, min(m, (sig >> (4 * r)) & 15)) for r in range(NUM_RANKS)
                     if (sig >> (4 * r)) & 15]
            return _single_sets(avail, m)
        sizes = self._group_sizes[i]
        free: list[int] = []
        for _ in sizes:
            free.append(sig & ((1 << NUM_RANKS) - 1))
            sig >>= NUM_RANKS
        free.reverse()
        jokers_ok = self.rs.joker_pairs
        found: list[int] = []

        def walk(j: int, taken: int, acc: int) -> None:
            if j == len(sizes):
                found.append(acc)
                return
            size, k = sizes[j]
            mask = free[j] & ~taken
            if not (size == 2 and jokers_ok):
                mask &= ~_JOKER_BITS
            for chosen in combinations(BITS[mask], k * n):
                bits = sum(1 << r for r in chosen)
                walk(j + 1, taken | bits, acc + sum(size << (4 * r) for r in chosen))

        walk(0, 0, 0)
        return tuple(sorted(k << KICKERS for k in found))


_Hand = tuple[Sequence[int], list[int], int, int]
#: The bits of a code below its kickers: pattern, chains and their lengths.
HEAD_MASK = (1 << KICKERS) - 1
_ALL = (1 << NUM_RANKS) - 1
#: For a rank held k times, the widths it reaches: 1 … k.
_LEVELS = [tuple(range(1, k + 1)) for k in range(17)]
_SMALL_BIT = 15 << (KICKERS + 4 * SMALL_JOKER)
_BIG_BIT = 15 << (KICKERS + 4 * BIG_JOKER)


def _single_sets(avail: list[tuple[Rank, int]], m: int) -> tuple[int, ...]:
    """Kicker codes of every ``m``-card multiset from (rank, count) pairs, never the rocket."""
    buckets: list[list[int]] = [[0]] + [[] for _ in range(m)]
    for r, c in avail:
        one = 1 << (KICKERS + 4 * r)
        for s in range(m - 1, -1, -1):
            if buckets[s]:
                for t in range(1, min(c, m - s) + 1):
                    step = t * one
                    buckets[s + t].extend([x + step for x in buckets[s]])
    return tuple(sorted(x for x in buckets[m] if not (x & _SMALL_BIT and x & _BIG_BIT)))


class Room:
    """The natural cards behind a wildcard game's virtual hand, and the wild cards to spend.

    ``short[w][r]`` is how many wild cards rank ``r`` needs to make ``w`` of a
    kind; a kicker set's shortfall is read from its packed counts at once.
    """

    __slots__ = ("_have", "_kicker_shorts", "budget", "held", "short")

    def __init__(self, natural: Sequence[int], budget: int, widths: int, held: _Hand) -> None:
        self.budget = budget
        #: The hand as it is (its wild cards at their own rank): where single kickers come from.
        self.held = held
        self.short = [list(map(_DEFICITS[w].__getitem__, natural)) for w in range(widths + 1)]
        # One pack: at most 4 of a rank, so 4 bits a rank hold it.
        self._have = sum(natural[r] << (4 * r) for r in range(NUM_RANKS))
        self._kicker_shorts: dict[int, int] = {}

    def shortfall(self, packed: int) -> int:
        """Per rank, what the cards ``packed`` (4 bits a rank) lack in the natural cards.

        ``k + 8 - have`` never borrows from the next field, and its bit 3 says
        whether ``k >= have``; the low three bits are then ``k - have``.
        """
        x = (packed | _EIGHTS) - self._have
        return x & (((x >> 3) & _ONES) * 7)

    def kickers_within(self, kicks: Sequence[int], left: int) -> list[int]:
        """The kicker codes among ``kicks`` that lack at most ``left`` cards, in order.

        The same kicker sets come back beside many main parts of one hand: each
        one's shortfall is worked out once.
        """
        known = self._kicker_shorts
        out: list[int] = []
        for k in kicks:
            short = known.get(k)
            if short is None:
                short = known[k] = self.kicker_short(k >> KICKERS)
            if short <= left:
                out.append(k)
        return out

    def kicker_short(self, packed: int) -> int:
        """Wild cards the kickers ``packed`` need beyond the natural cards (a total)."""
        pos = self.shortfall(packed)
        return (pos & _ONES).bit_count() + 2 * (pos & (_ONES << 1)).bit_count() \
            + 4 * (pos & (_ONES << 2)).bit_count()


_ONES = sum(1 << (4 * r) for r in range(NUM_RANKS))
#: ``_DEFICITS[w][k]``: what ``k`` cards of a rank lack to make ``w`` of a kind.
_DEFICITS = [tuple(max(0, w - k) for k in range(17)) for w in range(17)]
_EIGHTS = _ONES << 3
