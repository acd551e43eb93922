"""The connection edge: what a socket may hold of the hall before it has said anything.

An idle socket costs the hall a file descriptor and memory and costs its sender
nothing, so the edge bounds every connection before the application sees it:

- **caps**: at most ``connections_per_address`` open connections per peer address and
  ``connections_total`` in all, HTTP keep-alive and WebSocket alike (counted at the
  transport, ``Gate``). A connection over a cap is answered once its request head
  arrives, ``429 too_many_connections`` (its address) or ``503 hall_full`` (all), with
  ``Connection: close``; likewise a connection past ``connects_per_minute`` new ones from
  its address (``429 too_many_connects``). Past ``ANSWERS_PER_SECOND`` refusals, or
  ``REFUSING`` pending, a refused connection is dropped at once, unanswered: when that is
  known as it is accepted, before it costs a transport (``Screen``).
- **a header deadline**: a request head (a WebSocket's handshake too) must arrive whole
  within ``header_seconds`` of the connection's start or of the previous response;
  uvicorn times out only idle keep-alive connections, not a head sent a byte at a time.
- **the file limit**: ``raise_file_limit`` lifts the soft RLIMIT_NOFILE to the hard one
  at start and ``total_cap`` keeps the total cap ``RESERVED_FILES + REFUSING`` below it
  (half of a low limit), so the process never meets "Too many open files".
- **the rate of new connections**: ``CONNECT_BURST`` at once per address, then
  ``connects_per_minute``; a WebSocket closed for no hello costs its address
  ``NO_HELLO_COST`` more (ws.py calls ``Gate.penalize``).

The hello deadline (ws.py) and the body's streaming cap (api.py) bound what comes
after. ``uvicorn_config`` sets uvicorn's own bounds, each explained there.
"""

from __future__ import annotations

import _socket
import asyncio
import errno
import ipaddress
import json
import logging
import os
import resource
import socket
import struct
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState

from cardhall.hall.domain.config import Limits
from cardhall.protocol.messages import MAX_MESSAGE_BYTES

log = logging.getLogger("cardhall.server.edge")

#: File descriptors kept out of the connection cap: the database, the log, the bot
#: workers' pipes, the listening socket, and connections being refused.
RESERVED_FILES = 512
#: Refused connections waiting for their request head to be answered; past it a refused
#: connection is dropped without an answer (a flood gets no courtesy).
REFUSING = 256
#: New connections one address may open at once (its bucket's size; a page load opens
#: about seven); after them, ``connects_per_minute``.
CONNECT_BURST = 20
#: What a WebSocket closed for no hello costs its address, in new connections: an idle
#: flood that reconnects as fast as it is closed slows itself six times. The cost may
#: run the address's bucket into debt, down to a minute of its rate (``NO_HELLO_DEBT``):
#: a flood that keeps the bucket empty would otherwise pay nothing for its idle sockets.
NO_HELLO_COST = 5.0
#: How far below empty the no-hello cost may take a bucket, in minutes of its rate.
NO_HELLO_DEBT = 1.0
#: Refused connections answered per second at most; past it they are dropped unanswered
#: (answering costs the hall a request cycle, dropping only the accept).
ANSWERS_PER_SECOND = 20
#: Seconds a refused connection's head may take before it is dropped unanswered.
REFUSED_SECONDS = 2.0
#: Connections the kernel queues before the hall accepts them (``listen``'s backlog).
LISTEN_BACKLOG = 2048
#: Messages a WebSocket may have read and not yet taken by the hall before its reading
#: pauses. uvicorn pauses after every message and resumes when it is taken: two
#: ``epoll_ctl`` calls and their bookkeeping per message, about 5% of the loop's time
#: at 1,000 clients. Reading goes on while fewer than this many small messages (at most
#: ``READ_AHEAD_BYTES``, as the game's are) wait; a larger one pauses it at once, as
#: uvicorn does, so a connection's most stays about one ``MAX_MESSAGE_BYTES`` message.
READ_AHEAD = 4
READ_AHEAD_BYTES = 4096
#: The ASGI scope extension through which a WebSocket's connection writes a message at
#: once (``EdgeWebSocket.send_now``).
SEND_NOW = "cardhall.send_now"
#: Connections accepted per turn of the event loop at most. asyncio accepts up to its
#: ``backlog`` argument in one callback and runs every accepted connection's setup before
#: it reads any socket again: with 2048, a reconnecting flood queued behind one GC pause
#: was accepted in one batch that stopped the loop for a second (benchmarks/abuse_bench.py).
#: ``widen_backlog`` gives the kernel its longer queue back.
ACCEPT_BATCH = 16
#: Peer addresses whose trust (``Gate.is_trusted``) is remembered; past it the memory is
#: emptied and filled again.
TRUST_CACHE = 4096

