"""The one error a game raises, and how a reason quotes what a client sent."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action that the game does not allow now; the message says why, for a player."""


def excerpt(text: str, limit: int = 40) -> str:
    """``text`` quoted for a reason, cut short: a reason never echoes a whole hostile input."""
    quoted = repr(text[:limit])
    if len(quoted) > 2 * limit:  # characters repr spells out as escapes
        quoted = quoted[:2 * limit] + "…'"
    return quoted if len(text) <= limit else quoted + f"… ({len(text)} characters)"
