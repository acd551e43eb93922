"""Beans and items: every change is an appended entry, a balance is their sum.

Nothing here updates a balance in place: each grant, purchase and game result is a
``ledger`` row with a reason, so a player's history explains his balance to the bean
and an operator can audit any of them. A change that must look at the balance first
(relief, a purchase, a settlement's floor at 0) locks the player's row for the
transaction (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite's transactions are already
serialised, see db.py), so two concurrent requests cannot both spend the same beans.

Beans held for a live game (``holds``, platform ruling 15) are still the player's and
count in his balance, but nothing may spend them: a debit checks the balance less what
is held (``spendable_in``), so what a game may take from a loser is there when it ends.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime, time

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from cardhall.hall.domain.config import Economy
from cardhall.hall.domain.errors import BadRequest, NoItem, NotEnoughBeans, NotFound, ReliefRefused
from cardhall.hall.store.db import Database
from cardhall.hall.store.models import (
    Event,
    EventEntrant,
    Hold,
    ItemEntry,
    LedgerEntry,
    Player,
    utcnow,
)

#: Why beans moved. ``game``/``escape`` entries carry the game id and are unique per
#: (game, player, reason), the guard that makes a settlement impossible to repeat.
REASONS = ("start", "relief", "game", "escape", "purchase", "admin",
           "event_fee", "event_refund", "event_prize")  # an event's: hall.events.store

#: The most beans one entry may move, and the most an operator may bring a balance to:
#: 10^15, below 2^53, so every amount reaches the browser exact (a JavaScript number),
#: and thousands of the largest entries still sum within a 64-bit integer.
MAX_BEANS = 10**15

GOLDEN_EYE = "golden_eye"  # 黄金眼: see 2 kitty cards before robbing (欢乐斗地主)


@dataclass(frozen=True, slots=True)
class Entry:
    """One ledger entry as shown to its player."""

    delta: int
    reason: str
    game_id: str | None
    created: datetime


async def lock_player(session: AsyncSession, player_id: str) -> Player:
    """The player's row, locked until the transaction ends; NotFound if there is none."""
    player = (await session.execute(
        select(Player).where(Player.id == player_id).with_for_update()
    )).scalar_one_or_none()
    if player is None:
        raise NotFound(f"no player {player_id!r}")
    return player


async def lock_players(session: AsyncSession, player_ids: Collection[str]) -> dict[str, Player]:
    """``lock_player`` for several players in one statement, locked in id order (the one
    order every transaction here locks players in: no deadlocks); NotFound names the
    first one missing."""
    ids = sorted(set(player_ids))
    rows = (await session.execute(select(Player).where(Player.id.in_(ids))
                                  .order_by(Player.id).with_for_update())).scalars()
    found = {p.id: p for p in rows}
    if missing := [p for p in ids if p not in found]:
        raise NotFound(f"no player {missing[0]!r}")
    return found


async def balance_in(session: AsyncSession, player_id: str) -> int:
    """The balance inside an open transaction: the sum of the player's entries."""
    total = await session.scalar(
        select(func.coalesce(func.sum(LedgerEntry.delta), 0))
        .where(LedgerEntry.player_id == player_id))
    return int(total or 0)


async def held_in(session: AsyncSession, player_id: str) -> int:
    """The beans live games hold of the player's (0 when he plays none)."""
    total = await session.scalar(
        select(func.coalesce(func.sum(Hold.amount), 0)).where(Hold.player_id == player_id))
    return int(total or 0)


async def held_of(session: AsyncSession, player_ids: Collection[str]) -> dict[str, int]:
    """``held_in`` for several players in one statement."""
    ids = sorted(set(player_ids))
    if not ids:
        return {}
    rows = await session.execute(select(Hold.player_id, func.sum(Hold.amount))
                                 .where(Hold.player_id.in_(ids)).group_by(Hold.player_id))
    found = {str(p): int(total or 0) for p, total in rows.all()}
    return {p: found.get(p, 0) for p in ids}


async def spendable_in(session: AsyncSession, player_id: str) -> tuple[int, int]:
    """(balance, held): what a debit may take is the balance less what is held."""
    return await balance_in(session, player_id), await held_in(session, player_id)


