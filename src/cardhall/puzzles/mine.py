"""Puzzles mined from finished games: where the side to move had exactly one winning
move and played another.

A game's record replays with every hand known (the engine's full state, not a seat's
view), so each decision of its play phase can be looked at as an open position:

- two hands, once only two seats still hold cards and they are opponents (二人斗地主
  always; another climbing game that played on with two hands left), each at most
  ``MAX_CARDS``;
- three hands (三人斗地主), a landlord and two farmers, each hand at most ``MAX_CARDS3``
  (what the three-hand solver answers within a second), the hand to move, the
  landlord's or a farmer's, leading or answering the hand before it. A puzzle's player
  is that one hand; the solver plays the other two (a farmer's partner on his side).

Such a position with one winning move that the player missed is a puzzle: find what he
did not. Positions won by going out at once are left out: a puzzle that is one obvious
play teaches nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from cardhall.games import replay
from cardhall.games.climbing import ClimbingGame
from cardhall.puzzles import position3
from cardhall.puzzles.position import Position, winning_moves
from cardhall.puzzles.position3 import Table
from cardhall.rules.plays import Play
from cardhall.rules.ruleset import RuleSet
from cardhall.rules.solve import Solver
from cardhall.rules.solve3 import ThreeHandSolver

#: The largest hand a mined position may have on either side: the solver answers it in
#: well under a second, which the API's defence relies on.
MAX_CARDS = 10
#: The largest hand of a mined three-hand position: at 7 a hand, every move of an
#: attempt (the farmers' defence included) is answered within about a second
#: (tests/puzzles/test_mine3.py times a game's mining).
MAX_CARDS3 = 7


@dataclass(frozen=True, slots=True)
class Mined:
    """A missed win: the position before action number ``ply`` of the game, the one
    winning move and the move played instead. ``third`` is a three-hand position's hand
    before the player (``other`` the one after him; ``last`` is then third's play) and
    ``landlord`` where the landlord sits: 0 the player, 1 other, 2 third."""

    rules: str
    hand: str
    other: str
    last: str | None
    ply: int
    seat: int
    winning: str
    played: str
    third: str | None = None
    landlord: int | None = None


class Solvers:
    """One rule set's two- and three-hand solvers, made when first needed and kept, so
    their memos serve every game mined with them."""

    def __init__(self, rs: RuleSet, limit: int = 1_000_000) -> None:
        self.rs = rs
        self.limit = limit
        self._two: Solver | None = None
        self._three: ThreeHandSolver | None = None

    @property
    def two(self) -> Solver:
        if self._two is None:
            self._two = Solver(self.rs, limit=self.limit)
        return self._two

    @property
    def three(self) -> ThreeHandSolver:
        if self._three is None:
            self._three = ThreeHandSolver(self.rs, limit=self.limit, max_cards=MAX_CARDS3)
        return self._three


def _solvable(state: ClimbingGame) -> bool:
    """Trick games, 保皇 and wildcard games have no solver."""
    return state.rs.wild is None and state.rs.comparison == "ladder"


def _positions(record: Mapping[str, Any]) -> Iterator[tuple[int, int, ClimbingGame,
                                                           Position | Table]]:
    """(ply, seat, state, position) before each play-phase decision that can be mined:
    two opponents' hands, or three of a landlord game (see the module doc)."""
    actions = list(record["actions"])
    state = replay({**record, "actions": []})
    if not isinstance(state, ClimbingGame) or not _solvable(state):
        return
    for ply, text in enumerate(actions):
        seat = state.to_act
        if state.phase == "play" and seat is not None and state.winner is None:
            found = _two(state, seat) or _three(state, seat)
            if found is not None:
                yield ply, seat, state, found
        state.apply(text)


def _answered(state: ClimbingGame, seat: int) -> Play | None:
    """The play ``seat`` must beat (None: he leads, his own play having stood)."""
    trick = state.trick
    return trick[1] if trick is not None and trick[0] != seat else None


def _two(state: ClimbingGame, seat: int) -> Position | None:
    """``seat``'s two-hand position, when only he and one opponent hold cards."""
    holding = [s for s, c in enumerate(state.counts) if any(c)]
    if len(holding) != 2 or seat not in holding:
        return None
    other = holding[1] if holding[0] == seat else holding[0]
    me, them = state.counts[seat], state.counts[other]
    if state.side[seat] == state.side[other] or sum(me) > MAX_CARDS or sum(them) > MAX_CARDS:
        return None
    return Position(me, them, _answered(state, seat))


def _three(state: ClimbingGame, seat: int) -> Table | None:
    """``seat``'s three-hand position in a landlord game, every hand small enough."""
    if state.players != 3 or state.landlord is None:
        return None
    down, up = (seat + 1) % 3, (seat + 2) % 3
    hands = (state.counts[seat], state.counts[down], state.counts[up])
    if not all(any(h) and sum(h) <= MAX_CARDS3 for h in hands):
        return None
    if state.trick is not None and state.trick[0] == down:
        return None  # down's play after up passed: a position a puzzle does not store
    return Table(*hands, last=_answered(state, seat), lord=(state.landlord - seat) % 3)


def mine(record: Mapping[str, Any], solvers: Solvers | None = None) -> list[Mined]:
    """Every missed single win in a finished game's record (solvers for its rule set may
    be passed to share their memos across games)."""
    out: list[Mined] = []
    actions = list(record["actions"])
    for ply, seat, state, pos in _positions(record):
        if solvers is None or solvers.rs != state.rs:
            solvers = Solvers(state.rs)
        try:
            played = pos.find(state.rs, actions[ply])
        except ValueError:
            continue  # an action of another kind (a 托管 note...): not a move
        found = _missed(solvers, pos, played)
        if found is None:
            continue
        if isinstance(pos, Table):
            hand, other, third, last = pos.texts()
            landlord: int | None = pos.lord
        else:
            (hand, other, last), third, landlord = pos.texts(), None, None
        out.append(Mined(state.rs.name, hand, other, last, ply, seat, found, actions[ply],
                         third, landlord))
    return out


def _missed(solvers: Solvers, pos: Position | Table, played: Play | None) -> str | None:
    """The one winning move of ``pos``, if it has exactly one, it does not go out at once,
    and ``played`` is another."""
    rs = solvers.rs
    if isinstance(pos, Table):
        wins = position3.winning_moves(solvers.three, pos)
    else:
        wins = winning_moves(solvers.two, pos)
    if len(wins) != 1:
        return None
    best = pos.find(rs, wins[0])
    if pos.after(best) is None or pos.after(played) == pos.after(best):
        return None
    return wins[0]
