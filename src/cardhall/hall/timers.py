"""How long a seat has to decide (platform rule §3), from the room's turn seconds.

The platform proposes 15 s for a set-up decision (call, rob, bid, double, show,
identity, cede, guard, rebel, declare), 30 s to bury the kitty or call a
friend, 20 s for a play and 10 s more for a free lead. A room sets its play
time (``turn_seconds``); the others keep those proportions, so a fast room is
fast throughout. Expiry puts the seat on 托管 and the 托管 policy answers.
"""

from __future__ import annotations

from typing import Any

#: Seconds a table's lease lasts without renewal when several processes run the hall:
#: about how long a dead process's tables wait before another takes them over.
LEASE_SECONDS = 5.0
#: Redis connections one process may open at most (``--redis-pool``): past that a
#: command waits for a free one instead of failing.
REDIS_POOL = 64

#: Seconds per decision at the platform's default play time of 20 s.
PLAY, FREE_LEAD, SETUP, LONG_SETUP = 20.0, 30.0, 15.0, 30.0
LONG_PHASES = {"bury", "friend", "kitty"}


def decision_seconds(turn_seconds: float, view: dict[str, Any]) -> float:
    """Seconds for the decision ``view`` (of an acting seat) asks for."""
    scale = turn_seconds / PLAY
    phase = str(view.get("phase", ""))
    if phase == "play":
        return (FREE_LEAD if view.get("table") is None else PLAY) * scale
    return (LONG_SETUP if phase in LONG_PHASES else SETUP) * scale
