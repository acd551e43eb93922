"""The live-hall parts of the contract, on every variant over seeded random games.

Typed views that match the schema and stay small; per-seat events that tell a
seat nothing it may not see; simultaneous answers accepted in any order;
leaving and 托管 from any seat at any time; records that carry their version
and replay without Python's own shuffle; hostile input refused cheaply.
"""

from __future__ import annotations

import itertools
import json
import random
from enum import StrEnum
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardhall.games import VARIANTS, Action, GameState, IllegalAction, new_game, replay
from cardhall.games.base import AUTO_LOCK_ENTRY, MAX_ACTION_TEXT
from cardhall.games.rng import Rng
from cardhall.games.schema import schema
from cardhall.games.view import judge
from tests.games.hidden import hidden_zones, shuffle_hidden
from tests.games.shapes import assert_result_shape, assert_view_shape
from tests.lanes import slow_for

IDS = sorted(VARIANTS)
#: Variants whose rules have windows answered by several seats at once.
SIMULTANEOUS = {"ddz3_happy", "ddz3_laizi", "ddz5", "baohuang"}
#: Windows answered at once where the rules still rank the answers by when they came:
#: 欢乐's first seat to show calls first (Ruling 20 of the happy rules, "by server time").
RANKED_WINDOWS = {"ddz3_happy": {"ready", "deal"}, "ddz3_laizi": {"ready", "deal"}}
#: Options that open those windows where the defaults do not (保皇's 抢独, simple mode's 造反).
WINDOW_OPTIONS: dict[str, dict[str, Any]] = {"baohuang": {"qiangdu": True, "mode": "simple"}}


def snapshot(state: GameState) -> str:
    return json.dumps([state.observe(s) for s in range(state.players)], sort_keys=True)


