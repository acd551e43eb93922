"""Mining three-hand endgames of 三人斗地主 (tests/puzzles/built3.py builds the games):
a hand, the landlord's or a farmer's, with exactly one winning move that plays another
is found with its position; a losing move where two moves won, or a game in which every
hand kept its win, gives no puzzle."""

from __future__ import annotations

import time

from cardhall.puzzles import position3
from cardhall.puzzles.mine import mine
from cardhall.puzzles.position3 import Table
from cardhall.rules.solve3 import ThreeHandSolver
from cardhall.rules.variants import get
from tests.puzzles.built3 import built_game

RS = get("ddz3")


def test_the_landlord_missing_his_one_win_is_mined() -> None:
    record, made = built_game(seed=69, wins=1, landlord=True)
    assert [(m.ply, m.wins, m.played) for m in made] == [(28, ["pass"], "play 2")]
    found = mine(record)
    first = found[0]
    assert (first.ply, first.winning, first.played, first.landlord) == (28, "pass", "play 2", 0)
    assert (first.rules, first.hand, first.other, first.third, first.last) == \
        ("ddz3", "3378TA2", "479TJ2", "356TK", "A")
    table = Table.of(RS, first.hand, first.other, first.third or "", first.last, 0)
    assert table == made[0].table
    assert position3.winning_moves(ThreeHandSolver(RS), table) == ["pass"]


def test_a_farmer_missing_his_one_win_is_mined() -> None:
    record, made = built_game(seed=62, wins=1, landlord=False)
    found = mine(record)
    assert [(m.ply, m.winning, m.played, m.landlord) for m in found] == \
        [(32, "play 77", "pass", 2)]
    m = found[0]
    assert (m.hand, m.other, m.third, m.last) == ("56778K", "336JQ", "4", "33")
    assert made[0].table == Table.of(RS, m.hand, m.other, "4", m.last, lord=2)


def test_a_losing_move_where_two_moves_won_is_no_puzzle() -> None:
    record, made = built_game(seed=3, wins=2)
    assert made and len(made[0].wins) == 2
    assert all(m.ply != made[0].ply for m in mine(record))


def test_a_game_that_kept_every_win_gives_no_puzzle() -> None:
    record, made = built_game(seed=69, wins=0)
    assert made == [] and mine(record) == []


def test_mining_a_game_takes_well_under_a_second_a_position() -> None:
    """The hands are bounded (MAX_CARDS3) so that every move of an attempt, the defence
    included, is answered fast: a whole game's mining is timed here."""
    record, _ = built_game(seed=23, wins=1, landlord=True)
    began = time.perf_counter()
    assert len(mine(record)) == 3
    assert time.perf_counter() - began < 10.0
