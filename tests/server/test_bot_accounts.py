"""Bot accounts through a real hall (issue 23; docs/bots.md): made, listed, a new token
(the old one's socket closed), retired; marked as bots in the welcome, the seats, the
profile and the boards; refused (``bots_not_allowed``) by a room that takes no bots;
no friends; and a bot written in JavaScript (examples/bots/minimal_bot.mjs, run by
Node.js) plays a game to its end."""

from __future__ import annotations

import asyncio
import secrets
import shutil
import subprocess
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from cardhall.client.hall import ClientError, HallClient, HttpError
from cardhall.server.connection import CLOSE_SESSION_ENDED
from tests.server.conftest import (
    ADMIN_NAME,
    ADMIN_PASSWORD,
    CARDHALL,
    HallProcess,
    running_hall,
)

ROOT = Path(__file__).parents[2]
EXAMPLE = ROOT / "examples" / "bots" / "minimal_bot.mjs"
#: The bot room as the default config has it, but bots filling at once and answering at
#: once.
ROOMS = """
[[rooms]]
id = "ddz3-bots"
name = "三人斗地主 机器人场"
variant = "ddz3"
N = 10
A = 5
min_beans = 0
bot_wait_seconds = 0
bot_accounts = true
"""
#: Listed first, and bots fill it: ``cardhall bot`` must pass it over for a bot account.
HUMANS = """
[[rooms]]
id = "ddz3-humans"
variant = "ddz3"
N = 10
A = 5
min_beans = 0
bot_wait_seconds = 0
"""
LIMITS = ("guests_per_minute = 1000\nlogins_per_minute = 1000\nmessages_per_second = 200\n"
          "bot_changes_per_minute = 6\n")


@pytest.fixture(scope="module")
def bot_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    yield from running_hall(tmp_path_factory.mktemp("botacct"), rooms=HUMANS + ROOMS,
                            limits=LIMITS, only_rooms=True,
                            extra="[accounts]\nbots_per_owner = 2\n")


@asynccontextmanager
async def owner(url: str) -> AsyncIterator[HallClient]:
    c = HallClient(url, timeout=20)
    try:
        await c.register(f"own{secrets.token_hex(3)}", "secret password")
        yield c
    finally:
        await c.close()


def _name() -> str:
    return f"rb{secrets.token_hex(3)}"


async def refused(call: object, status: int, code: str) -> None:
    with pytest.raises(HttpError) as caught:
        await call  # type: ignore[misc]
    assert (caught.value.status, caught.value.code) == (status, code), caught.value


async def test_make_list_limit_and_who_may(bot_hall: HallProcess) -> None:
    async with owner(bot_hall.url) as me:
        name = _name()
        made = await me.post("/api/bots", {"name": name})
        assert made["name"] == name and made["bot"] is True and len(made["token"]) > 20
        listed = await me.get("/api/bots")
        assert listed["most"] == 2
        assert [(b["id"], b["name"], b["bot"]) for b in listed["bots"]] == [
            (made["id"], name, True)]
        assert "token" not in listed["bots"][0]
        await refused(me.post("/api/bots", {"name": name.upper()}), 409, "name_taken")
        await refused(me.post("/api/bots", {"name": "bot_x"}), 400, "bad_name")
        await me.post("/api/bots", {"name": _name()})
        await refused(me.post("/api/bots", {"name": _name()}), 409, "too_many_bots")
        async with HallClient(bot_hall.url, token=made["token"]) as bot:
            await refused(bot.post("/api/bots", {"name": _name()}), 403, "forbidden")
            await refused(bot.get("/api/friends"), 403, "forbidden")
    async with HallClient(bot_hall.url) as guest:
        await guest.guest()
        await refused(guest.post("/api/bots", {"name": _name()}), 403, "forbidden")


async def test_bot_changes_are_rate_limited_per_owner(bot_hall: HallProcess) -> None:
    async with owner(bot_hall.url) as me:
        name = _name()
        await me.post("/api/bots", {"name": name})
        for _ in range(5):  # 6 changes a minute: the making and five new tokens
            await me.post(f"/api/bots/{name}/token")
        await refused(me.post(f"/api/bots/{name}/token"), 429, "rate_limited")


