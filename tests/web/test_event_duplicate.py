"""A duplicate event (复式) in the browser: a guest reads its rules, enters (a bot fills
the other place at once), plays its deals at the normal table screen (on auto-play
after his turn runs out: a fast config), and the event's view ends with the results
per deal (points · matchpoints), each a link to its replay, which opens (another
entrant's too)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.server.conftest import HallProcess, running_hall
from tests.web.conftest import Guard, shot
from tests.web.helpers import enter_as_guest

EVENT = """
[[events]]
id = "dup"
name = "三人复式"
name_en = "Duplicate three"
format = "duplicate"
variant = "ddz3"
entrants = 2
fee = 500
prizes = [100]
deals = 2
bot_wait_seconds = 0.0
turn_seconds = 1.0
bot_seconds = 0.0
between_seconds = 0.0
"""


@pytest.fixture(scope="module")
def web_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    yield from running_hall(tmp_path_factory.mktemp("duphall"), extra=EVENT)


def test_a_duplicate_events_view_shows_each_deals_results(desktop: Page, guard: Guard) -> None:
    page = desktop
    enter_as_guest(page)
    page.get_by_role("link", name="比赛场").click()
    kind = page.locator(".ev-kind[data-kind='dup']")
    expect(kind).to_contain_text("复式赛")  # its own rules, before entry
    expect(kind).to_contain_text("同样的 2 副牌")
    kind.get_by_role("button").click()
    expect(page.locator(".table[data-variant='ddz3']")).to_be_visible(timeout=30_000)
    page.goto("/#/events")
    expect(page.locator(".ev-standings caption", has_text="比赛结束")).to_be_visible(
        timeout=120_000)
    deals = page.locator(".ev-deals")
    expect(deals.locator("thead th")).to_have_count(3)  # the name, then deal 1 and 2
    expect(deals.locator("tbody tr")).to_have_count(2)
    cells = deals.locator("tbody td a")
    expect(cells).to_have_count(4)  # every result is a replay's link once it is over
    assert re.fullmatch(r"-?\d+ · [0-2]", cells.first.inner_text())
    expect(page.locator(".ev-standings thead")).to_contain_text("比赛分")
    shot(page, "events-duplicate-desktop")
    # Another entrant's deal (the bot's): its replay (and its analysis) is open to him now.
    deals.locator("tbody tr", has_text="机器人").locator("td a").first.click()
    expect(page).to_have_url(re.compile(r"#/replay/"))
    expect(page.locator(".sc-replay .sc-seats")).to_be_visible(timeout=20_000)
