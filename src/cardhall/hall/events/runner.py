"""The events a process runs: entries, the bots' fill, rounds, tables, standings.

Everything an event is lives in the database (``events.store``); this module only
drives it. A process runs an event while it holds the event's job (``coord.job``,
hall-wide: one process at a time, taken over when its holder stops renewing it), and
every step it takes reads the event afresh and writes through guarded transactions,
so a step done twice, or by a process that has just lost the job, changes nothing.
That is also how an event survives a restart: the tables' live games are rebuilt from
their logs by the hall (``Hall.adopt``), and the next step counts what finished,
reopens a table whose deals are not all played, and goes on.

An event's tables are ordinary tables, paced by the event (``Table.pace``): they play
points only (no beans: ruling 14's private games), never wait for 再来一局, cannot be
left (a player who goes plays on under 托管 and may come back), deal the round's games
one after another, then close. Chips are the event's: each finished game moves them
once (``store.count_games``).

What is the knockout's and what is any format's: the event row, its entrants with fee,
chips, place and prize, the round's tables and the counting of finished games, the
job, the pacing and the standings are every format's. The knockout's own are the
seating (``standings.seat``: at random), the cut at a round's end (``store.end_round``,
``standings.cut``) and the final ranking (``store.finish``). A second format (复式:
every entrant plays the same deals at the same seat, ranked per deal) adds its seating
and ranking there, matched on ``EventKind.format``, and gives the tables their deals'
seeds (``dealing.deal``'s seed through ``Table.pace``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from typing import TYPE_CHECKING

from cardhall.games import VARIANTS
from cardhall.hall.domain.config import EventKind, Room
from cardhall.hall.domain.errors import BotsNotAllowed, NotAllowed, Refused, UnknownRoom
from cardhall.hall.events import challenge, store
from cardhall.hall.events.duplicate import compared, deal_seeds, results
from cardhall.hall.events.standings import prize_pool, prizes, seat
from cardhall.hall.live import commands
from cardhall.hall.live.lobby import SeatedElsewhere
from cardhall.hall.live.seats import BOT_NAMES, BOT_TITLE, Seat
from cardhall.hall.live.timers import SETTLE_WAIT
from cardhall.protocol.messages import DealLine, Entrant, EventState

if TYPE_CHECKING:
    from cardhall.hall.live.table import Table
    from cardhall.hall.service import Hall

log = logging.getLogger("cardhall.hall.events")

#: Seconds between two looks at the events when nothing wakes the loop sooner (a game
#: finished at another process's table, an entry through another process).
POLL_SECONDS = 1.0
#: Seconds a process holds an event's job between renewals (each step renews it).
HOLD_SECONDS = 15.0


class Events:
    """The hall's events in this process (``Hall.events``)."""

    def __init__(self, hall: Hall, poll: float = POLL_SECONDS) -> None:
        self.hall = hall
        self.kinds = {k.id: k for k in hall.config.events}
        self.rooms = {k.room().id: k.room() for k in hall.config.events}
        for variant in VARIANTS:  # a challenge's room: its tables rebuilt after a restart
            room = challenge.kind_for(variant, hall.config.ladder.deals,
                                      hall.config.ladder).room()
            self.rooms[room.id] = room
        self.poll = poll
        self.hold_seconds = HOLD_SECONDS
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._tells: set[asyncio.Task[None]] = set()
        self._told: dict[str, EventState] = {}  # each event's last standings sent
        #: Each paced table of this process: its event's kind and the deals it has left.
        self._paced: dict[str, tuple[EventKind, int]] = {}
        #: A duplicate event's paced tables: its deals' seeds (``seed``).
        self._seeds: dict[str, list[int]] = {}

    def room(self, room_id: str) -> Room | None:
        return self.rooms.get(room_id)

    # -- life --------------------------------------------------------------------------

    def start(self) -> None:
        self._closing = False
        self._task = asyncio.get_running_loop().create_task(self._loop(), name="events")

    async def close(self) -> None:
        """Stop after the step under way (a step cancelled inside a transaction could
        leave its connection to the garbage collector); cancelled only past a bound."""
        self._closing = True
        self._wake.set()
        work = {*self._tells, *([self._task] if self._task is not None else [])}
        if work:
            _, pending = await asyncio.wait(work, timeout=SETTLE_WAIT)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
        self._task = None

    def wake(self) -> None:
        self._wake.set()

    async def _loop(self) -> None:
        while not self._closing:
            self._wake.clear()
            wait = self.poll
            try:
                wait = min(wait, await self.tick())
            except Exception:  # the database away, a bug: the loop must go on
                log.exception("events: a step failed (tried again in %.1f s)", wait)
            if self._closing:
                break
            with contextlib.suppress(TimeoutError):  # the poll: nothing woke it sooner
                await asyncio.wait_for(self._wake.wait(), timeout=max(wait, 0.0))

    async def tick(self) -> float:
        """One step of every event this process holds; seconds until a bot fill is due."""
        due = self.poll
        for event_id, status, first in await store.active(self.hall.db):
            if not await self.hall.coord.job(f"event:{event_id}", self.hold_seconds).hold():
                continue
            if status == store.OPEN:
                snap = await store.snapshot(self.hall.db, event_id)
                wait = None if snap is None else snap.kind.bot_wait_seconds
                if first is None or wait is None:
                    continue
                left = first.timestamp() + wait - time.time()
                if left > 0:
                    due = min(due, left)
                    continue
                if not await store.fill_with_bots(self.hall.db, event_id):
                    continue
            await self.step(event_id)
        return due

    async def step(self, event_id: str) -> None:
        """Count finished games, seat the round, open its tables, end it when played."""
        db = self.hall.db
        await store.count_games(db, event_id)
        snap = await store.snapshot(db, event_id)
        if snap is None:
            return
        if snap.status == store.RUNNING and not snap.tables:
            if snap.kind.format == "duplicate":  # the deals first, then a table each
                await store.set_seeds(db, event_id,
                                      deal_seeds(random.SystemRandom(), snap.kind.deals))
                tables = [[e.no] for e in snap.playing()]
            else:
                rng = random.Random(f"{event_id}:{snap.round}")
                tables = seat([e.no for e in snap.playing()], snap.kind.seats, rng)
            await store.seat_round(db, event_id, snap.round, tables)
            snap = await store.snapshot(db, event_id)
            assert snap is not None
        if snap.status == store.RUNNING:
            deals = snap.kind.deals
            if all(snap.finished[t] >= deals and t not in snap.live for t in snap.tables):
                # A game that ended after the count above is counted before the round
                # is ranked (it was seen finished just now: this count finds it).
                await store.count_games(db, event_id)
                if snap.round + 1 < len(snap.kind.field_):
                    await store.end_round(db, event_id, snap.round)
                else:
                    await store.finish(db, event_id,
                                       anchors=self.hall.config.ladder.anchors)
                    for table in [t for t in self._paced if t.startswith(f"e{event_id}-")]:
                        self._paced.pop(table)
                        self._seeds.pop(table, None)
                self.wake()  # the next round's tables at once
            else:
                for table, nos in snap.tables.items():
                    if snap.finished[table] < deals and table not in self.hall.lobby.tables:
                        await self._run_table(snap, table, nos)
            snap = await store.snapshot(db, event_id)
            assert snap is not None
        self._tell(snap)

    async def _run_table(self, snap: store.Snapshot, table_id: str, nos: list[int]) -> None:
        """Run an unfinished table of the round here: rebuilt from its live game's log
        if it has one (and no other process runs it), else opened for its next deal."""
        if table_id in snap.live:
            if table_id not in self.hall._unadopted:  # else the hall's retries adopt it
                await self.hall.adopt(table_id)
            return
        lobby = self.hall.lobby
        lease = await self.hall.coord.acquire(table_id)
        if lease is None:
            return  # another process still holds it: next time
        entrants = {e.no: e for e in snap.entrants}
        players = [entrants[n].player for n in nos]
        names = await lobby.store.names([p for p in players if p is not None])
        seats = [Seat(player=p, name=names.get(p, (entrants[n].name, ""))[0],
                      title=names.get(p, ("", ""))[1]) if p is not None else
                 Seat(player=None, name=entrants[n].name, title=BOT_TITLE)
                 for p, n in zip(players, nos, strict=True)]
        if snap.kind.format == "duplicate":  # the entrant alone, the same bots each time
            own = seats[0]
            if own.player is None and nos[0] < len(snap.kind.bots):
                own.brain = snap.kind.bots[nos[0]] or None  # a challenge's anchor
            seats = placed(own, snap.kind, snap.finished[table_id])
        lobby._opening.add(table_id)
        try:
            table = await lobby._seat(snap.kind.room(), seats, lease, code=None, owner=None,
                                      bots_allowed=True, start=False)
        except SeatedElsewhere as exc:
            for player in exc.others:  # free of a table between games, or next time
                try:
                    await lobby._free_for_new_table(player)
                except Refused as why:
                    log.info("event %s: %s cannot sit yet (%s)", snap.id, player, why)
            return
        finally:
            lobby._opening.discard(table_id)
        self.pace(table, snap.kind, snap.kind.deals - snap.finished[table_id], snap.seeds)
        table.submit(commands.Begin())

    def seed(self, table: Table) -> int | None:
        """The seed of the next deal at ``table`` (``dealing.deal``): a duplicate event's
        deals are fixed, the next is the one after those played (the deals left, counted
        in memory: nothing here can fail); None, any deal (a knockout's)."""
        seeds = self._seeds.get(table.id)
        kind, left = self._paced.get(table.id, (None, 0))
        if seeds is None or kind is None:
            return None
        played = kind.deals - left
        return seeds[played] if 0 <= played < len(seeds) else None

    def pace(self, table: Table, kind: EventKind, left: int,
             seeds: list[int] | None = None) -> None:
        """Make ``table`` an event's: points only, ``left`` deals still to play (what
        ``after_game`` counts down in memory: nothing there can fail), at ``kind``'s pace;
        a duplicate event's tables deal its ``seeds`` in order. A knockout's tables may be
        watched (观战) like a room's; a duplicate event's may not (but by an admin): every
        entrant plays the same deals, and one who watched another play a deal before
        playing it himself would know every hand of it."""
        table.private = True
        table.spectators = kind.format != "duplicate"
        table.pace = self
        self._paced[table.id] = (kind, left)
        if kind.format == "duplicate" and seeds:
            self._seeds[table.id] = list(seeds)

    async def adopted(self, table: Table) -> None:
        """A table rebuilt from its live game's log (``Hall._rebuild``) is paced again:
        its deals left are the round's less its finished games (the live one counts
        when it ends)."""
        found = await store.table_event(self.hall.db, table.id)
        if found is not None:
            kind = found[1]
            seeds = await store.seeds_of(self.hall.db, found[0]) \
                if kind.format == "duplicate" else None
            if kind.rotate and seeds and table.game is not None \
                    and table.game.seed in seeds:
                await self._anchor_again(table, found[0], kind, seeds.index(table.game.seed))
            self.pace(table, kind, kind.deals - await store.finished_games(self.hall.db,
                                                                           table.id), seeds)

    async def _anchor_again(self, table: Table, event_id: str, kind: EventKind,
                            deal: int) -> None:
        """A challenge's table rebuilt from its log: an anchor's seat (a bot's in the
        record) is played by the anchor again, not by the house bot."""
        nos = await store.table_seats(self.hall.db, table.id)
        if not nos or nos[0] >= len(kind.bots) or not kind.bots[nos[0]]:
            return
        own = table.seats[challenge.seat_of(deal, kind.seats)]
        own.brain = kind.bots[nos[0]]
        own.name = kind.bots[nos[0]]
        log.info("event %s: table %s's anchor %s seated again", event_id, table.id, own.brain)

    async def after_game(self, table: Table) -> None:
        """A game of an event table is settled: deal the next after a pause, or close
        once the round's deals are played (``Table.pace``)."""
        kind, left = self._paced.get(table.id, (None, 0))
        if kind is not None and left > 1:
            self._paced[table.id] = (kind, left - 1)
            if kind.rotate:  # a challenge: the entrant moves to the next deal's seat
                rotate(table, kind, kind.deals - left + 1)
            begin = commands.Begin()
            table.scheduler.call_later(kind.between_seconds, lambda: table._post(begin))
        else:
            self._paced.pop(table.id, None)
            self._seeds.pop(table.id, None)
            await table._close("round_over", requeue=False)
        self.wake()

    # -- players -----------------------------------------------------------------------

    async def enter(self, player: str, kind_id: str, *, bot: bool = False) -> None:
        """Enter ``player`` in the kind's open event; a bot account (``bot``) never: an
        event is a contest of people (docs/rulings.md, "The hall" 15)."""
        kind = self.kinds.get(kind_id)
        if kind is None:
            raise UnknownRoom(f"no event {kind_id[:64]!r}")
        if bot:
            raise BotsNotAllowed("events are for people: bot accounts play in rooms that "
                                 "take them (docs/bots.md)")
        lobby = self.hall.lobby
        if await lobby.all_tables_of(player) or await lobby.store.seated_at(player):
            raise NotAllowed("you sit at a table: leave it before entering an event")
        await lobby.cancel(player)
        name = (await lobby.store.names([player])).get(player, ("", ""))[0]
        event_id, _ = await store.enter(self.hall.db, kind, player, name)
        await self._show(event_id)
        self.wake()

    async def not_entered(self, player: str) -> None:
        """Refuse a quick match or a private table to a player in an event: its tables
        would find him seated elsewhere."""
        if await store.entered_in(self.hall.db, player) is not None:
            raise NotAllowed("you are in an event: withdraw before it starts, or play it out")

    async def withdraw(self, player: str, event_id: str) -> None:
        await store.leave(self.hall.db, event_id, player)
        snap = await self._show(event_id)
        if snap is not None:
            self.hall.outbox.send(player, state_of(snap))  # he is out of the list now

    def hello(self, player: str) -> None:
        """After the player's welcome: his event's standings, in the background (awaited
        by ``close``, so none outlives the database it reads)."""
        task = asyncio.get_running_loop().create_task(self.tell(player))
        self._tells.add(task)
        task.add_done_callback(self._tells.discard)

    async def tell(self, player: str) -> None:
        """The standings of the event the player is in, after his hello."""
        event_id = await store.entered_in(self.hall.db, player)
        snap = None if event_id is None else await store.snapshot(self.hall.db, event_id)
        if snap is not None:
            self.hall.outbox.send(player, state_of(snap))

    async def _show(self, event_id: str) -> store.Snapshot | None:
        snap = await store.snapshot(self.hall.db, event_id)
        if snap is not None:
            self._tell(snap)
        return snap

    def _tell(self, snap: store.Snapshot) -> None:
        """Send the standings to the entrants, if they changed."""
        state = state_of(snap)
        if self._told.get(snap.id) == state:
            return
        self._told[snap.id] = state
        if snap.status == store.DONE:
            self._told.pop(snap.id)
        for player in snap.humans():
            self.hall.outbox.send(player, state)


