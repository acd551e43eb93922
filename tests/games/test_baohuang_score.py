"""保皇 scoring by finishing order, to the exact number (../shared/rules/baohuang.md §4,
Rulings 10–12). Seats in these tables: the emperor sits at 0 and the guard at 1 unless
a row says otherwise; places are 1 (头客) … 5 (大拉), None for "play stopped first".
"""

from __future__ import annotations

import itertools

import pytest

from cardhall.games.baohuang_score import hidden_solo, open_solo, pair, settle

# §4 table: e + g → (guard, emperor, each rebel).
PAIR_TABLE = {3: (3, 6, -3), 4: (2, 4, -2), 5: (1, 2, -1), 6: (0, 0, 0), 7: (-1, -2, 1),
              8: (-2, -4, 2), 9: (-3, -6, 3)}
PAIRS = [(e, g) for e, g in itertools.permutations(range(1, 6), 2)]


@pytest.mark.parametrize(("e", "g"), PAIRS, ids=[f"e{e}g{g}" for e, g in PAIRS])
def test_every_pair_of_places(e: int, g: int) -> None:
    guard, emperor, rebel = PAIR_TABLE[e + g]
    assert pair(e, g) == (emperor, guard, rebel)
    places: list[int | None] = [e, g, *(p for p in range(1, 6) if p not in (e, g))]
    s = settle(0, 1, None, places)
    assert s.scores == (emperor, guard, rebel, rebel, rebel)
    assert sum(s.scores) == 0 and s.factor == 1 and s.royal_places == e + g
    assert s.causes == {}


@pytest.mark.parametrize(("e", "g"), PAIRS, ids=[f"e{e}g{g}" for e, g in PAIRS])
def test_open_guard_doubles_every_pair(e: int, g: int) -> None:
    """明保: all scores ×2."""
    guard, emperor, rebel = PAIR_TABLE[e + g]
    places: list[int | None] = [e, g, *(p for p in range(1, 6) if p not in (e, g))]
    s = settle(0, 1, None, places, open_guard=True)
    assert s.scores == (2 * emperor, 2 * guard, 2 * rebel, 2 * rebel, 2 * rebel)
    assert s.factor == 2 and s.causes == {"open_guard": 2}


@pytest.mark.parametrize(("place", "emperor", "other"), [
    (1, 24, -6), (2, -24, 6), (3, -24, 6), (4, -24, 6), (5, -24, 6), (None, -24, 6)])
