"""Migrations build the schema the models describe, and running them again is a no-op."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, inspect, text

from cardhall.hall.store.db import Database, make_engine, upgrade
from cardhall.hall.store.models import Base
from tests.conftest import new_pg_database
from tests.hall.pg import PostgresServer

TABLES = {"players", "sessions", "ledger", "items", "games", "actions", "scores", "stats",
          "seatings", "holds", "puzzles", "puzzle_ratings", "puzzle_attempts",
          "analyses", "ratings", "rating_history", "friend_requests", "friendships", "blocks",
          "events", "event_entrants", "event_tables", "event_games", "ladder_optins",
          "ladder_matches",
          "alembic_version"}


def _diff(conn: Connection) -> list[object]:
    def for_this_database(obj: object, *_: object) -> bool:
        """An index the models make on one database only (``Index.ddl_if``): not
        expected on another (Alembic's comparison does not read ``ddl_if``)."""
        only = getattr(obj, "_ddl_if", None)
        return only is None or only.dialect in (None, conn.dialect.name)

    context = MigrationContext.configure(conn, opts={"include_object": for_this_database})
    return list(compare_metadata(context, Base.metadata))


async def test_upgrade_empty_database_then_again(db_url: str) -> None:
    await upgrade(db_url)
    engine = make_engine(db_url)
    try:
        async with engine.connect() as conn:
            tables = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
            assert tables == TABLES
            assert await conn.run_sync(_diff) == []
            version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).all()
            assert version == [("0018",)]
    finally:
        await engine.dispose()
    await upgrade(db_url)  # again: nothing to do, nothing breaks
    db = Database.open(db_url)
    try:
        async with db.transaction() as s:
            assert (await s.execute(text("SELECT count(*) FROM alembic_version"))).scalar() == 1
    finally:
        await db.close()


async def test_0004_keeps_look_alike_names_and_gives_sessions_ids(db_url: str) -> None:
    """Accounts made before names had skeletons, two of them look-alikes ("admin" and
    "аdmin" with a Cyrillic а), and their sessions: after 0004 both names are kept,
    the older owns the plain skeleton, every session has its own public id."""
    await upgrade(db_url, "0002")
    engine = make_engine(db_url)
    zone = None if db_url.startswith("sqlite") else UTC  # as each backend stores them
    try:
        async with engine.begin() as conn:
            for i, (pid, name) in enumerate([("p1", "admin"), ("p2", "\u0430dmin")]):
                await conn.execute(text(
                    "INSERT INTO players (id, name, name_key, is_guest, is_admin, banned, "
                    "points, created) VALUES (:id, :n, :k, false, false, false, 0, :c)"),
                    {"id": pid, "n": name, "k": name,
                     "c": datetime(2026, 1, 1 + i, tzinfo=zone)})
                await conn.execute(text(
                    "INSERT INTO sessions (token_hash, player_id, created) "
                    "VALUES (:h, :p, :c)"),
                    {"h": f"hash-{pid}", "p": pid, "c": datetime(2026, 1, 1, tzinfo=zone)})
    finally:
        await engine.dispose()
    await upgrade(db_url)
    engine = make_engine(db_url)
    try:
        async with engine.connect() as conn:
            skels = dict((await conn.execute(
                text("SELECT id, name_skeleton FROM players"))).all())
            ids = [r[0] for r in (await conn.execute(text("SELECT id FROM sessions"))).all()]
    finally:
        await engine.dispose()
    assert skels == {"p1": "admln", "p2": "admln#p2"}
    assert len(set(ids)) == 2 and all(len(i) == 32 for i in ids)