def _short(what: str, cost: int, have: int, held: int) -> str:
    """Why a debit is refused, naming the held beans when they are the reason."""
    if held:
        return (f"{what} {cost} beans; you have {have}, of which {held} are held by "
                f"your game in progress until it ends")
    return f"{what} {cost} beans; you have {have}"


async def balances_in(session: AsyncSession, player_ids: Collection[str]) -> dict[str, int]:
    """Several players' balances in one statement (a table's seats: one round trip, not
    one per player); a player with no entries (or no account) has 0."""
    return await _sums(session, LedgerEntry, player_ids)


async def _sums(session: AsyncSession, entries: type[LedgerEntry] | type[ItemEntry],
                player_ids: Collection[str], *where: ColumnElement[bool]) -> dict[str, int]:
    """Each player's sum of ``entries.delta`` (those matching ``where``), one GROUP BY
    for them all; 0 for a player with none."""
    ids = sorted(set(player_ids))
    if not ids:
        return {}
    rows = await session.execute(
        select(entries.player_id, func.sum(entries.delta))
        .where(entries.player_id.in_(ids), *where).group_by(entries.player_id))
    found = {str(p): int(total or 0) for p, total in rows.all()}
    return {p: found.get(p, 0) for p in ids}


def add_entry(session: AsyncSession, player_id: str, delta: int, reason: str,
              game_id: str | None = None, now: datetime | None = None) -> None:
    """Append one entry (the caller has checked it may; the flush happens on commit)."""
    if reason not in REASONS:
        raise BadRequest(f"unknown ledger reason {reason!r} (known: {', '.join(REASONS)})")
    if isinstance(delta, bool) or not isinstance(delta, int) or abs(delta) > MAX_BEANS:
        raise BadRequest(f"a ledger entry moves at most {MAX_BEANS} beans, not {delta!r}")
    session.add(LedgerEntry(player_id=player_id, delta=delta, reason=reason,
                            game_id=game_id, created=now or utcnow()))


async def balance(db: Database, player_id: str) -> int:
    """A player's beans."""
    async with db.transaction() as s:
        return await balance_in(s, player_id)


async def history(db: Database, player_id: str, limit: int = 50) -> list[Entry]:
    """The player's latest entries, newest first."""
    async with db.transaction() as s:
        rows = (await s.execute(
            select(LedgerEntry).where(LedgerEntry.player_id == player_id)
            .order_by(LedgerEntry.id.desc()).limit(limit))).scalars()
        return [Entry(r.delta, r.reason, r.game_id, r.created) for r in rows]


def _day_start(now: datetime) -> datetime:
    return datetime.combine(now.astimezone(UTC).date(), time(0), tzinfo=UTC)


async def _reliefs_today(session: AsyncSession, player_id: str, now: datetime) -> int:
    start = _day_start(now)
    n = await session.scalar(
        select(func.count()).select_from(LedgerEntry)
        .where(LedgerEntry.player_id == player_id, LedgerEntry.reason == "relief",
               LedgerEntry.created >= start, LedgerEntry.created <= now))
    return int(n or 0)


async def relief_left(db: Database, player_id: str, economy: Economy,
                      now: datetime | None = None) -> int:
    """How many relief grants the player may still claim today (UTC)."""
    now = now or utcnow()
    async with db.transaction() as s:
        return max(0, economy.relief.per_day - await _reliefs_today(s, player_id, now))


async def grant_relief(db: Database, player_id: str, economy: Economy,
                       now: datetime | None = None) -> int:
    """Give the daily relief (救济) and return the new balance.

    Refused (ReliefRefused, nothing granted) when the balance is not below
    ``economy.relief.below`` or the player has had ``per_day`` grants this UTC day.
    The balance here includes the beans a game in progress holds: they are his until
    the game ends, so holding them does not make him poor; and an entry fee he may still
    take back (an event not yet started): else enter, claim, withdraw minted 1 000 beans
    a time (an attacker's finding).
    """
    now = now or utcnow()
    rule = economy.relief
    async with db.transaction() as s:
        await lock_player(s, player_id)
        have = await balance_in(s, player_id) + await _refundable_fees(s, player_id)
        if have >= rule.below:
            raise ReliefRefused(f"relief is for balances below {rule.below} beans; "
                                f"you have {have}")
        used = await _reliefs_today(s, player_id, now)
        if used >= rule.per_day:
            raise ReliefRefused(f"relief already claimed {used} times today "
                                f"(at most {rule.per_day} per day)")
        add_entry(s, player_id, rule.amount, "relief", now=now)
        return have + rule.amount


