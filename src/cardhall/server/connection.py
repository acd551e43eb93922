"""One WebSocket connection's life, and the registry that is the hall's ``Outbox``.

A connection moves AWAITING_HELLO → READY → CLOSED and never back; each step is
checked (``Connection.transition``) so that a message handled in the wrong state
is a bug that says what was expected, not a silent misroute.

Outbound messages go through a *bounded* queue drained by one writer task per
connection: the hall's ``send`` never blocks on a socket, and a client too slow
to read its messages cannot grow the server's memory. When the queue is full the
client is closed (4008); it reconnects and its hello brings the full state back,
which is cheaper and safer than remembering what it missed.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections import deque
from collections.abc import Callable
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol

from cardhall.games.errors import Param
from cardhall.protocol.messages import Error, ErrorCode, Left, ProtocolError, ServerMessage, State
from cardhall.protocol.peer import Carries
from cardhall.server.deltas import DeltaCoder

log = logging.getLogger("cardhall.server.ws")

#: Messages a connection may have waiting to be written before it counts as too slow.
SEND_QUEUE = 256

#: Close codes (4000–4999 are the application's; docs/protocol.md lists them).
CLOSE_NORMAL = 1000
CLOSE_POLICY = 1008  # too many refused frames in a row
CLOSE_SUPERSEDED = 4001
CLOSE_NO_HELLO = 4002  # no valid hello within limits.hello_seconds
CLOSE_TOO_SLOW = 4008
#: The connection's session ended: logged out, revoked by its owner, or ended by a
#: password change (the client must log in again; reconnecting with the token fails).
CLOSE_SESSION_ENDED = 4401
#: Seconds a registry remembers an ended session (longer than any hello takes).
ENDED_MEMORY = 60.0
CLOSE_SHUTDOWN = 1001


class ConnState(StrEnum):
    AWAITING_HELLO = "awaiting_hello"
    READY = "ready"
    CLOSED = "closed"


class TransitionError(RuntimeError):
    """A connection was asked to move from a state it is not in."""

    def __init__(self, expected: ConnState, actual: ConnState, target: ConnState) -> None:
        super().__init__(f"connection cannot go to {target}: expected state {expected}, "
                         f"actual {actual}")
        self.expected, self.actual, self.target = expected, actual, target


class Socket(Protocol):
    """What a connection needs of its WebSocket (Starlette's fits)."""

    async def send_text(self, data: str) -> None: ...
    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class TokenBucket:
    """``rate`` tokens per second, holding at most ``rate`` (one second's burst).

    The clock is injected so the limit is testable without sleeping.
    """

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.tokens = rate
        self._clock = clock
        self._at = clock()

    def take(self) -> bool:
        now = self._clock()
        self.tokens = min(self.rate, self.tokens + (now - self._at) * self.rate)
        self._at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


_ids = itertools.count(1)


class Connection:
    """One client's socket: its state, its player once authenticated, its send queue."""

    def __init__(self, socket: Socket, address: str, messages_per_second: int,
                 on_error: Callable[[str], None] | None = None,
                 on_written: Callable[[float], None] | None = None,
                 send_now: Callable[[str], bool] | None = None) -> None:
        self.id = next(_ids)
        self.socket = socket
        self.address = address
        self.state = ConnState.AWAITING_HELLO
        self.player_id: str | None = None
        self.session: str | None = None  # the public id of the session it said hello with
        #: When that session ends unless used again (``server.expiry`` closes it then).
        self.session_ends: datetime | None = None
        self.admin = False
        #: A bot account's connection (docs/bots.md): rooms may refuse its quick match.
        self.bot = False
        self.superseded = False
        #: Set by a hello with ``"deltas": true``: what its tables' states become.
        self.deltas: DeltaCoder | None = None
        self.bucket = TokenBucket(messages_per_second)
        self.refused_in_a_row = 0
        self.close_code: int | None = None
        self._out: deque[tuple[str, float]] = deque()  # (text, when queued)
        self._wake = asyncio.Event()
        self._close: tuple[int, str] | None = None
        self._on_error = on_error
        self._on_written = on_written  # told how long each message waited to be written
        self._writer: asyncio.Task[None] | None = None
        #: Writes a text at once when nothing waits before it (the edge's ``send_now``:
        #: no task to wake, no ASGI round); False when it cannot, and the writer does.
        self._send_now = send_now
        self._writing = False  # the writer is between taking a text and having written it

    def log_extra(self, **more: Any) -> dict[str, Any]:
        return {"conn": self.id, "player": self.player_id, "address": self.address, **more}

    # -- state machine -----------------------------------------------------------------

    def transition(self, expected: ConnState, target: ConnState) -> None:
        if self.state != expected:
            raise TransitionError(expected, self.state, target)
        self.state = target

    @property
    def is_open(self) -> bool:
        return self.state != ConnState.CLOSED

    # -- sending -----------------------------------------------------------------------

    def start(self) -> None:
        self._writer = asyncio.get_running_loop().create_task(
            self._write(), name=f"ws-writer-{self.id}")

    @property
    def queued(self) -> int:
        return len(self._out)

    def send(self, message: ServerMessage) -> None:
        """Queue a message; a full queue closes the connection as too slow."""
        if self.deltas is not None:  # a delta client: its states may go as deltas
            if isinstance(message, State):
                self._queue(self.deltas.encode(message))
                return
            if isinstance(message, Left):
                self.deltas.forget(message.table)
        self._queue(message.model_dump_json())

    def send_text(self, text: str, kind: Carries) -> None:
        """``send`` of a message already serialized (by another process: ``Deliver``),
        which says what it ``kind`` (what a delta connection needs to know of it)."""
        self._queue(text if self.deltas is None else self.deltas.encode_text(text, kind))

    def resync(self, table: str) -> None:
        """A delta client's ``resync``: the table's last state again, in full."""
        text = None if self.deltas is None else self.deltas.resync(table)
        if text is None:
            raise ProtocolError("unknown_table", "no state of this table was sent on this "
                                "connection with deltas on")
        self._queue(text)

    def _queue(self, text: str) -> None:
        if self._close is not None:
            return
        if len(self._out) >= SEND_QUEUE:
            log.warning("send queue full: closing a slow client", extra=self.log_extra())
            self._out.clear()
            self.close(CLOSE_TOO_SLOW, "too slow: reconnect for the full state")
            return
        if (self._send_now is not None and not self._out and not self._writing
                and self._writer is not None and self._send_now(text)):
            if self._on_written is not None:
                self._on_written(0.0)
            return
        self._out.append((text, time.perf_counter()))
        self._wake.set()

    def error(self, code: ErrorCode, message: str, readings: list[str] | None = None, *,
              reason: str | None = None, params: dict[str, Param] | None = None) -> None:
        if self._on_error is not None:
            self._on_error(code)
        self.send(Error(code=code, message=message, readings=readings, reason=reason,
                        params=params))

    def close(self, code: int, reason: str) -> None:
        """Close after what is already queued has been written; nothing more is taken."""
        if self._close is None:
            self._close = (code, reason)
            self.close_code = code
        self.state = ConnState.CLOSED
        self._wake.set()

    async def _write(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._out:
                    text, queued = self._out.popleft()
                    self._writing = True
                    await self.socket.send_text(text)
                    self._writing = False
                    if self._on_written is not None:
                        self._on_written(time.perf_counter() - queued)
                if self._close is not None:
                    code, reason = self._close
                    await self.socket.close(code, reason)
                    return
        except Exception as exc:  # the peer went away mid-write: the reader sees it too
            log.log(logging.INFO if self.player_id is not None else logging.DEBUG,
                    "write failed: %r", exc, extra=self.log_extra())

    async def finish(self) -> None:
        """After the reader ended: stop the writer (nothing more can be delivered)."""
        self.state = ConnState.CLOSED
        if self._writer is not None and not self._writer.done():
            if self._close is not None:
                try:
                    await asyncio.wait_for(asyncio.shield(self._writer), 1.0)
                except TimeoutError:
                    log.info("writer did not finish closing", extra=self.log_extra())
            self._writer.cancel()


class Registry:
    """Every live connection, and for each player the one that speaks for him.

    It is the hall's ``Outbox`` (one process), or the ``Connections`` behind the
    cluster's outbox: ``send`` puts the message on that connection's queue (or
    drops it when the player is not connected here: his next hello brings the
    state again).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.connections: set[Connection] = set()
        self.by_player: dict[str, Connection] = {}
        #: Sessions ended lately (id → when): a hello that checked its token just before
        #: the session ended, and attaches just after, is closed all the same.
        self.ended: dict[str, float] = {}
        self._clock = clock

    def send(self, player_id: str, message: ServerMessage) -> None:
        conn = self.by_player.get(player_id)
        if conn is not None:
            conn.send(message)

    def send_text(self, player_id: str, text: str, kind: Carries) -> None:
        conn = self.by_player.get(player_id)
        if conn is not None:
            conn.send_text(text, kind)

    def closed(self, player_id: str, table: str) -> None:
        """``table`` closed, the player told nothing (a watcher): his delta connection
        forgets its last state."""
        conn = self.by_player.get(player_id)
        if conn is not None and conn.deltas is not None:
            conn.deltas.forget(table)

    def holds(self, player_id: str) -> bool:
        return player_id in self.by_player

    def add(self, conn: Connection) -> None:
        self.connections.add(conn)

    def attach(self, conn: Connection, player_id: str) -> Connection | None:
        """Make ``conn`` the player's connection; the one it supersedes, if any."""
        old = self.by_player.get(player_id)
        self.by_player[player_id] = conn
        if old is not None and old is not conn:
            _supersede(old)
            return old
        return None

    def close_player(self, player_id: str, code: int, reason: str,
                     sessions: list[str] | None = None) -> bool:
        """Close the player's connection (only if it said hello with one of ``sessions``,
        when given); whether one was closed."""
        if sessions is not None:
            now = self._clock()
            for sid in [s for s, at in self.ended.items() if at < now - ENDED_MEMORY]:
                del self.ended[sid]
            self.ended.update(dict.fromkeys(sessions, now))
        conn = self.by_player.get(player_id)
        if conn is None or (sessions is not None and conn.session not in sessions):
            return False
        conn.close(code, reason)
        return True

    def due(self, now: datetime) -> list[Connection]:
        """The players' connections whose session has reached its end by ``now`` (as far
        as the connection knows: ``server.expiry`` asks the database before closing)."""
        return [c for c in self.by_player.values() if c.state == ConnState.READY
                and c.session_ends is not None and c.session_ends <= now]

    def players(self) -> dict[str, int]:
        return {p: c.id for p, c in self.by_player.items()}

    def ended_lately(self, session: str) -> bool:
        """Whether ``session`` was ended within the last ``ENDED_MEMORY`` seconds."""
        at = self.ended.get(session)
        return at is not None and at >= self._clock() - ENDED_MEMORY

    def supersede(self, player_id: str, conn: int) -> None:
        """The player connected to another process: close connection ``conn`` (4001).

        It may still be saying hello here (its presence was set, its welcome is being
        read): the other process's hello set the presence after it, so it closes now,
        before it would register; else one player would hold two live connections, one
        per process, and every per-connection bound would double."""
        old = self.by_player.get(player_id)
        if old is not None and old.id == conn:
            _supersede(old)
            return
        for hello in self.connections:
            if hello.id == conn and hello.state == ConnState.AWAITING_HELLO:
                _supersede(hello)
                return

    def remove(self, conn: Connection) -> bool:
        """Forget ``conn``; True when it was still its player's connection."""
        self.connections.discard(conn)
        if conn.player_id is not None and self.by_player.get(conn.player_id) is conn:
            del self.by_player[conn.player_id]
            return True
        return False

    def close_all(self, code: int, reason: str) -> None:
        for conn in list(self.connections):
            conn.close(code, reason)

    def queued(self) -> int:
        return sum(c.queued for c in self.connections)


def _supersede(old: Connection) -> None:
    old.superseded = True
    old.send(Error(code="superseded",
                   message="you connected again elsewhere; this connection is closed"))
    old.close(CLOSE_SUPERSEDED, "superseded")
