"""An event in the database: every change one transaction, each guarded so that doing it
twice (a retry, a restart, two processes for a moment) changes nothing the second time.

- A fee is paid by the insert of the entrant (``enter``) and refunded by the update
  that takes him from "in" to "left" (``leave``), only while the event is open: each
  moves beans once, through the ledger, in the transaction that changes the entrant.
- A finished game moves chips once: its ``event_games`` row (keyed by the game) is
  written in the transaction that moves them (``count_games``).
- A round ends once: ``end_round`` changes the event only if it is still in that
  round; the prizes are paid by ``finish``, which changes a running event to done.

The event row is locked first in every transaction that changes it (then the players,
in id order, as every transaction of the hall): entries racing for the last place, or
a leave racing the start, are serialised by it on PostgreSQL (SQLite's transactions
already are).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from cardhall.hall.domain.config import EventKind
from cardhall.hall.domain.errors import NotAllowed, NotEnoughBeans, NotSeated
from cardhall.hall.events import challenge, duplicate, ladder
from cardhall.hall.events.standings import (
    Standing,
    chip_moves,
    cut,
    prize_pool,
    prizes,
    ranked,
)
from cardhall.hall.live.seats import BOT_NAMES
from cardhall.hall.store.db import Database
from cardhall.hall.store.game_reads import LIVE
from cardhall.hall.store.ledger import add_entry, lock_player, spendable_in
from cardhall.hall.store.models import Event, EventEntrant, EventGame, EventTable, Game, utcnow

OPEN, RUNNING, DONE = "open", "running", "done"
#: An entrant's statuses: playing on (or entered), left before the start, knocked out,
#: the event over.
IN, LEFT, OUT, FINISHED = "in", "left", "out", "done"


@dataclass(frozen=True, slots=True)
class Entrant:
    no: int
    player: str | None
    name: str
    status: str
    chips: int
    before: int
    place: int | None
    out_round: int | None
    fee: int
    prize: int | None

    def standing(self) -> Standing:
        return Standing(self.no, self.chips, self.before, self.player, self.place)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """An event as stored: enough to drive it and to show it."""

    id: str
    kind: EventKind
    status: str
    round: int
    created: datetime
    entrants: list[Entrant]
    #: This round's tables: table id → entrant numbers by seat.
    tables: dict[str, list[int]]
    #: Finished games per table of this round (settled or dissolved), and whether
    #: one is live there now.
    finished: dict[str, int]
    live: set[str]
    #: A duplicate event's deals' seeds, once it has started (None: not chosen yet).
    seeds: list[int] | None = None
    #: A duplicate event's counted deals: entrant → per deal (points, game id).
    deals: dict[int, list[tuple[int | None, str | None]]] | None = None

    def playing(self) -> list[Entrant]:
        return [e for e in self.entrants if e.status == IN]

    def humans(self) -> list[str]:
        """Everyone who entered and did not leave: told of every change."""
        return [e.player for e in self.entrants if e.player is not None and e.status != LEFT]


def new_event_id() -> str:
    return f"v{secrets.token_hex(6)}"


def table_id(event_id: str, round_no: int, n: int) -> str:
    """An event table's id: the event's, the round and the table's number (the same id
    whoever creates it: a second writer's insert is refused by the key)."""
    return f"e{event_id}-{round_no}-{n}"


def is_event_table(table: str) -> bool:
    return table.startswith("ev") and table.count("-") == 2


def _kind(event: Event) -> EventKind:
    return EventKind.model_validate(event.config, strict=False)


async def _lock_event(s: AsyncSession, event_id: str) -> Event:
    event = (await s.execute(select(Event).where(Event.id == event_id)
                             .with_for_update())).scalar_one_or_none()
    if event is None:
        raise NotSeated(f"no event {event_id[:64]!r}")
    return event


async def _open_event(s: AsyncSession, kind: EventKind, now: datetime) -> Event:
    """The kind's open event, made if there is none (one per kind: ``uq_events_open``)."""
    found = (await s.execute(select(Event).where(Event.kind == kind.id, Event.status == OPEN)
                             .with_for_update())).scalar_one_or_none()
    if found is not None:
        return found
    event = Event(id=new_event_id(), kind=kind.id, format=kind.format,
                  config=kind.model_dump(by_alias=True, mode="json"), status=OPEN, round=0,
                  created=now)
    s.add(event)
    await s.flush()  # another process's open event of this kind: refused here, retried
    return event


