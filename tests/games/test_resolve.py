"""Resolve once: a server reads and checks a move once (``resolve``), logs its text, then
applies the very action it got, which is not read or checked again; anything else given
to ``apply`` is checked as always."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from cardhall.games import VARIANTS, Action, GameState, IllegalAction, new_game


def counting(state: GameState) -> list[int]:
    """Count the state's full resolutions (read + check) from now on."""
    calls = [0]
    inner: Callable[[Action | str, int | None], Action] = state._resolve

    def counted(action: Action | str, seat: int | None) -> Action:
        calls[0] += 1
        return inner(action, seat)

    state._resolve = counted  # type: ignore[method-assign]
    return calls


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_resolved_action_is_applied_without_a_second_check(variant: str) -> None:
    state, twin = new_game(variant, seed=3), new_game(variant, seed=3)
    calls = counting(state)
    for _ in range(12):
        if state.over:
            break
        seat = state.to_act
        text = state.legal_actions(seat)[0].text
        action = state.resolve(text, seat)
        assert action.text == twin.canonical(text, seat)
        before = calls[0]
        events = state.apply(action, seat)
        assert calls[0] == before  # taken as resolved
        assert events == twin.apply(text, seat)  # and the same as the long way
        assert state.observe(0) == twin.observe(0)


def test_anything_but_the_very_resolved_action_is_checked() -> None:
    state = new_game("ddz3", seed=3)
    seat = state.to_act
    legal = state.legal_actions(seat)
    action = state.resolve(legal[0].text, seat)
    calls = counting(state)
    state.apply(replace(action), seat)  # equal, but not the object resolve returned
    assert calls[0] == 1


def test_a_resolution_goes_stale_when_the_state_moves() -> None:
    state = new_game("ddz3", seed=3)
    seat = state.to_act
    first = state.resolve(state.legal_actions(seat)[0].text, seat)
    state.apply(state.legal_actions(seat)[-1].text, seat)  # another action went first
    calls = counting(state)
    with pytest.raises(IllegalAction):  # read and checked again: not this seat's turn now
        state.apply(first, seat)
    assert calls[0] == 1


def test_a_resolution_is_for_the_seat_that_asked() -> None:
    state = new_game("ddz3", seed=3)
    seat = state.to_act
    action = state.resolve(state.legal_actions(seat)[0].text, seat)
    other = (seat + 1) % state.players
    with pytest.raises(IllegalAction):
        state.apply(action, other)
