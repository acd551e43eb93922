"""What a bot reads from an observation: sides as known so far, plays from their text."""

from __future__ import annotations

from cardhall.bots.view import reader, sides
from cardhall.rules.wild import HARD, PURE, SOFT


def test_sides_classic() -> None:
    assert sides({"seat": 1, "landlord": 0}, 3) == (frozenset({2}), frozenset({0}))
    assert sides({"seat": 0, "landlord": 0}, 3) == (frozenset(), frozenset({1, 2}))
    assert sides({"seat": 0, "landlord": None}, 2) == (frozenset(), frozenset({1}))


def test_sides_five_player_hidden_landlord() -> None:
    """A farmer knows the open landlord only; the hidden one is somewhere among the rest."""
    farmer = {"seat": 2, "landlord": 0, "landlords": [0], "role": "farmer",
              "hidden_landlord": None, "single_landlord": None}
    assert sides(farmer, 5) == (frozenset(), frozenset({0}))
    revealed = dict(farmer, landlords=[0, 3], hidden_landlord=3, single_landlord=False)
    assert sides(revealed, 5) == (frozenset({1, 4}), frozenset({0, 3}))
    hidden = {"seat": 3, "landlord": 0, "landlords": [0, 3], "role": "hidden landlord",
              "hidden_landlord": 3, "single_landlord": False}
    assert sides(hidden, 5) == (frozenset({0}), frozenset({1, 2, 4}))


def test_sides_given_per_seat() -> None:
    assert sides({"seat": 1, "sides": [0, 1, 1, 0, None]}, 5) == (
        frozenset({2}), frozenset({0, 3}))


def test_wild_plays_read_from_their_text() -> None:
    """癞子 (wild 5): the stand-in text gives the reading, the wild count the bomb class."""
    read = reader("ddz3_laizi", 2)
    soft = read.read("3335=3333")
    assert (soft.kind, soft.tier, soft.cards) == ("bomb", SOFT, (0, 0, 0, 2))
    assert read.read("5555=5555").tier == PURE
    assert read.read("3333").tier == HARD
    plane = reader("ddz3_laizi", 0).read("33TT+45=TTTT+45")  # wild 3: two 3s stand for Ts
    assert (plane.kind, plane.key, plane.main) == ("four_single", 7, (0, 0, 7, 7))
