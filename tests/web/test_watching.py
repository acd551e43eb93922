"""观战 in the browser: one player plays at a table, another (his own browser context)
finds it in the lobby's list of the room's tables and watches it: the public table, no
hand, no action button, a clear "观战中" mark and a way to stop; the seat sees
"1 人观战". Screenshots: build/screenshots/watch-{desktop,phone}.png,
watch-lobby-{desktop,phone}.png and watch-seat-desktop.png."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import DESKTOP, PHONE, PageMaker, shot
from tests.web.helpers import enter_as_guest, quick_match, take_turn

ROOM = "ddz3-bots"


def watch_from_lobby(page: Page, table: str, kind: str) -> None:
    enter_as_guest(page)
    page.locator(f".room[data-room='{ROOM}'] button.watch-rooms").click()
    row = page.locator(f".watch-list li[data-table='{table}']")
    row.scroll_into_view_if_needed()
    shot(page, f"watch-lobby-{kind}")
    page.locator(f".watch-list li[data-table='{table}'] button.watch").click()
    expect(page).to_have_url(re.compile(f"#/table/{table}$"))
    expect(page.locator(".table .watching")).to_have_text("观战中")


def test_a_player_watches_a_table_from_the_lobby(new_page: PageMaker) -> None:
    player = new_page(DESKTOP)
    enter_as_guest(player)
    quick_match(player, ROOM)
    take_turn(player)
    table = player.url.rsplit("/", 1)[1]

    watcher = new_page(DESKTOP)
    watch_from_lobby(watcher, table, "desktop")
    expect(watcher.locator(".table .seat")).to_have_count(3)
    expect(watcher.locator(".table .hand .card")).to_have_count(0)
    expect(watcher.locator(".table .controls button")).to_have_count(0)
    expect(watcher.locator("#auto")).to_have_count(0)
    expect(player.locator(".table .watchers")).to_have_text("1 人观战")
    expect(watcher.locator(".table .watchers")).to_have_text("1 人观战")
    shot(watcher, "watch-desktop")
    shot(player, "watch-seat-desktop")

    phone = new_page(PHONE)
    watch_from_lobby(phone, table, "phone")
    expect(player.locator(".table .watchers")).to_have_text("2 人观战")
    shot(phone, "watch-phone")

    watcher.locator("#leave").click()  # 停止观战: back to the lobby, the seat sees one
    expect(watcher.locator("#rooms")).to_be_visible()
    expect(player.locator(".table .watchers")).to_have_text("1 人观战")
    expect(player.locator(".table .hand .card").first).to_be_visible()  # he plays on


def test_a_private_table_is_opened_closed_to_watchers_when_the_owner_says_so(
        new_page: PageMaker) -> None:
    """The lobby's "好友房允许观战" box: unticked, the private table is asked for with
    ``spectators: false`` (the hall then refuses watchers: tests/server/test_watching.py),
    and the choice is kept for the next one."""
    owner = new_page(DESKTOP)
    sent: list[str] = []
    owner.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(str(frame))))
    enter_as_guest(owner)
    box = owner.locator("#private-watch")
    expect(box).to_be_checked()  # open to watchers unless the owner says otherwise
    box.uncheck()
    owner.locator(f".room[data-room='{ROOM}'] .acts button").nth(1).click()
    expect(owner).to_have_url(re.compile(r"#/table/"))
    asked = [f for f in sent if '"type":"private"' in f.replace(" ", "")]
    assert len(asked) == 1 and '"spectators":false' in asked[0].replace(" ", "")
    # kept for his next private table (the box is drawn from it)
    assert owner.evaluate("localStorage.getItem('cardhall.privatewatch')") == "0"


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_owner_toggles_spectators_at_his_private_table(new_page: PageMaker,
                                                           size: dict[str, Any]) -> None:
    """The owner's "允许观战" button sends ``spectators`` and shows what the hall says
    (the state's ``spectators``): on the invite screen, and in the table's bar once the
    game runs. Screenshot: build/screenshots/spectators-{desktop,phone}.png."""
    owner = new_page(size)
    sent: list[str] = []
    owner.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(str(frame))))
    enter_as_guest(owner)
    owner.locator(f".room[data-room='{ROOM}'] .acts button").nth(1).click()
    toggle = owner.locator("#spectators")
    expect(toggle).to_have_text("允许观战")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")  # as the hall tells it back
    asked = [f.replace(" ", "") for f in sent if '"type":"spectators"' in f.replace(" ", "")]
    assert len(asked) == 1 and '"on":false' in asked[0]
    owner.locator("#start").click()  # bots fill the seats: the game runs
    expect(owner.locator(".table .hand .card").first).to_be_visible()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    shot(owner, f"spectators-{'phone' if size == PHONE else 'desktop'}")
    # The owner's bar keeps its tools on one row, on a phone too (离开 used to wrap).
    tops = {round(box["y"]) for box in (b.bounding_box() for b in
                                         owner.locator(".tools button").all()) if box}
    assert len(tops) == 1, tops
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
