"""A table's next game: dealt on its seated players' balances and items as they are now.

A room's options are completed with what the seats hold (their beans, for the games
whose settlement or doubling depends on them; their Golden Eyes), and a private
table's games settle points only (ruling 14). A fixed deal (a duplicate event's 复式,
its seed given by the table's ``pace``) is dealt without them, so that every entrant
meets the very same game whatever he holds.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from cardhall.games import GameState, new_game
from cardhall.hall.domain.economy import bot_balance

if TYPE_CHECKING:
    from cardhall.hall.live.table import Table

#: The game options a table takes from its seated players (``game_options``): a fixed
#: deal (a duplicate event's) is dealt without them, alike for every entrant.
SEATED_OPTIONS = ("balances", "golden_eye")


async def deal(t: Table) -> GameState:
    """A new game on the seated players' balances (and Golden Eyes) as they are now."""
    humans = t.humans()
    balances = await t.store.balances(humans) if humans else {}
    for s in t.seats:
        s.wants_next = not s.human
        s.balance = balances.get(s.player, 0) if s.player else bot_balance(t.room.min_beans)
    seed = None if t.pace is None else t.pace.seed(t)
    eyes: dict[str, int] = {}
    if humans and "golden_eye" in t.room.resolved_options() and seed is None:
        eyes = await t.store.golden_eyes(humans)
    options = game_options(t, eyes)
    if seed is not None:  # a fixed deal (复式): the same game whoever sits, so nothing
        for key in SEATED_OPTIONS:  # taken from his beans or items (all may double)
            options.pop(key, None)
    return new_game(t.room.variant, secrets.randbits(63) if seed is None else seed, options)


def game_options(t: Table, eyes: dict[str, int]) -> dict[str, Any]:
    """The room's options, with the seated players' beans (and Golden Eyes) where the
    game uses them: what a player holds at the start is what the game may spend."""
    options = dict(t.room.resolved_options())
    names = set(options)
    economy = {"N": t.room.N, "A": t.room.A, "M0": t.room.M0,
               "double_min_beans": t.room.double_min_beans,
               "balances": [s.balance for s in t.seats],
               "golden_eye": [eyes.get(s.player, 0) if s.player else 0 for s in t.seats]}
    options.update({k: v for k, v in economy.items() if k in names})
    if t.private:  # points only (ruling 14): the game settles no beans itself
        for key in ("N", "A"):
            options.pop(key, None)
    return options
