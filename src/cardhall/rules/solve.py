"""The exact solver for open-hand endgames (残局) of the climbing games: two hands.

Both hands are known (a 残局 puzzle, or the end of a game where the cards left are
counted from the public plays). The side to move *wins* when it can force going out
first, whatever the other does: it wins if some play empties its hand, or leaves a
position the other loses; and, answering a play, if passing leaves a position where the
other, leading, loses. That is plain minimax over the rule set's own move list
(``RuleSet.moves``), memoised on (hand to move, other hand, play to beat): a position
is reached again and again by playing the same cards in another order, and the memo is
what makes ten cards a hand a matter of milliseconds rather than minutes.

Issue 21 (``cardhall solve``) fixes the interface: ``solve`` answers whether the side to
move wins and one winning action text (``"play 33"``, ``"pass"``), or None. Three hands (a
landlord against two farmers) are rules/solve3.py's; ``solve`` answers both.
"""

from __future__ import annotations

from functools import lru_cache

from cardhall.rules.plays import Play
from cardhall.rules.ruleset import Cards, RuleError, RuleSet
from cardhall.rules.solve3 import HAND_TO_MOVE, ThreeHandSolver
from cardhall.rules.verdict import Counts, Verdict, action_text, without

__all__ = ["Solver", "Verdict", "action_text", "solve"]


class Solver:
    """One rule set's two-hand positions, memoised across calls (a puzzle set shares
    many positions). ``limit`` bounds the memo: a stranger's position cannot make it
    grow without end (past it, the least recently used positions go)."""

    def __init__(self, rs: RuleSet, limit: int = 2_000_000) -> None:
        self.rs = rs
        self._wins = lru_cache(maxsize=limit)(self._search)

    def solve(self, to_move: Cards, other: Cards, last: Play | None = None) -> Verdict:
        me, them = self.rs.hand(to_move), self.rs.hand(other)
        if not any(me) or not any(them):
            raise RuleError("both hands must hold cards: a side with none has gone out")
        for play in self._ordered(me, last):
            rest = without(me, play)
            if not any(rest) or not self._wins(them, rest, play):
                return Verdict(True, action_text(play))
        if last is not None and not self._wins(them, me, None):
            return Verdict(True, "pass")
        return Verdict(False, None)

    def _ordered(self, me: Counts, last: Play | None) -> list[Play]:
        """The moves, the most cards first: a win found early (going out, or leaving the
        other little to answer) cuts the search; the verdict does not depend on it."""
        return sorted(self.rs.moves(me, last), key=lambda p: -p.size)

    def _search(self, me: Counts, them: Counts, last: Play | None) -> bool:
        """Whether the side holding ``me`` wins, to move against ``last`` (None: leads)."""
        for play in self._ordered(me, last):
            rest = without(me, play)
            if not any(rest) or not self._wins(them, rest, play):
                return True
        return last is not None and not self._wins(them, me, None)


def solve(rs: RuleSet, to_move: Cards, other: Cards, last: Play | None = None, *,
          third: Cards | None = None, landlord: int | None = None) -> Verdict:
    """The verdict of a position, as ``cardhall solve`` gives it. Two hands: ``to_move``
    leads, or answers ``last`` (played by ``other``). With ``third``: a landlord against
    two farmers, ``last`` played by ``third``, ``landlord`` 1, 2 or 3 (the hand to move,
    the default; ``other``; ``third``), and the verdict is the side of ``to_move``'s."""
    if third is None:
        if landlord is not None:
            raise RuleError("a landlord is for three hands: give the third hand too")
        return Solver(rs).solve(to_move, other, last)
    return ThreeHandSolver(rs).solve(to_move, other, third, last,
                                     HAND_TO_MOVE if landlord is None else landlord)
