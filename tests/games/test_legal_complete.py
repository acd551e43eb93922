"""A view's ``legal_complete`` tells the truth, in every variant and phase (issue 23).

Where a view says its list is complete, a client may build its choices from the list
alone (the web client's buttons, an environment's mask, a bot's candidates): so every
action ``check`` accepts must be listed. Over seeded random games, at every decision,
random actions of the listed verbs made of the seat's own cards (and of the kitty, for
斗帝主's ``take``) are read with ``readings`` (every canonical action they may mean that
``check`` accepts); in a view that says complete each must be in ``legal``. 找朋友's bury
lists four suggestions of the C(38, 7) burials ``check`` takes, so its view says false
and gives ``detail.bury``, the number of cards to bury.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardhall.cards import CARD_TEXT, parse_cards, parse_ranks, rank_text
from cardhall.games import VARIANTS, GameState, new_game, variant
from cardhall.games.zhaopengyou import KITTY
from tests.lanes import slow_for

IDS = sorted(VARIANTS)
#: Verbs whose argument is cards, and so whose actions are too many to try them all.
CARD_VERBS = ("play", "bury", "declare", "take", "call")


def _bare(text: str) -> str:
    return text.split(" ", 1)[1] if text.startswith("@") else text


def _tries(state: GameState, seat: int, rng: random.Random, n: int) -> list[str]:
    """Up to ``n`` random action texts of the verbs listed now, of the seat's cards."""
    view = state.observe(seat)
    listed = [_bare(t) for t in view["legal"]]
    verbs = sorted({t.split(" ", 1)[0] for t in listed} & set(CARD_VERBS))
    hand = list(parse_cards(" ".join(view["hand"])))
    suited = variant(state.variant.id).suits
    kitty = view["detail"].get("kitty")
    out = []
    for _ in range(n if verbs else 0):
        verb = rng.choice(verbs)
        if verb == "take":  # 斗帝主: ranks of the kitty
            ranks = list(parse_ranks(kitty)) if isinstance(kitty, str) else []
            picked = rng.sample(ranks, rng.randint(1, len(ranks))) if ranks else []
            out.append("take " + "".join(sorted("3456789TJQKA2XD"[r] for r in picked)))
            continue
        sizes = [len(t.split()) - 1 if suited or verb == "call" else
                 len(t.split(" ", 1)[1].replace("+", "").replace("=", ""))
                 for t in listed if t.startswith(verb + " ")]
        size = min(rng.choice([*sizes, rng.randint(1, 8)]), len(hand))
        if size < 1:
            continue
        cards = rng.sample(hand, size)
        out.append(f"{verb} " + (" ".join(CARD_TEXT[c] for c in sorted(cards))
                                 if suited or verb == "call" else rank_text(cards)))
    return out


@pytest.mark.parametrize("name", slow_for(IDS, {"zhaopengyou", "baohuang", "ddz5"}))
def test_a_complete_list_holds_every_action_check_accepts(name: str) -> None:
    seen: Counter[str] = Counter()
    for seed in range(4):
        state = new_game(name, seed)
        rng = random.Random(seed)
        while not state.over:
            seat = rng.choice(state.acting)
            view = state.observe(seat)
            if view["legal_complete"]:
                listed = {_bare(t) for t in view["legal"]}
                for text in _tries(state, seat, rng, 6):
                    for reading in state.readings(text, seat):
                        seen[str(view["phase"])] += 1
                        assert _bare(reading) in listed, \
                            (name, seed, view["phase"], text, reading)
            state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
    assert sum(seen.values()) > 20, seen  # the tries did find legal actions to look up


def test_the_bury_view_says_its_list_is_suggestions() -> None:
    """Every seeded deal: the dealer's bury view is not complete, names the count, and
    ``check`` takes seven cards that no suggestion buries."""
    for seed in range(6):
        state = new_game("zhaopengyou", seed)
        rng = random.Random(seed)
        while state.phase != "bury":
            seat = rng.choice(state.acting)
            state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
        dealer = state.to_act
        assert dealer is not None
        view = state.observe(dealer)
        assert view["legal_complete"] is False and "plays" not in view
        assert view["detail"]["bury"] == KITTY and view["legal"]
        assert all(t.startswith("bury ") for t in view["legal"])
        listed = set(view["legal"])
        for _ in range(50):
            cards = sorted(rng.sample(list(parse_cards(" ".join(view["hand"]))), KITTY))
            text = state.canonical("bury " + " ".join(CARD_TEXT[c] for c in cards), dealer)
            if text not in listed:
                assert state.check(text, dealer) is None
                break
        else:
            raise AssertionError("fifty random burials were all suggestions")
        for other in range(state.players):
            if other != dealer:
                other_view = state.observe(other)
                assert "bury" not in other_view["detail"] and other_view["legal"] == []
