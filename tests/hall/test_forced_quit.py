"""Leaving a live 保皇 or 找朋友 game at the hall is a forced quit (强退).

platform.md §5 (policy ``AUTOPLAY``) and baohuang.md Ruling 18: the exit button only
puts a seat on 托管 (``auto on``, free), but a player who leaves the table outright
during the game (the client confirms it first) has made a forced quit: his seat plays
on 托管 to the end, the hand is scored normally, and he also loses 40 points, kept by
nobody (platform Ruling 11). The penalty is in points: the beans move by the game's
zero-sum points as always, so the game's ledger still sums to minus the fees.
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from cardhall.hall.domain.economy import settle_points
from cardhall.hall.store import ledger
from cardhall.hall.store.db import Database
from cardhall.hall.store.game_reads import get_game
from cardhall.hall.store.models import LedgerEntry, Score
from cardhall.protocol.messages import Join, Leave, State
from tests.hall.test_tables import guest, make_hall, play_to_end, room

FORCED_QUIT = -40  # platform.md §5, baohuang.md "罚分"


@pytest.mark.parametrize("variant", ["baohuang", "zhaopengyou"])
async def test_leaving_a_live_trick_game_costs_forty_points(db: Database,
                                                            variant: str) -> None:
    hall, inbox = await make_hall(db, room(variant, bot_wait_seconds=None, A=3))
    try:
        players = [await guest(hall) for _ in range(5)]
        for p in players:
            await hall.handle(p, Join(type="join", room="r1"))
        state = await inbox.next(players[0], State)
        table = hall.lobby.table(state.table)
        await hall.handle(players[0], Leave(type="leave", table=state.table))
        seat = state.seat
        assert table.game is not None and not table.game.over  # the hand goes on
        assert table.game.auto[seat]  # on 托管 for the rest of it
        stayed = players[1:]
        settled = await play_to_end(hall, inbox, stayed)
        game_id = settled[stayed[0]].game
        stored = await get_game(db, game_id)
        assert stored is not None and stored.status == "settled"
        assert f"@{seat} leave forced" in stored.record["actions"]
        result = settled[stayed[0]].result
        assert result["penalties"] == [FORCED_QUIT if i == seat else 0 for i in range(5)]
        assert sum(result["points"]) == 0  # the game's own score stays zero-sum
        async with db.read() as s:
            scores = {x.player_id: x.points for x in (await s.execute(
                select(Score).where(Score.game_id == game_id))).scalars()}
            entries = (await s.execute(
                select(LedgerEntry).where(LedgerEntry.game_id == game_id))).scalars().all()
        # His record carries the game's points and the penalty; the others' only theirs.
        for i, p in enumerate(stored.players):
            assert p is not None
            assert scores[p] == result["points"][i] + (FORCED_QUIT if i == seat else 0)
        # Beans: by the zero-sum points, fee A=3 from each (never below 0): no bean is
        # made or lost by the penalty, which nobody receives.
        beans = settled[stayed[0]].beans
        assert [beans[str(i)] for i in range(5)] == settle_points(
            result["points"], 10, 3, [10_000] * 5)  # N=10, A=3: the points, not penalties
        fees = sum(b for b in beans.values())
        assert sum(e.delta for e in entries) == fees
        assert -3 * 5 <= fees < 0
        for i, p in enumerate(stored.players):
            assert p is not None
            assert await ledger.balance(db, p) == 10_000 + beans[str(i)]
    finally:
        await hall.close()
