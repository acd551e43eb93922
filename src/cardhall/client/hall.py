"""``HallClient``: HTTP (httpx) for accounts and queries, one WebSocket for play.

Messages are plain dicts as the server sends them. A reader task puts every
server message on ``messages`` (an unbounded local queue: the *client* decides
how fast it reads) and keeps the latest ``state`` of each table in ``states``.
When the connection drops for a reason worth retrying, the client reconnects
and says hello again: the welcome and the full state of every table follow, as
after any hello. Close codes that mean "do not come back" (superseded, kicked,
policy) end the client's connection for good. Either way a local message
``{"type": "disconnected", "code", "reason", "reconnecting"}`` is queued, so a
reader waiting for messages learns of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable
from types import TracebackType
from typing import Any, Self

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from cardhall.games.deltas import apply_events, view_hash

log = logging.getLogger("cardhall.client")

Message = dict[str, Any]

#: Close codes after which reconnecting would be wrong (docs/protocol.md).
FINAL_CLOSE = frozenset({1008, 4001, 4003, 4401})
#: Errors a ``resync`` may be refused with (docs/protocol.md, "Deltas"): one that comes
#: while a resync is pending counts as its refusal (errors name no request).
RESYNC_REFUSALS = frozenset({"rate_limited", "unknown_table"})
#: Refusals of a table's resync before the client reconnects instead (its hello brings
#: every table in full); the asks in between wait RESYNC_WAIT, then twice as long...
RESYNC_TRIES = 4
RESYNC_WAIT = 0.25


def rebuild(last: Message | None, delta: Message) -> Message | None:
    """The ``state`` a ``delta`` stands for, built on ``last`` (the table's last state);
    None when it cannot be (another game or base, a patch that does not fit the view it
    holds) or its view's hash does not check: the caller asks for a ``resync``."""
    if last is None or last.get("view") is None or last.get("game") != delta["game"] \
            or last.get("seq") != delta["base"]:
        return None
    try:
        view = apply_events(last["view"], delta["events"])
        if view_hash(view) != delta["hash"]:
            return None
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        # A patch that does not fit (an ``extend`` of a key the view lacks, a ``set``
        # that is not an object...): the view held is not the server's; ask for it.
        log.info("a delta did not apply to the view held: %r", exc)
        return None
    fields = {k: v for k, v in delta.items() if k not in ("type", "base", "events", "hash")}
    fields.setdefault("players", last["players"])  # absent: as they were
    return {"type": "state", **fields, "view": view}


class ClientError(RuntimeError):
    """The hall refused something, or did not answer in time."""


class HttpError(ClientError):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message


class HallClient:
    def __init__(self, server: str, token: str | None = None, *, reconnect: bool = True,
                 timeout: float = 10.0, max_size: int = 2 << 20,
                 http: httpx.AsyncClient | None = None, deltas: bool = False) -> None:
        """``http``: an HTTP client to share (many clients of one program, e.g. a load
        test); it must have ``server`` as its base URL and is not closed by ``close``.
        ``deltas``: opt into deltas (docs/protocol.md): each ``delta`` is applied to the
        table's last state and queued as the ``state`` it rebuilds, its hash checked (a
        mismatch, or a delta on another base, asks for a ``resync``); the deltas as
        they came are kept in ``deltas_seen``."""
        self.server = server.rstrip("/")
        self.token = token
        self.player: Message | None = None
        self.reconnect = reconnect
        self.timeout = timeout
        self.max_size = max_size
        self._own_http = http is None
        self.http = http or httpx.AsyncClient(base_url=self.server, timeout=timeout)
        self.messages: asyncio.Queue[Message] = asyncio.Queue()
        self.states: dict[str, Message] = {}
        self.welcome: Message | None = None
        self.close_code: int | None = None
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._closing = False
        self.deltas = deltas
        self.deltas_seen: list[Message] = []
        self.fulls_seen: list[Message] = []  # with deltas on: the full states as they came
        self.resyncs = 0  # resyncs asked for (a rebuilt view that did not check)
        self._resyncing: set[str] = set()  # tables whose full state is on its way
        self._refusals: dict[str, int] = {}  # table → its resync's refusals so far
        self._later: set[asyncio.Task[None]] = set()  # resyncs asked again after a wait
        self.resync_wait = RESYNC_WAIT  # the first wait before a refused resync is asked again

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()

    # -- HTTP ----------------------------------------------------------------------------

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    async def request(self, method: str, path: str, body: Any = None,
                      params: dict[str, str] | None = None) -> Any:
        """JSON of a 2xx answer; HttpError with the server's code otherwise."""
        answer = await self.http.request(method, path, json=body, params=params,
                                         headers=self._headers())
        try:
            data = answer.json()
        except ValueError:
            data = None
        if answer.is_success:
            return data
        if isinstance(data, dict) and "error" in data:
            raise HttpError(answer.status_code, str(data["error"]), str(data.get("message")))
        raise HttpError(answer.status_code, "http_error", answer.text[:200])

    async def get(self, path: str, **params: str) -> Any:
        return await self.request("GET", path, params=params or None)

    async def post(self, path: str, body: Any = None) -> Any:
        return await self.request("POST", path, body)

    async def _login(self, path: str, body: Any = None) -> Message:
        data: Message = await self.post(path, body)
        self.token, self.player = data["token"], data["player"]
        return data

    async def guest(self) -> Message:
        """A new guest account; its token is used from now on."""
        return await self._login("/api/guest")

    async def register(self, name: str, password: str) -> Message:
        return await self._login("/api/register", {"name": name, "password": password})

    async def login(self, name: str, password: str) -> Message:
        return await self._login("/api/login", {"name": name, "password": password})

    async def me(self) -> Message:
        data: Message = await self.get("/api/me")
        return data

    # -- WebSocket -----------------------------------------------------------------------

    @property
    def ws_url(self) -> str:
        return self.server.replace("http", "ws", 1) + "/ws"

    async def connect(self) -> Message:
        """Open the WebSocket, say hello, and return the welcome."""
        if self.token is None:
            raise ClientError("log in (or make a guest) before connecting")
        self._closing = False
        await self._open()
        self._reader = asyncio.get_running_loop().create_task(self._read())
        while True:
            msg = await self.recv()
            if msg["type"] == "welcome":
                return msg
            if msg["type"] == "error":
                raise ClientError(f"hello refused: {msg['code']}: {msg['message']}")

    async def _open(self) -> None:
        self._ws = await connect(self.ws_url, max_size=self.max_size,
                                 open_timeout=self.timeout)
        self.close_code = None
        self._resyncing.clear()  # the hello brings every table's full state
        self._refusals.clear()
        hello: Message = {"type": "hello", "token": self.token}
        if self.deltas:
            hello["deltas"] = True
        await self._ws.send(json.dumps(hello))

    async def _read(self) -> None:
        delay = 0.1
        while True:
            ws = self._ws
            assert ws is not None
            try:
                async for raw in ws:
                    msg = json.loads(raw)
                    resync = self._take(msg)
                    if resync is not None:
                        self.resyncs += 1
                        await ws.send(json.dumps({"type": "resync", "table": resync}))
                    elif msg.get("type") == "error" and self._resyncing:
                        self._refused(ws, str(msg.get("code")))
                    delay = 0.1
            except ConnectionClosed:
                pass  # ws.close_code below says why
            code = ws.close_code
            self.close_code = code
            again = self.reconnect and not self._closing and code not in FINAL_CLOSE
            self.messages.put_nowait({"type": "disconnected", "code": code,
                                      "reason": ws.close_reason, "reconnecting": again})
            if not again:
                return
            while True:
                await asyncio.sleep(delay)  # backoff between attempts, not a wait for an event
                delay = min(delay * 2, 5.0)
                if self._closing:
                    return
                try:
                    await self._open()
                    break
                except (OSError, InvalidHandshake, TimeoutError) as exc:
                    log.info("reconnect failed: %s", exc)

    def _refused(self, ws: ClientConnection, code: str) -> None:
        """An error while resyncs are pending: if a resync can be refused with it, each
        pending table's is asked again after a wait that doubles, and after
        ``RESYNC_TRIES`` refusals the client reconnects (``drop``) rather than wait,
        its table frozen, for the next full state (up to ``full_state_every`` messages
        away). Without ``reconnect`` it waits for that state."""
        if code not in RESYNC_REFUSALS:
            return
        for table in sorted(self._resyncing):
            tries = self._refusals[table] = self._refusals.get(table, 0) + 1
            if tries >= RESYNC_TRIES:
                log.warning("resync of %s refused %d times: reconnecting", table, tries)
                if self.reconnect and ws is self._ws:
                    ws.transport.abort()
                return
            task = asyncio.get_running_loop().create_task(
                self._resync_later(ws, table, self.resync_wait * 2 ** (tries - 1)))
            self._later.add(task)
            task.add_done_callback(self._later.discard)

    async def _resync_later(self, ws: ClientConnection, table: str, wait: float) -> None:
        await asyncio.sleep(wait)  # a backoff (the refusal may be the rate limit's)
        if ws is self._ws and table in self._resyncing:
            self.resyncs += 1
            with contextlib.suppress(ConnectionClosed):  # the reader reconnects: the
                await ws.send(json.dumps({"type": "resync", "table": table}))  # hello brings it

    def _take(self, msg: Message) -> str | None:
        """Keep and queue a message; a delta that does not rebuild names its table."""
        if msg.get("type") == "delta":
            self.deltas_seen.append(msg)
            table = str(msg["table"])
            if table in self._resyncing:
                return None  # sent before the resync was read: the full state follows
            state = rebuild(self.states.get(table), msg)
            if state is None:
                self._resyncing.add(table)
                return table
            msg = state
        elif msg.get("type") == "state" and self.deltas:
            self.fulls_seen.append(msg)
            self._resyncing.discard(msg["table"])
            self._refusals.pop(msg["table"], None)
        elif msg.get("type") == "left":  # no state of it will come: nothing to wait for
            self._resyncing.discard(msg["table"])
            self._refusals.pop(msg["table"], None)
        if msg.get("type") == "state":
            self.states[msg["table"]] = msg
        elif msg.get("type") == "welcome":
            self.welcome = msg
        self.messages.put_nowait(msg)
        return None

    async def send(self, message: Message) -> None:
        await self.send_raw(json.dumps(message, ensure_ascii=False))

    async def send_raw(self, text: str | bytes) -> None:
        if self._ws is None:
            raise ClientError("not connected")
        await self._ws.send(text)

    async def recv(self, timeout: float | None = None) -> Message:
        """The next server message (ClientError when none comes in time)."""
        try:
            return await asyncio.wait_for(self.messages.get(), timeout or self.timeout)
        except TimeoutError:
            raise ClientError(f"no message within {timeout or self.timeout} s") from None

    async def expect(self, kind: str, timeout: float | None = None,
                     where: Callable[[Message], bool] | None = None, **fields: Any) -> Message:
        """The next message of type ``kind`` whose ``fields`` match (others are skipped)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + (timeout or self.timeout)
        while True:
            left = end - loop.time()
            if left <= 0:
                raise ClientError(f"no {kind} {fields or ''} within {timeout or self.timeout} s")
            msg = await self.recv(left)
            if msg.get("type") == kind and all(msg.get(k) == v for k, v in fields.items()) \
                    and (where is None or where(msg)):
                return msg

    def __aiter__(self) -> AsyncIterator[Message]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Message]:
        while True:
            yield await self.messages.get()

    def pending(self) -> list[Message]:
        """Every message already received and not yet read (without waiting)."""
        out = []
        while not self.messages.empty():
            out.append(self.messages.get_nowait())
        return out

    # -- the protocol's messages ---------------------------------------------------------

    async def join(self, room: str) -> None:
        await self.send({"type": "join", "room": room})

    async def act(self, table: str, action: str, seq: int, choose: bool = False) -> None:
        """``choose``: cards that read several legal ways are refused with their
        ``readings`` (docs/protocol.md) instead of taken as the game prefers."""
        msg: Message = {"type": "act", "table": table, "action": action, "seq": seq}
        if choose:
            msg["choose"] = True
        await self.send(msg)

    async def next(self, table: str) -> None:
        await self.send({"type": "next", "table": table})

    async def leave(self, table: str | None = None, room: str | None = None) -> None:
        msg: Message = {"type": "leave"}
        if table is not None:
            msg["table"] = table
        if room is not None:
            msg["room"] = room
        await self.send(msg)

    async def watch(self, table: str) -> None:
        await self.send({"type": "watch", "table": table})

    async def chat(self, table: str, say: str) -> None:
        """Say a quick-chat id (``protocol.chat``) at ``table``."""
        await self.send({"type": "chat", "table": table, "say": say})

    async def mute(self, table: str, seat: int, on: bool = True) -> None:
        await self.send({"type": "mute", "table": table, "seat": seat, "on": on})

    async def ping(self) -> None:
        await self.send({"type": "ping"})

    # -- the end -------------------------------------------------------------------------

    async def disconnect(self) -> None:
        """Close the WebSocket (no reconnect) and wait for the reader to stop."""
        self._closing = True
        for task in list(self._later):
            task.cancel()
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            self._reader.cancel()  # it may be waiting to reconnect to a hall that is gone
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
            self._reader = None

    async def drop(self) -> None:
        """Break the connection as a network fault would (the client reconnects)."""
        if self._ws is not None:
            self._ws.transport.abort()

    async def close(self) -> None:
        await self.disconnect()
        if self._own_http:
            await self.http.aclose()
