"""A settlement under a held write lock, a SIGKILL, a restart: settled once, −fees.

A real ``cardhall serve``; another connection holds what the settlement needs when the
game is over: on SQLite the write lock (``BEGIN IMMEDIATE``), on PostgreSQL the
players' rows (``FOR UPDATE``). The players are not held (they get the state between
games, one leaves), the server is killed outright, restarted under the same lock, and
killed again; once the lock is gone a restarted server settles the game, exactly once,
and its ledger sums to minus the fees.

On PostgreSQL the game ends in the server (its last action needs no player row). On
SQLite the last action itself needs the write lock, so the server is killed just
before it and the action is logged as the table logs it (``final``): the state a crash
between the end and its settlement leaves.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardhall.games import replay
from cardhall.hall.store.db import Database
from cardhall.hall.store.game_reads import live_game_of
from cardhall.hall.store.game_rows import append_action
from tests.conftest import new_pg_database
from tests.hall.test_settle_retry import Lock
from tests.server.conftest import HallProcess, start_hall
from tests.server.play import guests, seat
from tests.server.test_crash import FEE, ROOM, START, advance, finishing, rejoin


async def log_the_end(db_url: str, table: str, action: str) -> str:
    """Append the game's last action as the table does (final); the game's id."""
    db = Database.open(db_url)
    try:
        game = await live_game_of(db, table)
        assert game is not None
        state = replay(game.record)
        seat = state.acting[0]
        await append_action(db, game.id, len(game.record["actions"]) + 1,
                            state.canonical(action, seat), seat, final=True)
        return game.id
    finally:
        await db.close()


@pytest.mark.services  # starts its own hall in the test
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_a_settlement_under_a_held_lock_survives_sigkills(
        tmp_path: Path, request: pytest.FixtureRequest, backend: str) -> None:
    db_url = f"sqlite:///{tmp_path / 'hall.db'}"
    if backend == "postgresql":
        db_url = await new_pg_database(request.getfixturevalue("pg_server"))
    lock = Lock(db_url)
    server: HallProcess = start_hall(tmp_path, db_url=db_url)
    try:
        async with guests(server.url, 3) as clients:
            table, _ = await seat(clients, ROOM)
            mover, state = await advance(clients, table, finishing)
            last = finishing(state["view"]) or ""
            tokens = [c.token or "" for c in clients]
            ids = [(await c.me())["id"] for c in clients]
            if backend == "sqlite":
                server.kill()
                await log_the_end(db_url, table, last)
                lock.take_sqlite()
                server = start_hall(tmp_path, db_url=db_url, admin=False)
            else:
                await lock.take_pg(ids)
                await mover.act(table, last, state["seq"])
                # Not held: after SETTLE_WAIT the table is between games, unsettled.
                await mover.expect("state", where=lambda m: m["phase"] == "between")
                assert not [m for m in mover.pending() if m["type"] == "settled"]
                server.kill()
                server = start_hall(tmp_path, db_url=db_url, admin=False)
        # Restarted under the lock: the table is adopted, its game over, not settled.
        again = await rejoin(server.url, tokens)
        try:
            for c in again:
                if again[0].states[table]["phase"] != "between":
                    await c.expect("state", where=lambda m: m["phase"] == "between")
            await again[1].leave(table=table)
            await again[1].expect("left", table=table)
            assert not [m for m in again[0].pending() if m["type"] == "settled"]
        finally:
            for c in again:
                await c.close()
        server.kill()  # mid-retry, the lock still held
        await lock.release()
        server = start_hall(tmp_path, db_url=db_url, admin=False)
        again = await rejoin(server.url, tokens)
        try:
            settled = await again[0].expect("settled", timeout=30)
            stored = await again[0].get(f"/api/games/{settled['game']}")
            assert stored["status"] == "settled" and stored["beans"] == settled["beans"]
            assert sum(settled["beans"].values()) == -3 * FEE  # the ledger: −fees
            by_player = {(await c.me())["id"]: (await c.me())["beans"] for c in again}
            for seat_no, player in enumerate(stored["players"]):
                assert by_player[player] == START + settled["beans"][str(seat_no)]
            history = await again[0].get("/api/history")
            assert [g["game"] for g in history].count(settled["game"]) == 1
        finally:
            for c in again:
                await c.close()
    finally:
        await lock.release()
        server.stop()
