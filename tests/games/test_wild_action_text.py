"""Wild plays' actions, made in bulk (``climbing._make_action``), are the actions
``_play_action`` makes: same text, equal, hashed, frozen and shown alike."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import pytest

from cardhall.games import new_game
from cardhall.games.base import Action
from cardhall.games.climbing import ClimbingGame, _make_action
from cardhall.rules import Play


def test_wild_action_texts_are_the_play_actions_own() -> None:
    checked = 0
    for g in range(8):
        state = new_game("ddz3_laizi", seed=g)
        assert isinstance(state, ClimbingGame)
        rng = random.Random(g)
        while not state.over:
            actions = state._play_actions() if state.phase == "play" else []
            for act in actions:
                if act.play is not None:
                    plain = state._play_action(act.play)
                    assert type(act) is Action and act == plain and hash(act) == hash(plain)
                    assert act.text == plain.text and repr(act) == repr(plain)
                    assert act.seat is None and act.play is plain.play
                    checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 1000


def test_new_action_is_the_dataclass_action() -> None:
    play = Play("trio_pair", 0, 1, (0, 0, 4), (1, 1), 0, -1, (0, 0, 0), (1, 1))
    made = _make_action("play", "337+44=333+44", None, play)
    plain = Action("play", "337+44=333+44", None, play)
    assert type(made) is Action and not hasattr(made, "__dict__")
    assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
    assert dataclasses.astuple(made) == dataclasses.astuple(plain)
    assert pickle.loads(pickle.dumps(made)) == plain and copy.deepcopy(made) == plain
    assert made.at(2) == Action("play", "337+44=333+44", 2) and made.at(None) is made
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.arg = "33"  # type: ignore[misc]
