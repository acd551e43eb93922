"""Playing a puzzle move by move: the winning line solves it, a losing move fails it with
the solution shown, an illegal move is refused and changes nothing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardhall.puzzles.attempt import describe, play, walk
from cardhall.puzzles.classic import BY_ID
from cardhall.puzzles.position import RULES, BadMove
from cardhall.rules.solve import Solver
from cardhall.rules.variants import get

RS = get(RULES)
SOLVER = Solver(RS)


def test_the_winning_line_solves_c01() -> None:
    start = BY_ID["c01"].position(RS)
    step = play(SOLVER, start, [], "play 4")
    assert step.status == "playing" and step.line == ["play 4", "play K"]
    step = play(SOLVER, start, step.line, "play A")
    assert step.status == "playing" and step.reply == "pass"
    step = play(SOLVER, start, step.line, "play 66")
    assert step.status == "solved" and step.line[-1] == "play 66"


def test_a_losing_move_fails_and_shows_the_solution() -> None:
    start = BY_ID["c01"].position(RS)
    step = play(SOLVER, start, [], "play 66")
    assert step.status == "failed" and step.line == ["play 66"]
    assert step.solution is not None and step.solution[0] == "play 4"
    assert step.refutation is not None and step.refutation[0] == "play 77"


@pytest.mark.parametrize("move", ["play 5", "pass", "bid 3", "play", "play 4 4", "play 44",
                                  "play ZZ", "x" * 300, ""])
def test_illegal_moves_are_refused(move: str) -> None:
    start = BY_ID["c01"].position(RS)
    with pytest.raises(BadMove):
        play(SOLVER, start, [], move)


def test_a_line_that_does_not_play_is_refused() -> None:
    start = BY_ID["c01"].position(RS)
    with pytest.raises(BadMove):
        walk(SOLVER, start, ["play 4"])  # the defence has not answered
    with pytest.raises(BadMove):
        walk(SOLVER, start, ["play 3", "pass"])


def test_the_description_follows_the_line() -> None:
    start = BY_ID["c01"].position(RS)
    seen = describe(SOLVER, start, [], "playing")
    assert seen == {"hand": "466A", "other": "77K", "last": None, "last_by": None,
                    "moves": ["play 66", "play 4", "play 6", "play A"]}
    seen = describe(SOLVER, start, ["play 4", "play K"], "playing")
    assert (seen["hand"], seen["other"], seen["last"], seen["last_by"]) == \
        ("66A", "77", "K", "defence")
    assert seen["moves"] == ["play A", "pass"]
    seen = describe(SOLVER, start, ["play 4", "play K", "play A", "pass"], "playing")
    assert (seen["hand"], seen["last"], seen["last_by"]) == ("66", None, None)
    seen = describe(SOLVER, start, ["play 66"], "failed")
    assert (seen["hand"], seen["last"], seen["last_by"]) == ("4A", "66", "player")
    assert seen["solution"] == ["play 4", "play K", "play A", "pass", "play 66"]
    assert seen["refutation"] == ["play 77", "pass", "play K"]
    seen = describe(SOLVER, start, ["play 4", "play K", "play A", "pass", "play 66"], "solved")
    assert (seen["hand"], seen["last_by"]) == ("", "player")


@given(st.text(max_size=64) | st.builds(lambda s: "play " + s, st.text(
    alphabet="3456789TJQKA2XD+= 10大小王", max_size=30)))
@settings(max_examples=300, deadline=None)
def test_any_move_text_is_played_or_refused(move: str) -> None:
    """Whatever a client sends as a move is a step or a BadMove, never another error."""
    start = BY_ID["c22"].position(RS)
    try:
        step = play(SOLVER, start, [], move)
    except BadMove:
        return
    assert step.status in ("playing", "failed")
