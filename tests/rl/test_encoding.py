"""The observation's parts hold what docs/rl.md says, read from the seat's view."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardhall.cards import RANK_CHARS, parse_card
from cardhall.rl import PHASES, ROLES, TOKENS, env
from cardhall.rl.observation import SEGMENTS, encode
from tests.rl.play import IDS, moves


def part(e: Any, agent: str, name: str) -> np.ndarray:
    return e.unwrapped.observe(agent)["observation"][e.unwrapped.layout.slot(name)]


def until(e: Any, done: Any, seed: int = 0) -> None:
    """Random masked play of ``e`` until ``done(raw)`` holds."""
    rng = np.random.default_rng(seed)
    raw = e.unwrapped
    while not done(raw):
        mask = raw.observe(raw.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))


def test_hand_counts_phase_and_seats_are_relative() -> None:
    e = env("ddz3")
    e.reset(seed=4)
    raw = e.unwrapped
    view = raw.game.observe(1)
    assert part(e, "seat_1", "hand").sum() == 17 == part(e, "seat_1", "hand_cards").sum()
    for c in view["hand"]:
        assert part(e, "seat_1", "hand_cards")[parse_card(c)] >= 1
    assert part(e, "seat_1", "phase")[PHASES.index("bid")] == 1
    acting = part(e, "seat_1", "acting")
    assert acting[(raw.game.to_act - 1) % 3] == 1 and acting.sum() == 1


def test_played_cards_table_roles_and_last() -> None:
    e = env("ddz3", landlord=0, first=0)
    e.reset(seed=4)
    raw = e.unwrapped
    until(e, lambda r: r.game.phase == "play" and r.game.observe(0)["table"] is not None
          and not r.decision.chosen)
    view = raw.game.observe(2)
    table = view["table"]
    rel = (table["seat"] - 2) % 3
    played = part(e, "seat_2", "played").reshape(3, len(RANK_CHARS))
    for rank in table["cards"].replace("+", ""):
        assert played[rel][RANK_CHARS.index(rank)] >= 1
        assert part(e, "seat_2", "table_cards")[RANK_CHARS.index(rank)] >= 1
    assert part(e, "seat_2", "table_seat")[rel] == 1
    roles = part(e, "seat_2", "roles").reshape(3, len(ROLES))
    assert roles[(0 - 2) % 3][ROLES.index("landlord")] == 1
    last = part(e, "seat_2", "last").reshape(3, -1)
    assert last[rel][TOKENS.index("play …")] == 1


def test_the_tokens_chosen_so_far() -> None:
    e = env("ddz3", landlord=0, first=0)
    e.reset(seed=4)
    until(e, lambda r: r.game.phase == "play" and len(r.decision.chosen) == 2)
    raw = e.unwrapped
    chosen = raw.decision.chosen
    selection = part(e, raw.agent_selection, "selection").reshape(SEGMENTS, -1)
    assert selection[0].sum() == 2 and all(selection[0][t] >= 1 for t in chosen)
    assert part(e, raw.possible_agents[(raw.game.to_act + 1) % 3], "selection").sum() == 0


def test_variant_facts() -> None:
    e = env("ddz3_laizi", wild="9")
    e.reset(seed=2)
    until(e, lambda r: r.game.phase == "play")
    assert part(e, "seat_0", "wild")[RANK_CHARS.index("9")] == 1
    e = env("zhaopengyou")
    e.reset(seed=2)
    until(e, lambda r: r.game.phase == "play")
    detail = e.unwrapped.game.observe(0)["detail"]
    call = part(e, "seat_0", "friend_call")
    assert call[detail["friend_call"]["n"] - 1] == 1
    assert call[3 + parse_card(detail["friend_call"]["card"])] == 1
    assert part(e, "seat_0", "level")[RANK_CHARS.index(detail["level"])] == 1


def test_the_other_landlords_hand_and_the_revealed_card() -> None:
    for seed in range(40):
        e = env("ddz5")
        e.reset(seed=seed)
        until(e, lambda r: r.game.phase == "play", seed)
        for agent in e.possible_agents:
            seat = e.possible_agents.index(agent)
            detail = e.unwrapped.game.observe(seat)["detail"]
            revealed = detail.get("revealed_card")
            if revealed:
                assert part(e, agent, "named_card")[parse_card(revealed)] == 1
            partner = detail.get("partner")
            if partner:
                shown = part(e, agent, "shown").reshape(5, -1)
                assert shown[(partner["seat"] - seat) % 5].sum() == len(partner["hand"])
                return
    raise AssertionError("no game showed a landlord his partner's hand")


def test_multiplier_and_counts_follow_the_view() -> None:
    e = env("ddz3_happy")
    e.reset(seed=9)
    until(e, lambda r: r.game.phase == "play", 9)
    view = e.unwrapped.game.observe(0)
    assert part(e, "seat_0", "multiplier")[0] == view["multiplier"]["total"]
    assert list(part(e, "seat_0", "counts")) == view["counts"]


@pytest.mark.parametrize("name", IDS)
def test_a_decision_is_encoded_once_and_its_tokens_added(name: str) -> None:
    """``observe`` encodes a view once per decision and adds the tokens chosen since: at
    every step, for every agent, the vector is ``encode`` of the seat's view now and the
    tokens so far, and a vector handed out is the caller's own (changing it changes no
    later one)."""
    e = env(name)
    e.reset(seed=3)
    raw = e.unwrapped
    for agent, token in moves(e, np.random.default_rng(3)):
        for other in raw.possible_agents:
            got = raw.observe(other)["observation"]
            chosen = raw.decision.chosen if other == agent else []
            want = encode(raw.layout, raw.game.observe(raw.possible_agents.index(other)),
                          chosen)
            assert np.array_equal(got, want), (name, other, raw.game.phase, chosen)
            got[:] = -1.0
        e.step(token)
