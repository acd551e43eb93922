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

A player is seated at most once: every seat is claimed in the database first
(``seatings``: the player is its key), for a whole table at once, so two joins racing
in one process or in two cannot both seat him. A quick-match group with someone seated
elsewhere meanwhile is not opened: the others go back to the queue.

The lobby holds no lock across an await: it runs on the event loop, and each
table changes only through its own queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from cardhall.games import VARIANTS
from cardhall.hall.cluster.coordinator import Coordinator, Joined, Lease, kept_apart
from cardhall.hall.domain.config import HallConfig, Room
from cardhall.hall.domain.errors import (
    BelowMinimum,
    BotsNotAllowed,
    NotAllowed,
    NotSeated,
    Refused,
    TooManyTries,
    UnknownRoom,
    UnknownTable,
)
from cardhall.hall.domain.limits import CodeTries
from cardhall.hall.live import commands
from cardhall.hall.live.botpool import BotPool
from cardhall.hall.live.chat import Blocks, nobody_blocked
from cardhall.hall.live.notes import NOTED_PLAYERS, NOTES_PER_PLAYER
from cardhall.hall.live.seats import BOT_NAMES, BOT_TITLE, Seat, TablePhase
from cardhall.hall.live.table import GRACE_SECONDS, Table
from cardhall.hall.live.timers import SETTLE_WAIT, LoopScheduler, Scheduler, retry_seconds
from cardhall.hall.store.game_reads import has_live_game
from cardhall.hall.store.table_store import DbStore
from cardhall.protocol.messages import Invite, Queued, ServerMessage
from cardhall.protocol.peer import TableCall

log = logging.getLogger("cardhall.hall.lobby")

#: Invite codes: no 0/O or 1/I, so a code read aloud is typed right. 32 symbols, 8 of
#: them: 2^40 codes, against a few dozen wrong tries per hour (limits.CodeTries).
CODE_CHARS = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
CODE_LENGTH = 8


def _nobody(players: list[str]) -> None:
    return None


def new_table_id() -> str:
    return f"t{secrets.token_hex(6)}"


class SeatedElsewhere(Exception):
    """A table could not be opened: ``others`` (player → table) sit at other tables."""

    def __init__(self, others: dict[str, str]) -> None:
        super().__init__(others)
        self.others = others


def seated_elsewhere(table_id: str) -> NotAllowed:
    return NotAllowed(f"you already sit at table {table_id}: "
                         "leave it first")


