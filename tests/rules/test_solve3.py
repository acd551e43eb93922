"""The three-hand endgame solver (rules/solve3.py) against a brute-force reference written
from the rules (seats numbered round the table, no memo, no rotation, no move order), on
random small positions of the climbing variants that seat three or more; leads, answers
to a play, answers to a partner's play; every move it calls winning wins; the memo's
bound; and the command line with three hands (issue 21)."""

from __future__ import annotations

import json
import random

import pytest

from cardhall.cards import NUM_RANKS
from cardhall.cli import main
from cardhall.rules import RuleSet, get
from cardhall.rules.plays import Play
from cardhall.rules.solve import solve
from cardhall.rules.solve3 import ThreeHandSolver

Counts = tuple[int, ...]
Hands = tuple[Counts, Counts, Counts]


def landlord_wins(rs: RuleSet, hands: Hands, turn: int, last: Play | None, by: int,
                  landlord: int) -> bool:
    """Whether the landlord goes out first, seats 0, 1, 2 playing in that order, ``turn``
    to move, ``last`` the play standing (made by seat ``by``). Each seat picks what its
    side wants; a pass that brings the turn back to ``by`` ends the trick."""
    wants = turn == landlord
    outcomes: list[bool] = []
    for play in rs.moves(hands[turn], last):
        rest = list(hands[turn])
        for r in play.cards:
            rest[r] -= 1
        if not any(rest):
            outcomes.append(wants)
            continue
        after = list(hands)
        after[turn] = tuple(rest)
        outcomes.append(landlord_wins(rs, (after[0], after[1], after[2]), (turn + 1) % 3,
                                      play, turn, landlord))
    if last is not None:
        nxt = (turn + 1) % 3
        outcomes.append(landlord_wins(rs, hands, nxt, None, -1, landlord) if nxt == by
                        else landlord_wins(rs, hands, nxt, last, by, landlord))
    return wants if wants in outcomes else not wants


def side_wins(rs: RuleSet, hands: Hands, last: Play | None, landlord: int) -> bool:
    """The verdict as the solver states it: seat 0 to move, ``last`` played by seat 2,
    ``landlord`` a seat."""
    return landlord_wins(rs, hands, 0, last, 2, landlord) == (landlord == 0)


def deal(rng: random.Random, rs: RuleSet, sizes: tuple[int, ...]) -> list[Counts]:
    pool = [r for r in range(NUM_RANKS) for _ in range(rs.limits[r])]
    picked = rng.sample(pool, sum(sizes))
    hands = []
    for size in sizes:
        counts = [0] * NUM_RANKS
        for r in picked[:size]:
            counts[r] += 1
        picked = picked[size:]
        hands.append(tuple(counts))
    return hands


def check_move(rs: RuleSet, hands: Hands, last: Play | None, landlord: int,
               move: str) -> None:
    """The winning action the solver names wins, by the reference."""
    wants = landlord == 0
    if move == "pass":
        assert last is not None
        assert landlord_wins(rs, hands, 1, last, 2, landlord) == wants
        return
    play = next(p for p in rs.moves(hands[0], last) if f"play {p.text}" == move)
    rest = list(hands[0])
    for r in play.cards:
        rest[r] -= 1
    assert not any(rest) or landlord_wins(
        rs, (tuple(rest), hands[1], hands[2]), 1, play, 0, landlord) == wants


@pytest.mark.parametrize("variant", ["ddz3", "ddz4", "ddz5", "ddz_emperor"])
def test_leads_agree_with_brute_force(variant: str) -> None:
    rs = get(variant)
    solver = ThreeHandSolver(rs)
    rng = random.Random(variant)
    seen = set()
    for _ in range(50):
        me, a, b = deal(rng, rs, (rng.randint(1, 3), rng.randint(1, 3), rng.randint(1, 3)))
        landlord = rng.randrange(3)
        verdict = solver.solve(me, a, b, landlord=landlord + 1)
        assert verdict.win == side_wins(rs, (me, a, b), None, landlord), (me, a, b, landlord)
        if verdict.win:
            assert verdict.move is not None
            check_move(rs, (me, a, b), None, landlord, verdict.move)
        else:
            assert verdict.move is None
        seen.add((landlord, verdict.win))
    assert len(seen) >= 5  # wins and losses, the landlord at each seat


