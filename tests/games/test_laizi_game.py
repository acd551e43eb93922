"""癞子场 (ddz3_laizi) as a game: ddz-laizi.md §5's worked and cap examples, the wild draw,
bomb classes and their factors, escape (Ruling 11); its golden game is in test_golden.py.

One deal serves the scripted tests. Seat 0 is the landlord after one rob (seat 1 calls,
seat 0 robs) and holds QQQQ; seat 1 holds 888, one 9, the rocket, 34567, TTT KK and A,
so with W = 9 his 888+9 is the soft bomb 8888; seat 2 holds the other three 9s.
"""

from __future__ import annotations

from typing import Any

import pytest

from cardhall.cards import RANK_CHARS
from cardhall.games import GameState, new_game
from tests.games.test_happy import NO_DOUBLES, QUIET, READY, run, settled

DEAL = {"hands": ["QQQQ 3 44 55 66 77 JJ 22", "888 9 X D 34567 TTT KK A",
                  "33 4 5 6 7 8 999 T J KK AA 2"], "kitty": "J A 2"}
# Seat 1 calls, 2 passes, 0 robs, 1 does not rob back: landlord 0, one rob.
AUCTION = ["call", "no-rob", "rob", "no-rob"]
SETUP = [*QUIET, *AUCTION, *NO_DOUBLES, "no-show"]
# W = 9: the landlord leads 3; soft bomb 8888, hard QQQQ, rocket; farmer 1 goes out.
WORKED = ["play 3", "play 8889=8888", "pass", "play QQQQ", "play XD", "pass", "pass",
          "play 34567", "pass", "pass", "play TTT+KK", "pass", "pass", "play A"]
# W = Q: the landlord's QQQQ is the pure-wild bomb; he never plays again (anti-spring).
PURE = ["play QQQQ=QQQQ", "play XD", "pass", "pass", "play 34567", "pass", "pass",
        "play TTT+KK", "pass", "pass", "play 888+9", "pass", "pass", "play A"]
ROOM = {"M0": 1, "N": 1000, "A": 100}


def game(wild: str | None = "9", **options: Any) -> GameState:
    return new_game("ddz3_laizi", seed=0,
                    options={"deal": DEAL, "first": 1, "wild": wild, **options})


def test_worked_example() -> None:
    """W = 9, one rob, soft 8889 + hard QQQQ + rocket, farmers win: M = 64, x = 16."""
    state = game(**ROOM)
    assert run(state, [*QUIET, *AUCTION])[-4:] == [1, 2, 0, 1]
    run(state, [*NO_DOUBLES, "no-show", *WORKED])
    result, detail = settled(state)
    m = detail["multiplier"]
    assert m["bombs"] == {"soft": 1, "hard": 1, "pure": 0, "rocket": 1}
    assert (m["rob_factor"], m["bomb_factor"], m["spring"], m["M"]) == (2, 2 * 4 * 4, None, 64)
    assert result["multiplier"] == {"total": 64, "causes": {
        "M0": 1, "robs": 2, "show": 1, "soft": 2, "hard": 4, "pure": 1, "rocket": 4,
        "spring": 1}}
    assert detail["winner"] == "farmers" and result["winners"] == [1, 2]
    assert detail["wild"] == "9"
    assert detail["coefficient"] == 0.25 and detail["capped"] is False
    assert detail["pairs"] == [{"farmer": 1, "points": 16}, {"farmer": 2, "points": 16}]
    assert result["points"] == detail["scores"] == [-32, 16, 16]
    assert result["beans"] == detail["beans"]["changes"] == [-32_100, 15_900, 15_900]
    assert detail["beans"]["house"] == 300


def test_cap_example() -> None:
    """M = 2^15 (room M0 = 512 × the worked example's 64): X_L 16 384 → capped to 10 000."""
    state = game(M0=512, N=1, A=0)
    run(state, [*SETUP, *WORKED])
    result, detail = settled(state)
    assert detail["multiplier"]["M"] == result["multiplier"]["total"] == 2 ** 15
    assert detail["capped"] is True
    assert detail["pairs"] == [{"farmer": 1, "points": 5_000}, {"farmer": 2, "points": 5_000}]
    assert result["points"] == [-10_000, 5_000, 5_000]
    assert result["beans"] == [-10_000, 5_000, 5_000]


@pytest.mark.parametrize(("wild", "plays", "bombs", "spring", "m", "scores"), [
    ("9", WORKED, {"soft": 1, "hard": 1, "pure": 0, "rocket": 1}, None, 64, [-32, 16, 16]),
    # pure ×4 and rocket ×4 replace the normal ×2; the landlord played once: anti-spring ×2.
    ("Q", PURE, {"soft": 0, "hard": 0, "pure": 1, "rocket": 1}, "anti-spring", 64,
     [-32, 16, 16]),
])
def test_bomb_classes_and_factors(wild: str, plays: list[str], bombs: dict[str, int],
                                  spring: str | None, m: int, scores: list[int]) -> None:
    state = game(wild)
    run(state, [*SETUP, *plays])
    result, detail = settled(state)
    assert detail["multiplier"]["bombs"] == bombs
    assert detail["spring"] == spring and detail["multiplier"]["M"] == m
    assert result["multiplier"]["total"] == m
    assert result["points"] == scores


