"""Scripted positions for bot tests: a deal that gives chosen seats chosen hands."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from cardhall.cards import format_ranks, parse_ranks
from cardhall.games import GameState, new_game
from cardhall.games.climbing import ClimbingGame
from cardhall.rules import RuleSet


def deal(variant: str, fixed: dict[int, str], kitty: str = "") -> dict[str, Any]:
    """A deal giving the ``fixed`` seats their hands; other seats and the kitty get the rest.

    The rest is dealt in rank order (lowest cards to the lowest unfixed seat),
    so a test knows roughly what the unfixed seats hold.
    """
    probe = new_game(variant)
    assert isinstance(probe, ClimbingGame)
    rs, players, size = probe.rs, probe.players, probe.layout.hand
    rest = [r for r in range(15) for _ in range(rs.limits[r])]
    for text in [*fixed.values(), kitty]:
        for r in parse_ranks(text):
            rest.remove(r)
    hands = []
    for seat in range(players):
        if seat in fixed:
            hands.append(fixed[seat])
        else:
            hands.append(format_ranks(rest[:size]))
            rest = rest[size:]
    if not kitty:
        kitty, rest = format_ranks(rest[:probe.layout.kitty]), rest[probe.layout.kitty:]
    return {"hands": hands, "kitty": kitty, "dead": format_ranks(rest)}


def ddz3(fixed: dict[int, str], *actions: str) -> GameState:
    """A ddz3 game with seat 0 the landlord; a fixed landlord hand has 20 cards (kitty last)."""
    hands = dict(fixed)
    kitty = ""
    if 0 in hands:
        hands[0], kitty = hands[0][:17], hands[0][17:]
    state = new_game("ddz3", seed=1, options={"deal": deal("ddz3", hands, kitty),
                                              "landlord": 0})
    for action in actions:
        state.apply(action)
    return state


def hand_from(rs: RuleSet, cards: Sequence[int]) -> list[int]:
    """Rank counts of the cards at positions ``cards`` (mod the deck) of ``rs``'s full deck:
    a hypothesis strategy's integers as a hand that its rule set can hold."""
    deck = [r for r, n in enumerate(rs.limits) for _ in range(n)]
    counts = [0] * len(rs.limits)
    for i in cards:
        counts[deck[i % len(deck)]] += 1
    return counts


def random_views(variant: str, games: int) -> Iterator[dict[str, Any]]:
    """The acting seat's view at every position of ``games`` random games (seed ``g``, each
    move drawn by ``random.Random(g)`` from the legal ones)."""
    for g in range(games):
        state = new_game(variant, seed=g)
        rng = random.Random(g)
        while not state.over:
            seat = state.to_act
            assert seat is not None
            yield dict(state.observe(seat))
            state.apply(rng.choice(state.legal_actions()))
