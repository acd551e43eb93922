"""Mining a finished game: a 二人斗地主 game is built in which a seat, at a two-hand
position with exactly one winning move, plays another; the miner finds that position,
that move and the one it missed, and nothing where the player kept the win."""

from __future__ import annotations

from typing import Any

import pytest

from cardhall.games import new_game
from cardhall.games.climbing import ClimbingGame
from cardhall.puzzles.mine import MAX_CARDS, mine
from cardhall.puzzles.position import Position, winning_moves
from cardhall.rules.solve import Solver
from cardhall.rules.variants import get


def built_game(seed: int, blunder: bool) -> tuple[dict[str, Any], list[tuple[int, str]]]:
    """A ddz2 game played by a plain policy (the biggest play, else the first action);
    with ``blunder``, a seat with one winning move (that does not go out at once) plays
    another legal move instead. The blunders made: (ply, winning move)."""
    state = new_game("ddz2", seed=seed)
    assert isinstance(state, ClimbingGame)
    solver = Solver(state.rs)
    made: list[tuple[int, str]] = []
    ply = 0
    while state.to_act is not None:
        actions = [a.text for a in state.legal_actions()]
        choice = actions[-1] if state.phase == "play" else actions[0]
        seat = state.to_act
        other = 1 - seat
        me, them = state.counts[seat], state.counts[other]
        if state.phase == "play" and any(them) and sum(me) <= MAX_CARDS \
                and sum(them) <= MAX_CARDS:
            trick = state.trick
            pos = Position(me, them, trick[1] if trick and trick[0] != seat else None)
            wins = winning_moves(solver, pos)
            goes_out = len(wins) == 1 and pos.after(pos.find(state.rs, wins[0])) is None
            others = [t for t, _ in pos.moves(state.rs) if wins and t != wins[0]]
            if len(wins) == 1 and not goes_out and others:
                if blunder and not made:
                    choice = others[0]
                    made.append((ply, wins[0]))
                elif not blunder:
                    choice = wins[0]
        state.apply(choice)
        ply += 1
    return state.record(), made


def test_a_missed_single_win_is_mined_with_its_position() -> None:
    record, made = built_game(seed=1, blunder=True)
    assert made, "the built game has a missed win to mine"
    found = mine(record)
    assert [(m.ply, m.winning) for m in found] == made
    first = found[0]
    assert first.rules == "ddz2" and first.played == record["actions"][first.ply]
    assert first.played != first.winning
    rs = get("ddz2")
    pos = Position.of(rs, first.hand, first.other, first.last)
    assert winning_moves(Solver(rs), pos) == [first.winning]


def test_a_game_that_kept_every_win_gives_no_puzzle() -> None:
    record, made = built_game(seed=1, blunder=False)
    assert made == [] and mine(record) == []


@pytest.mark.parametrize("variant", ["ddz4", "ddz3_laizi"])
def test_games_the_solvers_do_not_take_give_none(variant: str) -> None:
    """Four hands (the solvers take two or three), or wildcards (no solver)."""
    state = new_game(variant, seed=3)
    while state.to_act is not None:
        state.apply(state.legal_actions()[-1])
    assert mine(state.record()) == []
