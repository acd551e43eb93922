"""比赛场 in the browser: a guest reads an event's rules and prizes, enters it (bots fill
the places at once), plays it out at the normal table screen (on auto-play after his
turn runs out: a fast config), and the live standings end with his place; his beans
are the fee less, the prize more. Screenshots desktop and phone."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.server.conftest import HallProcess, running_hall
from tests.web.conftest import PHONE, PageMaker, axe_check, shot
from tests.web.helpers import api, enter_as_guest

EVENT = """
[[events]]
id = "web"
name = "三人快赛"
name_en = "Quick three"
variant = "ddz3"
entrants = 6
fee = 500
chips = 1000
deals = 1
bot_wait_seconds = 0.0
turn_seconds = 1.0
bot_seconds = 0.0
between_seconds = 0.0
"""


@pytest.fixture(scope="module")
def web_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    yield from running_hall(tmp_path_factory.mktemp("eventhall"), extra=EVENT)


def test_a_guest_plays_a_sit_and_go_to_its_end(desktop: Page, new_page: PageMaker) -> None:
    page = desktop
    enter_as_guest(page)
    before = api(page, "/api/me")["beans"]
    page.get_by_role("link", name="比赛场").click()
    kind = page.locator(".ev-kind[data-kind='web']")
    expect(kind).to_contain_text("报名费 500 豆")  # the rules, before entry
    expect(kind).to_contain_text("第1名 60%")
    shot(page, "events-desktop")
    axe_check(page)
    kind.get_by_role("button").click()
    # Bots fill at once: the table screen follows, the game plays on auto-play.
    expect(page.locator(".table[data-variant='ddz3']")).to_be_visible(timeout=30_000)
    page.goto("/#/events")
    done = page.locator(".ev-standings caption", has_text="比赛结束")
    expect(done).to_be_visible(timeout=120_000)
    shot(page, "events-standings-desktop")
    event = api(page, "/api/events")
    assert event[-1]["kind"] == "web"
    places = page.locator(".ev-standings tbody tr")
    expect(places).to_have_count(6)
    after = api(page, "/api/me")["beans"]
    rows = [places.nth(i).inner_text() for i in range(6)]
    prize = after - (before - 500)
    # 60/30/10 % of the one fee paid for places 1-3 (shown in his row); else nothing.
    assert prize in (0, 300, 150, 50), rows
    mine = next(r for r in rows if "游客" in r)
    assert (f"获得 {prize} 豆" in mine) == (prize > 0), mine
    phone = new_page(PHONE)
    enter_as_guest(phone)
    phone.goto("/#/events")
    expect(phone.locator(".ev-kind[data-kind='web']")).to_be_visible()
    shot(phone, "events-phone")
    page.locator("#lang").click()  # the standings and the rules in English: no CJK left
    expect(page.locator(".ev-kind h2")).to_contain_text("Quick three")
    expect(page.locator(".ev-standings caption")).to_have_text("Finished")
    text = page.locator(".sc-events").inner_text()
    assert not re.search(r"[\u3400-\u9fff]", text), text
    shot(page, "events-standings-english")
