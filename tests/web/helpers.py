"""Steps the browser tests share: enter as a guest, quick-match, take turns through the UI.

Every step waits for something the page shows (a selector, the table's ``data-seq``
changing), never for a fixed time.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from playwright.sync_api import Page, expect

from cardhall.client.hall import rebuild

TURN_MS = 30_000
#: Where a card of the fanned hand is clicked: its left strip, which the next card
#: does not cover (a 38-card hand overlaps past the middle of each card).
STRIP = {"x": 6, "y": 24}


class Received:
    """The page's WebSocket frames as the messages it acts on: the browser client opts
    into deltas (web/deltas.js), so each ``delta`` is rebuilt here, as the page does, into
    the ``state`` it stands for (``cardhall.client.hall.rebuild``: the library's reducer,
    the hash checked); a delta that does not rebuild stays as it came."""

    def __init__(self) -> None:
        self.last: dict[str, dict[str, Any]] = {}

    def __call__(self, frame: str | bytes) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(frame)
        if msg.get("type") == "delta":
            msg = rebuild(self.last.get(msg["table"]), msg) or msg
        if msg.get("type") == "state":
            self.last[msg["table"]] = msg
        return msg


def open_lobby(page: Page) -> None:
    page.goto("/")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)


def run(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine to its end on its own loop, off Playwright's thread (whose own
    loop is running: a test cannot ``asyncio.run`` there)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def login(page: Page, name: str, password: str) -> None:
    """Log in through the login form; returns once the lobby shows the player."""
    open_lobby(page)
    page.goto("/#/login")
    page.get_by_label("用户名").fill(name)
    page.get_by_label("密码").fill(password)
    page.get_by_role("button", name="登录", exact=True).click()
    expect(page.locator("#who")).to_contain_text(name)
    expect(page.locator("#app[data-screen='lobby']")).to_have_count(1)


def enter_as_guest(page: Page) -> None:
    """One click: the guest button, then the lobby with rooms and quick-match buttons."""
    open_lobby(page)
    page.get_by_role("button", name="游客进入").click()
    expect(page.locator("#rooms[data-loaded='1'] .room button.primary").first).to_be_visible()


def quick_match(page: Page, room: str) -> None:
    page.locator(f".room[data-room='{room}'] button.primary").click()
    expect(page.locator(".table .hand, .table .invite").first).to_be_attached(timeout=TURN_MS)


def api(page: Page, path: str) -> Any:
    """GET an API path with the page's own session token."""
    return page.evaluate("""async (path) => {
        const r = await fetch(path, {headers: {Authorization:
            `Bearer ${localStorage.getItem("cardhall.token")}`}});
        return r.json();
    }""", path)


def seq(page: Page) -> str:
    return page.locator(".table").get_attribute("data-seq") or ""


def wait_turn(page: Page) -> str:
    """Wait until this seat may act or the game is settled: "turn" or "settled".

    An enabled button, not any: the controls stay drawn, disabled, while an answer is on
    its way, and in a window where several seats answer at once a state for another
    seat's answer can come first."""
    page.wait_for_selector(".settle, .controls button:enabled", timeout=TURN_MS * 3)
    return "settled" if page.locator(".settle").count() else "turn"


def take_turn(page: Page) -> str:
    """Act once through the UI, as a player would; returns what was done.

    Leading: click the smallest card (a single is always a play; 找朋友: 提示 when it does
    not follow suit) and 出牌. Following: click a card, then 提示, then 出牌 if it found a
    play, else 不出.
    Burying: click as many cards as asked.
    A choice made on drawn cards (web/picks.js: 斗帝主's kitty, 找朋友's friend call,
    保皇's guard call): the first card if the confirm button still waits for one, then it.
    A set-up phase: its first labelled button.
    """
    before = seq(page)
    controls = page.locator(".controls")
    done = ""
    if controls.locator("button:enabled").count() == 0:
        return ""  # the turn went by meanwhile (a window closed): nothing to do
    if controls.locator("#play").count():
        play = controls.locator("#play")
        if controls.locator("#pass").count() == 0:
            page.locator(".hand .card").last.click()
            done = "card"
            if play.get_attribute("data-legal") != "1":  # 找朋友: it may not follow suit
                page.keyboard.press("Escape")
                controls.locator("#hint").click()
                done = "hint"
        else:  # a card by hand first, then 提示 (which replaces the selection)
            card = page.locator(".hand .card").last
            card.click()
            expect(card).to_have_attribute("aria-pressed", "true")
            controls.locator("#hint").click()
            done = "hint"
        if play.is_enabled() and play.get_attribute("data-legal") == "1":
            play.click()
        else:
            controls.locator("#pass").click()
            done += " pass"
    elif controls.locator("#pick").count():
        text = controls.locator(".reason").inner_text()
        need = int(next(w for w in text.replace("（", " ").split() if w.isdigit()))
        cards = page.locator(".hand .card")
        for i in range(need):  # on its visible strip: the next card covers the rest
            cards.nth(i).click(position=STRIP)
        controls.locator("#pick").click()
        done = "pick"
    elif controls.locator(".picks").count():
        confirm = controls.locator(".picks button.confirm")
        if not confirm.is_enabled():
            controls.locator(".picks .pick-card").first.click()
        done = confirm.get_attribute("data-action") or "?"
        confirm.click()
    elif controls.locator("button.act:enabled").count():
        button = controls.locator("button.act:enabled").first
        done = button.get_attribute("data-action") or "?"
        button.click()
    else:
        return ""
    page.wait_for_function(
        "old => { const t = document.querySelector('.table');"
        " return document.querySelector('.settle') || (t && t.dataset.seq !== old); }",
        arg=before, timeout=TURN_MS)
    return done


def play_until(page: Page, stop: Any, limit: int = 400) -> list[str]:
    """Take turns until stop(page) holds or the game is settled; returns the actions."""
    done: list[str] = []
    for _ in range(limit):
        if stop(page):
            return done
        if wait_turn(page) == "settled":
            return done
        if stop(page):
            return done
        done.append(take_turn(page))
    raise AssertionError(f"no end after {limit} turns: {done[-20:]}")