Address = ipaddress.IPv4Network | ipaddress.IPv6Network


class _Socket(Protocol):
    """A listening socket as asyncio hands it out (``asyncio.trsock.TransportSocket``)."""

    @property
    def family(self) -> int: ...
    @property
    def type(self) -> int: ...
    def fileno(self) -> int: ...


def raise_file_limit() -> int:
    """Lift this process's soft RLIMIT_NOFILE to its hard limit; the soft limit after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError) as exc:  # a container may forbid it: keep the soft one
            log.warning("could not raise the open-file limit: %s", exc,
                        extra={"event": "nofile", "soft": soft, "hard": hard})
    return soft


def total_cap(configured: int, files: int) -> int:
    """The total connection cap the process can keep: ``configured``, lowered to leave
    ``RESERVED_FILES + REFUSING`` of the ``files`` it may open (half of them, when the
    limit is that low).

    >>> total_cap(10_000, 1 << 20), total_cap(10_000, 4096), total_cap(10_000, 400)
    (10000, 3328, 200)
    """
    return max(1, min(configured, files - min(RESERVED_FILES + REFUSING, files // 2)))


class Gate:
    """Open connections per peer address and in all, and new connections per address
    per minute (a token bucket holding ``CONNECT_BURST``, refilled at
    ``connects_per_minute``), counted at the transport. The clock is injected.

    The rate is what bounds a flood that reconnects as fast as the hall closes it:
    without it, sockets closed by the hello deadline come straight back, and each
    handshake costs the hall a millisecond.
    """

    def __init__(self, per_address: int, total: int, connects_per_minute: int = 1 << 30,
                 trusted: Iterable[str] = (), refusing: int = REFUSING,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_address = per_address
        self.total = total
        self.connects_per_minute = connects_per_minute
        self.trusted: tuple[Address, ...] = tuple(
            ipaddress.ip_network(t, strict=False) for t in trusted)
        self.open: dict[object, str] = {}  # transport -> peer address
        self.by_address: dict[str, int] = {}
        self.refusing = 0  # refused connections waiting for their answer
        self.refusing_max = refusing
        #: Connections refused since the start, by (code, "kept" or "dropped"): kept open
        #: for their answer (sent once the head arrives; closed unanswered after
        #: REFUSED_SECONDS without one), or dropped at once. The hall's /metrics
        #: (cardhall_edge_refused_total).
        self.refused: dict[tuple[str, str], int] = {}
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)
        self._answers = (float(ANSWERS_PER_SECOND), clock())
        self._swept = clock()
        self._trust: dict[str, bool] = {}  # address -> trusted, cached (TRUST_CACHE)

    def is_trusted(self, address: str) -> bool:
        """Whether ``address`` is a trusted proxy's. Asked of every new connection, so
        the answer is remembered: parsing an address costs more than the rest of the
        gate's checks together (benchmarks/abuse_bench.py --profile)."""
        if not self.trusted:
            return False
        known = self._trust.get(address)
        if known is None:
            if len(self._trust) >= TRUST_CACHE:
                self._trust.clear()
            try:
                ip = ipaddress.ip_address(address)
                known = any(ip in net for net in self.trusted)
            except ValueError:
                known = False
            self._trust[address] = known
        return known

    def refusal(self, address: str, take: bool = True) -> tuple[int, str, str] | None:
        """The refusal (status, code, sentence) a new connection from ``address`` gets
        now, or None: it may come in, and (``take``) it takes a token of its address's
        rate; without ``take`` the gate is only asked."""
        if len(self.open) >= self.total:
            return (503, "hall_full", f"the hall holds {self.total} connections, its most: "
                    "try again in a minute")
        # A trusted proxy speaks for many clients: it counts in the total only.
        if not self.is_trusted(address):
            if self.by_address.get(address, 0) >= self.per_address:
                return (429, "too_many_connections", f"at most {self.per_address} open "
                        "connections from one address: close some and try again")
            if not self._connect(address, take):
                return (429, "too_many_connects", f"at most {self.connects_per_minute} new "
                        "connections a minute from one address: try again in a minute")
        return None

    def admit(self, transport: object, address: str) -> tuple[int, str, str] | None:
        """Count the connection, or the refusal (status, code, sentence) it gets."""
        refusal = self.refusal(address)
        if refusal is None:
            self.open[transport] = address
            self.by_address[address] = self.by_address.get(address, 0) + 1
        return refusal

    def screen(self, address: str) -> bool:
        """Whether a connection just accepted from ``address`` is worth a transport and a
        protocol: not when the gate would refuse it and could not answer it (``Screen``
        then closes it at once, counted as dropped). Nothing is taken: ``admit`` decides
        again once the connection is made."""
        refusal = self.refusal(address, take=False)
        if refusal is None or self._answerable()[0]:
            return True
        self.count(refusal[1], "dropped")
        return False

    def count(self, code: str, fate: str) -> None:
        """One more connection refused with ``code``, ``fate`` "kept" or "dropped"."""
        self.refused[code, fate] = self.refused.get((code, fate), 0) + 1

    def may_answer(self) -> bool:
        """Whether a refused connection gets its answer (at most ``ANSWERS_PER_SECOND``
        and ``REFUSING`` at once), or is dropped: a flood gets no courtesy."""
        answerable, tokens, now = self._answerable()
        self._answers = (tokens - 1 if answerable else tokens, now)
        return answerable

    def _answerable(self) -> tuple[bool, float, float]:
        """Whether an answer may be given now; the answer bucket's tokens and the time."""
        now = self._clock()
        tokens, at = self._answers
        tokens = min(float(ANSWERS_PER_SECOND), tokens + (now - at) * ANSWERS_PER_SECOND)
        return self.refusing < self.refusing_max and tokens >= 1, tokens, now

    def penalize(self, address: str, tokens: float = NO_HELLO_COST) -> None:
        """Take ``tokens`` more from the address's bucket (into debt, down to
        ``NO_HELLO_DEBT`` minutes of its rate): its WebSocket was closed for saying no
        hello, so its next connections come slower, however fast it reconnects."""
        if self.is_trusted(address):
            return
        now = self._clock()
        full = float(min(self.connects_per_minute, CONNECT_BURST))
        left, at = self._buckets.get(address, (full, now))
        left = min(full, left + (now - at) * self.connects_per_minute / 60.0)
        floor = -NO_HELLO_DEBT * self.connects_per_minute
        self._buckets[address] = (max(floor, left - tokens), now)

    def _connect(self, address: str, take: bool = True) -> bool:
        now = self._clock()
        self._sweep(now)
        full = float(min(self.connects_per_minute, CONNECT_BURST))
        tokens, at = self._buckets.get(address, (full, now))
        tokens = min(full, tokens + (now - at) * self.connects_per_minute / 60.0)
        if tokens < 1:
            self._buckets[address] = (tokens, now)
            return False
        if take:
            self._buckets[address] = (tokens - 1, now)
        return True

    def _sweep(self, now: float) -> None:
        """Forget the buckets full again (at most once a minute): memory stays bounded by
        the addresses seen in the last minute or two (a bucket in debt takes longer)."""
        if now - self._swept < 60.0:
            return
        self._swept = now
        full = float(min(self.connects_per_minute, CONNECT_BURST))
        rate = self.connects_per_minute / 60.0
        for address in [a for a, (left, at) in self._buckets.items()
                        if left + (now - at) * rate >= full]:
            del self._buckets[address]

    def release(self, transport: object) -> None:
        """Forget a connection (idempotent: the HTTP and WebSocket protocols both call it)."""
        address = self.open.pop(transport, None)
        if address is None:
            return
        left = self.by_address[address] - 1
        if left:
            self.by_address[address] = left
        else:
            del self.by_address[address]


