"""Friends and blocks in the database (hall.store.friends), on SQLite and PostgreSQL:
requests, acceptance, refusals that leave nothing, silent blocks, the limits."""

from __future__ import annotations

import asyncio

import pytest
from argon2 import PasswordHasher

from cardhall.hall.domain.config import Economy
from cardhall.hall.domain.errors import BadRequest, Conflict, Forbidden, NotFound
from cardhall.hall.store import accounts
from cardhall.hall.store import friends as store
from cardhall.hall.store.db import Database
from cardhall.hall.store.models import Block, FriendRequest, Friendship, Player


async def member(db: Database, economy: Economy, hasher: PasswordHasher,
                 name: str) -> Player:
    return (await accounts.register(db, name, "secret password", economy,
                                    hasher=hasher)).player


@pytest.fixture
async def trio(db: Database, economy: Economy,
               hasher: PasswordHasher) -> tuple[Player, Player, Player]:
    return (await member(db, economy, hasher, "Alice"),
            await member(db, economy, hasher, "Bob"),
            await member(db, economy, hasher, "Alfred"))


def ids(rows: list[store.Someone]) -> list[str]:
    return [r.id for r in rows]


async def test_find_by_exact_name_or_prefix_never_a_guest_or_oneself(
        db: Database, economy: Economy, trio: tuple[Player, Player, Player]) -> None:
    alice, bob, alfred = trio
    guest = (await accounts.create_guest(db, economy)).player
    assert ids(await store.find(db, bob.id, "alice")) == [alice.id]  # case-folded
    assert ids(await store.find(db, bob.id, "Al")) == [alfred.id, alice.id]
    assert await store.find(db, alice.id, "A") == []  # one letter: exact names only
    assert ids(await store.find(db, alice.id, "al")) == [alfred.id]  # never oneself
    assert await store.find(db, alice.id, guest.name) == []
    assert await store.find(db, alice.id, guest.name[:3]) == []
    assert await store.find(db, alice.id, "%") == []  # wildcards are letters
    assert await store.find(db, alice.id, "_l") == []
    with pytest.raises(BadRequest):
        await store.find(db, alice.id, "  ")
    found = (await store.find(db, bob.id, "Alice"))[0].to_json()
    assert set(found) == {"id", "name", "title"}  # nothing private


async def test_ask_accept_and_both_see_each_other(
        db: Database, trio: tuple[Player, Player, Player]) -> None:
    alice, bob, _ = trio
    asked = await store.ask(db, alice, bob.id)
    assert (asked.friends, asked.tell, asked.other.name) == (False, True, "Bob")
    assert ids((await store.listing(db, alice.id)).outgoing) == [bob.id]
    assert ids((await store.listing(db, bob.id)).incoming) == [alice.id]
    again = await store.ask(db, alice, bob.id)  # asked already: not told twice
    assert (again.friends, again.tell) == (False, False)
    assert (await store.accept(db, bob.id, alice.id)).id == alice.id
    for me, other in ((alice, bob), (bob, alice)):
        mine = await store.listing(db, me.id)
        assert ids(mine.friends) == [other.id]
        assert mine.incoming == mine.outgoing == []
    assert await store.are_friends(db, alice.id, bob.id)
    with pytest.raises(Conflict):
        await store.ask(db, bob, alice.id)
    with pytest.raises(NotFound):
        await store.accept(db, bob.id, alice.id)  # answered: gone


async def test_asking_back_accepts(db: Database, trio: tuple[Player, Player, Player]) -> None:
    alice, bob, _ = trio
    await store.ask(db, alice, bob.id)
    back = await store.ask(db, bob, alice.id)
    assert (back.friends, back.tell) == (True, True)
    assert await store.are_friends(db, bob.id, alice.id)


async def test_a_refusal_leaves_nothing_and_may_be_asked_again(
        db: Database, trio: tuple[Player, Player, Player]) -> None:
    alice, bob, _ = trio
    await store.ask(db, alice, bob.id)
    await store.decline(db, bob.id, alice.id)
    async with db.read() as s:
        assert await s.get(FriendRequest, (alice.id, bob.id)) is None
    assert (await store.listing(db, alice.id)).outgoing == []
    with pytest.raises(NotFound):
        await store.decline(db, bob.id, alice.id)
    await store.ask(db, alice, bob.id)
    await store.decline(db, alice.id, bob.id)  # the asker withdraws it
    assert (await store.listing(db, bob.id)).incoming == []


async def test_remove_ends_it_both_ways(db: Database, trio: tuple[Player, Player, Player]) -> None:
    alice, bob, _ = trio
    await store.ask(db, alice, bob.id)
    await store.accept(db, bob.id, alice.id)
    await store.remove(db, bob.id, alice.id)
    assert not await store.are_friends(db, alice.id, bob.id)
    assert not await store.are_friends(db, bob.id, alice.id)
    with pytest.raises(NotFound):
        await store.remove(db, alice.id, bob.id)


