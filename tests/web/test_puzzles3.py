"""A three-hand 残局 in real Chromium: a guest opens a mined 三人斗地主 puzzle (he is a
farmer, the landlord the hand before him), sees all three hands with their roles,
plays the winning line by clicking cards while the solver answers for both other hands,
and is rated; tried again, a wrong first move fails and shows the solution. Desktop
and phone (390×844)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from cardhall.puzzles.attempt3 import walk
from cardhall.puzzles.position3 import Table, solution
from cardhall.rules.solve3 import ThreeHandSolver
from cardhall.rules.variants import get
from tests.server.conftest import HallProcess
from tests.server.test_puzzles_api import three_hand_puzzle
from tests.web.conftest import DESKTOP, PHONE, PageMaker, axe_check, shot
from tests.web.helpers import run
from tests.web.test_puzzles import CJK, SECTION, _enter, _play, _state

RS = get("ddz3")
SOLVER = ThreeHandSolver(RS)
START = Table.of(RS, "56778K", "336JQ", "4", "33", lord=2)


@pytest.fixture(scope="module")
def puzzle_id(web_hall: HallProcess) -> str:
    pid: str = run(three_hand_puzzle(web_hall.db_url))
    return pid


def _open(page: Page, pid: str) -> None:
    """Start an attempt at ``pid`` through the API with the page's session, show it."""
    attempt = page.evaluate("""async (pid) => {
        const res = await fetch("/api/puzzles/attempts", {method: "POST",
          headers: {"Content-Type": "application/json",
                    Authorization: `Bearer ${localStorage.getItem("cardhall.token")}`},
          body: JSON.stringify({puzzle: pid})});
        return (await res.json()).id;
    }""", pid)
    page.goto(f"/#/puzzle/{attempt}")
    expect(page.locator(f"{SECTION}[data-status='playing'][data-line=''] .hand .card")
           .first).to_be_visible()


@pytest.mark.parametrize("kind,name", [(DESKTOP, "puzzle3-desktop"), (PHONE, "puzzle3-phone")])
def test_a_three_hand_puzzle_is_shown_played_and_failed(
        new_page: PageMaker, puzzle_id: str, kind: dict[str, Any], name: str) -> None:
    page = new_page(kind)
    _enter(page, english=False)
    _open(page, puzzle_id)
    section = page.locator(SECTION)
    expect(section).to_have_attribute("data-seats", "3")
    expect(section).to_have_attribute("data-landlord", "third")
    expect(page.locator(".pz-side[data-who='third']")).to_contain_text("上家 · 地主")
    expect(page.locator(".pz-side[data-who='other']")).to_contain_text("下家 · 农民（队友）")
    expect(page.locator(".pz-side[data-who='third'] .card")).to_have_count(1)
    expect(page.locator(".pz-side[data-who='other'] .card")).to_have_count(5)
    expect(page.locator(".pz-you")).to_contain_text("你的牌 · 农民")
    expect(page.locator(".pz-table")).to_contain_text("上家出")
    shot(page, f"{name}-start")
    _play(page, "play 77")
    expect(page.locator(".pz-replies")).to_contain_text("下家：不要 · 上家：不要")
    shot(page, f"{name}-after-77")
    expect(page.locator(".pz-from")).to_have_count(0)  # the source game would tell
    while section.get_attribute("data-status") == "playing":
        line = _state(page)[1]
        _play(page, solution(SOLVER, walk(SOLVER, START, line))[0])
    expect(section).to_have_attribute("data-status", "solved")
    expect(page.locator(".pz-change.up")).to_be_visible()
    source = page.locator(".pz-from a")  # over: the real game it came from, to replay
    expect(source).to_have_attribute("href", re.compile(r"^#/replay/g3api[0-9a-f]+/0$"))
    expect(page.locator(".pz-result .pz-line li[data-by='other']").first).to_be_visible()
    shot(page, f"{name}-solved")

    page.locator("#pz-again").click()
    expect(page.locator(f"{SECTION}[data-status='playing'][data-line='']")).to_have_count(1)
    _play(page, "pass")
    expect(section).to_have_attribute("data-status", "failed")
    expect(page.locator(".pz-result .pz-line").first.locator("li").first).to_contain_text("7 7")
    expect(page.locator(".pz-result .pz-line li[data-by='third']").first).to_be_visible()
    shot(page, f"{name}-failed")
    axe_check(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= kind["viewport"]["width"], "the page scrolls sideways"


def test_the_three_hand_page_in_english_has_no_chinese(new_page: PageMaker,
                                                       puzzle_id: str) -> None:
    page = new_page(DESKTOP)
    _enter(page, english=True)
    _open(page, puzzle_id)
    expect(page.locator(".pz-side[data-who='third']")).to_contain_text("landlord")
    _play(page, "play 77")
    expect(page.locator(".pz-replies")).to_contain_text("Next hand: Pass")
    shot(page, "puzzle3-en")
    text = page.locator("main").inner_text()
    assert not CJK.search(text), CJK.findall(text)
