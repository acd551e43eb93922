"""A two-hand 残局 position and how it is played out against the solver.

Both hands are open. The *solver's side* (the player of a puzzle) holds ``me`` and
moves, leading or answering ``last`` (a play of the other side). A position is won
when some move forces going out first (``rules.solve``). What this module adds to the
solver is what a puzzle needs around it:

- ``winning_moves``: every move that keeps the win (a good puzzle has one, or few);
- ``defence``: the other side's reply to a move, the hardest one for the solver's
  side to answer (fewest winning answers), since every reply of a lost position loses;
- ``solution``: a whole winning line, the solver's side's move and the defence in turn.

Moves are action texts, as in a game: ``"play 33"``, ``"pass"``.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardhall.cards import Counts, format_ranks
from cardhall.rules.plays import Play
from cardhall.rules.ruleset import RuleError, RuleSet
from cardhall.rules.solve import Solver, action_text
from cardhall.rules.verdict import without

#: Every puzzle is played by the classic Dou Dizhu rules (one pack, rocket > bombs).
RULES = "ddz3_happy"


class BadMove(ValueError):
    """A move that is not legal in the position, in words a player understands."""


@dataclass(frozen=True, slots=True)
class Position:
    """The side to move holds ``me``; the other ``them``; ``last`` is the play to
    answer (None: ``me`` leads)."""

    me: Counts
    them: Counts
    last: Play | None = None

    @classmethod
    def of(cls, rs: RuleSet, me: str, them: str, last: str | None = None) -> Position:
        return cls(rs.hand(me), rs.hand(them), None if last is None else rs.parse_play(last))

    def texts(self) -> tuple[str, str, str | None]:
        """The hands and the play to answer as text (``last`` in its canonical form)."""
        return (cards_text(self.me), cards_text(self.them),
                None if self.last is None else self.last.text)

    def moves(self, rs: RuleSet) -> list[tuple[str, Play | None]]:
        return legal_moves(rs, self.me, self.last)

    def after(self, play: Play | None) -> Position | None:
        """The position the other side faces after ``play`` (None: a pass); None when
        ``play`` empties ``me`` (the side to move went out and won)."""
        if play is None:
            return Position(self.them, self.me, None)
        rest = without(self.me, play)
        return None if not any(rest) else Position(self.them, rest, play)

    def find(self, rs: RuleSet, move: str) -> Play | None:
        """The play a move text names (None for a pass); BadMove if it is not legal."""
        return find_move(rs, self.me, self.last, move)


def legal_moves(rs: RuleSet, hand: Counts, last: Play | None) -> list[tuple[str, Play | None]]:
    """Every legal move of ``hand`` against ``last`` with its play (None for a pass), most
    cards first: the moves a puzzle offers, two hands or three."""
    plays = sorted(rs.moves(hand, last), key=lambda p: -p.size)
    out: list[tuple[str, Play | None]] = [(action_text(p), p) for p in plays]
    if last is not None:
        out.append(("pass", None))
    return out


def find_move(rs: RuleSet, me: Counts, last: Play | None, move: str) -> Play | None:
    """The play a move text names from hand ``me`` against ``last`` (None for a pass);
    BadMove if it is not legal there."""
    text = move.strip()
    if text == "pass":
        if last is None:
            raise BadMove("you lead: a pass is not allowed")
        return None
    verb, _, cards = text.partition(" ")
    if verb != "play" or not cards.strip():
        raise BadMove("a move is 'pass' or 'play <cards>', e.g. 'play 33'")
    try:
        readings = rs.readings_of(cards)
    except RuleError as exc:
        raise BadMove(str(exc)) from None
    legal = set(rs.moves(me, last))
    fits = [p for p in readings if p in legal]
    if not fits:
        what = "beat the play on the table" if last is not None else "be led"
        raise BadMove(f"{cards.strip()!r} cannot {what} from your hand")
    if len(fits) > 1:
        raise BadMove(f"{cards.strip()!r} has several readings: "
                      + ", ".join(p.text for p in fits))
    return fits[0]


def cards_text(counts: Counts) -> str:
    """Rank counts as card text, low to high: ``"466A"``."""
    return format_ranks(r for r, n in enumerate(counts) for _ in range(n))


def wins(solver: Solver, pos: Position | None) -> bool:
    """Whether the side to move in ``pos`` forces a win (None: the game is over, the
    side that just moved went out, so the side "to move" has lost)."""
    if pos is None:
        return False
    return solver.solve(pos.me, pos.them, pos.last).win


def winning_moves(solver: Solver, pos: Position) -> list[str]:
    """Every move of the side to move that keeps a forced win."""
    return [text for text, play in pos.moves(solver.rs)
            if not wins(solver, pos.after(play))]


def defence(solver: Solver, pos: Position) -> str:
    """The reply of the side to move in ``pos``: a winning move if it has one (the
    solver's); else the move that leaves the other side the fewest winning answers."""
    verdict = solver.solve(pos.me, pos.them, pos.last)
    if verdict.win and verdict.move is not None:
        return verdict.move
    best: tuple[int, str] | None = None
    for text, play in pos.moves(solver.rs):
        nxt = pos.after(play)
        assert nxt is not None  # a move that goes out would have been a win
        count = len(winning_moves(solver, nxt))
        if best is None or count < best[0]:
            best = (count, text)
    assert best is not None  # a side that holds cards always has a move
    return best[1]


def solution(solver: Solver, pos: Position, limit: int = 60) -> list[str]:
    """A winning line from ``pos`` (won by the side to move): its moves and the
    defence's, in turn, until it goes out."""
    line: list[str] = []
    current: Position | None = pos
    while current is not None and len(line) < limit:
        move = defence(solver, current)
        line.append(move)
        current = current.after(current.find(solver.rs, move))
    return line
