"""Bots: agents that see only ``observe(seat)`` (a view) and answer with canonical action text.

    >>> from cardhall import bots
    >>> bot = bots.make("tuoguan", variant="ddz3", seat=1, seed=0)
    >>> bot.act({"variant": "ddz3", "legal": ["pass", "bid 1", "bid 2", "bid 3"]})
    'pass'

The same bots fill empty seats in the hall and take over a seat on 托管, so a
bot never needs more than what a person in that seat is shown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardhall.bots.base import Bot, BotError
from cardhall.bots.planning import PlanningBot
from cardhall.bots.rlcard_rule import RLCardRule
from cardhall.bots.sampling import SamplingBot
from cardhall.bots.simple import RandomBot, Tuoguan

BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "tuoguan": Tuoguan,
    "planning": PlanningBot,
    "search": SamplingBot,
    "rlcard-rule": RLCardRule,
}

#: The bots a hall may seat at its tables (a room's ``bot``): those that play every phase
#: of every variant and that every process knows, a spawned bot worker too (``register``
#: adds a bot to one process only). ``rlcard-rule`` plays only ddz3's play phase, with an
#: optional dependency.
SEATABLE = ("planning", "search", "tuoguan", "random")


def register(factory: type[Bot]) -> type[Bot]:
    """Add a bot class under its ``name`` so that ``make``, the arena and the command find it.

    Usable as a class decorator; a name already taken is refused rather than replaced.
    Registration is per process: ``arena.run(..., jobs=1)`` sees it everywhere, worker
    processes only where they are forked from this one.
    """
    name = getattr(factory, "name", "")
    if not name or name == Bot.name:
        raise BotError(f"{factory.__name__} needs a name of its own: set name = '...'")
    if name in BOTS:
        raise BotError(f"a bot named {name!r} exists already")
    BOTS[name] = factory
    return factory


def make(name: str, variant: str, seat: int, seed: int = 0, **options: Any) -> Bot:
    """A bot by name for one seat of one variant; ``seed`` makes it repeatable."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise BotError(f"unknown bot {name!r} (known: {', '.join(BOTS)})") from None
    return factory(variant=variant, seat=seat, seed=seed, **options)


__all__ = ["BOTS", "SEATABLE", "Bot", "BotError", "PlanningBot", "RLCardRule", "RandomBot",
           "SamplingBot", "Tuoguan", "make", "register"]