def placed(own: Seat, kind: EventKind, deal: int) -> list[Seat]:
    """A duplicate table's seats for deal ``deal``: the entrant at his seat (the same
    each deal; a challenge's rotates: ``challenge.seat_of``), the house bots around."""
    seats = [Seat(player=None, name=BOT_NAMES[i % len(BOT_NAMES)], title=BOT_TITLE)
             for i in range(kind.seats)]
    seats[challenge.seat_of(deal, kind.seats) if kind.rotate else store.DUPLICATE_SEAT] = own
    return seats


def rotate(table: Table, kind: EventKind, deal: int) -> None:
    """Between a challenge's deals: its entrant (his player, or his anchor: the house
    bots have neither) to his seat of ``deal``, with what the table counts of his seat
    (his 托管 turns while away)."""
    was = next(i for i, s in enumerate(table.seats) if s.player is not None
               or s.brain is not None)
    table.seats = placed(table.seats[was], kind, deal)
    now = challenge.seat_of(deal, kind.seats)
    if was in table._away and was != now:
        table._away[now] = table._away.pop(was)


def state_of(snap: store.Snapshot) -> EventState:
    """The ``event`` message (and ``GET /api/events/{id}``) of an event as stored."""
    kind = snap.kind
    paid = sum(e.fee for e in snap.entrants if e.status != store.LEFT)
    status = snap.status if snap.status in ("open", "running", "done") else "done"
    rounds = len(kind.field_)
    return EventState(
        event=snap.id, kind=kind.id, name=kind.name, status=status,  # type: ignore[arg-type]
        round=min(snap.round, rounds - 1), rounds=rounds,
        stake=kind.stakes[min(snap.round, rounds - 1)], deals=kind.deals, fee=kind.fee,
        prizes=prizes(prize_pool(max(paid, kind.fee * kind.entrants
                                     if snap.status == store.OPEN else paid), kind.house),
                      kind.prizes),
        entrants=[Entrant(no=e.no, name=e.name, bot=e.player is None, chips=e.chips,
                          status=e.status, place=e.place,  # type: ignore[arg-type]
                          prize=e.prize) for e in snap.entrants if e.status != store.LEFT],
        tables=[] if snap.status != store.RUNNING else list(snap.tables.values()),
        format=kind.format, results=_results(snap))