class Lobby:
    def __init__(self, config: HallConfig, store: DbStore, coord: Coordinator, bots: BotPool,
                 grace_seconds: float = GRACE_SECONDS,
                 scheduler: Scheduler | None = None) -> None:
        self.config = config
        self.rooms = {r.id: r for r in config.rooms}
        self.store = store
        self.coord = coord
        self.outbox = coord.outbox
        self.queues = coord.queues
        self.bots = bots
        self.grace_seconds = grace_seconds
        self.scheduler: Scheduler = scheduler or LoopScheduler()
        #: Messages for players who were away when a table they no longer sit at told
        #: them something (``Table.on_note``): given after their next welcome.
        self.notes: OrderedDict[str, list[ServerMessage]] = OrderedDict()
        self.tables: dict[str, Table] = {}
        self.leases: dict[str, Lease] = {}
        self._releasing: set[asyncio.Task[None]] = set()
        self._closing = False
        self._timers: dict[str, tuple[float, asyncio.TimerHandle]] = {}  # room → (since, timer)
        self._opening: set[str] = set()  # tables whose seats are claimed, not yet adopted
        self.latency_hook: Callable[[str, float], None] | None = None
        self.settled_hook: Callable[[], None] | None = None  # a game's end was committed
        #: Whether a listener blocks a speaker (player ids), for every table's chat
        #: (``hall.live.chat.hears``): the hook a block list kept elsewhere sets.
        self.chat_blocks: Blocks = nobody_blocked
        #: Told the players who come to listen at a table here (seated or watching), so
        #: that the hook can read their block lists before they hear anyone.
        self.listening: Callable[[list[str]], None] = _nobody
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

    def note(self, player: str, message: ServerMessage) -> None:
        """Keep ``message`` for ``player``'s next welcome: in the store the hall's
        processes share, if any (he may come back through another), else in memory."""
        if self.coord.keep_note(player, message):
            return
        kept = self.notes.pop(player, [])
        kept.append(message)
        self.notes[player] = kept[-NOTES_PER_PLAYER:]
        while len(self.notes) > NOTED_PLAYERS:
            self.notes.popitem(last=False)

    def notes_of(self, player: str) -> list[ServerMessage]:
        """The messages kept for ``player``, forgotten once taken."""
        return self.notes.pop(player, [])

    def room(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is None:
            raise UnknownRoom(f"no room {room_id[:64]!r}")
        return room

    def table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise UnknownTable(f"no table {table_id[:64]!r}")
        return table

    # -- quick match -------------------------------------------------------------------

    async def join(self, player: str, room_id: str, address: str = "", *,
                   bot: bool = False) -> None:
        """Queue ``player`` for a table in ``room_id``; ``address`` (his connection's) keeps
        him apart from another account of the same address, and the store's person
        behind the account keeps an owner and his bot accounts apart, from any address
        (``coordinator.kept_apart``). A player put back in the queue because another of
        his group sat down elsewhere meanwhile (``_matched``) goes back without his
        address (his person stays): rare, and never a lost place. A bot account
        (``bot``) is refused where the room does not take them."""
        room = self.room(room_id)
        if bot and not room.bot_accounts:
            raise BotsNotAllowed(f"{room.name} is for people: bot accounts play in rooms "
                                 "that take them (docs/bots.md)")
        await self._free_for_new_table(player)
        balance = (await self.store.balances([player]))[player]
        if balance < room.min_beans:
            raise BelowMinimum(f"{room.name} needs {room.min_beans} beans; you hold {balance}")
        table_id = new_table_id()
        joined = await self.queues.add(room.id, player, VARIANTS[room.variant].players,
                                       table_id,
                                       kept_apart(address, await self.store.person_of(player)))
        elsewhere = await self._matched(room, joined, table_id)
        if player in elsewhere:
            raise seated_elsewhere(elsewhere[player])
        if player in joined.waiting:
            bots_at = None if room.bot_wait_seconds is None or joined.since is None else \
                int((joined.since + room.bot_wait_seconds) * 1000)
            for p in joined.waiting:
                self.outbox.send(p, Queued(room=room.id, waiting=len(joined.waiting),
                                           bots_at=bots_at))

    async def _matched(self, room: Room, joined: Joined, table_id: str) -> dict[str, str]:
        """Seat the group a queue gave up; keep a bot timer for whoever still waits.

        If some of the group were seated elsewhere meanwhile, no table opens: the others
        go back to the queue, and those (with their tables) are returned."""
        elsewhere: dict[str, str] = {}
        if joined.group:
            try:
                await self._open(room, joined.group, table_id=table_id)
            except SeatedElsewhere as exc:
                elsewhere = exc.others
        if joined.waiting and joined.since is not None:
            self._arm(room, joined.since)
        for p in joined.group:
            if p not in elsewhere and elsewhere:
                try:
                    await self.join(p, room.id)
                except Refused as exc:
                    log.info("could not requeue %s: %s", p, exc)
        return elsewhere

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

    async def _gone(self, table_id: str) -> bool:
        """Does no process run ``table_id`` (and it has no live game to adopt)? Then its
        seats, left behind by a killed process, may be claimed again."""
        if table_id in self.tables or table_id in self._opening:
            return False
        if not await self.coord.unowned([table_id]):
            return False
        return not await has_live_game(self.store.db, table_id)

    async def _free_for_new_table(self, player: str) -> None:
        """A player may queue while his only tables are between games: he leaves them."""
        tables = await self.all_tables_of(player)
        stored = await self.store.seated_at(player)
        if stored is not None and stored not in tables:
            tables.append(stored)  # the database's word, when the index has not caught up
        for table_id in tables:
            # Gone meanwhile, or not his any more: he is free of it.
            with contextlib.suppress(UnknownTable, NotSeated):
                await self.call(TableCall(table=table_id, kind="free", player=player))

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
            self.listening([call.player])  # a watcher hears the table's chat
        cmd = commands.from_call(call)
        if isinstance(cmd, commands.Connection):
            table.submit(cmd)  # nobody waits for it: the table sends the state
        else:
            await table.call(cmd)

    async def _open(self, room: Room, players: Sequence[str | None], *, code: str | None = None,
                    owner: str | None = None, bots_allowed: bool = True,
                    spectators: bool = True, start: bool = True,
                    table_id: str | None = None) -> Table:
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
        self._opening.add(table_id)
        try:
            return await self._seat(room, seats, lease, code=code, owner=owner,
                                    bots_allowed=bots_allowed, spectators=spectators,
                                    start=start)
        finally:
            self._opening.discard(table_id)

    async def _seat(self, room: Room, seats: list[Seat], lease: Lease, *, code: str | None,
                    owner: str | None, bots_allowed: bool, start: bool,
                    spectators: bool = True) -> Table:
        """Claim the seats (SeatedElsewhere, nothing opened, if someone sits elsewhere),
        then run the table."""
        table_id = lease.table
        taken = await self.store.claim_seats(
            table_id, [s.player for s in seats if s.player is not None], self._gone)
        if taken:
            await self.coord.release(lease)
            raise SeatedElsewhere(taken)
        table = Table(table_id, room, seats, self.store, self.outbox,
                      self.bots, code=code, owner=owner, bots_allowed=bots_allowed,
                      spectators=spectators, on_close=self._closed,
                      grace_seconds=self.grace_seconds, fence=lease.fence,
                      scheduler=self.scheduler)
        if start:
            table.submit(commands.Begin())  # first in its queue, whoever comes next
        await self.adopt(table, lease, claimed=True)
        return table

    async def adopt(self, table: Table, lease: Lease, claimed: bool = False) -> None:
        """Run ``table`` here under ``lease``: it takes commands from now on. A table
        rebuilt from its log (not ``claimed`` by ``_open``) claims its seats again: they
        are normally still its own (then nothing is written: a hall restarted while the
        database is write-locked still adopts it)."""
        if not claimed and not await self.store.seats_held(table.id, table.humans()):
            await self._reclaim(table)
        table.latency_hook = self.latency_hook
        table.settled_hook = self.settled_hook
        table.on_seats = self._seats
        table.on_drop = self._dropped
        table.on_note = self.note
        watching = self.config.watching
        table.watch_cap = watching.per_table
        table.watch_delay = table.room.watch_delay if table.room.watch_delay is not None \
            else watching.delay
        table.chat.blocks = self._blocks
        self.listening(table.humans())
        self.tables[table.id] = table
        self.leases[table.id] = lease
        await self.coord.seated(table.id, table.humans(), [])
        table.start()

    def _blocks(self, listener: str, speaker: str) -> bool:
        return self.chat_blocks(listener, speaker)  # as the hook is now, not at adoption

    async def _seats(self, table: Table, players: list[str], gone: list[str]) -> None:
        """The table's seats changed: the database's claims first (a player seated
        elsewhere is refused, ``not_allowed``), then the cluster's index."""
        if gone:
            # Awaited, so a player who hears ``left`` may sit elsewhere at once; but not
            # for longer than a settlement is (a write-locked database must not hold the
            # table or its players): past that it goes on, retried, in the background.
            await asyncio.wait({self._background(self._release(table.id, gone))},
                               timeout=SETTLE_WAIT)
        if players:
            self.listening(players)
            taken = await self.store.claim_seats(table.id, players, self._gone)
            if taken:
                raise seated_elsewhere(next(iter(taken.values())))
        await self.coord.seated(table.id, players, gone)

    async def _reclaim(self, table: Table, failures: int = 0) -> None:
        """A rebuilt table claims its seats again. Its game runs whatever the claim finds
        (it cannot be undone): a player also seated elsewhere is said, for an operator,
        and a database that cannot take the write now does not stop the adoption: the
        claim is tried again with backoff while the table runs."""
        try:
            taken = await self.store.claim_seats(table.id, table.humans(), self._gone)
        except SQLAlchemyError as exc:
            failures += 1
            delay = retry_seconds(failures)
            log.warning("table %s: claiming its seats failed (try %d: %s); trying again "
                        "in %.1f s", table.id, failures, type(exc).__name__, delay)

            def again() -> None:
                if table.phase != TablePhase.CLOSED and not self._closing:
                    self._background(self._reclaim(table, failures))

            self.scheduler.call_later(delay, again)
            return
        if taken:
            log.error("table %s: players %s are also seated at %s", table.id,
                      sorted(taken), sorted(set(taken.values())))

    def _background(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(work)
        self._releasing.add(task)
        task.add_done_callback(self._releasing.discard)
        return task

    async def _release(self, table_id: str, players: list[str], failures: int = 0) -> None:
        """Give the players' seats back. A database that cannot take the write just now
        (a held lock, an outage) must not keep them at the table they left: the release
        is tried again with the settlements' backoff until it commits."""
        try:
            await self.store.release_seats(table_id, players)
        except SQLAlchemyError as exc:
            failures += 1
            delay = retry_seconds(failures)
            log.warning("table %s: giving back the seats of %d player(s) failed (try %d: "
                        "%s); trying again in %.1f s", table_id, len(players), failures,
                        type(exc).__name__, delay)

            def again() -> None:
                if not self._closing:  # else the next owner's adoption releases them
                    self._background(self._release(table_id, players, failures))

            self.scheduler.call_later(delay, again)

    def _dropped(self, table: Table) -> None:
        """Another process owns ``table`` now: forget it here, and give its lease back in
        case it is still ours (the release deletes only our own)."""
        self.tables.pop(table.id, None)
        lease = self.leases.pop(table.id, None)
        if lease is not None:
            self._background(self.coord.release(lease))

    async def close(self) -> None:
        """Wait a bounded time for the writes still running in the background; cancel
        and collect the rest, so that none outlives the database it writes to."""
        self._closing = True
        if not self._releasing:
            return
        _, pending = await asyncio.wait(set(self._releasing), timeout=SETTLE_WAIT)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

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
            except Refused as exc:
                log.info("could not requeue %s: %s", player, exc)

    # -- private tables ----------------------------------------------------------------

    async def private(self, player: str, room_id: str, bots: bool,
                      spectators: bool = True) -> Table:
        room = self.room(room_id)
        await self._free_for_new_table(player)
        await self.cancel(player)
        code = "".join(secrets.choice(CODE_CHARS) for _ in range(CODE_LENGTH))
        try:
            table = await self._open(room, [player], code=code, owner=player,
                                     bots_allowed=bots, spectators=spectators, start=False)
        except SeatedElsewhere as exc:
            raise seated_elsewhere(exc.others[player]) from None
        await self.coord.set_code(code, table.id)
        self.outbox.send(player, Invite(table=table.id, room=room.id, code=code))
        self.outbox.send(player, table.state_for(player))
        return table

    async def join_code(self, player: str, code: str, address: str = "") -> None:
        wait = self.code_tries.wait(player, address)
        if wait > 0:
            raise TooManyTries("too many wrong invite codes: try again in "
                                f"{max(1, round(wait / 60))} min")
        table_id = await self.coord.code_table(code)
        if table_id is None:
            self.code_tries.failed(player, address)
            raise UnknownTable(f"no table is waiting with code {code}")
        if table_id in await self.all_tables_of(player):
            raise NotAllowed("you already sit at that table")
        await self._free_for_new_table(player)
        await self.cancel(player)
        names = await self.store.names([player])
        name, title = names.get(player, ("", ""))
        await self.call(TableCall(table=table_id, kind="sit", player=player, text=name,
                                  title=title))
