"""The built-in 残局: each is a forced win for the player, with as many winning first
moves as ``WINNING`` says; the titles exist in both languages; the daily pick is stable."""

from __future__ import annotations

import re
from datetime import date

import pytest

from cardhall.puzzles.classic import BY_ID, CLASSIC, WINNING
from cardhall.puzzles.position import RULES, Position, defence, solution, winning_moves
from cardhall.puzzles.puzzle import Puzzle, daily_index
from cardhall.rules.solve import Solver
from cardhall.rules.variants import get

RS = get(RULES)
SOLVER = Solver(RS)


@pytest.mark.parametrize("puzzle", CLASSIC, ids=lambda p: p.id)
def test_each_puzzle_is_a_forced_win_with_its_winning_moves(puzzle: Puzzle) -> None:
    pos = puzzle.position(RS)
    assert SOLVER.solve(pos.me, pos.them, pos.last).win
    assert len(winning_moves(SOLVER, pos)) == WINNING[puzzle.id]
    assert sum(pos.me) <= 10 and sum(pos.them) <= 10  # the API's bound


@pytest.mark.parametrize("puzzle", CLASSIC, ids=lambda p: p.id)
def test_the_solution_line_is_legal_and_ends_with_the_player_out(puzzle: Puzzle) -> None:
    current: Position | None = puzzle.position(RS)
    line = solution(SOLVER, puzzle.position(RS))
    for i, move in enumerate(line):
        assert current is not None
        if i % 2 == 0:
            assert move in winning_moves(SOLVER, current)
        current = current.after(current.find(RS, move))
    assert current is None and len(line) % 2 == 1  # the player's own move went out


def test_the_set_is_graded_titled_and_unique() -> None:
    assert len(CLASSIC) >= 20 and set(WINNING) == set(BY_ID)
    assert {p.level for p in CLASSIC} == {1, 2, 3, 4, 5}
    assert len({(p.hand, p.other, p.last) for p in CLASSIC}) == len(CLASSIC)
    for p in CLASSIC:
        assert re.search(r"[\u4e00-\u9fff]", p.title)
        assert p.title_en.isascii() and p.title_en


def test_the_defence_answers_with_its_hardest_reply() -> None:
    """After the one winning lead of c01 (4), the K is the defence's only play but a pass
    is legal too: it takes the K, which leaves the player one winning answer (the A)."""
    pos = BY_ID["c01"].position(RS)
    after = pos.after(pos.find(RS, "play 4"))
    assert after is not None and defence(SOLVER, after) == "play K"


def test_the_daily_index_is_stable() -> None:
    assert daily_index(date(2026, 12, 7), 25) == daily_index(date(2026, 12, 7), 25)
    assert len({daily_index(date(2026, 1, d), 25) for d in range(1, 29)}) > 5
