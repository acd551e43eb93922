"""The lobby never drops a refusal: quick match in a room the player cannot afford
says what the room asks and what he has, in his language, and quick match while a game
of his is under way at another table says so, with the way back to it (issue 26: both
did nothing, and the lobby offered no way back). And 托管 that starts by itself says so
(with the same module's hall: it has the rooms these need)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.server.conftest import HallProcess, running_hall
from tests.web.conftest import DESKTOP, PHONE, SHOTS, PageMaker
from tests.web.helpers import enter_as_guest, quick_match

#: A room above a new guest's 10,000 beans, and one with bots and a short turn.
RICH = ('[[rooms]]\nid = "ddz3-rich"\nname = "富豪场"\nname_en = "High rollers"\n'
        'variant = "ddz3"\nN = 100\nA = 30\nmin_beans = 50000\n'
        '[[rooms]]\nid = "ddz3-hurry"\nname = "快场"\nvariant = "ddz3"\nN = 10\nA = 5\n'
        'min_beans = 0\nturn_seconds = 4\nbot_wait_seconds = 0\nbot_seconds = 1\n'
        '[[rooms]]\nid = "ddz2-search"\nname = "高手机器人场"\nvariant = "ddz2"\nN = 10\n'
        'A = 5\nmin_beans = 0\nbot_wait_seconds = 5\nbot = "search"\n')


@pytest.fixture(scope="module")
def web_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    yield from running_hall(tmp_path_factory.mktemp("richhall"), rooms=RICH)


def test_a_room_the_player_cannot_afford_says_so(desktop: Page) -> None:
    page = desktop
    enter_as_guest(page)
    room = page.locator(".room[data-room='ddz3-rich']")
    room.locator("button.primary").click()
    notice = page.locator("#notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("50000")
    expect(notice).to_contain_text("10000")
    expect(notice).to_contain_text("富豪场")
    assert page.locator(".table").count() == 0  # still in the lobby, nothing queued
    page.locator("#lang").click()  # the same refusal in English
    expect(page.locator(".room[data-room='ddz3-rich'] button.primary")).to_have_text(
        "Quick match")
    room.locator("button.primary").click()
    expect(notice).to_contain_text("High rollers needs 50000 beans to sit down; you have 10000")


def test_each_room_says_which_bot_fills_its_seats(desktop: Page) -> None:
    """A player picks his opponents' strength: the bot is named (as on the rating board);
    a room without bots names none."""
    page = desktop
    enter_as_guest(page)
    bot = page.locator(".room[data-room='ddz2-search'] .bot")
    expect(bot).to_have_text("机器人 搜索 补位")
    expect(page.locator(".room[data-room='ddz3-hurry'] .bot")).to_have_text("机器人 规划 补位")
    expect(page.locator(".room[data-room='ddz3-rich'] .bot")).to_have_count(0)
    page.locator("#lang").click()
    expect(bot).to_have_text("bots: search")


def test_quick_match_while_playing_elsewhere_says_so(desktop: Page) -> None:
    page = desktop
    enter_as_guest(page)
    quick_match(page, "ddz3-bots")  # bots fill at once: a game under way
    expect(page.locator(".table[data-variant='ddz3']")).to_be_visible()
    page.goto("/#/")
    page.locator(".room[data-room='ddz4-bots'] button.primary").click()
    expect(page.locator("#notice")).to_contain_text("你还在另一桌的牌局中")
    # And the lobby shows the way back to that table (the 规则 page and the header's
    # 大厅 lead here mid-game).
    back = page.locator("#back")
    expect(back).to_contain_text("三人斗地主")
    back.get_by_role("button", name="回到牌桌").click()
    expect(page.locator(".table[data-variant='ddz3']")).to_be_visible()


def test_the_way_back_fits_a_phone(phone: Page) -> None:
    page = phone
    enter_as_guest(page)
    quick_match(page, "ddz3-bots")
    page.goto("/#/")
    back = page.get_by_role("button", name="回到牌桌")
    expect(back).to_be_in_viewport()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / "lobby-back-phone.png")
    back.click()
    expect(page.locator(".table[data-variant='ddz3']")).to_be_visible()


@pytest.mark.parametrize("kind", ["desktop", "phone"])
def test_autoplay_that_starts_by_itself_is_said_and_undone_in_one_press(
        new_page: PageMaker, kind: str) -> None:
    """His time runs out: a notice says 托管 started and how to take over; the play
    buttons give way to 取消托管 (the bar's button says it too); one press takes over."""
    page = new_page(DESKTOP if kind == "desktop" else PHONE)
    enter_as_guest(page)
    quick_match(page, "ddz3-hurry")
    expect(page.locator("#notice")).to_contain_text("已为你托管", timeout=30_000)
    expect(page.locator("#auto")).to_have_text("取消托管")
    controls = page.locator(".controls")
    expect(controls).to_contain_text("托管中")
    assert controls.locator("#play, #pass").count() == 0
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"table-autoplay-{kind}.png")
    controls.locator("#auto-off").click()
    expect(page.locator("#auto")).to_have_text("托管")
    expect(controls).not_to_contain_text("托管中")
