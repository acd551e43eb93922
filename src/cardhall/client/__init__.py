"""An asyncio client of the hall protocol (docs/protocol.md), for bots, tests and load.

    async with HallClient("http://127.0.0.1:8000") as c:
        await c.guest()
        await c.connect()
        await c.join("ddz3-novice")
        state = await c.expect("state")

Its packages (httpx, websockets: the ``server`` extra) are imported on first use of
these names, so that ``cardhall.client.cli`` (the ``bot`` and ``loadtest`` commands'
parsers, part of every ``cardhall`` run) costs the library nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardhall.client.hall import ClientError, HallClient, HttpError

__all__ = ["ClientError", "HallClient", "HttpError"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from cardhall.client import hall  # noqa: PLC0415 (the server extra, when used)
        return getattr(hall, name)
    raise AttributeError(f"module 'cardhall.client' has no attribute {name!r}")
