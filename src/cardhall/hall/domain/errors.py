"""The hall's refusals, each with a stable ``code`` the server can put on the wire.

Every service raises one of these for input it refuses (and then has changed nothing:
the transaction is rolled back), with a message a player can read.
"""

from __future__ import annotations

from sqlalchemy.exc import SQLAlchemyError

from cardhall.protocol.messages import ProtocolError


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


class BadRequest(HallError):
    """Arguments that could never be valid (unknown player in a settlement, bad count)."""

    code = "bad_request"


def refusal(exc: BaseException) -> ProtocolError:
    """The wire's answer to a failure that is not a refusal of its own (a database that
    is locked or away, a bug): a code and a fixed human sentence. The exception's text
    (SQL, ids, a traceback's words) is for the log, never for the client."""
    if isinstance(exc, Conflict):
        return ProtocolError("stale", "the table moved on meanwhile: act on its latest state")
    if isinstance(exc, HallError):
        return ProtocolError("not_allowed", "that cannot be done now")
    if isinstance(exc, SQLAlchemyError | OSError | TimeoutError):
        return ProtocolError("busy", "the hall could not record that just now: "
                             "try again in a moment")
    return ProtocolError("internal", "something went wrong at the hall (it is logged): "
                         "try again")
