"""What a seat observes: the same seed and actions give the same observations; the
cards it cannot see do not move its observation or its mask; the first deal is
``new_game``'s; a given deal is dealt."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from cardhall.games import new_game
from cardhall.rl import CardhallEnv, env
from cardhall.rl.observation import encode
from cardhall.rl.seat import SeatEncoder
from tests.games.hidden import hidden_zones, shuffle_hidden
from tests.lanes import slow_for
from tests.rl.play import IDS, moves


def trace(name: str, seed: int, picks: int) -> list[tuple[str, Any, Any]]:
    """Every agent's observation and mask at every step of a random masked game."""
    e = env(name)
    e.reset(seed=seed)
    out = []
    for agent, token in moves(e, np.random.default_rng(picks)):
        watcher = e.possible_agents[(e.possible_agents.index(agent) + 1) % len(e.agents)]
        for a in (agent, watcher):
            obs = e.observe(a)
            out.append((a, obs["observation"], obs["action_mask"]))
        e.step(token)
    return out


@pytest.mark.parametrize("name", slow_for(IDS, {"baohuang", "zhaopengyou", "ddz5"}))
def test_same_seed_and_actions_same_observations(name: str) -> None:
    one, two = trace(name, 5, 9), trace(name, 5, 9)
    assert len(one) == len(two)
    for (a, obs, mask), (b, obs2, mask2) in zip(one, two, strict=True):
        assert a == b
        assert np.array_equal(obs, obs2) and np.array_equal(mask, mask2)
    other = trace(name, 6, 9)
    assert not all(np.array_equal(x[1], y[1]) for x, y in zip(one, other, strict=False))


@pytest.mark.parametrize("name", IDS)
def test_reset_deals_as_new_game(name: str) -> None:
    e = env(name)
    e.reset(seed=41)
    assert e.unwrapped.game.zones() == new_game(name, seed=41).zones()
    e.reset()  # the next seed follows from the last one given
    follow = e.unwrapped.game.seed
    e.reset(seed=41)
    e.reset()
    assert e.unwrapped.game.seed == follow


def test_a_given_deal() -> None:
    hands = ["33399955JJKKAA2XD", "34444556666778889", "77TTTJJQQQKKAA222"]
    e = env("ddz3", deal={"hands": hands, "kitty": "8TQ"})
    e.reset(seed=1)
    for seat, hand in enumerate(hands):
        view = e.unwrapped.game.observe(seat)
        assert sorted(c[0] for c in view["hand"]) == sorted(hand)


def test_a_bad_option_is_refused_at_once() -> None:
    with pytest.raises(ValueError, match="no option"):
        env("ddz3", colour="red")


def _twin(e: Any, rng: random.Random) -> list[tuple[str, Any]]:
    """For each live agent that cannot see everything: an env on a copy of the game
    whose cards that agent cannot see are dealt again among their places."""
    out = []
    for agent in e.agents:
        seat = e.possible_agents.index(agent)
        zones = hidden_zones(e.game, seat)
        if not zones:
            continue
        game = e.game.clone()
        shuffle_hidden(game, zones, rng)
        twin = env(e.variant.id).unwrapped
        twin.start(game)
        out.append((agent, twin))
    return out


def _same(agent: str, e: Any, twin: Any) -> None:
    mine, theirs = e.observe(agent), twin.observe(agent)
    moved = [name for name, at, size in e.layout.sections
             if not np.array_equal(mine["observation"][at:at + size],
                                   theirs["observation"][at:at + size])]
    assert not moved, f"{agent} sees hidden cards in {e.game.phase}: {moved}"
    assert np.array_equal(mine["action_mask"], theirs["action_mask"])


@pytest.mark.parametrize("name", slow_for(IDS, {"baohuang", "zhaopengyou", "ddz5", "ddz4"}))
def test_hidden_cards_do_not_move_observation_or_mask(name: str) -> None:
    """The games' swap test (tests/games/hidden.py), on the environment's vectors: also
    half-way through an action's tokens (the same tokens chosen in both)."""
    for seed in range(3):
        e = env(name)
        e.reset(seed=seed)
        raw = e.unwrapped
        rng = random.Random(seed)
        for agent, token in moves(e, np.random.default_rng(seed)):
            if rng.random() < 0.3 and not raw.decision.chosen:
                for other, twin in _twin(raw, rng):
                    _same(other, raw, twin)
                    if other == agent and twin.agent_selection == agent:
                        twin.step(token)
                        before = len(raw.game.actions)
                        e.step(token)
                        if len(raw.game.actions) == before:
                            _same(agent, raw, twin)
                        break
                else:
                    e.step(token)
            else:
                e.step(token)


@pytest.mark.parametrize("name", ["ddz3", "ddz5"])
def test_the_swap_test_sees_a_leak(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """An encoding that reads the next seat's hand is caught by ``_same``: the view's
    encoding (ddz5) and the one read straight from the game (ddz3, ``rl.seat``)."""
    def leaky(self: Any, view: dict[str, Any], chosen: list[int]) -> Any:
        peek = self.game.observe((view["seat"] + 1) % self.variant.players)
        return encode(self.layout, {**view, "hand": peek["hand"]}, chosen)

    def leaky_state(self: SeatEncoder, state: Any, me: int) -> Any:
        peek = state.observe((me + 1) % state.players)
        return encode(self.layout, {**state.observe(me), "hand": peek["hand"]}, [])

    monkeypatch.setattr(CardhallEnv, "observation_vector", leaky)
    monkeypatch.setattr(SeatEncoder, "encode", leaky_state)
    e = env(name)
    e.reset(seed=2)
    raw = e.unwrapped
    assert (raw._fast is not None and raw._fast.fits(raw.game)) == (name == "ddz3")
    with pytest.raises(AssertionError, match="sees hidden cards"):
        for agent, twin in _twin(raw, random.Random(2)):
            _same(agent, raw, twin)