def test_answers_agree_with_brute_force_a_partners_play_too() -> None:
    """The hand to move answers THIRD_HAND's play: an opponent's (the landlord's, or a
    farmer's when the hand to move is the landlord) or its partner's, where passing, so
    that the partner's play stands, is often what wins."""
    rs = get("ddz3")
    solver = ThreeHandSolver(rs)
    rng = random.Random(21)
    moves: dict[str, set[str | None]] = {"partner": set(), "opponent": set()}
    for _ in range(200):
        me, a, b = deal(rng, rs, (rng.randint(1, 3), rng.randint(1, 3), rng.randint(2, 4)))
        led = rng.choice([p for p in rs.moves(b) if p.size < sum(b)] or [None])
        if led is None:
            continue
        rest = list(b)
        for r in led.cards:
            rest[r] -= 1
        hands = (me, a, tuple(rest))
        landlord = rng.randrange(3)
        verdict = solver.solve(*hands, last=led, landlord=landlord + 1)
        assert verdict.win == side_wins(rs, hands, led, landlord), (hands, led, landlord)
        if verdict.move is not None:
            check_move(rs, hands, led, landlord, verdict.move)
        moves["partner" if landlord == 1 else "opponent"].add(
            "play" if verdict.move and verdict.move != "pass" else verdict.move)
    assert moves["partner"] == {"pass", "play", None}
    assert moves["opponent"] == {"pass", "play", None}


@pytest.mark.slow
def test_four_cards_a_hand_agree_with_brute_force() -> None:
    """Bigger positions, where passing and the partner's plays go several tricks deep
    (the reference takes about a second each)."""
    rs = get("ddz3")
    rng = random.Random(4)
    for _ in range(12):
        me, a, b = deal(rng, rs, (4, 4, 4))
        landlord = rng.randrange(3)
        verdict = ThreeHandSolver(rs).solve(me, a, b, landlord=landlord + 1)
        assert verdict.win == side_wins(rs, (me, a, b), None, landlord), (me, a, b, landlord)
        if verdict.move is not None:
            check_move(rs, (me, a, b), None, landlord, verdict.move)


def test_small_positions_by_hand() -> None:
    rs = get("ddz3")
    ace = rs.parse_play("A")
    # The landlord (OTHER_HAND) cannot beat the partner's ace: passing lets it stand, and
    # the partner leads his last card.
    assert solve(rs, "5", "44", ace, third="3", landlord=2).to_json() == {
        "win": True, "move": "pass"}
    # The same cards with the hand to move the landlord: the farmers go out first.
    assert solve(rs, "5", "44", ace, third="3").to_json() == {"win": False, "move": None}
    # The landlord leads his pair and then his single: no farmer can answer a pair.
    assert solve(rs, "33D", "4", third="5").to_json() == {"win": True, "move": "play 33"}


def test_the_memo_stays_within_its_bound() -> None:
    rs = get("ddz3")
    solver = ThreeHandSolver(rs, limit=50)
    solver.solve("3456", "789T", "JQKA")
    assert 0 < solver._wins.cache_info().currsize <= 50


def test_the_command_line_with_three_hands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "ddz3", "5", "44", "3", "--last", "A", "--landlord", "2",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"win": True, "move": "pass"}
    assert main(["solve", "ddz3", "5", "44", "3", "--last", "A", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"win": False, "move": None}
    assert main(["solve", "ddz3", "33D", "4", "5"]) == 0
    assert capsys.readouterr().out == "win: play 33\n"
    seventeen = "3456789TJQKA2XD33"
    for bad, said in (
        (["5", "44", "3", "--landlord", "4"], "--landlord"),
        (["5", "44", "--landlord", "2"], "three hands"),
        (["5", "44", "--landlord", "1"], "three hands"),
        (["5", "44", ""], "all three hands"),
        (["3333", "3", "5"], "more cards than the deck"),
        (["5", "333", "4", "--last", "33"], "more cards than the deck"),
        ([seventeen, "4", "5"], "up to 7 cards a hand"),
        (["5", "44", "3Z"], ""),
        (["5", "44", "3", "--last", "34"], ""),
    ):
        assert main(["solve", "ddz3", *bad]) == 2, bad  # one line, no traceback
        out = capsys.readouterr()
        assert out.out == "" and out.err.startswith("cardhall: ") and said in out.err, out
        assert out.err.count("\n") == 1
