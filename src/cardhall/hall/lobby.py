"""Rooms, their quick-match queues, private tables, and the live tables of this process.

``join`` puts a player in a room's queue (自动撮合); as soon as the queue holds
a table's worth of players they are seated and the game starts. A queue that
has waited ``bot_wait_seconds`` since its first player came fills its empty
seats with bots. A private table (``private``) waits for friends who join
with its invite code; its owner may start it early with bots.

The lobby holds no lock across an await: it runs on the event loop, and each
table changes only through its own queue.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from cardhall.games import VARIANTS
from cardhall.hall.botpool import BotPool
from cardhall.hall.config import HallConfig, Room
from cardhall.hall.messages import Invite, ProtocolError, Queued
from cardhall.hall.outbox import Outbox
from cardhall.hall.store import DbStore
from cardhall.hall.table import GRACE_SECONDS, Command, Seat, Table, TablePhase

log = logging.getLogger("cardhall.hall.lobby")

#: Invite codes: no 0/O or 1/I, so a code read aloud is typed right.
CODE_CHARS = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
BOT_NAMES = ("机器人·甲", "机器人·乙", "机器人·丙", "机器人·丁", "机器人·戊")
BOT_TITLE = "机器人"


@dataclass
class Queue:
    room: Room
    players: list[str] = field(default_factory=list)
    since: float | None = None
    timer: asyncio.TimerHandle | None = None


class Lobby:
    def __init__(self, config: HallConfig, store: DbStore, outbox: Outbox, bots: BotPool,
                 grace_seconds: float = GRACE_SECONDS) -> None:
        self.config = config
        self.rooms = {r.id: r for r in config.rooms}
        self.store = store
        self.outbox = outbox
        self.bots = bots
        self.grace_seconds = grace_seconds
        self.queues = {r.id: Queue(r) for r in config.rooms}
        self.tables: dict[str, Table] = {}
        self.codes: dict[str, str] = {}  # invite code → table id
        self.latency_hook: Callable[[float], None] | None = None

    # -- where a player is -------------------------------------------------------------

    def tables_of(self, player: str) -> list[Table]:
        return [t for t in self.tables.values() if t.seat_of(player) is not None]

    def queued_in(self, player: str) -> str | None:
        return next((q.room.id for q in self.queues.values() if player in q.players), None)

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
        queued = self.queued_in(player)
        if queued is not None:
            self.cancel(player, queued)
        q = self.queues[room.id]
        q.players.append(player)
        if q.since is None:
            q.since = time.time()
            if room.bot_wait_seconds is not None:
                q.timer = asyncio.get_running_loop().call_later(
                    room.bot_wait_seconds, lambda: asyncio.ensure_future(self._bots_fill(q)))
        await self._match(q)
        if player in q.players:
            bots_at = None if q.timer is None or room.bot_wait_seconds is None else \
                int(((q.since or time.time()) + room.bot_wait_seconds) * 1000)
            for p in q.players:
                self.outbox.send(p, Queued(room=room.id, waiting=len(q.players),
                                           bots_at=bots_at))

    async def _free_for_new_table(self, player: str) -> None:
        """A player may queue while his only tables are between games: he leaves them."""
        for table in self.tables_of(player):
            if table.phase == TablePhase.PLAYING:
                raise ProtocolError("not_allowed", f"you are playing at table {table.id}: "
                                    "finish or leave it first")
            await table.call(Command("leave", player=player))

    def cancel(self, player: str, room_id: str) -> bool:
        q = self.queues.get(room_id)
        if q is None or player not in q.players:
            return False
        q.players.remove(player)
        if not q.players:
            self._reset(q)
        return True

    def _reset(self, q: Queue) -> None:
        if q.timer is not None:
            q.timer.cancel()
        q.timer, q.since = None, None

    async def _match(self, q: Queue) -> None:
        need = VARIANTS[q.room.variant].players
        while len(q.players) >= need:
            group, q.players[:] = q.players[:need], q.players[need:]
            await self._open(q.room, list(group))
        if not q.players:
            self._reset(q)

    async def _bots_fill(self, q: Queue) -> None:
        q.timer = None
        if not q.players:
            self._reset(q)
            return
        group, q.players[:] = list(q.players), []
        self._reset(q)
        await self._open(q.room, group)

    async def _open(self, room: Room, players: Sequence[str | None], *, code: str | None = None,
                    owner: str | None = None, bots_allowed: bool = True,
                    start: bool = True) -> Table:
        need = VARIANTS[room.variant].players
        names = await self.store.names([p for p in players if p is not None])
        seats = []
        for i in range(need):
            p = players[i] if i < len(players) else None
            name, title = names.get(p, (BOT_NAMES[i % len(BOT_NAMES)], "")) if p else (
                BOT_NAMES[i % len(BOT_NAMES)], BOT_TITLE)
            seats.append(Seat(player=p, name=name, title=title))
        table = Table(f"t{secrets.token_hex(6)}", room, seats, self.store, self.outbox,
                      self.bots, code=code, owner=owner, bots_allowed=bots_allowed,
                      on_close=self._closed, grace_seconds=self.grace_seconds)
        table.latency_hook = self.latency_hook
        self.tables[table.id] = table
        table.start()
        if start:
            table.submit(Command("begin"))
        return table

    async def _closed(self, table: Table, requeue: list[str]) -> None:
        self.tables.pop(table.id, None)
        if table.code is not None:
            self.codes.pop(table.code, None)
        for player in requeue:
            try:
                await self.join(player, table.room.id)
            except ProtocolError as exc:
                log.info("could not requeue %s: %s", player, exc)

    # -- private tables ----------------------------------------------------------------

    async def private(self, player: str, room_id: str, bots: bool) -> Table:
        room = self.room(room_id)
        await self._free_for_new_table(player)
        queued = self.queued_in(player)
        if queued is not None:
            self.cancel(player, queued)
        code = "".join(secrets.choice(CODE_CHARS) for _ in range(6))
        table = await self._open(room, [player], code=code, owner=player, bots_allowed=bots,
                                 start=False)
        self.codes[code] = table.id
        self.outbox.send(player, Invite(table=table.id, room=room.id, code=code))
        self.outbox.send(player, table.state_for(player))
        return table

    async def join_code(self, player: str, code: str) -> Table:
        table_id = self.codes.get(code)
        table = self.tables.get(table_id or "")
        if table is None or table.phase != TablePhase.WAITING:
            raise ProtocolError("unknown_table", f"no table is waiting with code {code}")
        if table.seat_of(player) is not None:
            raise ProtocolError("not_allowed", "you already sit at that table")
        await self._free_for_new_table(player)
        names = await self.store.names([player])
        name, title = names.get(player, ("", ""))
        await table.call(Command("sit", player=player, text=name, token=title))
        return table
