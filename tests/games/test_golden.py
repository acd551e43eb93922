"""Golden playthroughs of every variant: a seeded game's transcript, diffed.

Each golden file holds the record (variant, options, seed, actions), every
event of its actions as seat 0 was sent it, and the result, of one game played
by uniformly random legal actions. A change in any of them is a change in behaviour:
regenerate with ``CARDHALL_REGOLD=1`` only on purpose, and read the diff.
The options switch on what a plain game would not reach: bean rooms and
Golden Eye items (happy, 癞子), beans in 五人斗地主, and 保皇's simple mode with
烤牌, 憋6 and 抢独 (ceding with tribute, the rob window, disclosure, rebellion).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from cardhall.games import VARIANTS, new_game, replay
from tests.games.test_happy import ROOM

GOLDEN = Path(__file__).parent / "golden"
#: Per variant: (seed, options).
GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "ddz2": (2026, {}),
    "ddz3": (2026, {}),
    "ddz4": (2026, {}),
    "ddz_emperor": (2026, {}),
    "ddz3_happy": (18, ROOM),
    "ddz3_laizi": (15, ROOM),
    "ddz5": (2024, {"N": 100, "A": 10}),
    "baohuang": (2050, {"mode": "simple", "kaopai": True, "bie6": True, "qiangdu": True}),
    "zhaopengyou": (2024, {}),
}


def transcript(name: str) -> dict[str, Any]:
    seed, options = GAMES[name]
    state = new_game(name, seed=seed, options=options)
    rng = random.Random(seed)
    events = []
    while not state.over:
        events.extend(state.events_for(state.apply(rng.choice(state.legal_actions())), 0))
    return json.loads(json.dumps({"record": state.record(), "events": events,
                                  "result": state.result()}))


def test_every_variant_has_a_golden_game() -> None:
    assert sorted(GAMES) == sorted(VARIANTS)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_playthrough(name: str) -> None:
    path = GOLDEN / f"{name}.json"
    game = transcript(name)
    if os.environ.get("CARDHALL_REGOLD") == "1":
        path.write_text(json.dumps(game, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    assert game == json.loads(path.read_text(encoding="utf-8"))
    assert replay(game["record"]).result() == game["result"]
