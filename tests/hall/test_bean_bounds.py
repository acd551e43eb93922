"""Bean amounts are bounded where they are stored, and the boards' sums never overflow
(issue 25: one huge ledger row made ``/api/leaderboard?by=beans`` fail for everyone)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from argon2 import PasswordHasher

from cardhall.hall.domain.config import Economy
from cardhall.hall.domain.errors import BadRequest
from cardhall.hall.store import accounts, game_rows, leaderboard, ledger
from cardhall.hall.store.db import Database
from cardhall.hall.store.ledger import MAX_BEANS
from cardhall.hall.store.models import LedgerEntry, Score

T0 = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)


async def _player_with_a_game(db: Database, economy: Economy, hasher: PasswordHasher,
                              name: str, beans: int = 5) -> str:
    pid = (await accounts.register(db, name, "secret-1", economy, hasher=hasher)).player.id
    gid = await game_rows.create_game(db, table_id="t", room_id="r", variant="ddz3",
                                  players=[pid, None, None], seed=1, now=T0)
    await game_rows.settle_game(db, gid, {pid: beans}, {pid: 1}, "ddz3", now=T0)
    return pid


async def test_an_entry_or_a_balance_past_the_bound_is_refused(
        db: Database, economy: Economy, hasher: PasswordHasher) -> None:
    pid = await _player_with_a_game(db, economy, hasher, "amy")
    before = await ledger.balance(db, pid)
    for delta in (MAX_BEANS + 1, -MAX_BEANS - 1, 2**63 - 1):
        with pytest.raises(BadRequest, match="at most"):
            async with db.transaction() as s:
                ledger.add_entry(s, pid, delta, "admin")
    with pytest.raises(BadRequest, match="past the most"):
        await ledger.admin_adjust(db, pid, MAX_BEANS - before + 1)
    assert await ledger.balance(db, pid) == before
    assert await ledger.admin_adjust(db, pid, MAX_BEANS - before) == MAX_BEANS


async def test_rows_summing_past_64_bits_do_not_break_the_boards(
        db: Database, economy: Economy, hasher: PasswordHasher) -> None:
    """Rows stored before the bound (written here directly, as an old hall's database
    may hold them): every board still answers, and the others' rows are exact."""
    rich = await _player_with_a_game(db, economy, hasher, "rich")
    poor = await _player_with_a_game(db, economy, hasher, "poor", beans=-7)
    huge = []
    for _ in range(3):
        huge.append(await game_rows.create_game(db, table_id="t", room_id="r", variant="ddz3",
                                            players=[rich, None, None], seed=1, now=T0))
    async with db.transaction() as s:
        for gid in huge:
            s.add(LedgerEntry(player_id=rich, delta=2**62, reason="admin", created=T0))
            s.add(Score(game_id=gid, player_id=rich, variant="ddz3", points=2**62,
                        beans=2**62, won=True, created=T0))
    for by in ("beans", "points"):
        for variant in (None, "ddz3"):
            for since in (None, T0):
                rows = await leaderboard.leaderboard(db, by=by,  # type: ignore[arg-type]
                                                     variant=variant, since=since)
                assert sorted(r.name for r in rows) == ["poor", "rich"], (by, variant, since)
    rows = await leaderboard.leaderboard(db, by="beans")
    assert rows[0].name == "rich" and rows[0].value >= 3 * 2**62
    assert rows[1].value == await ledger.balance(db, poor) == economy.starting_beans - 7
