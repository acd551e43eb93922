"""``cardhall loadtest``: many simulated players at a running hall, through the public protocol.

Each client is a guest (``/api/guest``) with its own WebSocket (``HallClient``), given
to the servers round-robin. It quick-matches into a room of humans only, and acts a
think time after its turn arrives (uniform in 0.5–1.5 × ``think``: a simulated human,
so sleeping is right) with a cheap legal choice (a random play; 托管's answer where
the view lists no plays), plays on with ``next`` after every settlement, and
reconnects when its connection drops. After the measured window every client
finishes the game it is in (acting at once, not measured) and stops.

The figures: actions/s (actions acknowledged in the window after the ramp), p50/p99
latency from sending an action to reading the actor's next ``state`` of that table
with a higher ``seq``, p50/p99 wait from sending ``next`` to the next game's first
``state`` (its deal), games settled, errors by code, reconnects. Then
``cardhall.client.loadreport`` checks the beans through the public API.

Clients may be spread over worker processes (``workers``): each drives its share on
its own event loop with the same clock, and their tallies are merged.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import multiprocessing
import queue
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TextIO

import httpx
from websockets.exceptions import ConnectionClosed

from cardhall import bots
from cardhall.client.hall import ClientError, HallClient, HttpError

Message = dict[str, Any]

#: Seconds the clients get after the measured window to finish the games they are in.
DRAIN_SECONDS = 90.0
#: Think time while draining: the games finish quickly, nobody measures them.
DRAIN_THINK = 0.01
#: After the window, a client not in a game stops once it has heard nothing for this long.
QUIET_SECONDS = 2.0
#: After the window, how long a client that asked for the next game (``next``) before it
#: ended waits for the deal. The table deals once every player there has asked, and
#: nobody asks after the window: when a table's players heard its settlement on either
#: side of the window's end, the first asked and the others did not, and no deal comes.
#: Past this, a client that is still between games stops as one that did not ask.
DEAL_WAIT_SECONDS = 10.0
#: Concurrent HTTP requests per server while making guests and reading balances.
HTTP_CONCURRENCY = 32
#: Seconds between progress lines.
PROGRESS_SECONDS = 5.0
#: Seconds any single request or connection may take.
TIMEOUT = 30.0


class LoadError(RuntimeError):
    """The load test cannot run as asked (no such room, a server not answering)."""


@dataclass(frozen=True)
class Plan:
    """What to run: ``room`` is a room of humans only at every one of ``urls``."""

    urls: tuple[str, ...]
    room: str
    clients: int
    duration: float
    think: float = 1.0
    ramp: float = 5.0
    workers: int = 1
    #: Beans the room asks to sit down (a guest holding fewer is refused every game).
    min_beans: int = 0
    #: The halls' metrics token, to compare their counts with the run's (None: not read).
    metrics_token: str | None = None
    #: The clients opt into deltas (docs/protocol.md), as the browser does.
    deltas: bool = False

    def url(self, i: int) -> str:
        return self.urls[i % len(self.urls)]


class Account(NamedTuple):
    """A client's guest: where it played, its token, its beans at the start and end."""

    url: str
    token: str
    start: int
    end: int


@dataclass
class Tally:
    """What the clients of one process saw; ``merge`` adds another process's."""

    latencies: list[float] = field(default_factory=list)  # seconds, measured window only
    #: Seconds from a ``next`` sent in the window to the next game's first state (its deal).
    deals: list[float] = field(default_factory=list)
    sent: list[float] = field(default_factory=list)  # each one's send, s into the window
    acked: int = 0  # actions acknowledged, whole run (ramp and drain included)
    errors: Counter[str] = field(default_factory=Counter)
    drain_errors: Counter[str] = field(default_factory=Counter)
    reconnects: int = 0
    games: dict[str, Message] = field(default_factory=dict)  # game id → its settled message
    seen: Counter[tuple[str, str]] = field(default_factory=Counter)  # (player, game) → settles
    players: dict[str, Account] = field(default_factory=dict)  # player id → its account
    finished: int = 0  # clients that ended cleanly
    connected: int = 0
    client_cpu: float = 0.0  # CPU seconds of the load generator over the window
    window_start: float = 0.0  # when the measured window began (time.time())

    def merge(self, other: Tally) -> None:
        self.latencies += other.latencies
        self.deals += other.deals
        self.sent += other.sent
        self.acked += other.acked
        self.errors += other.errors
        self.drain_errors += other.drain_errors
        self.reconnects += other.reconnects
        for game, msg in other.games.items():
            self.games.setdefault(game, msg)
        self.seen += other.seen
        self.players.update(other.players)
        self.finished += other.finished
        self.client_cpu += other.client_cpu
        self.window_start = max(self.window_start, other.window_start)


