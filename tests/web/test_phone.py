"""Phone sizes: no horizontal scrolling, touch targets of at least 44 px, cards by tap,
and the lobby and a table at 390×844 portrait and 844×390 landscape."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import PHONE_LANDSCAPE, PageMaker, axe_check, shot
from tests.web.helpers import enter_as_guest, play_until, quick_match

# A control's target is its own box, or its label's (a checkbox is tapped by its label).
SMALL_TARGETS = """() => [...document.querySelectorAll('button, a[href], input, select')]
    .filter(e => e.offsetParent !== null && !e.closest('.hand'))
    .map(e => [e.getAttribute('aria-label') || e.id || e.textContent.trim(),
               (e.closest('label') || e).getBoundingClientRect()])
    .filter(([, r]) => r.width < 44 || r.height < 44)
    .map(([name, r]) => `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`)"""


# Each card of the hand but a row's last: the strip the next card leaves it, and how far
# its corner's rank reaches past that strip (> 0: cut, as "10" read "1(").
STRIPS = """() => {
    const cards = [...document.querySelectorAll('.hand .card')];
    const out = [];
    for (let i = 0; i + 1 < cards.length; i++) {
        const a = cards[i].getBoundingClientRect(), b = cards[i + 1].getBoundingClientRect();
        if (Math.abs(a.top - b.top) > 30) continue;  // the next card starts a new row
        const rank = cards[i].querySelector('.corner b, .corner').getBoundingClientRect();
        out.push([cards[i].dataset.card, b.left - a.left, rank.right - b.left]);
    }
    return out;
}"""


def fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.evaluate(SMALL_TARGETS) == []
    strips = page.evaluate(STRIPS)
    assert [s for s in strips if s[1] < 20] == [], "tap strips under 20 px"
    assert [s for s in strips if s[2] > 0.5] == [], "a corner's rank cut by the next card"


def test_phone_portrait_lobby_and_table_by_tap(phone: Page) -> None:
    enter_as_guest(phone)
    fits(phone)
    header = phone.locator("#top").bounding_box()
    assert header is not None and header["height"] <= 100  # was a third of the screen
    balance = phone.locator("#who .who-beans")  # shown whole, not cut by an ellipsis
    assert phone.evaluate("e => e.scrollWidth <= e.clientWidth", phone.locator("#who")
                          .element_handle())
    expect(balance).to_be_visible()
    shot(phone, "lobby-phone")
    quick_match(phone, "ddz3_happy-bots")
    play_until(phone, lambda p: p.locator(".table[data-phase='play'] #play").count() > 0)
    fits(phone)
    cards = phone.locator(".hand .card")
    box = cards.last.bounding_box()
    assert box is not None and box["height"] >= 44
    cards.last.tap()
    expect(cards.last).to_have_attribute("aria-pressed", "true")
    cards.last.tap()
    expect(cards.last).to_have_attribute("aria-pressed", "false")
    shot(phone, "table-ddz3_happy-phone")
    axe_check(phone)


def test_phone_landscape_table(new_page: PageMaker) -> None:
    page = new_page(PHONE_LANDSCAPE)
    enter_as_guest(page)
    fits(page)
    shot(page, "lobby-landscape")
    quick_match(page, "ddz3_happy-bots")
    play_until(page, lambda p: p.locator(".table[data-phase='play'] #play").count() > 0)
    fits(page)
    last = page.locator(".hand .card").last.bounding_box()
    assert last is not None and last["y"] + last["height"] <= 390  # the hand is on screen
    shot(page, "table-ddz3_happy-landscape")


def test_drag_across_selects_and_a_bad_selection_says_why(desktop: Page) -> None:
    enter_as_guest(desktop)
    quick_match(desktop, "ddz3_happy-bots")
    play_until(desktop, lambda p: p.locator(".table[data-phase='play'] #play").count() > 0)
    cards = desktop.locator(".hand .card")
    boxes = [cards.nth(i).bounding_box() for i in (0, 1, 2)]
    assert all(boxes)
    y = boxes[0]["y"] + boxes[0]["height"] - 10  # type: ignore[index]
    desktop.mouse.move(boxes[0]["x"] + 5, y)  # type: ignore[index]
    desktop.mouse.down()
    for b in boxes[1:]:
        desktop.mouse.move(b["x"] + 5, y, steps=4)  # type: ignore[index]
    desktop.mouse.up()
    picked = desktop.locator(".hand .card[aria-pressed='true']")
    expect(picked).to_have_count(3)
    desktop.keyboard.press("Escape")
    expect(picked).to_have_count(0)
    # The biggest card and the smallest together are never one play.
    cards.first.click()
    cards.last.click()
    play = desktop.locator("#play")
    expect(play).to_have_attribute("data-legal", "0")
    before = desktop.locator(".table").get_attribute("data-seq")
    play.click()  # sent all the same: the game says why, in its own words, and nothing moves
    expect(desktop.locator(".controls .reason")).to_contain_text("不是一手合法的牌型")
    assert desktop.locator(".table").get_attribute("data-seq") == before
    expect(desktop.locator(".hand .card[aria-pressed='true']")).to_have_count(2)
    shot(desktop, "table-ddz3_happy-desktop")
    axe_check(desktop, ".table")


SMALL_PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True,
               "device_scale_factor": 2}


@pytest.mark.parametrize("variant", ["ddz3", "zhaopengyou", "baohuang"])
def test_the_smallest_phone_fits_lobby_and_table(new_page: PageMaker, variant: str) -> None:
    """360×640: the lobby and a table (three seats, and five with 33 cards in hand) have
    no horizontal scroll and every target is 44 px."""
    page = new_page(SMALL_PHONE)
    enter_as_guest(page)
    fits(page)
    quick_match(page, f"{variant}-bots")
    play_until(page, lambda p: p.locator(".table[data-phase='play'] #play").count() > 0)
    shot(page, f"table-{variant}-360")
    fits(page)
    # The whole table on one screen: the hand's last card and the play button show.
    for target in (page.locator(".hand .card").last, page.locator("#play")):
        box = target.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 640, box
