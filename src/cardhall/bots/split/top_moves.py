"""The moves at a top rank: the plays a split search may take out of a hand there.

The search (``hands.Planner``) takes the highest rank still in hand first, so at
each step it needs every main part whose highest card is that rank, given how many
cards of it are held, each with the kicker slots it opens (one move per kicker
option) and whether it may itself ride as a kicker. They come from the rule set's
own pattern declarations (``_read_kickers``, ``_generate``): the same code serves
every variant. ``_greedy_at`` orders them for the greedy split past the effort cap.

Its own module because generating the moves from the rules is a job apart from the
search that walks them: ``TopMoves`` holds it, ``Planner`` inherits it, and the
tables it fills are shared per rule set (``hands._MOVES``, ``hands._GREEDY``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardhall.bots.split.moves import Move, as_kicker
from cardhall.bots.split.packed import FIELD, SLOT_BITS, slot_count
from cardhall.bots.split.splits import KICKER_TOP, TURN, Group, play_worth
from cardhall.cards import ACE, BIG_JOKER, SMALL_JOKER, Rank
from cardhall.rules import RuleSet


class TopMoves:
    """The moves at each top rank, from the rule set's patterns (``hands.Planner``'s base)."""

    rs: RuleSet
    #: Whether the rules compare sets (保皇): any number of one rank is one play.
    sets: bool
    #: Kicker group sizes some pattern takes; slot kind ``k`` holds groups of ``k + 1``.
    kicker_sizes: set[int]
    #: (width, chain?) → the slot options of that main part, per chain unit.
    _carriers: dict[tuple[int, bool], list[tuple[int, ...]]]
    _moves: dict[tuple[Rank, int], list[Move]]
    _greedy: dict[tuple[Rank, int], list[Move]]

    if TYPE_CHECKING:
        def position(self, r: Rank) -> int:
            """Where rank ``r`` sits in a packed hand (``Planner.position``)."""

    def _read_kickers(self, rs: RuleSet) -> None:
        """Which main parts carry what: one slot option per kicker pattern, per chain unit."""
        if self.sets:
            return
        for p in rs.patterns:
            if not p.kickers or p.second or p.tier:
                continue
            per_unit = [0, 0, 0]
            for size in p.kickers:
                per_unit[size - 1] += 1
            self._carriers.setdefault((p.width, p.is_chain), []).append(tuple(per_unit))
            self.kicker_sizes.update(p.kickers)

    # -- the moves at a top rank -----------------------------------------------------

    def _moves_at(self, top: Rank, have: int) -> list[Move]:
        """Every main part whose highest card is ``top``, given ``have`` cards of it."""
        cached = self._moves.get((top, have))
        if cached is None:
            cached = self._moves[top, have] = self._generate(top, have)
        return cached

    def _generate(self, top: Rank, have: int) -> list[Move]:
        """``_moves_at`` without the cache."""
        out: list[Move] = []
        rs = self.rs
        if top >= SMALL_JOKER:
            out.extend(self._joker_moves(top, have))
        elif self.sets:
            for k in range(1, have + 1):
                worth = play_worth(top, 1, 0) + 0.15 * (k - 1)
                out.extend(self._move("set", (top,) * k, top, 1, 0, worth))
        else:
            for p in rs.patterns:
                if p.kickers or p.second or p.jokers or p.width > have:
                    continue
                if not p.is_chain:
                    if top in p.ranks:
                        out.extend(self._move(p.kind, (top,) * p.width, top, 1, p.tier))
                    continue
                if top > ACE:
                    continue
                for n in range(p.chain[0], min(p.chain[1], top + 1) + 1):
                    main = tuple(r for r in range(top - n + 1, top + 1) for _ in range(p.width))
                    out.extend(self._move(p.kind, main, top, n, p.tier))
        return out

    def _joker_moves(self, top: Rank, have: int) -> list[Move]:
        out: list[Move] = []
        if self.sets:
            # 保皇: jokers alone win like a top set; any number of either kind.
            small_max = self.rs.limits[SMALL_JOKER]
            for big in range(1 if top == BIG_JOKER else 0, (have if top == BIG_JOKER else 0) + 1):
                for small in range(0 if top == BIG_JOKER else 1, small_max + 1):
                    if top == SMALL_JOKER and small > have:
                        continue
                    if small + big:
                        worth = play_worth(top, 1, 0) + 0.3 * (small + big - 1)
                        cards = (SMALL_JOKER,) * small + (BIG_JOKER,) * big
                        out.extend(self._move("jokers", cards, top, 1, 0, worth))
            return out
        for p in self.rs.patterns:
            if p.jokers:
                for small, big in p.jokers:
                    if (big and top == BIG_JOKER and big <= have) or \
                            (not big and top == SMALL_JOKER and small <= have):
                        cards = (SMALL_JOKER,) * small + (BIG_JOKER,) * big
                        out.extend(self._move(p.kind, cards, top, 1, p.tier))
            elif not p.is_chain and not p.kickers and top in p.ranks and p.width <= have:
                out.extend(self._move(p.kind, (top,) * p.width, top, 1, p.tier))
        return out

    def _move(self, kind: str, main: tuple[Rank, ...], key: Rank, length: int, tier: int,
              worth: float | None = None) -> list[Move]:
        """The search's moves for one main part: one per kicker option if it carries."""
        if worth is None:
            worth = play_worth(key, length, tier)
        delta = 0
        for r in main:
            delta += 1 << (FIELD * self.position(r))
        size = len(main)
        rides = size if (length == 1 and not tier and key <= KICKER_TOP
                         and size in self.kicker_sizes) else 0
        group = Group(kind, main, key, length, tier, worth)
        options = [] if tier else self._carriers.get((size // length, length > 1), [])
        bare = Move(delta, worth, group, 0, rides)
        return [bare, *(Move(delta, worth, group,
                              sum((n * length) << (SLOT_BITS * k) for k, n in enumerate(option)),
                              rides) for option in options)]

    def _greedy_at(self, top: Rank, have: int) -> list[Move]:
        """The moves at ``top`` (riding ones included), those covering most turns first."""
        cached = self._greedy.get((top, have))
        if cached is not None:
            return cached
        out: list[Move] = []
        for move in self._moves_at(top, have):
            out.append(move)
            if move.rides and not move.opens:
                out.append(as_kicker(move, move.rides - 1))
        # Saved turns first: a kicker saves its whole turn, a carrier opens slots for them.
        out.sort(key=lambda m: -(m.worth + TURN * len(m.group.main)
                                 + TURN * slot_count(m.opens)))
        self._greedy[top, have] = out
        return out
