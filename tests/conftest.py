"""Fixtures every part of the suite may use: one throwaway PostgreSQL server per run.

The hall's storage tests and the server's crash tests run on SQLite and on a real
PostgreSQL (tests/hall/pg.py starts it). If PostgreSQL cannot be started, the
PostgreSQL half fails with the reason: CI must exercise both backends.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest
from sqlalchemy.ext.asyncio import create_async_engine

from cardhall.hall.db import async_url
from tests.hall.pg import PostgresServer


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    server = PostgresServer()
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


