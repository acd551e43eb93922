"""A rule set: one variant's declaration and the three questions games ask of it.

``classify(cards)`` — every legal reading; ``beats(a, b)``; ``moves(hand,
last)`` — every legal play (a lead when ``last`` is None). A rule set is a
frozen value: options (the wild rank, 烤牌, 憋6) make a new one with
``with_options``, so a game holds exactly the rules it plays by.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from cardhall.cards import (
    NUM_RANKS,
    RANK_CHARS,
    SMALL_JOKER,
    TWO,
    CardError,
    Counts,
    Rank,
    format_ranks,
    parse_groups,
    parse_ranks,
    to_counts,
)
from cardhall.rules import climb, sets, wild
from cardhall.rules.movegen import MoveGen
from cardhall.rules.patterns import Pattern
from cardhall.rules.plays import Play

Cards = str | Sequence[int]


class RuleError(ValueError):
    """Bad input for a rule set: unknown option, impossible cards, unreadable play."""


class NoReading(RuleError):
    """``parse_play``: cards that make no play of the rule set (no combination)."""


class SeveralReadings(RuleError):
    """``parse_play``: cards that read several ways and say not which; ``readings``."""

    def __init__(self, message: str, readings: list[Play]) -> None:
        super().__init__(message)
        self.readings = readings


@dataclass(frozen=True)
class RuleSet:
    name: str
    description: str
    packs: int
    patterns: tuple[Pattern, ...] = ()
    #: "ladder": Dou Dizhu-style kinds and bomb ladder; "sets": 保皇 card-by-card dominance.
    comparison: Literal["ladder", "sets"] = "ladder"
    #: SJSJ / BJBJ may serve as kicker pairs (4-player, 斗帝主).
    joker_pairs: bool = False
    #: Ranks missing from the deck (保皇 plays without 3, 4, 5).
    absent: tuple[Rank, ...] = ()
    #: The variant plays with a wild rank (癞子); ``wild`` is this game's rank.
    wildcards: bool = False
    wild: Rank | None = None
    kaopai: bool = False
    bie6: bool = False
    single_kicker_kinds: frozenset[str] = field(init=False, repr=False, compare=False)
    gen: MoveGen = field(init=False, repr=False, compare=False)
    #: How many of each rank the deck holds.
    limits: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        per_rank, per_joker = 4 * self.packs, self.packs
        limits = tuple(0 if r in self.absent else (per_joker if r >= SMALL_JOKER else per_rank)
                       for r in range(NUM_RANKS))
        object.__setattr__(self, "limits", limits)
        kinds = frozenset(p.kind for p in self.patterns if p.single_kickers)
        object.__setattr__(self, "single_kicker_kinds", kinds)
        # One compiled generator per distinct declaration: options (the wild rank,
        # 烤牌, 憋6) do not change natural generation, so games share its caches.
        key = (self.patterns, self.joker_pairs)
        gen = _GENERATORS.get(key)
        if gen is None:
            gen = _GENERATORS[key] = MoveGen(self)
        object.__setattr__(self, "gen", gen)

    # -- options ---------------------------------------------------------------------

    def with_options(self, wild: Rank | str | None = None, **options: object) -> RuleSet:
        """This rule set with a wild rank or boolean options (``kaopai``, ``bie6``)."""
        rs = self
        if wild is not None:
            if not self.wildcards:
                raise RuleError(f"{self.name} has no wildcards")
            rank = _one_rank(wild) if isinstance(wild, str) else wild
            if not 0 <= rank <= TWO:
                raise RuleError(f"the wild rank must be one of 3 … 2, not {RANK_CHARS[rank]}")
            rs = replace(rs, wild=rank)
        for key, value in options.items():
            if key == "kaopai" and self.comparison == "sets":
                rs = replace(rs, kaopai=_boolean(key, value))
            elif key == "bie6" and self.comparison == "sets":
                rs = replace(rs, bie6=_boolean(key, value))
            else:
                raise RuleError(f"{self.name} has no option {key!r}")
        return rs

    # -- the three questions ---------------------------------------------------------

    def hand(self, cards: Cards) -> Counts:
        """Rank counts of ``cards``, checked against this variant's deck."""
        if isinstance(cards, str):
            try:
                counts = to_counts(parse_ranks(cards))
            except CardError as exc:
                raise RuleError(str(exc)) from exc
        else:
            counts = tuple(cards)
        if len(counts) != NUM_RANKS:
            raise RuleError(f"a rank-count vector has {NUM_RANKS} entries, not {len(counts)}")
        if all(map(_within, counts, self.limits)):  # the common case, at C speed
            return counts
        for r, n in enumerate(counts):
            limit = self.limits[r]
            if not _within(n, limit):
                name = RANK_CHARS[r]
                what = f"has only {limit} of {name}" if limit else f"is played without {name}"
                raise RuleError(f"{self.name} {what} (got {n})")
        raise AssertionError("unreachable")  # pragma: no cover

    def classify(self, cards: Cards) -> list[Play]:
        """Every legal reading of exactly these cards (empty if they are no hand)."""
        counts = self.hand(cards)
        if self.comparison == "sets":
            return sets.classify(counts)
        if self.wild is not None:
            return wild.classify(self, counts, self.wild)
        cache = self.gen.readings
        readings = cache.get(counts)
        if readings is None:
            if len(cache) > _READINGS_CACHE:
                cache.clear()
            readings = cache[counts] = tuple(climb.classify(self, counts))
        return list(readings)

    def beats(self, a: Play, b: Play) -> bool:
        """Whether ``a`` may be played on ``b``."""
        if self.comparison == "sets":
            return sets.beats(a, b, self.kaopai)
        return climb.ladder_beats(a, b)

    def moves(self, hand: Cards, last: Play | None = None) -> list[Play]:
        """Every legal play from ``hand``, without duplicates; leads if ``last`` is None."""
        counts = self.hand(hand)
        if self.comparison == "sets":
            return sets.moves(counts, last, self.kaopai, self.bie6)
        if self.wild is not None:
            return wild.moves(self, counts, self.wild, last)
        return self.gen.plays(self.gen.codes(counts, last))

    def spelt_moves(self, hand: Cards, last: Play | None = None) -> tuple[list[Play], list[str]]:
        """``moves`` and each play's full text, as ``parse_play`` reads it back
        (``"3335=3333"`` for a wild play): a wildcard lead has thousands of plays,
        and its generator spells each main part and kicker set once for all of them."""
        if self.comparison != "sets" and self.wild is not None:
            return wild.spelt_moves(self, self.hand(hand), self.wild, last)
        plays = self.moves(hand, last)
        return plays, [_full_text(p) for p in plays]

    def moves_any(self, hand: Cards, last: Cards) -> list[Play]:
        """Plays that beat *some* reading of ``last`` (the command line's ``--last``)."""
        readings = self.classify(last)
        if not readings:
            raise RuleError(f"{_text(last)} is not a {self.name} hand")
        seen: set[Play] = set()
        out: list[Play] = []
        for reading in readings:
            for play in self.moves(hand, reading):
                if play not in seen:
                    seen.add(play)
                    out.append(play)
        return out

    def parse_play(self, text: str) -> Play:
        """The reading that ``text`` names: ``"333444+56"``; wild plays as ``"3335=3333"``.

        ``+`` separates the main part from the kickers and so picks one reading
        of cards that have several; without it, a reading without kickers is
        preferred, and any other is accepted when it is the only one.
        """
        readings, bare = self._named(text)
        if bare:
            readings = [p for p in readings if not p.kickers] or readings
        if not readings:
            raise NoReading(f"{text.strip()!r} is not a {self.name} play")
        if len(readings) > 1:
            options = ", ".join(_full_text(p) for p in readings)
            raise SeveralReadings(f"{text.strip()!r} has several readings: {options}", readings)
        return readings[0]

    def readings_of(self, text: str) -> list[Play]:
        """Every reading ``text`` may mean, in ``classify``'s order: those that agree with
        its ``+`` (main part and kickers) and its ``=`` (what wild cards stand for). Bare
        cards get all their readings, also where ``parse_play`` prefers one (3339 with 9
        wild: the soft bomb 3339=3333 and 三带一 333+9=333+9), so that a player can be
        offered each; RuleError only for text that names no cards."""
        return self._named(text)[0]

    def _named(self, text: str) -> tuple[list[Play], bool]:
        """The readings ``text`` agrees with, and whether it names bare cards (no ``+``
        split into main part and kickers, no ``=``)."""
        cards_text, _, as_text = text.partition("=")
        try:
            groups = parse_groups(cards_text)
            as_groups = parse_groups(as_text) if as_text else None
        except CardError as exc:
            raise RuleError(str(exc)) from exc
        readings = self.classify(cards_text.replace("+", ""))
        if as_groups is not None:
            readings = [p for p in readings if p.as_main is not None
                        and _same(p.as_main, p.as_kickers or (), as_groups)]
        if len(groups) == 2:
            readings = [p for p in readings if _same(p.main, p.kickers, groups)]
        return readings, len(groups) != 2 and as_groups is None


