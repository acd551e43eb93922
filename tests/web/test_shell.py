"""The shell: the lobby loads without errors, guest entry in one click, the language switch."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from cardhall.games import VARIANTS
from tests.web.conftest import PageMaker, axe_check, shot
from tests.web.helpers import enter_as_guest, open_lobby


def test_guest_enters_in_one_click_and_sees_every_variant(desktop: Page) -> None:
    open_lobby(desktop)
    expect(desktop.locator("#rooms[data-loaded='1']")).to_have_count(1)
    assert desktop.locator(".room button").count() == 0  # no session: nothing to join yet
    enter_as_guest(desktop)
    variants = desktop.locator(".variant").evaluate_all("els => els.map(e => e.dataset.variant)")
    assert set(variants) >= set(VARIANTS)
    expect(desktop.locator("#who")).to_contain_text("游客")
    shot(desktop, "lobby-desktop")
    axe_check(desktop)


def test_english_is_one_click_away_and_remembered(new_page: PageMaker) -> None:
    page = new_page()
    open_lobby(page)
    room = page.locator(".room[data-room='ddz3-bots'] strong")
    expect(room).to_have_text("ddz3 bots场")
    page.get_by_role("button", name="Switch to English").click()
    expect(page.get_by_role("button", name="Play as guest")).to_be_visible()
    expect(room).to_have_text("ddz3 bots room")  # the room's English name
    page.reload()
    expect(page.get_by_role("button", name="Play as guest")).to_be_visible()
    expect(room).to_have_text("ddz3 bots room")
    page.get_by_role("button", name="切换到中文").click()
    expect(page.get_by_role("button", name="游客进入")).to_be_visible()
    expect(room).to_have_text("ddz3 bots场")
