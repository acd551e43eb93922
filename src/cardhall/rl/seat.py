"""A seat's vector read straight from the game's state, for the games whose view is plain.

``observation.encode`` of ``state.observe(seat)`` is the reference: the view holds
only what the seat may know, and the encoding reads nothing else. Building that view
at every decision (legal texts, options, result, the detail's bids and stake) and
parsing its card texts again cost more than the game's own move (docs/performance.md,
"The RL environment"). For the bidding Dou Dizhu games (ddz3, ddz4, ddz2) the vector
is written here from the same fields the view hooks read (``_view_roles``,
``_view_last``, the hands' sizes for the counts and ``_view_warnings``' rule, the cards
played, the trick, and the kitty only where ``_observe_extra`` shows it), as numbers
rather than text.

The only state of another seat read here is what the view also gives: the number of
cards in each hand and the cards each seat played. tests/rl/test_seat.py compares this
vector with the reference at every step of many seeded games of every variant, and
the swap test (tests/rl/test_observation.py) runs on it.
"""

from __future__ import annotations

from array import array
from typing import Any

import numpy as np

from cardhall.cards import CARD_TEXT, RANK_CHARS, card_rank
from cardhall.games import GameState
from cardhall.games.ddz import Classic, FourPlayer, TwoPlayer
from cardhall.rl.actions import HEADS
from cardhall.rl.observation import PHASES, ROLES, Layout, Vector, _head

#: The games written here: their views add nothing the vector reads but the kitty.
PLAIN = (Classic, FourPlayer, TwoPlayer)

_PHASE_AT = {p: i for i, p in enumerate(PHASES)}
_ROLE_AT = {role: i for i, role in enumerate(ROLES) if role is not None}
#: Memo sizes past which a memo starts again (a long run meets many hands).
_MEMO = 50_000
_RANK_OF = tuple(card_rank(c) for c in range(len(CARD_TEXT)))


class _Kept:
    """One seat's last vector and the sources of its parts (``SeatEncoder.encode``)."""

    def __init__(self, state: Any, size: int, players: int) -> None:
        self.state = state
        self.vector = _floats(size)
        self.hand: list[int] | None = None
        self.hand_size = 0
        self.played: list[list[int] | None] = [None] * players
        self.played_size = [0] * players
        self.kitty: list[int] | None = None
        self.kitty_size = 0
        self.trick: Any = None
        self.ones: set[int] = set()
        self.counts: list[int] = [0] * players


def _floats(size: int) -> array[float]:
    return array("f", bytes(4 * size))


