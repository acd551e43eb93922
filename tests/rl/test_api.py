"""The environments keep PettingZoo's AEC API (its own api_test) for all nine variants."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

from cardhall.rl import env
from tests.rl.play import IDS

# api_test's advice for single-array observations; an action mask needs a dict (as in
# PettingZoo's own card games, which it warns about alike)
DICT_ADVICE = [
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
]


@pytest.mark.filterwarnings(*DICT_ADVICE)
@pytest.mark.parametrize("name", IDS)
def test_api(name: str) -> None:
    api_test(env(name), num_cycles=12)


def test_the_wrappers_answer_as_pettingzoos_own() -> None:
    """``env()``'s fast ``last()`` and bounds check (benchmarks/rl_bench.py) keep what
    PettingZoo's OrderEnforcingWrapper and AssertOutOfBoundsWrapper say and print."""
    e = env("ddz3")
    assert str(e) == "cardhall_v0"
    with pytest.raises(AttributeError, match="agent_selection cannot be accessed before reset"):
        e.last()
    e.reset(seed=1)
    obs, reward, terminated, truncated, info = e.last()
    assert (reward, terminated, truncated, info) == (0.0, False, False, {})
    assert obs["action_mask"].sum() > 0
    for bad in (-1, 110, 1.5, "pass"):
        with pytest.raises(AssertionError, match="action is not in action space"):
            e.step(bad)
    token = int(np.flatnonzero(obs["action_mask"])[0])
    e.step(np.int64(token))  # a numpy int, as a policy's argmax gives, goes through
    assert e.unwrapped.game.actions
