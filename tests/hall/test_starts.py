"""Game starts' group commit, on both backends: many tables' starts in one transaction,
each returning only once committed, a refused start failing alone; and a hold counting
against the starts after it in the same batch, as if each had its own transaction."""

from __future__ import annotations

import asyncio

from sqlalchemy import select

from cardhall.hall.domain.config import Economy
from cardhall.hall.domain.errors import BadRequest, NotEnoughBeans, NotFound
from cardhall.hall.store import accounts, game_reads, ledger
from cardhall.hall.store import game_rows as games
from cardhall.hall.store.db import Database
from cardhall.hall.store.game_rows import GameStart
from cardhall.hall.store.models import Hold
from cardhall.hall.store.starts import GameStarts


async def _players(db: Database, economy: Economy, n: int) -> list[str]:
    return [(await accounts.create_guest(db, economy)).player.id for _ in range(n)]


def _start(table: str, players: list[str], holds: dict[str, int] | None = None) -> GameStart:
    return GameStart(table_id=table, room_id="r", variant="ddz3", players=players, seed=7,
                     holds=holds)


async def test_starts_of_many_tables_share_transactions(db: Database,
                                                        economy: Economy) -> None:
    p = await _players(db, economy, 30)
    starts = GameStarts(db)

    async def table(i: int) -> str:
        seats = p[3 * i:3 * i + 3]
        gid = await starts.start(_start(f"t{i}", seats, {x: 1000 for x in seats}))
        # committed: another connection sees the game and its holds at once
        assert (await games.dealt_balances(db, gid)) == {x: 1000 for x in seats}
        return gid

    gids = await asyncio.gather(*(table(i) for i in range(10)))
    await starts.close()
    assert len(set(gids)) == 10
    assert starts.batches < 10  # grouped: fewer transactions than games
    assert sorted(g.id for g in await game_reads.live_games(db)) == sorted(gids)
    # and a start after close is written on its own
    late = await starts.start(_start("late", p[:3]))
    assert late in [g.id for g in await game_reads.live_games(db)]


async def test_a_refused_start_fails_alone(db: Database, economy: Economy) -> None:
    p = await _players(db, economy, 6)
    await ledger.buy_golden_eye(db, p[3], Economy(golden_eye_price=100))
    made = await games.create_games(db, [
        _start("ok", p[:3], {x: 1000 for x in p[:3]}),
        _start("spent", p[3:], {x: 1000 for x in p[3:]}),       # 900 free, dealt 1 000
        _start("nobody", [p[0], p[1], "no-such-player"]),
        _start("twice", [p[4], p[4], p[5]]),
        # p[:3]'s 1 000 each are held by "ok", earlier in the batch: nothing left
        _start("again", p[:3], {x: 1 for x in p[:3]}),
    ])
    assert isinstance(made[0], str)
    assert isinstance(made[1], NotEnoughBeans) and "900 beans free" in str(made[1])
    assert isinstance(made[2], NotFound) and isinstance(made[3], BadRequest)
    assert isinstance(made[4], NotEnoughBeans) and "0 beans free" in str(made[4])
    assert [g.id for g in await game_reads.live_games(db)] == [made[0]]
    async with db.read() as s:
        held = (await s.execute(select(Hold.game_id, Hold.player_id))).all()
    assert sorted(held) == sorted((made[0], x) for x in p[:3])
