"""What the Leave button warns of mid-game is what the game then charges: in Dou Dizhu
an escape (the game ends, the escape penalty); in 保皇 and 找朋友 a forced quit (−40
points, the hand played on by autoplay; platform rules §5, 保皇 Ruling 18)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Dialog, Page, expect

from tests.web.helpers import enter_as_guest, quick_match

WARNINGS = {
    "ddz3": "Leaving mid-game counts as escaping and costs points. Leave?",
    "baohuang": "Leaving mid-game is a forced quit: it costs 40 points, and autoplay plays "
                "your hand to the end. Leave?",
    "zhaopengyou": "Leaving mid-game is a forced quit: it costs 40 points, and autoplay "
                   "plays your hand to the end. Leave?",
}


@pytest.mark.parametrize("variant", WARNINGS)
def test_the_leave_button_warns_of_what_leaving_costs(desktop: Page, variant: str) -> None:
    page = desktop
    enter_as_guest(page)
    page.locator("#lang").click()
    quick_match(page, f"{variant}-bots")
    expect(page.locator(f".table[data-variant='{variant}']")).to_be_visible()
    expect(page.locator("#auto")).to_be_enabled()  # the game runs
    asked: list[str] = []

    def answer(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()  # he stays

    page.once("dialog", answer)
    page.locator("#leave").click()
    expect(page.locator(f".table[data-variant='{variant}']")).to_be_visible()
    assert asked == [WARNINGS[variant]]