async def test_a_block_is_silent_ends_the_friendship_and_unblock_lifts_it(
        db: Database, trio: tuple[Player, Player, Player]) -> None:
    alice, bob, alfred = trio
    await store.ask(db, alice, bob.id)
    await store.accept(db, bob.id, alice.id)
    await store.ask(db, bob, alfred.id)
    await store.block(db, bob.id, alice.id)
    await store.block(db, bob.id, alice.id)  # again: nothing changes
    assert not await store.are_friends(db, alice.id, bob.id)
    assert await store.blocks(db, bob.id, alice.id)
    assert not await store.blocks(db, alice.id, bob.id)
    assert await store.blockers_of(db, bob.id, [alice.id, alfred.id]) == {alice.id}
    # Alice asks again: stored and shown to her as waiting, never to Bob nor told.
    asked = await store.ask(db, alice, bob.id)
    assert (asked.friends, asked.tell) == (False, False)
    assert ids((await store.listing(db, alice.id)).outgoing) == [bob.id]
    assert (await store.listing(db, bob.id)).incoming == []
    assert ids((await store.listing(db, bob.id)).blocks) == [alice.id]
    with pytest.raises(NotFound):
        await store.accept(db, bob.id, alice.id)
    with pytest.raises(Conflict):  # the blocker asks: unblock first
        await store.ask(db, bob, alice.id)
    # Bob asking her back would not befriend them silently either.
    with pytest.raises(NotFound):
        await store.decline(db, bob.id, alice.id)  # hidden: not there for him
    await store.unblock(db, bob.id, alice.id)
    assert ids((await store.listing(db, bob.id)).incoming) == [alice.id]
    with pytest.raises(NotFound):
        await store.unblock(db, bob.id, alice.id)
    with pytest.raises(BadRequest):
        await store.block(db, bob.id, bob.id)


async def test_guests_have_no_friends(db: Database, economy: Economy,
                                      trio: tuple[Player, Player, Player]) -> None:
    alice, _, _ = trio
    guest = (await accounts.create_guest(db, economy)).player
    with pytest.raises(Forbidden):
        await store.ask(db, guest, alice.id)
    with pytest.raises(NotFound):
        await store.ask(db, alice, guest.id)
    with pytest.raises(NotFound):
        await store.ask(db, alice, "nobody")
    with pytest.raises(BadRequest):
        await store.ask(db, alice, alice.id)


async def _crowd(db: Database, prefix: str, n: int) -> list[str]:
    """``n`` registered players written at once (no password hashing)."""
    made = [f"{prefix}{i:04d}" for i in range(n)]
    async with db.transaction() as s:
        s.add_all([Player(id=m, name=m, name_key=m.casefold(), name_skeleton=m.casefold(),
                          password_hash="x", is_guest=False) for m in made])
    return made


async def test_limits_refuse_and_change_nothing(
        db: Database, monkeypatch: pytest.MonkeyPatch,
        trio: tuple[Player, Player, Player]) -> None:
    alice, bob, alfred = trio
    monkeypatch.setattr(store, "PENDING_MAX", 3)
    monkeypatch.setattr(store, "FRIENDS_MAX", 2)
    monkeypatch.setattr(store, "BLOCKS_MAX", 2)
    crowd = await _crowd(db, "crowd", 4)
    for c in crowd[:3]:
        await store.ask(db, alice, c)
    with pytest.raises(Conflict, match="at most 3 requests"):
        await store.ask(db, alice, crowd[3])
    assert len((await store.listing(db, alice.id)).outgoing) == 3
    # Incoming: three strangers fill Bob's; a fourth waits until he answers one.
    others = [Player(id=c, name=c, is_guest=False) for c in crowd[1:]]
    for p in others:
        await store.ask(db, p, bob.id)
    with pytest.raises(Conflict, match="requests waiting"):
        await store.ask(db, alfred, bob.id)
    # Friends: two at most, the accept refused past it and the request kept.
    await store.accept(db, crowd[0], alice.id)
    await store.accept(db, crowd[1], alice.id)
    with pytest.raises(Conflict, match="at most 2 friends"):
        await store.accept(db, crowd[2], alice.id)
    assert ids((await store.listing(db, crowd[2])).incoming) == [alice.id]
    await store.block(db, bob.id, crowd[0])
    await store.block(db, bob.id, crowd[1])
    with pytest.raises(Conflict, match="at most 2"):
        await store.block(db, bob.id, crowd[2])
    async with db.read() as s:
        assert await s.get(Block, (bob.id, crowd[2])) is None
        assert await s.get(Friendship, (alice.id, crowd[2])) is None


async def test_racing_accepts_and_asks_befriend_once(
        db: Database, trio: tuple[Player, Player, Player]) -> None:
    """A double click on accept, and two asks crossing: one wins, the other is refused
    (NotFound, or Conflict where the insert met the winner's row), never a failure."""
    alice, bob, alfred = trio
    await store.ask(db, alice, bob.id)
    done = await asyncio.gather(store.accept(db, bob.id, alice.id),
                                store.accept(db, bob.id, alice.id), return_exceptions=True)
    assert sum(isinstance(d, store.Someone) for d in done) == 1
    assert all(isinstance(d, store.Someone | NotFound | Conflict) for d in done), done
    assert ids((await store.listing(db, bob.id)).friends) == [alice.id]
    # Crossing asks take turns (the pair's rows are locked): the second accepts the
    # first, so they are friends with no request left, never two crossed requests.
    crossed = await asyncio.gather(store.ask(db, alice, alfred.id),
                                   store.ask(db, alfred, alice.id))
    assert sorted(d.friends for d in crossed) == [False, True], crossed
    assert await store.are_friends(db, alfred.id, alice.id)
    mine = await store.listing(db, alice.id)
    assert mine.incoming == [] and mine.outgoing == []
    # An accept and a block at once: whichever goes first, the block stands and they
    # are not friends (never friends and blocked).
    await store.ask(db, alfred, bob.id)
    await asyncio.gather(store.accept(db, bob.id, alfred.id),
                         store.block(db, bob.id, alfred.id), return_exceptions=True)
    assert await store.blocks(db, bob.id, alfred.id)
    assert not await store.are_friends(db, bob.id, alfred.id)
