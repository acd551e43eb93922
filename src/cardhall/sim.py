"""Playing whole games between bots (simulate) and reading how they ended.

Everything here goes through the game contract: a bot is shown exactly what
its seat may know (``observe``), and a game's end is read from its
``games.view.Result`` (winners as seats, points per seat, how it ended, the
multiplier) and each seat's role from its own final view. A person plays in
the terminal through ``cardhall.terminal``.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from cardhall import bots
from cardhall.bots import Bot
from cardhall.games import GameState, new_game

#: A game that has not ended after this many deals or actions is abandoned: a
#: table of 托管 bots that never bid redeals forever under unlimited redeals.
MAX_DEALS = 50
MAX_ACTIONS = 20_000


def seat_bots(variant: str, names: Iterable[str], players: int, seed: int) -> list[Bot]:
    names = list(names)
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise bots.BotError(f"{variant} has {players} seats: give 1 or {players} bot names")
    return [bots.make(name, variant, seat, seed) for seat, name in enumerate(names)]


def play_out(state: GameState, players: list[Bot]) -> bool:
    """Let the bots finish the game; False if it was abandoned (see MAX_ACTIONS)."""
    while not state.over:
        if len(state.actions) >= MAX_ACTIONS or getattr(state, "deals", 0) > MAX_DEALS:
            return False
        seat = state.to_act
        assert seat is not None
        state.apply(players[seat].act(state.observe(seat)))
    return True


def roles(state: GameState) -> list[str]:
    """Each seat's role for reporting: as that seat's own view names it (``seat N`` if none)."""
    out = []
    for seat in range(state.players):
        role = state.observe(seat)["roles"][seat]
        out.append(role if role is not None else f"seat {seat}")
    return out


def multiplier(result: dict[str, Any]) -> float:
    """The result's total multiplier (``games.view.Multiplier``)."""
    return float(result["multiplier"]["total"])


@dataclass
class Tally:
    games: int = 0
    abandoned: int = 0
    dissolved: int = 0
    unscored: int = 0
    seconds: float = 0.0
    multipliers: list[float] = field(default_factory=list)
    by_role: dict[str, list[float]] = field(default_factory=dict)
    by_role_wins: dict[str, list[float]] = field(default_factory=dict)

    def add(self, state: GameState) -> None:
        result = state.result()
        assert result is not None, "a finished game has a result"
        if result["ended"] == "dissolved":
            self.dissolved += 1
            return
        if result["ended"] == "unscored":
            self.unscored += 1
            return
        self.multipliers.append(multiplier(result))
        winners = set(result["winners"])
        for seat, (role, points) in enumerate(zip(roles(state), result["points"], strict=True)):
            self.by_role.setdefault(role, []).append(float(points))
            self.by_role_wins.setdefault(role, []).append(1.0 if seat in winners else 0.0)

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "games": self.games, "abandoned": self.abandoned, "dissolved": self.dissolved,
            "unscored": self.unscored,
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
            "mean_multiplier": _mean(self.multipliers), "roles": {}}
        for role, scores in sorted(self.by_role.items()):
            out["roles"][role] = {"seats": len(scores),
                                  "win_rate": _mean(self.by_role_wins[role]),
                                  "mean_points": _mean(scores)}
        return out


def _mean(xs: list[float]) -> float | None:
    return round(sum(xs) / len(xs), 4) if xs else None


def simulate(variant: str, games: int, seed: int, names: Iterable[str],
             options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play ``games`` seeded games between bots and summarise them."""
    names = list(names)
    tally = Tally()
    start = time.perf_counter()
    for i in range(games):
        state = new_game(variant, seed=seed + i, options=options)
        players = seat_bots(variant, names, state.players, seed + i)
        tally.games += 1
        if play_out(state, players):
            tally.add(state)
        else:
            tally.abandoned += 1
    tally.seconds = time.perf_counter() - start
    return {"variant": variant, "bots": names, "seed": seed, **tally.summary()}
