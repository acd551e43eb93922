"""Two people at one private table, a reload mid-hand, a dropped connection, the keyboard."""

from __future__ import annotations

import contextlib
import json
import re
import time
from urllib.parse import urlparse

from playwright.sync_api import Browser, Page, WebSocketRoute, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.server.conftest import HallProcess
from tests.web.conftest import DESKTOP, Guard, PageMaker
from tests.web.helpers import api, enter_as_guest, play_until, quick_match, take_turn
from tests.web.proxy import CuttableProxy


def hand(page: Page) -> list[str]:
    return page.locator(".hand .card").evaluate_all("els => els.map(e => e.dataset.card)")


def frames(page: Page) -> list[str]:
    """Every WebSocket frame the page receives, from now on."""
    got: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: got.append(str(f))))
    return got


def private_table(owner: Page, friend: Page, room: str = "ddz3-humans") -> str:
    """The owner opens a private table (the invite survives his reload), the friend comes
    by the share link in a fresh browser (a guest is made), the owner starts: bots fill."""
    enter_as_guest(owner)
    owner.locator(f".room[data-room='{room}'] button:not(.primary)").click()
    expect(owner.locator(".invite .code")).to_have_text(re.compile(r"^[A-Z0-9]{4,12}$"))
    code = owner.locator(".invite .code").inner_text()
    link = owner.locator(".invite a.share").get_attribute("href") or ""
    assert link.endswith(f"#/join/{code}")
    owner.reload()
    expect(owner.locator(".invite .code")).to_have_text(code)
    friend.goto("/#" + urlparse(link).fragment)
    expect(friend.locator(".table .seat.pos-me")).to_be_visible()
    expect(owner.locator(".seat .name").filter(has_text="游客")).to_have_count(2)
    owner.locator("#start").click()
    expect(owner.locator(".hand .card").first).to_be_visible()
    expect(friend.locator(".hand .card").first).to_be_visible()
    return code


def my_turn(page: Page) -> bool:
    return page.locator(".controls button").count() > 0


def until_friends_turn(owner: Page, friend: Page) -> None:
    """Both take turns until the friend is to act in the play phase: the table then waits
    for a person, so whatever happens to the owner's page cannot race the game."""
    end = time.monotonic() + 120
    while time.monotonic() < end:
        if friend.locator(".table[data-phase='play']").count() and my_turn(friend):
            return
        if my_turn(owner):
            take_turn(owner)
        elif my_turn(friend):
            take_turn(friend)
        else:  # bots are acting: poll the two pages in turn for a person's turn
            with contextlib.suppress(PlaywrightTimeout):
                owner.wait_for_selector(".controls button", timeout=300)
    raise AssertionError("never reached the friend's turn in the play phase")


def test_two_people_at_a_private_table_see_only_their_own_hands(new_page: PageMaker) -> None:
    owner, friend = new_page(), new_page()
    owner_frames, friend_frames = frames(owner), frames(friend)
    private_table(owner, friend)
    expect(owner.locator(".hand .card")).to_have_count(17)
    expect(friend.locator(".hand .card")).to_have_count(17)
    mine, theirs = hand(owner), hand(friend)
    assert not set(mine) & set(theirs)  # one pack: every suited card is unique
    on_owner_page = set(owner.locator(".card").evaluate_all("els => els.map(e => e.dataset.card)"))
    assert on_owner_page.isdisjoint(theirs)
    for seen, other in ((owner_frames, theirs), (friend_frames, mine)):
        assert seen, "no frames captured"
        states = [m for m in map(json.loads, seen) if m["type"] == "state" and m["view"]]
        public = {m["view"]["detail"].get("flagged") for m in states}  # ddz3's shown card
        leaked = [c for c in other if c not in public and any(f'"{c}"' in f for f in seen)]
        assert not leaked, f"frames name the other's cards {leaked}"
    states = [m for m in map(json.loads, owner_frames) if m["type"] == "state" and m["view"]]
    assert states and all(set(m["view"]["hand"]) <= set(mine) for m in states)


