"""The vector read straight from the game (``rl.seat``) is the encoding of the seat's view:
for every variant, at every step of many seeded random games, for every seat (the seat
to act and the seats waiting, whose hidden information this guards), and at the end."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardhall.rl import env
from cardhall.rl.actions import WORD_AT
from cardhall.rl.observation import encode
from tests.lanes import slow_for
from tests.rl.play import IDS, moves

#: The variants ``rl.seat`` writes; the others encode their view (``observation.encode``).
FAST = {"ddz3", "ddz2", "ddz4"}
#: The plain games under options that change what a seat sees (a fixed landlord skips
#: the auction; the spring option changes the multiplier at the end).
OPTIONS: list[tuple[str, dict[str, Any]]] = [
    ("ddz3", {"landlord": 1, "contract": 3}), ("ddz3", {"spring": True}),
    ("ddz4", {"landlord": 0}), ("ddz2", {"first": 1}),
    ("ddz3", {"deal": {"hands": ["33399955JJKKAA2XD", "34444556666778889",
                                 "77TTTJJQQQKKAA222"], "kitty": "8TQ"}})]


def _every_step(name: str, seeds: range, **options: Any) -> int:
    """Compare every seat's vector with the reference at every step; the steps compared."""
    compared = 0
    for seed in seeds:
        e = env(name, **options)
        e.reset(seed=seed)
        for _agent, token in moves(e, np.random.default_rng(seed)):
            compared += _check(e.unwrapped, seed)
            e.step(token)
        compared += _check(e.unwrapped, seed)
    return compared


def _check(raw: Any, seed: int) -> int:
    for seat, agent in enumerate(raw.possible_agents):
        got = raw.seat_vector(seat)
        want = encode(raw.layout, raw.game.observe(seat), [])
        moved = [part for part, at, size in raw.layout.sections
                 if not np.array_equal(got[at:at + size], want[at:at + size])]
        assert not moved, (raw.variant.id, seed, agent, str(raw.game.phase), moved)
    return len(raw.possible_agents)


def test_the_plain_games_are_read_from_the_state() -> None:
    """The comparison below is not of the reference with itself for these variants."""
    for name in IDS:
        raw = env(name).unwrapped
        raw.reset(seed=0)
        assert (raw._fast is not None and raw._fast.fits(raw.game)) == (name in FAST), name


@pytest.mark.parametrize("name", slow_for(IDS, set(IDS) - FAST))
def test_the_vector_is_the_encoding_of_the_view_at_every_step(name: str) -> None:
    assert _every_step(name, range(12 if name in FAST else 2)) > 0


@pytest.mark.parametrize(("name", "options"), OPTIONS)
def test_under_options_too(name: str, options: dict[str, Any]) -> None:
    assert _every_step(name, range(4), **options) > 0


@pytest.mark.parametrize(("name", "word"), [("ddz2", "no-call"), ("ddz3", "pass")])
def test_after_a_redeal(name: str, word: str) -> None:
    """Everyone declines: the game deals again into new lists, which the kept vectors
    must follow (the same comparison through the redeal and the next deal)."""
    e = env(name)
    e.reset(seed=5)
    raw = e.unwrapped
    before = raw.game.deals
    for _ in range(raw.variant.players):
        _check(raw, 5)
        e.step(WORD_AT[word])
    assert raw.game.deals == before + 1, "no redeal"
    for _agent, token in moves(e, np.random.default_rng(5)):
        _check(raw, 5)
        e.step(token)
    _check(raw, 5)
