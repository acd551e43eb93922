"""The typed shapes of views and results, checked against the JSON Schema and the rules.

The schema says which keys and types there are; these helpers add what a
schema cannot say: a view's own hand has as many cards as its count, the seat
to act is among the acting seats, the multiplier is the product of its causes,
points are zero-sum, winners are seats.
"""

from __future__ import annotations

import json
import math
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from cardhall.games import GameState
from cardhall.games.schema import schema_for

VIEW_LIMIT = 16 * 1024
ENDED = {"finished", "escape", "unscored", "dissolved"}


@cache
def validator(root: str) -> Draft202012Validator:
    return Draft202012Validator(schema_for(root))


def assert_multiplier(m: dict[str, Any]) -> None:
    product = math.prod(m["causes"].values()) if m["causes"] else 1
    assert math.isclose(product, m["total"]), f"multiplier {m} is not the product of its causes"


def assert_view_shape(state: GameState, seat: int, view: dict[str, Any],
                      schema: bool = True) -> int:
    """Check one view; returns its JSON size."""
    text = json.dumps(view, ensure_ascii=False)
    size = len(text.encode())
    assert size < VIEW_LIMIT, f"{state.variant.id} view of seat {seat} is {size} bytes"
    if schema:
        errors = sorted(validator("View").iter_errors(json.loads(text)), key=str)
        assert not errors, f"{state.variant.id} view breaks the schema: {errors[0].message}"
    n = state.players
    assert view["variant"] == state.variant.id and view["seat"] == seat
    assert view["version"] == state.variant.version
    assert len(view["counts"]) == len(view["roles"]) == len(view["played"]) == n
    assert len(view["last"]) == len(view["auto"]) == n
    assert len(view["hand"]) == view["counts"][seat], "own hand and own count disagree"
    acting = view["acting"]
    # A view may hide whose turn it is (保皇's guard discloses himself unseen), never
    # invent one, and always tells a seat that it may act.
    assert set(acting) <= set(state.acting)
    assert (seat in acting) == (seat in state.acting)
    if acting:
        assert acting[0] == view["to_act"], "to_act is the first acting seat"
    mine = seat in acting
    assert bool(view["legal"]) or "plays" in view or not mine, "an acting seat has no action"
    assert not view["legal"] or mine, "a seat that may not act is offered actions"
    assert "deal" not in view["options"], "the given deal names every hand"
    assert_multiplier(view["multiplier"])
    if view["result"] is not None:
        assert_result_shape(state, view["result"])
    return size


def assert_result_shape(state: GameState, result: dict[str, Any]) -> None:
    errors = sorted(validator("Result").iter_errors(json.loads(json.dumps(result))), key=str)
    assert not errors, f"{state.variant.id} result breaks the schema: {errors[0].message}"
    n = state.players
    assert result["ended"] in ENDED
    assert len(result["points"]) == len(result["penalties"]) == n
    assert math.isclose(sum(result["points"]), 0, abs_tol=1e-9), "points are not zero-sum"
    assert set(result["winners"]) <= set(range(n))
    if result["ended"] == "finished" and any(result["points"]):
        assert result["winners"], "a game that moved points has winners"
        assert all(result["points"][w] > 0 for w in result["winners"])
    if result["ended"] in ("unscored", "dissolved"):
        assert all(p == 0 for p in result["points"])
        assert all(b == 0 for b in result.get("beans", [0] * n))
    assert_multiplier(result["multiplier"])
