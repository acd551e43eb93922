"""Bot accounts in the store, on both backends (hall.store.bots; docs/bots.md)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from argon2 import PasswordHasher

from cardhall.hall.domain.config import Accounts, Economy
from cardhall.hall.domain.errors import (
    AuthFailed,
    BadName,
    Forbidden,
    NameTaken,
    NotFound,
    TooManyBots,
)
from cardhall.hall.live.seats import BOT_TITLE, Seat
from cardhall.hall.store import accounts, bots, friends, ledger, sessions
from cardhall.hall.store.db import Database
from cardhall.hall.store.models import Player, utcnow
from cardhall.hall.store.table_store import DbStore


async def _owner(db: Database, economy: Economy, hasher: PasswordHasher,
                 name: str = "owner") -> Player:
    return (await accounts.register(db, name, "secret-1", economy, hasher=hasher)).player


async def test_a_bot_is_made_with_a_token_and_no_password(db: Database, economy: Economy,
                                                          hasher: PasswordHasher) -> None:
    owner = await _owner(db, economy, hasher)
    made = await bots.create(db, owner, "deep_blue", economy, 5)
    bot = made.player
    assert bot.is_bot and bot.bot_owner == owner.id and not bot.is_guest
    assert bot.password_hash is None and bot.token_only
    assert await ledger.balance(db, bot.id) == economy.starting_beans
    found = await accounts.player_by_token(db, made.token)
    assert found is not None and found.id == bot.id and found.is_bot
    with pytest.raises(AuthFailed):  # no password logs a bot in
        await accounts.login(db, "deep_blue", "", hasher=hasher)
    assert [b.name for b in await bots.mine(db, owner.id)] == ["deep_blue"]
    prof = (await accounts.profile(db, bot.id)).to_json()
    assert prof["bot"] is True and prof["owner"] == {"id": owner.id, "name": "owner"}
    assert prof["title"] == "机器人"  # a bot earns no level title
    assert (await accounts.profile(db, owner.id)).to_json()["owner"] is None


async def test_bot_names_follow_the_name_rules(db: Database, economy: Economy,
                                               hasher: PasswordHasher) -> None:
    owner = await _owner(db, economy, hasher, "alice")
    for bad in ("", "a", "bot7", "机器人一号", "has space"):
        with pytest.raises(BadName):
            await bots.create(db, owner, bad, economy, 5)
    await accounts.register(db, "paco", "secret-1", economy, hasher=hasher)
    for taken in ("ALICE", "\u0440\u0430\u0441\u043e"):  # a name; a look-alike (Cyrillic)
        with pytest.raises(NameTaken):
            await bots.create(db, owner, taken, economy, 5)
    await bots.create(db, owner, "robo", economy, 5)
    with pytest.raises(NameTaken):  # nobody registers a bot's name either
        await accounts.register(db, "ROBO", "secret-1", economy, hasher=hasher)


async def test_only_a_registered_player_makes_bots(db: Database, economy: Economy,
                                                   hasher: PasswordHasher) -> None:
    guest = (await accounts.create_guest(db, economy)).player
    with pytest.raises(Forbidden):
        await bots.create(db, guest, "robo", economy, 5)
    owner = await _owner(db, economy, hasher)
    bot = (await bots.create(db, owner, "robo", economy, 5)).player
    with pytest.raises(Forbidden):
        await bots.create(db, bot, "robo2", economy, 5)
    await accounts.set_banned(db, owner.id, True)
    banned = await accounts.get_player(db, owner.id)
    with pytest.raises(Forbidden):
        await bots.create(db, banned, "robo3", economy, 5)


async def test_an_owner_holds_at_most_the_limit(db: Database, economy: Economy,
                                                hasher: PasswordHasher) -> None:
    owner = await _owner(db, economy, hasher)
    # Made at once: the limit holds under a race (the owner's row taken on PostgreSQL).
    outcomes = await asyncio.gather(*(bots.create(db, owner, f"r{i}x", economy, 3)
                                      for i in range(6)), return_exceptions=True)
    assert sum(not isinstance(o, BaseException) for o in outcomes) == 3
    assert all(isinstance(o, TooManyBots) for o in outcomes if isinstance(o, BaseException))
    assert len(await bots.mine(db, owner.id)) == 3
    await bots.retire(db, owner, (await bots.mine(db, owner.id))[0].name)
    await bots.create(db, owner, "again", economy, 3)  # a retired bot frees its place
    assert Accounts().bots_per_owner == 5


async def test_a_new_token_revokes_the_old_one(db: Database, economy: Economy,
                                               hasher: PasswordHasher) -> None:
    owner = await _owner(db, economy, hasher)
    made = await bots.create(db, owner, "robo", economy, 5)
    old_session = await sessions.session_id(db, made.token)
    again, ended = await bots.new_token(db, owner, "ROBO")  # the name folds as ever
    assert ended.sessions == [old_session] and ended.bot.id == made.player.id
    assert await accounts.player_by_token(db, made.token) is None
    found = await accounts.player_by_token(db, again.token)
    assert found is not None and found.id == made.player.id
    other = await _owner(db, economy, hasher, "mallory")
    with pytest.raises(NotFound):  # only its owner replaces it
        await bots.new_token(db, other, "robo")


async def test_retiring_ends_its_logins_and_keeps_its_row(db: Database, economy: Economy,
                                                          hasher: PasswordHasher) -> None:
    owner = await _owner(db, economy, hasher)
    made = await bots.create(db, owner, "robo", economy, 5)
    ended = await bots.retire(db, owner, "robo")
    assert len(ended.sessions) == 1
    assert await accounts.player_by_token(db, made.token) is None
    assert await bots.mine(db, owner.id) == []
    kept = await accounts.get_player(db, made.player.id)
    assert kept.retired is not None and kept.name == "robo"
    with pytest.raises(NotFound):  # retired: no new token brings it back
        await bots.new_token(db, owner, "robo")
    with pytest.raises(NameTaken):  # its name stays its own
        await bots.create(db, owner, "robo", economy, 5)


async def test_a_bot_retired_while_its_token_is_replaced_logs_in_no_more(
        db: Database, economy: Economy, hasher: PasswordHasher) -> None:
    """An attack trial (PostgreSQL): a retirement and a new token at once left 19 of 20
    retired bots with a working token, bots no longer counted against the limit. The
    two take the bot's row in turn, and a retired bot's token is refused whatever
    session it has."""
    owner = await _owner(db, economy, hasher)
    for i in range(8):
        await bots.create(db, owner, f"robo{i}", economy, 5)
        out = await asyncio.gather(bots.retire(db, owner, f"robo{i}"),
                                   bots.new_token(db, owner, f"robo{i}"),
                                   return_exceptions=True)
        made = out[1]
        if isinstance(made, BaseException):
            assert isinstance(made, NotFound)  # retired first
            continue
        with pytest.raises(sessions.TokenRefused):
            await sessions.authenticate(db, made[0].token)
    bot = await bots.create(db, owner, "late", economy, 5)
    await bots.retire(db, owner, "late")
    async with db.transaction() as s:  # a session however made after the retirement
        sess, token = sessions.new_session(bot.player.id, utcnow(), bots.AGENT)
        s.add(sess)
    with pytest.raises(sessions.TokenRefused):
        await sessions.authenticate(db, token)
    assert await sessions.ends_of(db, [sess.id]) == {sess.id: None}


async def test_a_ban_while_a_bot_is_made_takes_it_too(db: Database, economy: Economy,
                                                       hasher: PasswordHasher) -> None:
    """The owner read before his ban (a request under way when it came) makes no bot:
    the making reads his ban again with his row taken, so a new bot never outlives it."""
    owner = await _owner(db, economy, hasher)
    await accounts.set_banned(db, owner.id, True)
    with pytest.raises(Forbidden):
        await bots.create(db, owner, "robo", economy, 5)
    assert await bots.mine(db, owner.id) == []


async def test_a_bot_token_lasts_like_a_guests(db: Database, economy: Economy,
                                               hasher: PasswordHasher) -> None:
    """No fixed lifetime: past ``session_days`` it still works while it is used."""
    owner = await _owner(db, economy, hasher)
    made = await bots.create(db, owner, "robo", economy, 5)
    policy = sessions.SessionPolicy.of(Accounts(session_days=1, idle_days=1,
                                                guest_idle_days=90))
    later = utcnow() + timedelta(days=30)
    authed = await sessions.authenticate(db, made.token, policy, now=later)
    assert authed.player.id == made.player.id
    with pytest.raises(sessions.TokenRefused):
        await sessions.authenticate(db, made.token, policy, now=later + timedelta(days=91))


async def test_a_ban_takes_the_owners_bots_with_him(db: Database, economy: Economy,
                                                    hasher: PasswordHasher) -> None:
    owner = await _owner(db, economy, hasher)
    made = await bots.create(db, owner, "robo", economy, 5)
    assert await accounts.set_banned(db, owner.id, True) == [made.player.id]
    assert await accounts.player_by_token(db, made.token) is None
    assert (await accounts.get_player(db, made.player.id)).banned
    await accounts.set_banned(db, owner.id, False)
    assert not (await accounts.get_player(db, made.player.id)).banned


async def test_bots_have_no_friends(db: Database, economy: Economy,
                                    hasher: PasswordHasher) -> None:
    owner = await _owner(db, economy, hasher)
    bot = (await bots.create(db, owner, "robo", economy, 5)).player
    assert await friends.find(db, owner.id, "robo") == []
    with pytest.raises(NotFound):  # answered as nobody's id, as a guest's is
        await friends.ask(db, owner, bot.id)
    with pytest.raises(Forbidden):
        await friends.ask(db, bot, owner.id)


async def test_a_bots_seat_is_a_bots(db: Database, economy: Economy,
                                     hasher: PasswordHasher) -> None:
    """The name and title a table seats it with (``DbStore.names``) make its seat a bot's
    (``Seat.bot``), with its player id; a person's seat is no bot's."""
    owner = await _owner(db, economy, hasher)
    bot = (await bots.create(db, owner, "robo", economy, 5)).player
    names = await DbStore(db).names([owner.id, bot.id])
    assert names[bot.id] == ("robo", BOT_TITLE) and names[owner.id][1] != BOT_TITLE
    seats = [Seat(player=p, name=names[p][0], title=names[p][1]) for p in (owner.id, bot.id)]
    seats.append(Seat(player=None, name="机器人·丙", title=BOT_TITLE))
    assert [(s.human, s.bot) for s in seats] == [(True, False), (True, True), (False, True)]