def test_open_solo_both_ways(place: int | None, emperor: int, other: int) -> None:
    """明独保: only 1st wins; play stops at the first player out, so usually no place."""
    assert open_solo(place) == (emperor, other)
    places: list[int | None] = [None] * 5
    if place is not None:
        places[0] = place
    if place != 1:
        places[3] = 1  # somebody else went out first
    s = settle(0, None, "open", places)
    assert s.scores == (emperor, other, other, other, other)
    # 24 = 2 × 12 (Ruling 12): the hidden solo's base, the open bet's ×2, applied once
    assert (s.emperor, s.rebel) == (emperor // 2, other // 2)
    assert s.factor == 2 and s.causes == {"open_solo": 2}


@pytest.mark.parametrize(("place", "emperor", "other"), [
    (1, 12, -3), (2, 0, 0), (3, -12, 3), (4, -12, 3), (5, -12, 3), (None, -12, 3)],
    ids=["1st", "2nd", "3rd", "4th (Ruling 11)", "5th (Ruling 11)", "two others out first"])
def test_hidden_solo_every_place(place: int | None, emperor: int, other: int) -> None:
    assert hidden_solo(place) == (emperor, other)
    places: list[int | None] = [place, 1 if place != 1 else None,
                                2 if place not in (1, 2) else None, None, None]
    s = settle(0, None, "hidden", places)
    assert s.scores == (emperor, other, other, other, other)
    assert s.emperor_place == (3 if place is None else place)


def test_worked_example_first_order() -> None:
    """Simple mode, 明保: R1, emperor, R2, guard, R3 → e = 2, g = 4, all 0 (×2 still 0)."""
    emperor, guard = 1, 3
    places: list[int | None] = [1, 2, 3, 4, 5]  # seats 0 … 4 went out in seat order
    s = settle(emperor, guard, None, places, open_guard=True)
    assert s.scores == (0, 0, 0, 0, 0)
    assert (s.emperor, s.guard, s.rebel, s.factor) == (0, 0, 0, 2)


def test_worked_example_second_order() -> None:
    """Emperor 1st, guard 3rd → guard 2, emperor 4, rebels −2; 明保 ×2 → +4, +8, −4."""
    s = settle(0, 2, None, [1, 2, 3, 4, 5], open_guard=True)
    assert (s.emperor, s.guard, s.rebel) == (4, 2, -2)
    assert s.scores == (8, -4, 4, -4, -4)


@pytest.mark.parametrize(("places", "scores", "succeeded"), [
    # emperor 4th, guard 5th: rebels +3 → the rebellion succeeded, ×2
    ([4, 5, 1, 2, 3], (-12, -6, 6, 6, 6), True),
    # emperor 1st, guard 2nd: rebels −3 → it failed, no doubling
    ([1, 2, 3, 4, 5], (6, 3, -3, -3, -3), False),
    # e + g = 6: rebels 0 is not a win (> 0 needed)
    ([1, 5, 2, 3, 4], (0, 0, 0, 0, 0), False),
], ids=["success", "failure", "draw"])
def test_rebellion_doubles_only_when_the_rebels_win(places: list[int | None],
                                                    scores: tuple[int, ...],
                                                    succeeded: bool) -> None:
    s = settle(0, 1, None, places, rebellion=True)
    assert s.scores == scores
    assert s.rebellion_succeeded is succeeded and s.factor == (2 if succeeded else 1)
    assert s.causes == ({"rebellion": 2} if succeeded else {})


@pytest.mark.parametrize(("places", "scores"), [
    ([None, 1, 2, None, None], (-24, 6, 6, 6, 6)),  # two others out first: 3rd, rebels win
    ([3, 1, 2, None, None], (-24, 6, 6, 6, 6)),
    ([1, None, None, None, None], (12, -3, -3, -3, -3)),  # the rebels lost: no ×2
    ([2, 1, None, None, None], (0, 0, 0, 0, 0)),
], ids=["no place", "3rd", "1st", "2nd"])
def test_hidden_solo_exposed_by_a_successful_rebellion(places: list[int | None],
                                                       scores: tuple[int, ...]) -> None:
    """暗独保 exposed by a successful 造反: ×2 of the table (+6 / −24)."""
    s = settle(0, None, "hidden", places, rebellion=True)
    assert s.scores == scores
    assert s.causes == ({"rebellion": 2} if scores[1] > 0 else {})


def test_royal_players_left_alone_share_the_last_places() -> None:
    """Ruling 10: the three rebels out first → e + g = 4 + 5 whoever would be last."""
    s = settle(3, 4, None, [1, 2, 3, None, None])
    assert s.royal_places == 9
    assert s.scores == (3, 3, 3, -6, -3)


def test_one_royal_left_with_the_other_out() -> None:
    s = settle(0, 1, None, [2, None, 1, 3, 4])  # guard last: 5th
    assert s.royal_places == 7 and s.scores == (-2, -1, 1, 1, 1)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"open_guard": True, "rebellion": True}, "never both"),
    ({"solo": "open", "rebellion": True}, "already holds its ×2"),
    ({"solo": "hidden", "open_guard": True}, "no guard to open"),
    ({"places": [1, None, None, None, None]}, "not over"),
    ({"guard": 0}, "guard other than the emperor"),
])
def test_impossible_settlements_are_refused(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"emperor": 0, "guard": 1, "solo": None,
                               "places": [1, 2, 3, 4, 5]}
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        settle(**args)  # type: ignore[arg-type]


def test_every_settlement_is_zero_sum() -> None:
    for e, g in PAIRS:
        rest = [p for p in range(1, 6) if p not in (e, g)]
        for flags in ({}, {"open_guard": True}, {"rebellion": True}):
            places: list[int | None] = [e, g, *rest]
            assert sum(settle(0, 1, None, places, **flags).scores) == 0
    for solo in ("open", "hidden"):
        for place in (1, 2, 3, 4, 5, None):
            places = [place, None, None, None, None]
            assert sum(settle(0, None, solo, places).scores) == 0
