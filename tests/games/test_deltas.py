"""A seat's view rebuilt from its previous view and its events is the engine's view.

Over seeded random games of every variant, at every step and for every seat: the
seat's events (``events_for``, then the ``view`` event of the change) applied to its
previous view (``apply_events``) give exactly ``state.observe(seat)``, also after a
trip through JSON as on the wire, and the rebuilt view has the hash of the real one.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardhall.games import VARIANTS, GameState, new_game
from cardhall.games.base import Event
from cardhall.games.deltas import (
    apply_events,
    apply_patch,
    canonical,
    same,
    view_event,
    view_hash,
    view_patch,
)
from tests.lanes import slow_for

GAMES_PER_VARIANT = 6
IDS = sorted(VARIANTS)


def _wire(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _step(state: GameState, rng: random.Random) -> list[Event]:
    """One random legal move; now and then a seat's 托管 toggle, as a table sees them."""
    if rng.random() < 0.05:
        seat = rng.randrange(state.players)
        text = f"@{seat} auto {'off' if state.auto[seat] else 'on'}"
        if state.check(text) is None:
            return state.apply(text)
    return state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", slow_for(IDS, {"baohuang", "ddz5", "zhaopengyou"}))
def test_events_rebuild_every_view_of_every_seat(name: str) -> None:
    for seed in range(GAMES_PER_VARIANT):
        rng = random.Random(seed)
        state = new_game(name, seed=seed)
        seats = range(state.players)
        held = [_wire(state.observe(s)) for s in seats]  # what each client holds
        before = [state.observe(s) for s in seats]
        steps = 0
        while not state.over:
            events = _step(state, rng)
            steps += 1
            assert steps < 5000, "the game does not end"
            for s in seats:
                after = state.observe(s)
                told = _wire([*GameState.events_for(events, s), view_event(before[s], after)])
                rebuilt = apply_events(held[s], told)
                assert rebuilt == _wire(after), (name, seed, steps, s)
                assert view_hash(rebuilt) == view_hash(after)
                held[s], before[s] = rebuilt, after
        assert [v["result"] for v in held] == [_wire(state.result())] * state.players


def test_a_patch_sets_unsets_and_descends_and_keeps_nulls() -> None:
    old = {"a": 1, "b": {"x": [1, 2], "y": None, "z": 3}, "c": None, "gone": True}
    new = {"a": 1, "b": {"x": [1], "y": 0, "w": {"k": None}}, "c": {"n": 1}, "d": None}
    diff = view_patch(old, new)
    assert diff == {"set": {"c": {"n": 1}, "d": None}, "unset": ["gone"],
                    "patch": {"b": {"set": {"x": [1], "y": 0, "w": {"k": None}},
                                    "unset": ["z"]}}}
    assert apply_patch(old, diff) == new
    assert old["b"] == {"x": [1, 2], "y": None, "z": 3}  # pure: the old view is kept
    assert view_patch(new, new) == {}
    grown = view_patch({"log": [1, 2], "x": [3]}, {"log": [1, 2, 4], "x": [5, 3]})
    assert grown == {"set": {"x": [5, 3]}, "extend": {"log": [4]}}
    assert apply_patch({"log": [1, 2], "x": [3]}, grown) == {"log": [1, 2, 4], "x": [5, 3]}
    assert view_patch({"f": False}, {"f": 0}) == {"set": {"f": 0}}  # JSON tells them apart


def test_a_patch_tells_bool_int_and_float_apart_all_the_way_down() -> None:
    # Python's == takes True == 1 and 1 == 1.0: nested, that hid the change.
    assert view_patch({"d": {"f": False}}, {"d": {"f": 0}}) == {"patch": {"d": {"set": {"f": 0}}}}
    assert view_patch({"d": [True]}, {"d": [1]}) == {"set": {"d": [1]}}
    assert view_patch({"d": {"n": [1, {"x": 1}]}}, {"d": {"n": [1, {"x": 1.0}]}}) == \
        {"patch": {"d": {"set": {"n": [1, {"x": 1.0}]}}}}
    # A history grew only if its old items are the same in type too.
    assert view_patch({"log": [0, 1]}, {"log": [False, 1, 2]}) == {"set": {"log": [False, 1, 2]}}
    assert view_patch({"log": [0, 1]}, {"log": [0, 1, 2]}) == {"extend": {"log": [2]}}
    for old, new in [({"d": {"f": True}}, {"d": {"f": 1}}), ({"a": [[1]]}, {"a": [[1.0]]})]:
        rebuilt = apply_patch(old, view_patch(old, new))
        assert rebuilt == new and same(rebuilt, new)
    assert same({"a": [1, {"b": None}]}, {"a": [1, {"b": None}]})
    assert not same({"a": 1}, {"a": 1, "b": 2}) and not same([1], [1, 1])


def test_the_hash_is_of_the_canonical_json() -> None:
    view = {"b": [1, 2.0, 0.5], "a": "牌\n", "c": {"z": None, "y": True}}
    assert canonical(view) == '{"a":"牌\\n","b":[1,2,0.5],"c":{"y":true,"z":null}}'
    # The figure docs/protocol.md gives, and tests/web checks web/deltas.js against.
    assert view_hash(view) == view_hash(_wire(view)) == "b4784e7e16845bc2"
