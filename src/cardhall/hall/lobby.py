"""Rooms, their quick-match queues, private tables, and the live tables of this process.

``join`` puts a player in a room's queue (自动撮合); as soon as the queue holds
a table's worth of players they are seated and the game starts. A queue that
has waited ``bot_wait_seconds`` since its first player came fills its empty
seats with bots. A private table (``private``) waits for friends who join
with its invite code; its owner may start it early with bots.

The queues and invite codes are the coordinator's (in memory for one process,
in Redis for several: one queue per room, shared, each change atomic); the
process whose join (or bot timer) takes a table's worth out of a queue opens the
table and runs it under a lease. Every process with a player in a queue keeps a
bot timer for it, so the bots still come when the first player's process dies.

The lobby holds no lock across an await: it runs on the event loop, and each
table changes only through its own queue.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Sequence

from cardhall.games import VARIANTS
from cardhall.hall.botpool import BotPool
from cardhall.hall.config import HallConfig, Room
from cardhall.hall.coordinator import Coordinator, Joined, Lease
from cardhall.hall.limits import CodeTries
from cardhall.hall.messages import Invite, ProtocolError, Queued
from cardhall.hall.peer import TableCall
from cardhall.hall.seats import BOT_NAMES, BOT_TITLE, Command, Seat
from cardhall.hall.store import DbStore
from cardhall.hall.table import GRACE_SECONDS, Table

log = logging.getLogger("cardhall.hall.lobby")

#: Invite codes: no 0/O or 1/I, so a code read aloud is typed right. 32 symbols, 8 of
#: them: 2^40 codes, against a few dozen wrong tries per hour (limits.CodeTries).
CODE_CHARS = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
CODE_LENGTH = 8


def new_table_id() -> str:
    return f"t{secrets.token_hex(6)}"


class Lobby:
    def __init__(self, config: HallConfig, store: DbStore, coord: Coordinator, bots: BotPool,
                 grace_seconds: float = GRACE_SECONDS) -> None:
        self.config = config
        self.rooms = {r.id: r for r in config.rooms}
        self.store = store
        self.coord = coord
        self.outbox = coord.outbox
        self.queues = coord.queues
        self.bots = bots
        self.grace_seconds = grace_seconds
        self.tables: dict[str, Table] = {}
        self.leases: dict[str, Lease] = {}
        self._releasing: set[asyncio.Task[None]] = set()
        self._timers: dict[str, tuple[float, asyncio.TimerHandle]] = {}  # room → (since, timer)
        self.latency_hook: Callable[[str, float], None] | None = None
        self.settled_hook: Callable[[], None] | None = None  # a game's end was committed
        self.code_tries = CodeTries(config.limits.code_failures_per_hour,
                                    config.limits.code_failures_per_hour_per_address)

    # -- where a player is -------------------------------------------------------------

    def tables_of(self, player: str) -> list[Table]:
        """The tables of this process at which ``player`` sits."""
        return [t for t in self.tables.values() if t.seat_of(player) is not None]

    async def all_tables_of(self, player: str) -> list[str]:
        """Every table at which ``player`` sits, in this process or another."""
        here = [t.id for t in self.tables_of(player)]
        return here + [t for t in await self.coord.remote_tables_of(player) if t not in here]

    def room(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is None:
            raise ProtocolError("unknown_room", f"no room {room_id[:64]!r}")
        return room

    def table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise ProtocolError("unknown_table", f"no table {table_id[:64]!r}")
        return table

    # -- quick match -------------------------------------------------------------------

    async def join(self, player: str, room_id: str) -> None:
        room = self.room(room_id)
        await self._free_for_new_table(player)
        balance = (await self.store.balances([player]))[player]
        if balance < room.min_beans:
            raise ProtocolError("not_enough_beans", f"{room.name} needs {room.min_beans} "
                                f"beans; you hold {balance}")
        table_id = new_table_id()
        joined = await self.queues.add(room.id, player, VARIANTS[room.variant].players,
                                       table_id)
        await self._matched(room, joined, table_id)
        if player in joined.waiting:
            bots_at = None if room.bot_wait_seconds is None or joined.since is None else \
                int((joined.since + room.bot_wait_seconds) * 1000)
            for p in joined.waiting:
                self.outbox.send(p, Queued(room=room.id, waiting=len(joined.waiting),
                                           bots_at=bots_at))

    async def _matched(self, room: Room, joined: Joined, table_id: str) -> None:
        """Seat the group a queue gave up; keep a bot timer for whoever still waits."""
        if joined.group:
            await self._open(room, joined.group, table_id=table_id)
        if joined.waiting and joined.since is not None:
            self._arm(room, joined.since)

    def _arm(self, room: Room, since: float) -> None:
        """Fill the queue with bots once its first player has waited bot_wait_seconds."""
        if room.bot_wait_seconds is None:
            return
        armed = self._timers.get(room.id)
        if armed is not None and armed[0] == since:
            return
        if armed is not None:
            armed[1].cancel()
        delay = max(0.0, since + room.bot_wait_seconds - time.time())
        handle = asyncio.get_running_loop().call_later(
            delay, lambda: asyncio.ensure_future(self._bots_fill(room)))
        self._timers[room.id] = (since, handle)

    async def _bots_fill(self, room: Room) -> None:
        self._timers.pop(room.id, None)
        assert room.bot_wait_seconds is not None
        table_id = new_table_id()
        joined = await self.queues.take_due(room.id, room.bot_wait_seconds, table_id)
        await self._matched(room, joined, table_id)

    async def _free_for_new_table(self, player: str) -> None:
        """A player may queue while his only tables are between games: he leaves them."""
        for table_id in await self.all_tables_of(player):
            try:
                await self.call(TableCall(table=table_id, kind="free", player=player))
            except ProtocolError as exc:
                if exc.code not in ("unknown_table", "not_seated"):
                    raise  # gone meanwhile, or not his any more: he is free of it

    async def cancel(self, player: str, room_id: str | None = None) -> bool:
        """Take ``player`` out of a room's queue (any room's if None); False if not queued."""
        return await self.queues.remove(player, room_id) is not None

    async def call(self, call: TableCall) -> None:
        """Carry out a table command here, or at the process that runs the table."""
        if call.table in self.tables:
            await self.run_call(call)
        else:
            await self.coord.forward(call)

    async def run_call(self, call: TableCall) -> None:
        """A table command for a table of this process (from here or another process)."""
        table = self.table(call.table)
        if call.kind == "watch":
            table.watchers.add(call.player)
            self.outbox.send(call.player, table.state_for(call.player))
            return
        if call.kind in SEATED and table.seat_of(call.player) is None:
            raise ProtocolError("not_seated", f"you do not sit at table {table.id}")
        cmd = Command(call.kind, player=call.player, text=call.text, seq=call.seq,
                      token=call.title, choose=call.choose)
        if call.kind == "connection":
            table.submit(cmd)  # nobody waits for it: the table sends the state
        else:
            await table.call(cmd)

    async def _open(self, room: Room, players: Sequence[str | None], *, code: str | None = None,
                    owner: str | None = None, bots_allowed: bool = True,
                    start: bool = True, table_id: str | None = None) -> Table:
        need = VARIANTS[room.variant].players
        names = await self.store.names([p for p in players if p is not None])
        seats = []
        for i in range(need):
            p = players[i] if i < len(players) else None
            name, title = names.get(p, (BOT_NAMES[i % len(BOT_NAMES)], "")) if p else (
                BOT_NAMES[i % len(BOT_NAMES)], BOT_TITLE)
            seats.append(Seat(player=p, name=name, title=title))
        table_id = table_id or new_table_id()
        lease = await self.coord.acquire(table_id)
        assert lease is not None, "a new table id is nobody's"
        table = Table(table_id, room, seats, self.store, self.outbox,
                      self.bots, code=code, owner=owner, bots_allowed=bots_allowed,
                      on_close=self._closed, grace_seconds=self.grace_seconds,
                      fence=lease.fence)
        if start:
            table.submit(Command("begin"))  # first in its queue, whoever comes next
        await self.adopt(table, lease)
        return table

    async def adopt(self, table: Table, lease: Lease) -> None:
        """Run ``table`` here under ``lease``: it takes commands from now on."""
        table.latency_hook = self.latency_hook
        table.settled_hook = self.settled_hook
        table.on_seats = self._seats
        table.on_drop = self._dropped
        self.tables[table.id] = table
        self.leases[table.id] = lease
        await self.coord.seated(table.id, table.humans(), [])
        table.start()

    async def _seats(self, table: Table, players: list[str], gone: list[str]) -> None:
        await self.coord.seated(table.id, players, gone)

    def _dropped(self, table: Table) -> None:
        """Another process owns ``table`` now: forget it here, and give its lease back in
        case it is still ours (the release deletes only our own)."""
        self.tables.pop(table.id, None)
        lease = self.leases.pop(table.id, None)
        if lease is not None:
            task = asyncio.get_running_loop().create_task(self.coord.release(lease))
            self._releasing.add(task)
            task.add_done_callback(self._releasing.discard)

    async def _closed(self, table: Table, requeue: list[str]) -> None:
        self.tables.pop(table.id, None)
        lease = self.leases.pop(table.id, None)
        if lease is not None:
            await self.coord.release(lease)
        if table.code is not None:
            await self.coord.set_code(table.code, None)
        for player in requeue:
            try:
                await self.join(player, table.room.id)
            except ProtocolError as exc:
                log.info("could not requeue %s: %s", player, exc)

    # -- private tables ----------------------------------------------------------------

    async def private(self, player: str, room_id: str, bots: bool) -> Table:
        room = self.room(room_id)
        await self._free_for_new_table(player)
        await self.cancel(player)
        code = "".join(secrets.choice(CODE_CHARS) for _ in range(CODE_LENGTH))
        table = await self._open(room, [player], code=code, owner=player, bots_allowed=bots,
                                 start=False)
        await self.coord.set_code(code, table.id)
        self.outbox.send(player, Invite(table=table.id, room=room.id, code=code))
        self.outbox.send(player, table.state_for(player))
        return table

    async def join_code(self, player: str, code: str, address: str = "") -> None:
        wait = self.code_tries.wait(player, address)
        if wait > 0:
            raise ProtocolError("rate_limited", "too many wrong invite codes: try again in "
                                f"{max(1, round(wait / 60))} min")
        table_id = await self.coord.code_table(code)
        if table_id is None:
            self.code_tries.failed(player, address)
            raise ProtocolError("unknown_table", f"no table is waiting with code {code}")
        if table_id in await self.all_tables_of(player):
            raise ProtocolError("not_allowed", "you already sit at that table")
        await self._free_for_new_table(player)
        await self.cancel(player)
        names = await self.store.names([player])
        name, title = names.get(player, ("", ""))
        await self.call(TableCall(table=table_id, kind="sit", player=player, text=name,
                                  title=title))


#: Table commands only a seated player may give.
SEATED = frozenset({"act", "next", "leave", "start_now"})
