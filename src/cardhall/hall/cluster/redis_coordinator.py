"""Several hall processes over Redis: ``RedisCoordinator`` (``cardhall serve --redis``).

Each process has an id, a channel (``peer.py``'s typed messages) and an
``alive`` key it renews; what is shared lives in Redis (``redis_keys.py``). The
quick-match queues are ``redis_queues.py``'s, the messages forwarded to players
connected elsewhere ``forwarding.py``'s; this module holds the rest.

- **Ownership.** A table runs in the process holding its lease, an expiring key
  renewed every third of ``lease_seconds`` from a thread of its own (``leases.py``:
  a busy event loop does not starve it). Taking a lease draws a new fencing
  token; the process writes the token on the table's live games
  (``games.claim_games``) before it replays them, and the database refuses any
  write with an older one. A process that finds its lease held by another drops
  the table at once; one whose write is refused as fenced does the same. A lease
  that lapsed with nobody taking it is set again, and kept if the game still
  carries its token.
- **Failover.** Every process looks, every quarter lease, for live games whose table
  has no lease (its owner died or stalled past the lease) and adopts one found so
  at four looks in a row (a lease Redis lost is set again by a living owner within a
  third of a lease) from the action log: turn timers start anew there (a finished
  game is settled).
- **Routing.** A command for a table held elsewhere goes to its owner's channel as
  a ``TableCall`` and its answer comes back as a ``CallReply``; messages for a
  player connected elsewhere go, batched and in order, to the channel of the
  process his presence key names (``Deliver``). A second connection anywhere
  supersedes the first (``Supersede``, closed with 4001 where it was).

Pub/sub delivers at most once: a message to a process that dies is lost, which
is what a client of that process sees anyway (it reconnects and its hello
brings the full state back); a call to a process that does not answer within
``CALL_SECONDS`` is refused as ``busy`` (try again).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import socket
import time
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from redis.asyncio import BlockingConnectionPool, Redis

from cardhall.hall.cluster import redis_keys as rk
from cardhall.hall.cluster.coordinator import Connections, Lease
from cardhall.hall.cluster.forwarding import ClusterOutbox
from cardhall.hall.cluster.jobs import Job, RedisJob
from cardhall.hall.cluster.leases import LeaseKeeper, Renewal
from cardhall.hall.cluster.owners import OwnerCache
from cardhall.hall.cluster.presence import KeyWriter
from cardhall.hall.cluster.redis_queues import RedisQueues
from cardhall.hall.domain.errors import Busy, Refused, UnknownTable, rebuilt
from cardhall.hall.live.notes import RedisNotes
from cardhall.hall.live.timers import LEASE_SECONDS, REDIS_POOL
from cardhall.hall.store.failures import as_refusal
from cardhall.hall.store.game_reads import game_fence, has_live_game
from cardhall.protocol.messages import ServerMessage
from cardhall.protocol.peer import (
    Adopted,
    Blocks,
    CallReply,
    Census,
    CensusReply,
    Close,
    Deliver,
    PeerMessage,
    Supersede,
    TableCall,
    Watches,
    parse_peer,
)

if TYPE_CHECKING:
    from cardhall.hall.service import Hall

log = logging.getLogger("cardhall.hall.cluster")

#: Seconds a forwarded call may take before the caller is told ``busy``.
CALL_SECONDS = 5.0


class RedisCoordinator:
    """Leases, routing, presence, queues and codes in Redis (see the module doc)."""

    def __init__(self, url: str, connections: Connections, *,
                 lease_seconds: float = LEASE_SECONDS, prefix: str = rk.PREFIX,
                 pool: int = REDIS_POOL) -> None:
        if pool < 2:
            raise ValueError(f"the Redis pool needs 2 connections at least, not {pool}")
        self.url = url
        self.redis: Redis = Redis(connection_pool=BlockingConnectionPool.from_url(
            url, decode_responses=True, max_connections=pool, timeout=CALL_SECONDS))
        self.connections = connections
        self.lease_seconds = lease_seconds
        self.lease_ms = rk.ms(lease_seconds)
        self.prefix = prefix
        self.process = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.outbox = ClusterOutbox(self)
        self.keys = KeyWriter(self.redis)  # presence and seats, batched (presence.py)
        self.queues = RedisQueues(self)
        self.notes = RedisNotes(self.redis, lambda p: self.key(f"notes:{p}"), self._spawn)
        self._hall: Hall | None = None
        self._calls: dict[int, asyncio.Future[CallReply]] = {}
        self._census: dict[int, tuple[list[CensusReply], int, asyncio.Event]] = {}
        self._ids = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._scripts: dict[str, Any] = {}
        self._keeper: LeaseKeeper | None = None
        self._owners = OwnerCache()
        self._pubsub: Any = None
        self._jobs: dict[str, RedisJob] = {}

    def key(self, name: str) -> str:
        return self.prefix + name

    async def script(self, lua: str, keys: list[str], args: list[Any]) -> Any:
        script = self._scripts.get(lua)
        if script is None:
            script = self._scripts[lua] = self.redis.register_script(lua)
        return await script(keys=keys, args=args)

    # -- life --------------------------------------------------------------------------

    async def start(self, hall: Hall) -> None:
        self._hall = hall
        self.queues.rooms = list(hall.lobby.rooms)
        await self._heartbeat()
        pubsub = self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self.key(f"p:{self.process}"))
        loop = asyncio.get_running_loop()
        lobby = hall.lobby
        self._keeper = LeaseKeeper(
            self.url, process=self.process, prefix=self.prefix, lease_ms=self.lease_ms,
            interval=self.lease_seconds / 3, leases=lambda: list(dict(lobby.leases).values()),
            on_renewed=lambda r: loop.call_soon_threadsafe(self._renewed, r))
        self._keeper.start()
        for work in (self._listen(pubsub), self.outbox.run(), self._heartbeat_loop(),
                     self._adopt_loop()):
            self._spawn(work)
        log.info("joined the cluster as %s", self.process,
                 extra={"event": "cluster", "hall_process": self.process})

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._keeper is not None:
            await asyncio.to_thread(self._keeper.stop)
        if self._hall is not None:
            for lease in list(self._hall.lobby.leases.values()):
                await self.release(lease)  # a clean stop: the others adopt at once
        for job in self._jobs.values():
            await job.release()  # the others take it at their next round
        await self.keys.close()
        if self._pubsub is not None:
            await self._pubsub.aclose()
        await self.redis.delete(self.key(f"alive:{self.process}"),
                                self.key(f"count:{self.process}"))
        await self.redis.srem(self.key("procs"), self.process)
        await self.redis.aclose(close_connection_pool=True)  # it was given its pool

    def keep_note(self, player: str, message: ServerMessage) -> bool:
        self.notes.add(player, message)
        return True

    async def take_notes(self, player: str) -> list[ServerMessage]:
        return await self.notes.take(player)

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _heartbeat(self) -> None:
        assert self._hall is not None
        pipe = self.redis.pipeline(transaction=False)
        pipe.sadd(self.key("procs"), self.process)
        pipe.set(self.key(f"alive:{self.process}"), "1", px=self.lease_ms)
        pipe.set(self.key(f"count:{self.process}"), json.dumps(self._hall.local_counts()),
                 px=self.lease_ms)
        added, *_ = await pipe.execute()
        if added and self._tasks:
            await self._restore()

    async def _restore(self) -> None:
        """Redis lost its data (it restarted empty): say again who is connected here and
        who sits at this process's tables. The tables themselves are dropped by the next
        renewal (their leases are gone) and adopted again from the log."""
        assert self._hall is not None
        log.warning("Redis lost this process's registration: restoring presence and seats")
        pipe = self.redis.pipeline(transaction=False)
        for player, conn in self.connections.players().items():
            pipe.set(self.key(f"presence:{player}"), f"{self.process} {conn}", nx=True)
        for table in self._hall.lobby.tables.values():
            for player in table.humans():
                pipe.set(self.key(f"seat:{player}"), table.id, nx=True)
        await pipe.execute()

    async def _heartbeat_loop(self) -> None:
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            try:
                await self._heartbeat()
            except Exception:  # Redis away or any fault: the loop lives on (a dead loop
                # would mark the process gone for good); logged, retried next beat
                log.exception("the heartbeat failed")

    def _renewed(self, renewal: Renewal) -> None:
        """On the loop: what the lease keeper's renewal found (``leases.py``). A lease
        replaced here meanwhile (the table closed or was taken again) is not touched."""
        assert self._hall is not None
        leases = self._hall.lobby.leases
        for lease in renewal.lost:
            if leases.get(lease.table) == lease:
                self._lose(lease.table, "lease lost")
        lapsed = [x for x in renewal.lapsed if leases.get(x.table) == x]
        if lapsed:
            self._spawn(self._check_lapsed(lapsed))
        for gone in (x for x in renewal.lapsed if leases.get(x.table) != x):
            self._spawn(self.release(gone))  # it closed here meanwhile: not ours to keep

    def _lose(self, table: str, why: str) -> None:
        assert self._hall is not None
        log.warning("table %s: %s; dropped here", table, why,
                    extra={"event": "lease_lost", "table": table})
        self._hall.drop(table)

    async def _check_lapsed(self, lapsed: list[Lease]) -> None:
        """Leases that ran out with nobody taking them, set again by the keeper: keep each
        table whose game still carries our token; drop one another process took over
        (and gave up) meanwhile."""
        assert self._hall is not None
        for lease in lapsed:
            table = self._hall.lobby.tables.get(lease.table)
            if table is None or self._hall.lobby.leases.get(lease.table) != lease:
                continue
            stored = None if table.game_id is None else await game_fence(self._hall.db,
                                                                         table.game_id)
            if stored is None or stored == lease.fence:
                log.warning("table %s: its lease had lapsed; taken again (fence %s)",
                            lease.table, lease.fence,
                            extra={"event": "lease_lapsed", "table": lease.table})
            else:
                self._lose(lease.table, f"another process took it over (fence {stored})")

    async def _adopt_loop(self) -> None:
        assert self._hall is not None
        while True:
            await asyncio.sleep(self.lease_seconds / 4)
            try:
                await self._hall.adopt_orphans(patient=True)
            except Exception:  # Redis or the database away, or one bad record: the
                # adoption loop must outlive it (failover depends on it); retried next round
                log.exception("adopting orphaned tables failed")

    def job(self, name: str, seconds: float) -> Job:
        if name not in self._jobs:
            self._jobs[name] = RedisJob(self.redis, prefix=self.prefix, process=self.process,
                                        name=name, seconds=seconds)
        return self._jobs[name]

    # -- leases ------------------------------------------------------------------------

    def _value(self, lease: Lease) -> str:
        return f"{self.process} {lease.fence}"

    async def acquire(self, table_id: str, above: int | None = None) -> Lease | None:
        keys = [self.key(f"lease:{table_id}"), self.key("fence")]
        fence = await (self.script(rk.ACQUIRE, keys, [self.process, self.lease_ms])
                       if above is None else
                       self.script(rk.ADOPT, keys, [self.process, self.lease_ms, above]))
        return None if fence is None else Lease(table_id, int(fence))

    async def release(self, lease: Lease) -> None:
        await self.script(rk.DELETE_IF, [self.key(f"lease:{lease.table}")], [self._value(lease)])

    async def floor_fence(self, fence: int) -> None:
        await self.script(rk.FLOOR, [self.key("fence")], [fence])

    async def unowned(self, table_ids: list[str]) -> list[str]:
        if not table_ids:
            return []
        held = await self.redis.mget([self.key(f"lease:{t}") for t in table_ids])
        return [t for t, h in zip(table_ids, held, strict=True) if h is None]

    async def _owner(self, table_id: str) -> str | None:
        """The process holding the table's lease, remembered until the lease may lapse
        (``owners``)."""
        known = self._owners.get(table_id)
        if known is not None:
            return known
        read_at = time.monotonic()
        key = self.key(f"lease:{table_id}")
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.get(key)
            pipe.pttl(key)
            held, ttl = await pipe.execute()  # one round trip
        if held is None:
            return None
        owner = str(held).split(" ", 1)[0]
        self._owners.put(table_id, owner, read_at, int(ttl))
        return owner

    # -- routing -----------------------------------------------------------------------

    async def publish(self, process: str, message: PeerMessage) -> int:
        return int(await self.redis.publish(self.key(f"p:{process}"),
                                            message.model_dump_json()))

    async def forward(self, call: TableCall) -> None:
        """Run ``call`` at the table's owner and raise its refusal, if any.

        An owner remembered from an earlier call that is gone (nobody on its
        channel) or no longer runs the table (it answers ``moved``) has not
        applied the call: the owner is looked up again and asked once more. A call
        that timed out is not sent again (it may have been applied).
        """
        cached = self._owners.get(call.table) is not None
        reply = await self._call_owner(call)
        if cached and (reply is None or reply.moved):
            reply = await self._call_owner(call)
        if reply is None:
            raise Busy(f"table {call.table} is moving to another server: try again")
        if reply.code is not None:
            raise rebuilt(reply.code, reply.message, reply.readings, reply.reason,
                          reply.params)

    async def _call_owner(self, call: TableCall) -> CallReply | None:
        """The owner's reply; None if nobody was listening on the owner's channel."""
        owner = await self._owner(call.table)
        if owner is None or owner == self.process:
            self._owners.forget(call.table)
            raise await self._missing(call.table)
        self._ids += 1
        call = call.model_copy(update={"id": self._ids, "reply_to": self.process})
        future: asyncio.Future[CallReply] = asyncio.get_running_loop().create_future()
        self._calls[call.id] = future
        try:
            if not await self.publish(owner, call):
                self._owners.forget(call.table)
                return None
            reply = await asyncio.wait_for(future, CALL_SECONDS)
        except TimeoutError:
            self._owners.forget(call.table)
            raise Busy(f"table {call.table}'s server did not answer: try again") from None
        finally:
            self._calls.pop(call.id, None)
        if reply.moved:
            self._owners.forget(call.table)
        return reply

    async def _listen(self, pubsub: Any) -> None:
        async for raw in pubsub.listen():
            try:
                message = parse_peer(raw["data"])
            except ValidationError as exc:
                log.error("a malformed message from another process: %s", exc)
                continue
            self._receive(message)

    def _receive(self, message: PeerMessage) -> None:
        match message:
            case TableCall():
                self._spawn(self._run_call(message))
            case CallReply(id=i):
                future = self._calls.get(i)
                if future is not None and not future.done():
                    future.set_result(message)
            case Deliver(items=items):
                for player, text, kind in items:
                    self.connections.send_text(player, text, kind)
            case Supersede(player=player, conn=conn):
                self.connections.supersede(player, conn)
            case Close(player=player, code=code, reason=reason, sessions=sessions):
                self.connections.close_player(player, code, reason, sessions)
            case Blocks(player=player) if self._hall is not None:
                self._spawn(self._hall.friends.reload(player))
            case Census():
                self._spawn(self._answer_census(message))
            case CensusReply(id=i):
                if i in self._census:
                    replies, expected, done = self._census[i]
                    replies.append(message)
                    if len(replies) >= expected:
                        done.set()
            case Watches(player=player, tables=tables):
                self._spawn(self._take_watches(player, tables))
            case Adopted(table=table) if self._hall is not None:
                self._hall.watch_again(table)

    async def _missing(self, table_id: str) -> Refused:
        """The refusal for a table nobody runs here: ``busy`` while it moves between
        processes (it has a live game to adopt), else ``unknown_table``."""
        assert self._hall is not None
        if await has_live_game(self._hall.db, table_id):
            return Busy(f"table {table_id} is moving to another server: "
                        "try again on its next state")
        return UnknownTable(f"no table {table_id[:64]!r}")

    async def _run_call(self, call: TableCall) -> None:
        assert self._hall is not None
        if call.table not in self._hall.lobby.tables:
            missing = await self._missing(call.table)
            reply = CallReply(id=call.id, code=missing.code, message=str(missing), moved=True)
        else:
            reply = CallReply(id=call.id)
            try:
                await self._hall.lobby.run_call(call)
            except Refused as exc:
                reply = CallReply(id=call.id, code=exc.code, message=str(exc),
                                  readings=exc.readings, reason=exc.reason, params=exc.params)
            except Exception as exc:  # a kind and a sentence for the caller; the rest logged
                log.exception("table %s: a forwarded %s failed", call.table, call.kind)
                answer = as_refusal(exc)
                reply = CallReply(id=call.id, code=answer.code, message=str(answer))
        if call.id:
            await self.publish(call.reply_to, reply)

    # -- players -----------------------------------------------------------------------

    async def seated(self, table_id: str, players: list[str], gone: list[str]) -> None:
        await asyncio.gather(
            *(self.keys.set(self.key(f"seat:{p}"), table_id) for p in players),
            *(self.keys.delete_if(self.key(f"seat:{p}"), table_id) for p in gone))

    async def remote_tables_of(self, player: str) -> list[str]:
        table = await self.redis.get(self.key(f"seat:{player}"))
        if table is None:
            return []
        table_id = str(table)
        assert self._hall is not None
        if table_id in self._hall.lobby.tables:
            return []
        # Leased, or between owners (its owner died; it will be adopted from the log).
        if await self.redis.exists(self.key(f"lease:{table_id}")) or await has_live_game(
                self._hall.db, table_id):
            return [table_id]
        return []

    async def connected_at(self, players: list[str]) -> dict[str, str]:
        """The process each of ``players``' presence key names, alive or not (a message
        published to a dead process's channel reaches nobody, as it would have)."""
        if not players:
            return {}
        held = await self.redis.mget([self.key(f"presence:{p}") for p in players])
        return {p: str(h).split(" ", 1)[0]
                for p, h in zip(players, held, strict=True) if h is not None}

    async def presence_of(self, players: list[str]) -> dict[str, str]:
        """The process each of ``players`` is connected to, if it is alive."""
        where = await self.connected_at(players)
        processes = sorted(set(where.values()))
        if not processes:
            return {}
        alive = await self.redis.mget([self.key(f"alive:{x}") for x in processes])
        live = {x for x, a in zip(processes, alive, strict=True) if a is not None}
        return {p: x for p, x in where.items() if x in live}

    async def present(self, players: list[str]) -> set[str]:
        return set(await self.presence_of(players))

    async def attach(self, player: str, conn: int) -> None:
        old = await self.keys.swap(self.key(f"presence:{player}"), f"{self.process} {conn}")
        if old is None:
            return
        process, _, old_conn = old.partition(" ")
        if process != self.process:
            await self.publish(process, Supersede(player=player, conn=int(old_conn)))

    async def disconnect(self, player: str, code: int, reason: str,
                         sessions: list[str] | None = None) -> bool:
        if self.connections.close_player(player, code, reason, sessions):
            return True
        process = (await self.presence_of([player])).get(player)
        if process is None or process == self.process:
            return False
        await self.publish(process, Close(player=player, code=code, reason=reason,
                                          sessions=sessions))
        return True

    async def detach(self, player: str, conn: int) -> bool:
        return await self.keys.delete_if(self.key(f"presence:{player}"),
                                         f"{self.process} {conn}")

    async def hand_over(self, player: str, tables: list[str]) -> bool:
        process = (await self.presence_of([player])).get(player)
        if process is None or process == self.process:
            return False
        return bool(await self.publish(process, Watches(player=player, tables=tables)))

    async def _take_watches(self, player: str, tables: list[str]) -> None:
        """Watches handed over from another process: the hall here keeps them if the
        player's connection is here (ready, or saying hello); else they stop."""
        assert self._hall is not None
        if not self.connections.holds(player) and \
                (await self.presence_of([player])).get(player) != self.process:
            self._hall.stop_watches(player, tables)
            return
        await self._hall.take_watches(player, tables, ready=self.connections.holds(player))

    # -- codes and counts --------------------------------------------------------------

    async def set_code(self, code: str, table_id: str | None) -> None:
        if table_id is None:
            await self.redis.hdel(self.key("codes"), code)
        else:
            await self.redis.hset(self.key("codes"), code, table_id)

    async def code_table(self, code: str) -> str | None:
        table = await self.redis.hget(self.key("codes"), code)
        return None if table is None else str(table)

    async def _alive(self) -> list[str]:
        procs = sorted(str(p) for p in await self.redis.smembers(
            self.key("procs")))
        if not procs:
            return []
        alive = await self.redis.mget([self.key(f"alive:{p}") for p in procs])
        return [p for p, a in zip(procs, alive, strict=True) if a is not None]

    async def table_counts(self) -> dict[str, int]:
        procs = await self._alive()
        counts: dict[str, int] = {}
        if not procs:
            return counts
        for raw in await self.redis.mget([self.key(f"count:{p}") for p in procs]):
            for room, n in json.loads(raw or "{}").items():
                counts[room] = counts.get(room, 0) + int(n)
        return counts

    async def adopted(self, table_id: str) -> None:
        for process in await self._alive():
            if process != self.process:
                await self.publish(process, Adopted(table=table_id))

    async def blocks_changed(self, player: str) -> None:
        for process in await self._alive():
            if process != self.process:
                await self.publish(process, Blocks(player=player))

    async def census(self) -> list[dict[str, Any]]:
        """Ask every live process for its tables; one that does not answer in time is
        left out (its tables are listed once another process adopts them)."""
        assert self._hall is not None
        others = [p for p in await self._alive() if p != self.process]
        self._ids += 1
        i = self._ids
        replies: list[CensusReply] = []
        done = asyncio.Event()
        self._census[i] = (replies, len(others), done)
        try:
            for p in others:
                await self.publish(p, Census(id=i, reply_to=self.process))
            if others:
                try:
                    await asyncio.wait_for(done.wait(), CALL_SECONDS / 2)
                except TimeoutError:
                    log.warning("census: %d of %d processes answered", len(replies),
                                len(others))
            tables = list(self._hall.local_tables())
            for reply in replies:
                tables.extend(reply.tables)
            return tables
        finally:
            del self._census[i]

    async def _answer_census(self, census: Census) -> None:
        assert self._hall is not None
        await self.publish(census.reply_to, CensusReply(id=census.id,
                                                        tables=self._hall.local_tables()))
