"""Trick-taking rules of 找朋友 (docs/rules/zhaopengyou.md §2 and §4): order, units, winner.

Cards are the suited ints of ``cardhall.cards`` (``rank * 4 + suit``, jokers 52
and 53). Three packs make identical cards: a hand is a multiset of ids.

**Trump context.** ``trumps(level, suit)`` fixes the level rank ℓ and the
trump suit T. Every card then belongs to one *group* — a side suit (0–3,
``s h c d``) or ``TRUMP`` — and has a *step*, its height inside the group:

    side suits   2 3 4 … K A without ℓ                      steps 0 … 11
    trumps       T-2 … T-A without ℓ                        steps 0 … 11
                 ℓ of the three other suits (all equal)     step 12
                 T-ℓ, small joker, big joker                steps 13, 14, 15

Adjacent steps are adjacent for tractors, which is the whole of §2's adjacency
rule: ℓ leaves the side suits (with ℓ = 7, ♠66 and ♠88 sit on adjacent steps)
and the trump top climbs plain top → off-suit ℓ → T-ℓ → SJ → BJ. A trump ℓ card
is in the trump group, so it never joins side cards of its suit.

**Units.** A single (any card), a pair (two identical ids), a tractor (pairs on
two or more adjacent steps of one group). Only the off-suit-ℓ step can hold
several different pairs (♥ℓ♥ℓ and ♣ℓ♣ℓ are equal but not a pair together);
every other step is one card face, and with three packs a face makes at most
one pair (three copies are a pair and a single, Ruling 6).

**A lead** is cut into units canonically (``decompose``): the longest tractor
first (the highest among equally long), again while any is left, then pairs,
then singles. Its ``Shape`` (tractor lengths, further pairs, singles) is what
followers must answer and what a play needs to compete. A play *has* a shape if
its cards can be arranged into exactly those units (``arrange``), so a trump
tractor 3344 can answer a thrown ♠AA ♠QQ as two pairs.

**Winner** (§4, Ruling 15). Only plays wholly of the led group or wholly trump
that have the lead's shape compete; trump beats side; then the *leading unit*
compares — the longest tractor if the lead has one, else the highest pair, else
the highest single — with each play arranged for its best leading unit; equal
ranks go to the earlier play.

**Throws** (甩牌). A lead of several units of one group holds when no other
hand has a strictly higher unit of the same kind (a tractor as long, a pair, a
single; equal cards do not beat). A failed throw plays only its lowest beatable
unit (Ruling 9), lowest by the rank that unit compares with (a tractor's top),
singles before pairs before tractors on equal ranks (docs/rulings.md).

Follow obligations and move lists are in ``trick_follow``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from cardhall.cards import (
    FIVE,
    KING,
    RANK_CHARS,
    SMALL_JOKER_CARD,
    SUIT_CHARS,
    SUIT_SYMBOLS,
    TEN,
    Card,
    Rank,
    card_rank,
    format_cards,
)

#: The group of every trump card; side suits are groups 0–3 (their suit numbers).
TRUMP = 4
GROUPS = 5
#: Steps of the trump top (below them, steps 0–11 are plain ranks without ℓ).
TOP_PLAIN, OFF_LEVEL, TRUMP_LEVEL, SMALL, BIG = 11, 12, 13, 14, 15
NUM_STEPS = 16
#: Level ranks from the lowest: a player's level is an index into this string.
LEVEL_CHARS = "23456789TJQKA"
#: Point cards (分牌): 5 = 5, 10 = 10, K = 10; three packs hold 300.
POINTS: tuple[int, ...] = tuple(
    5 if c < SMALL_JOKER_CARD and card_rank(c) == FIVE else
    10 if c < SMALL_JOKER_CARD and card_rank(c) in (TEN, KING) else 0
    for c in range(54))


class TrickError(ValueError):
    """Cards that make no lead or play (mixed groups, nothing at all); the message says why."""


def level_index(rank: Rank) -> int:
    """Height of a suited rank in 找朋友 order, 2 lowest (0) to A highest (12)."""
    return (rank + 1) % 13


def level_rank(index: int) -> Rank:
    """The rank of level ``index`` (0 = "2", 12 = "A")."""
    return (index + 12) % 13


def points(cards: Iterable[Card]) -> int:
    return sum(POINTS[c] for c in cards)


class Trumps:
    """The trump context of one hand: ``group``, ``step`` and ``strength`` per card id.

    ``strength`` orders all 54 faces at once (every side card below every
    trump; side suits share heights), for "lowest card" policies and displays.
    """

    __slots__ = ("group", "level", "step", "strength", "suit")

    def __init__(self, level: Rank, suit: int) -> None:
        if not 0 <= level < 13 or not 0 <= suit < 4:
            raise TrickError(f"no trump context for level {level!r}, suit {suit!r}")
        self.level = level
        self.suit = suit
        lv = level_index(level)
        group: list[int] = []
        step: list[int] = []
        for c in range(54):
            if c >= SMALL_JOKER_CARD:
                group.append(TRUMP)
                step.append(SMALL if c == SMALL_JOKER_CARD else BIG)
                continue
            rank, s = card_rank(c), c % 4
            if rank == level:
                group.append(TRUMP)
                step.append(TRUMP_LEVEL if s == suit else OFF_LEVEL)
                continue
            v = level_index(rank)
            group.append(TRUMP if s == suit else s)
            step.append(v - 1 if v > lv else v)
        self.group: tuple[int, ...] = tuple(group)
        self.step: tuple[int, ...] = tuple(step)
        self.strength: tuple[int, ...] = tuple(
            st + (NUM_STEPS if g == TRUMP else 0) for g, st in zip(group, step, strict=True))

    def is_trump(self, c: Card) -> bool:
        return self.group[c] == TRUMP

    def group_of(self, cards: Iterable[Card]) -> int | None:
        """The one group of all ``cards``, or None if they mix groups (or are none)."""
        groups = {self.group[c] for c in cards}
        return groups.pop() if len(groups) == 1 else None

    def describe(self) -> str:
        return f"level {RANK_CHARS[self.level]}, trump {SUIT_SYMBOLS[self.suit]}"

    def __repr__(self) -> str:
        return f"trumps({self.level!r}, {self.suit!r})  # {self.describe()}"


@cache
def trumps(level: Rank, suit: int) -> Trumps:
    """The shared, immutable context for level rank ``level`` and trump suit ``suit``."""
    return Trumps(level, suit)


def group_name(group: int) -> str:
    """For messages: ``♠`` … ``♦``, or ``trumps``."""
    return "trumps" if group == TRUMP else SUIT_SYMBOLS[group]


def group_char(group: int) -> str:
    """For data: ``s h c d`` or ``trump``."""
    return "trump" if group == TRUMP else SUIT_CHARS[group]


# -- units -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit of a play: ``pairs`` is 0 for a single, 1 for a pair, t ≥ 2 for a tractor."""

    pairs: int
    top: int  # step of its highest card: what it compares with
    cards: tuple[Card, ...]

    @property
    def kind(self) -> str:
        return ("single", "pair", "tractor")[min(self.pairs, 2)]

    @property
    def text(self) -> str:
        return format_cards(self.cards)

    def __repr__(self) -> str:
        return f"Unit({self.kind} {self.text})"