async def _refundable_fees(s: AsyncSession, player_id: str) -> int:
    """Entry fees the player may still withdraw (his entries in events still open)."""
    total = await s.scalar(
        select(func.coalesce(func.sum(EventEntrant.fee), 0))
        .join(Event, Event.id == EventEntrant.event_id)
        .where(EventEntrant.player_id == player_id, EventEntrant.status == "in",
               Event.status == "open"))
    return int(total or 0)


async def items_in(session: AsyncSession, player_id: str, kind: str) -> int:
    total = await session.scalar(
        select(func.coalesce(func.sum(ItemEntry.delta), 0))
        .where(ItemEntry.player_id == player_id, ItemEntry.kind == kind))
    return int(total or 0)


async def items_of(session: AsyncSession, player_ids: Collection[str],
                   kind: str) -> dict[str, int]:
    """``items_in`` for several players in one statement."""
    return await _sums(session, ItemEntry, player_ids, ItemEntry.kind == kind)


async def items(db: Database, player_id: str, kind: str = GOLDEN_EYE) -> int:
    """How many of an item the player holds."""
    async with db.transaction() as s:
        return await items_in(s, player_id, kind)


@dataclass(frozen=True, slots=True)
class Purchase:
    beans: int     # balance after paying
    count: int     # items held after buying


async def buy_golden_eye(db: Database, player_id: str, economy: Economy, count: int = 1,
                         now: datetime | None = None) -> Purchase:
    """Buy ``count`` Golden Eyes at ``economy.golden_eye_price`` each.

    NotEnoughBeans (nothing bought) when the balance less the beans held by a game in
    progress is short of the price.
    """
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 100:
        raise BadRequest(f"buy 1 to 100 Golden Eyes at a time, not {count!r}")
    now = now or utcnow()
    price = economy.golden_eye_price * count
    async with db.transaction() as s:
        await lock_player(s, player_id)
        have, held = await spendable_in(s, player_id)
        if have - held < price:
            raise NotEnoughBeans(_short(f"{count} Golden Eye{'s' if count > 1 else ''} cost",
                                        price, have, held))
        held = await items_in(s, player_id, GOLDEN_EYE)
        add_entry(s, player_id, -price, "purchase", now=now)
        s.add(ItemEntry(player_id=player_id, kind=GOLDEN_EYE, delta=count, reason="purchase",
                        created=now))
        return Purchase(have - price, held + count)


async def use_golden_eye(db: Database, player_id: str, game_id: str | None = None,
                         now: datetime | None = None) -> int:
    """Spend one Golden Eye in a game; the number left. NoItem when he has none."""
    async with db.transaction() as s:
        await lock_player(s, player_id)
        held = await items_in(s, player_id, GOLDEN_EYE)
        if held < 1:
            raise NoItem("you have no Golden Eye (buy one first)")
        s.add(ItemEntry(player_id=player_id, kind=GOLDEN_EYE, delta=-1, reason="use",
                        game_id=game_id, created=now or utcnow()))
        return held - 1


async def admin_adjust(db: Database, player_id: str, delta: int,
                       now: datetime | None = None) -> int:
    """An operator's correction (reason ``admin``); refuses to make a balance negative
    or to take beans a game in progress holds."""
    async with db.transaction() as s:
        await lock_player(s, player_id)
        have, held = await spendable_in(s, player_id)
        if have + delta < 0:
            raise NotEnoughBeans(f"the balance is {have}; {delta} would make it negative")
        if delta < 0 and have + delta < held:
            raise NotEnoughBeans(f"the balance is {have}, of which {held} are held by a game "
                                 f"in progress; {delta} would take held beans")
        if have + delta > MAX_BEANS:
            raise BadRequest(f"the balance is {have}; {delta} would take it past the most "
                             f"a balance may hold ({MAX_BEANS})")
        add_entry(s, player_id, delta, "admin", now=now)
        return have + delta
