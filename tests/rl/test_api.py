"""The environments keep PettingZoo's AEC API (its own api_test) for all nine variants."""

from __future__ import annotations

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
