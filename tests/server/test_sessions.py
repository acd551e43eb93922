"""Accounts through a real hall: sessions listed, revoked and expired; logout and a
password change close that token's socket (4401); the login lockout (429 with
Retry-After); wrong invite codes limited; the bot's token from a file, never argv."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from sqlalchemy import update

from cardhall.client import ClientError, HallClient, HttpError
from cardhall.hall.live.lobby import CODE_CHARS, CODE_LENGTH
from cardhall.hall.store.db import Database
from cardhall.hall.store.models import Session
from cardhall.hall.store.sessions import hash_token
from tests.hall.pg import PostgresServer
from tests.hall.redis_server import RedisServer
from tests.server.cluster import cluster
from tests.server.conftest import CARDHALL, HallProcess, running_hall
from tests.server.play import guests, vacate

LIMITS = ("guests_per_minute = 1000\nlogins_per_minute = 1000\nmessages_per_second = 200\n"
          "code_failures_per_hour = 3\ncode_failures_per_hour_per_address = 5\n")


@pytest.fixture(scope="module")
def accounts_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    yield from running_hall(tmp_path_factory.mktemp("accounts"), limits=LIMITS)


async def _registered(url: str, name: str, password: str = "secret-1") -> HallClient:
    c = HallClient(url, timeout=20)
    await c.register(name, password)
    return c


async def _again(url: str, name: str, password: str = "secret-1") -> HallClient:
    """Another session (device) of the same account."""
    c = HallClient(url, timeout=20)
    try:
        await c.login(name, password)
    except HttpError:
        await c.close()
        raise
    return c


async def test_logout_closes_that_tokens_socket(accounts_hall: HallProcess) -> None:
    url = accounts_hall.url
    a = await _registered(url, "leaver")
    b = await _again(url, "leaver")
    try:
        await a.connect()
        token = a.token
        await b.post("/api/logout")  # another session's logout: a's socket stays
        await a.ping()
        await a.expect("pong")
        await a.post("/api/logout")
        gone = await a.expect("disconnected")
        assert (gone["code"], gone["reason"], gone["reconnecting"]) == (
            4401, "logged out", False)
        with pytest.raises(HttpError) as refused:
            await a.me()
        assert (refused.value.status, refused.value.code) == (401, "bad_token")
        assert "ended" in str(refused.value)
        again = HallClient(url, token=token, timeout=20)
        with pytest.raises(ClientError, match="bad_token: this session was ended"):
            await again.connect()
        await again.close()
    finally:
        await a.close()
        await b.close()


async def test_sessions_are_listed_without_tokens_and_revoked(
        accounts_hall: HallProcess) -> None:
    url = accounts_hall.url
    a = await _registered(url, "lister")
    b = await _again(url, "lister")
    try:
        await b.connect()
        listed = (await a.get("/api/sessions"))["sessions"]
        assert len(listed) == 2 and [s["current"] for s in listed] == [False, True]
        text = str(listed)
        for secret in (a.token, b.token):
            assert secret is not None
            assert secret not in text and hash_token(secret) not in text
        assert set(listed[0]) == {"id", "created", "used", "expires", "agent", "current"}
        other = listed[0]["id"]
        with pytest.raises(HttpError) as refused:  # not the other player's to revoke
            async with guests(url, 1) as (stranger,):
                await stranger.request("DELETE", f"/api/sessions/{other}")
        assert (refused.value.status, refused.value.code) == (404, "not_found")
        await a.request("DELETE", f"/api/sessions/{other}")
        gone = await b.expect("disconnected")
        assert (gone["code"], gone["reconnecting"]) == (4401, False)
        assert [s["current"] for s in (await a.get("/api/sessions"))["sessions"]] == [True]
        with pytest.raises(HttpError):
            await b.me()
    finally:
        await a.close()
        await b.close()


async def test_password_change_closes_the_other_sessions(accounts_hall: HallProcess) -> None:
    url = accounts_hall.url
    a = await _registered(url, "changer")
    b = await _again(url, "changer")
    try:
        await b.connect()
        with pytest.raises(HttpError) as wrong:
            await a.post("/api/password", {"old": "not-it", "new": "secret-2"})
        assert (wrong.value.status, wrong.value.code) == (401, "auth_failed")
        await b.ping()
        await b.expect("pong")  # a refused change closes nothing
        done = await a.post("/api/password", {"old": "secret-1", "new": "secret-2"})
        assert done == {"ok": True, "ended": 1}
        gone = await b.expect("disconnected")
        assert (gone["code"], gone["reason"]) == (4401, "the password was changed")
        await a.connect()  # the changing session goes on
        assert (await a.me())["name"] == "changer"
        with pytest.raises(HttpError):
            await _again(url, "changer", "secret-1")
        await (await _again(url, "changer", "secret-2")).close()
        async with guests(url, 1) as (guest,):
            with pytest.raises(HttpError) as refused:
                await guest.post("/api/password", {"old": "", "new": "secret-2"})
            assert refused.value.code == "bad_password"
    finally:
        await a.close()
        await b.close()


async def test_an_expired_session_is_refused_clearly(accounts_hall: HallProcess) -> None:
    """A session older than session_days (30): 401 session_expired on HTTP, the same
    code on hello. Its creation time is moved back in the database: no waiting."""
    c = await _registered(accounts_hall.url, "sleeper")
    assert c.token is not None
    db = Database.open(accounts_hall.db_url)
    try:
        async with db.transaction() as s:
            long_ago = datetime.now(UTC) - timedelta(days=31)
            await s.execute(update(Session).where(Session.token_hash == hash_token(c.token))
                            .values(created=long_ago, used=datetime.now(UTC)))
    finally:
        await db.close()
    try:
        with pytest.raises(HttpError) as refused:
            await c.me()
        assert (refused.value.status, refused.value.code) == (401, "session_expired")
        assert "expired" in str(refused.value)
        with pytest.raises(ClientError, match="session_expired"):
            await c.connect()
        # The expired token still proves the device: it logs in past a lockout.
        fresh = await _again(accounts_hall.url, "sleeper")
        await fresh.close()
    finally:
        await c.close()


async def test_login_lockout_429_with_retry_after(accounts_hall: HallProcess) -> None:
    url = accounts_hall.url
    owner = await _registered(url, "target")
    try:
        async with httpx.AsyncClient(base_url=url) as http:
            wrong = {"name": "target", "password": "guess-it"}
            codes = [(await http.post("/api/login", json=wrong)).status_code
                     for _ in range(5)]
            assert codes == [401] * 5
            locked = await http.post("/api/login",
                                     json={"name": "target", "password": "secret-1"})
            assert locked.status_code == 429
            assert locked.json()["error"] == "locked_out"
            assert 55 <= int(locked.headers["retry-after"]) <= 60
            # The owner's open session works; his browser (its token) may log in.
            assert (await owner.me())["name"] == "target"
            known = await http.post("/api/login", json={
                "name": "target", "password": "secret-1", "device": owner.token})
            assert known.status_code == 200
            bad = await http.post("/api/login", json={**wrong, "device": 7})
            assert bad.status_code == 400 and bad.json()["error"] == "malformed"
    finally:
        await owner.close()


def _wrong_code(n: int) -> str:
    return "".join(CODE_CHARS[(n + i) % len(CODE_CHARS)] for i in range(CODE_LENGTH))


async def test_wrong_invite_codes_are_limited(accounts_hall: HallProcess) -> None:
    """3 wrong codes per player, 5 per address: then even a right one is refused."""
    async with guests(accounts_hall.url, 3) as (owner, guesser, other):
        await owner.send({"type": "private", "room": "ddz3-humans", "bots": False})
        invite = await owner.expect("invite")
        assert len(invite["code"]) == CODE_LENGTH and set(invite["code"]) <= set(CODE_CHARS)
        for n in range(3):
            await guesser.send({"type": "join", "code": _wrong_code(n)})
            assert (await guesser.expect("error"))["code"] == "unknown_table"
        await guesser.send({"type": "join", "code": invite["code"]})
        refused = await guesser.expect("error")
        assert refused["code"] == "rate_limited" and "invite codes" in refused["message"]
        for n in range(2):  # the address's 4th and 5th wrong code
            await other.send({"type": "join", "code": _wrong_code(10 + n)})
            assert (await other.expect("error"))["code"] == "unknown_table"
        await other.send({"type": "join", "code": invite["code"]})
        assert (await other.expect("error"))["code"] == "rate_limited"
        await vacate([owner], invite["table"], "ddz3-humans")


def test_bot_reads_its_token_from_a_file(accounts_hall: HallProcess, tmp_path: Path) -> None:
    made = httpx.post(f"{accounts_hall.url}/api/guest").json()
    secret = tmp_path / "token"
    secret.write_text(made["token"] + "\n")
    bot = [*CARDHALL, "bot", "--server", accounts_hall.url, "--room", "ddz3-bots",
           "--games", "1"]
    out = subprocess.run([*bot, "--token-file", str(secret)], capture_output=True, text=True,
                         timeout=120, check=False, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.startswith(made["player"]["name"])


async def test_logout_on_one_process_closes_the_socket_on_another(
        tmp_path: Path, pg_server: PostgresServer, redis_server: RedisServer) -> None:
    """Two processes over Redis: the socket is on p1, the logout (then a password change)
    reaches p0; p1 closes the socket all the same."""
    async with cluster(tmp_path, pg_server, redis_server) as (p0, p1):
        a = await _registered(p0.url, "roamer")
        b = await _again(p0.url, "roamer")
        c = await _again(p0.url, "roamer")
        try:
            on_p1 = HallClient(p1.url, token=b.token, timeout=20)
            await on_p1.connect()
            await b.post("/api/logout")  # b's HTTP goes to p0
            gone = await on_p1.expect("disconnected")
            assert (gone["code"], gone["reason"]) == (4401, "logged out")
            await on_p1.close()
            on_p1 = HallClient(p1.url, token=c.token, timeout=20)
            await on_p1.connect()
            await a.post("/api/password", {"old": "secret-1", "new": "secret-2"})
            gone = await on_p1.expect("disconnected")
            assert (gone["code"], gone["reason"]) == (4401, "the password was changed")
            await on_p1.close()
        finally:
            for client in (a, b, c):
                await client.close()
