"""Sessions expire, are listed and revoked; a password change ends the others; wrong
passwords lock an account's logins with backoff (clock injected: no sleeps)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from argon2 import PasswordHasher

from cardhall.hall.domain.config import Accounts, Economy
from cardhall.hall.domain.errors import AuthFailed, BadPassword, NotFound
from cardhall.hall.store import accounts, sessions
from cardhall.hall.store.db import Database
from cardhall.hall.store.lockout import LockedOut, LockoutPolicy
from cardhall.hall.store.sessions import SessionPolicy, TokenRefused

T0 = datetime(2026, 12, 1, tzinfo=UTC)
POLICY = SessionPolicy.of(Accounts(session_days=30, idle_days=7, guest_idle_days=90))
LOCK = LockoutPolicy.of(Accounts())


async def _why(db: Database, token: str, now: datetime) -> str:
    try:
        await sessions.authenticate(db, token, POLICY, now)
    except TokenRefused as exc:
        return exc.why
    return "ok"


async def test_registered_session_expires_after_its_lifetime_and_when_idle(
        db: Database, economy: Economy, hasher: PasswordHasher) -> None:
    reg = await accounts.register(db, "bob", "secret-1", economy, hasher=hasher, now=T0)
    idle = await accounts.login(db, "bob", "secret-1", hasher=hasher, now=T0)
    for day in range(0, 30, 6):  # used every 6 days: never idle for 7
        assert await _why(db, reg.token, T0 + timedelta(days=day)) == "ok"
    assert await _why(db, reg.token, T0 + timedelta(days=30)) == "expired"
    assert await _why(db, idle.token, T0 + timedelta(days=6, hours=23)) == "ok"
    assert await _why(db, idle.token, T0 + timedelta(days=13, hours=22)) == "ok"
    assert await _why(db, idle.token, T0 + timedelta(days=21)) == "expired"
    with pytest.raises(TokenRefused, match="expired") as refused:
        await sessions.authenticate(db, reg.token, POLICY, T0 + timedelta(days=31))
    assert refused.value.code == "session_expired"


async def test_guest_session_ends_only_when_idle(db: Database, economy: Economy) -> None:
    guest = await accounts.create_guest(db, economy, now=T0)
    for day in range(0, 400, 80):
        assert await _why(db, guest.token, T0 + timedelta(days=day)) == "ok"
    assert await _why(db, guest.token, T0 + timedelta(days=320 + 90)) == "expired"


async def test_claimed_guest_session_starts_afresh(db: Database, economy: Economy,
                                                   hasher: PasswordHasher) -> None:
    guest = await accounts.create_guest(db, economy, now=T0)
    later = T0 + timedelta(days=60)
    assert await _why(db, guest.token, later) == "ok"
    await accounts.claim_guest(db, guest.token, "newname", "secret-1", hasher=hasher,
                               now=later, policy=POLICY)
    assert await _why(db, guest.token, later + timedelta(days=1)) == "ok"


async def test_list_and_revoke_sessions(db: Database, economy: Economy,
                                        hasher: PasswordHasher) -> None:
    a = await accounts.register(db, "bob", "secret-1", economy, hasher=hasher, now=T0,
                                agent="Firefox")
    b = await accounts.login(db, "bob", "secret-1", hasher=hasher, now=T0 + timedelta(hours=1),
                             agent="curl")
    other = await accounts.register(db, "eve", "secret-1", economy, hasher=hasher, now=T0)
    me = await sessions.authenticate(db, a.token, POLICY, T0 + timedelta(hours=2))
    listed = await sessions.live_sessions(db, me.player, me.session, POLICY,
                                          T0 + timedelta(hours=2))
    assert [(s.agent, s.current) for s in listed] == [("curl", False), ("Firefox", True)]
    shown = str([s.to_json() for s in listed])
    assert a.token not in shown and b.token not in shown
    assert sessions.hash_token(a.token) not in shown
    eve = await sessions.authenticate(db, other.token, POLICY, T0)
    with pytest.raises(NotFound):  # not his
        await sessions.revoke(db, eve.player.id, listed[0].id)
    await sessions.revoke(db, me.player.id, listed[0].id)
    assert await _why(db, b.token, T0 + timedelta(hours=3)) == "revoked"
    with pytest.raises(NotFound):
        await sessions.revoke(db, me.player.id, listed[0].id)
    assert [s.id for s in await sessions.live_sessions(db, me.player, me.session, POLICY,
                                                       T0)] == [me.session]


async def test_password_change_ends_the_other_sessions(db: Database, economy: Economy,
                                                       hasher: PasswordHasher) -> None:
    a = await accounts.register(db, "bob", "secret-1", economy, hasher=hasher, now=T0)
    b = await accounts.login(db, "bob", "secret-1", hasher=hasher, now=T0)
    c = await accounts.login(db, "bob", "secret-1", hasher=hasher, now=T0)
    me = await sessions.authenticate(db, a.token, POLICY, T0)
    with pytest.raises(AuthFailed):
        await accounts.change_password(db, me.player, me.session, "wrong-pw", "secret-2",
                                       hasher=hasher, now=T0)
    with pytest.raises(BadPassword):
        await accounts.change_password(db, me.player, me.session, "secret-1", "short",
                                       hasher=hasher, now=T0)
    assert await _why(db, b.token, T0) == "ok"  # the refusals changed nothing
    ended = await accounts.change_password(db, me.player, me.session, "secret-1",
                                           "secret-2", hasher=hasher, now=T0)
    ids = {(await sessions.session_id(db, t)) for t in (b.token, c.token)}
    assert set(ended) == ids
    assert [await _why(db, t, T0) for t in (a.token, b.token, c.token)] == [
        "ok", "revoked", "revoked"]
    with pytest.raises(AuthFailed):
        await accounts.login(db, "bob", "secret-1", hasher=hasher, now=T0)
    await accounts.login(db, "bob", "secret-2", hasher=hasher, now=T0)
    guest = await accounts.create_guest(db, economy, now=T0)
    g = await sessions.authenticate(db, guest.token, POLICY, T0)
    with pytest.raises(BadPassword, match="guest"):
        await accounts.change_password(db, g.player, g.session, "", "secret-2", hasher=hasher)


async def _fails(db: Database, hasher: PasswordHasher, now: datetime, n: int = 1,
                 device: str | None = None) -> None:
    for _ in range(n):
        with pytest.raises(AuthFailed):
            await accounts.login(db, "bob", "wrong-pw", hasher=hasher, now=now, policy=LOCK,
                                 device=device)


async def test_lockout_backs_off_and_a_success_resets_it(
        db: Database, economy: Economy, hasher: PasswordHasher) -> None:
    await accounts.register(db, "bob", "secret-1", economy, hasher=hasher, now=T0)
    await _fails(db, hasher, T0, 5)
    with pytest.raises(LockedOut) as locked:  # even the right password: locked
        await accounts.login(db, "bob", "secret-1", hasher=hasher, now=T0, policy=LOCK)
    assert locked.value.retry_after == 60 and locked.value.code == "locked_out"
    at = T0 + timedelta(seconds=30)
    for _ in range(20):  # tries during the lock are not counted: it does not grow
        with pytest.raises(LockedOut) as locked:
            await accounts.login(db, "bob", "wrong-pw", hasher=hasher, now=at, policy=LOCK)
    assert locked.value.retry_after == 30
    now, waits = T0, []
    for _ in range(6):  # each failure after the lock doubles it, up to the cap
        now += timedelta(seconds=LOCK.cap.total_seconds())
        await _fails(db, hasher, now)
        with pytest.raises(LockedOut) as locked:
            await accounts.login(db, "bob", "wrong-pw", hasher=hasher, now=now, policy=LOCK)
        waits.append(locked.value.retry_after)
    assert waits == [120, 240, 480, 900, 900, 900]
    now += LOCK.cap
    await accounts.login(db, "bob", "secret-1", hasher=hasher, now=now, policy=LOCK)
    await _fails(db, hasher, now, 4)  # reset: four more wrong ones do not lock
    await accounts.login(db, "bob", "secret-1", hasher=hasher, now=now, policy=LOCK)


async def test_lockout_forgets_and_known_devices_pass(
        db: Database, economy: Economy, hasher: PasswordHasher) -> None:
    reg = await accounts.register(db, "bob", "secret-1", economy, hasher=hasher, now=T0)
    await _fails(db, hasher, T0, 4)
    await _fails(db, hasher, T0 + timedelta(hours=25), 4)  # the first four are forgotten
    await _fails(db, hasher, T0 + timedelta(hours=25))  # the fifth in a row: locked
    late = T0 + timedelta(hours=25, seconds=1)
    with pytest.raises(LockedOut):
        await accounts.login(db, "bob", "secret-1", hasher=hasher, now=late, policy=LOCK)
    # The browser that logged in before (its token, even expired) is not locked out.
    back = await accounts.login(db, "bob", "secret-1", hasher=hasher, now=late, policy=LOCK,
                                device=reg.token)
    other = await accounts.register(db, "eve", "secret-1", economy, hasher=hasher, now=T0)
    await _fails(db, hasher, late, 5)
    with pytest.raises(LockedOut):  # another account's token is no proof
        await accounts.login(db, "bob", "secret-1", hasher=hasher, now=late, policy=LOCK,
                             device=other.token)
    await accounts.revoke_token(db, back.token)
    with pytest.raises(LockedOut):  # nor a revoked one
        await accounts.login(db, "bob", "secret-1", hasher=hasher, now=late, policy=LOCK,
                             device=back.token)


async def test_unknown_names_are_not_tracked(db: Database, hasher: PasswordHasher) -> None:
    for _ in range(10):
        with pytest.raises(AuthFailed):
            await accounts.login(db, "nobody", "wrong-pw", hasher=hasher, now=T0, policy=LOCK)


async def test_touches_are_batched_and_nobody_waits(db: Database, economy: Economy) -> None:
    """Many sessions checked at once after an hour: their last use is written in batches,
    by the Toucher, not one UPDATE per check, and the idle limit counts from it."""
    logins = [await accounts.create_guest(db, economy, now=T0) for _ in range(20)]
    toucher = sessions.Toucher(db)
    later = T0 + timedelta(days=80)
    await asyncio.gather(*(sessions.authenticate(db, one.token, POLICY, later, toucher=toucher)
                           for one in logins))
    await toucher.close()
    # How many depends on how the reads interleave with the writes; never one each.
    assert 1 <= toucher.batches < len(logins), toucher.batches
    for one in logins:  # used at day 80 (untouched, it would have ended at day 90)
        assert await _why(db, one.token, later + timedelta(days=89)) == "ok"


async def test_touches_made_together_are_one_update(db: Database, economy: Economy) -> None:
    """Touches made in one step of the loop go in one UPDATE; the caller never waits."""
    logins = [await accounts.create_guest(db, economy, now=T0) for _ in range(20)]
    toucher = sessions.Toucher(db)
    later = T0 + timedelta(days=80)
    for one in logins:
        toucher.touch(sessions.hash_token(one.token), later)
    assert toucher.batches == 0  # nothing written yet: touch returned at once
    await toucher.close()
    assert toucher.batches == 1
    for one in logins:
        assert await _why(db, one.token, later + timedelta(days=89)) == "ok"
