"""Fencing in the database, on both backends: once a newer owner's token is claimed on a
table's live game, the old owner's appends and settlement are refused (``Fenced``) and
change nothing, while the group commit still writes every other table's rows."""

from __future__ import annotations

import asyncio

import pytest

from cardhall.hall.domain.config import Economy
from cardhall.hall.domain.errors import Fenced
from cardhall.hall.store import accounts, game_reads, game_rows
from cardhall.hall.store.db import Database
from cardhall.hall.store.journal import ActionJournal


async def test_a_stale_owner_is_refused(db: Database, economy: Economy) -> None:
    p = [(await accounts.create_guest(db, economy)).player.id for _ in range(3)]
    fenced, other = [await game_rows.create_game(db, table_id=f"t{i}", room_id="r",
                                             variant="ddz3", players=p, seed=i, fence=1)
                     for i in range(2)]
    journal = ActionJournal(db)
    await journal.append(fenced, 1, "first", 0, fence=1)
    assert await game_rows.claim_games(db, "t0", 5) == 1  # another process took t0 over
    assert await game_rows.claim_games(db, "t0", 4) == 0  # an older token never wins back
    outcome = await asyncio.gather(
        journal.append(fenced, 2, "stale", 1, fence=1),   # the old owner
        journal.append(other, 1, "fine", 0, fence=1),     # t1 is still his
        return_exceptions=True)
    assert isinstance(outcome[0], Fenced) and outcome[1] is None
    await journal.append(fenced, 2, "new owner", 1, fence=5)
    await journal.close()
    assert await game_reads.actions(db, fenced) == ["first", "new owner"]
    assert await game_reads.actions(db, other) == ["fine"]
    deltas = {p[0]: 10, p[1]: -5, p[2]: -5}
    points = {x: 0 for x in p}
    with pytest.raises(Fenced):  # the old owner cannot settle, nor dissolve
        await game_rows.settle_game(db, fenced, deltas, points, "ddz3", fence=1)
    with pytest.raises(Fenced):
        await game_rows.dissolve_game(db, fenced, fence=1)
    assert (await game_reads.get_game(db, fenced)).status == "live"  # type: ignore[union-attr]
    done = await game_rows.settle_game(db, fenced, deltas, points, "ddz3", fence=5)
    assert done.applied
    with pytest.raises(Fenced):  # settled: still not the old owner's to touch
        await game_rows.settle_game(db, fenced, deltas, points, "ddz3", fence=1)


async def test_one_process_writes_unfenced(db: Database, economy: Economy) -> None:
    p = [(await accounts.create_guest(db, economy)).player.id for _ in range(3)]
    gid = await game_rows.create_game(db, table_id="t", room_id="r", variant="ddz3", players=p,
                                  seed=1)
    journal = ActionJournal(db)
    await asyncio.gather(journal.append(gid, 1, "a", 0), game_rows.claim_games(db, "t", 9))
    await journal.append(gid, 2, "b", 1)  # fence None: nothing is compared
    await journal.close()
    assert await game_reads.actions(db, gid) == ["a", "b"]
