"""The hall's refusals, each with a stable ``code``; the server says them on the wire.

Every service raises one of these for input it refuses (and then has changed nothing:
the transaction is rolled back), with a message a player can read. The live tables and
the lobby refuse with a ``Refused`` (its kinds below); the server maps each kind to the
wire's error code in one place (``cardhall.server.refusals``), so nothing here knows
the wire.
"""

from __future__ import annotations

from cardhall.games.errors import IllegalAction, NotYourTurn, Param


class HallError(ValueError):
    """Something the hall refuses; ``code`` is stable, the message is for people."""

    code = "refused"


class BadName(HallError):
    code = "bad_name"


class NameTaken(HallError):
    code = "name_taken"


class BadPassword(HallError):
    code = "bad_password"


class AuthFailed(HallError):
    code = "auth_failed"


class Banned(HallError):
    code = "banned"


class NotFound(HallError):
    code = "not_found"


class NotEnoughBeans(HallError):
    code = "not_enough_beans"


class NoItem(HallError):
    code = "no_item"


class ReliefRefused(HallError):
    code = "relief_refused"


class Conflict(HallError):
    """The request disagrees with what is stored (a stale seq, a finished game)."""

    code = "conflict"


class Fenced(Conflict):
    """A write by a process that no longer owns the table: its lease's fencing token is
    older than the one stored on the game. The writer must drop the table (another
    process runs it now) and tell nobody that the write happened."""

    code = "fenced"


class TooManyBots(HallError):
    """The owner holds the most bot accounts the hall allows (``bots_per_owner``)."""

    code = "too_many_bots"


class BadRequest(HallError):
    """Arguments that could never be valid (unknown player in a settlement, bad count)."""

    code = "bad_request"


class Refused(HallError):
    """A live table's or the lobby's refusal of a player's request: nothing changed.

    Its kind (the subclass) says why, its ``code`` names the kind (stable: the same
    word the wire uses for it, ``cardhall.server.refusals``); the message is for people.
    ``readings``, ``reason`` and ``params`` are a game's refusal's (``GameRefused``):
    None on every other kind. Plain data, so that a refusal made at a table's owner
    crosses to the process holding the player's connection as it is (``rebuilt``).
    """

    code = "refused"

    def __init__(self, message: str, *, readings: list[str] | None = None,
                 reason: str | None = None, params: dict[str, Param] | None = None) -> None:
        super().__init__(message)
        self.readings = readings
        self.reason = reason
        self.params = params


class Busy(Refused):
    """Try again: the table is flooded, moving between processes, or its owner is slow."""

    code = "busy"


class UnknownTable(Refused):
    """No such table (any more), or none waiting with that invite code."""

    code = "unknown_table"


class UnknownRoom(Refused):
    code = "unknown_room"


class NotSeated(Refused):
    """A seated player's command from a player not seated there (or not queued)."""

    code = "not_seated"


class NotAllowed(Refused):
    """Not now: the player sits elsewhere, the table is full or has started, ..."""

    code = "not_allowed"


class Forbidden(Refused):
    """Never for this player: only the owner starts a table, only an admin watches."""

    code = "forbidden"


class BotsNotAllowed(Refused):
    """A bot account's quick match in a room whose ``bot_accounts`` is off, or its entry
    to an event (docs/bots.md): a program never takes a person's seat where people did
    not ask for bots."""

    code = "bots_not_allowed"


class Stale(Refused):
    """An action on a state the table has moved on from."""

    code = "stale"


class BelowMinimum(Refused):
    """The room asks more beans than the player holds."""

    code = "not_enough_beans"


class Unavailable(Refused):
    """The one asked cannot take it now: a competitor not in the ladder, or not online."""

    code = "unavailable"


class TooManyTries(Refused):
    """Too many wrong invite codes from this player or address: wait."""

    code = "rate_limited"


class Unfit(Refused):
    """A table command that could never be one (a forwarded call of the wrong shape)."""

    code = "malformed"


class Failed(Refused):
    """Something went wrong at the hall (a bug): the details are in the log."""

    code = "internal"


class GameRefused(Refused):
    """The game refused the action (``games.errors.IllegalAction``), or no game runs:
    the refusal's ``reason`` and ``params`` go along, ``readings`` when the cards read
    several ways."""

    code = "illegal"

    @staticmethod
    def of(refusal: IllegalAction, readings: list[str] | None = None) -> GameRefused:
        """The hall's refusal for the game's: ``OutOfTurn`` for ``NotYourTurn`` (which
        has no readings), else ``GameRefused``."""
        if isinstance(refusal, NotYourTurn):
            return OutOfTurn(str(refusal), reason=refusal.reason, params=dict(refusal.params))
        return GameRefused(str(refusal), readings=readings, reason=refusal.reason,
                           params=dict(refusal.params))


class OutOfTurn(GameRefused):
    """The game's ``NotYourTurn``: the seat is not acting now."""

    code = "not_your_turn"


def _kinds(cls: type[Refused]) -> list[type[Refused]]:
    return [cls, *(k for sub in cls.__subclasses__() for k in _kinds(sub))]


#: Every kind of refusal by its code (``rebuilt`` reads a refusal from another process).
KINDS: dict[str, type[Refused]] = {k.code: k for k in _kinds(Refused)}


def rebuilt(code: str, message: str, readings: list[str] | None = None,
            reason: str | None = None, params: dict[str, Param] | None = None) -> Refused:
    """The refusal another process made (its code and plain data), as it was there."""
    kind = KINDS.get(code, Failed)
    return kind(message, readings=readings, reason=reason, params=params)
