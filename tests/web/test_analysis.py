"""The replay's 分析 view in real Chromium against a real hall (issue 21): a player opens
the analysis of a game he finished, follows its progress, steps to its worst move and
plays the best move on in a what-if; at phone size too, read back from the store, and
in English.

The game: a registered player plays a ``ddz3`` game against bots through the protocol
(``HallClient``), a random legal action at each of his turns, so his analysis has
something to find.
"""

from __future__ import annotations

import math
from typing import Any

from playwright.sync_api import Page, expect

from cardhall.client import HallClient
from tests.server.conftest import HallProcess
from tests.server.play import play_out, seat, vacate
from tests.web.conftest import DESKTOP, PHONE, PageMaker, axe_check, shot
from tests.web.helpers import login, run
from tests.web.test_screens import no_sideways_scroll, touch_targets

PASSWORD = "analysis-pw"
#: An analysis of one seat takes a few seconds of the hall's worker; on a busy machine more.
DONE_MS = 120_000
#: A what-if line (the planning bot plays every seat to the end) and a page's first look
#: at a stored analysis: well under a second, but the machine may be busy.
LINE_MS = 30_000


async def _played(url: str, name: str) -> tuple[str, int]:
    """A registered player's finished ddz3 game against bots: its id and his seat."""
    async with HallClient(url, timeout=20) as c:
        await c.register(name, PASSWORD)
        await c.connect()
        table, (first,) = await seat([c], "ddz3-bots")
        await play_out([c], table, seed=4, timeout=240)
        await vacate([c], table, "ddz3-bots")
        return first["game"], first["seat"]


async def _analysis(url: str, game: str, seat: int) -> Any:
    async with HallClient(url) as c:
        return (await c.get(f"/api/games/{game}/analysis", seat=str(seat)))["analysis"]


def _open(page: Page, game: str) -> None:
    login(page, "Analyst1", PASSWORD)
    page.goto(f"/#/replay/{game}/0")
    expect(page.locator(".sc-replay[data-loaded='1']")).to_have_count(1)


def test_open_the_analysis_and_step_to_the_worst_move(new_page: PageMaker,
                                                      web_hall: HallProcess) -> None:
    game, mine = run(_played(web_hall.url, "Analyst1"))
    page = new_page(DESKTOP)
    _open(page, game)
    panel = page.locator(".sc-analysis")
    expect(panel.get_by_role("heading", name="分析")).to_be_visible()
    expect(page.locator("#an-seat")).to_have_value(str(mine))  # his own seat first
    page.get_by_role("button", name="分析这局").click()
    expect(panel).to_have_attribute("data-state", "done", timeout=DONE_MS)
    report = run(_analysis(web_hall.url, game, mine))
    assert report["worst"] is not None, "random play gave up nothing: no worst move"
    shown = math.floor(report["accuracy"] + 0.5)  # as JavaScript's Math.round
    expect(panel.locator(".an-accuracy")).to_contain_text(f"：{shown}")
    expect(panel.locator(".an-list li")).to_have_count(len(report["decisions"]))
    page.get_by_role("button", name="跳到最大失误").click()
    worst = next(d for d in report["decisions"] if d["ply"] == report["worst"])
    expect(page.locator(".sc-replay")).to_have_attribute("data-step", str(worst["ply"] + 1))
    decision = page.locator(".an-decision")
    expect(decision).to_have_attribute("data-ply", str(worst["ply"]))
    expect(decision).to_contain_text(f"{math.floor(worst['played']['win'] * 100 + 0.5)}%")
    expect(page.locator(f".an-list li[data-ply='{worst['ply']}']")).to_have_class("current")
    decision.get_by_role("button", name="如果出最佳会怎样").click()
    expect(decision.locator(".an-line li").first).to_be_visible(timeout=LINE_MS)
    shot(page, "analysis-desktop")
    axe_check(page)
    panel.locator(".an-list").scroll_into_view_if_needed()
    shot(page, "analysis-list-desktop")
    # At phone size the analysis is read back from the store at once.
    phone = new_page(PHONE)
    _open(phone, game)
    expect(phone.locator(".sc-analysis")).to_have_attribute("data-state", "done",
                                                            timeout=LINE_MS)
    phone.get_by_role("button", name="跳到最大失误").click()
    expect(phone.locator(".sc-replay")).to_have_attribute("data-step", str(worst["ply"] + 1))
    expect(phone.locator(".an-decision")).to_be_visible()
    no_sideways_scroll(phone)
    touch_targets(phone)
    shot(phone, "analysis-phone")
    phone.get_by_role("button", name="Switch to English").click()
    expect(phone.get_by_role("button", name="Go to the worst move")).to_be_visible()
    expect(phone.locator(".sc-analysis")).to_contain_text("accuracy")
    shot(phone, "analysis-phone-en")


async def _played_trick_game(url: str, name: str) -> tuple[str, int]:
    """A registered player's finished 找朋友 hand against four bots (a trick game with a
    hidden friend: judged by rollouts through the engine)."""
    async with HallClient(url, timeout=30) as c:
        await c.register(name, PASSWORD)
        await c.connect()
        table, (first,) = await seat([c], "zhaopengyou-bots")
        await play_out([c], table, seed=2, timeout=300)
        await vacate([c], table, "zhaopengyou-bots")
        return first["game"], first["seat"]


def test_a_trick_game_is_analysed_too(new_page: PageMaker, web_hall: HallProcess) -> None:
    """找朋友's plays are judged (the rollouts), shown in the same panel, at phone size."""
    game, mine = run(_played_trick_game(web_hall.url, "Analyst2"))
    page = new_page(PHONE)
    login(page, "Analyst2", PASSWORD)
    page.goto(f"/#/replay/{game}/0")
    expect(page.locator(".sc-replay[data-loaded='1']")).to_have_count(1)
    panel = page.locator(".sc-analysis")
    expect(panel.get_by_role("heading", name="分析")).to_be_visible()
    expect(page.locator("#an-seat")).to_have_value(str(mine))
    page.get_by_role("button", name="分析这局").click()
    expect(panel).to_have_attribute("data-state", "done", timeout=DONE_MS)
    report = run(_analysis(web_hall.url, game, mine))
    assert report["variant"] == "zhaopengyou" and report["decisions"], report
    assert all(d["exact"] is False for d in report["decisions"])  # sampled, never solved
    expect(panel.locator(".an-list li")).to_have_count(len(report["decisions"]))
    first = report["decisions"][0]
    panel.locator(f".an-list li[data-ply='{first['ply']}'] button").first.click()
    expect(page.locator(".sc-replay")).to_have_attribute("data-step", str(first["ply"] + 1))
    expect(page.locator(".an-decision")).to_have_attribute("data-ply", str(first["ply"]))
    no_sideways_scroll(page)
    shot(page, "analysis-zhaopengyou-phone")
