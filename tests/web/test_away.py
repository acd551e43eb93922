"""A returning player is told what happened while he was away (platform ruling 13).

A guest at a bot table leaves the page (its WebSocket closes: the hall puts his seat on
托管 and plays on); an admin watching the table over a real WebSocket sees 托管 take his
seat's turns; he comes back and the page shows, where he is, how many turns 托管 played
for him (in Chinese, then in English) and, when the game ended meanwhile, his points and
beans and a way to the settlement. The count is checked against the game's own log
(its replay once it is over), not against what the page was sent.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect
from websockets.sync.client import ClientConnection, connect

from tests.server.conftest import ADMIN_NAME, ADMIN_PASSWORD, HallProcess
from tests.web.conftest import PageMaker, axe_check, shot
from tests.web.helpers import Received, api, enter_as_guest, quick_match

DESKTOP_1366: dict[str, Any] = {"viewport": {"width": 1366, "height": 768}}
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                         "has_touch": True, "device_scale_factor": 2}
KINDS = {"desktop": DESKTOP_1366, "phone": PHONE}
OWN = re.compile(r"^(@\d+ )?(auto on|auto off|leave( forced)?)$")


class Watcher:
    """An admin spectating a table (seat −1: no hidden card) over a real WebSocket."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.states: list[dict[str, Any]] = []

    def until(self, done: Any, timeout: float = 60) -> dict[str, Any]:
        """Read messages until ``done(message)``; the states are kept in order."""
        while True:
            msg = json.loads(self.ws.recv(timeout=timeout))
            if msg["type"] == "state":
                self.states.append(msg)
            if done(msg):
                return msg

    def actions_on_auto(self, seat: int) -> int:
        """How many actions the table took since ``seat`` went on 托管 (a spectator is
        not told who is to act; the game's log, read later, says whose they were)."""
        on = [s["seq"] for s in self.states if s["view"] and s["view"]["auto"][seat]]
        return self.states[-1]["seq"] - on[0] if on else 0



@contextmanager
def watching(hall: HallProcess, table: str) -> Iterator[Watcher]:
    """The admin logs in and watches ``table`` until the block ends."""
    login = httpx.post(f"{hall.url}/api/login", timeout=20,
                       json={"name": ADMIN_NAME, "password": ADMIN_PASSWORD})
    login.raise_for_status()
    with connect(hall.url.replace("http", "ws", 1) + "/ws") as ws:
        ws.send(json.dumps({"type": "hello", "token": login.json()["token"]}))
        ws.send(json.dumps({"type": "watch", "table": table}))
        yield Watcher(ws)


def received(page: Page) -> list[dict[str, Any]]:
    """Every message the page's WebSockets receive from now on (over reloads too)."""
    got: list[dict[str, Any]] = []
    read = Received()  # deltas rebuilt into their states, as the page does
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: got.append(read(f))))
    return got


def turns_in_log(page: Page, game: str, seat: int, upto: int) -> int:
    """The decisions of ``seat`` in the first ``upto`` actions of the finished ``game``
    (none of them his own: he never acted in these tests), from its replay."""
    frames = api(page, f"/api/games/{game}/replay")["frames"]
    return sum(1 for f in frames[1:upto + 1]
               if f["seat"] == seat and not OWN.match(f["action"]))


def en_turns(n: int) -> str:
    return f"While you were away, autoplay played {n} turn{'' if n == 1 else 's'} for you."


def first(got: list[dict[str, Any]], kind: str, after: int = 0) -> dict[str, Any]:
    return next(m for m in got[after:] if m["type"] == kind)


