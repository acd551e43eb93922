"""Sessions that end while their socket is open: closed with 4401, as a revoked one.

A session is checked at each ``hello`` and HTTP request, but a socket says hello once:
without this a player whose session reached its end (``idle_days`` unused, or
``session_days`` after its login; ``sessions.SessionPolicy``) would play on until he
reconnected. Each connection knows when its session ends unless used again
(``Connection.session_ends``, from its hello). Every ``CHECK_SECONDS`` the connections
past that moment are looked up in the database, for the session may have been used
since (an API call moves an idle end on), revoked or its player banned: one still
live gets its new end; the others get an ``error`` that says why (``session_expired``,
or ``bad_token`` for a session ended otherwise) and are closed with 4401, so the
client forgets the token and shows the login form. Revocation itself closes sockets
at once, across processes (``Coordinator.disconnect``); this is the check for the
ends nobody announces. The clock is the caller's, so it is tested without waiting.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime

from cardhall.hall.store.db import Database
from cardhall.hall.store.sessions import SessionPolicy, Toucher, ends_of
from cardhall.server.connection import CLOSE_SESSION_ENDED, Registry

log = logging.getLogger("cardhall.server.ws")

#: Seconds between two looks; a session lasts days, so it is closed within a minute.
CHECK_SECONDS = 60.0


async def expire(registry: Registry, db: Database, policy: SessionPolicy,
                 now: datetime) -> int:
    """Close the connections whose session has ended by ``now``; how many were closed."""
    due = registry.due(now)
    if not due:
        return 0
    ends = await ends_of(db, {c.session for c in due if c.session is not None}, policy)
    closed = 0
    for conn in due:
        end = ends.get(conn.session or "")
        if end is not None and end > now:
            conn.session_ends = end  # used meanwhile: look again then
            continue
        if end is not None:
            conn.error("session_expired", "your session has expired: log in again")
        else:
            conn.error("bad_token", "this session was ended: log in again")
        log.info("session ended while connected",
                 extra=conn.log_extra(event="session_end",
                                      why="expired" if end is not None else "ended"))
        conn.close(CLOSE_SESSION_ENDED, "this session has ended")
        closed += 1
    return closed


async def expire_loop(registry: Registry, db: Database, policy: SessionPolicy,
                      clock: Callable[[], datetime], toucher: Toucher | None,
                      every: float = CHECK_SECONDS) -> None:
    """``expire`` every ``every`` seconds for the server's life."""
    while True:
        await asyncio.sleep(every)
        try:
            if toucher is not None:
                await toucher.written()  # a use just made counts
            await expire(registry, db, policy, clock())
        except Exception:  # the database away: the next look tries again
            log.exception("could not check sessions' ends", extra={"event": "expiry_failed"})
