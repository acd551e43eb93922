"""A climbing game's table says which seats' last words belong to the trick on it
(``table.acted``) and who led it (``leader``): the client draws only those in front of
the seats (issue 26: the previous trick sat beside the current one). Checked against the
trick followed independently from the actions and events of random games."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardhall.games import VARIANTS, new_game

CLIMBING = [v for v, d in VARIANTS.items() if d.rules is not None]


@pytest.mark.parametrize("variant", CLIMBING)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_acted_is_the_trick_so_far(variant: str, seed: int) -> None:
    game = new_game(variant, seed=seed)
    rng = random.Random(seed)
    trick: list[int] = []  # seats that acted since the lead, in order, each once
    checked = 0
    while game.to_act is not None:
        seat = game.to_act
        playing = game.phase == "play"
        leading = playing and game.observe(seat)["table"] is None
        action = rng.choice([str(a) for a in game.legal_actions(seat)])
        events = game.apply(action, seat=seat)
        if not playing:
            continue
        if leading:
            trick = []
        if seat not in trick:
            trick.append(seat)
        if any(e["type"] == "trick-over" for e in events):
            trick = []
        for viewer in range(game.players):
            table = game.observe(viewer)["table"]
            if game.phase != "play" or not trick:
                continue
            assert table is not None
            assert table["acted"] == trick
            assert table["leader"] == trick[0]
            checked += 1
        if not trick:
            assert game.observe(seat)["table"] is None
    assert checked > 0


KITTY = [v for v, d in VARIANTS.items() if d.rules is not None and d.layout and d.layout.kitty]


@pytest.mark.parametrize("variant", KITTY)
def test_the_shown_kitty_has_its_suits(variant: str) -> None:
    """The kitty once shown: ``kitty_cards`` are cards read as ``kitty``'s ranks, with
    suits: in the landlord's hand the moment he takes them (斗帝主's emperor chooses from
    them: in no hand yet)."""
    for seed in range(1, 30):
        game = new_game(variant, seed=seed)
        rng = random.Random(seed)
        while game.to_act is not None and "kitty_cards" not in game.observe(0)["detail"]:
            seat = game.to_act
            game.apply(rng.choice([str(a) for a in game.legal_actions(seat)]), seat=seat)
        detail = game.observe(0)["detail"]
        if "kitty_cards" not in detail or game.phase == "over":
            continue  # dealt again, or the kitty went to one seat only: another seed
        cards = Counter(detail["kitty_cards"])
        assert sorted(c[0] for c in cards.elements()) == sorted(detail["kitty"])
        hands = [Counter(game.observe(s)["hand"]) for s in range(game.players)]
        roles = game.observe(0)["roles"]
        if "landlord" in roles:  # taken into the landlord's hand
            assert not cards - hands[roles.index("landlord")]
        else:  # 斗帝主: shown for the emperor to choose from, in nobody's hand yet
            ranks = Counter(c[0] for hand in hands for c in hand.elements())
            ranks.update(c[0] for c in cards.elements())
            assert ranks == Counter({r: n for r, n in VARIANTS[variant].deck.items() if n})
        return
    raise AssertionError(f"no seed showed {variant}'s kitty")
