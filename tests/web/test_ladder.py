"""The bot ladder's page (#/ladder/VARIANT) in the browser, desktop and phone: reached
from the events page, open without signing in; a finished challenge (a registered
player, never connected: his turns run out to auto-play, against the anchor planning)
shows in the ratings with the anchors and in the latest matches, every deal a link to
its replay. Screenshots desktop and phone, axe on both."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from cardhall.client import HallClient
from tests.server.conftest import HallProcess, running_hall
from tests.web.conftest import PHONE, PageMaker, axe_check, shot
from tests.web.helpers import enter_as_guest, run

LADDER = """
[ladder]
turn_seconds = 0.5
bot_seconds = 0.0
between_seconds = 0.0
"""


@pytest.fixture(scope="module")
def web_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    yield from running_hall(tmp_path_factory.mktemp("ladderhall"), extra=LADDER)


async def a_match(url: str) -> str:
    """A registered player challenges planning to two deals and never plays: done."""
    async with HallClient(url, timeout=20) as c:
        await c.register("Laddertester", "secret-pass-1")
        match = (await c.post("/api/challenges", {"opponent": "planning",
                                                  "variant": "ddz3", "deals": 2}))["challenge"]
        async with asyncio.timeout(120):
            while (await c.get(f"/api/challenges/{match}"))["status"] != "done":
                await asyncio.sleep(0.2)
        return str(match)


def test_the_ladder_page_shows_ratings_and_matches_with_replays(
        desktop: Page, new_page: PageMaker, web_hall: HallProcess) -> None:
    match = run(a_match(web_hall.url))
    page = desktop
    enter_as_guest(page)
    page.goto("/#/events")
    page.locator("a.ev-ladder").click()
    expect(page.locator(".sc-ladder[data-loaded='ddz3']")).to_have_count(1)
    rows = page.locator(".ld-ratings tbody tr")
    expect(rows).to_have_count(3)  # the player and both anchors
    expect(page.locator(".ld-ratings")).to_contain_text("Laddertester")
    planning = page.locator(".ld-ratings tr[data-subject='bot:planning'] td")
    expect(planning.nth(1)).to_have_text("1500")  # fixed: the scale's anchor
    item = page.locator(f".ld-match[data-challenge='{match}']")
    expect(item).to_contain_text("Laddertester")
    expect(item.locator("a")).to_have_count(4)  # two deals, two sides
    shot(page, "ladder-desktop")
    axe_check(page)
    item.locator("a").first.click()
    expect(page.locator("#app[data-screen='replay']")).to_have_count(1)
    page.goto("/#/ladder/baohuang")  # another variant: the anchors only, no match
    expect(page.locator(".sc-ladder[data-loaded='baohuang']")).to_have_count(1)
    expect(page.locator(".ld-ratings tbody tr")).to_have_count(2)
    expect(page.locator(".sc-ladder .sc-empty")).to_be_visible()
    page.locator("#lang").click()  # in English: no CJK left on the page
    page.goto("/#/ladder/ddz3")
    expect(page.locator(".sc-ladder[data-loaded='ddz3']")).to_have_count(1)
    text = page.locator(".sc-ladder .ld-ratings, .sc-ladder .ld-matches").all_inner_texts()
    assert not re.search(r"[\u3400-\u9fff]", " ".join(text)), text
    phone = new_page(PHONE)
    phone.goto("/#/ladder/ddz3")  # no sign-in needed
    expect(phone.locator(".sc-ladder[data-loaded='ddz3']")).to_have_count(1)
    expect(phone.locator(f".ld-match[data-challenge='{match}']")).to_be_visible()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["viewport"]["width"], width  # nothing sticks out sideways
    shot(phone, "ladder-phone")
    axe_check(phone)
