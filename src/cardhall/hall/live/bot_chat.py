"""Bots answer a few chat lines, so that a table of bots does not feel mute.

Which bot answers, and what, follows from the game's seed (a replay of the same game
says the same), never from a random draw: a person's ``hello`` is greeted back, his
``hurry`` gets a "let me think", his ``well_played`` a wink, his ``bye`` a bye;
and at a game's end one bot may say a word (most games it says nothing).

A table's bots speak at most once per ``GAP_SECONDS`` and ``PER_MINUTE`` times a minute,
whatever the people say: a person cannot make them flood the table.

    >>> answer_of("hurry", seed=7, bots=[1, 2], lines=0)
    (2, 'thinking')
    >>> answer_of("lucky", seed=7, bots=[1, 2], lines=0) is None
    True
"""

from __future__ import annotations

import time
from collections.abc import Callable

from cardhall.hall.domain.limits import RateLimiter

#: What a bot answers to a person's line (lines not here get no answer).
ANSWERS: dict[str, str] = {"hello": "hello", "hurry": "thinking", "well_played": "wink",
                           "bye": "bye", "again": "till_dawn"}
#: What a bot may say when a game ends (``AT_END_ONE_IN``: about one game in this many).
AT_END: tuple[str, ...] = ("well_played", "again", "lucky", "smile")
AT_END_ONE_IN = 3
#: A table's bots say at most one line per this many seconds ...
GAP_SECONDS = 5.0
#: ... and at most this many a minute.
PER_MINUTE = 4


def answer_of(said: str, seed: int, bots: list[int], lines: int) -> tuple[int, str] | None:
    """(bot seat, id) answering a person's ``said``, or None; ``lines``: the table's
    bots' lines so far (the bots take turns answering)."""
    if not bots or said not in ANSWERS:
        return None
    return bots[(seed + lines) % len(bots)], ANSWERS[said]


def end_of(seed: int, bots: list[int]) -> tuple[int, str] | None:
    """(bot seat, id) a bot says as the game with ``seed`` ends, or None (most games)."""
    if not bots or seed % AT_END_ONE_IN:
        return None
    turn = seed // AT_END_ONE_IN
    return bots[turn % len(bots)], AT_END[turn // len(bots) % len(AT_END)]


class BotVoice:
    """A table's bots' chat, paced: the lines they said, and their rate limits."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.lines = 0
        self._gap = RateLimiter(1, GAP_SECONDS, clock)
        self._minute = RateLimiter(PER_MINUTE, 60.0, clock)

    def _may(self) -> bool:
        if self._gap.retry_after("") > 0 or self._minute.retry_after("") > 0:
            return False
        self._gap.allow("")
        self._minute.allow("")
        self.lines += 1
        return True

    def answer(self, said: str, seed: int, bots: list[int]) -> tuple[int, str] | None:
        found = answer_of(said, seed, bots, self.lines)
        return found if found is not None and self._may() else None

    def at_end(self, seed: int, bots: list[int]) -> tuple[int, str] | None:
        found = end_of(seed, bots)
        return found if found is not None and self._may() else None
