"""Three hands in the endgame: the three-hand solver instead of samples.

``rules.solve3.ThreeHandSolver`` solves a landlord against two cooperating farmers, all
hands open (``solve(to_move, other, third, last, landlord)``: the hands in turn from the
one to move, ``last`` played by the third, ``landlord`` 1, 2 or 3).

Where it applies: a three-seat game whose sides are known, every hand at most
``THREE_CARDS`` cards, no card out of play unseen (the cards the seat cannot see are
exactly the other two hands: 三人斗地主, whose kitty is shown), and at most
``THREE_WORLDS`` ways to split them between the other two seats. The solver's interface
has a play to beat made by the hand just before the one to move, so the seat leads or
answers the previous seat's play; and a pass cannot be judged (after it the next hand
answers a play made by the hand after it, which the interface does not say): a decision
whose candidates include a pass is sampled. Such endgames are rare (a game usually ends
with two hands longer than that); where they occur, the verdict is certain.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cardhall.analysis.endgame import sub_hands
from cardhall.analysis.sampled import Outcome, share
from cardhall.bots.view import View
from cardhall.cards import NUM_RANKS, Counts
from cardhall.rules import Play
from cardhall.rules.solve3 import ThreeHandSolver
from cardhall.rules.verdict import without

#: Most cards in any hand for an exact verdict (three hands branch far more than two: at
#: 7 cards a hand the solver's worst position takes a third of a second, and a decision
#: solves each split for each move judged).
THREE_CARDS = 5
#: Most ways to split the unseen cards between the other two seats.
THREE_WORLDS = 60


@dataclass(frozen=True, slots=True)
class Split:
    """The next seat's hand and the one after it, and how many deals give them."""

    after: Counts
    then: Counts
    weight: int


def _floor(view: View, seat: int) -> Counts:
    return view.exact.get(seat) or view.known.get(seat) or (0,) * NUM_RANKS


def worlds(view: View) -> list[Split] | None:
    """The splits of the unseen cards between the other two seats, or None when the
    three-hand verdict does not apply (the module's conditions)."""
    if view.players != 3 or view.landlord is None or view.unknown:
        return None
    me, after, then = view.seat, (view.seat + 1) % 3, (view.seat + 2) % 3
    sizes = (sum(view.hand), view.counts[after], view.counts[then])
    if max(sizes) > THREE_CARDS or min(sizes) == 0:
        return None
    if view.trick is not None and view.trick_seat not in (me, then):
        return None  # a play of the next seat, passed by the one before: not expressible
    floors = (_floor(view, after), _floor(view, then))
    pool = tuple(view.unseen[r] - floors[0][r] - floors[1][r] for r in range(NUM_RANKS))
    need = (0 if after in view.exact else sizes[1] - sum(floors[0]),
            0 if then in view.exact else sizes[2] - sum(floors[1]))
    if min(pool) < 0 or min(need) < 0 or sum(pool) != sum(need):
        return None  # cards out of play the seat cannot place (a hidden kitty, dead cards)
    found: list[Split] = []
    for part, weight in sub_hands(pool, need[0]):
        found.append(Split(tuple(floors[0][r] + part[r] for r in range(NUM_RANKS)),
                           tuple(floors[1][r] + pool[r] - part[r] for r in range(NUM_RANKS)),
                           weight))
        if len(found) > THREE_WORLDS:
            return None
    return found or None


def _landlord(view: View, to_move: int) -> int:
    """The landlord as the solver numbers hands: 1 the hand to move, 2 the next, 3 the
    one after."""
    assert view.landlord is not None
    return 1 + (view.landlord - to_move) % 3


def wins(solver: ThreeHandSolver, view: View, move: Play, split: Split) -> bool:
    """Whether the seat's side wins by playing ``move`` against the split, all open."""
    rest = without(view.hand, move)
    if not any(rest):
        return True
    after = (view.seat + 1) % 3
    verdict = solver.solve(split.after, split.then, rest, move, _landlord(view, after))
    partners = (after == view.landlord) == (view.seat == view.landlord)
    return verdict.win == partners


def judge(solver: ThreeHandSolver, view: View, moves: Mapping[str, Play | None], stake: float,
          found: list[Split], candidates: Sequence[str]) -> dict[str, Outcome] | None:
    """The exact outcome of the candidates and of each split's winning move, as
    ``endgame.judge`` for two hands; None if a pass is among them (module docstring)."""
    last = view.trick if view.trick_seat != view.seat else None
    tried = list(candidates)
    for split in found:
        named = solver.solve(view.hand, split.after, split.then, last,
                             _landlord(view, view.seat)).move
        if named is not None and named in moves and named not in tried:
            tried.append(named)
    chosen = [(text, moves[text]) for text in tried]
    if any(move is None for _, move in chosen):
        return None
    total = sum(s.weight for s in found)
    worth = stake * share(view)
    out: dict[str, Outcome] = {}
    for text, move in chosen:
        assert move is not None
        won = sum(s.weight for s in found if wins(solver, view, move, s)) / total
        out[text] = Outcome(won, (2.0 * won - 1.0) * worth * 2 ** (1 if move.is_bomb else 0))
    return out