def unlink(transport: object) -> None:
    """Break the cycle a closed asyncio socket transport keeps with itself.

    ``_SelectorSocketTransport`` holds its read callback as a bound method of itself
    (CPython 3.11–3.13), so a closed one is freed only by the cyclic collector, not when
    its last reference goes. Under a flood of short connections that made the collector
    the hall's biggest cost: 58 000 dead transports (with their sockets) in 77 young
    collections, up to 0.1 s of CPU each (benchmarks/abuse_bench.py). Called once the
    connection is lost, when the callback can never run again.
    """
    if getattr(transport, "_read_ready_cb", None) is not None:
        transport._read_ready_cb = None  # type: ignore[attr-defined]


def _refusal_app(status: int, code: str, message: str) -> Any:
    """An ASGI app that answers every request with this refusal and closes."""
    body = json.dumps({"error": code, "message": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"connection", b"close"),
               (b"content-length", str(len(body)).encode())]
    if status == 503:
        headers.append((b"retry-after", b"60"))

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
    return app


def _timeout_response(seconds: float) -> bytes:
    body = json.dumps({"error": "request_timeout", "message": "the request head did not "
                       f"arrive whole within {seconds:g} s"}).encode()
    return (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
            b"connection: close\r\ncontent-length: " + str(len(body)).encode()
            + b"\r\n\r\n" + body)