async def _entrants(s: AsyncSession, event_id: str) -> list[EventEntrant]:
    return list((await s.execute(select(EventEntrant).where(EventEntrant.event_id == event_id)
                                 .order_by(EventEntrant.no))).scalars())


async def entered_in(db: Database, player: str) -> str | None:
    """The event the player is in (entered, or playing on), if any."""
    async with db.read() as s:
        return await s.scalar(select(EventEntrant.event_id).where(
            EventEntrant.player_id == player, EventEntrant.status == IN))


async def enter(db: Database, kind: EventKind, player: str, name: str,
                now: datetime | None = None) -> tuple[str, bool]:
    """Enter ``player`` in the kind's open event, paying its fee: (event id, whether it
    is full and runs now). NotEnoughBeans, NotAllowed (already in an event): nothing
    paid."""
    now = now or utcnow()
    for attempt in range(3):
        try:
            return await _enter(db, kind, player, name, now)
        except IntegrityError:  # another open event made meanwhile, or a second entry
            if attempt == 2 or await entered_in(db, player) is not None:
                raise NotAllowed("you are in an event already") from None
    raise AssertionError("unreachable")


async def _enter(db: Database, kind: EventKind, player: str, name: str,
                 now: datetime) -> tuple[str, bool]:
    async with db.transaction() as s:
        event = await _open_event(s, kind, now)
        await lock_player(s, player)
        if await s.scalar(select(EventEntrant.event_id).where(
                EventEntrant.player_id == player, EventEntrant.status == IN)) is not None:
            raise NotAllowed("you are in an event already: leave it first")
        have, held = await spendable_in(s, player)
        if have - held < kind.fee:
            raise NotEnoughBeans(f"{kind.name_en} costs {kind.fee} beans to enter; you "
                                 f"have {have - held} free")
        rows = await _entrants(s, event.id)
        if any(e.player_id == player for e in rows):  # bounds the rows and the refunds
            raise NotAllowed("you withdrew from this event: enter the next one once it "
                             "starts")
        present = [e for e in rows if e.status == IN]
        if kind.fee:
            add_entry(s, player, -kind.fee, "event_fee", now=now)
        s.add(EventEntrant(event_id=event.id, no=len(rows), player_id=player, name=name,
                           status=IN, chips=kind.chips, before=kind.chips, fee=kind.fee,
                           entered=now))
        full = len(present) + 1 >= kind.entrants
        if full:
            event.status, event.started = RUNNING, now
        return event.id, full


async def leave(db: Database, event_id: str, player: str) -> None:
    """Take ``player`` out of an event not started yet, refunding his fee once.
    NotSeated when he is not in it, NotAllowed once it has started. Looked up with a
    read first: a stranger's made-up ids take no write lock."""
    if await entered_in(db, player) != event_id:
        raise NotSeated("you are not entered in that event")
    async with db.transaction() as s:
        event = await _lock_event(s, event_id)
        if event.status != OPEN:
            raise NotAllowed("the event has started: your seat plays on (托管 while away)")
        await lock_player(s, player)
        entrant = await s.scalar(select(EventEntrant).where(
            EventEntrant.event_id == event_id, EventEntrant.player_id == player,
            EventEntrant.status == IN))
        if entrant is None:
            raise NotSeated("you are not entered in that event")
        entrant.status = LEFT
        if entrant.fee:
            add_entry(s, player, entrant.fee, "event_refund")


async def fill_with_bots(db: Database, event_id: str, now: datetime | None = None) -> bool:
    """Start an open event with bots in the places nobody took; False if it is not open
    or nobody entered (an event of bots alone is not played)."""
    async with db.transaction() as s:
        event = await _lock_event(s, event_id)
        rows = await _entrants(s, event_id)
        present = [e for e in rows if e.status == IN]
        if event.status != OPEN or not present:
            return False
        kind = _kind(event)
        for i in range(kind.entrants - len(present)):
            no = len(rows) + i
            s.add(EventEntrant(event_id=event_id, no=no, player_id=None,
                               name=f"{BOT_NAMES[i % len(BOT_NAMES)]}{no + 1}", status=IN,
                               chips=kind.chips, before=kind.chips, fee=0, entered=now))
        event.status, event.started = RUNNING, now or utcnow()
        return True


