"""The hello deadline against a busy hall: a hello said in time is answered, however
long the hall takes to check it (cardhall.server.ws, ``Greeting``).

At 2,000 players connecting at once the hall's reads queued for their pooled connections
longer than ``hello_seconds``; closing every hello still being checked made each client
reconnect and the hall check it again, and the load test never got past a few hundred
connected players. Here the hall runs in the test's own loop, so the test can hold
every pooled connection of its database as that queue did.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path

import uvicorn
import websockets
from sqlalchemy import text

from cardhall.client import HallClient
from cardhall.hall.domain.config import HallConfig, Limits
from cardhall.server.app import HallApp, create_app
from tests.server import in_process

HELLO_SECONDS = 0.3
#: SQLAlchemy's pool for an SQLite file: 5 connections, 10 more on demand.
POOLED = 15


@contextlib.asynccontextmanager
async def serving(tmp: Path) -> AsyncIterator[tuple[HallApp, str]]:
    """A hall with a short hello deadline, served from this loop; its app and URL."""
    limits = Limits(hello_seconds=HELLO_SECONDS, guests_per_minute=100)
    app = create_app(HallConfig(limits=limits), f"sqlite:///{tmp / 'hall.db'}")
    async with in_process.serving(uvicorn.Config(app, host="127.0.0.1", port=0,
                                                 log_config=None, lifespan="on")) as port:
        yield app, f"http://127.0.0.1:{port}"


async def test_a_hello_checked_past_the_deadline_is_answered(tmp_path: Path) -> None:
    async with serving(tmp_path) as (app, url):
        player = HallClient(url, timeout=10)
        await player.guest()
        await player.close()  # its HTTP client: the hello below is sent by hand
        db = app.state.server.db
        async with contextlib.AsyncExitStack() as held:
            for _ in range(POOLED):  # every pooled connection taken, as under load
                session = await held.enter_async_context(db.read())
                await session.execute(text("SELECT 1"))
            ws = await websockets.connect(url.replace("http://", "ws://") + "/ws")
            await ws.send(json.dumps({"type": "hello", "token": player.token}))
            # The deadline passes while the hello waits for a connection.
            await asyncio.sleep(HELLO_SECONDS * 2)
        welcome = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert welcome["type"] == "welcome"
        await ws.send(json.dumps({"type": "ping"}))
        assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "pong"
        assert ws.close_code is None
        await ws.close()


async def test_a_hello_refused_past_the_deadline_closes(tmp_path: Path) -> None:
    """The deadline still holds for a hello that fails: refused, then closed (4002)."""
    async with serving(tmp_path) as (app, url):
        db = app.state.server.db
        async with contextlib.AsyncExitStack() as held:
            for _ in range(POOLED):
                session = await held.enter_async_context(db.read())
                await session.execute(text("SELECT 1"))
            ws = await websockets.connect(url.replace("http://", "ws://") + "/ws")
            await ws.send(json.dumps({"type": "hello", "token": "not-a-token"}))
            await asyncio.sleep(HELLO_SECONDS * 2)
        assert json.loads(await asyncio.wait_for(ws.recv(), 10))["code"] == "bad_token"
        await asyncio.wait_for(ws.wait_closed(), 10)
        assert ws.close_code == 4002