def protocols(gate: Gate, header_seconds: float) -> tuple[type[H11Protocol],
                                                          type[WebSocketsSansIOProtocol]]:
    """uvicorn's HTTP and WebSocket protocols with the gate and the header deadline.

    Every connection starts as HTTP (``EdgeHTTP.connection_made`` counts it); a
    WebSocket upgrade hands the transport to ``EdgeWebSocket``, whose
    ``connection_lost`` releases it instead.
    """

    class EdgeHTTP(H11Protocol):
        _refused = False
        _head: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = self.client[0] if self.client else "?"
            refusal = gate.admit(transport, address)
            if refusal is None:
                self._arm(header_seconds)
                return
            if not gate.may_answer():
                gate.count(refusal[1], "dropped")
                transport.abort()
                return
            gate.count(refusal[1], "kept")
            self._refused = True
            gate.refusing += 1
            # Answered once its head arrives: a reply to an unread request would be lost
            # to the reset that closing over it sends.
            self.app = _refusal_app(*refusal)
            log.warning("refused a connection: %s", refusal[1],
                        extra={"event": "refused", "code": refusal[1], "address": address})
            self._arm(min(header_seconds, REFUSED_SECONDS))

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self._refused:
                self._refused = False
                gate.refusing -= 1
            gate.release(self.transport)
            super().connection_lost(exc)
            unlink(self.transport)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:
                self._disarm()  # the head is whole (or refused as malformed)

        def _should_upgrade(self) -> bool:
            return not self._refused and super()._should_upgrade()

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._disarm()
            super().handle_websocket_upgrade(event)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
                self._arm(header_seconds)  # the next request's head, on a kept-alive socket

        def _arm(self, seconds: float) -> None:
            self._disarm()
            self._head = self.loop.call_later(seconds, self._head_late, seconds)

        def _disarm(self) -> None:
            if self._head is not None:
                self._head.cancel()
                self._head = None

        def _head_late(self, seconds: float) -> None:
            self._head = None
            if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
                return
            if not self._refused:
                self.transport.write(_timeout_response(seconds))
            self.transport.close()

    class EdgeWebSocket(WebSocketsSansIOProtocol):
        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            if getattr(self, "scope", None) is not None:  # not refused: the app runs
                self.scope["extensions"][SEND_NOW] = {"send_text": self.send_now}

        def send_now(self, text: str) -> bool:
            """What uvicorn's ``websocket.send`` does with a text, called directly: the
            ASGI way is a coroutine through every middleware, and a writer task woken
            to run it, for each message (``server.connection``). False, having sent
            nothing, when uvicorn's would not send at once: not accepted, closing, or
            the peer not reading (the transport's buffer past its high-water mark:
            uvicorn's send waits, and so the connection's bounded queue fills)."""
            if (not self.handshake_complete or self.close_sent or self.disconnected
                    or not self.writable.is_set()
                    or self.initial_response is not None or self.transport.is_closing()):
                return False
            try:
                self.conn.send_text(text.encode())
            except InvalidState:
                return False
            self.transport.write(b"".join(self.conn.data_to_send()))
            return True

        def send_receive_event_to_app(self) -> None:
            # uvicorn's queues the message and pauses reading; this pauses only at
            # READ_AHEAD queued or a large message (``receive`` resumes once the queue
            # is empty, as before).
            size = sum(len(frame) for frame in self.frames)
            paused = self.read_paused
            self.read_paused = True
            try:
                super().send_receive_event_to_app()
            finally:
                self.read_paused = paused
            if not paused and (size > READ_AHEAD_BYTES or self.queue.qsize() >= READ_AHEAD):
                self.read_paused = True
                self.transport.pause_reading()

        def connection_lost(self, exc: Exception | None) -> None:
            gate.release(self.transport)
            super().connection_lost(exc)
            unlink(self.transport)

    return EdgeHTTP, EdgeWebSocket