class SeatEncoder:
    """``encode(layout, state.observe(seat), [])`` without the view, for ``PLAIN`` games.

    One encoder serves one environment. It keeps each seat's last vector as a plain
    float32 buffer (``array``: a Python write is several times cheaper than numpy's
    for one element) with what each part was written from, rewrites only the parts
    whose source changed, and keeps the cards each seat played counted by rank (they
    only grow until a redeal starts new lists)."""

    def __init__(self, layout: Layout) -> None:
        if layout.axis != len(RANK_CHARS):
            raise ValueError("the plain games count cards by rank")
        self.layout = layout
        self.at = layout.starts
        n, axis = layout.players, layout.axis
        #: every seat's cards played by rank, seat by seat in turn order (not relative)
        self._played = _floats(n * axis)
        self._played_from: list[tuple[list[int], int] | None] = [None] * n
        self._plays: dict[tuple[int, ...], array[float]] = {}
        self._heads: dict[str | None, int] = {}
        self._roles: dict[tuple[int | None, int], list[int]] = {}
        self._stake: tuple[Any, int, int, float] | None = None
        self._kept: list[_Kept | None] = [None] * n
        self._zero = _floats(max(54, axis))

    @staticmethod
    def fits(state: GameState) -> bool:
        return type(state) in PLAIN

    def encode(self, state: Any, me: int) -> Vector:
        """The vector of seat ``me``'s view of ``state`` (no tokens chosen).

        Each seat's last vector is kept with what it was written from (the hand's list
        and length, each seat's cards played, the trick, the kitty's visibility, the
        single ones, the counts); a part is written again only when its source changed."""
        n, axis, at = self.layout.players, self.layout.axis, self.at
        kept = self._kept[me]
        if kept is None or kept.state is not state:
            kept = self._kept[me] = _Kept(state, self.layout.size, n)
        out, zero = kept.vector, self._zero
        hand: list[int] = state.hands[me]
        if len(hand) != kept.hand_size or hand is not kept.hand:
            base = at["hand_cards"]
            out[base:base + 54] = zero[:54]
            for c in hand:
                out[base + c] += 1.0
            base = at["hand"]
            out[base:base + axis] = array("f", state.counts[me])
            kept.hand, kept.hand_size = hand, len(hand)
        played = self._count_played(state.played_by)
        base = at["played"]
        for s, cards in enumerate(state.played_by):
            if len(cards) != kept.played_size[s] or cards is not kept.played[s]:
                at_s = base + (s - me) % n * axis
                out[at_s:at_s + axis] = played[s * axis:(s + 1) * axis]
                kept.played[s], kept.played_size[s] = cards, len(cards)
        landlord, kitty_to = state.landlord, state.kitty_to
        over = state.phase == "over"
        kitty = state.kitty_dealt if (landlord is not None and kitty_to == "all") \
            or (me == landlord and kitty_to != "all") or over else None
        if kitty is not kept.kitty or (kitty is not None and len(kitty) != kept.kitty_size):
            base = at["kitty"]
            out[base:base + axis] = zero[:axis] if kitty is None \
                else self._by_ranks(tuple(sorted(_RANK_OF[c] for c in kitty)))
            kept.kitty, kept.kitty_size = kitty, 0 if kitty is None else len(kitty)
        ones = [at["phase"] + _PHASE_AT.get(str(state.phase), 0)]
        ones.extend(self._role_places(state, me))
        if not over and state.to_act is not None:
            ones.append(at["acting"] + (state.to_act - me) % n)
        trick = state.trick
        if trick is not kept.trick:
            cards = zero[:axis] if trick is None else self._by_ranks(trick[1].cards)
            base = at["table_cards"]  # no wild cards here: they stand for themselves
            out[base:base + axis] = cards
            base = at["table_meaning"]
            out[base:base + axis] = cards
            kept.trick = trick
        if trick is not None:
            ones.append(at["table_seat"] + (trick[0] - me) % n)
            ones.append(at["table_leader"] + (state.acted[0] - me) % n)
        base, width, heads = at["last"], HEADS + 1, self._heads
        for s, last in enumerate(state._view_last(me)):
            head = heads.get(last)
            if head is None:
                head = heads[last] = _head(last)
            ones.append(base + (s - me) % n * width + head)
        hands = state.hands[me:] + state.hands[:me]
        base = at["warnings"]
        ones.extend([base + s for s, h in enumerate(hands) if 0 < len(h) <= 2])
        now = set(ones)  # distinct places: one per seat and part
        if now != kept.ones:
            for i in kept.ones - now:
                out[i] = 0.0
            for i in now - kept.ones:
                out[i] = 1.0
            kept.ones = now
        base = at["counts"]
        for s, h in enumerate(hands):
            out[base + s] = len(h)
        out[at["multiplier"]] = self._total(state, over)
        return np.frombuffer(out, dtype=np.float32).copy()

    def _count_played(self, played_by: list[list[int]]) -> array[float]:
        """Every seat's cards played by rank, brought up to date with the cards added."""
        axis, played = self.layout.axis, self._played
        for s, cards in enumerate(played_by):
            kept = self._played_from[s]
            if kept is None or kept[0] is not cards or kept[1] > len(cards):
                played[s * axis:(s + 1) * axis] = self._zero[:axis]
                kept = (cards, 0)
            if kept[1] < len(cards):
                for c in cards[kept[1]:]:
                    played[s * axis + _RANK_OF[c]] += 1.0
                kept = (cards, len(cards))
            self._played_from[s] = kept
        return played

    def _role_places(self, state: Any, me: int) -> list[int]:
        """The roles' ones, by who is landlord (the only thing they follow here)."""
        key = (state.landlord, me)
        found = self._roles.get(key)
        if found is None:
            n, base, width = self.layout.players, self.at["roles"], len(ROLES)
            found = self._roles[key] = [base + (s - me) % n * width + _ROLE_AT.get(role, 0)
                                        for s, role in enumerate(state._view_roles(me))]
        return found

    def _total(self, state: Any, over: bool) -> float:
        """The multiplier's total; in play it changes only with the bombs played."""
        if over or state.landlord is None:
            return float(state._multiplier_causes()["total"])
        kept = self._stake
        if kept is None or kept[0] is not state or kept[1] != state.contract \
                or kept[2] != len(state.bombs):
            kept = self._stake = (state, state.contract, len(state.bombs),
                                  float(state._multiplier_causes()["total"]))
        return kept[3]

    def _by_ranks(self, ranks: tuple[int, ...]) -> array[float]:
        """Ranks counted (a play's cards, the kitty)."""
        found = self._plays.get(ranks)
        if found is None:
            if len(self._plays) > _MEMO:
                self._plays.clear()
            found = self._plays[ranks] = _floats(self.layout.axis)
            for r in ranks:
                found[r] += 1.0
        return found