@dataclass
class Clock:
    """One run's moments on this process's loop clock, from a shared wall-clock start."""

    start: float  # the first client starts
    ramp: float
    duration: float
    clients: int

    @classmethod
    def at(cls, wall_start: float, plan: Plan) -> Clock:
        start = asyncio.get_running_loop().time() + (wall_start - time.time())
        return cls(start, plan.ramp, plan.duration, plan.clients)

    def client_start(self, i: int) -> float:
        return self.start + self.ramp * i / self.clients

    @property
    def window(self) -> tuple[float, float]:
        return self.start + self.ramp, self.start + self.ramp + self.duration

    @property
    def end(self) -> float:
        return self.window[1] + DRAIN_SECONDS


class TimedClient(HallClient):
    """A HallClient that stamps each message with the time its frame was read."""

    def _take(self, msg: Message) -> str | None:
        msg["_at"] = asyncio.get_running_loop().time()  # a rebuilt state keeps it
        resync = super()._take(msg)
        # Thousands of clients for minutes: the deltas and full states as they came are
        # a test's record, not the load test's.
        self.deltas_seen.clear()
        self.fulls_seen.clear()
        return resync


def choose(view: Message, rng: random.Random) -> str:
    """A random legal action; where the view lists no plays (big hands), 托管's answer."""
    legal = list(view["legal"])
    plays = [a for a in legal if a != "pass"] if view["phase"] == "play" else legal
    if not view.get("legal_complete", True) and not plays:
        return str(bots.make("tuoguan", view["variant"], view["seat"]).act(view))
    return str(rng.choice(plays or legal))


