"""Leaderboards on both backends: ordering, the tie-breaks, what never counts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from argon2 import PasswordHasher

from cardhall.hall.domain.config import Economy
from cardhall.hall.domain.errors import BadRequest
from cardhall.hall.store import accounts, game_rows, leaderboard
from cardhall.hall.store.db import Database

T0 = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)


async def _solo(db: Database, pid: str, points: int, beans: int, at: datetime,
                variant: str = "ddz3") -> str:
    """A game in which one player (the others bots) scores ``points`` and ``beans``."""
    seats: list[str | None] = [pid] + [None] * (3 if variant == "ddz4" else 2)
    gid = await game_rows.create_game(db, table_id="t", room_id="r", variant=variant,
                                  players=seats, seed=1, now=at)
    done = await game_rows.settle_game(db, gid, {pid: beans}, {pid: points}, variant, now=at)
    assert done.applied
    return gid


async def _names(db: Database, **kw: object) -> list[str]:
    return [r.name for r in await leaderboard.leaderboard(db, **kw)]  # type: ignore[arg-type]


@pytest.fixture
async def hall(db: Database, economy: Economy, hasher: PasswordHasher) -> Database:
    ids = {}
    for name in ("amy", "dan", "eve", "bob", "cat", "fay", "gus"):
        ids[name] = (await accounts.register(db, name, "secret-1", economy,
                                             hasher=hasher)).player.id
    await _solo(db, ids["eve"], 2, 100, T0 - timedelta(hours=2))
    await _solo(db, ids["eve"], 2, 100, T0 - timedelta(hours=1))  # 4 points in 2 games
    await _solo(db, ids["amy"], 4, 300, T0)                        # 4 in 1, reached first
    await _solo(db, ids["dan"], 4, 300, T0 + timedelta(hours=1))   # 4 in 1, reached later
    await _solo(db, ids["bob"], -3, -300, T0 + timedelta(hours=2))
    await _solo(db, ids["cat"], -1, -100, T0 + timedelta(hours=3))
    await _solo(db, ids["cat"], 50, 900, T0 + timedelta(hours=4), variant="ddz4")
    await _solo(db, ids["fay"], 99, 999, T0)                       # banned below
    await accounts.set_banned(db, ids["fay"], True)
    # A dissolved game with a huge score never counts; gus has no scored game at all.
    gid = await game_rows.create_game(db, table_id="t", room_id="r", variant="ddz3",
                                  players=[ids["gus"], None, None], seed=1)
    await game_rows.dissolve_game(db, gid)
    return db


async def test_points_in_one_variant_with_tie_breaks(hall: Database) -> None:
    rows = await leaderboard.leaderboard(hall, by="points", variant="ddz3")
    assert [(r.rank, r.name, r.value, r.games) for r in rows] == [
        (1, "amy", 4, 1), (2, "dan", 4, 1), (3, "eve", 4, 2), (4, "cat", -1, 1),
        (5, "bob", -3, 1)]
    assert await _names(hall, by="points", variant="ddz4") == ["cat"]
    assert await _names(hall, by="points", variant="ddz5") == []


async def test_points_overall_are_the_floored_totals(hall: Database) -> None:
    rows = await leaderboard.leaderboard(hall, by="points")
    assert [(r.name, r.value) for r in rows] == [
        ("cat", 50), ("amy", 4), ("dan", 4), ("eve", 4), ("bob", 0)]
    assert rows[0].title == "包身工" and rows[0].games == 2


async def test_period_board_counts_only_games_since(hall: Database) -> None:
    since = T0 + timedelta(minutes=30)
    assert await _names(hall, by="points", variant="ddz3", since=since) == [
        "dan", "cat", "bob"]
    assert await _names(hall, by="points", since=since) == ["cat", "dan", "bob"]


async def test_beans_boards(hall: Database) -> None:
    # Overall: the balance (1000 starting beans each, plus game results).
    rows = await leaderboard.leaderboard(hall, by="beans")
    assert [(r.name, r.value) for r in rows] == [
        ("cat", 1800), ("amy", 1300), ("dan", 1300), ("eve", 1200), ("bob", 700)]
    assert await _names(hall, by="beans", variant="ddz3") == ["amy", "dan", "eve", "cat",
                                                             "bob"]
    assert await _names(hall, by="beans", variant="ddz3", limit=2) == ["amy", "dan"]


@pytest.mark.parametrize(("kw", "message"), [
    ({"by": "wins"}, "by points or beans"),
    ({"variant": "chess"}, "unknown variant"),
    ({"limit": 0}, "1 to 1000"),
    ({"since": datetime(2026, 1, 1)}, "UTC-aware"),
])
async def test_bad_board_requests(db: Database, kw: dict[str, object], message: str) -> None:
    with pytest.raises(BadRequest, match=message):
        await leaderboard.leaderboard(db, **kw)  # type: ignore[arg-type]
