"""A uvicorn server run on the test's own event loop (for tests that reach into the
app or the protocol objects, which a ``cardhall serve`` process would hide)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import uvicorn


@contextlib.asynccontextmanager
async def serving(config: uvicorn.Config) -> AsyncIterator[int]:
    """Serve ``config`` (on a free port when it says 0) until the block ends; its port."""
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)  # uvicorn sets a flag, no event, once it listens
    try:
        yield server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        await task
