"""The hall's bot workers die with it: a SIGKILLed hall leaves no process behind; a
costly bot never holds more than half of them."""

from __future__ import annotations

import asyncio
import os
import random
import threading
from pathlib import Path

import pytest

from cardhall import bots
from cardhall.bots.base import Observation
from cardhall.bots.split import native
from cardhall.hall.live.botpool import BotPool
from tests.bots.scenario import random_views
from tests.server.conftest import start_hall
from tests.server.play import first_legal, guests, play_out


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


@pytest.mark.services  # starts its own hall in the test
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


def fds(pid: int) -> dict[int, str]:
    """What each open file descriptor of ``pid`` is (``socket:[inode]``, a path, a pipe)."""
    out: dict[int, str] = {}
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            out[int(fd)] = os.readlink(f"/proc/{pid}/fd/{fd}")
        except FileNotFoundError:  # closed while listed
            continue
    return out


def shared(server: int, worker: int) -> set[str]:
    """The server's sockets and files that ``worker`` holds too (beyond the standard
    streams it is started with; pipes are the pool's own queues). A socket's inode is
    its identity; a file is the server's if the worker has it open and never opened
    it itself (it opens only devices: /dev/null for its stdin)."""
    mine = {what for what in fds(server).values()
            if what.startswith(("socket:", "/")) and not what.startswith("/dev/")}
    return {what for fd, what in fds(worker).items() if fd > 2 and what in mine}


async def read_response(reader: asyncio.StreamReader) -> tuple[bytes, bytes]:
    """One HTTP/1.1 response with a Content-Length: its head and body."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 20)
    length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    return head, await asyncio.wait_for(reader.readexactly(length), 20)


@pytest.mark.services  # starts its own hall in the test
async def test_bot_workers_hold_no_socket_of_the_hall(tmp_path: Path) -> None:
    """A keep-alive connection and a WebSocket open before the first bot decision: the
    workers hold neither (nor the listening socket), and when the hall closes the
    keep-alive connection, the client really sees it closed (issue 25)."""
    hall = start_hall(tmp_path)
    try:
        host, port = hall.url.removeprefix("http://").split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        ask = f"GET /api/variants HTTP/1.1\r\nHost: {host}\r\n".encode()
        writer.write(ask + b"\r\n")
        head, _ = await read_response(reader)
        assert head.startswith(b"HTTP/1.1 200")
        async with guests(hall.url, 1) as (solo,):
            await solo.join("ddz3-bots")
            table = (await solo.expect("state"))["table"]
            played = await play_out([solo], table)
            assert played.settled["table"] == table
            workers = children(hall.proc.pid)
            assert workers, "the bot room ran no worker"
            for worker in workers:
                assert not shared(hall.proc.pid, worker), f"worker {worker} holds the hall's"
        # The hall closes this connection after answering: the client sees the end.
        writer.write(ask + b"Connection: close\r\n\r\n")
        head, _ = await read_response(reader)
        assert head.startswith(b"HTTP/1.1 200")
        assert await asyncio.wait_for(reader.read(1), 20) == b""
        writer.close()
    finally:
        hall.stop()


async def test_spawned_workers_load_the_bots_and_their_c_search() -> None:
    """A spawned worker imports the bots itself: they decide there (no 托管 fallback),
    with the C search wherever this process has it."""
    pool = BotPool(workers=2, cap=30)
    try:
        assert await pool.warm() == native.NATIVE
        views = list(random_views("ddz3", 1))[:6]
        for view in views:
            action = await pool.decide("planning", "ddz3", view["seat"], 0, view)
            assert action in view["legal"] or not view["legal_complete"]
        assert pool.fallbacks == 0
    finally:
        pool.close()


async def test_a_costly_bot_holds_half_the_workers_and_its_stand_in_answers_past_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The search bot's decisions may take a worker for most of a second: with every
    costly slot taken (half the workers), the next is planning's, at once, and the other
    workers stay free for the other rooms' bots."""
    started, release = threading.Event(), threading.Event()
    asked: list[int] = []

    class Costly(bots.Bot):
        name = "costly"
        stand_in = "planning"

        def choose(self, observation: Observation, legal: list[str]) -> str:
            asked.append(self.seat)
            started.set()
            release.wait(20)
            return legal[0]

    monkeypatch.setitem(bots.BOTS, Costly.name, Costly)
    pool = BotPool(workers=2, cap=30, processes=False)
    views = [v for v in random_views("ddz3", 1) if v["legal_complete"]][:3]
    try:
        assert pool.costly_slots == 1 and BotPool(workers=5, processes=False).costly_slots == 2
        held = asyncio.ensure_future(pool.decide("costly", "ddz3", 0, 0, views[0]))
        await until(started.is_set, "the costly decision to start")
        # Its one slot is taken: planning answers the next, on the other worker.
        stood = await pool.decide("costly", "ddz3", 1, 0, views[1])
        assert stood in views[1]["legal"] and asked == [0] and pool.stood_in == 1
        assert await pool.decide("planning", "ddz3", 2, 0, views[2]) in views[2]["legal"]
        release.set()
        assert await held == views[0]["legal"][0]
        # The slot is free again: the costly bot answers itself.
        await pool.decide("costly", "ddz3", 1, 0, views[1])
        assert asked == [0, 1] and pool.stood_in == 1 and pool.fallbacks == 0
    finally:
        release.set()
        pool.close()
