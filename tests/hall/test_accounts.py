"""Accounts on both backends: guests, names, passwords, tokens."""

from __future__ import annotations

import pytest
from argon2 import PasswordHasher
from sqlalchemy import func, select

from cardhall.hall.domain.config import Economy
from cardhall.hall.domain.errors import AuthFailed, BadName, BadPassword, Banned, NameTaken
from cardhall.hall.store import accounts, ledger
from cardhall.hall.store.accounts import check_new_name
from cardhall.hall.store.db import Database
from cardhall.hall.store.models import LedgerEntry, Player, Session


async def test_guest_in_one_call_with_starting_beans(db: Database, economy: Economy) -> None:
    a = await accounts.create_guest(db, economy)
    b = await accounts.create_guest(db, economy)
    assert a.player.is_guest and a.player.password_hash is None
    assert a.player.name.startswith("游客") and a.player.name != b.player.name
    assert a.player.id != b.player.id and a.token != b.token
    assert await ledger.balance(db, a.player.id) == economy.starting_beans
    found = await accounts.player_by_token(db, a.token)
    assert found is not None and found.id == a.player.id
    async with db.transaction() as s:
        stored = (await s.execute(select(Session.token_hash))).scalars().all()
    assert a.token not in stored and accounts.hash_token(a.token) in stored


async def test_register_login_and_wrong_password(db: Database, economy: Economy,
                                                 hasher: PasswordHasher) -> None:
    reg = await accounts.register(db, "张三丰", "secret-1", economy, hasher=hasher)
    assert not reg.player.is_guest
    assert reg.player.password_hash is not None
    assert reg.player.password_hash.startswith("$argon2id$")
    assert "secret-1" not in reg.player.password_hash
    again = await accounts.login(db, "张三丰", "secret-1", hasher=hasher)
    assert again.player.id == reg.player.id and again.token != reg.token
    with pytest.raises(AuthFailed, match="wrong name or password"):
        await accounts.login(db, "张三丰", "secret-2", hasher=hasher)
    with pytest.raises(AuthFailed, match="wrong name or password"):
        await accounts.login(db, "李四", "secret-1", hasher=hasher)
    # Only the two successful logins made sessions; only one starting grant.
    async with db.transaction() as s:
        assert await s.scalar(select(func.count()).select_from(Session)) == 2
        assert await s.scalar(select(func.count()).select_from(LedgerEntry)) == 1


async def test_default_hasher_is_argon2id_and_verifies(db: Database, economy: Economy) -> None:
    reg = await accounts.register(db, "real_cost", "pa55word", economy)
    assert reg.player.password_hash is not None
    assert reg.player.password_hash.startswith("$argon2id$")
    assert (await accounts.login(db, "REAL_COST", "pa55word")).player.id == reg.player.id


async def test_names_are_unique_case_insensitively(db: Database, economy: Economy,
                                                   hasher: PasswordHasher) -> None:
    await accounts.register(db, "Alice", "secret-1", economy, hasher=hasher)
    for taken in ("alice", "ALICE", "Ａｌｉｃｅ"):  # full-width letters fold to the same name
        with pytest.raises(NameTaken):
            await accounts.register(db, taken, "secret-1", economy, hasher=hasher)
    assert (await accounts.login(db, "aLiCe", "secret-1", hasher=hasher)).player.name == "Alice"
    async with db.transaction() as s:
        assert await s.scalar(select(func.count()).select_from(Player)) == 1


@pytest.mark.parametrize(("name", "ok"), [
    ("ab", True), ("a" * 16, True), ("小明", True), ("player_1-x", True), ("李雷2024", True),
    ("a", False), ("a" * 17, False), ("", False), ("has space", False), ("semi;colon", False),
    ("emoji😀", False), ("游客123", False), ("Guest7", False), ("bot_one", False),
    ("机器人甲", False),
])
def test_name_rules(name: str, ok: bool) -> None:
    if ok:
        assert check_new_name(name) == name
    else:
        with pytest.raises(BadName):
            check_new_name(name)


async def test_bad_register_changes_nothing(db: Database, economy: Economy,
                                            hasher: PasswordHasher) -> None:
    with pytest.raises(BadPassword):
        await accounts.register(db, "shorty", "12345", economy, hasher=hasher)
    with pytest.raises(BadName):
        await accounts.register(db, "x", "123456", economy, hasher=hasher)
    async with db.transaction() as s:
        assert await s.scalar(select(func.count()).select_from(Player)) == 0


async def test_revoke_and_ban_end_sessions(db: Database, economy: Economy,
                                           hasher: PasswordHasher) -> None:
    reg = await accounts.register(db, "bob", "secret-1", economy, hasher=hasher)
    other = await accounts.login(db, "bob", "secret-1", hasher=hasher)
    assert await accounts.revoke_token(db, reg.token)
    assert await accounts.player_by_token(db, reg.token) is None
    assert not await accounts.revoke_token(db, reg.token)  # already revoked
    assert await accounts.player_by_token(db, other.token) is not None
    assert await accounts.player_by_token(db, "no-such-token") is None
    await accounts.set_banned(db, reg.player.id, True)
    assert await accounts.player_by_token(db, other.token) is None
    with pytest.raises(Banned):
        await accounts.login(db, "bob", "secret-1", hasher=hasher)
    await accounts.set_banned(db, reg.player.id, False)
    fresh = await accounts.login(db, "bob", "secret-1", hasher=hasher)
    assert await accounts.revoke_all(db, reg.player.id) == 1
    assert await accounts.player_by_token(db, fresh.token) is None


async def test_guest_claims_a_name_and_keeps_beans(db: Database, economy: Economy,
                                                   hasher: PasswordHasher) -> None:
    guest = await accounts.create_guest(db, economy)
    await accounts.register(db, "taken", "secret-1", economy, hasher=hasher)
    with pytest.raises(NameTaken):
        await accounts.claim_guest(db, guest.token, "TAKEN", "secret-1", hasher=hasher)
    player = await accounts.claim_guest(db, guest.token, "newname", "secret-1", hasher=hasher)
    assert player.id == guest.player.id and not player.is_guest
    assert (await accounts.login(db, "newname", "secret-1", hasher=hasher)).player.id == player.id
    assert await ledger.balance(db, player.id) == economy.starting_beans
    with pytest.raises(BadName, match="already has a name"):
        await accounts.claim_guest(db, guest.token, "other", "secret-1", hasher=hasher)


async def test_profile(db: Database, economy: Economy) -> None:
    guest = await accounts.create_guest(db, economy)
    prof = await accounts.profile(db, guest.player.id)
    assert (prof.beans, prof.points, prof.level.title, prof.golden_eyes) == (
        economy.starting_beans, 0, "包身工", 0)
    assert prof.to_json()["title"] == "包身工" and prof.record == {}
