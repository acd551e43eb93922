"""Beans on both backends: balances are sums, relief has limits, purchases refuse."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from cardhall.hall.domain.config import Economy
from cardhall.hall.domain.errors import NoItem, NotEnoughBeans, NotFound, ReliefRefused
from cardhall.hall.store import accounts, ledger
from cardhall.hall.store.db import Database
from cardhall.hall.store.models import LedgerEntry

DAY = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


async def _sum(db: Database, player_id: str) -> int:
    async with db.transaction() as s:
        total = await s.scalar(select(func.sum(LedgerEntry.delta))
                               .where(LedgerEntry.player_id == player_id))
        return int(total or 0)


async def test_purchase_and_use_golden_eye(db: Database, economy: Economy) -> None:
    pid = (await accounts.create_guest(db, economy)).player.id  # 1000 beans, price 400
    bought = await ledger.buy_golden_eye(db, pid, economy, count=2)
    assert bought == ledger.Purchase(beans=200, count=2)
    with pytest.raises(NotEnoughBeans, match="cost 400 beans; you have 200"):
        await ledger.buy_golden_eye(db, pid, economy)
    assert await ledger.balance(db, pid) == 200 == await _sum(db, pid)
    assert await ledger.items(db, pid) == 2
    assert await ledger.use_golden_eye(db, pid) == 1
    assert await ledger.items(db, pid) == 1


async def test_use_golden_eye_refuses_without_one(db: Database, economy: Economy) -> None:
    pid = (await accounts.create_guest(db, economy)).player.id
    with pytest.raises(NoItem):
        await ledger.use_golden_eye(db, pid)
    await ledger.buy_golden_eye(db, pid, economy)
    assert await ledger.items(db, pid) == 1


async def test_relief_only_below_threshold_and_k_per_day(db: Database,
                                                         economy: Economy) -> None:
    # economy: 500 beans when below 300, at most 2 per UTC day.
    pid = (await accounts.create_guest(db, economy, now=DAY)).player.id
    with pytest.raises(ReliefRefused, match="below 300 beans; you have 1000"):
        await ledger.grant_relief(db, pid, economy, now=DAY)
    await ledger.admin_adjust(db, pid, -800, now=DAY)         # 200 left
    assert await ledger.grant_relief(db, pid, economy, now=DAY) == 700
    await ledger.admin_adjust(db, pid, -700, now=DAY)         # 0 left
    assert await ledger.grant_relief(db, pid, economy, now=DAY) == 500
    await ledger.admin_adjust(db, pid, -500, now=DAY)
    assert await ledger.relief_left(db, pid, economy, now=DAY) == 0
    with pytest.raises(ReliefRefused, match="2 times today"):
        await ledger.grant_relief(db, pid, economy, now=DAY + timedelta(hours=11, minutes=59))
    next_day = datetime(2026, 3, 2, 0, 0, tzinfo=UTC)
    assert await ledger.relief_left(db, pid, economy, now=next_day) == 2
    assert await ledger.grant_relief(db, pid, economy, now=next_day) == 500
    assert await ledger.balance(db, pid) == await _sum(db, pid) == 500
    entries = await ledger.history(db, pid)
    assert [e.reason for e in entries] == ["relief", "admin", "relief", "admin", "relief",
                                          "admin", "start"]


async def test_concurrent_relief_claims_grant_once(db: Database, economy: Economy) -> None:
    one_a_day = economy.model_copy(update={"relief": economy.relief.model_copy(
        update={"per_day": 1})})
    pid = (await accounts.create_guest(db, economy, now=DAY)).player.id
    await ledger.admin_adjust(db, pid, -1000, now=DAY)
    outcomes = await asyncio.gather(
        *(ledger.grant_relief(db, pid, one_a_day, now=DAY) for _ in range(4)),
        return_exceptions=True)
    assert sorted(type(o).__name__ for o in outcomes) == ["ReliefRefused"] * 3 + ["int"]
    assert await ledger.balance(db, pid) == 500


async def test_admin_adjust_never_makes_a_balance_negative(db: Database,
                                                           economy: Economy) -> None:
    pid = (await accounts.create_guest(db, economy)).player.id
    with pytest.raises(NotEnoughBeans):
        await ledger.admin_adjust(db, pid, -1001)
    assert await ledger.balance(db, pid) == 1000
    with pytest.raises(NotFound):
        await ledger.admin_adjust(db, "nobody", 5)


async def test_a_tables_balances_items_and_locks_in_one_statement_each(
        db: Database, economy: Economy) -> None:
    """The batched reads a table and a settlement use agree with the one-player ones."""
    a = (await accounts.create_guest(db, economy)).player.id
    b = (await accounts.create_guest(db, economy)).player.id
    await ledger.buy_golden_eye(db, a, economy, count=2)
    async with db.transaction() as s:
        ledger.add_entry(s, b, -300, "admin")
    async with db.transaction() as s:
        got = await ledger.balances_in(s, [b, a, b, "nobody"])
        assert got == {a: await ledger.balance_in(s, a), b: await ledger.balance_in(s, b),
                       "nobody": 0} == {a: 200, b: 700, "nobody": 0}
        assert await ledger.items_of(s, [a, b], ledger.GOLDEN_EYE) == {a: 2, b: 0}
        assert await ledger.balances_in(s, []) == {} == await ledger.items_of(s, [], "x")
        locked = await ledger.lock_players(s, [b, a])
        assert sorted(locked) == sorted([a, b]) and locked[a].id == a
        with pytest.raises(NotFound, match="no player 'nobody'"):
            await ledger.lock_players(s, [a, "nobody"])