class Player:
    """One simulated human's game loop (``run``), telling ``tally`` what it sees."""

    def __init__(self, i: int, client: TimedClient, room: str, think: float, clock: Clock,
                 tally: Tally) -> None:
        self.i, self.client, self.room, self.think = i, client, room, think
        self.clock, self.tally = clock, tally
        self.rng = random.Random(i)
        self.acted: set[tuple[str, int]] = set()  # (game, seq): seq restarts each game
        self.pending: tuple[str, str, int, float] | None = None  # table, game, seq, sent at
        self.playing = False
        self.next_sent: str | None = None  # the settled game we asked to play on after
        self.next_at = 0.0  # when that ``next`` was sent (loop clock)
        #: A game this client saw end whose ``settled`` it has not heard yet: it does not
        #: stop before that message, however long the settlement takes (a client that
        #: stopped first would find the game in its history, never told of it).
        self.unsettled: str | None = None
        self.told: set[str] = set()  # the games whose ``settled`` this client heard
        #: Stopping: None, then "asked" once it has left the room's queue (a ``leave`` and
        #: a ``ping``), "done" at the ``pong``. A client that stopped while queued would
        #: be seated after it went and its game played out by 托管, unheard (ruling 13).
        self.unqueued: str | None = None

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.sleep(max(0.0, self.clock.client_start(self.i) - loop.time()))
        await self.client.connect()
        self.tally.connected += 1
        try:
            await self._send(self.client.join(self.room))
            await self._loop()
        finally:
            self.tally.connected -= 1

    async def _loop(self) -> None:
        loop = asyncio.get_running_loop()
        stop_at, end_at = self.clock.window[1], self.clock.end
        heard = loop.time()
        while True:
            now = loop.time()
            if now >= end_at:
                return  # still in a game at the deadline: not finished
            dealing = self.next_sent is not None and now < stop_at + DEAL_WAIT_SECONDS
            if (now >= stop_at and not self.playing and not dealing
                    and self.unsettled is None and now - heard >= QUIET_SECONDS):
                if self.unqueued == "done":
                    break  # done: no game to finish, and nothing more is coming
                if self.unqueued is None:
                    self.unqueued = "asked"
                    if not (await self._send(self.client.leave(room=self.room))
                            and await self._send(self.client.ping())):
                        self.unqueued = None  # reconnecting: ask again after the hello
            try:
                msg = await self.client.recv(timeout=max(0.05, min(0.25, end_at - now)))
            except ClientError:
                continue  # nothing for a while: look at the clock again
            heard = loop.time()
            if not await self._take(msg, heard >= stop_at):
                return
        self.tally.finished += 1

    async def _take(self, msg: Message, stopping: bool) -> bool:
        """Handle one message; False when this client cannot go on."""
        kind, tally = msg["type"], self.tally
        errors = tally.drain_errors if stopping else tally.errors
        if kind == "state":
            await self._state(msg, stopping)
        elif kind == "settled":
            await self._settled(msg, stopping)
        elif kind == "left":
            self.playing = False
            if not stopping:
                await self._send(self.client.join(self.room))
        elif kind == "welcome" and not msg["tables"] and not stopping:
            await self._send(self.client.join(self.room))  # reconnected while queued
        elif kind == "pong" and self.unqueued == "asked":
            self.unqueued = "done"
        elif kind == "error":
            if not (self.unqueued == "asked" and msg["code"] == "not_seated"):
                errors[msg["code"]] += 1  # (not queued any more: what the leave wanted)
            self.pending = None
        elif kind == "disconnected":
            if not msg["reconnecting"]:
                errors[f"disconnected {msg['code']}"] += 1
                return False
            tally.reconnects += 1
            if self.pending is not None:  # the action may be lost: act again on the state
                self.acted.discard((self.pending[1], self.pending[2]))
                self.pending = None
        return True

    async def _state(self, msg: Message, stopping: bool) -> None:
        table, seq = msg["table"], msg["seq"]
        was_playing, self.playing = self.playing, msg["phase"] == "playing"
        if self.playing:
            if self.next_sent is not None and msg["game"] != self.next_sent:
                lo, hi = self.clock.window
                if lo <= self.next_at < hi:
                    self.tally.deals.append(msg["_at"] - self.next_at)
            self.next_sent = None
        elif was_playing and msg["game"] is not None and msg["game"] not in self.told:
            self.unsettled = msg["game"]
        pending = self.pending
        if pending is not None and pending[0] == table and (msg["game"] != pending[1]
                                                            or seq > pending[2]):
            self.tally.acked += 1
            lo, hi = self.clock.window
            if lo <= pending[3] < hi:
                self.tally.latencies.append(msg["_at"] - pending[3])
                self.tally.sent.append(pending[3] - lo)
            self.pending = None
        view, seat = msg["view"], msg["seat"]
        if (not self.playing or view is None or seat not in view["acting"]
                or view["auto"][seat] or (msg["game"], seq) in self.acted):
            return
        self.acted.add((msg["game"], seq))
        await asyncio.sleep((DRAIN_THINK if stopping else self.think) * self.rng.uniform(0.5, 1.5))
        latest = self.client.states.get(table)
        if latest is None or latest["seq"] != seq or latest["game"] != msg["game"]:
            return  # the table moved on meanwhile (a timer): its new state follows
        self.pending = (table, msg["game"], seq, asyncio.get_running_loop().time())
        if not await self._send(self.client.act(table, choose(view, self.rng), seq)):
            self.acted.discard((msg["game"], seq))  # act again on the state after reconnecting
            self.pending = None

    async def _send(self, sending: Awaitable[None]) -> bool:
        """Send; False when the connection has just dropped (the reader reconnects and
        queues a ``disconnected``; the hello after it brings every table's state)."""
        try:
            await sending
        except ConnectionClosed:
            return False
        return True

    async def _settled(self, msg: Message, stopping: bool) -> None:
        assert self.client.player is not None
        self.tally.games.setdefault(msg["game"], msg)
        self.tally.seen[(str(self.client.player["id"]), msg["game"])] += 1
        self.told.add(msg["game"])
        if self.unsettled == msg["game"]:
            self.unsettled = None
        self.playing = False
        if msg["dissolved"]:
            return  # a `left` follows
        self.next_at = asyncio.get_running_loop().time()
        if not stopping and await self._send(self.client.next(msg["table"])):
            self.next_sent = msg["game"]


