"""Playing a three-hand puzzle move by move against the solver, who holds the other two
hands: the winning line solves it, a losing move fails it with the solution and the
other side's win shown, an illegal move is refused. Both kinds of player: the landlord
(seed 69's mined puzzle) and a farmer whose partner the solver plays (seed 62's)."""

from __future__ import annotations

import pytest

from cardhall.puzzles.attempt3 import describe, play, walk
from cardhall.puzzles.position import BadMove
from cardhall.puzzles.position3 import Table, solution
from cardhall.rules.solve3 import ThreeHandSolver
from cardhall.rules.variants import get

RS = get("ddz3")
SOLVER = ThreeHandSolver(RS)
LANDLORD = Table.of(RS, "3378TA2", "479TJ2", "356TK", "A", lord=0)
FARMER = Table.of(RS, "56778K", "336JQ", "4", "33", lord=2)


@pytest.mark.parametrize("start", [LANDLORD, FARMER], ids=["landlord", "farmer"])
def test_the_winning_line_solves_it(start: Table) -> None:
    line: list[str] = []
    for _ in range(20):
        move = solution(SOLVER, walk(SOLVER, start, line))[0]
        step = play(SOLVER, start, line, move)
        line = step.line
        if step.status != "playing":
            break
        assert step.reply is not None and len(step.reply.split(" / ")) == 2
        assert len(line) % 3 == 0
    assert step.status == "solved"
    seen = describe(SOLVER, start, line, "solved")
    assert seen["hand"] == "" and seen["last_by"] == "player"


def test_the_farmer_s_first_steps() -> None:
    step = play(SOLVER, FARMER, [], "play 77")
    assert step.status == "playing" and step.line == ["play 77", "pass", "pass"]
    seen = describe(SOLVER, FARMER, step.line, "playing")
    assert seen == {"hand": "568K", "other": "336JQ", "third": "4", "seats": 3,
                    "landlord": "third", "last": None, "last_by": None,
                    "moves": ["play 5", "play 6", "play 8", "play K"]}


def test_a_losing_move_fails_and_shows_the_solution() -> None:
    step = play(SOLVER, FARMER, [], "pass")
    assert step.status == "failed" and step.line == ["pass"]
    assert step.solution is not None and step.solution[0] == "play 77"
    assert step.refutation == ["pass", "play 4"]  # the partner cannot beat it: 4 goes out
    seen = describe(SOLVER, FARMER, step.line, "failed")
    assert (seen["hand"], seen["last"], seen["last_by"], seen["landlord"]) == \
        ("56778K", "33", "third", "third")
    assert seen["solution"] == step.solution and seen["refutation"] == step.refutation
    step = play(SOLVER, LANDLORD, [], "play 2")
    assert step.status == "failed" and step.solution is not None
    assert step.solution[0] == "pass"


@pytest.mark.parametrize("move", ["play 3", "play 99", "bid 3", "play", "x" * 300, ""])
def test_illegal_moves_are_refused(move: str) -> None:
    with pytest.raises(BadMove):
        play(SOLVER, LANDLORD, [], move)


def test_a_line_that_does_not_play_is_refused() -> None:
    with pytest.raises(BadMove):
        walk(SOLVER, LANDLORD, ["pass", "play 2"])  # the hand before has not answered
    with pytest.raises(BadMove):
        walk(SOLVER, LANDLORD, ["play 3", "pass", "pass"])


def test_the_partner_going_out_solves_it() -> None:
    """A farmer leads to his partner, who goes out: the puzzle is solved by his side."""
    start = Table.of(RS, "36", "5", "A", lord=2)
    step = play(SOLVER, start, [], "play 3")
    assert (step.status, step.line, step.reply) == ("solved", ["play 3", "play 5"], "play 5")
    seen = describe(SOLVER, start, step.line, "solved")
    assert (seen["hand"], seen["other"], seen["last"], seen["last_by"]) == \
        ("6", "", "5", "other")
    step = play(SOLVER, start, [], "play 6")  # the landlord's A goes out over it
    assert step.status == "failed" and step.refutation == ["pass", "play A"]
