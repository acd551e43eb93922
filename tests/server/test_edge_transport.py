"""The edge's accept batch and the cycle a closed transport keeps (cardhall.server.edge)."""

from __future__ import annotations

import asyncio
import gc
import socket
import weakref

from cardhall.hall.config import Limits
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