# -- one process's share --------------------------------------------------------------------


def _http(url: str) -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=HTTP_CONCURRENCY,
                          max_keepalive_connections=HTTP_CONCURRENCY)
    return httpx.AsyncClient(base_url=url, timeout=TIMEOUT, limits=limits)


async def gather_limited(calls: list[Callable[[], Any]], limit: int = HTTP_CONCURRENCY
                         ) -> list[Any]:
    """Await every call, at most ``limit`` at a time, in order."""
    gate = asyncio.Semaphore(limit)

    async def one(call: Callable[[], Any]) -> Any:
        async with gate:
            return await call()

    return list(await asyncio.gather(*(one(c) for c in calls)))


async def ask_again(read: Callable[[], Awaitable[Any]], tries: int = 3) -> Any:
    """A request sent again if its connection broke under it.

    The clients' pooled HTTP connections sit idle through the run; the server closes
    idle ones (keep-alive timeout), and a request sent on one just as it closes fails
    with a transport error although the server did nothing wrong (a 2,000-client run
    on two loaded processes ended at its first guest that way). A read may simply be
    asked again. So may the one write, ``guest``: if the broken request was carried
    out after all, the hall has one more guest no client uses, which plays no game and
    is in no bean check.
    """
    for attempt in range(tries):
        try:
            return await read()
        except httpx.TransportError:
            if attempt == tries - 1:
                raise
    raise AssertionError("unreachable")


async def drive(plan: Plan, share: range, wall_start: float | None,
                progress: Callable[[Tally], None] | None = None) -> Tally:
    """Play clients ``share`` (indices into 0..clients) of ``plan``; return what they saw.

    The first client starts at ``wall_start`` (``time.time()``; None: half a second after
    the guests are made); the collector is off during the run (its
    pauses would count as latency; a bounded run makes nothing that needs collecting).
    """
    tally = Tally()
    https = {url: _http(url) for url in plan.urls}
    try:
        clients = [TimedClient(plan.url(i), http=https[plan.url(i)], timeout=TIMEOUT,
                               deltas=plan.deltas)
                   for i in share]
        try:
            made = await gather_limited([functools.partial(ask_again, c.guest)
                                         for c in clients])
        except HttpError as exc:
            hint = (" (the hall's [limits] guests_per_minute must leave room for the "
                    f"{plan.clients} guests a load test makes: docs/operations.md)"
                    if exc.code == "rate_limited" else "")
            raise LoadError(f"the hall refused a guest: {exc}{hint}") from None
        poor = min((int(m["player"]["beans"]) for m in made), default=plan.min_beans)
        if poor < plan.min_beans:
            raise LoadError(f"room {plan.room} asks {plan.min_beans} beans to sit down and a new "
                            f"guest holds {poor}: give the hall a room without bots that guests "
                            "can afford, or more [economy] starting_beans (docs/operations.md)")
        wall = time.time() + 0.5 if wall_start is None else wall_start
        clock = Clock.at(wall, plan)
        tally.window_start = wall + plan.ramp
        gc.collect()
        gc.freeze()
        gc.disable()
        try:
            players = [Player(i, c, plan.room, plan.think, clock, tally)
                       for i, c in zip(share, clients, strict=True)]
            tasks = [asyncio.create_task(p.run()) for p in players]
            ticker = asyncio.create_task(_tick(tally, progress, clock)) if progress else None
            await _cpu_over_window(tally, clock)
            for done in await asyncio.gather(*tasks, return_exceptions=True):
                if isinstance(done, BaseException):
                    tally.errors[f"exception {type(done).__name__}: {done}"[:120]] += 1
            if ticker is not None:
                ticker.cancel()
        finally:
            gc.enable()
        ends = await gather_limited([functools.partial(ask_again, c.me) for c in clients])
        for c, start, end in zip(clients, made, ends, strict=True):
            tally.players[str(start["player"]["id"])] = Account(
                c.server, str(start["token"]), int(start["player"]["beans"]), int(end["beans"]))
        await asyncio.gather(*(asyncio.wait_for(c.disconnect(), 15) for c in clients),
                             return_exceptions=True)
    finally:
        for http in https.values():
            await http.aclose()
    return tally


