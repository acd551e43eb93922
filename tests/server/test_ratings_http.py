"""Skill ratings over a real server: a scored game moves them once and says so in
``settled``; ``/api/ratings`` shows them with their history; the rating board; a room's
own bot rated as itself, and the replay saying so."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from cardhall.client import HttpError
from tests.server.conftest import HallProcess, running_hall
from tests.server.play import guests, play_out, seat, vacate

#: A room the search bot fills: 二人, so its one seat is always on a side of its own.
SEARCH_ROOM = ('[[rooms]]\nid = "ddz2-search"\nname = "ddz2 search"\nvariant = "ddz2"\n'
               'N = 10\nA = 5\nmin_beans = 0\nturn_seconds = 30\nbot_wait_seconds = 0\n'
               'bot = "search"\n')


@pytest.fixture(scope="module")
def search_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    yield from running_hall(tmp_path_factory.mktemp("search"), rooms=SEARCH_ROOM,
                            only_rooms=True)


async def test_a_game_against_bots_moves_the_ratings_once(hall: HallProcess) -> None:
    async with guests(hall.url, 1) as (c,):
        table, (first,) = await seat([c], "ddz3-bots")
        me = str(first["seat"])
        bots_before = (await c.get("/api/ratings/bot:planning"))["ratings"]
        played = await play_out([c], table, seed=5)
        changes = played.settled["ratings"]
        # The bot is one identity: rated when both its seats were farmers, not when it
        # was the landlord and a farmer too (it played itself).
        lord = played.settled["result"]["detail"]["landlord"]
        bot_rated = lord == int(me)
        assert set(changes) == ({"0", "1", "2"} if bot_rated else {me})
        mine = changes[me]
        assert mine["before"] == 1500 and mine["provisional"] and mine["games"] == 1
        won = int(me) in played.settled["result"]["winners"]
        assert (mine["after"] > mine["before"]) is won
        ratings = await c.get("/api/ratings")
        assert ratings["id"] == (await c.me())["id"]
        assert set(ratings["ratings"]) == {"all", "ddz3"}
        ddz3 = ratings["ratings"]["ddz3"]
        assert ddz3["games"] == 1 and ddz3["rating"] == mine["after"]
        assert [h["rating"] for h in ddz3["history"]] == [mine["after"]]
        assert ddz3["history"][0]["game"] == played.settled["game"]
        again = await c.get(f"/api/ratings/{ratings['id']}")  # public, by id
        assert again["ratings"] == ratings["ratings"]
        bots = (await c.get("/api/ratings/bot:planning"))["ratings"].get("ddz3", {"games": 0})
        assert bots["games"] == bots_before.get("ddz3", {"games": 0})["games"] + bot_rated
        board = await c.get("/api/leaderboard", variant="ddz3", by="rating")
        assert ratings["id"] not in [r["id"] for r in board["rows"]]  # still provisional
        with pytest.raises(HttpError) as day:
            await c.get("/api/leaderboard", by="rating", period="day")
        assert day.value.code == "malformed"
        with pytest.raises(HttpError) as nobody:
            await c.get("/api/ratings/nobody-here")
        assert nobody.value.status == 404
        await vacate([c], table, "ddz3-bots")


async def test_own_ratings_need_a_login(hall: HallProcess) -> None:
    async with httpx.AsyncClient(base_url=hall.url) as http:
        answer = await http.get("/api/ratings")
    assert answer.status_code == 401


async def test_a_room_of_the_search_bot_rates_it_and_not_planning(
        search_hall: HallProcess) -> None:
    async with guests(search_hall.url, 1, timeout=60) as (c,):
        rooms = await c.get("/api/rooms")
        assert [(r["id"], r["bot"]) for r in rooms] == [("ddz2-search", "search")]
        table, (first,) = await seat([c], "ddz2-search")
        me, bot = str(first["seat"]), str(1 - first["seat"])
        played = await play_out([c], table, seed=3, timeout=120)
        changes = played.settled["ratings"]
        assert set(changes) == {me, bot}
        search = (await c.get("/api/ratings/bot:search"))["ratings"]
        assert search["ddz2"]["games"] == 1
        assert search["ddz2"]["history"][0]["rating"] == changes[bot]["after"]
        assert (await c.get("/api/ratings/bot:planning"))["ratings"] == {}
        # The replay reads the game's changes back, the bot's seat's too.
        replay = await c.get(f"/api/games/{played.settled['game']}/replay")
        assert replay["ratings"] == changes and replay["seats"][int(bot)]["bot"]
        await vacate([c], table, "ddz2-search")
