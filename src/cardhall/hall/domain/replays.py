"""What a replay viewer needs of a finished game: one frame per step, every hand shown.

A finished game hides nothing any more, so its replay shows every seat's hand at
every step; a live game is never replayed (``GET /api/games/{id}/replay`` refuses it
as ``GET /api/games/{id}`` does). The frames are rebuilt from the stored record by
``cardhall.games.replay``, one action at a time, so they are exactly what the game
was: the hall stores no second copy that could disagree with the log.

Each frame is compact: the table as every seat saw it alike (``public_view``), the
seats that were to act (also in a window whose answers were kept secret), each seat's
role as anyone knew it, the variant's detail as known at the table (``known_detail``)
and every hand. Frame 0 is the deal; frame ``k``
is the table after the ``k``-th action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardhall.games import GameState, replay

#: The view's keys a frame carries (the rest is per seat, the same in every frame, or
#: what the hands already show, such as ``played``).
FRAME_KEYS = ("phase", "counts", "table", "last", "warnings", "multiplier",
              "result")
#: Detail keys that are a growing history, which the frames before already show: left
#: out so that a frame's size does not grow with the game (找朋友's ``tricks``).
HISTORY_KEYS = frozenset({"tricks"})


def public_view(views: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """What every seat's view agrees on: each key kept where all views agree on it;
    a list whose items differ keeps the items all agree on (``None`` for the others);
    anything else that differs (own hands, private answers) is ``None``."""
    public: dict[str, Any] = {}
    for key, value in views[0].items():
        if all(v.get(key) == value for v in views[1:]):
            public[key] = value
        elif isinstance(value, list) and all(len(v.get(key) or []) == len(value)
                                             for v in views):
            public[key] = [x if all(v[key][i] == x for v in views) else None
                           for i, x in enumerate(value)]
        else:
            public[key] = None
    return public


def known_detail(views: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The variant's ``detail`` as the table knew it between them: a key all seats agree
    on, or else the one value that those who knew it had (the hidden landlord's seat, an
    answer not yet shown); a key with several different values (each seat's own
    perspective) is left out, and so is a growing history (``HISTORY_KEYS``)."""
    out: dict[str, Any] = {}
    keys = dict.fromkeys(k for v in views for k in v)  # a seat may lack a key others have
    for key in keys:
        if key in HISTORY_KEYS:
            continue
        values = [v.get(key) for v in views]
        known = [x for x in values if x is not None]
        if known and all(x == known[0] for x in known):
            out[key] = known[0]
    return out


def _roles(views: Sequence[dict[str, Any]]) -> list[str | None]:
    """Each seat's role as known to anyone (its own seat first): a finished game's
    replay may show a hidden landlord or a secret friend from the start."""
    out: list[str | None] = []
    for seat, own in enumerate(views):
        known = [own["roles"][seat], *(v["roles"][seat] for v in views)]
        out.append(next((r for r in known if r is not None), None))
    return out


def frame(state: GameState, step: int, action: str | None, seat: int | None) -> dict[str, Any]:
    """The table after ``step`` actions, the last of which ``seat`` took."""
    views = [state.observe(s) for s in range(state.players)]
    public = public_view(views)
    return {"step": step, "action": action, "seat": seat,
            **{k: public.get(k) for k in FRAME_KEYS},
            "acting": list(state.acting), "roles": _roles(views),
            "hands": [v["hand"] for v in views],
            "detail": known_detail([v["detail"] for v in views])}


def frames(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every frame of the game ``record`` describes, from the deal to its last action."""
    actions = list(record["actions"])
    state = replay({**record, "actions": []})
    out = [frame(state, 0, None, None)]
    for step, text in enumerate(actions, start=1):
        said = state.parse_action(text).seat
        seat = said if said is not None else state.to_act
        state.apply(text)
        out.append(frame(state, step, text, seat))
    return out