async def active(db: Database) -> list[tuple[str, str, datetime | None]]:
    """(id, status, first entry) of every open or running event."""
    async with db.read() as s:
        rows = await s.execute(
            select(Event.id, Event.status, func.min(EventEntrant.entered))
            .outerjoin(EventEntrant, (EventEntrant.event_id == Event.id)
                       & (EventEntrant.status == IN))
            .where(Event.status.in_((OPEN, RUNNING))).group_by(Event.id, Event.status))
        return [(str(i), str(st), first) for i, st, first in rows.all()]


async def snapshot(db: Database, event_id: str) -> Snapshot | None:
    async with db.read() as s:
        event = await s.get(Event, event_id)
        if event is None:
            return None
        rows = await _entrants(s, event_id)
        tables = {t.table_id: list(t.seats) for t in (await s.execute(
            select(EventTable).where(EventTable.event_id == event_id,
                                     EventTable.round == event.round))).scalars()}
        finished: dict[str, int] = dict.fromkeys(tables, 0)
        live: set[str] = set()
        if tables:
            for table, status, n in (await s.execute(
                    select(Game.table_id, Game.status, func.count())
                    .where(Game.table_id.in_(list(tables)))
                    .group_by(Game.table_id, Game.status))).all():
                if status == LIVE:
                    live.add(str(table))
                else:
                    finished[str(table)] += int(n)
        kind = _kind(event)
        deals = None if kind.format != "duplicate" else await _deal_games(
            s, event_id, [r.no for r in rows if r.status != LEFT], kind)
        return Snapshot(event.id, kind, event.status, event.round, event.created,
                        [Entrant(r.no, r.player_id, r.name, r.status, r.chips, r.before,
                                 r.place, r.out_round, r.fee, r.prize) for r in rows],
                        tables, finished, live,
                        None if event.seeds is None else [int(x) for x in event.seeds],
                        deals)


async def seat_round(db: Database, event_id: str, round_no: int,
                     tables: Sequence[Sequence[int]]) -> None:
    """Record the round's tables (once: a second writer's rows are refused by their key,
    and the first's stand)."""
    try:
        async with db.transaction() as s:
            s.add_all(EventTable(table_id=table_id(event_id, round_no, n), event_id=event_id,
                                 round=round_no, seats=list(seats))
                      for n, seats in enumerate(tables))
    except IntegrityError:
        return


async def count_games(db: Database, event_id: str) -> int:
    """Move the chips of every finished game of the event's tables not counted yet, in
    the order they started; how many were counted. Looked for with a read first: the
    runner asks every poll, and most find nothing (no write lock taken for nothing)."""
    async with db.read() as s:
        tables = select(EventTable.table_id).where(EventTable.event_id == event_id)
        if await s.scalar(select(Game.id).where(
                Game.table_id.in_(tables), Game.status != LIVE,
                Game.id.not_in(select(EventGame.game_id).where(
                    EventGame.event_id == event_id))).limit(1)) is None:
            return 0
    async with db.transaction() as s:
        event = await _lock_event(s, event_id)
        kind = _kind(event)
        seats = {t.table_id: (t.round, list(t.seats)) for t in (await s.execute(
            select(EventTable).where(EventTable.event_id == event_id))).scalars()}
        if not seats:
            return 0
        counted = select(EventGame.game_id).where(EventGame.event_id == event_id)
        games = (await s.execute(select(Game).where(
            Game.table_id.in_(list(seats)), Game.status != LIVE, Game.id.not_in(counted))
            .order_by(Game.started, Game.id))).scalars().all()
        if not games:
            return 0
        rows = {e.no: e for e in await _entrants(s, event_id)}
        for game in games:
            round_no, nos = seats[game.table_id]
            if kind.format == "duplicate":  # no chips: the deal's points, compared later
                s.add(_duplicate_game(event, game, nos))
                continue
            result: dict[str, Any] = game.result or {"points": [0] * len(nos),
                                                     "ended": "dissolved"}
            moves = chip_moves(result, kind.stakes[round_no], [rows[n].chips for n in nos])
            for n, move in zip(nos, moves, strict=True):
                rows[n].chips += move
            s.add(EventGame(game_id=game.id, event_id=event_id, table_id=game.table_id,
                            moves={str(n): m for n, m in zip(nos, moves, strict=True)}))
        return len(games)


