"""Stakes held (platform ruling 15): what a game may take from a player is held from its
start to its end; nothing spends it meanwhile; the settlement takes the loss from it, so
every settled game's ledger sums to −fees; the game's end, however it ends, releases it,
and a restart finds it where it was (it is stored)."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from cardhall.hall.domain.config import Economy, Relief
from cardhall.hall.domain.economy import bot_balance, game_beans
from cardhall.hall.domain.errors import NotEnoughBeans, ReliefRefused
from cardhall.hall.store import accounts, game_reads, game_rows, ledger
from cardhall.hall.store.db import Database, upgrade
from cardhall.hall.store.models import Hold, LedgerEntry
from cardhall.protocol.messages import Join, Leave, Settled, State
from tests.hall.test_tables import guest, make_hall, play_to_end, room


async def _holds(db: Database) -> dict[tuple[str, str], int]:
    async with db.read() as s:
        rows = await s.execute(select(Hold.game_id, Hold.player_id, Hold.amount))
        return {(str(g), str(p)): int(a) for g, p, a in rows.all()}


async def _game_sum(db: Database, game_id: str) -> int:
    async with db.read() as s:
        return int(await s.scalar(select(func.coalesce(func.sum(LedgerEntry.delta), 0))
                                  .where(LedgerEntry.game_id == game_id)) or 0)


async def _three(db: Database, economy: Economy) -> list[str]:
    return [(await accounts.create_guest(db, economy)).player.id for _ in range(3)]


async def test_a_hold_cannot_be_spent_and_the_loss_is_taken_from_it(
        db: Database, economy: Economy) -> None:
    p = await _three(db, economy)
    gid = await game_rows.create_game(db, table_id="t1", room_id="r", variant="ddz3", players=p,
                                  seed=1, holds={x: 1000 for x in p})
    # 1000 of 1000 held: no Golden Eye, no operator debit into the hold; relief sees the
    # whole balance (held beans are his), so holding them does not make him poor.
    assert await ledger.balance(db, p[1]) == 1000
    with pytest.raises(NotEnoughBeans, match="held"):
        await ledger.buy_golden_eye(db, p[1], Economy(golden_eye_price=1))
    with pytest.raises(NotEnoughBeans, match="held"):
        await ledger.admin_adjust(db, p[1], -1)
    with pytest.raises(ReliefRefused):
        await ledger.grant_relief(db, p[1], Economy(relief=Relief(below=1000)))
    assert await ledger.balance(db, p[1]) == 1000
    assert (await accounts.profile(db, p[1])).to_json()["held"] == 1000  # /api/me says so
    done = await game_rows.settle_game(db, gid, {p[0]: 1990, p[1]: -1000, p[2]: -1000},
                                   {p[0]: 2, p[1]: -1, p[2]: -1}, "ddz3")
    assert done.deltas == {p[0]: 1990, p[1]: -1000, p[2]: -1000}
    assert await _game_sum(db, gid) == -10  # the fee, exactly
    assert await _holds(db) == {}
    assert (await accounts.profile(db, p[1])).held == 0
    assert (await ledger.buy_golden_eye(db, p[0], economy)).beans == 1000 + 1990 - 400


async def test_a_start_refuses_to_hold_beans_spent_since_they_were_read(
        db: Database, economy: Economy) -> None:
    p = await _three(db, economy)
    await ledger.buy_golden_eye(db, p[0], Economy(golden_eye_price=100))
    with pytest.raises(NotEnoughBeans, match="900 beans free"):  # the game was dealt 1 000
        await game_rows.create_game(db, table_id="t1", room_id="r", variant="ddz3", players=p,
                                seed=1, holds={x: 1000 for x in p})
    async with db.read() as s:
        assert await s.scalar(select(func.count()).select_from(Hold)) == 0
    assert await game_reads.live_games(db) == []  # nothing recorded


async def test_a_dissolved_game_releases_its_holds(db: Database, economy: Economy) -> None:
    p = await _three(db, economy)
    gid = await game_rows.create_game(db, table_id="t1", room_id="r", variant="ddz3", players=p,
                                  seed=1, holds={x: 1000 for x in p})
    assert len(await _holds(db)) == 3
    with pytest.raises(NotEnoughBeans):
        await ledger.buy_golden_eye(db, p[0], economy)
    assert await game_rows.dissolve_game(db, gid)
    assert await _holds(db) == {}
    assert (await ledger.buy_golden_eye(db, p[0], economy)).beans == 600


async def test_a_private_game_holds_nothing_and_moves_no_beans(
        db: Database, economy: Economy) -> None:
    p = await _three(db, economy)
    gid = await game_rows.create_game(db, table_id="t1", room_id="r", variant="ddz3", players=p,
                                  seed=1, holds={x: 1000 for x in p}, private=True)
    assert await _holds(db) == {}
    done = await game_rows.settle_game(db, gid, {p[0]: 400, p[1]: -200, p[2]: -200},
                                   {p[0]: 4, p[1]: -2, p[2]: -2}, "ddz3")
    assert done.beans == {"0": 0, "1": 0, "2": 0}
    assert [await ledger.balance(db, x) for x in p] == [1000] * 3
    assert (await accounts.profile(db, p[0])).points == 4  # the level still moves


def _computed(settled: Settled) -> dict[str, int]:
    return {str(i): int(b) for i, b in enumerate(settled.result["beans"])}


async def test_spending_the_stake_mid_game_then_escaping_pays_in_full(db: Database) -> None:
    """The attack: a player with little stakes it, spends it during the game (Golden
    Eyes), then escapes; his loss was cut to what was left, the others paid in full."""
    hall, inbox = await make_hall(db, room("ddz3_happy", N=100, A=5, bot_wait_seconds=None))
    try:
        players = [await guest(hall) for _ in range(3)]
        await ledger.admin_adjust(db, players[0], -8_000)  # 2 000: two Golden Eyes' worth
        for x in players:
            await hall.handle(x, Join(type="join", room="r1"))
        state = await inbox.next(players[0], State)
        with pytest.raises(NotEnoughBeans, match="held by your game"):
            await ledger.buy_golden_eye(db, players[0], hall.config.economy, 2)
        assert await ledger.balance(db, players[0]) == 2_000
        await hall.handle(players[0], Leave(type="leave", table=state.table))
        settled = await inbox.next(players[0], Settled)
        assert settled.result["ended"] == "escape"
        assert settled.beans == _computed(settled)  # nobody's loss was cut
        assert settled.beans[str(state.seat)] < 0
        # Zero-sum but for the fee and the house's odd bean: never beans from nothing.
        assert -6 <= await _game_sum(db, settled.game) == sum(settled.beans.values()) <= 0
        assert await _holds(db) == {}
    finally:
        await hall.close()


async def test_spending_mid_game_then_losing_normally_pays_in_full(db: Database) -> None:
    hall, inbox = await make_hall(db, room("ddz3_happy", N=100, A=5, bot_wait_seconds=None))
    try:
        players = [await guest(hall) for _ in range(3)]
        for x in players:
            await ledger.admin_adjust(db, x, -9_000)
        for x in players:
            await hall.handle(x, Join(type="join", room="r1"))
        await inbox.next(players[0], State)
        refused = 0
        for x in players:
            with pytest.raises(NotEnoughBeans):
                await ledger.buy_golden_eye(db, x, hall.config.economy)
            refused += 1
        settled = (await play_to_end(hall, inbox, players, seed=3))[players[0]]
        assert refused == 3 and settled.beans == _computed(settled)
        assert await _game_sum(db, settled.game) == sum(settled.beans.values())
        fees = [5 if b != 0 else 0 for b in settled.beans.values()]
        assert -sum(fees) <= sum(settled.beans.values()) <= 0
        assert await _holds(db) == {}
        assert [await ledger.balance(db, x) for x in players] == [
            1_000 + settled.beans[str(i)] for i in range(3)]
    finally:
        await hall.close()


async def test_holds_survive_a_restart_and_are_released_by_the_settlement(
        db_url: str) -> None:
    await upgrade(db_url)
    db = Database.open(db_url)
    hall, inbox = await make_hall(db, room("ddz3_happy", N=100, A=5, bot_wait_seconds=None))
    players = [await guest(hall) for _ in range(3)]
    for x in players:
        await hall.handle(x, Join(type="join", room="r1"))
    await play_to_end(hall, inbox, players, stop_after=4)
    held = await _holds(db)
    assert sorted(p for _, p in held) == sorted(players) and set(held.values()) == {10_000}
    await hall.close()  # the process dies mid-game
    await db.close()

    db = Database.open(db_url)
    try:
        assert await _holds(db) == held  # stored, not in memory
        again, inbox = await make_hall(db, room("ddz3_happy", N=100, A=5,
                                                bot_wait_seconds=None))
        with pytest.raises(NotEnoughBeans, match="held"):
            await ledger.buy_golden_eye(db, players[1], again.config.economy)
        for x in players:
            again.connected(x)
        settled = (await play_to_end(again, inbox, players, seed=5))[players[0]]
        assert settled.beans == _computed(settled)
        assert await _game_sum(db, settled.game) == sum(settled.beans.values())
        assert await _holds(db) == {}
        await again.close()
    finally:
        await db.close()


async def test_a_rebuilt_game_settles_on_the_balances_it_was_dealt(db_url: str) -> None:
    """After a restart the table computes the beans on what each seat was dealt: the
    players' holds (not today's balances) and the bots' bankroll (not 0)."""
    await upgrade(db_url)
    db = Database.open(db_url)
    ddz3 = room(N=100, A=5, bot_wait_seconds=0.0)
    hall, inbox = await make_hall(db, ddz3)
    x = await guest(hall)
    await hall.handle(x, Join(type="join", room="r1"))
    await play_to_end(hall, inbox, [x], stop_after=2)
    await hall.close()
    await db.close()

    db = Database.open(db_url)
    try:
        await ledger.admin_adjust(db, x, 5_000)  # today's balance is not what he was dealt
        again, inbox = await make_hall(db, ddz3)
        again.connected(x)
        settled = (await play_to_end(again, inbox, [x], seed=5))[x]
        seat = int(next(iter(settled.beans)))
        bankroll = bot_balance(ddz3.min_beans)
        dealt = [10_000 if s == seat else bankroll for s in range(3)]
        assert settled.beans[str(seat)] == game_beans(settled.result, 100, 5, dealt)[seat]
        await again.close()
    finally:
        await db.close()
