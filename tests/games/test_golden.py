"""Golden playthroughs of the bidding variants: a seeded game's transcript, diffed.

Each golden file holds the record (variant, options, seed, actions), every
event as seat 0 saw it, and the result. A change in any of them is a change
in behaviour: regenerate with ``CARDHALL_REGOLD=1`` only on purpose, and read
the diff. (ddz5, ddz3_happy and ddz3_laizi keep theirs beside their own tests.)
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from cardhall.games import new_game, replay

GOLDEN = Path(__file__).parent / "golden"
VARIANTS = ["ddz2", "ddz3", "ddz4", "ddz_emperor"]


def transcript(name: str) -> dict[str, Any]:
    state = new_game(name, seed=2026)
    rng = random.Random(2026)
    while not state.over:
        state.apply(rng.choice(state.legal_actions()))
    return json.loads(json.dumps({"record": state.record(), "events": state.observe(0)["log"],
                                  "result": state.result()}))


@pytest.mark.parametrize("name", VARIANTS)
def test_golden_playthrough(name: str) -> None:
    path = GOLDEN / f"{name}.json"
    game = transcript(name)
    if os.environ.get("CARDHALL_REGOLD") == "1":
        path.write_text(json.dumps(game, ensure_ascii=False, indent=1) + "\n")
    assert game == json.loads(path.read_text())
    assert replay(game["record"]).result() == game["result"]
