"""The events' arithmetic (hall.events.standings) and an event kind's checks: chips
moved by a game, the ranking and its tie-breaks, the cut, the prizes summing to the
pool (docs/rulings.md, "Events")."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from cardhall.hall.domain.config import EventKind, parse_config
from cardhall.hall.events.standings import (
    Standing,
    chip_moves,
    cut,
    prize_pool,
    prizes,
    ranked,
    seat,
)


def test_a_game_moves_chips_at_the_rounds_stake_and_sums_to_zero() -> None:
    result = {"points": [4, -2, -2], "ended": "normal"}
    assert chip_moves(result, 10, [1_000, 1_000, 1_000]) == [40, -20, -20]
    assert chip_moves(result, 10, [1_000, 5, 1_000]) == [25, -5, -20]  # nobody below 0
    assert chip_moves(result, 10, [10, 1_000, 1_000]) == [10, -5, -5]  # nor wins past his own
    for ended in ("unscored", "dissolved"):
        assert chip_moves({"points": [4, -2, -2], "ended": ended}, 10, [9, 9, 9]) == [0, 0, 0]
    rng = random.Random(3)
    for _ in range(200):
        points = [rng.randint(-48, 48) for _ in range(3)]
        chips = [rng.randint(0, 2_000) for _ in range(3)]
        moves = chip_moves({"points": points, "ended": "normal"}, rng.randint(1, 8), chips)
        assert sum(moves) == 0
        assert all(c + m >= 0 for c, m in zip(chips, moves, strict=True))


def test_ties_go_to_more_chips_at_the_rounds_start_then_the_earlier_entrant() -> None:
    field = [Standing(0, 500, 900), Standing(1, 500, 1_000), Standing(2, 700, 100),
             Standing(3, 500, 1_000)]
    assert [s.no for s in ranked(field)] == [2, 1, 3, 0]
    on, out = cut(field, 2)
    assert [s.no for s in on] == [2, 1] and [s.no for s in out] == [3, 0]


def test_seating_is_whole_tables_of_everyone_once() -> None:
    tables = seat(list(range(9)), 3, random.Random(1))
    assert len(tables) == 3 and all(len(t) == 3 for t in tables)
    assert sorted(n for t in tables for n in t) == list(range(9))
    assert tables == seat(list(range(9)), 3, random.Random(1))  # the same seed: the same


def test_prizes_sum_to_the_pool_less_the_house() -> None:
    assert prizes(prize_pool(6_000, 0), (60, 30, 10)) == [3_600, 1_800, 600]
    assert prize_pool(6_000, 10) == 5_400
    assert prizes(prize_pool(6_000, 10), (50, 30, 10)) == [3_000, 1_800, 600]
    for pool in range(0, 2_000, 7):
        for shares in ((60, 30, 10), (33, 33, 33), (50, 25, 15, 7), (100,)):
            paid = prizes(pool, shares)
            assert sum(paid) == pool and all(p >= 0 for p in paid)
    assert prize_pool(1_001, 1) == 990  # the house's share rounds up, never a fraction


def test_an_event_kind_is_checked_when_the_config_is_read() -> None:
    kind = EventKind(id="k", entrants=9)
    assert kind.field_ == (9, 3) and kind.stakes == (1, 2) and kind.room().id == "ev-k"
    assert EventKind(id="k", entrants=24).field_ == (24, 12, 6, 3)
    for bad in ({"entrants": 7}, {"prizes": (60, 30)}, {"prizes": (50, 50), "house": 5},
                {"variant": "ddz4"}, {"field": (6, 6, 3)}, {"field": (6, 3), "stakes": (1,)},
                {"id": "Bad Id"}, {"fee": -1}):
        with pytest.raises(ValidationError):
            EventKind(**{"id": "k", **bad})  # type: ignore[arg-type]
    config = parse_config('[[events]]\nid = "sng"\nentrants = 9\nfee = 50\n'
                          'prizes = [70, 30]\nfield = [9, 3]\nstakes = [1, 3]\n')
    assert config.events[0].stakes == (1, 3) and config.events[0].fee == 50
    defaults = parse_config("").events
    assert [e.id for e in defaults] == ["ddz3-sng6", "ddz3_happy-sng6", "ddz3-dup4"]
    assert [e.format for e in defaults] == ["knockout", "knockout", "duplicate"]
