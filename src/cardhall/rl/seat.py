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
_RANK_OF = tuple(card_rank(c) for c in range(len(CARD_TEXT)))


class SeatEncoder:
    """``encode(layout, state.observe(seat), [])`` without the view, for ``PLAIN`` games."""

    def __init__(self, layout: Layout) -> None:
        if layout.axis != len(RANK_CHARS):
            raise ValueError("the plain games count cards by rank")
        self.layout = layout
        self.at = layout.starts
        self.size = layout.size

    @staticmethod
    def fits(state: GameState) -> bool:
        return type(state) in PLAIN

    def encode(self, state: Any, me: int) -> Vector:
        """The vector of seat ``me``'s view of ``state`` (no tokens chosen)."""
        n, axis, at = self.layout.players, self.layout.axis, self.at
        ones: list[int] = []
        add, extend = ones.append, ones.extend
        add(at["phase"] + _PHASE_AT.get(str(state.phase), 0))
        acting = at["acting"]
        extend([acting + (s - me) % n for s in state.acting])
        hand = state.hands[me]
        base = at["hand_cards"]
        extend([base + c for c in hand])
        base = at["hand"]
        extend([base + _RANK_OF[c] for c in hand])
        played = at["played"]
        for s, cards in enumerate(state.played_by):
            if cards:
                base = played + (s - me) % n * axis
                extend([base + _RANK_OF[c] for c in cards])
        landlord, kitty_to = state.landlord, state.kitty_to
        if (landlord is not None and kitty_to == "all") \
                or (me == landlord and kitty_to != "all") or state.over:
            base = at["kitty"]
            extend([base + _RANK_OF[c] for c in state.kitty_dealt])
        trick = state.trick
        if trick is not None:
            seat, play = trick
            held, _, meant = play.text.partition("=")
            base = at["table_cards"]
            extend([base + r for r in _axis(held, axis)])
            base = at["table_meaning"]
            extend([base + r for r in _axis(meant or held, axis)])
            add(at["table_seat"] + (seat - me) % n)
            add(at["table_leader"] + (state.acted[0] - me) % n)
        base, width = at["roles"], len(ROLES)
        for s, role in enumerate(state._view_roles(me)):
            add(base + (s - me) % n * width + _ROLE_AT.get(role, 0))
        base, width = at["last"], HEADS + 1
        for s, last in enumerate(state._view_last(me)):
            add(base + (s - me) % n * width + _head(last))
        base = at["warnings"]
        extend([base + (s - me) % n for s in state._view_warnings()])
        out = np.bincount(ones, minlength=self.size).astype(np.float32)
        base = at["counts"]
        for s, cards in enumerate(state.hands):
            out[base + (s - me) % n] += len(cards)
        out[at["multiplier"]] += float(state._multiplier_causes()["total"])
        return out