async def test_0011_keeps_one_open_puzzle_attempt(db_url: str) -> None:
    """Attempts opened side by side before one open attempt per puzzle was kept: 0011
    keeps the oldest open one (the rated one), deletes the others still open (no rating
    moved by them) and leaves ended ones alone."""
    await upgrade(db_url, "0010")
    engine = make_engine(db_url)
    zone = None if db_url.startswith("sqlite") else UTC
    try:
        async with engine.begin() as conn:
            await conn.execute(text(
                "INSERT INTO players (id, name, name_key, name_skeleton, is_guest, is_admin, "
                "banned, points, created) VALUES ('p1', 'p1', 'p1', 'p1', true, false, false, "
                "0, :c)"), {"c": datetime(2026, 1, 1, tzinfo=zone)})
            await conn.execute(text(
                "INSERT INTO puzzles (id, source, rules, hand, other, title, title_en, level, "
                "winning, mu, sigma, attempts, solved, created) VALUES ('c01', 'classic', "
                "'ddz3_happy', '466A', '77K', 't', 't', 1, 1, 25, 4, 0, 0, :c)"),
                {"c": datetime(2026, 1, 1, tzinfo=zone)})
            for i, (aid, status) in enumerate([("a1", "playing"), ("a2", "failed"),
                                               ("a3", "playing"), ("a4", "playing")]):
                await conn.execute(text(
                    "INSERT INTO puzzle_attempts (id, player_id, puzzle_id, line, plies, "
                    "status, rated, created) VALUES (:id, 'p1', 'c01', '[]', 0, :s, :r, :c)"),
                    {"id": aid, "s": status, "r": i == 0,
                     "c": datetime(2026, 1, 1 + i, tzinfo=zone)})
    finally:
        await engine.dispose()
    await upgrade(db_url)
    engine = make_engine(db_url)
    try:
        async with engine.connect() as conn:
            left = (await conn.execute(text(
                "SELECT id, status FROM puzzle_attempts ORDER BY id"))).all()
    finally:
        await engine.dispose()
    assert [tuple(r) for r in left] == [("a1", "playing"), ("a2", "failed")]


async def test_0015_closes_the_live_private_games_to_spectators(db_url: str) -> None:
    """Before 0015 a private table rebuilt from the log was closed to spectators (its
    owner's choice was not kept): its live games stay so; every other game is open."""
    await upgrade(db_url, "0014")
    engine = make_engine(db_url)
    zone = None if db_url.startswith("sqlite") else UTC
    try:
        async with engine.begin() as conn:
            for gid, private, status in [("g1", True, "live"), ("g2", True, "settled"),
                                         ("g3", False, "live")]:
                await conn.execute(text(
                    "INSERT INTO games (id, table_id, room_id, variant, players, status, "
                    "started, fence, private) VALUES (:id, 't1', 'r1', 'ddz3', '[null]', :s, "
                    ":c, 0, :p)"), {"id": gid, "s": status, "p": private,
                                    "c": datetime(2026, 1, 1, tzinfo=zone)})
    finally:
        await engine.dispose()
    await upgrade(db_url)
    engine = make_engine(db_url)
    try:
        async with engine.connect() as conn:
            rows = (await conn.execute(text(
                "SELECT id, spectators, owner FROM games ORDER BY id"))).all()
    finally:
        await engine.dispose()
    assert [tuple(r) for r in rows] == [("g1", False, None), ("g2", True, None),
                                        ("g3", True, None)]


async def test_0016_the_name_prefix_search_has_an_index_on_postgresql(db_url: str) -> None:
    """The friends search's ``name_key LIKE 'abc%'``: on PostgreSQL its plan uses the
    pattern index (whatever the collation); SQLite has no such index."""
    await upgrade(db_url)
    engine = make_engine(db_url)
    try:
        async with engine.connect() as conn:
            indexes = await conn.run_sync(
                lambda c: {x["name"] for x in inspect(c).get_indexes("players")})
            if conn.dialect.name != "postgresql":
                assert "ix_players_name_key_prefix" not in indexes
                return
            await conn.execute(text("SET enable_seqscan = off"))  # an empty table
            plan = "\n".join(r[0] for r in await conn.execute(text(
                "EXPLAIN SELECT id FROM players WHERE name_key LIKE 'ann%'")))
            assert "ix_players_name_key_prefix" in plan, plan
    finally:
        await engine.dispose()


async def test_processes_migrating_a_new_database_at_once_all_succeed(
        pg_server: PostgresServer) -> None:
    """Hall processes started together on a new PostgreSQL database (several processes
    share one only there) each run ``upgrade``: they take turns (an advisory lock);
    none fails on the first version row."""
    db_url = await new_pg_database(pg_server)
    await asyncio.gather(*(upgrade(db_url) for _ in range(4)))
    engine = make_engine(db_url)
    try:
        async with engine.connect() as conn:
            rows = (await conn.execute(text("SELECT version_num FROM alembic_version"))).all()
    finally:
        await engine.dispose()
    assert len(rows) == 1
