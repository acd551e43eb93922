"""An asyncio client of the hall protocol (docs/protocol.md), for bots, tests and load.

    async with HallClient("http://127.0.0.1:8000") as c:
        await c.guest()
        await c.connect()
        await c.join("ddz3-novice")
        state = await c.expect("state")
"""

from __future__ import annotations

from cardhall.client.hall import ClientError, HallClient, HttpError

__all__ = ["ClientError", "HallClient", "HttpError"]