async def end_round(db: Database, event_id: str, round_no: int) -> bool:
    """Knock out the bottom of round ``round_no`` and begin the next; False if the event
    is not in that round any more (done already)."""
    async with db.transaction() as s:
        event = await _lock_event(s, event_id)
        if event.status != RUNNING or event.round != round_no:
            return False
        kind = _kind(event)
        rows = {e.no: e for e in await _entrants(s, event_id) if e.status == IN}
        keep = kind.field_[round_no + 1]
        on, out = cut([_standing(e) for e in rows.values()], keep)
        for place, st in enumerate(out, start=keep + 1):
            rows[st.no].status, rows[st.no].place = OUT, place
            rows[st.no].out_round = round_no
        for st in on:
            rows[st.no].before = rows[st.no].chips
        event.round = round_no + 1
        return True


async def finish(db: Database, event_id: str, now: datetime | None = None,
                 anchors: Mapping[str, float] | None = None) -> bool:
    """Place the last table and pay the prizes (once: with the change to done); False if
    the event is not running. A challenge's match moves the ladder's ratings in the same
    transaction (``anchors``: the fixed ones)."""
    now = now or utcnow()
    async with db.transaction() as s:
        event = await _lock_event(s, event_id)
        if event.status != RUNNING:
            return False
        kind = _kind(event)
        rows = await _entrants(s, event_id)
        playing = {e.no: e for e in rows if e.status == IN}
        if kind.format == "duplicate":
            lines = duplicate.results(await _deal_scores(s, event_id, list(playing), kind),
                                      kind.deals)
            order = [line.no for line in duplicate.ranked(lines)]
            if kind.rotate:  # a challenge: the ladder's ratings move, once, with it
                await ladder.rated(s, event, [playing[n] for n in sorted(playing)], lines,
                                   anchors or {}, now)
        else:
            order = [st.no for st in ranked([_standing(e) for e in playing.values()])]
        for place, no in enumerate(order, 1):
            playing[no].place = place
        paid = prizes(prize_pool(sum(e.fee for e in rows if e.status != LEFT), kind.house),
                      kind.prizes)
        winners = sorted((e for e in rows if e.place is not None and e.place <= len(paid)),
                         key=lambda e: e.player_id or "")
        for e in winners:  # players locked in id order, as every transaction here
            if e.player_id is not None:
                await lock_player(s, e.player_id)
        for e in rows:
            if e.status in (IN, OUT):
                e.status = FINISHED
            if e.place is not None and e.place <= len(paid):
                e.prize = paid[e.place - 1] if e.player_id is not None else 0
                if e.player_id is not None and e.prize:
                    add_entry(s, e.player_id, e.prize, "event_prize", now=now)
        event.status, event.ended = DONE, now
        return True


def _standing(e: EventEntrant) -> Standing:
    return Standing(e.no, e.chips, e.before, e.player_id, e.place)


async def open_or_running(db: Database, kinds: Sequence[str]) -> dict[str, tuple[str, int]]:
    """Each kind's open event: kind → (event id, entrants so far)."""
    async with db.read() as s:
        rows = await s.execute(
            select(Event.kind, Event.id, func.count(EventEntrant.id))
            .outerjoin(EventEntrant, (EventEntrant.event_id == Event.id)
                       & (EventEntrant.status == IN))
            .where(Event.status == OPEN, Event.kind.in_(list(kinds)))
            .group_by(Event.kind, Event.id))
        return {str(k): (str(i), int(n)) for k, i, n in rows.all()}


async def table_event(db: Database, table: str) -> tuple[str, EventKind] | None:
    """(event id, the event's kind as it opened) of an event table."""
    async with db.read() as s:
        row = (await s.execute(select(Event).join(EventTable, EventTable.event_id == Event.id)
                               .where(EventTable.table_id == table))).scalar_one_or_none()
        return None if row is None else (row.id, _kind(row))


async def table_seats(db: Database, table: str) -> list[int]:
    """An event table's entrants by seat (a duplicate's: the one entrant)."""
    async with db.read() as s:
        seats = await s.scalar(select(EventTable.seats).where(EventTable.table_id == table))
        return [] if seats is None else [int(x) for x in seats]


