"""Quick chat in the browser (issue 22): two players at a private table; one opens the
chat panel and says a phrase, the other sees it as a bubble by the speaker's seat; the
listener taps the speaker's name to mute him, and his next line reaches the listener no
more (the server does not send it), while his own page still shows it. Screenshots at
desktop and phone size, the panel open on both."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.server.conftest import HallProcess, running_hall
from tests.web.conftest import DESKTOP, PHONE, PageMaker, axe_check, shot
from tests.web.test_session import private_table

#: This module's hall lets a player chat every 0.2 s (``[limits] chat_gap_seconds``), so
#: that the test's second line is not ``rate_limited``; the rest as every test hall's.
LIMITS = ("guests_per_minute = 1000\nlogins_per_minute = 1000\nmessages_per_second = 200\n"
          "replays_per_minute = 100000\nchat_gap_seconds = 0.2\n")


@pytest.fixture(scope="module")
def web_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    yield from running_hall(tmp_path_factory.mktemp("chathall"), limits=LIMITS)


def my_seat(page: Page) -> str:
    return page.locator(".seat.pos-me").get_attribute("data-seat") or ""


def say(page: Page, phrase: str) -> None:
    page.locator("#chat").click()
    expect(page.locator(".chat-panel")).to_be_visible()
    page.locator(f".chat-panel [data-say='{phrase}']").click()
    expect(page.locator(".chat-panel")).to_have_count(0)


def test_a_phrase_shows_by_the_speakers_seat_and_a_mute_stops_it(new_page: PageMaker) -> None:
    owner, friend = new_page(DESKTOP), new_page(PHONE)
    private_table(owner, friend)
    speaker = my_seat(owner)
    say(owner, "well_played")
    bubble = friend.locator(f".seat[data-seat='{speaker}'] .bubble")
    expect(bubble).to_have_text("你的牌打得太好了！")
    expect(owner.locator(".seat.pos-me .bubble")).to_have_text("你的牌打得太好了！")
    shot(friend, "chat-bubble-phone")
    shot(owner, "chat-bubble-desktop")
    owner.locator("#chat").click()
    expect(owner.locator("#chat")).to_have_attribute("aria-expanded", "true")
    shot(owner, "chat-panel-desktop")
    owner.locator("#chat").click()  # the button by one's seat closes it again
    expect(owner.locator(".chat-panel")).to_have_count(0)
    friend.locator("#chat").click()
    panel = friend.locator(".chat-panel")
    expect(panel).to_be_visible()
    box = panel.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390  # fits
    shot(friend, "chat-panel-phone")
    axe_check(friend)
    friend.locator("#chat").click()
    expect(panel).to_have_count(0)
    who = friend.locator(f".seat[data-seat='{speaker}'] .who")
    who.click()
    expect(who).to_have_attribute("aria-pressed", "true")
    expect(who.locator(".badge.muted")).to_be_visible()
    say(owner, "wink")
    expect(owner.locator(".seat.pos-me .bubble")).to_have_text("😉")  # the server took it
    say(friend, "smile")  # sent after the owner's line: the friend's page hears its own
    expect(friend.locator(".seat.pos-me .bubble")).to_have_text("😊")
    expect(owner.locator(f".seat[data-seat='{my_seat(friend)}'] .bubble")).to_have_text("😊")
    # The owner's 😉 would have come before the friend's own 😊: it never came.
    expect(friend.locator(f".seat[data-seat='{speaker}'] .bubble")).not_to_have_text("😉")
    shot(friend, "chat-muted-phone")
