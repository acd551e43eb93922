"""What a replay frame keeps of the seats' details (cardhall.hall.domain.replays.known_detail)."""

from __future__ import annotations

from cardhall.hall.domain.replays import known_detail


def test_known_detail_keeps_what_is_agreed_or_known_to_some() -> None:
    views = [{"a": 1, "mine": 0}, {"a": 1, "kitty": "33", "mine": 1},
             {"kitty": "33", "hidden": None, "tricks": [1]}, {"a": None, "mine": 3}]
    # a: known alike (None is not knowing); kitty: known to two, absent from the others;
    # mine: each seat's own value, so left out; tricks: a history; hidden: nobody knows
    assert known_detail(views) == {"a": 1, "kitty": "33"}