async def _cpu_over_window(tally: Tally, clock: Clock) -> None:
    loop = asyncio.get_running_loop()
    lo, hi = clock.window
    await asyncio.sleep(max(0.0, lo - loop.time()))
    cpu = time.process_time()
    await asyncio.sleep(max(0.0, hi - loop.time()))
    tally.client_cpu = time.process_time() - cpu


async def _tick(tally: Tally, progress: Callable[[Tally], None], clock: Clock) -> None:
    loop = asyncio.get_running_loop()
    while True:
        await asyncio.sleep(PROGRESS_SECONDS)
        if loop.time() < clock.end:
            progress(tally)


# -- several processes ----------------------------------------------------------------------


@dataclass(frozen=True)
class Snapshot:
    """A worker's figures so far, for the progress line."""

    worker: int
    connected: int
    acked: int
    errors: int
    new: list[float]  # latencies since the worker's last snapshot


def _worker(plan: Plan, worker: int, wall_start: float, snapshots: Any) -> Tally:
    """A worker process's body: its share, its snapshots on ``snapshots``."""
    sent = [0]

    def progress(t: Tally) -> None:
        new = t.latencies[sent[0]:]
        snapshots.put(Snapshot(worker, t.connected, t.acked, sum(t.errors.values()), new))
        sent[0] += len(new)

    share = range(worker, plan.clients, plan.workers)
    return asyncio.run(drive(plan, share, wall_start, progress))


def run(plan: Plan, out: TextIO = sys.stderr) -> Tally:
    """Run ``plan`` (in ``plan.workers`` processes), printing progress lines to ``out``."""
    meter = Meter(plan, out)
    if plan.workers <= 1:
        return asyncio.run(drive(plan, range(plan.clients), None, meter.single))
    ctx = multiprocessing.get_context("spawn")
    with ctx.Manager() as manager, ProcessPoolExecutor(plan.workers, mp_context=ctx) as pool:
        snapshots = manager.Queue()
        # Time to start the processes and make the guests (about 400 a second each).
        wall_start = time.time() + 3.0 + plan.clients / 400 / plan.workers
        futures = [pool.submit(_worker, plan, w, wall_start, snapshots)
                   for w in range(plan.workers)]
        while not all(f.done() for f in futures):
            try:
                meter.worker(snapshots.get(timeout=0.5))
            except queue.Empty:
                continue
        tally = Tally()
        for f in futures:
            tally.merge(f.result())
    return tally


class Meter:
    """The progress line: clients connected, actions/s since the last line, p99, errors."""

    def __init__(self, plan: Plan, out: TextIO) -> None:
        self.plan, self.out = plan, out
        self.started = time.monotonic()
        self.latencies: list[float] = []
        self.last: tuple[float, int] = (self.started, 0)
        self.workers: dict[int, Snapshot] = {}

    def single(self, tally: Tally) -> None:
        self.latencies = tally.latencies
        self._line(tally.connected, tally.acked, sum(tally.errors.values()))

    def worker(self, snap: Snapshot) -> None:
        self.latencies += snap.new
        self.workers[snap.worker] = snap
        if len(self.workers) == self.plan.workers and snap.worker == 0:
            ws = self.workers.values()
            self._line(sum(s.connected for s in ws), sum(s.acked for s in ws),
                       sum(s.errors for s in ws))

    def _line(self, connected: int, acked: int, errors: int) -> None:
        now = time.monotonic()
        rate = (acked - self.last[1]) / max(1e-9, now - self.last[0])
        self.last = (now, acked)
        p99 = f"{percentile(self.latencies, 99) * 1000:.1f} ms" if self.latencies else "-"
        print(f"loadtest {now - self.started:5.0f} s: {connected}/{self.plan.clients} clients "
              f"connected, {rate:.0f} actions/s, p99 so far {p99}, errors {errors}",
              file=self.out, flush=True)


def percentile(values: list[float], q: int) -> float:
    """The ``q``-th percentile (inclusive method); 0 for no values."""
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]
