"""The wire's error for each refusal of the hall: the one place a refusal gets its code.

The hall refuses with its own typed refusals (``hall.domain.errors.Refused`` and its
kinds), which know nothing of the wire; a WebSocket client gets an ``error`` and an
HTTP client a JSON refusal whose ``code`` is the one this table gives the kind. The
codes are the fixed wire contract's (docs/protocol.md): a kind added to the hall
without a code here fails ``tests/server/test_refusals.py``.
"""

from __future__ import annotations

from cardhall.hall.domain.errors import (
    BelowMinimum,
    BotsNotAllowed,
    Busy,
    Failed,
    Forbidden,
    GameRefused,
    NotAllowed,
    NotSeated,
    OutOfTurn,
    Refused,
    Stale,
    TooManyTries,
    Unavailable,
    Unfit,
    UnknownRoom,
    UnknownTable,
)
from cardhall.hall.store.failures import as_refusal
from cardhall.protocol.messages import ErrorCode, ProtocolError

#: The wire's error code for each kind of refusal.
WIRE_CODES: dict[type[Refused], ErrorCode] = {
    Refused: "not_allowed",
    Busy: "busy",
    UnknownTable: "unknown_table",
    UnknownRoom: "unknown_room",
    NotSeated: "not_seated",
    NotAllowed: "not_allowed",
    Forbidden: "forbidden",
    BotsNotAllowed: "bots_not_allowed",
    Stale: "stale",
    BelowMinimum: "not_enough_beans",
    TooManyTries: "rate_limited",
    Unavailable: "unavailable",
    Unfit: "malformed",
    Failed: "internal",
    GameRefused: "illegal",
    OutOfTurn: "not_your_turn",
}


def wire_error(exc: BaseException) -> ProtocolError:
    """The ``error`` a client gets for ``exc``: a refusal's code, message and (a game's
    refusal only) its readings, reason and params; for any other failure the fixed
    sentence of ``as_refusal`` (its text, SQL or a traceback's, is for the log)."""
    refused = as_refusal(exc)
    return ProtocolError(WIRE_CODES[type(refused)], str(refused), refused.readings,
                         reason=refused.reason, params=refused.params)