#: SO_LINGER on, 0 s: ``close`` resets the connection instead of ending it.
_RESET = struct.pack("ii", 1, 0)


class Screen:
    """The accepts of the hall's listening socket, in place of asyncio's.

    asyncio gives every accepted connection a task, a transport (registered with the
    selector) and a protocol before anything may look at it, and refusing it then costs
    their teardown too. Under a reconnecting flood most new connections are refused and
    dropped unanswered (past ``ANSWERS_PER_SECOND``): that path was most of what the
    flood cost the hall's loop (benchmarks/abuse_bench.py --profile). The screen asks
    the gate first, by the address ``accept`` gives (``Gate.screen``), and resets those
    at once; the others go to the loop as asyncio's would (``connect_accepted_socket``),
    where the protocol counts them (``Gate.admit``). At most ``batch`` per turn of the
    loop, like asyncio's backlog argument (``ACCEPT_BATCH``).

    And at most ``rate`` a second from everyone (``[limits] accepts_per_second``, as
    HAProxy's ``rate-limit sessions``): past it the screen stops listening until the
    budget allows the next, and the kernel's queue holds the rest (dropping what
    overflows it; a client's SYN is tried again). Dropping a connection costs little,
    but a flood of thousands a second came to the loop in bursts of a hundred
    callbacks, and the players' actions queued behind them (benchmarks/abuse_bench.py:
    p99 6–19 ms against 3.3–4.2 quiet; with a budget of 1,000 a second, 4.4–5.1 ms).
    """

    def __init__(self, sock: socket.socket, server: asyncio.AbstractServer, gate: Gate,
                 factory: Callable[[], asyncio.BaseProtocol],
                 batch: int = ACCEPT_BATCH, rate: float = 1_000.0,
                 clock: Callable[[], float] | None = None) -> None:
        self.sock, self.server, self.gate, self.factory = sock, server, gate, factory
        self.batch, self.rate = batch, rate
        #: The accepted connections' family, type and protocol, as plain ints (asked once).
        self.kind = (int(sock.family), int(sock.type), sock.proto)
        self.loop = asyncio.get_running_loop()
        #: The budget's clock (the loop's; a test's hand).
        self.clock = clock or self.loop.time
        #: Accepts the budget allows now (a second's worth at most), as of ``_at``.
        self._budget, self._at = rate, self.clock()
        self._making: set[asyncio.Task[None]] = set()
        self._listen()

    def _listen(self) -> None:
        if self.server.is_serving():  # closed meanwhile: its socket is gone
            # One reader per descriptor: this one replaces asyncio's.
            self.loop.add_reader(self.sock.fileno(), self._accept)

    def _accept(self) -> None:
        now = self.clock()
        self._budget = min(self.rate, self._budget + (now - self._at) * self.rate)
        self._at = now
        for _ in range(self.batch):
            if self._budget < 1:  # listen again when the next accept is allowed
                self.loop.remove_reader(self.sock.fileno())
                self.loop.call_later((1 - self._budget) / self.rate, self._listen)
                return
            try:
                # The descriptor alone: ``socket.accept`` would wrap every connection in a
                # socket object, asking the listening socket's family and type as enums
                # each time, before the screen could drop it (half the cost of a drop).
                fd, peer = self.sock._accept()  # type: ignore[attr-defined]
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return  # nothing more queued
            except OSError as exc:
                if exc.errno not in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    raise  # the loop logs it, as it would asyncio's
                # Out of files or memory: the kernel keeps the queue, and the socket
                # stays readable; look again in a second, as asyncio does.
                log.warning("could not accept a connection: %s", exc,
                            extra={"event": "accept", "errno": exc.errno})
                self.loop.remove_reader(self.sock.fileno())
                self.loop.call_later(1.0, self._listen)
                return
            self._budget -= 1
            try:
                admitted = self.gate.screen(peer[0] if isinstance(peer, tuple) else "?")
            except BaseException:
                os.close(fd)  # the bare descriptor has no owner yet: never leave it open
                raise
            if not admitted:
                dropped = _socket.socket(self.kind[0], self.kind[1], self.kind[2], fd)
                try:  # a reset: no answer, and no TIME_WAIT kept by the hall
                    dropped.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _RESET)
                finally:
                    dropped.close()
                continue
            conn = socket.socket(*self.kind, fileno=fd)
            conn.setblocking(False)
            task = self.loop.create_task(self._make(conn))
            self._making.add(task)
            task.add_done_callback(self._making.discard)

    async def _make(self, conn: socket.socket) -> None:
        try:
            await self.loop.connect_accepted_socket(self.factory, conn)
        except OSError:  # gone before its transport was made
            conn.close()


