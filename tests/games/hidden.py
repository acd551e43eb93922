"""What each seat may not see, per variant, written from the rule files (not the engine).

``hidden_zones(state, seat)`` names the places whose cards ``seat`` cannot see
right now; ``shuffle_hidden`` deals those cards among those places again,
keeping their sizes, so a test can check that an observation does not move;
``assert_no_leak`` is that check for every seat at once.
"""

from __future__ import annotations

import random
from typing import Any

from cardhall.games import GameState

#: DDZ family: whether the kitty is shown to every seat once the landlord takes it (each
#: rule file's deal section). A new variant's test states its own.
KITTY_PUBLIC = {"ddz2": True, "ddz3": True, "ddz3_happy": True, "ddz3_laizi": True,
                "ddz4": False, "ddz5": False, "ddz_emperor": False}


def _ddz_hidden(state: Any, seat: int) -> list[str]:
    """DDZ family: other hands; the kitty until public; dead cards always."""
    if state.over:
        return []
    zones = [f"hand{s}" for s in range(state.players) if s != seat and s not in _shown(state)]
    kitty_public = KITTY_PUBLIC[state.variant.id]
    landlord_sees = seat == state.landlord and state.variant.id in ("ddz4", "ddz5")
    emperor = state.variant.id == "ddz_emperor" and seat == state.landlord
    hidden_kitty = state.landlord is None or not kitty_public
    if state.kitty and hidden_kitty and not landlord_sees and not emperor:
        zones.append("kitty")
    emperor_saw = state.variant.id == "ddz_emperor" and seat == state.landlord
    if state.dead and not emperor_saw:
        zones.append("dead")
    return zones


def _shown(state: Any) -> set[int]:
    """Seats whose hands the rules make public (happy show cards, 5p revealed partners)."""
    return set(getattr(state, "shown", {}) or ())


HIDDEN = {name: _ddz_hidden for name in
          ("ddz2", "ddz3", "ddz3_happy", "ddz3_laizi", "ddz4", "ddz5", "ddz_emperor")}


def _ddz5_hidden(state: Any, seat: int) -> list[str]:
    """ddz-5p §2: once revealed, each landlord sees the other's hand, nobody else does.

    ``shown_to`` holds the seats that see one another's hands (the two
    landlords, from the identity step or the late reveal on).
    """
    mates: set[int] = state.shown_to if seat in state.shown_to else set()
    return [z for z in _ddz_hidden(state, seat)
            if not (z.startswith("hand") and int(z[4:]) in mates)]


HIDDEN["ddz5"] = _ddz5_hidden


def _baohuang_hidden(state: Any, seat: int) -> list[str]:
    """保皇: every other hand until the end, and cards a puzzle deal left out of play.

    The cards travelling with the emperor card (the 贴2 tribute) are public, and
    so is every played card; a revealed guard still hides his hand.
    """
    if state.over:
        return []
    zones = [f"hand{s}" for s in range(state.players) if s != seat]
    return [*zones, "dead"] if state.dead else zones


HIDDEN["baohuang"] = _baohuang_hidden


def _zhaopengyou_hidden(state: Any, seat: int) -> list[str]:
    """找朋友 §3: every other hand until the end; the kitty too, except to the dealer once he
    has taken it (it is in his hand, then he knows what he buried; before that it holds the
    undealt cards)."""
    if state.over:
        return []
    zones = [f"hand{s}" for s in range(state.players) if s != seat]
    dealer_knows = seat == state.dealer and state.phase in ("bury", "friend", "play")
    return zones if dealer_knows else [*zones, "kitty"]


HIDDEN["zhaopengyou"] = _zhaopengyou_hidden


def hidden_zones(state: GameState, seat: int) -> list[str]:
    zones = HIDDEN[state.variant.id](state, seat)
    # A zone holding fewer than two cards in total cannot be told apart by shuffling.
    return zones if sum(len(state.zones()[z]) for z in zones) > 1 else []


def shuffle_hidden(state: Any, zones: list[str], rng: random.Random) -> None:
    now = state.zones()
    pool = [c for z in zones for c in now[z]]
    rng.shuffle(pool)
    for z in zones:
        part, pool = sorted(pool[:len(now[z])]), pool[len(now[z]):]
        if z.startswith("hand"):
            seat = int(z[4:])
            state.hands[seat] = part
            state.counts[seat] = state._count(part)
        else:
            setattr(state, z, part)
    if "kitty" in zones:
        state.kitty_dealt = list(state.kitty)
    state._legal = None


def assert_no_leak(state: GameState, rng: random.Random) -> None:
    """For every seat: shuffling the cards it cannot see leaves its observation unchanged."""
    for seat in range(state.players):
        zones = hidden_zones(state, seat)
        if not zones:
            continue
        twin = state.clone()
        shuffle_hidden(twin, zones, rng)
        mine, theirs = state.observe(seat), twin.observe(seat)
        for key in ("legal", "legal_complete", "plays"):  # the seat's own choices
            mine.pop(key, None)
            theirs.pop(key, None)
        assert mine == theirs, f"seat {seat} sees hidden cards in {state.phase}"