@dataclass(frozen=True, slots=True)
class Shape:
    """What a lead asks for: its tractors' lengths (longest first), further pairs, singles."""

    tractors: tuple[int, ...]
    pairs: int
    singles: int

    @property
    def total_pairs(self) -> int:
        """Every pair in the shape, tractor pairs included (the follow and 扣底 count)."""
        return sum(self.tractors) + self.pairs

    @property
    def size(self) -> int:
        return 2 * self.total_pairs + self.singles

    def describe(self) -> str:
        parts = [f"a tractor of {t} pairs" for t in self.tractors]
        if self.pairs:
            parts.append("a pair" if self.pairs == 1 else f"{self.pairs} pairs")
        if self.singles:
            parts.append("a single" if self.singles == 1 else f"{self.singles} singles")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class Lead:
    """The first play of a trick, cut into units: what every other play answers."""

    cards: tuple[Card, ...]
    group: int
    units: tuple[Unit, ...]
    shape: Shape

    @property
    def is_throw(self) -> bool:
        return len(self.units) > 1

    @property
    def size(self) -> int:
        return len(self.cards)


def pair_ids(cards: Iterable[Card]) -> list[Card]:
    """Each face held at least twice, once (three copies still make one pair)."""
    return sorted(c for c, n in Counter(cards).items() if n >= 2)


