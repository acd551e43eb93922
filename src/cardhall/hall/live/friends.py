"""Friends in the live hall: who is online and where, the pushes, invites to a table.

The database keeps who is whose friend (``hall.store.friends``); this is what the hall
adds to it from its connections and tables:

- **Whereabouts.** A friend is online when he has a live connection to some process
  (``Coordinator.present``: Redis's presence keys, or this process's registry), and at
  a table when he sits at one (``Lobby.all_tables_of``, every process); the table's
  room comes from this process's tables, else from a census of the others, taken at
  most once per ``CENSUS_SECONDS`` per process (a census asks every process for every
  table: a busy friends screen must not turn into a census storm). A table opened
  since the last one has its room ``null`` until the next.
- **Pushes.** A request asked of a player, and his request accepted, reach him as a
  ``friend`` message wherever he is connected (the outbox crosses processes); a player
  who blocks the asker is told nothing (silently: ``hall.store.friends``).
- **Bring.** A player seated at a private table still filling invites a friend to it:
  the friend gets a ``brought`` with the table's code. Only a friend (a block ends the
  friendship, and a blocker is checked again: silently dropped), checked here and then
  at the table, whichever process runs it (a forwarded ``bring`` call), rate-limited
  per player; the table sends one inviter's invite of one friend once a minute
  (``seat_commands.BRING_AGAIN_SECONDS``).
- **Hearing.** ``hears(listener, speaker)``: whether a message of ``speaker`` (an
  invite) may reach ``listener``: False when the listener blocks him (one read).
  ``blocked(listener, speaker)`` answers the same at once, for a filter that must not
  wait (quick chat runs on a table's queue): from the listener's block list kept here,
  loaded when he connects to this process (``prime``) or, for a listener connected
  elsewhere, on the first question (answered "not blocked" until it is loaded), read
  again after ``BLOCKS_SECONDS``, and changed at once by a block or unblock made
  through this process or, told by it (``Blocks``), another. At most ``BLOCK_LISTS``
  lists are kept (the least lately asked go).

The rate limits are per player and per process (``RateLimiter``), like the hall's
others: several processes loosen them by their number.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardhall.hall.domain.errors import NotAllowed, TooManyTries
from cardhall.hall.domain.limits import RateLimiter
from cardhall.hall.store import friends as store
from cardhall.protocol.messages import Friend, Friendly
from cardhall.protocol.peer import TableCall

if TYPE_CHECKING:
    from cardhall.hall.cluster.coordinator import Coordinator
    from cardhall.hall.live.lobby import Lobby
    from cardhall.hall.store.db import Database

#: (events, seconds) per player: searches, asks (ask, accept, decline, remove, block,
#: unblock: every write), invites to a table, listings.
SEARCHES = (20, 60.0)
ASKS = (30, 600.0)
BRINGS = (10, 60.0)
LISTS = (60, 60.0)
#: Seconds a listener's block list is used for before it is read again, and how many
#: listeners' lists one process keeps.
BLOCKS_SECONDS = 30.0
BLOCK_LISTS = 20_000

log = logging.getLogger("cardhall.hall.friends")

#: Seconds a census of the other processes' tables (their rooms) is used for.
CENSUS_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class Spot:
    """Where a friend is: online or not; at ``table`` (of ``room``; ``private``: a
    private table's) or at none."""

    online: bool
    table: str | None = None
    room: str | None = None
    private: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"online": self.online, "table": self.table, "room": self.room,
                "private": self.private}


def friendly(someone: store.Someone) -> Friendly:
    return Friendly(id=someone.id, name=someone.name, title=someone.title)


