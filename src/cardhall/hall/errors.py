"""The hall's refusals, each with a stable ``code`` the server can put on the wire.

Every service raises one of these for input it refuses (and then has changed nothing:
the transaction is rolled back), with a message a player can read.
"""

from __future__ import annotations


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
