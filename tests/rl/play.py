"""Random masked play through the environment, shared by the tests of tests/rl."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from cardhall.games import VARIANTS

IDS = list(VARIANTS)


def moves(e: Any, rng: np.random.Generator,
          rewards: dict[str, float] | None = None) -> Iterator[tuple[str, int]]:
    """Random legal tokens for ``e`` (reset already) to its end: each (agent, token) is
    yielded for the caller to ``e.step``; dead agents are stepped here with None. The
    rewards ``last()`` gives are summed per agent into ``rewards``."""
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _info = e.last()
        if rewards is not None:
            rewards[agent] = rewards.get(agent, 0.0) + reward
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal), f"{agent} has an empty mask in {e.unwrapped.game.phase}"
        yield agent, int(rng.choice(legal))


def play_out(e: Any, rng: np.random.Generator) -> list[float]:
    """Random masked play of ``e`` to the end; each seat's rewards summed."""
    rewards: dict[str, float] = {}
    for _agent, token in moves(e, rng, rewards):
        e.step(token)
    return [rewards[a] for a in e.possible_agents]