def test_a_reload_mid_hand_restores_the_table(new_page: PageMaker) -> None:
    """Reloaded while the friend (a person, so the table waits) is to act: the page comes
    back at the same table with the same hand, and takes the seat back from 托管."""
    owner, friend = new_page(), new_page()
    private_table(owner, friend)
    until_friends_turn(owner, friend)
    before, url = hand(owner), owner.url
    owner.reload()
    expect(owner.locator(".table[data-phase='play']")).to_be_visible()
    assert owner.url == url
    expect(owner.locator(".hand .card")).to_have_count(len(before))
    assert hand(owner) == before
    expect(owner.locator("#auto")).to_have_attribute("aria-pressed", "false")
    take_turn(friend)  # and play goes on


def test_a_table_that_ends_as_the_page_reloads_leaves_it_in_the_lobby(
        desktop: Page) -> None:
    """Reloaded just as the game ends: the welcome names the table, but its settlement
    and its breaking up come before any state of it. The page has no table to draw the
    settlement on: it goes to the lobby and says the game ended, not "not at this
    table". The hall's order is forced here by holding the table's states back."""
    page = desktop
    enter_as_guest(page)
    quick_match(page, "ddz3-bots")
    table = page.url.rsplit("/", 1)[-1]
    reloaded = {"on": False}

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def incoming(message: str | bytes) -> None:
            msg = json.loads(message)
            if reloaded["on"] and msg.get("type") == "state" and msg.get("table") == table:
                return  # the game "ended" before the table could send its state
            ws.send(message)
            if reloaded["on"] and msg.get("type") == "welcome":
                ws.send(json.dumps({"type": "settled", "table": table, "game": "g",
                                    "result": {"winners": [1], "points": [-2, 4, -2]},
                                    "points": {}, "beans": {}, "balances": {}}))
                ws.send(json.dumps({"type": "left", "table": table, "reason": "dissolved"}))

        server.on_message(incoming)

    page.route_web_socket(re.compile(r"/ws$"), route)
    reloaded["on"] = True
    page.reload()
    page.wait_for_selector("#rooms[data-loaded='1']")
    assert "/table/" not in page.url
    # Said by the notice, or by the box of what happened while away if the hall's game
    # did end meanwhile (it takes the notice's place).
    expect(page.locator("#notice, #away").get_by_text(re.compile("牌局已结束")).first
           ).to_be_visible()
    expect(page.locator(".table")).to_have_count(0)


def test_a_dropped_connection_reconnects_with_a_notice(
        browser: Browser, web_hall: HallProcess, guard: Guard, new_page: PageMaker) -> None:
    """The owner's connection goes through a proxy that cuts it (no close frame) while the
    friend is to act: the page says it is reconnecting, reconnects, and the table is back."""
    target = urlparse(web_hall.url)
    with CuttableProxy(target.hostname or "127.0.0.1", target.port or 80) as proxy:
        ctx = browser.new_context(base_url=proxy.url, **DESKTOP)
        try:
            owner = ctx.new_page()
            guard.watch(owner)
            friend = new_page()
            private_table(owner, friend)
            until_friends_turn(owner, friend)
            before = hand(owner)
            owner.evaluate("""() => {  // every text the notice shows, however briefly
                window.notices = [];
                const el = document.getElementById("notice");
                new MutationObserver(() => window.notices.push(el.textContent))
                    .observe(el, {childList: true, characterData: true, subtree: true});
            }""")
            proxy.cut()
            owner.wait_for_function(  # a function: a bare expression is eval'd (CSP)
                "() => window.notices.some(t => t.includes('已重新连接'))")
            notices = owner.evaluate("window.notices")
            assert any("正在重连" in n for n in notices), notices
            assert proxy.cuts == 1
            expect(owner.locator(".hand .card")).to_have_count(len(before))
            assert hand(owner) == before
            expect(owner.locator("#auto")).to_have_attribute("aria-pressed", "false")
            take_turn(friend)
        finally:
            ctx.close()


