"""Nothing mid-game is a dead end (issue 26): 规则 opens over the table, which goes on
underneath; and on any other screen a player seated at a table is offered the way back
to it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.server.conftest import HallProcess, running_hall
from tests.web.conftest import shot
from tests.web.helpers import enter_as_guest, quick_match, seq, take_turn, wait_turn

#: Bots that take a second to answer: the rules open before they have.
SLOW = ('[[rooms]]\nid = "ddz3-slow"\nname = "慢场"\nvariant = "ddz3"\nN = 10\nA = 5\n'
        'min_beans = 0\nbot_wait_seconds = 0\nbot_seconds = 1\n')


@pytest.fixture(scope="module")
def web_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    yield from running_hall(tmp_path_factory.mktemp("slowhall"), rooms=SLOW)


def test_the_rules_open_over_the_table(desktop: Page) -> None:
    page = desktop
    enter_as_guest(page)
    quick_match(page, "ddz3-slow")
    table = page.url
    assert wait_turn(page) == "turn"
    before = seq(page)
    take_turn(page)  # the bots answer in a second: the rules are open by then
    page.locator("#rules").click()
    dialog = page.locator("dialog.rules-over[open]")
    expect(dialog).to_be_visible()
    expect(dialog.locator("article")).to_contain_text("地主")  # the rules page itself
    assert page.url == table  # still at the table, which goes on underneath
    expect(page.locator(".table .hand")).to_be_attached()
    page.wait_for_function("old => Number(document.querySelector('.table').dataset.seq) > "
                           "Number(old) + 1", arg=before)  # the bots played on meanwhile
    expect(dialog).to_be_visible()  # and a redraw of the table did not close them
    shot(page, "table-rules-desktop")
    page.keyboard.press("Escape")
    expect(page.locator("dialog.rules-over")).to_have_count(0)


def test_every_screen_offers_the_way_back_to_the_table(desktop: Page) -> None:
    page = desktop
    enter_as_guest(page)
    quick_match(page, "ddz3-slow")
    table = page.url
    expect(page.locator("#seated")).to_be_hidden()  # not on the table itself
    for screen in ("#/leaderboard", "#/history", "#/profile", "#/rules/ddz3"):
        page.goto(f"/{screen}")
        box = page.locator("#seated .seated-box")
        expect(box).to_contain_text("三人斗地主")
    page.locator("#seated").get_by_role("button", name="回到牌桌").click()
    expect(page.locator(".table .hand")).to_be_visible()
    assert page.url == table
    expect(page.locator("#seated")).to_be_hidden()
