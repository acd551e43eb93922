"""The live half of friends (hall.live.friends) on a real hall: ``blocked`` answers at
once from the block lists kept in the process (for quick chat, which must not wait),
loaded on the first question and read again once old; ``hears`` reads the database."""

from __future__ import annotations

from argon2 import PasswordHasher

from cardhall.hall.live import friends as live
from cardhall.hall.store import accounts
from cardhall.hall.store import friends as store
from cardhall.hall.store.db import Database
from cardhall.protocol.messages import Private
from tests.hall.test_tables import make_hall


async def test_blocked_answers_at_once_from_the_kept_lists(
        db: Database, hasher: PasswordHasher) -> None:
    hall, _ = await make_hall(db)
    try:
        now = [0.0]
        friends = live.Friends(db, hall.lobby, hall.coord, clock=lambda: now[0])
        ann, ben = [(await accounts.register(db, n, "secret password", hall.config.economy,
                                             hasher=hasher)).player for n in ("Ann", "Ben")]
        await store.block(db, ben.id, ann.id)
        assert not await friends.hears(ben.id, ann.id)
        assert await friends.hears(ann.id, ben.id)
        assert friends.blocked(ben.id, ann.id) is False  # not read yet: read now
        await friends.loaded()
        assert friends.blocked(ben.id, ann.id) is True
        assert friends.blocked(ann.id, ben.id) is False
        await friends.loaded()
        await store.unblock(db, ben.id, ann.id)  # made through another process
        assert friends.blocked(ben.id, ann.id) is True  # still the kept list
        now[0] = live.BLOCKS_SECONDS  # old now: answered, and read again
        assert friends.blocked(ben.id, ann.id) is True
        await friends.loaded()
        assert friends.blocked(ben.id, ann.id) is False
        await store.block(db, ben.id, ann.id)
        await friends.changed(ben.id)  # made through this process: at once
        assert friends.blocked(ben.id, ann.id) is True
    finally:
        await hall.close()


async def test_the_kept_lists_are_bounded(db: Database) -> None:
    hall, _ = await make_hall(db)
    try:
        friends = live.Friends(db, hall.lobby, hall.coord)
        for i in range(live.BLOCK_LISTS + 5):
            friends.keep(f"p{i}", {"x"})
        assert len(friends._blocks) == live.BLOCK_LISTS
        assert friends.blocked("p0", "x") is False  # the oldest went
        assert friends.blocked(f"p{live.BLOCK_LISTS + 4}", "x") is True
        await friends.loaded()
    finally:
        await hall.close()


async def test_a_player_sitting_down_has_his_block_list_read(
        db: Database, hasher: PasswordHasher) -> None:
    """The hall's chat asks ``blocked`` of every listener: a player who sits at a table
    here (or watches one) has his list read then, before anyone speaks."""
    hall, _ = await make_hall(db)
    try:
        ann, ben = [(await accounts.register(db, n, "secret password", hall.config.economy,
                                             hasher=hasher)).player for n in ("Ann", "Ben")]
        await store.block(db, ben.id, ann.id)  # through another process, say
        await hall.handle(ben.id, Private(type="private", room="r1"))
        await hall.friends.loaded()
        assert ben.id in hall.friends._blocks
        assert hall.lobby.chat_blocks(ben.id, ann.id) is True
    finally:
        await hall.close()
