"""A three-hand 残局 position: a landlord against two farmers who cooperate, every hand
open, played out against the three-hand solver (``rules.solve3``). The player holds one
hand, the landlord's or a farmer's; the solver plays the other two.

The hands play in turn: the player's, the one after him (*down*), the one before him
(*up*), the player's again. A play stands until the two hands after its maker have
passed, and then its maker leads. A ``Table`` is the position seen from the hand to
move, as the solver keeps it: that hand, the next two in turn, the play to beat, whether
one pass has followed it (then the next hand made it, else the hand before), and where
the landlord sits (0 the hand to move, 1 the next, 2 the one after).

What a puzzle needs, as ``position`` gives it for two hands, always from the side of the
hand to move: ``winning_moves``; ``defence`` (a winning move when there is one, else
the move that leaves the winning side fewest winning answers; a farmer whose partner
moves next looks through the partner's best reply); ``solution``, a whole line.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardhall.cards import Counts
from cardhall.puzzles.position import cards_text, find_move, legal_moves
from cardhall.rules.plays import Play
from cardhall.rules.ruleset import RuleSet
from cardhall.rules.solve3 import ThreeHandSolver
from cardhall.rules.verdict import without


@dataclass(frozen=True, slots=True)
class Table:
    """``me`` moves; ``a`` and ``b`` move next, in turn; see the module doc."""

    me: Counts
    a: Counts
    b: Counts
    last: Play | None = None
    passed: bool = False
    lord: int = 0

    @classmethod
    def of(cls, rs: RuleSet, me: str, down: str, up: str, last: str | None = None,
           lord: int = 0) -> Table:
        """``me`` to move, then ``down`` and ``up``; ``last`` is up's play to answer (None:
        ``me`` leads); ``lord`` where the landlord sits (0 ``me``, 1 down, 2 up)."""
        if lord not in (0, 1, 2):
            raise ValueError(f"the landlord is hand 0, 1 or 2, not {lord}")
        return cls(rs.hand(me), rs.hand(down), rs.hand(up),
                   None if last is None else rs.parse_play(last), lord=lord)

    def texts(self) -> tuple[str, str, str, str | None]:
        return (cards_text(self.me), cards_text(self.a), cards_text(self.b),
                None if self.last is None else self.last.text)

    def moves(self, rs: RuleSet) -> list[tuple[str, Play | None]]:
        return legal_moves(rs, self.me, self.last)

    def find(self, rs: RuleSet, move: str) -> Play | None:
        return find_move(rs, self.me, self.last, move)

    def after(self, play: Play | None) -> Table | None:
        """The position the next hand faces after ``play`` (None: a pass); None when
        ``play`` empties ``me`` (the hand to move went out: its side won)."""
        lord = (self.lord - 1) % 3
        if play is None:
            if self.passed:  # the second pass: the play's maker (``a``) leads
                return Table(self.a, self.b, self.me, None, False, lord)
            return Table(self.a, self.b, self.me, self.last, True, lord)
        rest = without(self.me, play)
        return None if not any(rest) else Table(self.a, self.b, rest, play, False, lord)

    def partner_next(self) -> bool:
        """Whether the next hand is on the side of the hand to move (both farmers)."""
        return self.lord == 2


def wins(solver: ThreeHandSolver, pos: Table) -> bool:
    """Whether the side of the hand to move forces a win."""
    return solver.wins(pos.me, pos.a, pos.b, pos.last, pos.passed, pos.lord)


def keeps(solver: ThreeHandSolver, pos: Table, play: Play | None) -> bool:
    """Whether ``play`` keeps a win for the side of the hand to move."""
    nxt = pos.after(play)
    if nxt is None:
        return True
    return wins(solver, nxt) == pos.partner_next()


def winning_moves(solver: ThreeHandSolver, pos: Table) -> list[str]:
    """Every move of the hand to move that keeps its side's forced win."""
    return [text for text, play in pos.moves(solver.rs) if keeps(solver, pos, play)]


def _pressure(solver: ThreeHandSolver, pos: Table, winner_moves: bool) -> int:
    """How many ways the winning side has to go on from ``pos``: its winning moves when
    it moves (``winner_moves``), else the fewest a losing hand's reply leaves it."""
    if winner_moves:
        return len(winning_moves(solver, pos))
    best = None
    for _, play in pos.moves(solver.rs):
        nxt = pos.after(play)
        assert nxt is not None  # going out would have been a win
        count = _pressure(solver, nxt, True)  # a losing farmer's partner: the landlord next
        best = count if best is None else min(best, count)
    assert best is not None
    return best


def defence(solver: ThreeHandSolver, pos: Table) -> str:
    """The move of the hand to move: its side's first winning move if it has one; else
    the one that leaves the winning side the fewest ways on."""
    found = winning_moves(solver, pos)
    if found:
        return found[0]
    best: tuple[int, str] | None = None
    for text, play in pos.moves(solver.rs):
        nxt = pos.after(play)
        assert nxt is not None  # a move that goes out would have been a win
        count = _pressure(solver, nxt, winner_moves=not pos.partner_next())
        if best is None or count < best[0]:
            best = (count, text)
    assert best is not None  # a hand that holds cards always has a move
    return best[1]


def solution(solver: ThreeHandSolver, pos: Table, limit: int = 90) -> list[str]:
    """A line from ``pos``: every hand's move in turn (``defence``: the winning side's
    winning moves, the other side's stubbornest) until one of the winning side goes
    out. From the start it is the solution; after a losing move, the refutation."""
    line: list[str] = []
    current: Table | None = pos
    while current is not None and len(line) < limit:
        move = defence(solver, current)
        line.append(move)
        current = current.after(current.find(solver.rs, move))
    return line
