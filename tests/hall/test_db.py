"""The ``Database`` handle itself: what it does once closed."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from cardhall.hall.store.db import Database, DatabaseClosed, upgrade


async def test_a_closed_database_refuses_work_rather_than_connect_again(db_url: str) -> None:
    """Work that outlived ``close`` (a task still running as the hall stops) is refused:
    the disposed pool would otherwise open a connection nothing ever closes."""
    await upgrade(db_url)
    db = Database.open(db_url)
    async with db.read() as s:
        assert (await s.execute(text("SELECT 1"))).scalar() == 1
    await db.close()
    with pytest.raises(DatabaseClosed):
        async with db.read():
            pass
    with pytest.raises(DatabaseClosed):
        async with db.transaction():
            pass
