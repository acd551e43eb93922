"""Games on both backends: the action log, and settlement exactly once."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import func, select

from cardhall.games import new_game, replay
from cardhall.hall.domain.config import Economy
from cardhall.hall.domain.errors import BadRequest, Conflict, NotFound
from cardhall.hall.store import accounts, game_reads, game_rows, ledger
from cardhall.hall.store.db import Database
from cardhall.hall.store.models import LedgerEntry, Score, Stat


async def _three(db: Database, economy: Economy) -> list[str]:
    return [(await accounts.create_guest(db, economy)).player.id for _ in range(3)]


async def _game(db: Database, players: list[str | None], variant: str = "ddz3") -> str:
    return await game_rows.create_game(db, table_id="t1", room_id="ddz3-novice", variant=variant,
                                   players=players, seed=7)


async def test_action_log_rebuilds_the_game(db: Database, economy: Economy) -> None:
    p = await _three(db, economy)
    gid = await _game(db, [p[0], None, p[2]])
    state = new_game("ddz3", seed=7)
    for seq in (1, 2):
        text = str(state.legal_actions()[-1])
        seat = state.to_act
        state.apply(text)
        await game_rows.append_action(db, gid, seq, text, seat)
    with pytest.raises(Conflict, match="stale"):
        await game_rows.append_action(db, gid, 2, "pass", 0)    # already written
    with pytest.raises(Conflict, match="stale"):
        await game_rows.append_action(db, gid, 4, "pass", 0)    # a gap
    (live,) = await game_reads.live_games(db)
    assert live.id == gid and live.players == [p[0], None, p[2]]
    assert len(live.record["actions"]) == 2
    assert replay(live.record).observe(0) == state.observe(0)
    assert await game_reads.actions(db, gid) == live.record["actions"]


async def test_settle_applies_beans_points_stats_once(db: Database, economy: Economy) -> None:
    p = await _three(db, economy)
    gid = await _game(db, p)
    first = await game_rows.settle_game(db, gid, {p[0]: 380, p[1]: -200, p[2]: -200},
                                    {p[0]: 4, p[1]: -2, p[2]: -2}, "ddz3",
                                    result={"winner": "landlord"})
    assert first.applied and first.beans == {"0": 380, "1": -200, "2": -200}
    again = await game_rows.settle_game(db, gid, {p[0]: 380, p[1]: -200, p[2]: -200},
                                    {p[0]: 4, p[1]: -2, p[2]: -2}, "ddz3")
    assert not again.applied and again.beans == first.beans
    assert [await ledger.balance(db, x) for x in p] == [1380, 800, 800]
    prof = await accounts.profile(db, p[0])
    assert prof.points == 4 and prof.record["ddz3"].wins == 1
    loser = await accounts.profile(db, p[1])
    assert loser.points == 0  # floored at 0
    assert loser.record["ddz3"].points == -2 and loser.record["ddz3"].games == 1
    stored = await game_reads.get_game(db, gid)
    assert stored is not None and stored.status == "settled"
    assert stored.result == {"winner": "landlord"} and stored.beans == first.beans
    with pytest.raises(Conflict):
        await game_rows.append_action(db, gid, 1, "pass", 0)  # a settled game takes no actions
    assert await game_reads.live_games(db) == []


async def test_concurrent_double_settlement_pays_once(db: Database, economy: Economy) -> None:
    p = await _three(db, economy)
    gid = await _game(db, p)
    deltas, points = {p[0]: 100, p[1]: -50, p[2]: -50}, {p[0]: 2, p[1]: -1, p[2]: -1}
    outcomes = await asyncio.gather(
        *(game_rows.settle_game(db, gid, deltas, points, "ddz3") for _ in range(3)))
    assert sorted(o.applied for o in outcomes) == [False, False, True]
    assert [await ledger.balance(db, x) for x in p] == [1100, 950, 950]
    async with db.transaction() as s:
        assert await s.scalar(select(func.count()).select_from(LedgerEntry)
                              .where(LedgerEntry.game_id == gid)) == 3
        assert await s.scalar(select(func.count()).select_from(Score)) == 3
        assert await s.scalar(select(func.sum(Stat.games))) == 3


async def test_bad_settlement_changes_nothing(db: Database, economy: Economy) -> None:
    p = await _three(db, economy)
    gid = await _game(db, p)
    good_points = {p[0]: 2, p[1]: -1, p[2]: -1}
    with pytest.raises(BadRequest, match="not seated"):
        await game_rows.settle_game(db, gid, {p[0]: 1, p[1]: 0, "stranger": -1}, good_points,
                                "ddz3")
    with pytest.raises(BadRequest, match="no value for seated player"):
        await game_rows.settle_game(db, gid, {p[0]: 1, p[1]: -1}, good_points, "ddz3")
    with pytest.raises(BadRequest, match="is ddz3, not ddz4"):
        await game_rows.settle_game(db, gid, {x: 0 for x in p}, good_points, "ddz4")
    with pytest.raises(NotFound):
        await game_rows.settle_game(db, "nope", {}, {}, "ddz3")
    stored = await game_reads.get_game(db, gid)
    assert stored is not None and stored.status == "live"
    assert [await ledger.balance(db, x) for x in p] == [1000] * 3
    settled = await game_rows.settle_game(db, gid, {p[0]: 2, p[1]: -1, p[2]: -1}, good_points,
                                      "ddz3")
    assert settled.applied


async def test_loss_floored_at_zero_and_bots_have_no_account(db: Database,
                                                            economy: Economy) -> None:
    p = await _three(db, economy)
    await ledger.buy_golden_eye(db, p[1], economy, count=2)   # 1000 → 200 beans
    gid = await _game(db, [p[0], p[1], None])
    done = await game_rows.settle_game(db, gid, {p[0]: 600, p[1]: -600}, {p[0]: 2, p[1]: -2},
                                   "ddz3", reason="escape")
    assert done.deltas == {p[0]: 600, p[1]: -200} and done.beans == {"0": 600, "1": -200}
    assert await ledger.balance(db, p[1]) == 0


async def test_dissolved_game_pays_nothing_and_cannot_be_settled(db: Database,
                                                                 economy: Economy) -> None:
    p = await _three(db, economy)
    gid = await _game(db, p)
    assert await game_rows.dissolve_game(db, gid, result={"unscored": True})
    assert not await game_rows.dissolve_game(db, gid)
    with pytest.raises(Conflict, match="dissolved"):
        await game_rows.settle_game(db, gid, {x: 10 for x in p}, {x: 1 for x in p}, "ddz3")
    assert [await ledger.balance(db, x) for x in p] == [1000] * 3


async def test_create_game_checks_seats(db: Database, economy: Economy) -> None:
    p = await _three(db, economy)
    with pytest.raises(BadRequest, match="seats 3 players"):
        await _game(db, p[:2])
    with pytest.raises(BadRequest, match="only one seat"):
        await _game(db, [p[0], p[0], None])
    with pytest.raises(NotFound, match="no player 'ghost'"):
        await _game(db, [p[0], "ghost", None])
    assert await game_reads.live_games(db) == []