def widen_backlog(sockets: Iterable[_Socket], backlog: int = LISTEN_BACKLOG) -> None:
    """Let the kernel queue ``backlog`` pending connections on each listening socket while
    asyncio still accepts at most ``ACCEPT_BATCH`` per turn (``listen`` again on a
    listening socket only changes its queue's length; asyncio hands out its sockets
    wrapped without ``listen``, so a duplicate of the descriptor is told)."""
    for sock in sockets:
        with socket.socket(sock.family, sock.type, fileno=os.dup(sock.fileno())) as dup:
            dup.listen(backlog)


def uvicorn_config(app: Any, host: str, port: int, limits: Limits,
                   files: int) -> tuple[uvicorn.Config, Gate]:
    """uvicorn's settings for the hall, each bound chosen here and why."""
    total = total_cap(limits.connections_total, files)
    if total < limits.connections_total:
        log.warning("connections_total lowered to %d to stay under the open-file limit (%d)",
                    total, files, extra={"event": "nofile", "files": files})
    # Refusals waiting for their answer hold files too: a third of what the cap leaves.
    gate = Gate(limits.connections_per_address, total, limits.connects_per_minute,
                limits.trusted_proxies, refusing=max(1, min(REFUSING, (files - total) // 3)))
    http, ws = protocols(gate, limits.header_seconds)
    config = uvicorn.Config(
        app, host=host, port=port, workers=1, http=http, ws=ws, log_config=None,
        lifespan="on",
        # Frames up to 1 MiB must reach the protocol (and get an error); larger ones are
        # closed by uvicorn (1009). The protocol pauses the socket at such a message until
        # the app takes it (READ_AHEAD), so this is also about a connection's most.
        ws_max_size=MAX_MESSAGE_BYTES + 64 * 1024,
        # A peer that vanished without a FIN (a pulled cable, a sleeping phone) is found
        # within 20 + 20 s: its slot is freed and his seat goes on 托管.
        ws_ping_interval=20.0, ws_ping_timeout=20.0,
        # Only X-Forwarded-For from a configured proxy names the client; uvicorn's
        # default trusts loopback, which let any local peer pick its own address.
        proxy_headers=bool(limits.trusted_proxies),
        forwarded_allow_ips=list(limits.trusted_proxies),
        # An idle kept-alive connection is closed after 5 s (a browser opens another
        # when it needs one); a head begun on it must still finish in header_seconds.
        timeout_keep_alive=5,
        # A backstop on in-flight requests and sockets, above the gate's caps so it never
        # refuses first: uvicorn answers 503 past it.
        limit_concurrency=total + gate.refusing_max + 64,
        # A request head (line + headers) of at most 16 KiB (h11's default, said here):
        # what one connection can make the server buffer before its request is read.
        h11_max_incomplete_event_size=16 * 1024,
        # Connections accepted per turn of the loop (asyncio takes its accept batch from
        # the backlog); the kernel's queue is widened to LISTEN_BACKLOG once listening.
        backlog=ACCEPT_BATCH,
        # A shutdown waits at most this long for requests in flight.
        timeout_graceful_shutdown=10,
        # No "server: uvicorn": nothing to fingerprint.
        server_header=False)
    return config, gate
