"""Fixtures every part of the suite may use: one throwaway PostgreSQL server per run,
and one Redis server for the tests of several hall processes.

The hall's storage tests and the server's crash tests run on SQLite and on a real
PostgreSQL (tests/hall/pg.py starts it). If PostgreSQL cannot be started, the
PostgreSQL half fails with the reason: CI must exercise both backends.

The hooks below give each test its lane's markers (tests/lanes.py, docs/testing.md).
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Generator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import create_async_engine

from cardhall.hall.store.db import Database, async_url, upgrade
from tests import lanes
from tests.hall.pg import PostgresServer
from tests.hall.redis_server import RedisServer


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    lanes.mark(items)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    """Whatever starts a service during ``item`` (its fixtures' setup included) can ask
    whether ``item`` is marked for it (``lanes.needs``)."""
    lanes.entering(item)
    try:
        return (yield)
    finally:
        lanes.leaving(item)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    server = PostgresServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """One throwaway redis-server per run (persistence off, a private port)."""
    server = RedisServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()


async def new_pg_database(server: PostgresServer) -> str:
    name = f"t_{secrets.token_hex(6)}"
    admin = create_async_engine(async_url(server.url), isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as conn:
            await conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    finally:
        await admin.dispose()
    return server.url.rsplit("/", 1)[0] + "/" + name




@asynccontextmanager
async def migrated(url: str) -> AsyncIterator[Database]:
    """The hall's database at ``url``, migrated like a new hall's; closed after."""
    await upgrade(url)
    database = Database.open(url)
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
async def sqlite_db(tmp_path: Path) -> AsyncIterator[Database]:
    """A migrated, empty hall database in an SQLite file (for what is SQLite's own)."""
    async with migrated(f"sqlite:///{tmp_path / 'hall.db'}") as database:
        yield database
