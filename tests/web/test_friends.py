"""好友 in real Chromium against a real hall (issue 22): two registered players in two
browser contexts (one a desktop, one a phone) find each other, one asks, the other is
told and accepts, each sees the other online; one opens a private table and invites the
other from the friends screen, who gets the prompt and joins the table by it."""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import Page, expect

from cardhall.client import HallClient
from tests.server.conftest import HallProcess
from tests.web.conftest import DESKTOP, PHONE, PageMaker, axe_check, shot
from tests.web.helpers import login, run

PASSWORD = "friendly-pw"
ROOM = "ddz3-humans"


async def _register(url: str, name: str) -> None:
    async with HallClient(url) as c:
        await c.register(name, PASSWORD)


def friends_screen(page: Page) -> None:
    page.goto("/#/friends")
    expect(page.locator(".sc-friends[data-loaded='1']")).to_have_count(1)


def test_two_friends_find_ask_accept_and_bring(new_page: PageMaker,
                                               web_hall: HallProcess) -> None:
    tag = secrets.token_hex(2)
    ann_name, ben_name = f"Ann{tag}", f"Ben{tag}"
    run(_register(web_hall.url, ann_name))
    run(_register(web_hall.url, ben_name))
    ann, ben = new_page(DESKTOP), new_page(PHONE)
    login(ann, ann_name, PASSWORD)
    login(ben, ben_name, PASSWORD)

    friends_screen(ann)
    ann.get_by_label("按名字找玩家").fill(ben_name.lower()[:4])  # a prefix finds him
    ann.get_by_role("button", name="查找").click()
    found = ann.locator(".fr-found .fr-row", has_text=ben_name)
    found.get_by_role("button", name="加好友").click()
    expect(ann.locator(".sc-status")).to_have_text("好友请求已发送")
    expect(ann.locator(".fr-outgoing .fr-row", has_text=ben_name)).to_have_count(1)

    friends_screen(ben)
    expect(ben.locator("#notice")).to_contain_text(f"{ann_name} 想加你为好友")
    shot(ben, "friends-request-phone")
    axe_check(ben)
    ben.locator(".fr-incoming .fr-row", has_text=ann_name).get_by_role(
        "button", name="接受").click()
    row = ben.locator(".fr-friends .fr-row", has_text=ann_name)
    expect(row.locator(".fr-where")).to_have_text("在线")
    expect(ann.locator("#notice")).to_contain_text(f"{ben_name} 接受了你的好友请求")
    expect(ann.locator(".fr-friends .fr-row", has_text=ben_name)).to_have_count(1)

    # Ann opens a private table, comes back to 好友 and invites Ben from there.
    ann.goto("/#/")
    ann.locator(f".room[data-room='{ROOM}'] button", has_text="好友房").click()
    expect(ann.locator(".table .invite .code")).to_be_visible()
    code = ann.locator(".table .invite .code").inner_text()
    friends_screen(ann)
    ben_row = ann.locator(".fr-friends .fr-row", has_text=ben_name)
    expect(ben_row.locator(".fr-dot.on")).to_have_count(1)
    shot(ann, "friends-desktop")
    axe_check(ann)
    ben_row.get_by_role("button", name="邀请").click()
    prompt = ben.locator(".fr-prompt")
    expect(prompt).to_contain_text(f"{ann_name} 邀请你加入牌桌")
    shot(ben, "friends-invite-phone")
    prompt.get_by_role("button", name="加入").click()
    expect(ben).to_have_url(re.compile(r"#/table/t[0-9a-f]+$"))
    expect(ben.locator(".table .invite .code")).to_have_text(code)
    # Back on 好友, Ann sees Ben at a table (hers).
    friends_screen(ben)
    expect(ben.locator(".fr-friends .fr-row", has_text=ann_name).locator(".fr-where")
           ).to_have_text("在牌桌")
    shot(ben, "friends-phone")
    # The same screen in English.
    ann.locator("#lang").click()
    friends_screen(ann)
    expect(ann.locator(".fr-friends .fr-row", has_text=ben_name).locator(".fr-where")
           ).to_have_text("At a table")
    expect(ann.get_by_role("heading", name="My friends (1)")).to_be_visible()
    shot(ann, "friends-desktop-en")


async def _friends(url: str, a: str, b: str) -> None:
    """``a`` and ``b`` registered and friends (through HTTP only: neither is online)."""
    async with HallClient(url) as ca, HallClient(url) as cb:
        await ca.register(a, PASSWORD)
        await cb.register(b, PASSWORD)
        assert cb.player
        await ca.post("/api/friends/ask", {"player": cb.player["id"]})
        assert ca.player
        await cb.post("/api/friends/accept", {"player": ca.player["id"]})


def test_the_friends_screen_follows_friends_coming_and_going(
        new_page: PageMaker, web_hall: HallProcess) -> None:
    """Nothing is pushed when a friend comes online: the screen reads the list again
    every 15 s while it is shown and when the page is visible again, and no more once
    it is left (the page's clock is Playwright's: time is moved, not waited for)."""
    tag = secrets.token_hex(2)
    cat_name, dan_name = f"Cat{tag}", f"Dan{tag}"
    run(_friends(web_hall.url, cat_name, dan_name))
    cat = new_page(DESKTOP)
    cat.clock.install()
    login(cat, cat_name, PASSWORD)
    friends_screen(cat)
    where = cat.locator(".fr-friends .fr-row", has_text=dan_name).locator(".fr-where")
    expect(where).to_have_text("离线")
    dan = new_page(PHONE)
    login(dan, dan_name, PASSWORD)  # online now: Cat is told nothing
    cat.clock.fast_forward(16_000)
    expect(where).to_have_text("在线")
    dan.close()  # offline again: seen as soon as Cat's page is visible again
    for _ in range(20):  # (once the hall has seen his socket close: a moment)
        cat.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        try:
            expect(where).to_have_text("离线", timeout=300)
            break
        except AssertionError:
            continue
    else:
        raise AssertionError("the page visible again did not read the list again")
    # Left, the screen reads nothing more.
    reads: list[str] = []
    cat.on("request", lambda r: reads.append(r.url) if "/api/friends" in r.url else None)
    cat.goto("/#/")
    expect(cat.locator("#app[data-screen='lobby']")).to_have_count(1)
    for _ in range(3):
        cat.clock.fast_forward(16_000)
    cat.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    cat.evaluate("1")  # a round trip: the page's requests so far have been reported
    assert reads == []
