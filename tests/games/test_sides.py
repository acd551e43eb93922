"""A finished game's sides (games.sides): who played with whom, as the game turned out,
and who won, for every variant; read from the result alone.

Each row is a seeded game played out by the random bot: the teams and ranks are
written down here, and checked against what the game itself knows of its seats (the
Dou Dizhu family's ``side``, 找朋友's and 保皇's roles)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from cardhall.games import VARIANTS, GameState, new_game, registered, standing
from cardhall.games.sides import Standing
from cardhall.sim import play_out, seat_bots

Teams = tuple[tuple[int, ...], ...]

# (variant, seed, options, teams: the side played against first, ranks, what it shows)
ROWS: list[tuple[str, int, dict[str, Any], Teams, tuple[int, ...], str]] = [
    ("ddz2", 0, {}, ((1,), (0,)), (1, 2), "1 v 1, the landlord wins"),
    ("ddz2", 1, {}, ((0,), (1,)), (2, 1), "1 v 1, the other wins"),
    ("ddz3", 0, {}, ((0,), (1, 2)), (1, 2), "the landlord wins"),
    ("ddz3", 2, {}, ((0,), (1, 2)), (2, 1), "the two farmers win"),
    ("ddz3_happy", 3, {}, ((2,), (0, 1)), (1, 2), "欢乐: the landlord wins"),
    ("ddz3_happy", 0, {}, ((0,), (1, 2)), (2, 1), "欢乐: the farmers win"),
    ("ddz3_laizi", 0, {}, ((1,), (0, 2)), (1, 2), "癞子: the landlord wins"),
    ("ddz3_laizi", 1, {}, ((0,), (1, 2)), (2, 1), "癞子: the farmers win"),
    ("ddz4", 2, {}, ((2,), (0, 1, 3)), (1, 2), "1 v 3, the landlord wins"),
    ("ddz4", 0, {}, ((1,), (0, 2, 3)), (2, 1), "1 v 3, the three farmers win"),
    ("ddz5", 2, {}, ((1, 3), (0, 2, 4)), (1, 2), "open + hidden landlord win"),
    ("ddz5", 0, {}, ((0, 3), (1, 2, 4)), (2, 1), "hidden landlord 0 loses with the open one"),
    ("ddz5", 27, {}, ((0,), (1, 2, 3, 4)), (1, 2), "single landlord wins, 1 v 4"),
    ("ddz5", 1, {}, ((3,), (0, 1, 2, 4)), (2, 1), "single landlord loses"),
    ("ddz_emperor", 2, {}, ((2,), (0, 1)), (1, 2), "斗帝主: the landlord wins"),
    ("ddz_emperor", 0, {}, ((0,), (1, 2)), (2, 1), "斗帝主: the farmers win"),
    ("zhaopengyou", 0, {}, ((0, 3), (1, 2, 4)), (1, 2), "dealer and friend hold"),
    ("zhaopengyou", 9, {}, ((0, 1), (2, 3, 4)), (2, 1), "friend in seat 0, the attackers win"),
    ("zhaopengyou", 25, {}, ((0,), (1, 2, 3, 4)), (2, 1), "dealer called his own card: alone"),
    ("zhaopengyou", 5, {}, ((2,), (0, 1, 3, 4)), (2, 1), "the friend never showed: alone"),
    ("baohuang", 1, {}, ((1, 4), (0, 2, 3)), (1, 2), "明保: emperor and open guard win"),
    ("baohuang", 15, {}, ((2, 3), (0, 1, 4)), (1, 2), "暗保: emperor and hidden guard win"),
    ("baohuang", 5, {}, ((0, 3), (1, 2, 4)), (2, 1), "暗保: the rebels win"),
    ("baohuang", 28, {}, ((0, 2), (1, 3, 4)), (1, 1), "everyone scores 0: a draw"),
    ("baohuang", 0, {}, ((3,), (0, 1, 2, 4)), (1, 2), "明独保: the emperor alone wins"),
    ("baohuang", 7, {}, ((4,), (0, 1, 2, 3)), (2, 1), "明独保: the emperor alone loses"),
    ("baohuang", 56, {}, ((0,), (1, 2, 3, 4)), (2, 1), "暗独保: the emperor alone loses"),
    ("baohuang", 5, {"mode": "simple"}, ((0,), (1, 2, 3, 4)), (2, 1), "simple mode, 暗独保"),
]


def _played(variant: str, seed: int, options: dict[str, Any]) -> GameState:
    state = new_game(variant, seed=seed, options=options)
    assert play_out(state, seat_bots(variant, ["random"], state.players, seed))
    return state


def _own_side(state: GameState) -> set[int]:
    """The seats against the rest, from the state itself (not its result)."""
    if state.variant.id not in ("zhaopengyou", "baohuang"):  # Dou Dizhu: side 0 the landlord's
        return {s for s in range(state.players) if state.side[s] == 0}
    result = state.result()
    assert result is not None
    rest = "attacker" if state.variant.id == "zhaopengyou" else "rebel"
    return {s for s, role in enumerate(result["detail"]["roles"]) if role != rest}


def test_every_variant_declares_its_sides() -> None:
    assert all(v.side is not None for v in VARIANTS.values())
    assert {row[0] for row in ROWS} == set(VARIANTS)


@pytest.mark.parametrize(("variant", "seed", "options", "teams", "ranks", "what"), ROWS,
                         ids=[f"{r[0]}-{r[1]}-{r[5]}" for r in ROWS])
def test_teams_and_ranks(variant: str, seed: int, options: dict[str, Any], teams: Teams,
                         ranks: tuple[int, ...], what: str) -> None:
    state = _played(variant, seed, options)
    result = state.result()
    assert result is not None and result["ended"] == "finished"
    got = standing(result)
    assert got == Standing(teams, ranks), what
    assert set(teams[0]) == _own_side(state)
    assert sorted(s for t in teams for s in t) == list(range(state.players))
    winners = set(result["winners"])
    if ranks[0] == ranks[1]:
        assert not winners
    else:
        assert winners == set(teams[ranks.index(1)])
    assert standing(dict(result)) == got  # plain data: a stored result reads the same


@pytest.mark.parametrize(("variant", "seat"), [("ddz3", 1), ("ddz3_happy", 2), ("ddz3_laizi", 1),
                                              ("ddz2", 0)])
def test_an_escape_is_the_escaper_against_everyone(variant: str, seat: int) -> None:
    """Before the sides exist (bidding, or 欢乐's ready), he alone against the rest."""
    state = new_game(variant, seed=0)
    state.apply(f"@{seat} leave")
    result = state.result()
    assert result is not None and result["ended"] == "escape"
    others = tuple(s for s in range(state.players) if s != seat)
    assert standing(result) == Standing((others, (seat,)), (1, 2), escaped=seat)


@pytest.mark.parametrize(("variant", "seat", "landlord"),
                         [("ddz3", 1, 0), ("ddz3", 0, 0), ("ddz4", 3, 1), ("ddz5", 2, 4),
                          ("ddz_emperor", 2, 2), ("ddz2", 0, 1)])
def test_an_escape_once_the_landlord_is_known_is_his_sides_loss(
        variant: str, seat: int, landlord: int) -> None:
    """A farmer who runs once the landlord is named loses with the farmers, not alone
    against everyone (which would rate him as a lone landlord's easy loss)."""
    state = new_game(variant, seed=0, options={"landlord": landlord})
    state.apply(f"@{seat} leave")
    result = state.result()
    assert result is not None and result["ended"] == "escape"
    lords = tuple(sorted(_own_side(state)))  # 五人: the hidden landlord too
    assert landlord in lords
    farmers = tuple(s for s in range(state.players) if s not in lords)
    teams = (farmers, lords) if seat in lords else (lords, farmers)
    assert standing(result) == Standing(teams, (1, 2), escaped=seat)


def test_unscored_and_dissolved_games_have_no_standing() -> None:
    state = new_game("ddz3", seed=0, options={"landlord": 0})  # 托管 never bids: fixed
    for seat in range(state.players):
        state.apply(f"@{seat} auto on")
    assert play_out(state, seat_bots("ddz3", ["tuoguan"], state.players, 0))
    result = state.result()
    assert result is not None and result["ended"] == "unscored"
    assert standing(result) is None
    assert standing({**result, "ended": "dissolved"}) is None


def test_a_variant_without_sides_is_its_winners_against_the_rest() -> None:
    result = {"variant": "somebody-elses", "ended": "finished", "winners": [2, 0],
              "points": [1, -2, 1], "detail": {}}
    assert standing(result) == Standing(((0, 2), (1,)), (1, 2))  # not registered
    drawn = {**result, "winners": [], "points": [0, 0, 0]}
    assert standing(drawn) == Standing(((0,), (1,), (2,)), (1, 1, 1))
    plain = replace(VARIANTS["ddz3"], id="somebody-elses", side=None)
    with registered(plain):
        assert standing(result) == Standing(((0, 2), (1,)), (1, 2))


def test_a_registered_variant_reads_its_sides_by_its_declaration() -> None:
    result = {"variant": "landlord-1", "ended": "finished", "winners": [1],
              "points": [-2, 2, -2], "detail": {"landlord": 1}}
    with registered(replace(VARIANTS["ddz3"], id="landlord-1")):
        assert standing(result) == Standing(((1,), (0, 2)), (1, 2))
