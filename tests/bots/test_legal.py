"""Every bot answers a legal action at every decision of seeded games of every variant.

The bots see only ``observe(seat)``; whatever they answer must be legal —
``check`` passes it — and canonical, in every phase of every registered
variant (bidding, calling, robbing, showing, doubling, the kitty, 保皇's
emperor and guard, 找朋友's trump, burial and friend call, play). Where the
legal list is complete the answer is one of its entries; 找朋友's burial
list is a representative few of millions (the game's docstring), so the
planning bot buries cards of its own choosing there. Asking a bot for a
variant nobody registered is an error that says so.
"""

from __future__ import annotations

import pytest

from cardhall import bots
from cardhall.games import VARIANTS, new_game
from cardhall.sim import MAX_ACTIONS

GAMES = 2


def play(variant: str, names: list[str], seed: int) -> list[str]:
    """Play one game, checking each answer is legal; the phases seen, in order."""
    state = new_game(variant, seed=seed)
    seats = [bots.make(names[s % len(names)], variant, s, seed,
                       **({"samples": 2, "candidates": 2} if names[s % len(names)] == "search"
                          else {}))
             for s in range(state.players)]
    phases: list[str] = []
    for _ in range(MAX_ACTIONS):
        if state.over:
            return phases
        seat = state.to_act
        assert seat is not None
        obs = state.observe(seat)
        answer = seats[seat].act(obs)
        assert state.check(answer) is None, f"{variant} {state.phase}: {answer!r}"
        assert state.parse_action(answer).text == answer
        if state.phase != "bury":
            assert answer in obs["legal_actions"], f"{variant} {state.phase}: {answer!r}"
        if not phases or phases[-1] != state.phase:
            phases.append(state.phase)
        state.apply(answer)
    raise AssertionError(f"{variant}: no end after {MAX_ACTIONS} actions")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_planning_answers_legally(variant: str) -> None:
    for seed in range(GAMES):
        phases = play(variant, ["planning"], seed)
        assert "play" in phases


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_planning_against_the_other_bots(variant: str) -> None:
    play(variant, ["planning", "tuoguan", "random"], 11)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_search_answers_legally(variant: str) -> None:
    play(variant, ["search", "planning"], 3)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_simple_bots_answer_legally(variant: str) -> None:
    play(variant, ["random", "tuoguan"], 5)


@pytest.mark.parametrize("name", ["planning", "search"])
def test_bots_refuse_unknown_games(name: str) -> None:
    with pytest.raises(bots.BotError, match="climbing games and zhaopengyou; chess is neither"):
        bots.make(name, "chess", 0)


def test_every_setup_decision_is_reached() -> None:
    """Across a few seeds the planning bot meets every set-up phase of every variant."""
    seen: dict[str, set[str]] = {}
    for variant in sorted(VARIANTS):
        for seed in range(6):
            seen.setdefault(variant, set()).update(play(variant, ["planning"], 100 + seed))
    assert {"bid", "kitty", "play"} <= seen["ddz_emperor"]
    assert {"ready", "deal", "call", "double", "play"} <= seen["ddz3_happy"]
    assert {"identity", "double", "play"} <= seen["ddz5"]
    assert {"emperor", "guard", "play"} <= seen["baohuang"]
    assert {"declare", "bury", "friend", "play"} <= seen["zhaopengyou"]
