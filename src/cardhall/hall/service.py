"""The hall as the server sees it: one object that takes players' messages.

``Hall`` owns the lobby (rooms, queues, tables) and the bot pool, rebuilds every
live table from the action log when it opens, and turns each typed client
message into a lobby or table command. It knows players by id only; the
server authenticates connections, delivers what the hall sends through the
``Outbox``, and reports connections coming and going.
"""

from __future__ import annotations

import logging
from typing import Any

from cardhall.hall import accounts
from cardhall.hall.botpool import BotPool
from cardhall.hall.config import HallConfig
from cardhall.hall.db import Database
from cardhall.hall.games import live_games
from cardhall.hall.levels import title_for
from cardhall.hall.lobby import BOT_NAMES, BOT_TITLE, Lobby
from cardhall.hall.messages import (
    Act,
    ClientMessage,
    Hello,
    Join,
    Leave,
    Next,
    Ping,
    PlayerInfo,
    Pong,
    Private,
    ProtocolError,
    Start,
    Watch,
    Welcome,
)
from cardhall.hall.outbox import Outbox
from cardhall.hall.store import DbStore
from cardhall.hall.table import GRACE_SECONDS, Command, Seat, Table, TablePhase

log = logging.getLogger("cardhall.hall")


class Hall:
    def __init__(self, config: HallConfig, db: Database, outbox: Outbox,
                 bots: BotPool | None = None, grace_seconds: float = GRACE_SECONDS) -> None:
        self.config = config
        self.db = db
        self.outbox = outbox
        self.bots = bots or BotPool()
        self.store = DbStore(db)
        self.lobby = Lobby(config, self.store, outbox, self.bots, grace_seconds)

    # -- life --------------------------------------------------------------------------

    async def open(self) -> int:
        """Rebuild every live game's table from its log; returns how many were rebuilt."""
        rebuilt = 0
        for game in await live_games(self.db):
            room = self.lobby.rooms.get(game.room_id)
            if room is None:
                log.error("game %s is in room %s, which the config no longer has",
                          game.id, game.room_id)
                continue
            names = await self.store.names([p for p in game.players if p])
            seats = [Seat(player=p, name=names.get(p, ("", ""))[0],
                          title=names.get(p, ("", ""))[1]) if p else
                     Seat(player=None, name=BOT_NAMES[i % len(BOT_NAMES)], title=BOT_TITLE)
                     for i, p in enumerate(game.players)]
            table = Table(game.table_id, room, seats, self.store, self.outbox, self.bots,
                          on_close=self.lobby._closed, grace_seconds=self.lobby.grace_seconds)
            table.latency_hook = self.lobby.latency_hook
            table.restore(game.id, game.record)
            balances = await self.store.balances([p for p in game.players if p])
            for s in seats:
                if s.player:
                    s.balance = balances.get(s.player, 0)
            self.lobby.tables[table.id] = table
            table.start()
            table.submit(Command("resume"))
            rebuilt += 1
        return rebuilt

    async def close(self) -> None:
        for table in list(self.lobby.tables.values()):
            await table.stop()
        await self.store.close()
        self.bots.close()

    # -- connections -------------------------------------------------------------------

    async def welcome(self, player_id: str) -> Welcome:
        """The ``welcome`` for a player who said hello; his tables' states follow it."""
        player = await accounts.get_player(self.db, player_id)
        balance = (await self.store.balances([player_id]))[player_id]
        info = PlayerInfo(id=player.id, name=player.name, beans=balance, points=player.points,
                          title=title_for(player.points), guest=player.is_guest,
                          admin=player.is_admin)
        return Welcome(player=info, tables=[t.id for t in self.lobby.tables_of(player_id)])

    def connected(self, player_id: str) -> None:
        """After the welcome went out: every table he sits at sends its state."""
        for table in self.lobby.tables_of(player_id):
            table.submit(Command("connection", player=player_id, text="up"))

    def disconnected(self, player_id: str) -> None:
        for table in self.lobby.tables_of(player_id):
            table.submit(Command("connection", player=player_id, text="down"))
        queued = self.lobby.queued_in(player_id)
        if queued is not None:
            self.lobby.cancel(player_id, queued)

    # -- messages ----------------------------------------------------------------------

    async def handle(self, player_id: str, msg: ClientMessage, admin: bool = False) -> None:
        """Carry out one message from an authenticated player; ProtocolError if refused."""
        match msg:
            case Hello():
                raise ProtocolError("already_authenticated", "this connection said hello")
            case Ping():
                self.outbox.send(player_id, Pong())
            case Join(code=code) if code is not None:
                await self.lobby.join_code(player_id, code)
            case Join(room=room) if room is not None:
                await self.lobby.join(player_id, room)
            case Join():
                raise ProtocolError("malformed", "join: give a room or an invite code")
            case Act(table=t, action=action, seq=seq):
                await self._seated(player_id, t).call(
                    Command("act", player=player_id, text=action, seq=seq))
            case Next(table=t):
                await self._seated(player_id, t).call(Command("next", player=player_id))
            case Leave(table=t) if t is not None:
                await self._seated(player_id, t).call(Command("leave", player=player_id))
            case Leave(room=room) if room is not None:
                if not self.lobby.cancel(player_id, room):
                    raise ProtocolError("not_seated", f"you are not queued in {room}")
            case Leave():
                raise ProtocolError("malformed", "leave: give a table or a room")
            case Private(room=room, bots=bots):
                await self.lobby.private(player_id, room, bots)
            case Start(table=t):
                await self._seated(player_id, t).call(Command("start_now", player=player_id))
            case Watch(table=t):
                if not admin:
                    raise ProtocolError("forbidden", "only an admin may watch a table")
                table = self.lobby.table(t)
                table.watchers.add(player_id)
                self.outbox.send(player_id, table.state_for(player_id))

    def _seated(self, player_id: str, table_id: str) -> Table:
        table = self.lobby.table(table_id)
        if table.seat_of(player_id) is None:
            raise ProtocolError("not_seated", f"you do not sit at table {table_id}")
        return table

    # -- operators ---------------------------------------------------------------------

    def live_tables(self) -> list[dict[str, Any]]:
        return [{"id": t.id, "room": t.room.id, "variant": t.room.variant,
                 "phase": str(t.phase), "game": t.game_id, "seq": t.seq,
                 "players": [s.player for s in t.seats], "private": t.code is not None}
                for t in self.lobby.tables.values()]

    async def kick(self, player_id: str) -> int:
        """Remove a player from every table (the game's penalty for a kick applies)."""
        tables = self.lobby.tables_of(player_id)
        for table in tables:
            await table.call(Command("kick", player=player_id))
        queued = self.lobby.queued_in(player_id)
        if queued is not None:
            self.lobby.cancel(player_id, queued)
        return len(tables)

    def room_counts(self) -> dict[str, dict[str, int]]:
        """Live counts per room for the lobby: players waiting, tables playing."""
        counts = {r: {"waiting": len(q.players), "tables": 0}
                  for r, q in self.lobby.queues.items()}
        for t in self.lobby.tables.values():
            if t.room.id in counts and t.phase != TablePhase.CLOSED:
                counts[t.room.id]["tables"] += 1
        return counts
