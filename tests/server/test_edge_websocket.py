"""A WebSocket reads a few small messages ahead of the hall, and pauses at once for a
large one (``edge.READ_AHEAD``): bounded memory without two ``epoll_ctl`` per message.
And the hall may write a text at once through the scope (``edge.SEND_NOW``).

A real uvicorn server with the edge's protocols and a real client; the app does not
read until the test lets it, so what the connection holds meanwhile is the edge's."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from websockets.asyncio.client import connect

from cardhall.hall.domain.config import Limits
from cardhall.server import edge
from tests.server import in_process


@dataclass
class Rig:
    url: str
    release: asyncio.Event = field(default_factory=asyncio.Event)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    got: list[str] = field(default_factory=list)
    all_got: asyncio.Event = field(default_factory=asyncio.Event)
    want: int = 0
    protocols: list[Any] = field(default_factory=list)
    extensions: dict[str, Any] = field(default_factory=dict)

    @property
    def ws(self) -> Any:
        return self.protocols[-1]

    async def next_arrival(self) -> None:
        await asyncio.wait_for(self.arrived.wait(), 10)
        self.arrived.clear()


@pytest.fixture
async def rig() -> AsyncIterator[Rig]:
    r = Rig(url="")

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                await send({"type": message["type"] + ".complete"})
                if message["type"] == "lifespan.shutdown":
                    return
        await receive()  # websocket.connect
        r.extensions = scope["extensions"]
        await send({"type": "websocket.accept"})
        await r.release.wait()
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                return
            r.got.append(message["text"])
            if len(r.got) == r.want:
                r.all_got.set()

    config, _ = edge.uvicorn_config(app, "127.0.0.1", 0, Limits(), 1 << 16)
    ws_class = config.ws

    class Watched(ws_class):  # type: ignore[valid-type,misc]
        """The edge's protocol, telling the test each message it queued."""

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            r.protocols.append(self)

        def send_receive_event_to_app(self) -> None:
            super().send_receive_event_to_app()
            r.arrived.set()

    config.ws = Watched
    async with in_process.serving(config) as port:
        r.url = f"ws://127.0.0.1:{port}/"
        yield r


async def test_small_messages_are_read_ahead_then_reading_pauses(rig: Rig) -> None:
    async with connect(rig.url) as client:
        for i in range(1, edge.READ_AHEAD):
            await client.send(f"m{i}")
            await rig.next_arrival()
            assert rig.ws.queue.qsize() == i
            assert not rig.ws.read_paused  # still reading: no pause per message
        await client.send(f"m{edge.READ_AHEAD}")
        await rig.next_arrival()
        assert rig.ws.read_paused  # READ_AHEAD waiting: the socket is left in the kernel
        rig.want = edge.READ_AHEAD + 3
        for i in range(edge.READ_AHEAD + 1, rig.want + 1):
            await client.send(f"m{i}")
        rig.release.set()  # the app reads: the queue empties, reading resumes
        await asyncio.wait_for(rig.all_got.wait(), 10)
        assert rig.got == [f"m{i}" for i in range(1, rig.want + 1)]  # none lost, in order
        assert not rig.ws.read_paused


async def test_a_large_message_pauses_reading_at_once(rig: Rig) -> None:
    async with connect(rig.url) as client:
        await client.send("x" * (edge.READ_AHEAD_BYTES + 1))
        await rig.next_arrival()
        assert rig.ws.queue.qsize() == 1
        assert rig.ws.read_paused
        rig.want = 2
        await client.send("after")
        rig.release.set()
        await asyncio.wait_for(rig.all_got.wait(), 10)
        assert rig.got == ["x" * (edge.READ_AHEAD_BYTES + 1), "after"]


async def test_the_app_may_write_a_text_at_once_through_the_scope(rig: Rig) -> None:
    async with connect(rig.url) as client:
        await client.send("m1")
        await rig.next_arrival()  # accepted (the app's accept came before)
        send_now = rig.extensions[edge.SEND_NOW]["send_text"]
        assert send_now("straight to the socket")
        assert await asyncio.wait_for(client.recv(), 10) == "straight to the socket"
        await client.close()  # done once the hall answered the close
        assert not send_now("too late")  # nothing written on a closing connection


async def test_writing_at_once_stops_when_the_peer_does_not_read(rig: Rig) -> None:
    """A peer that reads nothing fills the kernel's buffers, then the transport's: past
    its high-water mark ``send_now`` refuses, and the connection's bounded queue takes
    over (``server.connection``), as uvicorn's own send would wait."""
    async with connect(rig.url, max_queue=1) as client:
        await client.send("m1")
        await rig.next_arrival()
        send_now = rig.extensions[edge.SEND_NOW]["send_text"]
        chunk = secrets.token_urlsafe(48 * 1024)  # 64 KiB that deflate cannot shrink much
        sent = 0
        while send_now(chunk):
            sent += len(chunk)
            assert sent < 256 * 1024 * 1024, "the transport never said it was full"
        assert not rig.ws.writable.is_set()
        assert rig.ws.transport.get_write_buffer_size() < sent