_READINGS_CACHE = 1 << 16
_GENERATORS: dict[tuple[tuple[Pattern, ...], bool], MoveGen] = {}


def _within(n: int, limit: int) -> bool:
    return 0 <= n <= limit


def _same(main: tuple[Rank, ...], kickers: tuple[Rank, ...],
          groups: tuple[tuple[Rank, ...], ...]) -> bool:
    want = [tuple(sorted(g)) for g in groups]
    if len(want) == 1:
        return not kickers and tuple(sorted(main)) == want[0]
    return tuple(sorted(main)) == want[0] and tuple(sorted(kickers)) == want[1]


def _full_text(p: Play) -> str:
    return p.text + (f"={p.as_text}" if p.as_text else "")


def _text(cards: Cards) -> str:
    return cards if isinstance(cards, str) else format_ranks(
        r for r, n in enumerate(cards) for _ in range(n))


def _one_rank(text: str) -> Rank:
    try:
        ranks = parse_ranks(text)
    except CardError as exc:
        raise RuleError(str(exc)) from exc
    if len(ranks) != 1:
        raise RuleError(f"expected one rank, got {text!r}")
    return ranks[0]


def _boolean(key: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "1", "yes", "on"):
        return True
    if text in ("false", "0", "no", "off"):
        return False
    raise RuleError(f"option {key} takes true or false, not {value!r}")
