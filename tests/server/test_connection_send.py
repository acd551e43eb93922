"""A connection writes a message at once when nothing waits before it (the edge's
``send_now``) and through its writer task otherwise, in the order queued either way."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from cardhall.protocol.messages import Error
from cardhall.server.connection import CLOSE_TOO_SLOW, SEND_QUEUE, Connection


class Held:
    """A socket whose writes wait until the test lets them go."""

    def __init__(self) -> None:
        self.written: list[str] = []
        self.go = asyncio.Event()
        self.waiting = asyncio.Event()

    async def send_text(self, data: str) -> None:
        self.waiting.set()
        await self.go.wait()
        self.written.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        return None


class Now:
    """The edge's ``send_now``: it writes while ``open``."""

    def __init__(self) -> None:
        self.written: list[str] = []
        self.open = True

    def __call__(self, text: str) -> bool:
        if self.open:
            self.written.append(text)
        return self.open


async def _until(done: Callable[[], bool]) -> None:
    """Until ``done()``, letting the connection's writer task run meanwhile."""
    for _ in range(1000):
        if done():
            return
        await asyncio.sleep(0)
    raise AssertionError("not done after 1000 turns of the loop")


def _msg(i: int) -> Error:
    return Error(code="malformed", message=f"m{i}")


def _texts(*ids: int) -> list[str]:
    return [_msg(i).model_dump_json() for i in ids]


async def test_a_message_with_nothing_before_it_is_written_at_once() -> None:
    socket, now, waits = Held(), Now(), []
    conn = Connection(socket, "127.0.0.1", 10, on_written=waits.append, send_now=now)
    conn.start()
    conn.send(_msg(1))
    conn.send(_msg(2))
    assert now.written == _texts(1, 2)  # before any other task ran
    assert waits == [0.0, 0.0] and conn.queued == 0
    await conn.finish()
    assert socket.written == []


async def test_messages_behind_one_being_written_wait_their_turn() -> None:
    socket, now = Held(), Now()
    conn = Connection(socket, "127.0.0.1", 10, send_now=now)
    conn.start()
    now.open = False  # not writable at once (e.g. not yet accepted): the writer takes it
    conn.send(_msg(1))
    await asyncio.wait_for(socket.waiting.wait(), 10)  # the writer is writing it
    now.open = True
    conn.send(_msg(2))  # the writer is busy: these queue behind it, not past it
    conn.send(_msg(3))
    assert now.written == [] and conn.queued == 2
    socket.go.set()
    await _until(lambda: not conn.queued and socket.written == _texts(1, 2, 3))
    conn.send(_msg(4))  # nothing waits now: at once again
    assert now.written == _texts(4)
    await conn.finish()


async def test_without_send_now_the_writer_writes_everything() -> None:
    socket = Held()
    socket.go.set()
    conn = Connection(socket, "127.0.0.1", 10)
    conn.start()
    conn.send(_msg(1))
    assert conn.queued == 1
    await _until(lambda: socket.written == _texts(1))
    await conn.finish()


async def test_a_peer_that_stops_reading_is_closed_as_too_slow() -> None:
    """Once the edge cannot write at once (the peer's buffers are full) the messages
    queue, the writer waits on the first, and a full queue closes the connection."""
    socket, now = Held(), Now()  # Held: uvicorn's send waiting for the buffer to drain
    conn = Connection(socket, "127.0.0.1", 10, send_now=now)
    conn.start()
    conn.send(_msg(0))
    assert now.written == _texts(0)
    now.open = False  # the transport is past its high-water mark from here on
    for i in range(1, SEND_QUEUE + 1):
        conn.send(_msg(i))
    assert conn.is_open and conn.queued == SEND_QUEUE
    conn.send(_msg(SEND_QUEUE + 1))
    assert not conn.is_open and conn.close_code == CLOSE_TOO_SLOW
    assert conn.queued == 0  # what it held is let go
    socket.go.set()
    await conn.finish()
