"""The two-hand endgame solver (rules/solve.py) against a brute-force reference written
from the definition (no memo, no shortcut), on random small positions of three rule sets;
every move it calls winning wins; and the command line's interface (issue 21)."""

from __future__ import annotations

import json
import random

import pytest

from cardhall.cards import NUM_RANKS
from cardhall.cli import main
from cardhall.rules import RuleSet, get
from cardhall.rules.plays import Play
from cardhall.rules.solve import Solver, action_text

Counts = tuple[int, ...]


def brute(rs: RuleSet, me: Counts, them: Counts, last: Play | None) -> bool:
    """The side holding ``me`` wins: a play that empties it, or after which the other
    loses; or, answering, a pass after which the other, leading, loses."""
    for play in rs.moves(me, last):
        rest = list(me)
        for r in play.cards:
            rest[r] -= 1
        if not any(rest) or not brute(rs, them, tuple(rest), play):
            return True
    return last is not None and not brute(rs, them, me, None)


def deal(rng: random.Random, rs: RuleSet, size: int) -> tuple[Counts, Counts]:
    pool = [r for r in range(NUM_RANKS) for _ in range(rs.limits[r])]
    picked = rng.sample(pool, 2 * size)
    hands = []
    for part in (picked[:size], picked[size:]):
        counts = [0] * NUM_RANKS
        for r in part:
            counts[r] += 1
        hands.append(tuple(counts))
    return hands[0], hands[1]


@pytest.mark.parametrize("variant", ["ddz3", "ddz2", "ddz4"])
def test_the_solver_agrees_with_brute_force(variant: str) -> None:
    rs = get(variant)
    solver = Solver(rs)
    rng = random.Random(variant)
    wins = losses = 0
    for _ in range(60):
        me, them = deal(rng, rs, rng.randint(1, 4))
        verdict = solver.solve(me, them)
        assert verdict.win == brute(rs, me, them, None), (me, them)
        if verdict.win:
            wins += 1
            play = next(p for p in rs.moves(me) if action_text(p) == verdict.move)
            rest = list(me)
            for r in play.cards:
                rest[r] -= 1
            assert not any(rest) or not brute(rs, them, tuple(rest), play)
        else:
            losses += 1
            assert verdict.move is None
    assert wins and losses  # both verdicts were put to the test


def test_answering_a_play_agrees_with_brute_force_and_may_pass() -> None:
    """The side to move answers a play the other just made (from what the other holds
    besides); sometimes passing, letting him lead, is what wins."""
    rs = get("ddz3")
    solver = Solver(rs)
    rng = random.Random(7)
    moves: set[str | None] = set()
    for _ in range(150):
        me, them = deal(rng, rs, rng.randint(1, 4))
        led = rng.choice([p for p in rs.moves(them) if p.size < sum(them)] or [None])
        if led is None:
            continue
        rest = list(them)
        for r in led.cards:
            rest[r] -= 1
        verdict = solver.solve(me, tuple(rest), led)
        assert verdict.win == brute(rs, me, tuple(rest), led), (me, rest, led)
        moves.add(verdict.move)
    assert "pass" in moves and None in moves
    assert solver.solve("3", "X", rs.parse_play("2")).win is False  # no answer to a 2


def test_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "ddz3", "33", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"win": True, "move": "play 33"}
    assert main(["solve", "ddz3", "34", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"win": False, "move": None}
    assert main(["solve", "ddz3", "3", "X", "--last", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"win": False, "move": None}
    for bad in (["ddz3", "33", ""], ["ddz3", "3Z", "5"], ["ddz3", "3", "5", "--last", "34"]):
        assert main(["solve", *bad]) == 2  # a clear line, no traceback, nothing printed
        out = capsys.readouterr()
        assert out.out == "" and out.err.startswith("cardhall: ")
