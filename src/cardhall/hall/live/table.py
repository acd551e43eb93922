"""One live table: its seats, its game, and the one queue through which it changes.

Everything that can change a table (a player's action, a timer running out, a
bot's answer, 托管 toggles, a disconnect, a player leaving, the next game) is a
command on the table's bounded queue, and one task takes them in order: the
table is never touched by two things at once, and no lock is held across an
await. An accepted action is written to the game's action log before anyone
hears of it (``TableStore.append``), so a crash loses nothing that was told.

States: ``WAITING`` (a private table filling up), ``PLAYING`` (a game runs),
``BETWEEN`` (the game is over; each player chooses to play on or leave), ``CLOSED``.

A game that is over never holds its players (``settlement.py``): its settlement is
tried at once and, if the database does not commit it within ``SETTLE_WAIT``, goes on
in the background and is retried with backoff until it commits (a restarted hall
settles it from the log); meanwhile the table is ``BETWEEN``, its players may leave,
join elsewhere or press 再来一局 (the next game starts once it commits), and each gets
the ``settled`` message when it commits. The action that ends a game is logged as its
last (``final``): the store refuses anything after it, and so does the table.

A dropped connection is never a leave (platform rules §5, ruling 13): the seat plays
on 托管 to the end of the game and is scored normally; only an explicit leave is an
escape. A player who comes back is told what happened meanwhile (``away``). Between
games a disconnected player does not hold up the others' 再来一局 (``away.py``),
and a table with none of its players connected closes after ``grace_seconds``.

When several processes run the hall, a table runs in the one that holds its
lease, and its writes carry the lease's fencing token (``fence``). A write the
database refuses as fenced means another process has taken the table over: the
table is dropped here at once (``CLOSED``, nobody told anything, nothing else
written), and its players hear from the new owner.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, assert_never

from cardhall.games import Action, GameState, IllegalAction, replay
from cardhall.games.base import Event
from cardhall.games.errors import Ambiguous, NotYourTurn, excerpt
from cardhall.hall.domain.config import Room
from cardhall.hall.domain.errors import (
    Busy,
    Fenced,
    GameRefused,
    NotAllowed,
    NotEnoughBeans,
    NotSeated,
    Refused,
    Stale,
    UnknownTable,
)
from cardhall.hall.live import away, chat, dealing, seat_commands, settlement, watchers
from cardhall.hall.live import commands as c
from cardhall.hall.live.botpool import BotPool
from cardhall.hall.live.outbox import Outbox
from cardhall.hall.live.seats import Pace, Seat, TablePhase, TableStore
from cardhall.hall.live.timers import Cancellable, LoopScheduler, Scheduler, decision_seconds
from cardhall.hall.live.views import Views
from cardhall.hall.store.failures import as_refusal
from cardhall.protocol.messages import Left, SeatInfo, ServerMessage, Settled, State

log = logging.getLogger("cardhall.hall.table")

#: Commands a table may hold before refusing more (a flood is refused, not queued).
QUEUE_LIMIT = 256
#: The policy that answers for a seat on 托管 (an empty seat is filled by the room's bot,
#: ``Room.bot``, whose name is a rated identity: ``hall.domain.ratings``).
AUTO_BOT = "tuoguan"
#: Seconds a table between games waits with none of its players connected before it
#: closes (nothing is lost: no game runs; a disconnect during a game is never a leave).
GRACE_SECONDS = 30.0
#: Deals a table plays with every seat on 托管 before it gives the game up: 托管 never
#: bids or declares, so such a table would redeal for ever (docs/rulings.md, "The hall").
MAX_AUTO_DEALS = 10
#: Deals a game start tries when a player's beans change under it (ruling 15's hold).
START_TRIES = 3


class Table:
    """A table of one room. Built by the lobby; runs until it closes."""

    def __init__(self, table_id: str, room: Room, seats: list[Seat], store: TableStore,
                 outbox: Outbox, bots: BotPool, *, code: str | None = None,
                 owner: str | None = None, bots_allowed: bool = True, spectators: bool = True,
                 on_close: Callable[[Table, list[str]], Awaitable[None]] | None = None,
                 grace_seconds: float = GRACE_SECONDS, fence: int | None = None,
                 scheduler: Scheduler | None = None) -> None:
        self.id = table_id
        self.room = room
        self.seats = seats
        self.store = store
        self.outbox = outbox
        self.bots = bots
        self.code = code
        self.owner = owner
        self.bots_allowed = bots_allowed
        self.on_close = on_close
        self.grace_seconds = grace_seconds
        self.fence = fence
        #: A private table (好友房): its games are played for points only (ruling 14).
        self.private = code is not None
        #: An event's table: the event deals its games and closes it; it cannot be left.
        self.pace: Pace | None = None
        #: Where the settlement's retries and the idle close are timed (a test's hand).
        self.scheduler: Scheduler = scheduler or LoopScheduler()
        #: Told a message for a player who will not see it here (he is away and the
        #: table closes): the hall gives it to him after his next ``welcome``.
        self.on_note: Callable[[str, ServerMessage], None] | None = None
        #: Told who sits here and who no longer does (the cluster's index of seats).
        self.on_seats: Callable[[Table, list[str], list[str]], Awaitable[None]] | None = None
        #: Told when the table is dropped because another process owns it now.
        self.on_drop: Callable[[Table], None] | None = None
        self.phase = TablePhase.WAITING
        self.dropped = False  # closed because another process owns the table now
        self.game: GameState | None = None
        self.views = Views()  # of the game's current state, for its messages and timer
        #: The engine's events of the last accepted action: (game, seq, events), told
        #: to delta clients with the state they made (``State.events``).
        self._told: tuple[str, int, list[Event]] | None = None
        self.game_id: str | None = None
        #: The seq at which the window of answers now open began (several seats answer
        #: at once): an answer sent on any state since is not stale (``_on_act``).
        self._window_from = 0
        self.deadline: int | None = None  # ms since the epoch
        self.queue: asyncio.Queue[c.Queued] = asyncio.Queue(QUEUE_LIMIT)
        #: Who watches (观战, ``watchers.py``): they see ``lag``, ``watch_delay`` actions
        #: behind; at most ``watch_cap`` of them; ``spectators`` False: admins only (those
        #: of ``watchers`` who are: ``admin_watchers``).
        self.watchers: set[str] = set()
        self.admin_watchers: set[str] = set()
        self.lag = watchers.Lag()
        self.watch_delay = room.watch_delay if room.watch_delay is not None else 3
        self.watch_cap = 20
        self.spectators = spectators
        self.recount: Cancellable | None = None  # the watcher count's next telling
        self.told_watchers = 0  # the count the last broadcast told
        self.chat = chat.TableChat()  # its listeners' mutes, the block hook, its bots' pace
        self.brought = seat_commands.invites()  # (inviter, friend): one ``bring`` a minute
        self._timer: asyncio.TimerHandle | None = None
        self._idle: Cancellable | None = None
        #: Seat → decisions 托管 took for it since its player's connection dropped.
        self._away: dict[int, int] = {}
        self._asked: set[tuple[int, int]] = set()  # (seq, seat) a bot is deciding
        self._task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.actions_accepted = 0
        #: Told the seconds an accepted action spent in each stage: a player's waiting in
        #: the table's queue (``queued``), its log commit (``logged``), and log + apply +
        #: broadcast (``total``; a game's last action: its settlement too).
        self.latency_hook: Callable[[str, float], None] | None = None
        #: Told once per game whose end (settled or dissolved) this table committed.
        self.settled_hook: Callable[[], None] | None = None
        #: The last game's settlement while the table is between games: told again to a
        #: player who comes back (a reload, a restart), so his settlement screen is not lost.
        self.last_settled: Settled | None = None
        #: The game is over and its settlement has not committed yet (``settlement.py``).
        self.settling = False
        self.settle_failures = 0
        self._retry: Cancellable | None = None
        self._attempting: asyncio.Task[dict[str, Any]] | None = None
        self._close_after: tuple[str, bool] | None = None  # asked to close while settling
        self._owed: list[str] = []  # told the settlement when it commits

    # -- running ---------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")

    async def _run(self) -> None:
        while self.phase != TablePhase.CLOSED:
            cmd = await self.queue.get()
            if self._is_closed():  # closed or dropped while we waited
                _answer(cmd, self._gone())
                break
            try:
                await self._handle(cmd.command, cmd.made)
                _answer(cmd, None)
            except Refused as exc:
                _answer(cmd, exc)
            except Fenced as exc:
                log.warning("table %s: another process owns it now (%s): dropped", self.id, exc)
                self._drop()
                _answer(cmd, self._gone())
            except Exception as exc:  # one bad command must not kill the table
                log.exception("table %s: %s failed", self.id, type(cmd.command).__name__)
                _answer(cmd, as_refusal(exc))  # a kind and a sentence: the rest is logged
        while not self.queue.empty():  # nobody waits for ever on a closed table
            _answer(self.queue.get_nowait(), self._gone())

    def _is_closed(self) -> bool:
        return self.phase == TablePhase.CLOSED

    def _gone(self) -> Refused:
        """The answer to a command that finds the table closed: ``busy`` when it was
        dropped (another process runs it now: the command goes there next time),
        ``unknown_table`` when it ended here."""
        if self.dropped:
            return Busy(f"table {self.id} moved to another server: try again")
        return UnknownTable(f"table {self.id} has closed")

    def _drop(self) -> None:
        """Stop at once, saying nothing: another process runs this table now."""
        self.dropped = True
        self.phase = TablePhase.CLOSED
        self._cancel_timers()
        if self.on_drop is not None:
            self.on_drop(self)

    async def stop(self) -> None:
        self.phase = TablePhase.CLOSED
        self._cancel_timers()
        if self._task is not None:
            self._task.cancel()

    def submit(self, command: c.TableCommand,
               done: asyncio.Future[None] | None = None) -> bool:
        """Queue a command; False when the table is flooded (the caller says ``busy``)."""
        if self.phase == TablePhase.CLOSED:
            return False
        try:
            self.queue.put_nowait(c.Queued(command, done))
        except asyncio.QueueFull:
            return False
        return True

    def _post(self, command: c.TableCommand) -> None:
        """Queue a command of the table's own (a timer, a bot's answer): never dropped.

        It waits for room in the queue instead of being refused, so a flood of
        player messages can delay a timer but never lose it (the table would stall).
        """
        if self.phase != TablePhase.CLOSED:
            self._spawn(self.queue.put(c.Queued(command)))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background, held until done (the loop keeps only weak refs)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def call(self, command: c.TableCommand) -> None:
        """Queue a command and wait until the table has taken it (a ``Refused`` if refused)."""
        self._check_seated(command)  # a stranger's command takes no room in the queue
        done = asyncio.get_running_loop().create_future()
        if not self.submit(command, done):
            raise Busy(f"table {self.id} is busy: try again")
        await done

    def _check_seated(self, cmd: c.TableCommand) -> None:
        """A seated player's command (``c.SEATED``) from a player not seated here is
        refused: before it is queued, and again when it runs (he may have left since)."""
        if isinstance(cmd, c.SEATED) and self.seat_of(cmd.player) is None:
            raise NotSeated(f"you do not sit at table {self.id}")

    # -- who sits where --------------------------------------------------------------

    def seat_of(self, player: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.player == player and not s.left:
                return i
        return None

    def humans(self) -> list[str]:
        return [s.player for s in self.seats if s.player is not None and not s.left]

    def seat_infos(self) -> list[SeatInfo]:
        auto = self.game.auto if self.game is not None else [False] * len(self.seats)
        between = self.phase == TablePhase.BETWEEN
        return [SeatInfo(seat=i, id=s.player, name=s.name, title=s.title, bot=s.bot,
                         connected=s.connected or not s.human, auto=bool(auto[i]),
                         next=between and s.wants_next)
                for i, s in enumerate(self.seats)]

    @property
    def seq(self) -> int:
        return 0 if self.game is None else len(self.game.actions)

    # -- commands ----------------------------------------------------------------------

    async def _handle(self, cmd: c.TableCommand, made: float) -> None:
        self._check_seated(cmd)
        match cmd:
            case c.Play():
                await self._on_act(cmd, made)
            case c.BotAnswer():
                await self._on_bot(cmd)
            case c.Expire():
                await self._on_expire(cmd)
            case c.Begin():
                await self._start_game()
            case c.Resume():
                await self._on_resume(cmd)
            case c.PlayOn():
                await seat_commands.on_next(self, cmd)
            case c.Leave():
                await seat_commands.on_leave(self, cmd)
            case c.Free():
                await seat_commands.on_free(self, cmd)
            case c.Kick():
                await seat_commands.on_kick(self, cmd)
            case c.Sit():
                await seat_commands.on_sit(self, cmd)
            case c.StartNow():
                await seat_commands.on_start_now(self, cmd)
            case c.Say():
                chat.on_say(self, cmd)
            case c.Mute():
                chat.on_mute(self, cmd)
            case c.Bring():
                seat_commands.on_bring(self, cmd)
            case c.Connection():
                await away.on_connection(self, cmd)
            case c.Watch():
                await watchers.on_watch(self, cmd)
            case c.Unwatch():
                await watchers.on_unwatch(self, cmd)
            case c.Spectators():
                await watchers.on_spectators(self, cmd)
            case c.Recount():
                watchers.on_recount(self)
            case c.Idle():
                await away.on_idle(self, cmd)
            case c.SettlementDone():
                await settlement.on_settlement(self, cmd)
            case c.SettleAgain():
                await settlement.on_settle(self, cmd)
            case _:
                assert_never(cmd)

    async def _on_resume(self, cmd: c.Resume) -> None:
        """Rebuilt from the log after a restart or a takeover: deadlines start anew;
        ``cmd.present``: the players connected somewhere (they get the state)."""
        game = self.game
        assert game is not None
        self.phase = TablePhase.PLAYING
        for s in self.seats:
            if s.player is not None:
                s.connected = s.player in cmd.present and not s.left
        if game.over:  # it crashed after the last action, before settling
            await settlement.settle(self)
            return
        for i, s in enumerate(self.seats):
            # Not yet back after the restart: most are reconnecting, so no 托管 at once;
            # a turn that runs out puts the seat on it, as for anyone (counted as away).
            if s.human and not s.connected and not game.left[i]:
                self._away.setdefault(i, 0)
        self._after_change()

    async def _on_act(self, cmd: c.Play, made: float) -> None:
        seat = self.seat_of(cmd.player)
        assert seat is not None  # checked by _handle
        game = self.game
        if game is None or self.phase != TablePhase.PLAYING:
            raise GameRefused("no game is running at this table")
        text = cmd.text.strip()
        own = text in ("auto on", "auto off", "leave")
        # 托管 and leaving are the seat's own, at any moment: a table that moved on since
        # the player looked does not make them stale. Every other action must be.
        # In a window where several seats answer at once, another seat's answer does not
        # make a seat's own answer stale: he answers what he saw, which it did not change.
        answering = (cmd.seq is not None and self._window_from <= cmd.seq <= self.seq
                     and seat in game.acting)
        if cmd.seq != self.seq and not own and not answering:
            raise Stale(f"you acted on state {cmd.seq}; the table is at {self.seq}")
        if own:
            text = f"@{seat} {text}"
        try:
            action = game.resolve(text, seat)
        except IllegalAction as exc:
            readings = None if isinstance(exc, NotYourTurn) else game.readings(text, seat)
            raise GameRefused.of(exc, readings or None) from None
        if cmd.choose and not own:
            readings = game.readings(text, seat)
            if len(readings) > 1:
                raise GameRefused.of(Ambiguous(f"{excerpt(text)} has several readings: "
                                               + ", ".join(readings), readings), readings)
        if self.latency_hook is not None:
            self.latency_hook("queued", time.perf_counter() - made)
        await self._accept(action, seat)

    async def _on_bot(self, cmd: c.BotAnswer) -> None:
        """A bot's (or the 托管 policy's) answer for ``cmd.seat``, asked at ``cmd.seq``."""
        self._asked.discard((cmd.seq, cmd.seat))
        game = self.game
        if game is None or self.phase != TablePhase.PLAYING or cmd.seat not in game.acting:
            return
        if not self._machine_seat(cmd.seat):
            return  # the player took his seat back meanwhile
        try:
            action = game.resolve(cmd.text, cmd.seat)
        except IllegalAction:
            log.warning("table %s: bot answer %r for seat %s is stale", self.id, cmd.text,
                        cmd.seat)
            self._after_change()
            return
        if cmd.seat in self._away:
            self._away[cmd.seat] += 1  # a decision 托管 took while he was away
        await self._accept(action, cmd.seat)

    async def _on_expire(self, cmd: c.Expire) -> None:
        """The turn timer ran out: every seat still to answer goes on 托管 (§3)."""
        game = self.game
        if game is None or (cmd.game, cmd.seq) != (self.game_id, self.seq):
            return
        for seat in list(game.acting):
            if self.seats[seat].human and not game.auto[seat]:
                await self._accept(f"@{seat} auto on", seat)
        self._after_change()

    # -- the game ----------------------------------------------------------------------

    async def _start_game(self) -> None:
        for attempt in range(START_TRIES):
            game = await dealing.deal(self)
            try:
                # Holds each player's dealt balance (ruling 15), refused if he spent some
                # since it was read: then deal again on what he has now.
                game_id = await self.store.start_game(self, game)
                break
            except NotEnoughBeans:
                if attempt == START_TRIES - 1:
                    raise Busy("the players' beans kept changing while the game started: "
                               "try again") from None
        self.game, self.game_id, self.last_settled = game, game_id, None
        self._window_from = 0
        self._away.clear()
        self.phase = TablePhase.PLAYING
        self._asked.clear()
        self._after_change()

    def restore(self, game_id: str, record: dict[str, Any]) -> None:
        """Rebuild the running game from its stored record (every logged action)."""
        self.game = replay(record)
        self._window_from = self.seq
        self.game_id = game_id

    async def _accept(self, action: Action | str, seat: int | None) -> None:
        """Apply, log, then tell: an action is durable before anyone hears of it.

        ``action`` is what ``game.resolve`` returned (applied without a second check) or
        a canonical text of the table's own (``@S auto on``).

        It is applied first only to learn whether it ends the game: the game's last
        action is logged as such (``final``), and the log then takes nothing more. If
        the log refuses or fails, the game is rebuilt without it (nobody heard of it).
        """
        game, game_id = self.game, self.game_id
        assert game is not None and game_id is not None
        if game.over or self.phase != TablePhase.PLAYING:
            raise NotAllowed("this game is over: it takes no more actions")
        started = time.perf_counter()
        seq = self.seq + 1
        acting, phase = set(game.acting), game.phase
        events = game.apply(action, seat)  # the seat resolve() was asked for: not checked again
        try:
            await self.store.append(game_id, seq, game.actions[-1], seat, self.fence,
                                    final=game.over)
        except BaseException:
            self.game = replay({**game.record(), "actions": game.actions[:-1]})
            raise
        self._told = (game_id, seq, events)
        if len(acting) < 2 or game.phase != phase or not set(game.acting) <= acting:
            self._window_from = seq  # not one answer of a window that stays open
        if self.latency_hook is not None:
            self.latency_hook("logged", time.perf_counter() - started)
        self.actions_accepted += 1
        if game.over:
            await settlement.settle(self)
            chat.at_end(self)
        elif all(game.auto) and int(getattr(game, "deals", 0)) > MAX_AUTO_DEALS:
            await self.store.abandon(self, game)  # nobody will ever bid: no game, no score
            await self._close("dissolved", requeue=False)
        else:
            self._after_change()
        if self.latency_hook is not None:
            self.latency_hook("total", time.perf_counter() - started)

    async def _close(self, reason: str, requeue: bool) -> None:
        if self.settling:  # it closes once its game is settled: the retries go on
            self._close_after = self._close_after or (reason, requeue)
            return
        self.phase = TablePhase.CLOSED
        self._cancel_timers()
        remaining = self.humans()
        for i, s in enumerate(self.seats):  # the ones away hear of it on their return
            if s.player is not None and not s.left and not s.connected:
                away.note_away(self, i)
                away.note(self, s.player, Left(table=self.id, reason=reason))
        await self._seats_changed([], remaining)
        for player in remaining:
            self.outbox.send(player, Left(table=self.id, reason=reason))
        for player in self.watchers:  # their connections forget it
            self.outbox.send(player, Left(table=self.id, reason=reason))
        self.watchers.clear()
        self.admin_watchers.clear()
        self.lag.forget()
        if self.on_close is not None:
            # Only players still connected go back to the queue: a disconnected one
            # would be matched into a game he cannot see.
            back = [p for p in remaining if self.seats[self.seat_of(p) or 0].connected]
            await self.on_close(self, back if requeue else [])

    async def _seats_changed(self, players: list[str], gone: list[str]) -> None:
        if self.on_seats is not None:
            await self.on_seats(self, players, gone)

    # -- after every change: views out, timers and bots in ------------------------------

    def _machine_seat(self, seat: int) -> bool:
        game = self.game
        s = self.seats[seat]
        return not s.human or s.left or (game is not None and game.auto[seat])

    def _after_change(self) -> None:
        game = self.game
        if game is None or self.phase != TablePhase.PLAYING:
            return
        self._cancel_turn_timer()
        acting = game.acting
        waiting_humans = [s for s in acting if not self._machine_seat(s)]
        if waiting_humans:
            view = self.views.of(game, waiting_humans[0])
            seconds = decision_seconds(self.room.turn_seconds, view)
            self.deadline = int((time.time() + seconds) * 1000)
            expire = c.Expire(self.game_id, self.seq)
            self._timer = asyncio.get_running_loop().call_later(
                seconds, lambda: self._post(expire))
        else:
            self.deadline = None
        self._broadcast()
        for seat in acting:
            if self._machine_seat(seat) and (self.seq, seat) not in self._asked:
                self._ask_bot(seat)

    def _ask_bot(self, seat: int) -> None:
        game = self.game
        assert game is not None
        seq = self.seq
        self._asked.add((seq, seat))
        mine = self.seats[seat]
        name = (mine.brain or self.room.bot) if not mine.human else AUTO_BOT
        view = self.views.of(game, seat)  # shared with the seat's messages: bots only read

        async def ask() -> None:
            loop = asyncio.get_running_loop()
            asked = loop.time()
            text = await self.bots.decide(name, game.variant.id, seat, game.seed, view)
            pause = self.room.bot_seconds - (loop.time() - asked)
            if pause > 0:  # the room's pace: a person follows the play (Room.bot_seconds)
                await asyncio.sleep(pause)
            self._post(c.BotAnswer(seat, seq, text))

        self._spawn(ask())

    def _audience(self) -> list[str]:
        return [*self.humans(), *self.watchers]

    def state_for(self, player: str, players: list[SeatInfo] | None = None) -> State:
        """The ``state`` message for one player (or a watcher: seat -1, public view);
        ``players``: the seats as ``seat_infos`` gives them now (one list for every
        message of a change)."""
        seat = self.seat_of(player)
        view = None
        events = None
        seq, deadline = self.seq, self.deadline
        if self.game is not None and seat is None:  # a watcher: the game as it was
            seq, view, deadline = watchers.seen(self)
        elif self.game is not None and seat is not None:
            view = self.views.of(self.game, seat)
        if self.game is not None and seq == self.seq:
            told = self._told
            if told is not None and told[:2] == (self.game_id, self.seq):
                events = self.game.events_for(told[2], -1 if seat is None else seat)
        phase = {TablePhase.PLAYING: "playing", TablePhase.BETWEEN: "between"}.get(
            self.phase, "waiting")
        return State(table=self.id, room=self.room.id, game=self.game_id, seq=seq,
                     seat=-1 if seat is None else seat, view=view, deadline=deadline,
                     players=players or self.seat_infos(),
                     phase=phase,  # type: ignore[arg-type]
                     # a watcher is not told the invite code: it would seat him
                     code=self.code if seat is not None else None, owner=self.owner,
                     watchers=len(self.watchers), spectators=self.spectators,
                     events=events)

    def _send_state(self, player: str) -> None:
        self.outbox.send(player, self.state_for(player))

    def _broadcast(self) -> None:
        self.told_watchers = len(self.watchers)
        players = self.seat_infos()
        for player in self._audience():
            if player in self.humans() and not self.seats[self.seat_of(player) or 0].connected:
                continue
            self.outbox.send(player, self.state_for(player, players))

    # -- timers ------------------------------------------------------------------------

    def _cancel_turn_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _cancel_timers(self) -> None:
        self._cancel_turn_timer()
        away.stop_idle(self)
        settlement.stop_retry(self)


def _answer(cmd: c.Queued, exc: Refused | None) -> None:
    """Resolve the caller's wait on ``cmd`` (if any is waiting and it is not resolved)."""
    if cmd.done is None or cmd.done.done():
        return
    if exc is None:
        cmd.done.set_result(None)
    else:
        cmd.done.set_exception(exc)
