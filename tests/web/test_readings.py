"""出牌 with cards that read several ways: a chooser names each reading, the one chosen is
the one sent; a selection with one reading plays at once.

A 癞子 room with a given deal (wild rank 9, seat 0 the landlord): the player's 3 3 3 9
reads as 三带一 333+9 and as the soft bomb 3333; the lead is listed in full (247 plays).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, WebSocket, expect

from tests.server.conftest import HallProcess, start_hall
from tests.web.conftest import PHONE, PageMaker, shot
from tests.web.helpers import enter_as_guest, quick_match, take_turn, wait_turn

HANDS = ["33395577JJKKAA2XD", "34444556666778889", "99TTTJJQQQKKAA222"]
ROOM = ('[[rooms]]\nid = "laizi-dealt"\nname = "laizi dealt"\nvariant = "ddz3_laizi"\n'
        f'options = {{ wild = "9", landlord = 0, deal = {{ hands = {json.dumps(HANDS)}, '
        'kitty = "8TQ" } }\nN = 10\nA = 5\nmin_beans = 0\nturn_seconds = 60\n'
        'bot_wait_seconds = 0\n')


@pytest.fixture(scope="module")
def web_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    server = start_hall(tmp_path_factory.mktemp("readings"), rooms=ROOM)
    try:
        yield server
    finally:
        server.stop()


def to_my_lead(page: Page) -> tuple[list[str], list[str]]:
    """Through 开始 and 加倍 to the first play; the actions the page will send, and every
    seat-0 last play the server's states will report."""
    sent: list[str] = []
    shown: list[str] = []

    def sending(frame: str | bytes) -> None:
        msg = json.loads(frame)
        if msg.get("type") == "act":
            sent.append(msg["action"])

    def receiving(frame: str | bytes) -> None:
        msg = json.loads(frame)
        if msg.get("type") == "state" and msg.get("view"):
            shown.append(str(msg["view"]["last"][0]))

    def watch(ws: WebSocket) -> None:
        ws.on("framesent", sending)
        ws.on("framereceived", receiving)

    page.on("websocket", watch)
    enter_as_guest(page)
    quick_match(page, "laizi-dealt")
    while wait_turn(page) == "turn" and page.locator(".table[data-phase='play']").count() == 0:
        take_turn(page)
    expect(page.locator(".controls #play")).to_be_visible()
    return sent, shown


def pick(page: Page, ranks: str) -> None:
    """Click cards of these ranks in the hand (one card per rank letter)."""
    used: set[int] = set()
    cards = page.locator(".hand .card")
    for r in ranks:
        i = next(i for i in range(cards.count())
                 if i not in used and (cards.nth(i).get_attribute("data-card") or "")[0] == r)
        used.add(i)
        cards.nth(i).click()


def test_the_chooser_sends_the_reading_chosen(new_page: PageMaker) -> None:
    page = new_page()
    sent, shown = to_my_lead(page)
    pick(page, "3339")
    page.locator("#play").click()
    chooser = page.get_by_role("dialog")
    readings = chooser.locator("button.reading")
    expect(readings).to_have_count(2)
    assert [readings.nth(i).get_attribute("data-action") for i in range(2)] == \
        ["play 333+9=333+9", "play 3339=3333"]
    expect(readings.nth(0)).to_have_text("三带一 3 3 3 9")
    expect(readings.nth(1)).to_contain_text("软炸")
    expect(readings.nth(0)).to_be_focused()
    assert (readings.nth(1).bounding_box() or {"height": 0})["height"] >= 44
    shot(page, "readings-desktop")
    page.keyboard.press("Escape")
    expect(chooser).to_have_count(0)
    expect(page.locator(".hand .card[aria-pressed='true']")).to_have_count(4)
    page.locator("#play").click()
    page.keyboard.press("Tab")  # keyboard: the second reading, then Enter
    expect(readings.nth(1)).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".hand .card")).to_have_count(16)
    expect(page.get_by_role("dialog")).to_have_count(0)
    assert [a for a in sent if a.startswith("play")] == ["play 3339=3333"]
    assert "play 3339=3333" in shown


def test_one_reading_plays_at_once_and_the_phone_chooser(new_page: PageMaker) -> None:
    page = new_page(PHONE)
    sent, shown = to_my_lead(page)
    pick(page, "3339")
    page.locator("#play").click()
    expect(page.get_by_role("dialog").locator("button.reading")).to_have_count(2)
    path: Path = shot(page, "readings-phone")
    assert path.exists()
    page.get_by_role("button", name="取消").click()
    page.keyboard.press("Escape")
    expect(page.locator(".hand .card[aria-pressed='true']")).to_have_count(0)
    pick(page, "55")
    page.locator("#play").click()
    expect(page.locator(".hand .card")).to_have_count(18)
    expect(page.get_by_role("dialog")).to_have_count(0)
    assert [a for a in sent if a.startswith("play")] == ["play 55"]
    assert "play 55" in shown
