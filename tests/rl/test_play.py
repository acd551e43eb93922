"""Random masked play: nothing raises, every action taken is legal in the game, the
rewards are the game's result points, and the record replays the same game."""

from __future__ import annotations

import numpy as np
import pytest

from cardhall.games import replay
from cardhall.rl import env
from cardhall.rl.actions import bare
from tests.lanes import slow_for
from tests.rl.play import IDS, moves, play_out

GAMES = 4


@pytest.mark.parametrize("name", slow_for(IDS, {"baohuang", "zhaopengyou"}))
def test_random_masked_play(name: str) -> None:
    for seed in range(GAMES):
        e = env(name)
        e.reset(seed=seed)
        raw = e.unwrapped
        rng = np.random.default_rng(seed)
        for agent, token in moves(e, rng):
            before = len(raw.game.actions)
            seat = raw.possible_agents.index(agent)
            text = raw.action_text(agent, token)
            legal_before = {bare(a) for a in raw.game.legal_actions(seat)}
            checked = raw.game.check(text, seat)  # None once the token completes an action
            e.step(token)
            if len(raw.game.actions) > before:  # the step acted: as the game says
                # (a window several seats answer records each answer with its seat)
                taken = raw.game.actions[-1].removeprefix(f"@{seat} ")
                assert checked is None
                assert taken == text
                assert taken in legal_before or taken.startswith("bury ")
        result = raw.game.result()
        assert result is not None
        assert raw.game.over and not e.agents
        assert replay(raw.record()).result() == result


@pytest.mark.slow  # 40 games of each variant: up to half a minute each
@pytest.mark.parametrize("name", IDS)
def test_many_random_games(name: str) -> None:
    for seed in range(100, 140):
        e = env(name)
        e.reset(seed=seed)
        got = play_out(e, np.random.default_rng(seed))
        result = e.unwrapped.game.result()
        assert got == [float(p) for p in result["points"]]
        assert replay(e.unwrapped.record()).result() == result


@pytest.mark.parametrize("name", IDS)
def test_rewards_are_the_result_points(name: str) -> None:
    e = env(name)
    e.reset(seed=11)
    got = play_out(e, np.random.default_rng(11))
    points = e.unwrapped.game.result()["points"]
    assert got == [float(p) for p in points]
    assert any(points)


def test_beans_as_rewards() -> None:
    e = env("ddz3_happy", reward="beans", N=10, balances=[5000, 5000, 5000])
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    got = play_out(e, rng)
    beans = e.unwrapped.game.result()["beans"]
    assert got == [float(b) for b in beans] != [0, 0, 0]


def test_beans_where_none_are_settled_is_refused() -> None:
    e = env("ddz3", reward="beans")
    e.reset(seed=3)
    with pytest.raises(ValueError, match="settles no beans"):
        play_out(e, np.random.default_rng(3))