@pytest.mark.parametrize("kind", KINDS)
def test_back_at_the_table_the_player_is_told_his_autoplayed_turns(
        new_page: PageMaker, web_hall: HallProcess, kind: str) -> None:
    """The game goes on without him (ddz3-paced: bots and 托管 take 0.4 s a decision);
    back at the table, the box says how many turns 托管 played, in both languages."""
    page = new_page(KINDS[kind])
    got = received(page)
    enter_as_guest(page)
    quick_match(page, "ddz3-paced")
    state = first(got, "state")
    table, game, seat = state["table"], state["game"], state["seat"]
    with watching(web_hall, table) as watcher:
        watcher.until(lambda m: m["type"] == "state")
        url = page.url
        page.goto("about:blank")  # the page goes: its WebSocket closes, the seat is on 托管
        # ddz3's seats take turns in order: in 6 actions his comes once at the least
        # (soon after: the game must still run when he is back).
        watcher.until(lambda m: watcher.actions_on_auto(seat) >= 6)
        mark = len(got)
        page.goto(url)
        box = page.locator("#away .away-box")
        expect(box).to_be_visible()
        away = first(got, "away", mark)
        back = first(got, "state", mark)["seq"]  # the table's seq when he came back
        assert away["table"] == table and away["game"] == game and not away["over"]
        assert away["seat"] == seat and away["turns"] >= 1
        expect(page.locator(".table[data-seq]")).to_be_visible()  # at his table
        expect(box).to_have_text(re.compile(f"您断线期间由托管代打了 {away['turns']} 手"))
        shot(page, f"away-table-{kind}-zh")
        page.locator("#lang").click()
        expect(box).to_contain_text(en_turns(away["turns"]))
        expect(box.locator("button.away-ok")).to_have_text("Got it")
        shot(page, f"away-table-{kind}-en")
        box.locator("button.away-ok").click()
        expect(page.locator("#away")).to_be_hidden()
        # He plays on (his seat back from 托管); leaving now is an escape: the game ends,
        # and its log says how many decisions 托管 took for him before he came back.
        expect(page.locator("#auto")).to_have_attribute("aria-pressed", "false")
        page.once("dialog", lambda d: d.accept())
        page.locator("#leave").click()
        watcher.until(lambda m: m["type"] == "settled" and m["game"] == game)
        assert turns_in_log(page, game, seat, back) == away["turns"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_game_that_ended_while_away_is_told_in_the_lobby_with_its_result(
        new_page: PageMaker, web_hall: HallProcess, kind: str) -> None:
    """ddz3-bots: the bots and 托管 answer at once, the game ends while he is away and
    the table dissolves (he was on 托管); back, he is in the lobby, told his result, with
    a link to the settlement."""
    page = new_page(KINDS[kind])
    got = received(page)
    enter_as_guest(page)
    before = api(page, "/api/me")["beans"]
    quick_match(page, "ddz3-bots")
    state = first(got, "state")
    table, game, seat = state["table"], state["game"], state["seat"]
    with watching(web_hall, table) as watcher:
        watcher.until(lambda m: m["type"] == "state")
        url = page.url  # his table's
        page.goto("about:blank")  # the page goes: its WebSocket closes, the seat is on 托管
        settled = watcher.until(lambda m: m["type"] == "settled" and m["game"] == game)
    mark = len(got)
    page.goto(url)  # back where he was: the table is gone, the page goes to the lobby
    box = page.locator("#away .away-box")
    expect(box).to_be_visible()
    away = first(got, "away", mark)
    assert away["over"] and away["settled"] == settled and away["seat"] == seat
    assert page.locator("#app").get_attribute("data-screen") == "lobby"
    beans, points = settled["beans"][str(seat)], settled["points"][str(seat)]
    won = seat in settled["result"]["winners"]
    sign = lambda n: f"+{n}" if n > 0 else str(n)  # noqa: E731
    turns = away["turns"]
    assert turns == turns_in_log(page, game, seat, 10_000) and turns > 0
    expect(box).to_contain_text(f"您断线期间由托管代打了 {turns} 手")
    expect(box).to_contain_text(
        f"您离开期间牌局已结束：{'您赢了' if won else '您输了'}，积分 {sign(points)}，"
        f"欢乐豆 {sign(beans)}。")
    expect(page.locator("#notice")).to_be_hidden()  # the box says it all
    assert api(page, "/api/me")["beans"] == before + beans
    shot(page, f"away-lobby-{kind}-zh")
    axe_check(page, "#away")
    page.locator("#lang").click()
    expect(box).to_contain_text(en_turns(turns))
    expect(box).to_contain_text(
        f"The game ended while you were away: {'you won' if won else 'you lost'}, "
        f"points {sign(points)}, beans {sign(beans)}.")
    shot(page, f"away-lobby-{kind}-en")
    box.locator("a.away-see").click()  # the settlement: the game's replay and result
    expect(page).to_have_url(re.compile(f"#/replay/{game}"))
    expect(page.locator("#away")).to_be_hidden()
