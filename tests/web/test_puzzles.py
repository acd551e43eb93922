"""The 残局 page in real Chromium: a guest solves the daily puzzle by clicking cards
against the solver's defence and sees his rating rise; he fails the next puzzle and
sees the solution and his rating fall. Desktop, phone (390×844) and a small phone
(360×640), in Chinese and in English (no CJK on the English page)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from cardhall.puzzles.attempt import walk
from cardhall.puzzles.classic import BY_ID
from cardhall.puzzles.position import RULES, winning_moves
from cardhall.rules.solve import Solver
from cardhall.rules.variants import get
from tests.web.conftest import DESKTOP, PHONE, PageMaker, axe_check, shot
from tests.web.helpers import open_lobby

RS = get(RULES)
SOLVER = Solver(RS)
SMALL_PHONE: dict[str, Any] = {**PHONE, "viewport": {"width": 360, "height": 640}}
SECTION = "section.sc-puzzle"
CJK = re.compile(r"[\u3400-\u9fff\uff00-\uffef]")


def _state(page: Page) -> tuple[str, list[str]]:
    s = page.locator(SECTION)
    line = s.get_attribute("data-line") or ""
    return s.get_attribute("data-puzzle") or "", [m for m in line.split("|") if m]


def _play(page: Page, move: str) -> None:
    """Pick the move's cards in the hand and play them (or pass)."""
    before = _state(page)[1]
    if move == "pass":
        page.locator("#pz-pass").click()
    else:
        for rank in move[5:].split("=", maxsplit=1)[0].replace("+", ""):
            page.locator(f".pz-felt .hand .card[data-card='{rank}']:not(.picked)").first.click()
        page.locator("#pz-play").click()
    expect(page.locator(f"{SECTION}:not([data-line='{'|'.join(before)}'])")).to_have_count(1)


def _moves(page: Page) -> tuple[list[str], list[str]]:
    """The winning and the losing moves where the page stands."""
    puzzle, line = _state(page)
    here = walk(SOLVER, BY_ID[puzzle].position(RS), line)
    wins = winning_moves(SOLVER, here)
    return wins, [m for m, _ in here.moves(RS) if m not in wins]


def _enter(page: Page, english: bool) -> None:
    open_lobby(page)
    if english:
        page.locator("#lang").click()
    page.locator("#nav a[href='#/puzzle']").click()
    page.locator("#pz-guest").click()
    expect(page.locator(f"{SECTION}[data-loaded='1'] [data-go='daily']")).to_be_visible()


def _solve_daily(page: Page, name: str) -> None:
    expect(page.locator(".pz-rating")).to_contain_text("1500")
    page.locator("[data-go='daily']").click()
    expect(page.locator(f"{SECTION}[data-status='playing'] .hand .card").first).to_be_visible()
    shot(page, f"{name}-daily-start")
    while page.locator(SECTION).get_attribute("data-status") == "playing":
        _play(page, _moves(page)[0][0])
    expect(page.locator(SECTION)).to_have_attribute("data-status", "solved")
    expect(page.locator(".pz-change.up")).to_be_visible()
    shot(page, f"{name}-daily-solved")


def _fail_next(page: Page, name: str) -> None:
    page.locator(".pz-result [data-go='next']").click()
    expect(page.locator(f"{SECTION}[data-status='playing'][data-line='']")).to_have_count(1)
    _play(page, _moves(page)[1][0])
    expect(page.locator(SECTION)).to_have_attribute("data-status", "failed")
    expect(page.locator(".pz-change.down")).to_be_visible()
    expect(page.locator(".pz-result .pz-line li").first).to_be_visible()
    shot(page, f"{name}-failed")


@pytest.mark.parametrize("kind,name", [(DESKTOP, "puzzle-desktop"), (PHONE, "puzzle-phone"),
                                       (SMALL_PHONE, "puzzle-small")])
def test_a_guest_solves_the_daily_fails_another_and_sees_the_solution(
        new_page: PageMaker, kind: dict[str, Any], name: str) -> None:
    page = new_page(kind)
    _enter(page, english=False)
    _solve_daily(page, name)
    _fail_next(page, name)
    axe_check(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= kind["viewport"]["width"], "the page scrolls sideways"


def test_the_puzzle_page_in_english_has_no_chinese(new_page: PageMaker) -> None:
    page = new_page(DESKTOP)
    _enter(page, english=True)
    _solve_daily(page, "puzzle-en")
    _fail_next(page, "puzzle-en")
    text = page.locator("main").inner_text() + page.locator("#nav").inner_text()
    assert not CJK.search(text), CJK.findall(text)
    labels = page.eval_on_selector_all("main [aria-label]", "els => els.map(e => e.ariaLabel)")
    assert not any(CJK.search(label) for label in labels), labels