async def test_a_new_token_closes_the_old_ones_socket(bot_hall: HallProcess) -> None:
    async with owner(bot_hall.url) as me:
        name = _name()
        made = await me.post("/api/bots", {"name": name})
        bot = HallClient(bot_hall.url, token=made["token"], timeout=20)
        try:
            welcome = await bot.connect()
            assert welcome["player"]["bot"] is True
            assert welcome["player"]["title"] == "机器人" and not welcome["player"]["guest"]
            again = await me.post(f"/api/bots/{name}/token")
            assert again["id"] == made["id"] and again["token"] != made["token"]
            assert again["ended"] == 1
            gone = await bot.expect("disconnected")
            assert (gone["code"], gone["reason"], gone["reconnecting"]) == (
                CLOSE_SESSION_ENDED, "this bot's token was replaced", False)
            async with HallClient(bot_hall.url, token=made["token"], timeout=20) as old:
                with pytest.raises(ClientError, match="bad_token"):
                    await old.connect()
            async with HallClient(bot_hall.url, token=again["token"], timeout=20) as fresh:
                await fresh.connect()
        finally:
            await bot.close()


async def test_retired_bots_log_in_no_more(bot_hall: HallProcess) -> None:
    async with owner(bot_hall.url) as me:
        name = _name()
        made = await me.post("/api/bots", {"name": name})
        bot = HallClient(bot_hall.url, token=made["token"], timeout=20)
        try:
            await bot.connect()
            done = await me.request("DELETE", f"/api/bots/{name}")
            assert done == {"id": made["id"], "name": name, "retired": True}
            gone = await bot.expect("disconnected")
            assert (gone["code"], gone["reason"]) == (CLOSE_SESSION_ENDED,
                                                      "this bot was retired")
            assert (await me.get("/api/bots"))["bots"] == []
            await refused(me.request("DELETE", f"/api/bots/{name}"), 404, "not_found")
            profile = await me.get(f"/api/players/{made['id']}")  # its history stays
            assert profile["name"] == name and profile["bot"] is True
        finally:
            await bot.close()


async def test_a_room_without_bots_refuses_a_bot_and_the_bot_room_marks_it(
        bot_hall: HallProcess) -> None:
    async with owner(bot_hall.url) as me:
        made = await me.post("/api/bots", {"name": _name()})
        async with HallClient(bot_hall.url, token=made["token"], timeout=20) as bot:
            await bot.connect()
            await bot.join("ddz3-humans")
            error = await bot.expect("error")
            assert error["code"] == "bots_not_allowed"
            rooms = {r["id"]: r["bot_accounts"] for r in await bot.get("/api/rooms")}
            assert rooms == {"ddz3-humans": False, "ddz3-bots": True}
            await bot.join("ddz3-bots")
            state = await bot.expect("state")
            seats = state["players"]
            mine = seats[state["seat"]]
            assert (mine["id"], mine["bot"], mine["title"]) == (made["id"], True, "机器人")
            others = [p for p in seats if p["seat"] != state["seat"]]
            assert all(p["bot"] and p["id"] is None for p in others)  # the hall's bots
            await bot.leave(table=state["table"])
            await bot.ping()
            await bot.expect("pong")
        profile = await me.get(f"/api/players/{made['id']}")
        assert me.player is not None
        assert profile["owner"] == {"id": me.player["id"], "name": me.player["name"]}
        assert profile["bot"] is True and profile["title"] == "机器人"
        assert "beans" not in profile
        mine = await me.get(f"/api/players/{me.player['id']}")
        assert (mine["bot"], mine["owner"]) == (False, None)


async def test_a_bot_enters_no_event(bot_hall: HallProcess) -> None:
    """An attack trial: a bot account entered an event (比赛场), a contest of people with
    prizes in beans, paying its fee; its owner's other accounts could enter beside it.
    ``enter`` is refused (``bots_not_allowed``) and nothing is paid."""
    async with owner(bot_hall.url) as me:
        made = await me.post("/api/bots", {"name": _name()})
        kind = (await me.get("/api/events"))[0]
        async with HallClient(bot_hall.url, token=made["token"], timeout=20) as bot:
            await bot.connect()
            await bot.send({"type": "enter", "kind": kind["kind"]})
            error = await bot.expect("error")
            assert error["code"] == "bots_not_allowed"
            assert (await bot.get("/api/me"))["beans"] == 10_000  # the starting beans: no fee
            events = {e["kind"]: e for e in await bot.get("/api/events")}
            assert events[kind["kind"]]["entered"] == kind["entered"]


