"""A settlement that explains itself (issue 26), played to the end in Chromium against a
real hall: 三人, 欢乐 (with the guest's own 加倍), 癞子 (its ×0.25), 找朋友 (扣底 and the
levels) and 保皇 (the places), at desktop size (斗地主 by clicks, the trick games on 托管)
and phone size (on 托管, after the 加倍). While the hall's ``settled`` is held back (a
route between page and hall) the beans read 结算中…, never a dash; once it comes the board
is checked against the engine's result and the hall's message: every seat's points and
beans, the fee and beans before → after, every multiplier cause, each 加倍, each pair's
arithmetic, the cards left. Then the same board in English (no Chinese but names and card
faces), and the replay's. Screenshots: build/screenshots/settle-VARIANT-{desktop,phone}.png.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import DESKTOP, PHONE, PageMaker, shot
from tests.web.helpers import enter_as_guest, play_until, quick_match
from tests.web.settlement_checks import Wire, check_board, english_without_chinese, signed, watch

VARIANTS = ["ddz3", "ddz3_happy", "ddz3_laizi", "zhaopengyou", "baohuang"]
#: Games whose guest may double (加倍): he does, so that his own ×2 is on the board.
DOUBLING = {"ddz3_happy", "ddz3_laizi"}
#: Played by clicks at desktop size; the rest, and every phone game, on 托管.
BY_CLICKS = {"ddz3", "ddz3_happy", "ddz3_laizi"}
END_MS = 240_000  # a whole 找朋友 hand on 托管, five seats of bots (the watchdog: 300 s)


def _doubling_window(page: Page) -> bool:
    return (page.locator(".controls button[data-action='double']:enabled").count() > 0
            or page.locator(".table[data-phase='play'], .settle").count() > 0)


def _play(page: Page, variant: str, by_clicks: bool) -> None:
    """To the end of the game: 加倍 where it can be had, then clicks or 托管."""
    if variant in DOUBLING:
        play_until(page, _doubling_window)
        double = page.locator(".controls button[data-action='double']:enabled")
        if double.count():
            double.click()
    if by_clicks:
        play_until(page, lambda p: False)
    else:
        auto = page.locator("#auto")
        expect(auto).to_be_enabled()
        auto.click()
        expect(auto).to_have_attribute("aria-pressed", "true")
    page.wait_for_selector(".settle", timeout=END_MS)


def _no_sideways_scroll(page: Page) -> None:
    wide = page.evaluate("""() => { const s = document.querySelector('.settle');
        return [document.documentElement.scrollWidth - document.documentElement.clientWidth,
                s.scrollWidth - s.clientWidth]; }""")
    assert wide[0] <= 0 and wide[1] <= 0, f"sideways: page {wide[0]} px, settlement {wide[1]} px"


def _settle(page: Page, wire: Wire, variant: str, size: str) -> tuple[dict[str, Any], int]:
    """The settlement on its way, then filled in; checked; returns (settled, seat)."""
    settle = page.locator(".settle")
    expect(settle).to_have_attribute("data-settled", "0")
    me = settle.locator(".sx-seats tr.me")
    expect(me.locator("td.beans")).to_have_text("结算中…")
    expect(settle.locator(".sx-mine")).to_contain_text("结算中…")
    assert "—" not in settle.inner_text()
    wire.release()
    expect(settle).to_have_attribute("data-settled", "1")
    settled = wire.settled()
    seat = int(me.get_attribute("data-seat") or -1)
    result = settled["result"]
    hands = wire.last_view(settled["game"])["detail"].get("hands")
    check_board(settle, result, seat, settled, hands)
    outcome = "won" if seat in result["winners"] else "draw" if result["points"][seat] == 0 \
        else "lost"
    expect(settle).to_have_attribute("data-outcome", outcome)
    if variant in DOUBLING and seat in result["detail"]["doubling"]["doubled"]:
        name = me.locator("th").inner_text().split(" (")[0]
        mine = settle.locator(".sx-pair", has_text=f"{name}加倍")
        assert mine.count() >= 1, "the guest's own 加倍 is in his pairs' arithmetic"
    _no_sideways_scroll(page)
    shot(page, f"settle-{variant}-{size}")
    return settled, seat


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_settlement_explains_itself(new_page: PageMaker, variant: str, size: str) -> None:
    page = new_page(DESKTOP if size == "desktop" else PHONE)
    wire = watch(page)
    enter_as_guest(page)
    quick_match(page, f"{variant}-bots")
    expect(page.locator(f".table[data-variant='{variant}']")).to_be_visible()
    wire.hold = True
    _play(page, variant, by_clicks=size == "desktop" and variant in BY_CLICKS)
    settled, seat = _settle(page, wire, variant, size)
    # The same board in English: every word translated, the numbers the same.
    # (a player's title is a name too: the level table keeps 包身工 … in English)
    names = page.locator(".sx-seats tbody th").evaluate_all(
        "els => els.flatMap(e => [[...e.childNodes].find(n => n.nodeType === 3).textContent,"
        " e.closest('[data-bot]') ? ''"
        " : e.querySelector('.sx-title')?.textContent || ''])")
    page.locator("#lang").click()
    settle = page.locator(".settle")
    expect(settle.locator("h2")).to_contain_text("Result")
    check_board(settle, settled["result"], seat, settled, None)
    english_without_chinese(settle, names)
    if size == "desktop":
        shot(page, f"settle-{variant}-{size}-en")
    page.locator("#lang").click()
    # The replay's final result is the same board.
    page.goto(f"/#/replay/{settled['game']}/100000")
    box = page.locator(".sc-replay[data-loaded='1'] .sc-result-box")
    expect(box).to_be_visible()
    check_board(box, settled["result"], seat, None, None)
    for key, beans in settled["beans"].items():
        expect(box.locator(f".sx-seats tr[data-seat='{key}'] td.beans")).to_have_text(signed(beans))
    # The fee as the table said it, also where the hall (not the game) took it.
    expect(box.locator(".sx-fee")).to_contain_text(str(settled["fees"][str(seat)]))
    if size == "desktop" and variant == "ddz3_happy":
        box.scroll_into_view_if_needed()
        shot(page, f"replay-settle-{variant}-{size}")
