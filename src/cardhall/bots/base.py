"""The bot contract (docs/contract.md): ``act(view) -> action text``.

A bot sees one seat's view (``games.view.View``) and nothing else. It answers
with one of the view's ``legal`` actions or, when that list is not complete
(``legal_complete`` false), with a play it generated from its hand and the
table (``bots.view.legal_texts``). In a window that several seats answer
together a seat's actions carry its seat (``@1 double``); a bot's ``choose``
sees them bare and its answer is given back tagged, as the game expects.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from cardhall.bots.view import legal_texts

Observation = dict[str, Any]


class BotError(ValueError):
    """A bot asked for something it cannot do (unknown name, no legal action)."""


def bare(text: str) -> str:
    """An action text without its ``@SEAT`` tag."""
    if text.startswith("@"):
        return text.partition(" ")[2]
    return text


class Bot:
    """Base class: a seat, a variant, and a private seeded random source."""

    name = "bot"
    #: For a bot whose decision may hold a CPU for most of a second (the search bot's
    #: rollouts): the cheaper bot whose move it would fall back to. A hall runs few such
    #: decisions at once and has this one answer the rest (``hall.live.botpool``).
    stand_in: ClassVar[str | None] = None

    def __init__(self, variant: str, seat: int, seed: int = 0) -> None:
        self.variant = variant
        self.seat = seat
        self.rng = random.Random(f"{self.name}:{variant}:{seat}:{seed}")

    def act(self, observation: Observation) -> str:
        legal = legal_texts(observation)
        if not legal:
            raise BotError(f"seat {self.seat} has nothing to do: no legal actions observed")
        tagged = {bare(text): text for text in legal}
        choice = self.choose(observation, list(tagged))
        return tagged.get(choice, choice)

    def choose(self, observation: Observation, legal: list[str]) -> str:
        raise NotImplementedError