class Friends:
    def __init__(self, db: Database, lobby: Lobby, coord: Coordinator,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.db = db
        self._clock = clock
        #: The last census: table → (room, private), and when it was taken.
        self._census: dict[str, tuple[str, bool]] = {}
        self._census_at: float | None = None
        #: listener → (whom he blocks, when read); a listener being read is in _loading.
        self._blocks: OrderedDict[str, tuple[frozenset[str], float]] = OrderedDict()
        self._loading: dict[str, asyncio.Task[None]] = {}
        self.lobby = lobby
        self.coord = coord
        self.searches = RateLimiter(*SEARCHES)
        self.asks = RateLimiter(*ASKS)
        self.brings = RateLimiter(*BRINGS)
        self.lists = RateLimiter(*LISTS)

    @staticmethod
    def limit(limiter: RateLimiter, player: str, what: str) -> None:
        """Count one of ``player``'s ``what``; ``TooManyTries`` (rate_limited) past it."""
        if not limiter.allow(player):
            wait = max(1, int(limiter.retry_after(player) + 0.999))
            raise TooManyTries(f"too many {what}: try again in {wait} s")

    async def whereabouts(self, players: list[str]) -> dict[str, Spot]:
        """Each of ``players``: online, and at which table of which room."""
        online = await self.coord.present(players)
        tables: dict[str, str] = {}
        for p in players:
            if p in online:
                sits = await self.lobby.all_tables_of(p)
                if sits:
                    tables[p] = sits[0]
        rooms: dict[str, tuple[str, bool]] = {
            t.id: (t.room.id, t.code is not None) for t in self.lobby.tables.values()}
        if any(t not in rooms for t in tables.values()):
            rooms = {**await self._others(), **rooms}
        spots = {}
        for p in players:
            table = tables.get(p)
            room, private = rooms.get(table, (None, False)) if table else (None, False)
            spots[p] = Spot(p in online, table, room, private)
        return spots

    async def _others(self) -> dict[str, tuple[str, bool]]:
        """Every table's room (and whether it is private), as the last census said."""
        now = self._clock()
        if self._census_at is None or now - self._census_at >= CENSUS_SECONDS:
            self._census_at = now
            self._census = {str(row["id"]): (str(row["room"]), bool(row["private"]))
                            for row in await self.coord.census()}
        return self._census

    async def asked(self, asker: store.Someone, outcome: store.Asked) -> None:
        """Push an ask's news to the other player (never to one who blocks the asker)."""
        if outcome.tell:
            self.lobby.outbox.send(outcome.other.id, Friend(
                event="accepted" if outcome.friends else "asked", player=friendly(asker)))

    def accepted(self, player: store.Someone, asker: str) -> None:
        """``player`` accepted ``asker``'s request: tell the asker."""
        self.lobby.outbox.send(asker, Friend(event="accepted", player=friendly(player)))

    async def hears(self, listener: str, speaker: str) -> bool:
        """May what ``speaker`` says (a chat, an invite) reach ``listener``?"""
        return not await store.blocks(self.db, listener, speaker)

    def blocked(self, listener: str, speaker: str) -> bool:
        """Does ``listener`` block ``speaker``? At once, from the list kept here (a miss
        or an old list is read again in the background: until then, not blocked)."""
        kept = self._blocks.get(listener)
        if kept is None or self._clock() - kept[1] >= BLOCKS_SECONDS:
            self.prime([listener])
        if kept is None:
            return False
        self._blocks.move_to_end(listener)
        return speaker in kept[0]

    def prime(self, listeners: list[str]) -> None:
        """Read these listeners' block lists in the background (one read each at a time)."""
        for p in listeners:
            if p not in self._loading:
                task = asyncio.get_running_loop().create_task(self._load(p))
                self._loading[p] = task
                task.add_done_callback(functools.partial(self._loaded, p))

    def _loaded(self, listener: str, task: asyncio.Task[None]) -> None:
        self._loading.pop(listener, None)

    async def loaded(self) -> None:
        """Wait for the block lists being read (tests, and a clean close)."""
        await asyncio.gather(*self._loading.values(), return_exceptions=True)

    async def _load(self, listener: str) -> None:
        try:
            self.keep(listener, await store.blocked_by(self.db, listener))
        except Exception as exc:  # the database away: the old list (if any) stays
            log.warning("block list of %s not read: %s", listener, type(exc).__name__)

    def keep(self, listener: str, blocks: set[str]) -> None:
        """``listener``'s block list is ``blocks`` now (read, or changed here)."""
        self._blocks[listener] = (frozenset(blocks), self._clock())
        self._blocks.move_to_end(listener)
        while len(self._blocks) > BLOCK_LISTS:
            self._blocks.popitem(last=False)

    async def changed(self, listener: str) -> None:
        """``listener`` blocked or unblocked someone here: read his list again now, and
        have the other processes do the same (a table he sits at may run there)."""
        await self._load(listener)
        await self.coord.blocks_changed(listener)

    async def reload(self, listener: str) -> None:
        """Another process says ``listener``'s list changed: read it again if kept (or
        being read: that read may have begun before the change) here."""
        if listener in self._blocks or listener in self._loading:
            await self._load(listener)

    async def bring(self, player: str, table_id: str, friend: str) -> None:
        """Invite ``friend`` to the private table ``player`` sits at (``bring``)."""
        self.limit(self.brings, player, "invites")
        if not await store.are_friends(self.db, player, friend):
            raise NotAllowed("only a friend can be invited")
        blocked = not await self.hears(friend, player)
        me = (await store.named(self.db, [player]))[0]
        # The table's own checks (seated, filling, the friend not there yet) run where
        # the table does, this process or another; a block drops the invite after them,
        # so the inviter cannot tell it from one delivered.
        call = TableCall(table=table_id, kind="bring", player=player, text=friend,
                         by=None if blocked else friendly(me))
        await self.lobby.call(call)
