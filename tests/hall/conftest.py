"""Every hall test runs twice: on an SQLite file and on a real PostgreSQL server.

The PostgreSQL server is started once per test run (tests/hall/pg.py) and each test
gets a fresh database in it, migrated like a new hall's. If PostgreSQL cannot be
started the PostgreSQL half fails with the reason: CI must exercise both backends.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from redis.asyncio import Redis

from cardhall.hall.domain.config import Economy, Relief
from cardhall.hall.store.db import Database
from tests.conftest import migrated, new_pg_database
from tests.hall.redis_server import RedisServer

BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of the test's backend (not migrated)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'hall.db'}"
    return await new_pg_database(request.getfixturevalue("pg_server"))


@pytest.fixture
async def db(db_url: str) -> AsyncIterator[Database]:
    """A migrated, empty hall database."""
    async with migrated(db_url) as database:
        yield database


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "db_url" in metafunc.fixturenames:
        metafunc.parametrize("db_url", BACKENDS, indirect=True)


@pytest.fixture
def hasher() -> PasswordHasher:
    """argon2id at the lowest cost: the same code path, fast enough to run often."""
    return PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


@pytest.fixture
def economy() -> Economy:
    return Economy(starting_beans=1_000, relief=Relief(amount=500, per_day=2, below=300),
                   golden_eye_price=400)


@pytest.fixture
def p() -> str:
    """The test's own key prefix in the run's shared Redis."""
    return f"test-{secrets.token_hex(4)}:"


@pytest.fixture
async def redis(redis_server: RedisServer, p: str) -> AsyncIterator[Redis]:
    """A client of the run's Redis; the keys the test made (prefix ``p``) deleted after."""
    client = Redis.from_url(redis_server.url, decode_responses=True)
    try:
        yield client
    finally:
        keys = [k async for k in client.scan_iter(f"{p}*")]
        if keys:
            await client.delete(*keys)
        await client.aclose()
