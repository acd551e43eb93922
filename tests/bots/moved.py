"""Which variants are on the new game contract yet (views, results), for marking tests.

The games move to the contract on their own branches; until one is merged a
bot test of that game is expected to fail (``expected``). A variant counts as
moved once its version is 2 (every moved game bumps it); the climbing core
already gives the Dou Dizhu bidding games typed views, and their results are
moved once a game of them ends with a ``games.view.Result``.
"""

from __future__ import annotations

from functools import cache

import pytest

from cardhall import bots
from cardhall.games import new_game, variant

#: The climbing games: their views come from the climbing core, which is moved (their
#: old observation keys in ``detail``).
CORE_VIEWS = ("ddz2", "ddz3", "ddz4", "ddz_emperor", "ddz5", "ddz3_happy", "ddz3_laizi",
              "baohuang")


#: Games whose ``roles`` are right already (the climbing core says landlord / farmer).
CORE_ROLES = ("ddz2", "ddz3", "ddz4", "ddz_emperor")


def views_moved(name: str) -> bool:
    return variant(name).version >= 2 or name in CORE_VIEWS


def roles_moved(name: str) -> bool:
    return variant(name).version >= 2 or name in CORE_ROLES


@cache
def results_moved(name: str) -> bool:
    """A game of ``name`` ends with a ``Result`` (winners as seats, points per seat)."""
    if variant(name).version >= 2:
        return True
    if not views_moved(name) or "landlord" not in variant(name).options:
        return False
    state = new_game(name, seed=0, options={"landlord": 0})
    seats = [bots.make("tuoguan", name, s) for s in range(state.players)]
    while not state.over:
        seat = state.to_act
        assert seat is not None
        state.apply(seats[seat].act(state.observe(seat)))
    result = state.result()
    return isinstance(result, dict) and "winners" in result and "points" in result


def expected(name: str, results: bool = False, roles: bool = False) -> pytest.MarkDecorator:
    """xfail while ``name``'s views (with ``results``: results; ``roles``: its own role
    words in ``roles``) are not moved."""
    ready = results_moved(name) if results else roles_moved(name) if roles else \
        views_moved(name)
    what = "results (games.view.Result)" if results else "roles" if roles else \
        "views (games.view.View)"
    return pytest.mark.xfail(not ready, reason=f"{name}'s {what} are not moved on this branch "
                             "yet", strict=False)


def variants(names: list[str], results: bool = False) -> list[object]:
    """``names`` as pytest params, each marked ``expected``."""
    return [pytest.param(n, marks=expected(n, results)) for n in names]


@cache
def escape_moved(name: str) -> bool:
    """Leaving a game of ``name`` ends it with the escape settlement (platform.md §5)."""
    state = new_game(name, seed=0)
    try:
        state.apply("@1 leave")
    except NotImplementedError:
        return False
    result = state.result()
    return isinstance(result, dict) and result.get("ended") == "escape"
