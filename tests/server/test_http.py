"""The HTTP API, admin actions, health and metrics, rate limits: against real servers."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from cardhall.client import HallClient, HttpError
from cardhall.games import VARIANTS
from tests.server.conftest import (
    ADMIN_NAME,
    ADMIN_PASSWORD,
    CARDHALL,
    HallProcess,
    running_hall,
)
from tests.server.play import (
    guests,
    play_out,
    seat,
    vacate,
)


async def test_accounts(hall: HallProcess) -> None:
    async with HallClient(hall.url) as c:
        data = await c.guest()
        assert set(data) == {"token", "player"}
        assert {"id", "name", "beans"} <= set(data["player"])
        me = await c.me()
        assert me["beans"] == data["player"]["beans"] == 10_000
        assert {"points", "title", "record", "golden_eyes"} <= set(me)
        reg = await c.register("Alice7", "s3cret-pw")
        assert reg["player"]["name"] == "Alice7" and reg["player"]["guest"] is False
        with pytest.raises(HttpError) as taken:
            await c.register("alice7", "s3cret-pw")
        assert (taken.value.status, taken.value.code) == (409, "name_taken")
        with pytest.raises(HttpError) as wrong:
            await c.login("Alice7", "not it")
        assert (wrong.value.status, wrong.value.code) == (401, "auth_failed")
        await c.login("Alice7", "s3cret-pw")
        await c.post("/api/logout")
        with pytest.raises(HttpError) as out:
            await c.me()
        assert (out.value.status, out.value.code) == (401, "bad_token")


@pytest.mark.parametrize(("method", "path", "body", "status", "code"), [
    ("GET", "/api/me", None, 401, "not_authenticated"),
    ("POST", "/api/login", "{oops", 400, "malformed"),
    ("POST", "/api/login", "[]", 400, "malformed"),
    ("POST", "/api/login", json.dumps({"name": 5, "password": "x"}), 400, "malformed"),
    ("POST", "/api/register", json.dumps({"name": "x", "password": "long enough"}), 400,
     "bad_name"),
    ("GET", "/api/games/nope", None, 404, "not_found"),
    ("GET", "/api/leaderboard?by=luck", None, 400, "malformed"),
    ("GET", "/api/leaderboard?period=year", None, 400, "malformed"),
    ("GET", "/api/leaderboard?variant=chess", None, 400, "malformed"),
    ("GET", "/api/nothing-here", None, 404, "not_found"),
    ("DELETE", "/api/rooms", None, 405, "method_not_allowed"),
    ("GET", "/api/guest", None, 405, "method_not_allowed"),  # a POST-only route
    ("GET", "/api/puzzles/attempts", None, 405, "method_not_allowed"),
    ("POST", "/api/nothing-here", None, 404, "not_found"),
    ("GET", "/api/admin/tables", None, 401, "not_authenticated"),
])
async def test_errors_are_json(hall: HallProcess, method: str, path: str, body: str | None,
                               status: int, code: str) -> None:
    async with httpx.AsyncClient(base_url=hall.url) as http:
        answer = await http.request(method, path, content=body)
    assert answer.status_code == status
    assert answer.json()["error"] == code
    assert answer.json()["message"]


async def test_rooms_variants_leaderboard(hall: HallProcess) -> None:
    async with HallClient(hall.url) as c:
        rooms = await c.get("/api/rooms")
        assert {r["id"] for r in rooms} >= {"ddz3-humans", "ddz3-bots", "ddz3-timeout"}
        room = next(r for r in rooms if r["id"] == "ddz3-bots")
        for key in ("id", "variant", "options", "N", "A", "min_beans", "waiting", "tables",
                    "name", "name_en", "M0", "turn_seconds", "bot_wait_seconds",
                    "bot_seconds"):
            assert key in room
        assert room["bot_wait_seconds"] == 0
        for r in rooms:  # a secret option (a given deal, 保皇's guard card) is never listed
            assert not set(r["options"]) & set(VARIANTS[r["variant"]].secret_options)
        variants = await c.get("/api/variants")
        assert [v["id"] for v in variants] == list(VARIANTS)
        names = await c.get("/api/names")  # the hall's own names in English
        assert names["titles"]["包身工"] == "Bondsman" and names["titles"]["机器人"] == "Bot"
        assert names["bots"]["机器人·甲"] == "Bot A"
        assert names["guest"] == {"zh": "游客", "en": "Guest "}
        for by in ("points", "beans"):
            for period in ("all", "day", "week"):
                board = await c.get("/api/leaderboard", variant="ddz3", by=by, period=period)
                assert board["by"] == by and isinstance(board["rows"], list)
        home = await c.http.get("/")  # the browser client, served by the installed package
        assert home.status_code == 200 and '<script type="module" src="app.js">' in home.text
        app = await c.http.get("/app.js")
        assert app.status_code == 200 and "registerScreen" in app.text
        assert "javascript" in app.headers["content-type"]


async def test_relief_and_golden_eye(hall: HallProcess) -> None:
    async with HallClient(hall.url) as c:
        await c.guest()
        with pytest.raises(HttpError) as rich:
            await c.post("/api/relief")
        assert (rich.value.status, rich.value.code) == (409, "relief_refused")
        bought = await c.post("/api/items/golden-eye", {"count": 2})
        assert bought == {"beans": 8_000, "golden_eyes": 2}
        with pytest.raises(HttpError) as bad:
            await c.post("/api/items/golden-eye", {"count": "2"})
        assert bad.value.code == "malformed"
        assert (await c.me())["beans"] == 8_000


async def test_healthz_and_metrics(hall: HallProcess) -> None:
    async with guests(hall.url, 1) as (c,):
        await c.send_raw("{nope")
        await c.expect("error")
        assert (await c.get("/healthz"))["ok"] is True
        text = (await c.http.get("/metrics", headers=hall.metrics_headers)).text
    for name in ("cardhall_tables", "cardhall_connections ", "cardhall_queue_waiting",
                 "cardhall_send_queue_messages", "cardhall_table_commands_queued",
                 "cardhall_action_seconds_bucket", "cardhall_settlements_total",
                 'cardhall_errors_total{code="malformed"}'):
        assert name in text, name


async def test_healthz_answers_while_another_connection_holds_the_write_lock(
        hall: HallProcess) -> None:
    # A health probe reads: a long write elsewhere (a settlement, an operator's
    # transaction) does not make the hall look down, and the probe holds up no writer.
    lock = sqlite3.connect(hall.db_url.removeprefix("sqlite:///"), isolation_level=None)
    lock.execute("BEGIN IMMEDIATE")
    try:
        async with httpx.AsyncClient(base_url=hall.url, timeout=5.0) as http:
            answer = await http.get("/healthz")
        assert answer.status_code == 200 and answer.json()["ok"] is True
    finally:
        lock.rollback()
        lock.close()


async def _admin(hall: HallProcess) -> HallClient:
    admin = HallClient(hall.url)
    await admin.login(ADMIN_NAME, ADMIN_PASSWORD)
    return admin


async def test_admin_needs_an_admin(hall: HallProcess) -> None:
    async with HallClient(hall.url) as c:
        await c.guest()
        with pytest.raises(HttpError) as no:
            await c.get("/api/admin/tables")
        assert (no.value.status, no.value.code) == (403, "forbidden")


async def test_admin_kick_and_watch(hall: HallProcess) -> None:
    admin = await _admin(hall)
    try:
        async with guests(hall.url, 3) as clients:
            table, firsts = await seat(clients, "ddz3-humans")
            assert table in [t["id"] for t in await admin.get("/api/admin/tables")]
            await admin.connect()
            await admin.watch(table)
            watched = await admin.expect("state", table=table)
            assert watched["seat"] == -1 and watched["view"]["hand"] == []
            victim = clients[0]
            victim.reconnect = False
            done = await admin.post("/api/admin/kick", {"player": victim.player["id"]})  # type: ignore[index]
            assert done["tables"] == 1
            assert (await victim.expect("left", table=table))["reason"] == "kicked"
            assert (await victim.expect("disconnected"))["code"] == 4003
            settled = await clients[1].expect("settled", table=table)
            assert settled["result"]["ended"] == "escape"
            assert settled["beans"][str(firsts[0]["seat"])] < 0
            await vacate(clients[1:], table, "ddz3-humans")
    finally:
        await admin.close()


async def test_admin_ban(hall: HallProcess) -> None:
    admin = await _admin(hall)
    try:
        async with HallClient(hall.url, reconnect=False) as c:
            data = await c.register("Banme", "banned-pw")
            await c.connect()
            await admin.post("/api/admin/ban", {"player": data["player"]["id"], "banned": True})
            assert (await c.expect("disconnected"))["code"] == 4003
            with pytest.raises(HttpError) as gone:
                await c.me()
            assert gone.value.code == "bad_token"
            with pytest.raises(HttpError) as banned:
                await c.login("Banme", "banned-pw")
            assert (banned.value.status, banned.value.code) == (403, "banned")
            await admin.post("/api/admin/ban", {"player": data["player"]["id"],
                                                "banned": False})
            await c.login("Banme", "banned-pw")
            with pytest.raises(HttpError) as nobody:
                await admin.post("/api/admin/ban", {"player": "nobody", "banned": True})
            assert nobody.value.status == 404
    finally:
        await admin.close()


async def test_bots_fill_a_table_and_the_game_settles(hall: HallProcess) -> None:
    async with guests(hall.url, 1) as (c,):
        table, (first,) = await seat([c], "ddz3-bots")
        assert sum(p["bot"] for p in first["players"]) == 2
        before = (await c.me())["beans"]
        played = await play_out([c], table, seed=5)
        assert (await c.me())["beans"] == before + played.settled["beans"][str(first["seat"])]
        await vacate([c], table, "ddz3-bots")


async def test_timeout_puts_the_player_on_auto_and_the_game_goes_on(hall: HallProcess) -> None:
    async with guests(hall.url, 3) as clients:
        table, _ = await seat(clients, "ddz3-timeout")
        idle = 0
        idle_seat = clients[idle].states[table]["seat"]
        played = await play_out(clients, table, seed=9, idle=frozenset({idle}))
        autos = [st for _, st in played.states if st["view"]["auto"][idle_seat]]
        assert autos, "the idle player was never put on 托管"
        assert played.settled["result"]["auto"][idle_seat] is True
        await vacate(clients, table, "ddz3-timeout")


def test_cardhall_bot_plays_remote_games(hall: HallProcess) -> None:
    out = subprocess.run([*CARDHALL, "bot", "--server", hall.url, "--bot", "planning",
                          "--room", "ddz3-bots", "--games", "2"],
                         capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "game 2/2" in out.stdout


@pytest.fixture(scope="module")
def strict_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    yield from running_hall(tmp_path_factory.mktemp("strict"), limits=(
        "guests_per_minute = 3\nlogins_per_minute = 2\nmessages_per_second = 5\n"))


async def test_guest_and_login_rate_limits(strict_hall: HallProcess) -> None:
    async with httpx.AsyncClient(base_url=strict_hall.url) as http:
        codes = [(await http.post("/api/guest")).status_code for _ in range(4)]
        assert codes == [201, 201, 201, 429]
        limited = await http.post("/api/guest")
        assert limited.json()["error"] == "rate_limited"
        body = {"name": ADMIN_NAME, "password": "wrong password"}
        codes = [(await http.post("/api/login", json=body)).status_code for _ in range(3)]
        assert codes == [401, 401, 429]


@pytest.fixture(scope="module")
def slow_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    yield from running_hall(tmp_path_factory.mktemp("slow"), limits="messages_per_second = 5\n")


async def test_message_rate_limit_and_abuse_close(slow_hall: HallProcess) -> None:
    async with guests(slow_hall.url, 1) as (c,):
        for _ in range(10):
            await c.ping()
        answers = [await c.recv() for _ in range(10)]
        assert [a["type"] for a in answers].count("pong") <= 6
        assert {"code": "rate_limited"}.items() <= next(
            a for a in answers if a["type"] == "error").items()
        # The bucket's refill is tested on a clock the test moves (test_bucket.py).
        c.reconnect = False
        for _ in range(60):
            await c.send_raw("garbage")
        gone = await c.expect("disconnected", timeout=20)
        assert gone["code"] == 1008


@pytest.mark.slow
def test_admin_create_promotes_with_the_right_password(tmp_path: Path) -> None:
    """The password comes on stdin, from a file or from the environment, never argv."""
    db = f"sqlite:///{tmp_path / 'a.db'}"
    create = [*CARDHALL, "admin", "create", "Keeper", "--db", db]
    made = subprocess.run(create, input="pw-123456\n", capture_output=True, text=True,
                          timeout=60, check=False)
    assert made.returncode == 0 and "created" in made.stdout
    secret = tmp_path / "pw"
    secret.write_text("pw-123456\n")
    again = subprocess.run([*create, "--password-file", str(secret)], capture_output=True,
                           text=True, timeout=60, check=False, stdin=subprocess.DEVNULL)
    assert again.returncode == 0 and "promoted" in again.stdout
    wrong = subprocess.run(create, capture_output=True, text=True, timeout=60, check=False,
                           stdin=subprocess.DEVNULL,
                           env={**os.environ, "CARDHALL_PASSWORD": "other-pw"})
    assert wrong.returncode != 0 and "wrong name or password" in wrong.stderr


@pytest.mark.slow
@pytest.mark.parametrize("argv", [
    ["admin", "create", "Keeper", "pw-123456"],
    ["bot", "--server", "http://127.0.0.1:9", "--name", "Keeper", "--password", "pw-123456"],
    ["bot", "--server", "http://127.0.0.1:9", "--token", "tok-123456"],
])
def test_secrets_on_the_command_line_are_refused(tmp_path: Path, argv: list[str]) -> None:
    done = subprocess.run([*CARDHALL, *argv, *(["--db", f"sqlite:///{tmp_path / 'a.db'}"]
                                               if argv[0] == "admin" else [])],
                          capture_output=True, text=True, timeout=60, check=False,
                          stdin=subprocess.DEVNULL)
    assert done.returncode != 0
    assert "visible to every user" in done.stderr and "-file" in done.stderr
    assert not (tmp_path / "a.db").exists()  # refused before anything was done


def test_the_open_line_says_which_split_search_the_bots_run(hall: HallProcess) -> None:
    """An install without a C compiler runs the bots' Python search: the log says so."""
    lines = [json.loads(line) for line in hall.log.read_text().splitlines()
             if line.startswith("{")]
    opened = [line for line in lines if line.get("event") == "open"]
    assert opened and opened[0]["bot_search"] == "c"
