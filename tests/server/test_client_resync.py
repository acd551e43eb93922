"""``HallClient(deltas=True)`` when a delta does not apply and its resync is refused
(docs/protocol.md, "Deltas"): it asks again after a wait, and after ``RESYNC_TRIES``
refusals it reconnects, whose hello brings the table in full: never a table frozen
until the next full state, never a reader that dies on a patch that does not fit.

The hall on the other end is scripted (a WebSocket server in the test): the real one
cannot be made to refuse a resync on cue (its rate limit is a clock's), and what is
tested is the client's answer to each refusal.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from cardhall.client import HallClient
from cardhall.client.hall import RESYNC_TRIES, rebuild
from cardhall.games.deltas import view_hash

Message = dict[str, Any]
WELCOME: Message = {"type": "welcome", "player": {"id": "p"}, "tables": []}


def state(seq: int, view: Message) -> Message:
    return {"type": "state", "table": "t", "room": "r", "game": "g", "seq": seq, "seat": 0,
            "view": view, "players": [], "deadline": None}


def delta(base: int, seq: int, event: Message, view: Message) -> Message:
    return {"type": "delta", "table": "t", "room": "r", "game": "g", "base": base,
            "seq": seq, "seat": 0, "events": [event], "hash": view_hash(view),
            "deadline": None}


class Script:
    """The hall's part: what each connection received, and a queue per connection of
    the frames it got (the test answers them)."""

    def __init__(self) -> None:
        self.connections: asyncio.Queue[tuple[ServerConnection, asyncio.Queue[Message]]] = \
            asyncio.Queue()

    async def handler(self, ws: ServerConnection) -> None:
        got: asyncio.Queue[Message] = asyncio.Queue()
        await self.connections.put((ws, got))
        with contextlib.suppress(ConnectionClosed):  # the client broke it: it reconnects
            async for raw in ws:
                await got.put(json.loads(raw))


@asynccontextmanager
async def scripted() -> AsyncIterator[tuple[Script, str]]:
    script = Script()
    async with serve(script.handler, "127.0.0.1", 0) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        yield script, f"http://127.0.0.1:{port}"


async def test_a_refused_resync_is_asked_again_then_the_client_reconnects() -> None:
    async with asyncio.timeout(30), scripted() as (script, url):  # a failure, not a hang
        client = HallClient(url, token="tok", deltas=True, timeout=10)
        client.resync_wait = 0.01
        try:
            connecting = asyncio.create_task(client.connect())
            ws, got = await script.connections.get()
            assert (await got.get())["deltas"] is True
            await ws.send(json.dumps(WELCOME))
            await connecting
            await ws.send(json.dumps(state(0, {"a": 1})))
            # A patch that does not fit the view held (an extend of a key it lacks):
            # not an exception in the reader but a resync.
            await ws.send(json.dumps(delta(0, 1, {"type": "view", "extend": {"log": [1]}},
                                           {"a": 1, "log": [1]})))
            assert await got.get() == {"type": "resync", "table": "t"}
            await ws.send(json.dumps({"type": "error", "code": "rate_limited", "message": "-"}))
            assert await got.get() == {"type": "resync", "table": "t"}  # asked again
            await ws.send(json.dumps(state(1, {"a": 1, "log": [1]})))  # the answer
            await ws.send(json.dumps(delta(1, 2, {"type": "view", "set": {"a": 2}},
                                           {"a": 2, "log": [1]})))
            rebuilt = await client.expect("state", where=lambda m: m["seq"] == 2)
            assert rebuilt["view"] == {"a": 2, "log": [1]}  # deltas go on from it
            # Another one that does not rebuild, its resync refused every time.
            await ws.send(json.dumps(delta(2, 3, {"type": "view", "set": {"a": 3}},
                                           {"a": 4})))
            for refused in ("unknown_table", *["rate_limited"] * (RESYNC_TRIES - 1)):
                assert await got.get() == {"type": "resync", "table": "t"}
                await ws.send(json.dumps({"type": "error", "code": refused, "message": "-"}))
            # ... so it reconnects, and the hello brings the table in full.
            gone = await client.expect("disconnected")
            assert gone["reconnecting"] is True
            ws2, got2 = await script.connections.get()
            assert (await got2.get())["type"] == "hello"
            await ws2.send(json.dumps(WELCOME))
            await ws2.send(json.dumps(state(3, {"a": 3})))
            assert (await client.expect("state"))["seq"] == 3
            assert client.states["t"]["view"] == {"a": 3}
            assert client.resyncs == 1 + 1 + RESYNC_TRIES
            assert got.empty()  # nothing asked after the last refusal
        finally:
            await client.close()


def test_a_patch_that_does_not_fit_the_view_held_is_no_rebuild() -> None:
    last = state(0, {"a": 1, "b": [1]})
    for event in ({"type": "view", "extend": {"log": [1]}},  # a key the view lacks
                  {"type": "view", "extend": {"a": [1]}},  # not a list
                  {"type": "view", "set": [1]}):  # not an object
        assert rebuild(last, delta(0, 1, event, {"a": 1})) is None
    fits = {"type": "view", "extend": {"b": [2]}}
    assert rebuild(last, delta(0, 1, fits, {"a": 1, "b": [1, 2]})) == {
        **state(1, {"a": 1, "b": [1, 2]})}
