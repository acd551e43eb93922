"""Skill ratings: a Weng-Lin (openskill) rating per player per variant, and overall.

The maths is openskill's Plackett-Luce model over the game's teams, each team rated
by the MEAN of its members (``_mean_team``), not openskill's sum. Summed, two farmers
look twice as strong as one landlord of the same skill: a landlord's loss is then
expected and costs almost nothing while his win pays a lot, so a player who always
takes the landlord against bots climbed even winning one game in five. By the mean,
a side of equals is as strong as any other side of equals, whatever its size (1-v-2,
1-v-3, 2-v-3), and a side's change is shared among its members: a landlord's win
moves him more than it moves each farmer. (openskill 6.2's ``weights`` only scale
each member's share of the update; the team's strength stays the sum.) Teams and
ranks come from the game (``games.standing``): each seat counted with the side it
turned out to play for (五人's hidden landlord, 找朋友's friend, 保皇's guard).

What is rated (docs/rulings.md, "Skill ratings"):

- a game played to its score at a matched table; unscored games (every seat on 托管)
  and dissolved ones move nothing, nor does any game at a private table (好友房);
- an escape moves the escaper's ratings only, as a loss: the rules score it against
  him, and the others did not play a game out. When the sides were known as he left
  (a landlord named), it is his side's loss, never cheaper than losing the game
  played out; before that, he alone against all the others;
- bots are rated: each bot name is one fixed identity (``bot_subject``), whichever
  seat, table or room it plays at; a room's empty seats are filled by the bot it names
  (``Room.bot``: ``planning``, ``search``, …), each rated apart. A bot in two seats of
  one game (two empty seats filled) is rated once if both are on one side; on both
  sides it played itself, and the game does not move it (the people at the table are
  rated as usual).

What is shown: ``display`` = 1500 + 40 × (μ − 25), rounded: the skill estimate itself
on the scale chess players know and the 残局 ratings use, so a newcomer starts at 1500,
a player who keeps losing goes below it and a strong regular sits near 2000. Not
openskill's ordinal (μ − 3σ): that rises for everyone as σ shrinks with games played,
so a player who lost most of his games would still have watched his number climb. The
uncertainty is said instead by the provisional mark: a rating is provisional (shown
with "?") for its first ``PROVISIONAL_GAMES`` rated games, while σ is still large, and
the rating board lists only ratings past it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from openskill.models.weng_lin.plackett_luce import PlackettLuceRating

from cardhall.games.sides import Standing

#: The openskill model every rating uses (defaults: μ 25, σ 25/3, β σ/2, τ μ/300).
MODEL = PlackettLuce()
#: MODEL's update without its own τ: ``_mean_team`` adds τ to each member before it
#: scales him into his team's mean (openskill would add it to the scaled rating).
_UPDATE = PlackettLuce(mu=MODEL.mu, sigma=MODEL.sigma, beta=MODEL.beta, tau=0.0)
#: The "variant" of the overall rating (every rated game, whatever its variant).
OVERALL = "all"
#: Rated games before a rating stops being provisional (shown with "?").
PROVISIONAL_GAMES = 10
#: display = BASE + SCALE × (μ − MODEL.mu).
BASE, SCALE = 1500, 40
#: The bot that fills a room's empty seats unless the room names another (``Room.bot``);
#: every bot a room seats is a rated identity of its own.
SEAT_BOT = "planning"
#: A subject (the rated one) is a player id, or ``bot:`` and the bot's name.
BOT_PREFIX = "bot:"


def bot_subject(name: str) -> str:
    """The rated identity of the bot called ``name`` (``planning``, ``search``, …)."""
    return BOT_PREFIX + name


def bot_name(subject: str) -> str | None:
    """The bot's name if ``subject`` is a bot, else None."""
    return subject[len(BOT_PREFIX):] if subject.startswith(BOT_PREFIX) else None


@dataclass(frozen=True, slots=True)
class Skill:
    """One rating: openskill's μ and σ, and how many rated games made it."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def display(self) -> int:
        """The number a player sees (module docstring)."""
        return round(BASE + SCALE * (self.mu - MODEL.mu))

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


@dataclass(frozen=True, slots=True)
class Change:
    """A seat's rating in one game, before and after (what ``settled`` shows)."""

    before: int
    after: int
    provisional: bool
    games: int

    def to_json(self) -> dict[str, Any]:
        return {"before": self.before, "after": self.after,
                "provisional": self.provisional, "games": self.games}


def change(before: Skill, after: Skill) -> Change:
    return Change(before.display, after.display, after.provisional, after.games)


def _mean_team(members: Sequence[Skill]) -> list[PlackettLuceRating]:
    """A team whose openskill sum is its members' mean: each member (σ widened by
    MODEL's τ, as openskill does) scaled by 1/n, so the team's μ is the mean μ and its
    variance the mean's, Σσ²/n². ``rate`` scales the update back by n: each member
    then moves by his share of the team's (σ²-weighted, as openskill shares it), and a
    team of one is rated exactly as MODEL rates it."""
    n = len(members)
    return [MODEL.create_rating([m.mu / n, math.sqrt(m.sigma ** 2 + MODEL.tau ** 2) / n])
            for m in members]


def rate(subjects: Sequence[str], skills: Mapping[str, Skill],
         standing: Standing) -> dict[str, Skill]:
    """The new skill of each subject that the game moves (module docstring's rules);
    ``subjects`` by seat, ``skills`` what each has now (absent: a newcomer)."""
    now = [skills.get(s, Skill()) for s in subjects]
    teams = [_mean_team([now[seat] for seat in team]) for team in standing.teams]
    rated = _UPDATE.rate(teams, ranks=list(standing.ranks))
    new: dict[int, tuple[float, float]] = {}
    for team, ratings in zip(standing.teams, rated, strict=True):
        for seat, r in zip(team, ratings, strict=True):
            new[seat] = (r.mu * len(team), r.sigma * len(team))
    moved = [standing.escaped] if standing.escaped is not None else range(len(subjects))
    seats: dict[str, list[int]] = {}
    for seat in moved:
        seats.setdefault(subjects[seat], []).append(seat)
    out: dict[str, Skill] = {}
    for subject, mine in seats.items():
        if len({standing.team_of(s) for s in mine}) > 1:
            continue  # a bot on both sides played itself: the game says nothing of it
        mu = sum(new[s][0] for s in mine) / len(mine)
        sigma = sum(new[s][1] for s in mine) / len(mine)
        out[subject] = Skill(mu, sigma, skills.get(subject, Skill()).games + 1)
    return out


__all__ = ["BASE", "MODEL", "OVERALL", "PROVISIONAL_GAMES", "SCALE", "SEAT_BOT", "Change",
           "Skill", "bot_name", "bot_subject", "change", "rate"]
