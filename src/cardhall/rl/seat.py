"""A seat's vector read straight from the game's state, for the games whose view is plain.

``observation.encode`` of ``state.observe(seat)`` is the reference: the view holds
only what the seat may know, and the encoding reads nothing else. Building that view
at every decision (legal texts, options, result, the detail's bids and stake) and
parsing its card texts again cost more than the game's own move (docs/performance.md,
"The RL environment"). For the bidding Dou Dizhu games (ddz3, ddz4, ddz2) the vector
is written here from the same fields the view hooks read (``_view_roles``,
``_view_last``, ``_view_warnings``, the hands' counts, the cards played, the trick,
and the kitty only where ``_observe_extra`` shows it), as numbers rather than text.

The only state of another seat read here is what the view also gives: the number of
cards in each hand and the cards each seat played. tests/rl/test_seat.py compares this
vector with the reference at every step of many seeded games of every variant, and
the swap test (tests/rl/test_observation.py) runs on it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardhall.cards import CARD_TEXT, RANK_CHARS, card_rank
from cardhall.games import GameState
from cardhall.games.ddz import Classic, FourPlayer, TwoPlayer
from cardhall.rl.actions import HEADS
from cardhall.rl.observation import PHASES, ROLES, Layout, Vector, _axis, _head

#: The games written here: their views add nothing the vector reads but the kitty.
PLAIN = (Classic, FourPlayer, TwoPlayer)

_PHASE_AT = {p: i for i, p in enumerate(PHASES)}
_ROLE_AT = {role: i for i, role in enumerate(ROLES) if role is not None}
#: Memo sizes past which a memo starts again (a long run meets many hands).
_MEMO = 50_000
_RANK_OF = tuple(card_rank(c) for c in range(len(CARD_TEXT)))


class SeatEncoder:
    """``encode(layout, state.observe(seat), [])`` without the view, for ``PLAIN`` games."""

    def __init__(self, layout: Layout) -> None:
        if layout.axis != len(RANK_CHARS):
            raise ValueError("the plain games count cards by rank")
        self.layout = layout
        self.at = layout.starts
        self.size = layout.size
        self._zero = np.zeros(layout.size, dtype=np.float32)
        #: count vectors by the cards they count, and the last actions' first tokens
        self._cards: dict[tuple[int, ...], Vector] = {}
        self._ranks: dict[tuple[int, ...], Vector] = {}
        self._plays: dict[str, tuple[Vector, Vector]] = {}
        self._heads: dict[str | None, int] = {}

    @staticmethod
    def fits(state: GameState) -> bool:
        return type(state) in PLAIN

    def encode(self, state: Any, me: int) -> Vector:
        """The vector of seat ``me``'s view of ``state`` (no tokens chosen).

        Card parts are written as whole slices, each a count vector looked up by the
        cards it counts (``_by_rank``, ``_by_card``): a hand or a seat's cards played
        repeat from decision to decision. The single ones go in one fancy assignment."""
        n, axis, at = self.layout.players, self.layout.axis, self.at
        out = self._zero.copy()
        hand = tuple(state.hands[me])
        base = at["hand_cards"]
        out[base:base + 54] = self._by_card(hand)
        base = at["hand"]
        out[base:base + axis] = state.counts[me]
        played = at["played"]
        for s, cards in enumerate(state.played_by):
            if cards:
                base = played + (s - me) % n * axis
                out[base:base + axis] = self._by_rank(tuple(cards))
        landlord, kitty_to = state.landlord, state.kitty_to
        if (landlord is not None and kitty_to == "all") \
                or (me == landlord and kitty_to != "all") or state.over:
            base = at["kitty"]
            out[base:base + axis] = self._by_rank(tuple(state.kitty_dealt))
        ones = [at["phase"] + _PHASE_AT.get(str(state.phase), 0)]
        add, extend = ones.append, ones.extend
        acting = at["acting"]
        extend([acting + (s - me) % n for s in state.acting])
        trick = state.trick
        if trick is not None:
            seat, play = trick
            held, meant = self._table(play.text)
            base = at["table_cards"]
            out[base:base + axis] = held
            base = at["table_meaning"]
            out[base:base + axis] = meant
            add(at["table_seat"] + (seat - me) % n)
            add(at["table_leader"] + (state.acted[0] - me) % n)
        base, width = at["roles"], len(ROLES)
        for s, role in enumerate(state._view_roles(me)):
            add(base + (s - me) % n * width + _ROLE_AT.get(role, 0))
        base, width, heads = at["last"], HEADS + 1, self._heads
        for s, last in enumerate(state._view_last(me)):
            head = heads.get(last)
            if head is None:
                head = heads[last] = _head(last)
            add(base + (s - me) % n * width + head)
        base = at["warnings"]
        extend([base + (s - me) % n for s in state._view_warnings()])
        out[ones] = 1.0  # distinct places: one per seat and part
        base = at["counts"]
        out[base:base + n] = [len(h) for h in state.hands[me:] + state.hands[:me]]
        out[at["multiplier"]] = float(state._multiplier_causes()["total"])
        return out

    def _by_card(self, cards: tuple[int, ...]) -> Vector:
        found = self._cards.get(cards)
        if found is None:
            if len(self._cards) > _MEMO:
                self._cards.clear()
            found = self._cards[cards] = np.bincount(cards, minlength=54).astype(np.float32)
        return found

    def _by_rank(self, cards: tuple[int, ...]) -> Vector:
        found = self._ranks.get(cards)
        if found is None:
            if len(self._ranks) > _MEMO:
                self._ranks.clear()
            found = self._ranks[cards] = np.bincount(
                [_RANK_OF[c] for c in cards], minlength=self.layout.axis).astype(np.float32)
        return found

    def _table(self, text: str) -> tuple[Vector, Vector]:
        """A play's cards and what they stand for (its text as the view writes it)."""
        found = self._plays.get(text)
        if found is None:
            held, _, meant = text.partition("=")
            axis = self.layout.axis
            found = self._plays[text] = (
                np.bincount(_axis(held, axis), minlength=axis).astype(np.float32),
                np.bincount(_axis(meant or held, axis), minlength=axis).astype(np.float32))
        return found
