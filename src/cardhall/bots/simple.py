"""The two bots that ship with the engine: ``random`` and ``tuoguan`` (托管).

``tuoguan`` is the auto-play policy of platform.md §4: in set-up phases the
default, non-committal answer (never raising the stakes, Ruling 4); in play,
the leader plays its smallest single and a follower passes. Shedding games
only here; trick-taking games add their own policy (lowest legal follow).
"""

from __future__ import annotations

from cardhall.bots import baohuang
from cardhall.bots.base import Bot, Observation
from cardhall.bots.trick import tuoguan as trick
from cardhall.bots.view import trick_game
from cardhall.cards import RANK_CHARS

#: Non-committal answers, in order of preference, across every variant's set-up phases.
DEFAULTS = ("pass", "no-call", "no-rob", "no-double", "decline", "start", "no-show",
            "take none", "accept", "hidden", "no", "no-rebel", "no-rob-solo")


class RandomBot(Bot):
    """A uniform choice among the legal actions."""

    name = "random"

    def choose(self, observation: Observation, legal: list[str]) -> str:
        return self.rng.choice(legal)


def _rank(text: str) -> int:
    cards = text.split(None, 1)[1]
    return RANK_CHARS.index(cards[0])


class Tuoguan(Bot):
    """托管: what the platform does for a player who is away."""

    name = "tuoguan"

    def choose(self, observation: Observation, legal: list[str]) -> str:
        if observation.get("variant") == "baohuang":
            return baohuang.choose(observation, legal)  # 憋6 and 保皇's own set-up answers
        if trick_game(observation.get("variant")):
            return trick.choose(observation, legal)  # trick-taking: no passing (§4)
        plays = [a for a in legal if a.startswith("play ")]
        if not plays:
            for default in DEFAULTS:
                if default in legal:
                    return default
            return legal[0]
        if "pass" in legal:
            return "pass"  # a follower passes
        singles = [a for a in plays if len(a.split(None, 1)[1].split("=")[0]) == 1]
        return min(singles or plays, key=_rank)
