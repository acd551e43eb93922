"""An attempt at a puzzle, one move at a time: the player's move is checked by the rules,
the defence answers with the solver's hardest reply, and the attempt ends when the
player goes out (solved) or makes a move after which the defence can force a win
(failed; the solution is then the solver's winning line from the start).

An attempt is its ``line``: the player's moves and the defence's replies in turn, from
the puzzle's position. The defence is deterministic, so the line replays to the same
position every time, which is all the hall needs to keep.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from cardhall.puzzles.position import (
    BadMove,
    Position,
    cards_text,
    defence,
    solution,
    wins,
)
from cardhall.rules.solve import Solver, action_text

Status = Literal["playing", "solved", "failed"]


@dataclass(frozen=True, slots=True)
class Step:
    """What one move did: the new line, the status, the defence's reply (if it played
    on), and on a failure the solution and how the defence wins after the move."""

    line: list[str]
    status: Status
    reply: str | None = None
    solution: list[str] | None = None
    refutation: list[str] | None = None


def walk(solver: Solver, start: Position, line: list[str]) -> Position:
    """The position after ``line`` (the player to move again); BadMove if the line
    does not play from ``start`` or ends the game."""
    current: Position | None = start
    for move in line:
        if current is None:
            raise BadMove("the line goes on after a hand went out")
        current = current.after(current.find(solver.rs, move))
    if current is None or len(line) % 2:
        raise BadMove("the line does not end with the player to move")
    return current


def play(solver: Solver, start: Position, line: list[str], move: str) -> Step:
    """The player plays ``move`` at the end of ``line``; BadMove if it is not legal."""
    here = walk(solver, start, line)
    played = here.find(solver.rs, move)
    after = here.after(played)
    done = [*line, "pass" if played is None else action_text(played)]
    if after is None:
        return Step(done, "solved")
    if wins(solver, after):
        return Step(done, "failed", solution=solution(solver, start),
                    refutation=solution(solver, after))
    reply = defence(solver, after)
    return Step([*done, reply], "playing", reply=reply)



def describe(solver: Solver, start: Position, line: list[str], status: Status) -> dict[str, object]:
    """What a player sees of an attempt: both hands as they are after ``line`` (his
    first), the play on the table (``last``, and who made it: "player" or "defence"),
    his legal moves while it is played, and once failed the solution from the start and
    the defence's win after his move. ``line`` is one the hall made (``play``)."""
    mine, theirs, last = start.me, start.them, start.last
    by: str | None = None if last is None else "defence"
    current: Position | None = start
    for i, move in enumerate(line):
        assert current is not None
        play = current.find(solver.rs, move)
        current = current.after(play)
        if current is None:  # the mover went out
            mine = (0,) * len(mine) if i % 2 == 0 else mine
            theirs = (0,) * len(theirs) if i % 2 else theirs
        else:
            mine, theirs = (current.them, current.me) if i % 2 == 0 else \
                (current.me, current.them)
        if play is not None:
            last, by = play, ("player" if i % 2 == 0 else "defence")
        elif current is not None and current.last is None:
            last, by = None, None  # a pass: the trick is over, the other side leads
    out: dict[str, object] = {"hand": cards_text(mine), "other": cards_text(theirs),
                              "last": None if last is None else last.text, "last_by": by}
    if status == "playing":
        out["moves"] = [text for text, _ in walk(solver, start, line).moves(solver.rs)]
    if status == "failed":
        out["solution"] = solution(solver, start)
        if current is not None:
            out["refutation"] = solution(solver, current)
    return out
