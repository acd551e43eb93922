"""Every variant beyond 欢乐: through the UI alone a guest gets to the play phase and sees
at least one round (or trick) end; the table is shot at desktop and phone sizes."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from cardhall.games import VARIANTS
from tests.web.conftest import shot
from tests.web.helpers import enter_as_guest, play_until, quick_match

OTHERS = [v for v in VARIANTS if v != "ddz3_happy"]


def rounds(page: Page) -> int:
    return int(page.locator(".table").get_attribute("data-rounds") or 0)


def no_horizontal_scroll(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


@pytest.mark.parametrize("variant", OTHERS)
def test_variant_plays_a_round_through_the_ui(desktop: Page, variant: str) -> None:
    page = desktop
    enter_as_guest(page)
    quick_match(page, f"{variant}-bots")
    expect(page.locator(f".table[data-variant='{variant}']")).to_be_visible()
    done = play_until(page, lambda p: rounds(p) >= 1)
    assert done, "the guest never acted"
    page.wait_for_selector(".table[data-phase='play'] .hand .card, .settle")
    shot(page, f"table-{variant}-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    assert no_horizontal_scroll(page)
    shot(page, f"table-{variant}-phone")
    page.set_viewport_size({"width": 844, "height": 390})
    assert no_horizontal_scroll(page)
    shot(page, f"table-{variant}-landscape")
