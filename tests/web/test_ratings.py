"""A guest sees his skill rating change after a game (issue 21), at desktop and phone
size: the settlement shows his rating before → after and every seat's (the bots' too),
as the hall's ``settled`` says; 我的 shows each variant's rating, provisional ("?"), with
its history drawn; the leaderboard ranks by rating (all-time only). Then the same in
English, without Chinese. Screenshots: build/screenshots/rating-*-{desktop,phone}.png.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import UTC, datetime

import pytest
from playwright.sync_api import Page, expect

from tests.server.conftest import HallProcess
from tests.web.conftest import DESKTOP, PHONE, PageMaker, shot
from tests.web.helpers import api, enter_as_guest, play_until, quick_match
from tests.web.settlement_checks import english_without_chinese, watch

END_MS = 240_000


def _no_sideways_scroll(page: Page) -> None:
    wide = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert wide <= 0, f"the page scrolls sideways by {wide} px"


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_player_sees_his_rating_change_and_its_chart(new_page: PageMaker, size: str) -> None:
    page = new_page(DESKTOP if size == "desktop" else PHONE)
    wire = watch(page)
    enter_as_guest(page)
    quick_match(page, "ddz3-bots")
    play_until(page, lambda p: False)
    page.wait_for_selector(".settle[data-settled='1']", timeout=END_MS)
    settled = wire.settled()
    settle = page.locator(".settle")
    seat = settle.locator(".sx-seats tr.me").get_attribute("data-seat") or ""
    mine = settled["ratings"][seat]
    assert mine["before"] == 1500 and mine["provisional"] and mine["games"] == 1
    line = settle.locator(".sx-my-rating")
    expect(line).to_contain_text(f"1500 → {mine['after']}?")
    expect(line).to_have_attribute("data-delta", str(mine["after"] - mine["before"]))
    for key, change in settled["ratings"].items():  # every rated seat, a bot's too
        expect(settle.locator(f".sx-seats tr[data-seat='{key}'] .sx-rating")).to_contain_text(
            "等级分 " + str(change["after"]) + ("?" if change["provisional"] else ""))
    expect(settle.locator(".sx-seats .sx-rating")).to_have_count(len(settled["ratings"]))
    shot(page, f"rating-settle-{size}")
    # The replay's board says the same.
    page.goto(f"/#/replay/{settled['game']}/100000")
    box = page.locator(".sc-replay[data-loaded='1'] .sc-result-box")
    expect(box.locator(".sx-my-rating")).to_contain_text(f"1500 → {mine['after']}?")
    expect(box.locator(".sx-seats .sx-rating")).to_have_count(len(settled["ratings"]))

    page.goto("/#/profile")
    table = page.locator(".sc-profile[data-loaded='1'] .sc-ratings")
    expect(table).to_be_visible()
    expect(table.locator("tbody tr")).to_have_count(2)
    for variant in ("all", "ddz3"):
        row = table.locator(f"tr[data-variant='{variant}']")
        expect(row).to_have_attribute("data-provisional", "1")
        expect(row.locator(".sc-rating")).to_have_text(f"{mine['after']}?")
        expect(row.locator("svg.rt-chart")).to_have_attribute("data-games", "1")
        expect(row.locator("svg.rt-chart polyline")).to_have_count(1)
    stored = api(page, "/api/ratings")
    assert stored["ratings"]["ddz3"]["history"][-1]["rating"] == mine["after"]
    table.scroll_into_view_if_needed()
    _no_sideways_scroll(page)
    shot(page, f"rating-profile-{size}")

    page.goto("/#/leaderboard/ddz3/rating/week")
    board = page.locator(".sc-leaderboard[data-loaded='ddz3/rating/all']")
    expect(board).to_be_attached()
    expect(page.locator("#lb-period")).to_be_disabled()
    expect(page.locator("#lb-note")).to_contain_text("10")
    ids = [r["id"] for r in api(page, "/api/leaderboard?by=rating&variant=ddz3")["rows"]]
    expect(page.locator(".sc-board tbody tr")).to_have_count(len(ids))  # may be empty
    shot(page, f"rating-board-{size}")

    page.goto("/#/profile")
    expect(page.locator(".sc-profile[data-loaded='1'] .sc-ratings")).to_be_visible()
    page.locator("#lang").click()
    ratings = page.locator(".sc-ratings")
    expect(ratings.locator("caption")).to_have_text("Skill ratings")
    expect(ratings.locator("tr[data-variant='all'] th")).to_have_text("Overall")
    english_without_chinese(ratings, [])
    if size == "desktop":
        shot(page, f"rating-profile-{size}-en")
    page.locator("#lang").click()


def _seed_ratings(hall: HallProcess, rows: list[tuple[str, float, float, int]]) -> None:
    """Settled ratings written straight into the hall's database (ten games each would
    take minutes): (subject, μ, σ, games), in ddz3 and overall."""
    now = datetime.now(UTC).replace(tzinfo=None).isoformat(sep=" ")
    with closing(sqlite3.connect(hall.db_url.removeprefix("sqlite:///"))) as db, db:
        for subject, mu, sigma, games in rows:
            for variant in ("ddz3", "all"):
                db.execute("INSERT OR REPLACE INTO ratings (subject, variant, mu, sigma, games, "
                           "updated) VALUES (?, ?, ?, ?, ?, ?)",
                           (subject, variant, mu, sigma, games, now))


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_leaderboard_ranks_by_rating_with_the_bots(new_page: PageMaker,
                                                        web_hall: HallProcess, size: str) -> None:
    page = new_page(DESKTOP if size == "desktop" else PHONE)
    enter_as_guest(page)
    me = api(page, "/api/me")["id"]
    _seed_ratings(web_hall, [(me, 31.0, 2.5, 12), ("bot:planning", 29.0, 2.0, 400)])
    page.goto("/#/leaderboard/ddz3/rating/all")
    expect(page.locator(".sc-leaderboard[data-loaded='ddz3/rating/all']")).to_be_attached()
    rows = api(page, "/api/leaderboard?by=rating&variant=ddz3")["rows"]
    ids = [r["id"] for r in rows]
    assert ids.index(me) < ids.index("bot:planning")  # μ 31 > 29
    mine = page.locator(f".sc-board tr[data-player='{me}']")
    expect(mine).to_have_attribute("aria-current", "true")
    expect(mine).to_contain_text(str(round(1500 + 40 * (31.0 - 25.0))))
    bot = page.locator(".sc-board tr[data-player='bot:planning']")
    expect(bot.locator("th")).to_have_text("机器人 规划")
    _no_sideways_scroll(page)
    shot(page, f"rating-board-rows-{size}")
    page.locator("#lang").click()
    expect(bot.locator("th")).to_have_text("Bot planning")
    english_without_chinese(page.locator(".sc-board"), [])
    page.locator("#lang").click()