def _results(snap: store.Snapshot) -> list[DealLine] | None:
    """A duplicate event's per-deal results, as everyone may see them: a deal's once
    every person in the event has played it (before, nobody's: a score tells about the
    cards), and the games' ids for their replays once the event is over."""
    if snap.deals is None:
        return None
    done = snap.status == store.DONE
    scores = {no: [p for p, _ in line] for no, line in snap.deals.items()}
    people = [e.no for e in snap.entrants if e.player is not None and e.status != store.LEFT]
    shown = [done or c for c in compared(results(scores, snap.kind.deals), people)]
    visible = results({no: [p if shown[d] else None for d, p in enumerate(line)]
                       for no, line in scores.items()}, snap.kind.deals)
    return [DealLine(no=v.no, points=v.points, matchpoints=v.matchpoints, total=v.total,
                     top=v.top, percent=v.percent,
                     played=sum(p is not None for p in scores[v.no]),
                     games=[g for _, g in snap.deals[v.no]] if done else None)
            for v in visible]


def kinds_listing(kinds: list[EventKind], open_events: dict[str, tuple[str, int]]
                  ) -> list[dict[str, object]]:
    """``GET /api/events``: each kind, its rules and prizes, and its open event."""
    out: list[dict[str, object]] = []
    for k in kinds:
        event, entered = open_events.get(k.id, (None, 0))
        out.append({"kind": k.id, "name": k.name, "name_en": k.name_en,
                    "format": k.format, "variant": k.variant, "entrants": k.entrants,
                    "fee": k.fee, "house": k.house, "prizes_percent": list(k.prizes),
                    "prizes": prizes(prize_pool(k.fee * k.entrants, k.house), k.prizes),
                    "chips": k.chips, "deals": k.deals, "field": list(k.field_),
                    "stakes": list(k.stakes), "bot_wait_seconds": k.bot_wait_seconds,
                    "event": event, "entered": entered})
    return out