def pair_profile(cards: Iterable[Card], ctx: Trumps) -> list[int]:
    """Pairs available on each step (only the off-suit-ℓ step can exceed one)."""
    avail = [0] * NUM_STEPS
    for c in pair_ids(cards):
        avail[ctx.step[c]] += 1
    return avail


def runs(avail: Sequence[int]) -> list[tuple[int, int]]:
    """Maximal stretches of adjacent steps that hold a pair: ``(first, last)`` steps."""
    out: list[tuple[int, int]] = []
    start = -1
    for s in range(NUM_STEPS + 1):
        if s < NUM_STEPS and avail[s]:
            if start < 0:
                start = s
        elif start >= 0:
            out.append((start, s - 1))
            start = -1
    return out


def decompose(cards: Sequence[Card], ctx: Trumps) -> tuple[Unit, ...]:
    """The canonical units of cards of one group: tractors (longest, then highest), pairs, singles.

    Greedy longest-first is the rule's own reading of a lead ("a tractor of
    length t"); it is unique up to which equal off-suit-ℓ pair a tractor
    takes, where the lowest id is used.
    """
    if not cards:
        raise TrickError("no cards")
    if ctx.group_of(cards) is None:
        raise TrickError(f"{format_cards(cards)} mixes suits: units are of one suit or all trumps")
    step = ctx.step
    counts = Counter(cards)
    ids_at: list[list[Card]] = [[] for _ in range(NUM_STEPS)]
    for c in sorted(counts):
        if counts[c] >= 2:
            ids_at[step[c]].append(c)
    units: list[Unit] = []
    while True:
        best: tuple[int, int] | None = None
        for first, last in runs([len(ids) for ids in ids_at]):
            if best is None or (last - first, last) > (best[1] - best[0], best[1]):
                best = (first, last)
        if best is None or best[1] == best[0]:
            break
        ids = [ids_at[s].pop(0) for s in range(best[0], best[1] + 1)]
        for c in ids:
            counts[c] -= 2
        units.append(Unit(len(ids), best[1], tuple(sorted(ids * 2))))
    for s in range(NUM_STEPS):
        for c in ids_at[s]:
            counts[c] -= 2
            units.append(Unit(1, s, (c, c)))
    for c in sorted(counts):
        units.extend(Unit(0, step[c], (c,)) for _ in range(counts[c]))
    units.sort(key=lambda u: (-u.pairs, -u.top, u.cards))
    return tuple(units)


def shape_of(units: Iterable[Unit]) -> Shape:
    units = list(units)
    return Shape(tuple(u.pairs for u in units if u.pairs >= 2),
                 sum(1 for u in units if u.pairs == 1),
                 sum(1 for u in units if u.pairs == 0))


def lead_of(cards: Sequence[Card], ctx: Trumps) -> Lead:
    """The lead these cards make; TrickError if they are none or mix groups."""
    units = decompose(cards, ctx)
    return Lead(tuple(sorted(cards)), ctx.group[cards[0]], units, shape_of(units))


# -- comparing plays -----------------------------------------------------------------------


def _fits(avail: Sequence[int], first: int, length: int) -> bool:
    return all(avail[first + j] for j in range(length))


def _place_rest(avail: list[int], lengths: Sequence[int], i: int, below: int,
                extra_pairs: int) -> bool:
    """Whether tractors ``lengths[i:]`` fit disjointly, leaving ``extra_pairs`` pairs."""
    if i == len(lengths):
        return sum(avail) >= extra_pairs
    t = lengths[i]
    hi = below if lengths[i - 1] == t else NUM_STEPS - t  # equal lengths: no permutations
    for first in range(min(hi, NUM_STEPS - t), -1, -1):
        if _fits(avail, first, t):
            for j in range(t):
                avail[first + j] -= 1
            ok = _place_rest(avail, lengths, i + 1, first, extra_pairs)
            for j in range(t):
                avail[first + j] += 1
            if ok:
                return True
    return False


def arrange(cards: Sequence[Card], shape: Shape, ctx: Trumps) -> int | None:
    """The best leading-unit step of ``cards`` (one group) arranged as ``shape``; None if they
    cannot be. The leading unit is the longest tractor, else the highest pair, else the
    highest single; trying tractors from the top, the first arrangement found is the best.
    """
    if len(cards) != shape.size:
        return None
    avail = pair_profile(cards, ctx)
    if sum(avail) < shape.total_pairs:
        return None
    if not shape.tractors:
        if shape.pairs:
            return max(s for s in range(NUM_STEPS) if avail[s])
        return max(ctx.step[c] for c in cards)
    t = shape.tractors[0]
    for first in range(NUM_STEPS - t, -1, -1):
        if _fits(avail, first, t):
            for j in range(t):
                avail[first + j] -= 1
            ok = _place_rest(avail, shape.tractors, 1, first, shape.pairs)
            for j in range(t):
                avail[first + j] += 1
            if ok:
                return first + t - 1
    return None


