"""What if: another move at one decision, and the bots play the game on from there.

The game is the real one (the record's deal, every hand as it was), replayed to the
decision; the other move is played instead of the one in the record, and then bots
(``planning`` by default: quick, and deterministic given the seed) play every seat to
the end. The line that follows and the result say what the other move would have led to
against these players' hands, had everyone played as the bots do.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardhall import bots
from cardhall.games import replay
from cardhall.games.errors import BadSetup

#: Actions a continued line may take before it is cut (no game is nearly this long).
LIMIT = 2_000


@dataclass(frozen=True, slots=True)
class Line:
    """The continued line: (seat, action text) from the other move on, and the result."""

    ply: int
    seat: int
    move: str
    actions: tuple[tuple[int, str], ...]
    points: tuple[int, ...]
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "seat": self.seat, "move": self.move,
                "actions": [{"seat": s, "action": a} for s, a in self.actions],
                "points": list(self.points), "winners": list(self.winners)}


def what_if(record: Mapping[str, Any], ply: int, move: str, bot: str = "planning",
            seed: int = 0) -> Line:
    """Play ``move`` instead of the record's action ``ply`` and let ``bot`` play on."""
    actions = list(record["actions"])
    if not 0 <= ply < len(actions):
        raise BadSetup("bad_ply", f"ply {ply} is not in this game of {len(actions)} actions")
    state = replay({**record, "actions": actions[:ply]})
    seat = state.to_act
    if seat is None:
        raise BadSetup("bad_ply", f"nobody was to act at ply {ply}")
    state.apply(move)
    line = [(seat, move)]
    players = [bots.make(bot, record["variant"], s, seed) for s in range(state.players)]
    while state.to_act is not None and len(line) < LIMIT:
        actor = state.to_act
        text = players[actor].act(state.observe(actor))
        state.apply(text)
        line.append((actor, text))
    result = state.result() or {}
    return Line(ply, seat, move, tuple(line), tuple(result.get("points") or ()),
                tuple(result.get("winners") or ()))