async def test_a_javascript_bot_plays_a_game_to_its_end(bot_hall: HallProcess) -> None:
    """examples/bots/minimal_bot.mjs, on Node.js 20 (no packages): a bot account connects
    with its token, joins the bot room, plays legal actions only until its game is
    settled; the board then ranks it marked as a bot. Node missing is a failure."""
    node = shutil.which("node")
    assert node is not None, "node (Node.js 20) is needed for the JavaScript bot example"
    async with owner(bot_hall.url) as me:
        made = await me.post("/api/bots", {"name": _name()})
    run = await asyncio.to_thread(
        subprocess.run, [node, "--experimental-websocket", str(EXAMPLE), bot_hall.url,
                         made["token"], "ddz3-bots", "1"],
        check=False, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "(bot: true)" in run.stdout and " over: " in run.stdout
    assert "refused" not in run.stderr, run.stderr  # never an illegal or stale action
    async with HallClient(bot_hall.url) as looker:
        rows = (await looker.get("/api/leaderboard", variant="ddz3", period="day"))["rows"]
    mine = {r["id"]: r for r in rows}[made["id"]]
    assert (mine["bot"], mine["title"]) == (True, "机器人")
    async with HallClient(bot_hall.url, token=made["token"]) as bot:  # its replay marks it
        [game] = await bot.get("/api/history")
        seats = (await bot.get(f"/api/games/{game['game']}/replay"))["seats"]
    assert [(s["id"], s["bot"]) for s in seats if s["id"]] == [(made["id"], True)]
    assert all(s["bot"] for s in seats)


@pytest.mark.slow  # two cardhall processes start (about 4 s)
async def test_cardhall_bot_account_and_bot_play_with_the_token(bot_hall: HallProcess,
                                                                tmp_path: Path) -> None:
    """``cardhall bot-account create`` prints the token (the owner's password from stdin);
    ``cardhall bot --token-file`` plays with it, in the one room that takes bot accounts
    (chosen by itself: the first room bots fill, ddz3-humans, would refuse it)."""
    async with owner(bot_hall.url) as me:
        assert me.player is not None
        name = _name()
        made = await asyncio.to_thread(
            subprocess.run, [*CARDHALL, "bot-account", "create", name, "--server",
                             bot_hall.url, "--name", me.player["name"], "--password-file", "-"],
            input="secret password\n", capture_output=True, text=True, timeout=60, check=True)
        token = made.stdout.strip()
        assert [b["name"] for b in (await me.get("/api/bots"))["bots"]] == [name]
    (tmp_path / "bot.token").write_text(token + "\n")
    run = await asyncio.to_thread(
        subprocess.run, [*CARDHALL, "bot", "--server", bot_hall.url, "--bot", "planning",
                         "--token-file", str(tmp_path / "bot.token"), "--games", "1"],
        capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"{name} (planning) joins ddz3-bots" in run.stdout
    assert "game 1/1" in run.stdout


async def test_banning_the_owner_closes_his_bots(bot_hall: HallProcess) -> None:
    async with owner(bot_hall.url) as me, HallClient(bot_hall.url) as admin:
        assert me.player is not None
        made = await me.post("/api/bots", {"name": _name()})
        await admin.login(ADMIN_NAME, ADMIN_PASSWORD)
        async with HallClient(bot_hall.url, token=made["token"], timeout=20) as bot:
            await bot.connect()
            await admin.post("/api/admin/ban", {"player": me.player["id"], "banned": True})
            gone = await bot.expect("disconnected")
            assert (gone["code"], gone["reconnecting"]) == (4003, False)
            with pytest.raises(ClientError, match="bad_token"):
                await bot.connect()
