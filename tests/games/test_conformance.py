"""One conformance suite, run on every variant over many seeded random games.

Cards are conserved at every step; whoever is to act has a legal action until
the end; every listed action passes ``check`` and its text parses back to it;
``record()`` replays to an identical state; ``clone()`` is independent;
scores are zero-sum; and an observation does not depend on anything its seat
may not see (shuffling the hidden cards among the hidden places leaves it
unchanged), while it does show what the rules make public.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardhall.games import VARIANTS, GameState, new_game, replay
from tests.games.hidden import assert_no_leak
from tests.games.shapes import assert_result_shape
from tests.lanes import slow_for

GAMES_PER_VARIANT = 12
IDS = sorted(VARIANTS)


def play_random(state: GameState, rng: random.Random, on_step: Any = None) -> None:
    steps = 0
    while not state.over:
        legal = state.legal_actions()
        assert legal, f"{state.phase}: seat {state.to_act} has no legal action"
        if on_step is not None:
            on_step(state, legal)
        state.apply(rng.choice(legal))
        steps += 1
        assert steps < 5000, "the game does not end"


def check_step(state: GameState, legal: list[Any]) -> None:
    deck = sorted(state.deck_cards())
    zones = state.zones()
    assert sorted(c for cards in zones.values() for c in cards) == deck, "cards not conserved"
    assert state.to_act is not None
    for action in legal:
        assert state.check(action) is None, f"{action} listed but check refuses it"
        assert state.parse_action(action.text) == action
        assert state.check(action.text) is None


@pytest.mark.parametrize("name", IDS)
def test_random_games_keep_the_contract(name: str) -> None:
    for seed in range(GAMES_PER_VARIANT):
        state = new_game(name, seed=seed)
        play_random(state, random.Random(seed), check_step)
        assert state.to_act is None and state.legal_actions() == []
        result = state.result()
        assert result is not None
        assert_result_shape(state, result)
        assert state.check(state.actions[-1]) == "the game is over"


@pytest.mark.parametrize("name", IDS)
def test_record_replays_identically(name: str) -> None:
    for seed in range(4):
        state = new_game(name, seed=seed)
        play_random(state, random.Random(seed + 100))
        record = json.loads(json.dumps(state.record()))
        again = replay(record)
        assert again.result() == state.result()
        for seat in range(state.players):
            assert again.observe(seat) == state.observe(seat)


@pytest.mark.parametrize("name", IDS)
def test_clone_is_independent(name: str) -> None:
    rng = random.Random(7)
    state = new_game(name, seed=7)
    for _ in range(40):
        if state.over:
            break
        before = [json.dumps(state.observe(s), sort_keys=True) for s in range(state.players)]
        twin = state.clone()
        twin.apply(rng.choice(twin.legal_actions()))
        after = [json.dumps(state.observe(s), sort_keys=True) for s in range(state.players)]
        assert before == after, "applying to a clone changed the original"
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", IDS)
def test_same_seed_same_game(name: str) -> None:
    a, b = new_game(name, seed=42), new_game(name, seed=42)
    assert [a.observe(s) for s in range(a.players)] == [b.observe(s) for s in range(b.players)]
    c = new_game(name, seed=43)
    assert first_hands(a) != first_hands(c)


def first_hands(state: GameState) -> list[list[str]]:
    """Each seat's hand as first seen: a pre-deal phase (欢乐's 明牌开始) shows no cards
    yet, so it is answered with its first legal action until cards are dealt."""
    state = state.clone()
    while not state.over and not any(state.observe(s)["hand"] for s in range(state.players)):
        state.apply(state.legal_actions()[0])
    return [state.observe(s)["hand"] for s in range(state.players)]


@pytest.mark.parametrize("name", slow_for(IDS, {"baohuang", "ddz5", "zhaopengyou"}))
def test_observation_ignores_hidden_cards(name: str) -> None:
    """Shuffle what a seat cannot see: its observation must not change."""
    for seed in range(6):
        rng = random.Random(seed)
        state = new_game(name, seed=seed)
        while not state.over:
            assert_no_leak(state, rng)
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", IDS)
def test_bad_actions_change_nothing(name: str) -> None:
    state = new_game(name, seed=5)
    rng = random.Random(5)
    for _ in range(30):
        if state.over:
            break
        before = json.dumps([state.observe(s) for s in range(state.players)], sort_keys=True)
        for bad in ("", "fly away", "play 33Z", "play", "bid 9", "@9 pass", "pass now",
                    "@x leave", "auto", "@0 auto maybe", "@0 leave now", "play " + "3" * 300):
            assert state.check(bad), f"{bad!r} accepted"
            with pytest.raises(ValueError, match=r"\w"):
                state.apply(bad)
        after = json.dumps([state.observe(s) for s in range(state.players)], sort_keys=True)
        assert before == after
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", IDS)
def test_acting_out_of_turn_is_refused(name: str) -> None:
    state = new_game(name, seed=9)
    rng = random.Random(9)
    for _ in range(25):
        if state.over:
            break
        action = rng.choice(state.legal_actions())
        actor = state.to_act
        assert actor is not None
        other = (actor + 1) % state.players
        before = json.dumps([state.observe(s) for s in range(state.players)], sort_keys=True)
        if other in state.acting:  # a window several seats answer at once
            state.apply(action, seat=actor)
            continue
        reason = state.check(action, seat=other)
        assert reason is not None
        if state.observe(other)["to_act"] == actor:
            assert f"seat {actor}'s turn" in reason or "waiting" in reason, reason
        else:  # the asker may not know whose turn it is (保皇's disclosure): no name
            assert f"seat {actor}" not in reason, reason
        with pytest.raises(ValueError, match=r"turn|waiting|cannot act|answer"):
            state.apply(action, seat=other)
        assert state.check(action, seat=state.players) is not None
        after = json.dumps([state.observe(s) for s in range(state.players)], sort_keys=True)
        assert before == after
        state.apply(action, seat=actor)
