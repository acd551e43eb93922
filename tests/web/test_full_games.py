"""Every variant played to its settlement by clicks alone, on a phone and on a desktop
(issue 26): the guest answers every decision and plays every card through the page
(helpers.take_turn: buttons, drawn cards, 提示 and the hand), never on 托管; the page
keeps to the screen's width throughout. 欢乐, 癞子 and 三人 at desktop size are played
to the end by clicks in test_settlement.py, with their settlement checked."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from cardhall.games import VARIANTS
from tests.web.conftest import DESKTOP, PHONE, PageMaker, shot
from tests.web.helpers import enter_as_guest, play_until, quick_match

BY_CLICKS_ELSEWHERE = {"ddz3", "ddz3_happy", "ddz3_laizi"}
CASES = [*((v, "phone") for v in VARIANTS),
         *((v, "desktop") for v in VARIANTS if v not in BY_CLICKS_ELSEWHERE)]


def wide(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth > window.innerWidth"))


@pytest.mark.parametrize(("variant", "size"), CASES)
def test_a_whole_game_by_clicks(new_page: PageMaker, variant: str, size: str) -> None:
    page = new_page(PHONE if size == "phone" else DESKTOP)
    enter_as_guest(page)
    quick_match(page, f"{variant}-bots")
    expect(page.locator(f".table[data-variant='{variant}']")).to_be_visible()
    too_wide: list[str] = []

    def settled(p: Page) -> bool:
        if wide(p):
            too_wide.append(p.locator(".table").get_attribute("data-phase") or "")
        return p.locator(".settle").count() > 0

    done = play_until(page, settled, limit=600)
    expect(page.locator(".settle")).to_be_visible()
    assert any(a for a in done), "the guest never acted"
    assert page.locator("#auto[aria-pressed='true']").count() == 0  # never on 托管
    expect(page.locator(".settle #again")).to_be_visible()  # a scored game, table kept
    assert too_wide == [], f"sideways scroll in phases {sorted(set(too_wide))}"
    shot(page, f"full-{variant}-{size}")
