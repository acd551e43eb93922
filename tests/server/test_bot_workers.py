"""The hall's bot workers die with it: a SIGKILLed hall leaves no process behind."""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path

from tests.server.conftest import start_hall
from tests.server.play import first_legal, guests


def children(pid: int) -> set[int]:
    """The live child processes of ``pid`` (Linux /proc)."""
    found: set[int] = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            found.update(int(c) for c in f.read().split())
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False


async def until(check: object, what: str, timeout: float = 20) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():  # type: ignore[operator]
        assert loop.time() < end, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)  # an observable condition with no event to await


async def test_bot_workers_exit_when_the_hall_is_killed(tmp_path: Path) -> None:
    hall = start_hall(tmp_path)
    try:
        async with guests(hall.url, 1) as (solo,):
            await solo.join("ddz3-bots")
            # The pool starts its worker at the first bot decision, which waits while
            # the guest is the first bidder: answer whenever it is his turn.
            rng = random.Random(0)
            while not children(hall.proc.pid):
                msg = await solo.expect("state")
                view, seat = msg["view"], msg["seat"]
                if view is not None and seat in view["acting"]:
                    await solo.act(msg["table"], first_legal(view, rng), msg["seq"])
            workers = children(hall.proc.pid)
            hall.kill()
            await until(lambda: not any(alive(w) for w in workers),
                        "the workers to exit after the hall's SIGKILL")
    finally:
        if hall.proc.poll() is None:
            hall.stop()
