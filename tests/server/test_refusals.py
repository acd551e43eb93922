"""The hall's refusals get their wire codes in one place (``server.refusals``)."""

from __future__ import annotations

import pytest

from cardhall.games.errors import Illegal, NotYourTurn
from cardhall.hall.domain.errors import (
    KINDS,
    Conflict,
    GameRefused,
    NotEnoughBeans,
    Refused,
    rebuilt,
)
from cardhall.server.refusals import WIRE_CODES, wire_error


def test_every_kind_of_refusal_has_a_wire_code() -> None:
    assert set(KINDS.values()) == set(WIRE_CODES)


@pytest.mark.parametrize("kind", sorted(KINDS.values(), key=lambda k: k.code), ids=str)
def test_a_refusal_crosses_between_processes_as_it_was(kind: type[Refused]) -> None:
    made = kind("why", readings=["a"], reason="r", params={"seat": 1})
    again = rebuilt(made.code, str(made), made.readings, made.reason, made.params)
    assert type(again) is kind
    assert wire_error(again).code == WIRE_CODES[kind]
    assert (str(again), again.readings, again.reason, again.params) == (
        "why", ["a"], "r", {"seat": 1})


def test_a_games_refusal_says_its_reason_and_only_illegal_says_readings() -> None:
    turn = wire_error(GameRefused.of(NotYourTurn("not_your_turn", "not yours", seat=2),
                                     ["play 3"]))
    assert (turn.code, str(turn), turn.reason, turn.params, turn.readings) == (
        "not_your_turn", "not yours", "not_your_turn", {"seat": 2}, None)
    bad = wire_error(GameRefused.of(Illegal("does_not_beat", "no"), ["play 3", "play 4"]))
    assert (bad.code, bad.reason, bad.readings) == ("illegal", "does_not_beat",
                                                     ["play 3", "play 4"])


def test_a_domain_refusal_that_is_no_live_refusal_is_not_allowed() -> None:
    """A store's refusal that reaches a player (not one of the live kinds) says only that
    it cannot be done now; a conflict with what is stored, that the table moved on."""
    assert wire_error(NotEnoughBeans("12 beans")).code == "not_allowed"
    assert wire_error(Conflict("seq 5 is stored")).code == "stale"
