"""Three-hand endgames (``analysis.endgame3``): the splits of the unseen cards between the
other two seats, each judged by the three-hand solver (``rules.solve3``)."""

from __future__ import annotations

from cardhall.analysis import endgame3
from cardhall.bots.view import View
from cardhall.cards import NUM_RANKS, Counts, parse_ranks, to_counts
from cardhall.games import rules_of
from cardhall.rules.solve3 import ThreeHandSolver


def counts(text: str) -> Counts:
    return to_counts(parse_ranks(text)) if text else (0,) * NUM_RANKS


def landlord_leading(hand: str, unseen: str, sizes: tuple[int, int]) -> View:
    """The landlord (seat 0) to lead ``hand``; the farmers hold ``unseen`` between them."""
    rs = rules_of("ddz3")
    return View("ddz3", rs, 0, 3, counts(hand), [len(hand), *sizes], frozenset(),
                frozenset({1, 2}), None, None, None, counts(unseen), landlord=0)


def test_the_splits_of_the_unseen_cards_between_the_farmers() -> None:
    found = endgame3.worlds(landlord_leading("D33", "X2", (1, 1)))
    assert found is not None
    assert sorted((s.after, s.then) for s in found) == sorted(
        [(counts("X"), counts("2")), (counts("2"), counts("X"))])
    assert endgame3.worlds(landlord_leading("D33", "X2A", (1, 1))) is None  # a card unplaced
    assert endgame3.worlds(landlord_leading("D33456", "X2", (1, 1))) is None  # too long


def test_a_forced_win_of_the_landlord_is_found_in_every_split() -> None:
    view = landlord_leading("D33", "X2", (1, 1))
    rs = view.rs
    solver = ThreeHandSolver(rs)
    found = endgame3.worlds(view)
    assert found is not None
    moves = {f"play {p.text}": p for p in rs.moves(view.hand)}
    judged = endgame3.judge(solver, view, moves, 1.0, found, ["play 3"])
    assert judged is not None
    assert judged["play 3"].win == 0.0
    winning = {text for text, o in judged.items() if o.win == 1.0}
    assert winning and winning <= {"play D", "play 33"}
