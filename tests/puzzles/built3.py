"""三人斗地主 games built for the three-hand miner's tests: played by a plain policy
(the last legal action: the top bid, the biggest play), with one chosen kind of
mistake at an open three-hand position (every hand at most ``MAX_CARDS3``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardhall.games import new_game
from cardhall.games.climbing import ClimbingGame
from cardhall.puzzles import position3
from cardhall.puzzles.mine import MAX_CARDS3
from cardhall.puzzles.position3 import Table
from cardhall.rules.solve3 import ThreeHandSolver


@dataclass(frozen=True, slots=True)
class Made:
    """The mistake made: before action ``ply``, from ``table``, whose winning moves
    were ``wins``; ``played`` instead."""

    ply: int
    table: Table
    wins: list[str]
    played: str


def built_game(seed: int, wins: int, landlord: bool | None = None,
               ) -> tuple[dict[str, Any], list[Made]]:
    """A ddz3 game in which the first open three-hand position with exactly ``wins``
    winning moves (none that goes out at once) and a losing one, the hand to move
    the landlord's (``landlord``), a farmer's (not), or either (None), plays a losing
    move. ``wins`` 0: no mistake, every hand plays its first winning move when it has
    one."""
    state = new_game("ddz3", seed=seed)
    assert isinstance(state, ClimbingGame)
    solver = ThreeHandSolver(state.rs)
    made: list[Made] = []
    ply = 0
    while state.to_act is not None:
        choice = state.legal_actions()[-1].text
        seat = state.to_act
        table = _open(state, seat)
        if table is not None:
            found = position3.winning_moves(solver, table)
            losing = [t for t, _ in table.moves(state.rs) if t not in found]
            at_once = any(table.after(table.find(state.rs, w)) is None for w in found)
            side = landlord is None or landlord == (table.lord == 0)
            if wins and not made and len(found) == wins and losing and not at_once and side:
                choice = losing[0]
                made.append(Made(ply, table, found, choice))
            elif found and not (wins and made):
                choice = found[0]
        state.apply(choice)
        ply += 1
    return state.record(), made


def _open(state: ClimbingGame, seat: int) -> Table | None:
    """The position as the miner reads it, when all three hands are small and the hand
    to move leads or answers the hand before it."""
    if state.phase != "play" or state.landlord is None:
        return None
    hands = [state.counts[(seat + i) % 3] for i in range(3)]
    if not all(any(h) and sum(h) <= MAX_CARDS3 for h in hands):
        return None
    trick = state.trick
    if trick is not None and trick[0] == (seat + 1) % 3:
        return None
    last = trick[1] if trick is not None and trick[0] != seat else None
    return Table(hands[0], hands[1], hands[2], last, lord=(state.landlord - seat) % 3)
