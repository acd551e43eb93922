"""The endgame, where the seat can count the other hand: the exact solver instead of samples.

In 二人斗地主 every card played is public, so the cards the seat cannot see are the other
hand and the 11 dead cards. Late in the game the other hand is small and the hands it
could be are few: ``worlds`` lists each one (the known part of it, such as the public
kitty still in the landlord's hand, always in), with its weight (how many deals of the
unseen cards give it). If there are at most ``EXACT_WORLDS`` and both hands hold at most
``EXACT_CARDS``, the moves are judged in every world by ``rules.solve.Solver`` (two open
hands, perfect defence): a move's win chance is the weight of the worlds it wins, and a
move that wins in every world is a forced win the seat could see. A forced win missed
for a move that wins in no world is then certain, not estimated. The moves judged are
the candidates (the planning policy's best and the move played) and, from each world,
the solver's own winning move: a forced win, if there is one, is always among them
(it wins in the first world too, and the solver names one winning move of each).

Three hands (a landlord against two farmers) are ``endgame3``'s, with the three-hand
solver once this tree has it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from cardhall.analysis.sampled import Outcome, share
from cardhall.bots.view import View
from cardhall.cards import NUM_RANKS, Counts
from cardhall.rules import Play
from cardhall.rules.solve import Solver
from cardhall.rules.verdict import without

#: Most cards in either hand for an exact verdict (a 10-card position is solved in under
#: a second; a move list times a world list of them would not be).
EXACT_CARDS = 8
#: Most hands the other seat may hold for an exact verdict (a few seconds of solving at
#: worst: the solver's memo serves every world and move after the first).
EXACT_WORLDS = 400


@dataclass(frozen=True, slots=True)
class World:
    """One hand the other seat may hold, and how many deals of the unseen cards give it."""

    hand: Counts
    weight: int


def sub_hands(pool: Counts, size: int, rank: int = 0) -> Iterator[tuple[list[int], int]]:
    """Every sub-multiset of ``pool`` of ``size`` cards from ``rank`` up, with its weight
    (ways to pick those cards from the pool's cards)."""
    if size == 0:
        yield [0] * NUM_RANKS, 1
        return
    if rank >= NUM_RANKS or sum(pool[rank:]) < size:
        return
    for take in range(min(pool[rank], size), -1, -1):
        for rest, weight in sub_hands(pool, size - take, rank + 1):
            rest[rank] = take
            yield rest, weight * math.comb(pool[rank], take)


def worlds(view: View) -> list[World] | None:
    """The other hand's possible contents in a two-seat game, or None when the verdict
    cannot be exact (three seats, hands too long, too many possibilities)."""
    if view.players != 2 or sum(view.hand) > EXACT_CARDS:
        return None
    other = 1 - view.seat
    size = view.counts[other]
    if size > EXACT_CARDS or size == 0:
        return None
    if other in view.exact:
        return [World(view.exact[other], 1)]
    floor = view.known.get(other, (0,) * NUM_RANKS)
    pool = tuple(view.unseen[r] - floor[r] for r in range(NUM_RANKS))
    if min(pool) < 0:
        return None
    found: list[World] = []
    for rest, weight in sub_hands(pool, size - sum(floor)):
        found.append(World(tuple(floor[r] + rest[r] for r in range(NUM_RANKS)), weight))
        if len(found) > EXACT_WORLDS:
            return None
    return found or None


def wins(solver: Solver, view: View, move: Play | None, them: Counts) -> bool:
    """Whether the seat, against ``them`` open, wins by ``move`` (None: pass) with the
    best play after it."""
    me = view.hand
    if move is None:
        return not solver.solve(them, me, None).win
    rest = without(me, move)
    if not any(rest):
        return True
    return not solver.solve(them, rest, move).win


def judge(solver: Solver, view: View, moves: Mapping[str, Play | None], stake: float,
          found: list[World], candidates: Sequence[str]) -> dict[str, Outcome]:
    """The exact outcome of the candidates and of each world's winning move: the weight
    of the worlds a move wins, against perfect defence; points as in ``sampled`` at the
    stake of the moment."""
    total = sum(w.weight for w in found)
    worth = stake * share(view)
    last = view.trick if view.trick_seat != view.seat else None
    tried = list(candidates)
    for world in found:
        named = solver.solve(view.hand, world.hand, last).move
        if named is not None and named in moves and named not in tried:
            tried.append(named)
    out: dict[str, Outcome] = {}
    for text in tried:
        move = moves[text]
        won = sum(w.weight for w in found if wins(solver, view, move, w.hand)) / total
        bombs = 1 if move is not None and move.is_bomb else 0
        out[text] = Outcome(won, (2.0 * won - 1.0) * worth * 2 ** bombs)
    return out
