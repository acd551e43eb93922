"""The edge's accept batch, its screen and the cycle a closed transport keeps
(cardhall.server.edge)."""

from __future__ import annotations

import asyncio
import gc
import os
import socket
import weakref

import pytest

from cardhall.hall.domain.config import Limits
from cardhall.server import edge


async def _noop(scope: object, receive: object, send: object) -> None:
    return None


def test_asyncio_accepts_a_small_batch_and_the_kernel_queues_more() -> None:
    config, _ = edge.uvicorn_config(_noop, "127.0.0.1", 0, Limits(), 1 << 16)
    assert config.backlog == edge.ACCEPT_BATCH < edge.LISTEN_BACKLOG


async def test_an_unlinked_transport_is_freed_without_the_collector() -> None:
    loop = asyncio.get_running_loop()
    a, b = socket.socketpair()
    transport, _ = await loop.connect_accepted_socket(asyncio.Protocol, a)
    ref = weakref.ref(transport)
    gc.disable()
    try:
        transport.abort()
        await asyncio.sleep(0)
        await asyncio.sleep(0)  # connection_lost has run
        edge.unlink(transport)
        del transport
        assert ref() is None
    finally:
        gc.enable()
        b.close()


class _Held(asyncio.Protocol):
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport


async def test_the_screen_resets_what_the_gate_would_drop_before_a_protocol_is_made() -> None:
    """Connections refused past the answers are reset as they are accepted: no
    protocol, no transport; the admitted one is made as asyncio would."""
    loop = asyncio.get_running_loop()
    gate = edge.Gate(per_address=1, total=100, clock=lambda: 0.0)  # time stands still
    while gate.may_answer():  # no answers left, and none come back
        pass
    made: list[_Held] = []
    admitted = asyncio.Event()

    def factory() -> asyncio.Protocol:
        made.append(_Held())
        admitted.set()
        return made[-1]

    listening = socket.create_server(("127.0.0.1", 0))
    server = await loop.create_server(factory, sock=listening)
    screen = edge.Screen(listening, server, gate, factory)
    port = listening.getsockname()[1]
    try:
        first = await asyncio.open_connection("127.0.0.1", port)
        await asyncio.wait_for(admitted.wait(), 10)  # the admitted one gets its protocol
        gate.admit(made[0], "127.0.0.1")  # what the hall's protocol does when made
        for _ in range(5):  # over the address's cap: reset unanswered
            with pytest.raises((ConnectionResetError, asyncio.IncompleteReadError)):
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                try:
                    await asyncio.wait_for(reader.readexactly(1), 5)
                finally:
                    writer.close()
        assert len(made) == 1
        assert gate.refused == {("too_many_connections", "dropped"): 5}
        assert not screen._making  # the admitted one's task is done
        made[0].transport.close()
        first[1].close()
        await first[1].wait_closed()
    finally:
        server.close()
        await server.wait_closed()


class _BrokenGate(edge.Gate):
    """A gate whose screen fails (a bug): the accepted descriptor must not stay open."""

    def screen(self, address: str) -> bool:
        raise RuntimeError("the screen broke")


def _open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


async def test_a_screen_that_raises_leaves_no_descriptor_open() -> None:
    loop = asyncio.get_running_loop()
    failed = asyncio.Event()
    loop.set_exception_handler(lambda _loop, context: failed.set())
    listening = socket.create_server(("127.0.0.1", 0))
    server = await loop.create_server(asyncio.Protocol, sock=listening)
    screen = edge.Screen(listening, server, _BrokenGate(per_address=1, total=100),
                         asyncio.Protocol)
    try:
        before = _open_files()
        client = socket.create_connection(listening.getsockname())  # one more file here
        await asyncio.wait_for(failed.wait(), 10)
        assert _open_files() == before + 1  # the client's; the accepted one is closed
        assert not screen._making
        client.close()
    finally:
        loop.set_exception_handler(None)
        server.close()
        await server.wait_closed()


class _Counting(edge.Gate):
    """A gate that counts the connections the screen accepted (it asks for each)."""

    def __init__(self) -> None:
        super().__init__(per_address=100, total=100)
        self.seen = 0
        self.changed = asyncio.Event()

    def screen(self, address: str) -> bool:
        self.seen += 1
        self.changed.set()
        return super().screen(address)


async def test_the_screen_accepts_no_more_than_its_budget_a_second() -> None:
    """Past ``rate`` accepts a second the screen stops listening and the kernel's queue
    holds the rest; each second of the clock lets ``rate`` more in."""
    loop = asyncio.get_running_loop()
    now = [0.0]
    gate = _Counting()
    made: list[_Held] = []

    def factory() -> asyncio.Protocol:
        made.append(_Held())
        return made[-1]

    listening = socket.create_server(("127.0.0.1", 0), backlog=64)
    server = await loop.create_server(factory, sock=listening)
    screen = edge.Screen(listening, server, gate, factory, rate=20.0, clock=lambda: now[0])
    relistened = asyncio.Event()
    relisten = screen._listen

    def listen() -> None:  # the screen's re-listen, seen by the test
        relisten()
        relistened.set()

    screen._listen = listen  # type: ignore[method-assign]

    async def accepted(n: int) -> None:
        while gate.seen < n:
            gate.changed.clear()
            await asyncio.wait_for(gate.changed.wait(), 10)
        for _ in range(2):  # paused, listened, accepted nothing, paused and listened again
            relistened.clear()
            await asyncio.wait_for(relistened.wait(), 10)
        assert gate.seen == n

    clients = [socket.create_connection(listening.getsockname()) for _ in range(50)]
    try:
        await accepted(20)  # the first second's budget, at once; none more while the
        now[0] = 1.0  # clock stands still; a second later, twenty more
        await accepted(40)
    finally:
        for c in clients:
            c.close()
        for held in made:
            held.transport.close()
        server.close()
        await server.wait_closed()
