"""The action log's group commit, on both backends: many tables' appends in one
transaction, each append returning only once committed, a bad row failing alone."""

from __future__ import annotations

import asyncio

import pytest

from cardhall.hall.domain.config import Economy
from cardhall.hall.domain.errors import BadRequest, Conflict
from cardhall.hall.store import accounts, game_reads, game_rows
from cardhall.hall.store.db import Database
from cardhall.hall.store.journal import ActionJournal, JournalClosed


async def _games(db: Database, economy: Economy, n: int) -> list[str]:
    p = [(await accounts.create_guest(db, economy)).player.id for _ in range(3)]
    return [await game_rows.create_game(db, table_id=f"t{i}", room_id="r", variant="ddz3",
                                    players=p, seed=i) for i in range(n)]


async def test_appends_of_many_tables_share_transactions(db: Database,
                                                         economy: Economy) -> None:
    gids = await _games(db, economy, 20)
    journal = ActionJournal(db)

    async def table(gid: str) -> None:  # a table: one append at a time, in its order
        for seq in range(1, 6):
            await journal.append(gid, seq, f"a{seq}", seq % 3)
            # committed: another connection sees it at once
            assert len(await game_reads.actions(db, gid)) == seq

    await asyncio.gather(*(table(g) for g in gids))
    await journal.close()
    assert journal.rows == 100
    assert journal.batches < 100  # grouped: fewer transactions than rows
    for g in gids:
        assert await game_reads.actions(db, g) == ["a1", "a2", "a3", "a4", "a5"]
    with pytest.raises(JournalClosed):
        await journal.append(gids[0], 6, "late", 0)


async def test_a_bad_row_fails_alone(db: Database, economy: Economy) -> None:
    good, written, settled = await _games(db, economy, 3)
    await game_rows.append_action(db, written, 1, "first", 0)
    await game_rows.dissolve_game(db, settled)
    journal = ActionJournal(db)
    outcome = await asyncio.gather(
        journal.append(good, 1, "ok", 0),
        journal.append(written, 1, "again", 0),   # (game, seq) exists: another writer
        journal.append(settled, 1, "late", 0),    # the game is no longer live
        return_exceptions=True)
    await journal.close()
    assert outcome[0] is None
    assert isinstance(outcome[1], Conflict) and isinstance(outcome[2], Conflict)
    assert await game_reads.actions(db, good) == ["ok"]
    assert await game_reads.actions(db, written) == ["first"]
    assert await game_reads.actions(db, settled) == []
    with pytest.raises(BadRequest):
        await ActionJournal(db).append(good, 0, "x", 0)
