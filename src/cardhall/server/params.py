"""Query-string and path parameters, checked before anything reads them.

A bad parameter is a 400 with its name and what it may be, never a 500: Python's
``str.isdigit`` accepts "²" and "٣" (which ``int`` then refuses or reads), ``int``
refuses a 5,000-digit string, and PostgreSQL refuses a NUL in a text. So numbers
are ASCII digits of bounded length, choices are compared as given, ids are the
characters ids are made of (a rated subject too: a player's id, or ``bot:`` and a
bot's name), and a key given twice is refused (which one would count is a guess).
"""

from __future__ import annotations

import re

from starlette.requests import Request

from cardhall.hall.domain.errors import NotFound
from cardhall.hall.domain.ratings import BOT_PREFIX


class BadParameter(Exception):
    """A query parameter the route cannot take (the API answers 400 ``malformed``)."""

    code = "malformed"


_DIGITS = re.compile(r"[0-9]{1,9}")
#: What an id is made of: a game's (``accounts.new_id``: 32 hex digits; tests use
#: names), a puzzle's ("c01", a mined "m" and 16 hex digits), an attempt's.
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _show(raw: str) -> str:
    return repr(raw[:16] + ("…" if len(raw) > 16 else ""))


def one(request: Request, key: str) -> str | None:
    """The value of ``key`` in the query string, None if absent; refused if repeated."""
    values = request.query_params.getlist(key)
    if len(values) > 1:
        raise BadParameter(f"{key} is given {len(values)} times: give it once")
    return values[0] if values else None


def integer(request: Request, key: str, default: int, low: int, high: int) -> int:
    """``key`` as a whole number from ``low`` to ``high`` (ASCII digits), else ``default``."""
    raw = one(request, key)
    if raw is None:
        return default
    if not _DIGITS.fullmatch(raw) or not low <= int(raw) <= high:
        raise BadParameter(f"{key} is a whole number from {low} to {high} (digits 0-9), "
                           f"not {_show(raw)}")
    return int(raw)


def choice(request: Request, key: str, default: str, allowed: tuple[str, ...]) -> str:
    """``key`` as one of ``allowed``, else ``default``."""
    raw = one(request, key)
    if raw is None:
        return default
    if raw not in allowed:
        raise BadParameter(f"{key} is {', '.join(allowed[:-1])} or {allowed[-1]}, "
                           f"not {_show(raw)}")
    return raw


def subject(request: Request) -> str:
    """The rated subject in the path (``/api/ratings/{subject}``): a player's id, or
    ``bot:`` and a bot's name, each made of id characters; anything else (a NUL, which
    PostgreSQL refuses with a 500, a space, a second ``bot:``) is simply not found."""
    raw: str = request.path_params["subject"]
    rest = raw[len(BOT_PREFIX):] if raw.startswith(BOT_PREFIX) else raw
    if not _ID.fullmatch(rest):
        raise NotFound(f"no player {_show(raw)}")
    return raw


def identifier(raw: str, what: str, longest: int = 64) -> str:
    """``raw`` if it is made as the hall's ids are (letters, digits, - and _, at most
    ``longest``); one no row can have is simply not found, before any query sees it
    (SQLite cannot bind a lone surrogate, PostgreSQL refuses a NUL)."""
    if len(raw) > longest or not _ID.fullmatch(raw):
        raise NotFound(f"no {what} {_show(raw)}")
    return raw


def game_id(request: Request) -> str:
    """The game id in the path; one no game can have is simply not found."""
    return identifier(request.path_params["game_id"], "game")


def attempt_id(request: Request) -> str:
    """The puzzle attempt id in the path (32 hex digits, ``puzzles.start``)."""
    return identifier(request.path_params["attempt_id"], "attempt", 32)
