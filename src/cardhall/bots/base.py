"""The bot contract (ARCHITECTURE.md): ``act(observation) -> action text``."""

from __future__ import annotations

import random
from typing import Any

Observation = dict[str, Any]


class BotError(ValueError):
    """A bot asked for something it cannot do (unknown name, no legal action)."""


class Bot:
    """Base class: a seat, a variant, and a private seeded random source."""

    name = "bot"

    def __init__(self, variant: str, seat: int, seed: int = 0) -> None:
        self.variant = variant
        self.seat = seat
        self.rng = random.Random(f"{self.name}:{variant}:{seat}:{seed}")

    def act(self, observation: Observation) -> str:
        legal = observation.get("legal_actions")
        if not legal:
            raise BotError(f"seat {self.seat} has nothing to do: no legal actions observed")
        return self.choose(observation, list(legal))

    def choose(self, observation: Observation, legal: list[str]) -> str:
        raise NotImplementedError
