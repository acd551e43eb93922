"""The WebSocket endpoint ``/ws``: authenticate with ``hello``, then route messages.

Every inbound text frame goes through ``parse_client`` (the one place the wire is
validated) after spending a rate-limit token; whatever is refused gets an
``error`` and the connection stays open, except that a client sending nothing
but refused frames (``ABUSE_LIMIT`` in a row) is closed with 1008, and one that
has not said a valid ``hello`` within ``limits.hello_seconds`` is closed with
4002 (an idle socket must not hold a slot for nothing). A hello that arrived in time
is answered however long the hall takes to check it: closing it at the deadline
made a busy hall (2,000 players connecting at once) close every hello it was
still checking, and each reconnect cost it the work again (``Greeting``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from starlette.websockets import WebSocket, WebSocketDisconnect

from cardhall.hall.domain.errors import Refused
from cardhall.hall.store import sessions
from cardhall.protocol.messages import Hello, ProtocolError, Resync, parse_client
from cardhall.server.connection import (
    CLOSE_NO_HELLO,
    CLOSE_POLICY,
    CLOSE_SESSION_ENDED,
    Connection,
    ConnState,
)
from cardhall.server.deltas import DeltaCoder
from cardhall.server.edge import SEND_NOW
from cardhall.server.refusals import wire_error

if TYPE_CHECKING:
    from cardhall.server.app import Server
    from cardhall.server.edge import Gate

log = logging.getLogger("cardhall.server.ws")

#: Refused frames in a row after which a connection is closed (CLOSE_POLICY).
ABUSE_LIMIT = 50
#: Refusals that count towards ABUSE_LIMIT: frames that could never have been right.
ABUSIVE = frozenset({"malformed", "too_large", "unknown_type", "rate_limited",
                     "not_authenticated", "already_authenticated", "bad_token",
                     "session_expired"})


@dataclass
class Greeting:
    """A connection's hello as the deadline sees it: ``checking`` while a hello frame is
    being answered (the client did its part: the deadline waits for the answer),
    ``late`` once the deadline passed meanwhile (a hello refused then closes it)."""

    checking: bool = False
    late: bool = False


async def endpoint(websocket: WebSocket) -> None:
    server: Server = websocket.app.state.server
    await websocket.accept()
    address = websocket.client.host if websocket.client else "?"
    now = websocket.scope.get("extensions", {}).get(SEND_NOW)
    conn = Connection(websocket, address, server.config.limits.messages_per_second,
                      on_error=server.metrics.error,
                      on_written=server.metrics.send_wait_seconds.observe,
                      send_now=now["send_text"] if now else None)
    server.registry.add(conn)
    conn.start()
    server.metrics.connections_total.inc()
    # Before its hello a connection is nobody: its comings and goings are debug lines
    # (an idle flood would otherwise cost a log record per socket, however throttled).
    log.debug("connected", extra=conn.log_extra(event="connect"))
    hello_seconds = server.config.limits.hello_seconds
    gate: Gate | None = getattr(websocket.app.state, "gate", None)
    greeting = Greeting()
    deadline = asyncio.get_running_loop().call_later(hello_seconds, _no_hello, conn,
                                                     hello_seconds, gate, greeting)
    try:
        while conn.is_open:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            if not conn.is_open:
                break  # superseded or closing: it can never act again
            text = frame.get("text")
            if text is None:
                await _refused(conn, ProtocolError("malformed", "send JSON in text frames"))
                continue
            greeting.checking = conn.state == ConnState.AWAITING_HELLO
            await _frame(server, conn, text)
            greeting.checking = False
            if greeting.late:
                _no_hello(conn, hello_seconds, gate, greeting)
    except WebSocketDisconnect:
        pass  # the client went away: the finally below is the one exit path
    except RuntimeError as exc:  # receive after the socket closed (we closed it)
        log.info("receive ended: %s", exc, extra=conn.log_extra())
    finally:
        deadline.cancel()
        current = server.registry.remove(conn)
        await conn.finish()
        if current and conn.player_id is not None:
            await server.hall.disconnected(conn.player_id, conn.id)
        log.log(logging.INFO if conn.player_id is not None else logging.DEBUG,
                "disconnected", extra=conn.log_extra(event="disconnect",
                                                     superseded=conn.superseded,
                                                     code=conn.close_code))


def _no_hello(conn: Connection, seconds: float, gate: Gate | None, greeting: Greeting) -> None:
    if conn.state == ConnState.AWAITING_HELLO and greeting.checking:
        greeting.late = True  # answered first; closed after it if it was refused
    elif conn.state == ConnState.AWAITING_HELLO:
        log.info("no hello in time", extra=conn.log_extra(event="no_hello"))
        conn.close(CLOSE_NO_HELLO, f"no valid hello within {seconds:g} s")
        if gate is not None:
            gate.penalize(conn.address)


async def _refused(conn: Connection, exc: ProtocolError) -> None:
    conn.error(exc.code, str(exc), exc.readings, reason=exc.reason, params=exc.params)
    if exc.code in ABUSIVE:
        conn.refused_in_a_row += 1
        if conn.refused_in_a_row >= ABUSE_LIMIT:
            log.warning("closing an abusive client", extra=conn.log_extra(event="abuse"))
            conn.close(CLOSE_POLICY, f"{ABUSE_LIMIT} refused messages in a row")


async def _frame(server: Server, conn: Connection, text: str) -> None:
    if not conn.bucket.take():
        await _refused(conn, ProtocolError(
            "rate_limited", f"at most {server.config.limits.messages_per_second} "
            "messages per second"))
        return
    try:
        msg = parse_client(text)
        if conn.state == ConnState.AWAITING_HELLO:
            if not isinstance(msg, Hello):
                raise ProtocolError("not_authenticated", "say hello with your token first")
            await _hello(server, conn, msg)
        elif isinstance(msg, Hello):
            raise ProtocolError("already_authenticated", "this connection said hello")
        elif isinstance(msg, Resync):  # the connection's own: it holds what it sent
            conn.resync(msg.table)
        else:
            assert conn.player_id is not None
            started = time.perf_counter()
            await server.hall.handle(conn.player_id, msg, admin=conn.admin,
                                     address=conn.address, bot=conn.bot)
            server.metrics.message_seconds.labels(msg.type).observe(
                time.perf_counter() - started)
    except (ProtocolError, Refused) as exc:
        error = exc if isinstance(exc, ProtocolError) else wire_error(exc)
        log.info("refused %s: %s", error.code, error,
                 extra=conn.log_extra(event="refused", code=error.code))
        await _refused(conn, error)
        return
    except Exception as exc:  # the database locked or away, a bug: the client gets a
        # code and a sentence (never the exception's text), the log the rest
        log.exception("a message failed", extra=conn.log_extra(event="failed"))
        answer = wire_error(exc)
        conn.error(answer.code, str(answer))
        return
    conn.refused_in_a_row = 0


async def _hello(server: Server, conn: Connection, msg: Hello) -> None:
    try:
        authed = await sessions.authenticate(server.db, msg.token, server.session_policy,
                                             toucher=server.toucher)
    except sessions.TokenRefused as exc:
        raise ProtocolError("session_expired" if exc.why == "expired" else "bad_token",
                            str(exc)) from None
    player = authed.player
    # Presence first (another process's connection for him closes), then the welcome:
    # whatever his tables send from now on finds this connection.
    await server.hall.coord.attach(player.id, conn.id)
    welcome = await server.hall.welcome(player.id, player)
    # What he missed at tables closed meanwhile, kept by whichever process ran them.
    missed = await server.hall.coord.take_notes(player.id)
    if conn.state != ConnState.AWAITING_HELLO:
        await server.hall.coord.detach(player.id, conn.id)
        for message in missed:  # not told: kept for his next hello
            server.hall.lobby.note(player.id, message)
        return  # closed while the database answered
    conn.transition(ConnState.AWAITING_HELLO, ConnState.READY)
    conn.player_id, conn.admin, conn.session = player.id, player.is_admin, authed.session
    conn.bot = player.is_bot
    conn.session_ends = authed.ends
    if msg.deltas:
        conn.deltas = DeltaCoder(server.config.limits.full_state_every)
    old = server.registry.attach(conn, player.id)
    if server.registry.ended_lately(authed.session):  # ended while this hello ran
        conn.close(CLOSE_SESSION_ENDED, "this session was ended")
        return
    # No await between the welcome and connected(): the states follow the welcome.
    conn.send(welcome)
    server.hall.connected(player.id, welcome.tables, missed, admin=player.is_admin)
    log.info("hello", extra=conn.log_extra(event="hello", superseded=old.id if old else None))
