"""The hall as the server sees it: one object that takes players' messages.

``Hall`` owns the lobby (rooms, queues, tables) and the bot pool, rebuilds every
live table from the action log when it opens, and turns each typed client
message into a lobby or table command. It knows players by id only; the
server authenticates connections, delivers what the hall sends through the
``Outbox``, and reports connections coming and going.

What lies beyond this process is the ``Coordinator``'s (``coordinator.py``): one
process runs on the local one, several on Redis's. A table is rebuilt here only
under a lease (``adopt``): at start every live game's table whose lease is free,
and later, with Redis, every table whose owner stopped renewing its lease.

Every table is adopted, whatever its log ends with: a game is rebuilt from its
actions up to its end (a log written before ``final`` existed may hold actions after
it: they are ignored, and logged); one that is over is settled at once (with retries:
``settlement.py``). A record that truly cannot be replayed (an action its rules
refuse, a variant version this hall does not play, a room no longer configured) is
voided: the game ends without any transfer, its players are freed and told, and the
log says so in one line. An adoption that fails for a passing reason (the database
locked or away) is tried again with backoff until it succeeds.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from cardhall.games import GameState, IllegalAction, replay
from cardhall.games.errors import BadSetup
from cardhall.hall.cluster.coordinator import Connections, Coordinator, LocalCoordinator
from cardhall.hall.domain.config import HallConfig
from cardhall.hall.domain.economy import bot_balance
from cardhall.hall.domain.errors import NotAllowed, NotSeated, Refused
from cardhall.hall.domain.levels import title_of
from cardhall.hall.events.matches import Challenges
from cardhall.hall.events.runner import Events
from cardhall.hall.events.store import is_event_table
from cardhall.hall.live import commands
from cardhall.hall.live.botpool import BotPool
from cardhall.hall.live.chat import ChatPace
from cardhall.hall.live.friends import Friends
from cardhall.hall.live.lobby import Lobby
from cardhall.hall.live.outbox import Outbox
from cardhall.hall.live.seats import BOT_NAMES, BOT_TITLE, Seat, TablePhase
from cardhall.hall.live.table import GRACE_SECONDS, Table
from cardhall.hall.live.timers import Scheduler, retry_seconds
from cardhall.hall.store import accounts
from cardhall.hall.store.db import Database
from cardhall.hall.store.game_reads import StoredGame, live_game_of, live_tables
from cardhall.hall.store.game_rows import claim_games, dealt_balances, dissolve_game
from cardhall.hall.store.models import Player
from cardhall.hall.store.table_store import DbStore
from cardhall.protocol.messages import (
    Act,
    Bring,
    Chat,
    Enter,
    HallMessage,
    Join,
    Leave,
    Left,
    Mute,
    Next,
    Ping,
    PlayerInfo,
    Pong,
    Private,
    ServerMessage,
    Spectators,
    Start,
    Watch,
    Welcome,
    Withdraw,
)
from cardhall.protocol.peer import CallKind, TableCall

#: Orphaned tables rebuilt at once (each holds a database connection while it does).
ADOPT_AT_ONCE = 8
#: Looks in a row (a quarter lease apart) that must find a live game's table without a
#: lease before it is adopted: three quarters of a lease, more than the third of a lease
#: in which a living owner sets a lease Redis lost again (``adopt_orphans``).
ORPHAN_LOOKS = 4

log = logging.getLogger("cardhall.hall")


class Hall:
    def __init__(self, config: HallConfig, db: Database, outbox: Outbox,
                 bots: BotPool | None = None, grace_seconds: float = GRACE_SECONDS,
                 coordinator: Coordinator | None = None,
                 connections: Connections | None = None,
                 scheduler: Scheduler | None = None) -> None:
        self.config = config
        self.db = db
        self.coord = coordinator or LocalCoordinator(outbox, connections)
        self.outbox = self.coord.outbox
        self.bots = bots or BotPool()
        self.store = DbStore(db, gather=config.action_log.gather_ms / 1000)
        self.lobby = Lobby(config, self.store, self.coord, self.bots, grace_seconds, scheduler)
        self.friends = Friends(db, self.lobby, self.coord)
        self.lobby.chat_blocks = self.friends.blocked  # a block stops chat too
        self.lobby.listening = self.friends.prime
        self._tasks: set[asyncio.Task[None]] = set()
        self._unadopted: set[str] = set()  # failed for a passing reason: tried again
        self._orphan_looks: dict[str, int] = {}  # looks in a row that found it unleased
        self._adopt_retry: asyncio.Task[None] | None = None
        self.events = Events(self)  # 比赛场 (hall.events)
        self.challenges = Challenges(self)  # challenges and the ladder (hall.events)
        #: The tables each player connected here watches (观战): his bound is
        #: ``watching.per_player``; his connection dropping stops them. A second
        #: connection of his takes them over: to this process in ``connected``, to
        #: another when this one hands them to it (``disconnected``, ``take_watches``).
        self.watching: dict[str, set[str]] = {}
        #: How often each player connected here may chat (``hall.live.chat``).
        self.chat_pace = ChatPace(config.limits.chat_gap_seconds,
                                  config.limits.chat_lines_per_minute)

    # -- life --------------------------------------------------------------------------

    async def open(self) -> int:
        """Rebuild every live game's table whose lease is free; returns how many."""
        await self.coord.start(self)
        adopted = await self.adopt_orphans()
        self.events.start()
        self.challenges.start_loop()
        return adopted

    async def adopt_orphans(self, *, patient: bool = False) -> int:
        """Take over the live games' tables nobody runs (at start, or after a process
        died); returns how many tables were rebuilt here.

        ``patient`` (the cluster's periodic look): a table is taken only once it was
        found without a lease at ``ORPHAN_LOOKS`` looks in a row. A lease missing at one
        look may be one Redis lost (it restarted empty) while its owner lives: the
        owner's next renewal, a third of a lease later, sets it again with its token,
        and taking the table meanwhile would move a game for nothing."""
        orphans = [t for t in await self.coord.unowned(await live_tables(self.db))
                   if t not in self.lobby.tables]
        if patient:
            self._orphan_looks = {t: self._orphan_looks.get(t, 0) + 1 for t in orphans}
            orphans = [t for t, n in self._orphan_looks.items() if n >= ORPHAN_LOOKS]
        # A dead process leaves hundreds of tables; each adoption is a few round trips and
        # a commit, so they go ADOPT_AT_ONCE at a time (their commits share fsyncs): its
        # players wait for the slowest, not for the sum (one by one: ~2 s for 170 tables).
        gate = asyncio.Semaphore(ADOPT_AT_ONCE)

        async def one(table_id: str) -> bool:
            async with gate:
                return await self.adopt(table_id)

        done = await asyncio.gather(*(one(t) for t in orphans), return_exceptions=True)
        for table_id, outcome in zip(orphans, done, strict=True):
            if isinstance(outcome, BaseException):  # the database locked or away: again
                log.warning("table %s could not be adopted yet (%s): trying again",
                            table_id, type(outcome).__name__, exc_info=outcome)
                self._unadopted.add(table_id)
            else:
                self._unadopted.discard(table_id)
        if self._unadopted and self._adopt_retry is None:
            self._adopt_retry = asyncio.get_running_loop().create_task(self._adopt_again())
        return sum(1 for outcome in done if outcome is True)

    async def _adopt_again(self) -> None:
        """Try the adoptions that failed again, with backoff, until none is left: a
        finished game found at start must be settled, however long the database is
        away (a single process has no other adoption loop)."""
        failures = 0
        try:
            while self._unadopted:
                failures += 1
                await asyncio.sleep(retry_seconds(failures))
                try:
                    await self.adopt_orphans()
                except Exception as exc:  # the live games could not even be listed
                    log.warning("adopting tables failed (%s): trying again",
                                type(exc).__name__)
        finally:
            self._adopt_retry = None

    async def adopt(self, table_id: str) -> bool:
        """Rebuild ``table_id`` from its live game's log, if its lease can be had."""
        found = await live_game_of(self.db, table_id)
        if found is None:
            return False
        lease = await self.coord.acquire(table_id, above=found.fence)
        if lease is None:
            return False
        claimed = 0
        if lease.fence is not None:  # the old owner's writes stop
            claimed = await claim_games(self.db, table_id, lease.fence)
        game = await live_game_of(self.db, table_id)  # read after the claim: all it wrote
        if game is not None and lease.fence is not None and not claimed:
            # Our token is not above the stored one: the counter restarted (Redis lost
            # its data). Raise it, give the lease back, and take the table next time.
            log.warning("table %s: fence %d is below the stored %d; raising the counter",
                        table_id, lease.fence, game.fence)
            await self.coord.floor_fence(game.fence)
            await self.coord.release(lease)
            return False
        if game is None:
            await self.coord.release(lease)
            return False
        room = self.lobby.rooms.get(game.room_id) or self.events.room(game.room_id)
        try:
            if room is None:
                raise BadSetup("bad_record", f"its room {game.room_id!r} is not in the config")
            state = _replay_to_end(game)
        except Exception as exc:  # a pure replay: it fails the same way every time
            await self._void(game, lease.fence, f"{type(exc).__name__}: {exc}")
            await self.coord.release(lease)
            return False
        table = await self._rebuild(game, room, state, lease.fence)
        present = await self.coord.present(table.humans())
        # Queued before anyone can reach the table: no command finds it unresumed.
        table.submit(commands.Resume(frozenset(present)))
        await self.lobby.adopt(table, lease)
        log.info("table %s rebuilt at seq %d", table.id, table.seq,
                 extra={"event": "adopt", "table": table.id, "fence": lease.fence})
        self.watch_again(table.id)
        await self.coord.adopted(table.id)  # and the other processes' watchers
        return True

    def watch_again(self, table_id: str) -> None:
        """``table_id`` was rebuilt from the log (here or by another process): its old
        owner's watchers are gone with it, so the players connected here who watched it
        watch it again (each is sent its state, or ``left`` if it refuses him now)."""
        for player_id, tables in list(self.watching.items()):
            if table_id in tables:
                self._spawn(self._rewatch(player_id, table_id, admin=False))

    async def _void(self, game: StoredGame, fence: int | None, why: str) -> None:
        """End a game whose record cannot be replayed, with no transfer; free and tell
        its players. One clear line for the operator."""
        players = [p for p in game.players if p is not None]
        await dissolve_game(self.db, game.id, fence=fence)
        log.error("game %s at table %s cannot be replayed (%s): voided without any "
                  "transfer; its players %s are free", game.id, game.table_id, why,
                  ", ".join(players) or "(none)",
                  extra={"event": "void", "table": game.table_id, "game": game.id})
        await self.coord.seated(game.table_id, [], players)
        left = Left(table=game.table_id, reason="void")
        for player in players:
            self.outbox.send(player, left)
            self.lobby.note(player, left)

    async def _rebuild(self, game: StoredGame, room: Any, state: GameState,
                       fence: int | None) -> Table:
        names = await self.store.names([p for p in game.players if p])
        seats = [Seat(player=p, name=names.get(p, ("", ""))[0],
                      title=names.get(p, ("", ""))[1]) if p else
                 Seat(player=None, name=BOT_NAMES[i % len(BOT_NAMES)], title=BOT_TITLE)
                 for i, p in enumerate(game.players)]
        table = Table(game.table_id, room, seats, self.store, self.outbox, self.bots,
                      on_close=self.lobby._closed, grace_seconds=self.lobby.grace_seconds,
                      fence=fence, scheduler=self.lobby.scheduler)
        table.game, table.game_id = state, game.id
        table.private = game.private  # its next games too: points only (ruling 14)
        # A private table's owner and his 观战 choice (an event's table: ``adopted``'s).
        table.owner, table.spectators = game.owner, game.spectators
        if is_event_table(table.id):
            await self.events.adopted(table)
        # The balances the game was dealt (held since its start), not today's: its
        # floors and caps were computed on them.
        balances = await dealt_balances(self.db, game.id) or \
            await self.store.balances([p for p in game.players if p])
        for s in seats:
            s.balance = balances.get(s.player, 0) if s.player else bot_balance(room.min_beans)
        return table

    def drop(self, table_id: str) -> None:
        """This process lost ``table_id``'s lease: stop running it, saying nothing."""
        table = self.lobby.tables.get(table_id)
        if table is not None:
            table._drop()

    async def close(self) -> None:
        await self.challenges.close()
        await self.events.close()
        for table in list(self.lobby.tables.values()):
            await table.stop()
        await self.lobby.close()
        # Work spawned for messages (watches again, unwatches) and block lists being
        # read (a stopping table may still have asked for one) each hold a database
        # connection: ended before the database is.
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.friends.loaded()
        await self.coord.close()
        await self.store.close()
        self.bots.close()

    # -- connections -------------------------------------------------------------------

    async def welcome(self, player_id: str, player: Player | None = None) -> Welcome:
        """The ``welcome`` for a player who said hello; his tables' states follow it.
        ``player``: his row as the hello's token check just read it (one read fewer per
        hello: a thousand players connecting at once queue for the database's pool)."""
        if player is None or player.id != player_id:
            player = await accounts.get_player(self.db, player_id)
        balance = (await self.store.balances([player_id]))[player_id]
        info = PlayerInfo(id=player.id, name=player.name, beans=balance, points=player.points,
                          title=title_of(player.points, player.is_bot), guest=player.is_guest,
                          admin=player.is_admin, bot=player.is_bot)
        return Welcome(player=info, tables=await self.lobby.all_tables_of(player_id))

    def connected(self, player_id: str, tables: list[str] | None = None,
                  missed: Sequence[ServerMessage] = (), admin: bool = False) -> None:
        """After the welcome went out: every table he sits at (the welcome's ``tables``;
        by default this process's) sends its state, and what he missed at tables he
        no longer sits at (``away``, ``left``) follows: ``missed`` (taken from the
        processes' shared store, ``coord.take_notes``) and what this process kept.

        A connection that superseded his other one here takes its watches over: each
        watched table sends it its state now (a watch again, which changes nothing
        else), so the new connection knows what it watches, and its drop stops them."""
        if tables is None:
            tables = [t.id for t in self.lobby.tables_of(player_id)]
        for message in [*missed, *self.lobby.notes_of(player_id)]:
            self.outbox.send(player_id, message)
        self._connection(player_id, tables, "up")
        for table_id in sorted(self.watching.get(player_id, ())):
            self._spawn(self._rewatch(player_id, table_id, admin))
        self.events.hello(player_id)

    def stop_watches(self, player_id: str, tables: Sequence[str]) -> None:
        """Stop ``player_id``'s watches of ``tables`` (each tells him ``left``)."""
        for table_id in tables:
            self._spawn(self._tell(TableCall(table=table_id, kind="unwatch",
                                             player=player_id)))

    async def take_watches(self, player_id: str, tables: Sequence[str], ready: bool) -> None:
        """Watches of ``player_id`` handed over by another process, whose connection
        he replaced by one here: counted and stopped here from now on. A connection
        still saying hello gets their states from ``connected``; a ``ready`` one (its
        ``connected`` ran without them) now. Those past his ``per_player`` bound (he
        watched others here meanwhile) stop, each telling him ``left``."""
        watched = self.watching.setdefault(player_id, set())
        room = max(0, self.config.watching.per_player - len(watched))
        new = [t for t in dict.fromkeys(tables) if t not in watched]
        tables, over = new[:room], new[room:]
        self.stop_watches(player_id, over)
        watched.update(tables)
        if not watched:
            self.watching.pop(player_id, None)
        if ready:
            admin = (await accounts.get_player(self.db, player_id)).is_admin
            for table_id in tables:
                self._spawn(self._rewatch(player_id, table_id, admin))

    async def _rewatch(self, player_id: str, table_id: str, admin: bool) -> None:
        """Send a watched table's state to the player's new connection; a table that
        refuses it now (closed meanwhile, or he sat down there) is no longer watched."""
        try:
            await self.lobby.call(TableCall(table=table_id, kind="watch", player=player_id,
                                            admin=admin))
        except Refused as exc:
            log.info("watch of %s by %s not taken over: %s", table_id, player_id, exc)
            self._forget_watch(player_id, table_id)
            self.outbox.send(player_id, Left(table=table_id, reason="unwatched"))

    async def disconnected(self, player_id: str, conn: int) -> None:
        """Connection ``conn`` closed; if it still spoke for the player, he is away,
        and his watches stop. If he is connected again, it is through another process
        (a second connection here never comes through here: it takes them over,
        ``connected``): his watches are handed to it (``take_watches``), which counts
        them against his bound and stops them when it loses him."""
        watched = sorted(self.watching.pop(player_id, set()))
        if not await self.coord.detach(player_id, conn):
            if watched and not await self.coord.hand_over(player_id, watched):
                self.stop_watches(player_id, watched)  # gone again meanwhile
            return
        self.stop_watches(player_id, watched)
        self._connection(player_id, await self.lobby.all_tables_of(player_id), "down")
        await self.lobby.cancel(player_id)

    def _connection(self, player_id: str, tables: list[str], text: str) -> None:
        for table_id in tables:
            table = self.lobby.tables.get(table_id)
            if table is not None:
                table.submit(commands.Connection(player_id, text == "up"))
            else:
                self._spawn(self._tell(TableCall(table=table_id, kind="connection",
                                                 player=player_id, text=text)))

    async def _tell(self, call: TableCall) -> None:
        try:
            await self.lobby.call(call)
        except Refused as exc:
            log.info("%s for %s at %s: %s", call.kind, call.player, call.table, exc)

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- messages ----------------------------------------------------------------------

    async def handle(self, player_id: str, msg: HallMessage, admin: bool = False,
                     address: str = "", bot: bool = False) -> None:
        """Carry out one message from an authenticated player (connected from
        ``address``, which limits wrong invite codes; ``bot``: a bot account's), or raise
        the ``Refused`` that says why the hall will not. The message's shape was checked
        when it was read (``protocol.messages``); ``hello`` and ``resync`` are the
        connection's own (``server.ws``) and never come here."""
        match msg:
            case Ping():
                self.outbox.send(player_id, Pong())
            case Join(code=code) if code is not None:
                await self.events.not_entered(player_id)
                await self.lobby.join_code(player_id, code, address)
            case Join(room=room) if room is not None:
                await self.events.not_entered(player_id)
                await self.lobby.join(player_id, room, address, bot=bot)
            case Act(table=t, action=action, seq=seq, choose=choose):
                await self._table(player_id, t, "act", text=action, seq=seq, choose=choose)
            case Next(table=t):
                await self._table(player_id, t, "next")
            case Leave(table=t) if t is not None:
                if t in self.watching.get(player_id, ()):
                    await self._unwatch(player_id, t)
                else:
                    await self._leave(player_id, t)
            case Leave(room=room) if room is not None:
                if not await self.lobby.cancel(player_id, room):
                    raise NotSeated(f"you are not queued in {room}")
            case Private(room=room, bots=bots, spectators=spectators):
                await self.events.not_entered(player_id)
                await self.lobby.private(player_id, room, bots, spectators)
            case Enter(kind=kind):
                await self.events.enter(player_id, kind, bot=bot)
            case Withdraw(event=event):
                await self.events.withdraw(player_id, event)
            case Start(table=t):
                await self._table(player_id, t, "start_now")
            case Chat(table=t, say=say):
                self.chat_pace.check(player_id)  # counted once said: a refusal is free
                await self._table(player_id, t, "chat", text=say)
                self.chat_pace.count(player_id)
            case Mute(table=t, seat=seat, on=on):
                await self._table(player_id, t, "mute", text="on" if on else "off", seat=seat)
            case Watch(table=t):
                await self._watch(player_id, t, admin)
            case Spectators(table=t, on=on):
                await self._table(player_id, t, "spectators", text="on" if on else "off")
            case Bring(table=t, player=friend):
                await self.friends.bring(player_id, t, friend)

    async def _watch(self, player_id: str, table_id: str, admin: bool) -> None:
        """观战 (``watchers.py``): at most ``watching.per_player`` tables at once, those
        that closed meanwhile not counted, nor those of this process that sent him away
        (their owner closed them to spectators)."""
        watched = self.watching.setdefault(player_id, set())
        if table_id not in watched and len(watched) >= self.config.watching.per_player:
            live = await self.coord.unowned(sorted(watched))
            watched.difference_update(live)  # closed since: no process runs them
            watched.difference_update([t for t, table in self.lobby.tables.items()
                                       if t in watched and player_id not in table.watchers])
        if table_id not in watched and len(watched) >= self.config.watching.per_player:
            raise NotAllowed(f"you watch {len(watched)} tables already, the most one "
                             "player may: leave one first")
        try:
            await self.lobby.call(TableCall(table=table_id, kind="watch", player=player_id,
                                            admin=admin))
        finally:
            if not watched:
                self.watching.pop(player_id, None)
        watched.add(table_id)
        self.watching[player_id] = watched

    async def _leave(self, player_id: str, table_id: str) -> None:
        """Leave a seat; not seated there, stop watching it (a watch this process does
        not know of: made through another process before a reconnect)."""
        try:
            await self._table(player_id, table_id, "leave")
        except NotSeated as exc:
            try:
                await self._unwatch(player_id, table_id)
            except NotSeated:
                raise exc from None

    def _forget_watch(self, player_id: str, table_id: str) -> None:
        watched = self.watching.get(player_id, set())
        watched.discard(table_id)
        if not watched:
            self.watching.pop(player_id, None)

    async def _unwatch(self, player_id: str, table_id: str) -> None:
        self._forget_watch(player_id, table_id)
        await self.lobby.call(TableCall(table=table_id, kind="unwatch", player=player_id))

    async def _table(self, player_id: str, table_id: str, kind: CallKind, text: str = "",
                     seq: int | None = None, choose: bool = False,
                     seat: int | None = None) -> None:
        await self.lobby.call(TableCall(table=table_id, kind=kind, player=player_id,
                                        text=text, seq=seq, choose=choose, seat=seat))

    # -- operators ---------------------------------------------------------------------

    def local_tables(self) -> list[dict[str, Any]]:
        """This process's live tables, as the admin's table list shows them."""
        return [{"id": t.id, "room": t.room.id, "variant": t.room.variant,
                 "phase": str(t.phase), "game": t.game_id, "seq": t.seq,
                 "settling": t.settling,  # its game is over, its settlement being retried
                 "players": [s.player for s in t.seats], "private": t.code is not None,
                 "process": self.coord.process,
                 # for the lobby's list of tables to watch (``watchable``)
                 "names": [s.name for s in t.seats], "watchers": len(t.watchers),
                 "spectators": t.spectators}
                for t in self.lobby.tables.values()]

    async def live_tables(self) -> list[dict[str, Any]]:
        """Every live table of the hall, whichever process runs it."""
        return await self.coord.census()

    async def kick(self, player_id: str) -> int:
        """Remove a player from every table (the game's penalty for a kick applies)."""
        tables = await self.lobby.all_tables_of(player_id)
        for table_id in tables:
            await self.lobby.call(TableCall(table=table_id, kind="kick", player=player_id))
        await self.lobby.cancel(player_id)
        return len(tables)

    def local_counts(self) -> dict[str, int]:
        """Tables open per room in this process."""
        counts: dict[str, int] = {}
        for t in self.lobby.tables.values():
            if t.phase != TablePhase.CLOSED:
                counts[t.room.id] = counts.get(t.room.id, 0) + 1
        return counts

    async def room_counts(self) -> dict[str, dict[str, int]]:
        """Live counts per room for the lobby: players waiting, tables playing."""
        waiting = await self.coord.queues.waiting()
        tables = await self.coord.table_counts()
        return {r: {"waiting": waiting.get(r, 0), "tables": tables.get(r, 0)}
                for r in self.lobby.rooms}


def _replay_to_end(game: StoredGame) -> GameState:
    """The game its logged actions play, up to its end. A log written before the end
    was logged as final may go on after it (a leave, a 托管 toggle): those actions are
    ignored, and logged. IllegalAction if the record cannot be replayed."""
    actions = list(game.record.get("actions") or [])
    state = replay({**game.record, "actions": []})
    for i, text in enumerate(actions):
        if state.over:
            log.warning("game %s: %d logged actions after its end ignored (%s)", game.id,
                        len(actions) - i, ", ".join(repr(a[:40]) for a in actions[i:i + 5]),
                        extra={"event": "adopt_trailing", "game": game.id})
            break
        try:
            state.apply(text)
        except IllegalAction as exc:
            raise BadSetup("record_action", f"action {i + 1} ({text[:60]!r}): {exc}",
                           number=i + 1, cause=exc.reason) from None
    return state
