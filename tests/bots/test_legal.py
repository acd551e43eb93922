"""Every bot answers a legal action at every decision of seeded games of every variant.

The bots see only ``observe(seat)``; whatever they answer must be legal —
``check`` passes it — and canonical, in every phase of every registered
variant (bidding, calling, robbing, showing, doubling, the kitty, 保皇's
emperor and guard, 找朋友's trump, burial and friend call, play). Where the
view's ``legal`` list is complete the answer is one of its entries; where it
is not (``legal_complete`` false: a wildcard lead, 找朋友's leads and sampled
follows), the bot generated its plays itself and the answer must still pass
``check``; 找朋友's burial list is a representative few of millions (its view
says ``legal_complete`` false), so the planning bot buries cards of its own
choosing there. Asking a bot for a variant nobody
registered is an error that says so.
"""

from __future__ import annotations

import pytest

from cardhall import bots
from cardhall.bots.base import bare
from cardhall.games import VARIANTS, GameState, new_game
from cardhall.sim import MAX_ACTIONS
from tests.bots.scenario import deal

GAMES = 2
ALL = sorted(VARIANTS)


def play(variant: str, names: list[str], seed: int, options: dict[str, object] | None = None,
         state: GameState | None = None) -> tuple[list[str], int]:
    """Play one game, checking each answer is legal: the phases seen, in order, and how
    many answers came from views whose legal list was not complete."""
    state = state or new_game(variant, seed=seed, options=options)
    seats = [bots.make(names[s % len(names)], variant, s, seed,
                       **({"samples": 2, "candidates": 2} if names[s % len(names)] == "search"
                          else {}))
             for s in range(state.players)]
    phases: list[str] = []
    incomplete = 0
    for _ in range(MAX_ACTIONS):
        if state.over:
            return phases, incomplete
        seat = state.to_act
        assert seat is not None
        obs = state.observe(seat)
        assert "log" not in obs and "legal_actions" not in obs  # the new view only
        answer = seats[seat].act(obs)
        assert state.check(answer) is None, f"{variant} {state.phase}: {answer!r}"
        assert state.parse_action(answer).text == answer
        if not obs["legal_complete"]:
            incomplete += 1
            assert answer in obs["legal"] or bare(answer).startswith(("play ", "bury "))
        else:
            assert answer in obs["legal"], f"{variant} {state.phase}: {answer!r}"
        if not phases or phases[-1] != state.phase:
            phases.append(state.phase)
        state.apply(answer)
    raise AssertionError(f"{variant}: no end after {MAX_ACTIONS} actions")


@pytest.mark.parametrize("variant", ALL)
def test_planning_answers_legally(variant: str) -> None:
    for seed in range(GAMES):
        phases, _ = play(variant, ["planning"], seed)
        assert "play" in phases


@pytest.mark.parametrize("variant", ALL)
def test_planning_against_the_other_bots(variant: str) -> None:
    play(variant, ["planning", "tuoguan", "random"], 11)


@pytest.mark.parametrize("variant", ALL)
def test_search_answers_legally(variant: str) -> None:
    play(variant, ["search", "planning"], 3)


@pytest.mark.parametrize("variant", ALL)
def test_simple_bots_answer_legally(variant: str) -> None:
    play(variant, ["random", "tuoguan"], 5)


@pytest.mark.parametrize("name", ["planning", "random", "tuoguan", "search"])
def test_bots_play_legally_when_the_plays_are_not_listed(name: str) -> None:
    """癞子, a wildcard lead: thousands of plays, so the view gives the ``plays`` index and
    no list of them; the bot generates its plays with the rules engine, and every one it
    answers is legal.

    Seat 0 is the landlord (fixed), the wild rank is 7 (fixed) and it holds all four
    7s and pairs to chain: its first lead has some 7 000 plays.
    """
    options = {"deal": deal("ddz3_laizi", {0: "33445566777789TTJ"}, "KKA"),
               "landlord": 0, "wild": "7"}
    state = new_game("ddz3_laizi", seed=1, options=options)
    while state.phase != "play":  # any set-up still to answer (doubling), by 托管
        seat = state.to_act
        assert seat is not None
        state.apply(bots.make("tuoguan", "ddz3_laizi", seat).act(state.observe(seat)))
    view = state.observe(0)
    assert state.to_act == 0 and view["legal_complete"] is False and "plays" in view
    assert not any(t.startswith("play ") for t in view["legal"])
    _, incomplete = play("ddz3_laizi", [name], 1, state=state)
    assert incomplete >= 1


@pytest.mark.parametrize("name", ["planning", "search"])
def test_bots_refuse_unknown_games(name: str) -> None:
    with pytest.raises(bots.BotError, match="climbing games and zhaopengyou; chess is neither"):
        bots.make(name, "chess", 0)


@pytest.mark.parametrize(("variant", "phases"), [
    pytest.param("ddz_emperor", {"bid", "kitty", "play"}),
    pytest.param("ddz3_happy", {"ready", "deal", "call", "double", "play"}),
    pytest.param("ddz5", {"identity", "double", "play"}),
    pytest.param("baohuang", {"emperor", "guard", "play"}),
    pytest.param("zhaopengyou", {"declare", "bury", "friend", "play"}),
])
def test_every_setup_decision_is_reached(variant: str, phases: set[str]) -> None:
    """Across a few seeds the planning bot meets every set-up phase of the variant."""
    seen: set[str] = set()
    for seed in range(6):
        seen.update(play(variant, ["planning"], 100 + seed)[0])
    assert phases <= seen