def test_points_keep_quarters() -> None:
    """Only a ×3 show: x = 3 × 0.25 = 0.75 points a pair; beans per pair 7.5 → 8 (half up)."""
    state = game(wild="Q", N=10, A=0)
    run(state, [*READY, "no-show", "no-show", "no-show", "no-show", "show", "no-show"])
    assert run(state, ["call", "no-rob", "no-rob", *NO_DOUBLES]) == [2, 0, 1, 2, 0, 1]
    assert state.landlord == 2 and state.phase == "play"  # showing already: not asked again
    run(state, ["play 3", "play 4", "pass", "play 2", "pass", "pass", "play 345678", "pass",
                "pass", "play 999+T", "pass", "pass", "play JJ", "pass", "pass", "play KK",
                "pass", "pass", "play AAA+2"])
    result, detail = settled(state)
    assert detail["multiplier"]["M"] == 3 and detail["spring"] is None
    assert result["points"] == [-0.75, -0.75, 1.5] and result["winners"] == [2]
    assert result["beans"] == [-8, -8, 16]


def test_wild_rank_is_drawn_after_robbing() -> None:
    drawn = set()
    for seed in range(200):
        state = new_game("ddz3_laizi", seed=seed, options={"first": 0})
        run(state, [*QUIET, "call", "rob", "no-rob"])
        assert state.phase == "rob" and state.to_act == 0  # the caller's rob back is pending
        assert state.wild is None and state.rs.wild is None
        assert all("wild" not in state.observe(s)["detail"] for s in range(3))
        events = state.apply("no-rob")  # the landlord is fixed, then the wild rank drawn
        kinds = [e["type"] for e in events]
        assert kinds[-4:] == ["landlord", "wild", "kitty", "doubling"]
        rank = state.observe(2)["detail"]["wild"]
        assert state.rs.wild == RANK_CHARS.index(rank)
        drawn.add(rank)
    assert drawn == set("3456789TJQKA2")  # every rank 3 … 2, never a joker


def test_wild_plays_are_written_with_what_they_stand_for() -> None:
    state = game()
    run(state, [*SETUP, "play 3"])
    legal = {a.text for a in state.legal_actions()}
    assert {"play 8889=8888", "play XD"} <= legal
    assert state.parse_action("play 9888=8888").text == "play 8889=8888"
    (last,) = state.apply("play 9888=8888")
    assert (last["cards"], last["as"], last["bomb"]) == ("8889", "8888", True)
    assert state.observe(0)["last"] == ["play 3", "play 8889=8888", "no-double"]
    assert state.observe(2)["table"] == {"seat": 1, "cards": "8889", "kind": "bomb",
                                              "leader": 0, "acted": [0, 1]}
    assert state.check("play 33") == "33 does not beat 8889"


@pytest.mark.parametrize(("wild", "plays", "escaper", "role", "bombs", "m_act", "x_esc"), [
    # Ruling 11: hard QQQQ and the rocket count from the deal (×4 each), the soft bomb
    # because it was played (×2); one rob: M_act = 64 → P = 2 × 64 = 128, × 0.25 = 32.
    ("9", WORKED[:2], 2, "farmer", {"soft": 1, "hard": 1, "pure": 0, "rocket": 1}, 64, 32),
    # An unplayed soft bomb does not count: 2 × 4 × 4 = 32 → P 64 → 16.
    ("9", [], 2, "farmer", {"soft": 0, "hard": 1, "pure": 0, "rocket": 1}, 32, 16),
    # W = Q: the landlord holds the four wild cards, the pure-wild bomb (×4).
    ("Q", [], 0, "landlord", {"soft": 0, "hard": 0, "pure": 1, "rocket": 1}, 32, 32),
])
def test_escape(wild: str, plays: list[str], escaper: int, role: str, bombs: dict[str, int],
                m_act: int, x_esc: int) -> None:
    state = game(wild, **ROOM)
    run(state, [*SETUP, *plays])
    state.apply(f"@{escaper} leave")
    result, detail = settled(state)
    assert detail["multiplier"]["bombs"] == bombs
    assert result["multiplier"]["total"] == m_act
    assert (detail["role"], detail["M_act"], detail["X_esc"]) == (role, m_act, x_esc)
    others = [s for s in range(3) if s != escaper]
    assert result["ended"] == "escape" and result["winners"] == others
    assert result["points"][escaper] == -x_esc
    assert [result["points"][s] for s in others] == [x_esc / 2] * 2
    beans = result["beans"]
    assert beans[escaper] == -(x_esc * 1000 + 100)
    assert [beans[s] for s in others] == [x_esc * 500] * 2


def test_escape_is_capped() -> None:
    state = game("9", M0=1000)
    run(state, SETUP)
    state.apply("@0 leave forced")
    result, detail = settled(state)
    assert (detail["M_act"], detail["P"], detail["X_esc"]) == (32, 128, 10_000)
    assert result["points"] == [-10_000, 5_000, 5_000]
    assert result["penalties"] == [0, 0, 0]  # an escape's penalty is the points above