def play_rank(cards: Sequence[Card], lead: Lead, ctx: Trumps) -> tuple[int, int] | None:
    """How a play competes in a trick led by ``lead``: (trump?, leading step), or None."""
    group = ctx.group_of(cards)
    if group is None or group not in (lead.group, TRUMP):
        return None
    value = arrange(cards, lead.shape, ctx)
    return None if value is None else (int(group == TRUMP), value)


def trick_winner(plays: Sequence[Sequence[Card]], ctx: Trumps) -> int:
    """Index of the winning play; the first play is the lead. Ties go to the earlier play."""
    lead = lead_of(plays[0], ctx)
    best, best_rank = 0, play_rank(plays[0], lead, ctx)
    assert best_rank is not None
    for i in range(1, len(plays)):
        rank = play_rank(plays[i], lead, ctx)
        if rank is not None and rank > best_rank:
            best, best_rank = i, rank
    return best


def pairs_in(cards: Iterable[Card]) -> int:
    """Pairs a play contains, a tractor of t pairs counting t (扣底, Ruling 12)."""
    return len(pair_ids(cards))


def bottom_multiplier(cards: Iterable[Card]) -> int:
    """扣底: the kitty's points count ×2^(1 + pairs in the winning last play)."""
    return 1 << (1 + pairs_in(cards))


# -- throws --------------------------------------------------------------------------------


def _beaten(unit: Unit, avail: Sequence[int], top_single: int) -> bool:
    if unit.pairs == 0:
        return top_single > unit.top
    if unit.pairs == 1:
        return any(avail[s] for s in range(unit.top + 1, NUM_STEPS))
    return any(last - first + 1 >= unit.pairs and last > unit.top for first, last in runs(avail))


def beatable_units(lead: Lead, others: Iterable[Sequence[Card]], ctx: Trumps) -> list[Unit]:
    """The units of ``lead`` that some other hand could beat with a higher unit of its kind."""
    out: list[Unit] = []
    group, step = lead.group, ctx.step
    for hand in others:
        mine = [c for c in hand if ctx.group[c] == group]
        if not mine:
            continue
        avail = pair_profile(mine, ctx)
        top_single = max(step[c] for c in mine)
        out.extend(u for u in lead.units if u not in out and _beaten(u, avail, top_single))
    return out


def failed_throw(lead: Lead, others: Iterable[Sequence[Card]], ctx: Trumps) -> Unit | None:
    """The unit a throw is cut down to if it fails (Ruling 9), or None if it holds.

    The lowest beatable unit by its comparing step; singles, then pairs, then
    tractors on equal steps. A lead of one unit is no throw and always holds.
    """
    if not lead.is_throw:
        return None
    beaten = beatable_units(lead, others, ctx)
    if not beaten:
        return None
    return min(beaten, key=lambda u: (u.top, min(u.pairs, 2), u.cards))


def safe_throws(hand: Sequence[Card], unseen: Sequence[Card],
                ctx: Trumps) -> list[tuple[Card, ...]]:
    """Per group, the largest throw its holder can *see* will hold: every unit unbeatable by any
    hand made of ``unseen`` (the cards he has not seen). Judging by the other hands themselves
    would tell him what they hold; these need no knowledge he lacks.
    """
    out: list[tuple[Card, ...]] = []
    by_group: dict[int, list[Card]] = {}
    for c in hand:
        by_group.setdefault(ctx.group[c], []).append(c)
    for group in sorted(by_group):
        cards = by_group[group]
        lead = lead_of(cards, ctx)
        if not lead.is_throw:
            continue
        beaten = beatable_units(lead, [unseen], ctx)
        keep = [c for u in lead.units if u not in beaten for c in u.cards]
        if not keep:
            continue
        throw = lead_of(keep, ctx)
        if throw.is_throw and not beatable_units(throw, [unseen], ctx):
            out.append(throw.cards)
    return out
