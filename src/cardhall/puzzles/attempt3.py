"""An attempt at a three-hand puzzle: the player holds the landlord's hand or a
farmer's, the solver plays the other two (``position3.defence``), each in turn: the
defence's best, or when the hand is the player's partner, its side's winning move.

As for two hands (``attempt``), an attempt is its ``line``: the player's moves and the
other hands' replies, two after each of his (the hand after him, then the one before
him), so the player is to move whenever the line's length is a multiple of three. It
ends solved when his side goes out (he, or his partner in a reply), failed when a move
of his lets the other side force a win.
"""

from __future__ import annotations

from cardhall.puzzles.attempt import Status, Step
from cardhall.puzzles.position import BadMove, cards_text
from cardhall.puzzles.position3 import Table, defence, keeps, solution
from cardhall.rules.solve import action_text
from cardhall.rules.solve3 import ThreeHandSolver
from cardhall.rules.verdict import without

#: Hands in turn: the player's, then the two farmers'.
SEATS = 3


def walk(solver: ThreeHandSolver, start: Table, line: list[str]) -> Table:
    """The position after ``line`` (the player to move again); BadMove if the line does
    not play from ``start`` or ends the game."""
    current: Table | None = start
    for move in line:
        if current is None:
            raise BadMove("the line goes on after a hand went out")
        current = current.after(current.find(solver.rs, move))
    if current is None or len(line) % SEATS:
        raise BadMove("the line does not end with the player to move")
    return current


def play(solver: ThreeHandSolver, start: Table, line: list[str], move: str) -> Step:
    """The player plays ``move`` at the end of ``line``; BadMove if it is not legal. The
    other hands' replies (one, when the player's partner goes out with the first) are the
    step's ``reply``, joined by " / "."""
    here = walk(solver, start, line)
    played = here.find(solver.rs, move)
    after = here.after(played)
    done = [*line, "pass" if played is None else action_text(played)]
    if after is None:
        return Step(done, "solved")
    if not keeps(solver, here, played):  # the other side now wins by force
        return Step(done, "failed", solution=solution(solver, start),
                    refutation=solution(solver, after))
    replies: list[str] = []
    current: Table | None = after
    while current is not None and len(replies) < SEATS - 1:
        # only the player's side can go out here: it is the one winning
        reply = defence(solver, current)
        replies.append(reply)
        current = current.after(current.find(solver.rs, reply))
    if current is None:  # the player's partner went out
        return Step([*done, *replies], "solved", reply=" / ".join(replies))
    return Step([*done, *replies], "playing", reply=" / ".join(replies))


def describe(solver: ThreeHandSolver, start: Table, line: list[str],
             status: Status) -> dict[str, object]:
    """What a player sees of an attempt: the three hands after ``line`` (his, the one
    after him as ``other``, the one before him as ``third``), which is the landlord's
    (``landlord``: "player", "other" or "third"), the play on the table and who made it
    (``last_by``, named the same way), his legal moves while it is played, and once
    failed the solution and the other side's win after his move."""
    hands = [start.me, start.a, start.b]
    last, by = start.last, (None if start.last is None else "third")
    names = ("player", "other", "third")
    current: Table | None = start
    for i, move in enumerate(line):
        assert current is not None
        seat = i % SEATS
        played = current.find(solver.rs, move)
        current = current.after(played)
        if played is not None:
            hands[seat] = without(hands[seat], played)
            last, by = played, names[seat]
        elif current is not None and current.last is None:
            last, by = None, None  # the second pass: the trick is over
    out: dict[str, object] = {"hand": cards_text(hands[0]), "other": cards_text(hands[1]),
                              "third": cards_text(hands[2]), "seats": SEATS,
                              "landlord": names[start.lord],
                              "last": None if last is None else last.text, "last_by": by}
    if status == "playing":
        out["moves"] = [text for text, _ in walk(solver, start, line).moves(solver.rs)]
    if status == "failed":
        out["solution"] = solution(solver, start)
        if current is not None:
            out["refutation"] = solution(solver, current)
    return out