async def create(db: Database, kind: EventKind, entrants: Sequence[tuple[str | None, str]],
                 now: datetime | None = None) -> str:
    """A running event of these entrants (player or None, name), no fee (a challenge:
    made whole, never open); NotAllowed when a player is in an event already (the
    entrants' key: one event at a time)."""
    now = now or utcnow()
    try:
        async with db.transaction() as s:
            event = Event(id=new_event_id(), kind=kind.id, format=kind.format,
                          config=kind.model_dump(by_alias=True, mode="json"), status=RUNNING,
                          round=0, created=now, started=now)
            s.add(event)
            await s.flush()
            s.add_all(EventEntrant(event_id=event.id, no=no, player_id=player, name=name,
                                   status=IN, chips=kind.chips, before=kind.chips, fee=0,
                                   entered=now) for no, (player, name) in enumerate(entrants))
            return event.id
    except IntegrityError:
        raise NotAllowed("a competitor is playing another match or event") from None


async def finished_games(db: Database, table: str) -> int:
    async with db.read() as s:
        return int(await s.scalar(select(func.count()).select_from(Game).where(
            Game.table_id == table, Game.status != LIVE)) or 0)



# -- duplicate events (复式: hall.events.duplicate) ------------------------------------

#: The seat every entrant of a duplicate event plays, at every deal (bots in the others).
DUPLICATE_SEAT = 0


def _duplicate_game(event: Event, game: Game, nos: list[int]) -> EventGame:
    """A duplicate event's finished game: the entrant's points on the deal its seed
    says, at his seat of that deal (a challenge's rotates); unscored or dissolved: 0."""
    seeds = [int(x) for x in event.seeds or []]
    seed = (game.record or {}).get("seed")
    deal = seeds.index(seed) if seed in seeds else None
    kind = _kind(event)
    seat = challenge.seat_of(deal or 0, kind.seats) if kind.rotate else DUPLICATE_SEAT
    result: dict[str, Any] = game.result or {}
    points = 0
    if result.get("ended") not in ("unscored", "dissolved") and not result.get("dissolve"):
        points = int((result.get("points") or [0] * (seat + 1))[seat])
    return EventGame(game_id=game.id, event_id=event.id, table_id=game.table_id,
                     moves={str(nos[0]): points}, deal=deal)


async def set_seeds(db: Database, event_id: str, seeds: Sequence[int]) -> list[int]:
    """Fix a duplicate event's deals once (a second writer's seeds are not taken): the
    seeds it plays."""
    async with db.transaction() as s:
        event = await _lock_event(s, event_id)
        if event.seeds is None:
            event.seeds = [int(x) for x in seeds]
        return [int(x) for x in event.seeds]


async def _deal_scores(s: AsyncSession, event_id: str, nos: Sequence[int], kind: EventKind
                       ) -> dict[int, list[int | None]]:
    return {no: [p for p, _ in line]
            for no, line in (await _deal_games(s, event_id, nos, kind)).items()}


async def _deal_games(s: AsyncSession, event_id: str, nos: Sequence[int], kind: EventKind
                      ) -> dict[int, list[tuple[int | None, str | None]]]:
    out: dict[int, list[tuple[int | None, str | None]]] = {
        no: [(None, None)] * kind.deals for no in nos}
    for row in (await s.execute(select(EventGame).where(EventGame.event_id == event_id)
                                .order_by(EventGame.created))).scalars():
        for no_text, points in row.moves.items():
            no = int(no_text)
            if no in out and row.deal is not None and 0 <= row.deal < kind.deals \
                    and out[no][row.deal][0] is None:
                out[no][row.deal] = (int(points), row.game_id)
    return out


async def deal_games(db: Database, event_id: str, nos: Sequence[int], kind: EventKind
                     ) -> dict[int, list[tuple[int | None, str | None]]]:
    """A duplicate event's counted deals: entrant → per deal (his points, the game's id),
    (None, None) where he has not played it yet."""
    async with db.read() as s:
        return await _deal_games(s, event_id, nos, kind)


async def seeds_of(db: Database, event_id: str) -> list[int] | None:
    """A duplicate event's deals' seeds (None before it starts, or another format's)."""
    async with db.read() as s:
        seeds = await s.scalar(select(Event.seeds).where(Event.id == event_id))
        return None if seeds is None else [int(x) for x in seeds]


async def replay_closed(db: Database, table: str) -> bool:
    """Whether a game of ``table`` must not be shown yet: a duplicate event's, before the
    event is over (another entrant may not have played that deal)."""
    if not is_event_table(table):
        return False
    async with db.read() as s:
        row = (await s.execute(select(Event.format, Event.status)
                               .join(EventTable, EventTable.event_id == Event.id)
                               .where(EventTable.table_id == table))).one_or_none()
        return row is not None and row[0] == "duplicate" and row[1] != DONE