def random_steps(name: str, seed: int, limit: int = 5000) -> Any:
    """Yield (state, action) along one seeded random game, before each action is applied."""
    state = new_game(name, seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if state.over:
            return
        action = rng.choice(state.legal_actions())
        yield state, action
        state.apply(action)


@pytest.mark.parametrize("name", slow_for(IDS, {"baohuang", "zhaopengyou"}))
def test_views_keep_the_shape_and_size(name: str) -> None:
    largest = 0
    for seed in range(6):
        for step, (state, _) in enumerate(random_steps(name, seed)):
            for seat in range(state.players):
                view = state.observe(seat)
                largest = max(largest, assert_view_shape(state, seat, view, schema=step % 7 == 0))
        state_end = replay(state.record())
        for seat in range(state.players):
            largest = max(largest, assert_view_shape(state_end, seat, state.observe(seat)))
    assert largest > 500, "views are suspiciously small"


@pytest.mark.parametrize("name", IDS)
def test_one_phase_enum_per_game(name: str) -> None:
    kinds = set()
    for seed in range(3):
        for state, _ in random_steps(name, seed):
            kinds.add(type(state.phase))
        kinds.add(type(state.phase))  # over
    (kind,) = kinds
    assert issubclass(kind, StrEnum) and {"play", "over"} <= {p.value for p in kind}


@pytest.mark.parametrize("name", IDS)
def test_compact_plays_judge_every_selection_like_the_list(name: str) -> None:
    """Where plays are indexed instead of listed, the index agrees with legal_actions()."""
    rng = random.Random(3)
    for seed in range(8):
        for state, _ in random_steps(name, seed):
            seat = state.to_act
            assert seat is not None
            view = state.observe(seat)
            if "plays" not in view:
                continue
            listed = {_selection(a) for a in state.legal_actions() if a.verb == "play"}
            assert view["plays"]["count"] == len(listed)
            for sel in list(listed)[:50]:
                assert judge(view["plays"], dict(sel))
            labels = view["plays"]["labels"]
            for _ in range(50):
                pick = tuple(sorted((lab, n) for lab in labels
                                    if (n := rng.randrange(3)) > 0))
                assert judge(view["plays"], dict(pick)) == (pick in listed)


def _selection(action: Action) -> tuple[tuple[str, int], ...]:
    cards = action.arg.split("=")[0].replace("+", "")
    counts: dict[str, int] = {}
    for ch in cards:
        counts[ch] = counts.get(ch, 0) + 1
    return tuple(sorted(counts.items()))


@pytest.mark.parametrize("name", slow_for(IDS, {"baohuang"}))
def test_events_tell_a_seat_nothing_hidden_from_it(name: str) -> None:
    """A seat's events are the same whatever the cards it cannot see (the actor's aside)."""
    compared = 0
    for seed in range(4):
        rng = random.Random(seed)
        for state, action in random_steps(name, seed):
            actor = action.seat if action.seat is not None else state.to_act
            after = state.clone()
            events = after.apply(action.text)
            for seat in range(state.players):
                # Cards hidden before and after the action, the actor's own aside (what it
                # plays is public): shuffling them must not change what the seat is told.
                still = set(hidden_zones(after, seat))
                zones = [z for z in hidden_zones(state, seat) if z in still and z != f"hand{actor}"]
                if not zones:
                    continue
                twin = state.clone()
                shuffle_hidden(twin, zones, rng)
                if twin.check(action.text) is not None:
                    continue  # the action needs a hidden card where it was (a 找朋友 throw)
                theirs = GameState.events_for(twin.apply(action.text), seat)
                mine = GameState.events_for(events, seat)
                assert json.dumps(mine, sort_keys=True) == json.dumps(theirs, sort_keys=True), (
                    f"seat {seat} learns hidden cards from {action.text!r}")
                assert all("to" not in e for e in mine)
                compared += 1
    assert compared > 50


@pytest.mark.parametrize("name", IDS)
def test_simultaneous_answers_in_any_order(name: str) -> None:
    windows = 0
    for seed in range(10):
        rng = random.Random(seed)
        state = new_game(name, seed=seed, options=WINDOW_OPTIONS.get(name))
        while not state.over:
            acting = state.acting
            if len(acting) > 1:
                windows += 1
                answers = {s: rng.choice(state.legal_actions(s)) for s in acting}
                for s, a in answers.items():
                    assert a.seat == (None if s == state.to_act else s), (
                        "another seat's answer in a window names its seat")
                    assert state.check(a.at(None), seat=s) is None
                outcomes = set()
                orders = list(itertools.permutations(acting))
                for order in rng.sample(orders, min(len(orders), 12)):
                    twin = state.clone()
                    for s in order:
                        if s not in twin.acting:
                            break  # the window closed on an earlier answer (a priority)
                        twin.apply(answers[s].at(None), seat=s)
                    else:
                        outcomes.add(json.dumps([twin.observe(k) for k in range(twin.players)],
                                                sort_keys=True))
                if str(state.phase) not in RANKED_WINDOWS.get(name, ()):
                    assert len(outcomes) <= 1, f"{name}: the order of answers changed the outcome"
            state.apply(rng.choice(state.legal_actions()))
    assert (windows > 0) == (name in SIMULTANEOUS), f"{name}: {windows} simultaneous windows"


@pytest.mark.parametrize("name", slow_for(IDS, {"baohuang", "zhaopengyou"}))
def test_leaving_from_every_seat_in_every_phase(name: str) -> None:
    phases = set()
    for seed in range(3):
        for step, (state, _) in enumerate(random_steps(name, seed)):
            if step % 5:
                continue
            phases.add(str(state.phase))
            for seat in range(state.players):
                for how in ("leave", "leave forced"):
                    twin = state.clone()
                    before = twin.penalties[seat]
                    events = twin.apply(f"@{seat} {how}")
                    assert events[0]["type"] == "leave"
                    assert twin.left[seat]
                    assert twin.check(f"@{seat} leave") is not None
                    if twin.leave_policy == "escape":
                        assert twin.over
                        result = twin.result()
                        assert result is not None and result["ended"] == "escape"
                        assert_result_shape(twin, result)
                        assert result["points"][seat] <= 0, "the escaper does not gain"
                        assert seat not in result["winners"]
                    else:
                        assert twin.auto[seat] and not twin.over
                        assert twin.check(f"@{seat} auto off") is not None
                        penalty = twin.FORCED_LEAVE_PENALTY if how == "leave forced" else 0
                        assert twin.penalties[seat] == before + penalty
                        assert replay(twin.record()).observe(seat) == twin.observe(seat)
    assert len(phases) >= 2


@pytest.mark.parametrize("name", IDS)
def test_auto_locks_on_the_fourth_entry_and_replays(name: str) -> None:
    state = new_game(name, seed=1)
    for entry in range(1, AUTO_LOCK_ENTRY + 1):
        assert state.check("@1 auto off") == "seat 1 is not on 托管"
        events = state.apply("@1 auto on")
        assert events == [{"type": "auto", "seat": 1, "on": True, "entries": entry,
                           "locked": entry == AUTO_LOCK_ENTRY}]
        assert state.check("@1 auto on") == "seat 1 is already on 托管"
        if entry < AUTO_LOCK_ENTRY:
            state.apply("@1 auto off", seat=1)
    assert state.auto_locked(1)
    assert "locked" in (state.check("@1 auto off") or "")
    assert state.check("@1 auto off", seat=0) == "seat 0 cannot act for seat 1"
    again = replay(json.loads(json.dumps(state.record())))
    assert again.auto_locked(1) and again.observe(1)["auto_locked"][1]


@pytest.mark.parametrize("name", IDS)
def test_a_game_ended_with_every_seat_on_auto_is_not_scored(name: str) -> None:
    for seed in range(4):
        state = new_game(name, seed=seed)
        rng = random.Random(seed)
        for seat in range(state.players):
            state.apply(f"@{seat} auto on")
        while not state.over:
            state.apply(rng.choice(state.legal_actions()))
        result = state.result()
        assert result is not None
        assert_result_shape(state, result)
        if result["ended"] != "dissolved":
            assert result["ended"] == "unscored", result["ended"]
            assert result["points"] == [0] * state.players and result["winners"] == []
        assert result["dissolve"]


@pytest.mark.parametrize("name", IDS)
def test_records_carry_their_version(name: str) -> None:
    state = new_game(name, seed=2)
    state.apply(state.legal_actions()[0])
    record = state.record()
    assert record["version"] == VARIANTS[name].version
    with pytest.raises(IllegalAction, match="version"):
        replay({**record, "version": record["version"] + 1})
    with pytest.raises(IllegalAction, match="version"):
        replay({k: v for k, v in record.items() if k != "version"})


@pytest.mark.parametrize("name", IDS)
def test_records_do_not_depend_on_pythons_shuffle(name: str, monkeypatch: Any) -> None:
    """Python may change ``shuffle``/``randrange`` between versions; records must not care."""
    records = []
    for seed in range(3):
        state = new_game(name, seed=seed)
        rng = random.Random(seed)
        while not state.over:
            state.apply(rng.choice(state.legal_actions()))
        records.append((state.record(), snapshot(state)))

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a game used Python's random module")

    for method in ("shuffle", "randrange", "sample", "choice", "random", "randint"):
        monkeypatch.setattr(random.Random, method, broken)
    for record, views in records:
        assert snapshot(replay(record)) == views


def test_the_generator_is_splitmix64() -> None:
    """The published SplitMix64 test vectors: anyone can reimplement the deal."""
    rng = Rng(1234567)
    assert [rng.next64() for _ in range(3)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423]
    assert Rng(0).next64() == 0xE220A8397B1DCDAF
    counts = [0] * 6
    rng = Rng(9)
    for _ in range(6000):
        counts[rng.below(6)] += 1
    assert all(900 < c < 1100 for c in counts)
    items = list(range(10))
    Rng(5).shuffle(items)
    assert sorted(items) == list(range(10)) and items != list(range(10))


@pytest.mark.parametrize("name", IDS)
def test_clone_survives_deep_mutation(name: str) -> None:
    state = new_game(name, seed=4)
    rng = random.Random(4)
    for _ in range(30):
        if state.over:
            break
        state.apply(rng.choice(state.legal_actions()))
    before = snapshot(state), json.dumps(state.record())
    twin = state.clone()
    _vandalise(twin.__dict__)
    assert (snapshot(state), json.dumps(state.record())) == before


def _vandalise(value: Any, depth: int = 0) -> None:
    """Change every mutable container reachable through plain data, all the way down."""
    if depth > 6:
        return
    if isinstance(value, list):
        for item in value:
            _vandalise(item, depth + 1)
        value.append(-99)
    elif isinstance(value, dict):
        for key in list(value):
            _vandalise(value[key], depth + 1)
        value["vandal"] = -99
    elif isinstance(value, set):
        value.add(-99)


@pytest.mark.parametrize("name", IDS)
def test_options_are_described_as_data(name: str) -> None:
    described = VARIANTS[name].describe()
    json.dumps(described)
    assert described["id"] == name and described["version"] == VARIANTS[name].version
    names = [o["name"] for o in described["options"]]
    assert "deal" not in names
    # `suits` says whether plays name suited cards: held against a real game's plays
    state, rng = new_game(name, seed=5), random.Random(5)
    plays: list[Action] = []
    while not plays:
        legal = state.legal_actions()
        plays = [a for a in legal if a.verb == "play"]
        state.apply(rng.choice(legal))
    suited = any(suit in a.arg for a in plays for suit in "shcd")  # "3s", never "333+4"
    assert described["suits"] is suited
    for opt in described["options"]:
        assert opt["kind"] in ("bool", "int", "number", "seat", "choice", "text", "deal")
        assert opt["help"] and opt["help_zh"]
        assert VARIANTS[name].resolve({opt["name"]: opt["default"]})[opt["name"]] == \
            opt["default"]
        for choice in opt.get("choices", []):
            VARIANTS[name].resolve({opt["name"]: choice})


# -- hostile input -----------------------------------------------------------------------

JUNK = st.one_of(st.text(max_size=30), st.sampled_from(
    ["pass", "play", "bid", "double", "eye", "declare", "bury", "call-friend", "leave",
     "auto", "show", "rob", "cede", "accept"]))
ARGS = st.one_of(st.text(max_size=40), st.sampled_from(
    ["9 9", "now", "9", "33Z", "3" * 300, "1 2 3", "on", "forced", "Ts Ts", "2 Ad", "-1"]))


@pytest.mark.parametrize("name", IDS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(verb=JUNK, arg=ARGS, seat=st.one_of(st.none(), st.integers(-3, 9)),
       steps=st.integers(0, 40))
def test_hand_built_actions_are_judged_by_their_text(name: str, verb: str, arg: str,
                                                      seat: int | None, steps: int) -> None:
    state = _advanced(name, steps)
    before = snapshot(state), list(state.actions)
    action = Action(verb, arg, seat)
    reason = state.check(action)
    if seat is not None and not 0 <= seat < state.players:
        assert reason is not None
    try:
        text_reason = state.check(action.text)
    except IllegalAction:  # pragma: no cover - check never raises
        pytest.fail("check raised")
    assert reason == text_reason, f"{action!r} judged apart from its text"
    if reason is not None:
        assert len(reason) < 300, "a reason echoes the input"
        with pytest.raises(IllegalAction):
            state.apply(action)
        assert (snapshot(state), list(state.actions)) == before


@pytest.mark.parametrize("name", IDS)
def test_foreign_and_huge_actions_change_nothing(name: str) -> None:
    state = _advanced(name, 12)
    before = snapshot(state)
    for other in IDS:
        foreign = _advanced(other, 12)
        for action in foreign.legal_actions()[:20]:
            assert state.check(action) == state.check(action.text)
    for size in (MAX_ACTION_TEXT + 1, 10_000, 1_000_000):
        for head in ("play ", "declare ", "bury ", "", "@1 "):
            reason = state.check(head + "3" * size)
            assert reason is not None and len(reason) < 120
    assert snapshot(state) == before


_ADVANCED: dict[tuple[str, int], GameState] = {}


def _advanced(name: str, steps: int) -> GameState:
    key = (name, steps)
    if key not in _ADVANCED:
        state = new_game(name, seed=steps)
        rng = random.Random(steps)
        for _ in range(steps):
            if state.over:
                break
            state.apply(rng.choice(state.legal_actions()))
        _ADVANCED[key] = state
    return _ADVANCED[key].clone()


def test_the_published_schema_is_current() -> None:
    """docs/schema.json is what outside clients validate against: it must match the types."""
    published = Path(__file__).parents[2] / "docs" / "schema.json"
    assert json.loads(published.read_text(encoding="utf-8")) == schema(), (
        "run: python -m cardhall.games.schema > docs/schema.json")
