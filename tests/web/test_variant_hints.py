"""The table shows a variant by the display hints it declares (/api/variants' ``display``),
not by a switch on its id: 斗帝主's landlord is labelled 帝主, 找朋友's line of facts names
its level, and 找朋友's hand is fanned trumps first."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.helpers import api, enter_as_guest, play_until, quick_match


def in_play(page: Page) -> bool:
    return page.locator(".table[data-phase='play']").count() > 0


def test_the_emperor_wears_the_label_its_variant_declares(desktop: Page) -> None:
    enter_as_guest(desktop)
    hints = {v["id"]: v["display"] for v in api(desktop, "/api/variants")}
    assert hints["ddz_emperor"]["roles"]["emperor"] == {"zh": "帝主", "en": "Emperor"}
    quick_match(desktop, "ddz_emperor-bots")
    play_until(desktop, in_play)
    expect(desktop.locator(".seat .role.r-emperor")).to_have_text("帝主")
    expect(desktop.locator(".seat .role.r-rebel").first).to_have_text("造反")


SORT = """async ([variant, cards]) => {
    const { loadVariants } = await import("/variants.js");
    const { sortCards } = await import("/cards.js");
    await loadVariants((method, path) => fetch(path).then((r) => r.json()));
    return sortCards(cards, variant, { trump: "h", level: "5" });
}"""


def test_a_hand_is_fanned_as_its_variant_declares(desktop: Page) -> None:
    """找朋友 declares ``sort: trump``: jokers, level cards (trump suit's first), the trump
    suit, then suit by suit; a climbing game fans by rank alone."""
    enter_as_guest(desktop)
    cards = ["As", "5s", "Kh", "3h", "D", "5h", "2c"]
    assert desktop.evaluate(SORT, ["zhaopengyou", cards]) == [
        "D", "5h", "5s", "Kh", "3h", "As", "2c"]
    assert desktop.evaluate(SORT, ["ddz3", cards]) == ["D", "2c", "As", "Kh", "5s", "5h", "3h"]


def test_a_trick_game_shows_the_facts_it_declares(desktop: Page) -> None:
    enter_as_guest(desktop)
    quick_match(desktop, "zhaopengyou-bots")
    play_until(desktop, in_play)
    expect(desktop.locator(".facts")).to_contain_text("打")  # the level: a declared fact