def test_the_table_plays_with_the_keyboard_alone(desktop: Page) -> None:
    enter_as_guest(desktop)
    quick_match(desktop, "ddz3-bots")
    play_until(desktop, lambda p: p.locator(".table[data-phase='play'] #play").count() > 0)
    expect(desktop.locator(".keys")).to_contain_text("P 出牌")
    for _ in range(60):  # Tab along until a card of the hand has the focus
        desktop.keyboard.press("Tab")
        if desktop.evaluate("!!document.activeElement.closest('.hand')"):
            break
    else:
        raise AssertionError("Tab never reached the hand")
    desktop.keyboard.press("End")
    focused = desktop.evaluate("document.activeElement.getAttribute('aria-label')")
    last = desktop.locator(".hand .card").last
    assert focused == last.get_attribute("aria-label")
    before = desktop.locator(".table").get_attribute("data-seq")
    if desktop.locator("#pass").count():
        desktop.keyboard.press("h")  # 提示 picks a play that beats the table, if any
        desktop.keyboard.press("p" if desktop.locator("#play").is_enabled() else "x")
    else:
        desktop.keyboard.press("Space")
        expect(last).to_have_attribute("aria-pressed", "true")
        desktop.keyboard.press("p")
    desktop.wait_for_function("old => document.querySelector('.table').dataset.seq !== old",
                              arg=before)


def test_a_private_game_settles_for_points_not_beans(desktop: Page) -> None:
    """Platform ruling 14: the settlement of a private table's game shows 0 beans (it
    moved none) and the balance is what it was."""
    page = desktop
    enter_as_guest(page)
    before = api(page, "/api/me")["beans"]
    page.locator(".room[data-room='ddz3_happy-humans'] button:not(.primary)").click()
    expect(page.locator(".invite .code")).to_have_text(re.compile(r"^[A-Z0-9]{4,12}$"))
    page.locator("#start").click()
    expect(page.locator(".table[data-variant='ddz3_happy']")).to_be_visible()
    play_until(page, lambda p: p.locator(".settle").count() > 0)
    settle = page.locator(".settle")
    expect(settle).to_be_visible()
    expect(settle.locator("tr.me .beans")).to_have_text("0")
    assert api(page, "/api/me")["beans"] == before


def test_play_again_at_a_private_table_says_who_is_ready(new_page: PageMaker) -> None:
    """再来一局 at a private table (issue 26: it showed nothing): the one who asked waits,
    told who is awaited; the other sees him ready; the second ask deals the next game."""
    owner, friend = new_page(), new_page()
    private_table(owner, friend)
    end = time.monotonic() + 240
    while not (owner.locator(".settle").count() and friend.locator(".settle").count()):
        assert time.monotonic() < end, "the game never ended"
        if my_turn(owner) and not owner.locator(".settle").count():
            take_turn(owner)
        elif my_turn(friend) and not friend.locator(".settle").count():
            take_turn(friend)
        else:
            with contextlib.suppress(PlaywrightTimeout):
                owner.wait_for_selector(".controls button:enabled, .settle", timeout=300)
    friend_name = friend.locator(".seat.pos-me .name").inner_text()
    owner.locator("#again").click()
    expect(owner.locator("#again")).to_be_disabled()
    expect(owner.locator("#again")).to_have_text("等待其他玩家…")
    expect(owner.locator(".again-status")).to_have_text(
        f"再来一局：1/2 人已准备，等待 {friend_name}")
    expect(friend.locator(".again-status")).to_have_text("再来一局：1/2 人已准备")
    expect(friend.locator("#again")).to_be_enabled()
    friend.locator("#again").click()
    for page in (owner, friend):
        expect(page.locator(".settle")).to_have_count(0)
        expect(page.locator(".hand .card").first).to_be_visible()
