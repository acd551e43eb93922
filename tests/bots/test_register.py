"""A bot author's own bot: registered once, made by name, seated in the arena."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cardhall import arena, bots
from cardhall.bots.base import Bot, Observation


class Greedy(Bot):
    """Plays as many cards as it can; otherwise the first legal answer."""

    name = "greedy-test"

    def choose(self, observation: Observation, legal: list[str]) -> str:
        plays = [a for a in legal if a.startswith("play ")]
        return max(plays, key=len) if plays else legal[0]


@pytest.fixture
def greedy() -> Iterator[type[Bot]]:
    bots.register(Greedy)
    yield Greedy
    del bots.BOTS[Greedy.name]


def test_a_registered_bot_plays_in_the_arena(greedy: type[Bot]) -> None:
    assert isinstance(bots.make("greedy-test", "ddz3", 0), Greedy)
    summary = arena.run("ddz3", ["greedy-test", "planning"], deals=4, fixed_landlord=True)
    assert summary["bots"] == ["greedy-test", "planning"] and summary["games"] == 8


def test_names_are_not_taken_twice(greedy: type[Bot]) -> None:
    with pytest.raises(bots.BotError, match="exists already"):
        bots.register(Greedy)

    class Nameless(Bot):
        pass

    with pytest.raises(bots.BotError, match="needs a name of its own"):
        bots.register(Nameless)
    assert "bot" not in bots.BOTS
