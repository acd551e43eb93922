"""What a failure that is not a refusal of its own becomes for the player.

The domain's refusals (``hall.domain.errors``) say what the hall refuses; a database
that is locked or away, or a bug, is not one of them, and its text (SQL, ids, a
traceback's words) is for the log. This lives beside the store because the store's
failures are the ones it must recognise.
"""

from __future__ import annotations

from sqlalchemy.exc import SQLAlchemyError

from cardhall.hall.domain.errors import (
    Busy,
    Conflict,
    Failed,
    HallError,
    NotAllowed,
    Refused,
    Stale,
)


def as_refusal(exc: BaseException) -> Refused:
    """The refusal a player gets for a failure that is not a refusal of its own (a
    database that is locked or away, a bug): a kind and a fixed human sentence. The
    exception's text (SQL, ids, a traceback's words) is for the log, never for him."""
    if isinstance(exc, Refused):
        return exc
    if isinstance(exc, Conflict):
        return Stale("the table moved on meanwhile: act on its latest state")
    if isinstance(exc, HallError):
        return NotAllowed("that cannot be done now")
    if isinstance(exc, SQLAlchemyError | OSError | TimeoutError):
        return Busy("the hall could not record that just now: try again in a moment")
    return Failed("something went wrong at the hall (it is logged): try again")
