"""Analysis by rollouts (issue 21): 保皇 and 找朋友 games judged end to end, a losing move in a
built 保皇 position marked, and the worlds dealt from the seat's view alone."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardhall import bots
from cardhall.analysis import Mark, analyze, what_if
from cardhall.analysis.game import positions
from cardhall.analysis.worlds import sample
from cardhall.bots.trick.view import read as read_trick
from cardhall.cards import card_rank
from cardhall.games import GameState, new_game
from cardhall.games.baohuang import Baohuang
from cardhall.games.zhaopengyou import ZhaoPengyou

#: Worlds per decision in these tests: few, the verdicts are not what is tested here.
ROLLOUTS = 3


def selfplay(variant: str, seed: int) -> dict[str, Any]:
    """A finished game of the planning bot at every seat."""
    state = new_game(variant, seed=seed)
    players = [bots.make("planning", variant, s, 0) for s in range(state.players)]
    while state.to_act is not None:
        actor = state.to_act
        state.apply(players[actor].act(state.observe(actor)))
    return state.record()


@pytest.mark.parametrize("variant", ["baohuang", "zhaopengyou"])
def test_a_whole_game_is_judged_by_rollouts_and_repeats(variant: str) -> None:
    record = selfplay(variant, seed=2)
    report = analyze(record, seat=1, rollouts=ROLLOUTS)
    assert report.decisions and not any(d.exact for d in report.decisions)
    assert report.accuracy is not None and 0.0 <= report.accuracy <= 100.0
    for d in report.decisions:
        assert 0.0 <= d.played.win <= 1.0 and d.best.win >= d.played.win
        assert d.played.move == record["actions"][d.ply]
    assert report.to_json()["rollouts"] == ROLLOUTS
    again = analyze(record, seat=1, rollouts=ROLLOUTS)
    assert again.to_json() == report.to_json()


#: 保皇, the emperor (seat 0) alone and declared (明独保: the first player out ends it)
#: with D 7 against four rebels of one card each, all aces: the 7 led loses at once to
#: the first ace, the big joker first (or both at once) goes out.
SOLO = {"variant": "baohuang", "version": 2, "seed": 0,
        "options": {"deal": {"hands": ["D7", "A", "A", "A", "A"]}, "emperor_card": 0},
        "actions": ["accept", "solo", "play 7", "play A"]}


def test_a_losing_move_in_a_built_position_is_a_blunder() -> None:
    report = analyze(SOLO, seat=0, rollouts=ROLLOUTS)
    (decision,) = report.decisions
    assert decision.ply == 2 and decision.played.move == "play 7"
    assert decision.played.win == 0.0 and decision.best.win == 1.0
    assert decision.best.move in {"play D", "play 7+D"}
    assert decision.mark is Mark.BLUNDER and decision.played.points < 0


def test_what_if_plays_on_in_bao_huang() -> None:
    line = what_if(SOLO, 2, "play 7+D")
    assert line.winners == (0,) and line.points[0] > 0


def _state_at(record: dict[str, Any], ply: int) -> GameState:
    state = new_game(record["variant"], seed=record["seed"], options=record.get("options"))
    for text in record["actions"][:ply]:
        state.apply(text)
    return state


def _hidden(state: GameState) -> list[object]:
    zones = state.zones()
    return [sorted(cards) for name, cards in sorted(zones.items()) if name != "played"] + \
        [getattr(state, "guard", None), getattr(state, "hidden", None)]


@pytest.mark.parametrize(("variant", "seed"), [("baohuang", 2), ("zhaopengyou", 2),
                                               ("ddz5", 1)])
def test_a_world_looks_the_same_from_the_seat_and_owes_nothing_to_the_real_hands(
        variant: str, seed: int) -> None:
    """The seat sees the same view in a sampled world; and dealing again from a world
    sampled before gives the very deal dealt from the real game (so nothing of the real
    hidden cards is read)."""
    record = selfplay(variant, seed)
    tried = 0
    for seat in range(new_game(variant, seed=seed).players):
        found, _ = positions(record, seat)
        for position in found[:4]:
            if position.state is None:
                continue
            tried += 1
            state = _state_at(record, position.ply)
            world = sample(state, seat, random.Random(1))
            assert world is not None
            assert world.observe(seat) == state.observe(seat)
            one = sample(state, seat, random.Random(7))
            two = sample(world, seat, random.Random(7))
            assert one is not None and two is not None
            assert _hidden(one) == _hidden(two)
    assert tried


def test_a_trick_world_keeps_every_void_the_seat_has_seen() -> None:
    record = selfplay("zhaopengyou", 2)
    state = _state_at(record, 60)
    seat = state.to_act
    assert seat is not None
    view = read_trick(state.observe(seat))
    assert any(any(v) for s, v in enumerate(view.voids) if s != seat)
    for k in range(10):
        world = sample(state, seat, random.Random(k))
        assert isinstance(world, ZhaoPengyou)
        for s, hand in enumerate(world.hands):
            assert len(hand) == view.counts[s]
            if s != seat:
                assert not any(view.voids[s][view.ctx.group[c]] for c in hand)


def test_a_drawn_guard_holds_the_called_card() -> None:
    """A classic 保皇 rebel does not know the guard: each world draws one among the seats
    it may be, deals him the called copy, and the emperor keeps his three."""
    record = selfplay("baohuang", 2)
    found, _ = positions(record, 1)
    state = _state_at(record, found[0].ply)
    assert isinstance(state, Baohuang) and state.called is not None
    assert state.observe(1)["detail"]["guard"] is None
    guards = set()
    for k in range(12):
        world = sample(state, 1, random.Random(k))
        assert isinstance(world, Baohuang) and world.guard is not None
        guards.add(world.guard)
        assert world.guard not in (1, world.emperor)
        assert world.called in world.hands[world.guard]
        rank = card_rank(world.called)
        assert sum(card_rank(c) == rank for c in world.hands[world.emperor]) >= 3
    assert len(guards) > 1
