"""Why a game refuses: typed refusals, and how a reason quotes what a client sent.

After python-chess (``InvalidMoveError`` / ``IllegalMoveError`` /
``AmbiguousMoveError``), a refusal says what kind of refusal it is by its
type, and exactly which rule by a stable ``reason`` code with plain-data
``params``, so that a server can answer without reading prose and a client
can say it in its player's language (``games.reasons`` renders the sentence
in Chinese or English from ``(reason, params)``). The English message stays
a full sentence for logs, the terminal and clients that only read it.

The kinds (``code``):

- ``Unreadable``: the text names no action (not text, too long, an unknown
  verb, cards that do not parse).
- ``NotYourTurn``: a readable action from a seat that is not acting now.
- ``NotInWindow``: a readable action of the wrong step (a bid while cards
  are played, a card played while bidding, anything once the game is over).
- ``Illegal``: the right step and the right seat, but a rule forbids it
  (``does_not_beat``, ``must_follow_suit``, ``bid_too_low``, ...).
- ``Ambiguous``: cards that read several legal ways; ``readings`` lists them.
- ``BadSetup``: an option, a deal or a record that no game can start from or
  replay (not a move, but refused the same way).

``IllegalAction`` stays the base: every ``except IllegalAction`` still holds.
"""

from __future__ import annotations

from typing import ClassVar

#: A refusal's parameters: plain data that JSON carries as it is.
Param = str | int | bool | list[str] | list[int]
Params = dict[str, Param]


class IllegalAction(ValueError):
    """An action that the game does not allow now; the message says why, for a player.

    ``code`` is the kind of refusal (the subclass), ``reason`` the rule (a code of
    ``games.reasons.REASONS``), ``params`` what the sentence for it needs.
    """

    code: ClassVar[str] = "illegal_action"

    def __init__(self, message: str, reason: str = "illegal_action",
                 params: Params | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.params: Params = params or {}

    @property
    def message(self) -> str:
        """The English sentence (``str(exc)``)."""
        return str(self.args[0]) if self.args else ""

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), self.message, self.reason, self.params))


def _rebuild(cls: type[IllegalAction], message: str, reason: str,
             params: Params) -> IllegalAction:
    exc = IllegalAction.__new__(cls)
    IllegalAction.__init__(exc, message, reason, params)
    return exc


class _Refusal(IllegalAction):
    """A typed refusal: ``Kind(reason, message, **params)``."""

    def __init__(self, reason: str, message: str, **params: Param) -> None:
        super().__init__(message, reason, params)


class Unreadable(_Refusal):
    """The text names no action of this game (python-chess: ``InvalidMoveError``)."""

    code: ClassVar[str] = "unreadable"


class NotYourTurn(_Refusal):
    """A seat that is not acting now tried to act."""

    code: ClassVar[str] = "not_your_turn"


class NotInWindow(_Refusal):
    """An action of another step of the game than the one it is in."""

    code: ClassVar[str] = "not_in_window"


class Illegal(_Refusal):
    """A rule forbids this action now (python-chess: ``IllegalMoveError``)."""

    code: ClassVar[str] = "illegal"


class Ambiguous(IllegalAction):
    """Cards that read several legal ways; ``readings`` are the canonical texts to
    choose from (python-chess: ``AmbiguousMoveError``)."""

    code: ClassVar[str] = "ambiguous"

    def __init__(self, message: str, readings: list[str]) -> None:
        super().__init__(message, "ambiguous", {"readings": list(readings)})
        self.readings = list(readings)

    def __reduce__(self) -> tuple[object, ...]:
        return (Ambiguous, (self.message, self.readings))


class BadSetup(_Refusal):
    """An option, a deal, a seed or a record no game starts from or replays."""

    code: ClassVar[str] = "bad_setup"


#: Every kind of refusal, by its code.
KINDS: dict[str, type[IllegalAction]] = {
    cls.code: cls for cls in (Unreadable, NotYourTurn, NotInWindow, Illegal, Ambiguous,
                              BadSetup)}


def clip(text: str, limit: int = 40) -> str:
    """``text`` for a refusal's params, cut to ``limit`` characters (marked with …)."""
    return text if len(text) <= limit else text[:limit] + "…"


def excerpt(text: str, limit: int = 40) -> str:
    """``text`` quoted for a reason, cut short: a reason never echoes a whole hostile input."""
    quoted = repr(text[:limit])
    if len(quoted) > 2 * limit:  # characters repr spells out as escapes
        quoted = quoted[:2 * limit] + "…'"
    return quoted if len(text) <= limit else quoted + f"… ({len(text)} characters)"


__all__ = ["KINDS", "Ambiguous", "BadSetup", "Illegal", "IllegalAction", "NotInWindow",
           "NotYourTurn", "Param", "Params", "Unreadable", "clip", "excerpt"]
