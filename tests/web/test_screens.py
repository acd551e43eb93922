"""The secondary screens in real Chromium against a real hall: accounts, profile and
relief, leaderboards, history and the replay viewer, the rules pages.

A seeded player (registered and one ``ddz3`` game played through the protocol with
``HallClient``, bots in the other seats) gives the boards, the history and the replay
something to show. The hall's relief is for balances below 12 000 beans, so a new
player (10 000) is granted it once and then refused with a reason.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from cardhall.client import HallClient
from cardhall.games import VARIANTS, replay
from tests.server.conftest import HallProcess, running_hall
from tests.server.play import play_out, seat, vacate
from tests.web.conftest import DESKTOP, PHONE, Guard, PageMaker, axe_check, shot
from tests.web.helpers import enter_as_guest, login, open_lobby, run

RELIEF_BELOW = 12_000
PASSWORD = "seeded-pw"


@pytest.fixture(scope="module")
def web_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    yield from running_hall(tmp_path_factory.mktemp("screens"),
                            extra=f"[economy.relief]\nbelow = {RELIEF_BELOW}\n")


@dataclass
class Seeded:
    name: str
    token: str
    id: str
    games: list[str]  # in the order played

    @property
    def game(self) -> str:
        return self.games[0]


async def _seed(url: str, name: str, variant: str = "ddz3", games: int = 1) -> Seeded:
    """A registered player who has played ``games`` games of ``variant`` against bots."""
    room = f"{variant}-bots"
    played = []
    async with HallClient(url, timeout=20) as c:
        await c.register(name, PASSWORD)
        await c.connect()
        for n in range(games):
            table, (first,) = await seat([c], room)
            await play_out([c], table, seed=7 + n, timeout=240)
            await vacate([c], table, room)
            played.append(first["game"])
        assert c.token is not None and c.player is not None
        return Seeded(name, c.token, c.player["id"], played)


async def _get(url: str, token: str | None, path: str) -> Any:
    async with HallClient(url, token) as c:
        return await c.get(path)


@pytest.fixture(scope="module")
def seeded(web_hall: HallProcess) -> Seeded:
    done: Seeded = run(_seed(web_hall.url, "Seeded1", games=2))
    return done


@pytest.fixture(scope="module", params=["baohuang", "zhaopengyou"])
def seeded_five(web_hall: HallProcess, request: pytest.FixtureRequest) -> Seeded:
    """A five-player game for the phone layout: 保皇 (4 packs, 33–34 cards a hand) and
    找朋友 (3 packs, tricks on the table)."""
    done: Seeded = run(_seed(web_hall.url, f"Five{request.param[:6]}", request.param))
    return done


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth - document.documentElement"
                          ".clientWidth")
    assert width <= 0, f"the page scrolls sideways by {width} px"


#: The screens' own controls; links inside running text are exempt (WCAG 2.5.8, inline).
CONTROLS = "button, input, select, a.sc-button, a.sc-game, .sc-rules-nav a"


def touch_targets(page: Page) -> None:
    """Every control of the screen is at least 44 × 44 px."""
    small = page.locator("main").evaluate(f"""main => [...main.querySelectorAll(
        '{CONTROLS}')].filter(e => !e.closest('.card') && e.offsetParent)
        .map(e => [e.textContent.trim() || e.getAttribute('aria-label'),
                   e.getBoundingClientRect()])
        .filter(([, r]) => r.height < 44 || r.width < 44)
        .map(([n, r]) => `${{n}} ${{r.width}}x${{r.height}}`)""")
    assert not small, small


def test_register_log_out_and_log_in(desktop: Page, guard: Guard) -> None:
    # the refusals this test provokes on purpose, which Chromium logs as failed loads
    guard.allow(r"status of (400|401|409) .*/api/(register|login)")
    enter_as_guest(desktop)
    guest_beans = desktop.locator("#who").inner_text()
    desktop.goto("/#/register")
    expect(desktop.locator(".sc-note")).to_contain_text("游客")
    desktop.get_by_label("用户名").fill("x")
    desktop.get_by_label("密码", exact=True).fill("long enough")
    desktop.get_by_label("再输一次密码").fill("long enough")
    desktop.get_by_role("button", name="注册", exact=True).click()
    expect(desktop.locator(".sc-status")).to_contain_text("名字要 2–16 个字")
    desktop.get_by_label("用户名").fill("Newbie1")
    desktop.get_by_label("再输一次密码").fill("something else")
    desktop.get_by_role("button", name="注册", exact=True).click()
    expect(desktop.locator(".sc-status")).to_contain_text("两次输入的密码不一样")
    desktop.get_by_label("再输一次密码").fill("long enough")
    shot(desktop, "register-desktop")
    desktop.get_by_role("button", name="注册", exact=True).click()
    expect(desktop.locator("#prof-name")).to_have_text("Newbie1")
    # the guest became the account: his beans came along (the header shows them)
    assert re.findall(r"\d[\d,]*", desktop.locator("#who").inner_text())[-1] == \
        re.findall(r"\d[\d,]*", guest_beans)[-1]
    desktop.get_by_role("button", name="退出登录").click()
    expect(desktop.locator("#who")).to_have_text("")
    expect(desktop.locator("#app[data-screen='lobby']")).to_have_count(1)
    desktop.goto("/#/login")
    desktop.get_by_label("用户名").fill("Newbie1")
    desktop.get_by_label("密码").fill("wrong one")
    desktop.get_by_role("button", name="登录", exact=True).click()
    expect(desktop.locator(".sc-status")).to_have_text("用户名或密码不对。")
    shot(desktop, "login-desktop")
    desktop.get_by_label("密码").fill("long enough")
    desktop.get_by_role("button", name="登录", exact=True).click()
    expect(desktop.locator("#who")).to_contain_text("Newbie1")
    expect(desktop.locator("#app[data-screen='lobby']")).to_have_count(1)
    desktop.goto("/#/register")
    desktop.get_by_role("button", name="退出登录").click()  # a registered player: no form
    expect(desktop.locator("#who")).to_have_text("")
    expect(desktop.locator("#app[data-screen='lobby']")).to_have_count(1)
    desktop.goto("/#/register")
    desktop.get_by_label("用户名").fill("newbie1")
    desktop.get_by_label("密码", exact=True).fill("long enough")
    desktop.get_by_label("再输一次密码").fill("long enough")
    desktop.get_by_role("button", name="注册", exact=True).click()
    expect(desktop.locator(".sc-status")).to_have_text(
        "这个名字（或和它看起来一样的名字）已经有人用了，换一个吧。")


def _stat(page: Page, key: str) -> str:
    return page.locator(f"[data-stat='{key}'] dd").inner_text()


def _number(text: str) -> int:
    return int(text.replace(",", "").replace("+", "").replace("−", "-"))


def both_sizes(new_page: PageMaker, who: Seeded, where: str, loaded: str) -> Iterator[
        tuple[Page, str]]:
    """(page, size) at desktop and phone size: logged in as ``who``, at ``where`` once
    ``loaded`` (a selector) shows."""
    for kind, size in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page = new_page(kind)
        login(page, who.name, PASSWORD)
        page.goto(where)
        expect(page.locator(loaded)).to_have_count(1)
        yield page, size


def test_profile_shows_what_the_server_has(new_page: PageMaker, web_hall: HallProcess,
                                           seeded: Seeded) -> None:
    for page, size in both_sizes(new_page, seeded, "/#/profile", ".sc-profile[data-loaded='1']"):
        me = run(_get(web_hall.url, seeded.token, "/api/me"))
        assert _number(_stat(page, "beans")) == me["beans"]
        assert _number(_stat(page, "points")) == me["points"]
        assert _stat(page, "title") == me["title"]
        assert _stat(page, "level") == f"{me['level']} 级"
        assert _number(_stat(page, "golden_eyes")) == me["golden_eyes"]
        row = page.locator(".sc-record tr[data-variant='ddz3'] td")
        rec = me["record"]["ddz3"]
        assert [_number(row.nth(i).inner_text()) for i in (0, 2, 3)] == [
            rec["games"], rec["points"], rec["beans"]]
        assert row.nth(1).inner_text().startswith(f"{rec['wins']} (")
        assert page.locator(".sc-record tr[data-variant='ddz3'] th").inner_text() == "三人斗地主"
        bar = page.get_by_role("progressbar", name="升级进度")
        expect(bar).to_have_attribute("aria-valuetext", re.compile(r"还差 [\d,]+ 分升级"))
        no_sideways_scroll(page)
        touch_targets(page)
        shot(page, f"profile-{size}")
        axe_check(page)


def test_relief_is_granted_then_refused_with_the_reason(desktop: Page, guard: Guard) -> None:
    guard.allow(r"status of 409 .*/api/relief")  # the refusal provoked on purpose
    enter_as_guest(desktop)
    desktop.goto("/#/profile")
    relief = desktop.locator("#relief")
    expect(relief).to_have_text("领取救济（今天还有 3 次）")
    relief.click()
    expect(desktop.locator(".sc-status")).to_contain_text("已领取救济，现在有 12,000 欢乐豆")
    expect(desktop.locator("#relief-left")).to_have_text("今天还能领 2 次")
    assert _number(_stat(desktop, "beans")) == 12_000
    desktop.locator("#relief").click()
    expect(desktop.locator(".sc-status")).to_have_text(
        "欢乐豆少于 12,000 才能领救济，您现在有 12,000。")
    assert _number(_stat(desktop, "beans")) == 12_000
    expect(desktop.locator("#relief-left")).to_have_text("今天还能领 2 次")


def test_leaderboard_shows_the_player_after_his_game(new_page: PageMaker,
                                                      web_hall: HallProcess,
                                                      seeded: Seeded) -> None:
    for page, size in both_sizes(new_page, seeded, "/#/leaderboard/ddz3/points/all",
                                 ".sc-leaderboard[data-loaded='ddz3/points/all']"):
        board = run(_get(web_hall.url, None, "/api/leaderboard?variant=ddz3&by=points"))
        mine = next(r for r in board["rows"] if r["id"] == seeded.id)
        row = page.locator(f"tr[data-player='{seeded.id}']")
        expect(row).to_have_class("me")
        cells = row.locator("td")
        assert (cells.nth(0).inner_text(), _number(cells.nth(2).inner_text()),
                cells.nth(1).inner_text()) == (str(mine["rank"]), mine["value"], mine["title"])
        page.get_by_label("排行", exact=True).select_option("beans")
        page.get_by_label("时间").select_option("week")
        expect(page.locator(".sc-leaderboard[data-loaded='ddz3/beans/week']")).to_have_count(1)
        assert page.evaluate("location.hash") == "#/leaderboard/ddz3/beans/week"
        expect(page.locator(f"tr[data-player='{seeded.id}']")).to_have_class("me")
        page.reload()  # opened before the shell knows who is logged in: still marked
        expect(page.locator(".sc-leaderboard[data-loaded='ddz3/beans/week']")).to_have_count(1)
        expect(page.locator(f"tr[data-player='{seeded.id}']")).to_have_class("me")
        no_sideways_scroll(page)
        touch_targets(page)
        shot(page, f"leaderboard-{size}")
        axe_check(page)


def _shown_hands(page: Page) -> list[Counter[str]]:
    hands = page.locator(".sc-seat").evaluate_all(
        "els => els.map(e => [...e.querySelectorAll('.sc-hand .card')]"
        ".map(c => c.dataset.card))")
    return [Counter(h) for h in hands]


def test_history_and_replay_through_every_action(new_page: PageMaker, web_hall: HallProcess,
                                                  seeded: Seeded) -> None:
    stored = run(_get(web_hall.url, None, f"/api/games/{seeded.game}"))
    record = stored["record"]
    actions = record["actions"]
    page = new_page(DESKTOP)
    login(page, seeded.name, PASSWORD)
    page.goto("/#/history")
    expect(page.locator(".sc-history[data-loaded='1']")).to_have_count(1)
    page.reload()
    expect(page.locator(".sc-history[data-loaded='1']")).to_have_count(1)
    listed = page.locator(".sc-games li").evaluate_all("els => els.map(e => e.dataset.game)")
    assert listed == seeded.games[::-1]  # newest first
    item = page.locator(f".sc-games li[data-game='{seeded.game}'] a")
    expect(item).to_contain_text("三人斗地主")
    shot(page, "history-desktop")
    axe_check(page)
    item.click()
    expect(page.locator(".sc-replay[data-loaded='1']")).to_have_count(1)
    section = page.locator(".sc-replay")
    assert section.get_attribute("data-last") == str(len(actions))
    forward = page.get_by_role("button", name="下一步")
    for step in range(len(actions) + 1):
        expect(section).to_have_attribute("data-step", str(step))
        state = replay({**record, "actions": actions[:step]})
        want: list[Counter[str]] = [Counter(state.observe(s)["hand"]) for s in range(state.players)]
        assert _shown_hands(page) == want, f"step {step}"
        if step < len(actions):
            forward.click()
    expect(forward).to_be_disabled()
    result = stored["result"]
    rows = page.locator(".sc-result-box tbody tr")
    for s, points in enumerate(result["points"]):
        got = rows.nth(s).locator("td").nth(1).inner_text()
        assert _number(got) == points
    beans = rows.nth(stored["players"].index(seeded.id)).locator("td").nth(2).inner_text()
    assert _number(beans) == stored["beans"][str(stored["players"].index(seeded.id))]
    shot(page, "replay-desktop")
    axe_check(page)
    page.keyboard.press("ArrowLeft")
    expect(section).to_have_attribute("data-step", str(len(actions) - 1))
    page.get_by_role("button", name="上一步").click()
    expect(section).to_have_attribute("data-step", str(len(actions) - 2))
    page.keyboard.press("Home")
    expect(section).to_have_attribute("data-step", "0")
    page.get_by_role("slider", name="步数").fill(str(len(actions) // 2))
    expect(section).to_have_attribute("data-step", str(len(actions) // 2))
    page.keyboard.press("End")
    expect(section).to_have_attribute("data-step", str(len(actions)))
    page.get_by_role("button", name="上一步").click()
    page.get_by_role("button", name="Switch to English").click()  # redrawn at the same step
    expect(page.get_by_role("button", name="Step forward")).to_be_enabled()
    expect(page.locator(".sc-replay")).to_have_attribute("data-step", str(len(actions) - 1))
    phone = new_page(PHONE)
    login(phone, seeded.name, PASSWORD)
    phone.goto(f"/#/replay/{seeded.game}/{len(actions) // 2}")
    expect(phone.locator(".sc-replay")).to_have_attribute("data-step", str(len(actions) // 2))
    no_sideways_scroll(phone)
    touch_targets(phone)
    shot(phone, "replay-phone")


def test_a_live_or_unknown_game_has_no_replay(desktop: Page, guard: Guard) -> None:
    guard.allow(r"status of 404 .*/api/games/nope/replay")
    enter_as_guest(desktop)
    desktop.goto("/#/replay/nope")
    expect(desktop.get_by_text("没有这局牌")).to_be_visible()


def test_rules_in_both_languages(new_page: PageMaker) -> None:
    for kind, size in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page = new_page(kind)
        open_lobby(page)
        page.goto("/#/rules/ddz3")
        expect(page.locator(".sc-rules[data-loaded='ddz3'] h1")).to_have_text(
            "玩法规则 · 三人斗地主")
        expect(page.locator(".sc-rules-text")).to_contain_text("叫分")
        links = page.locator(".sc-rules-nav a").evaluate_all(
            "els => els.map(e => e.getAttribute('href'))")
        assert {f"#/rules/{v}" for v in VARIANTS} <= set(links)
        no_sideways_scroll(page)
        touch_targets(page)
        shot(page, f"rules-zh-{size}")
        axe_check(page)
        page.get_by_role("button", name="Read in English").click()
        expect(page.locator(".sc-rules[data-loaded='ddz3'] h1")).to_have_text(
            "Rules · Classic Dou Dizhu")
        expect(page.locator(".sc-rules-text")).to_contain_text("bid")
        shot(page, f"rules-en-{size}")
        page.get_by_text("All games").click()  # the list folds away while a page is open
        page.get_by_role("link", name="Protect the Emperor").click()
        expect(page.locator(".sc-rules[data-loaded='baohuang'] h1")).to_have_text(
            "Rules · Protect the Emperor")
        page.get_by_role("button", name="看中文").click()
        expect(page.locator(".sc-rules[data-loaded='baohuang'] h1")).to_have_text(
            "玩法规则 · 保皇")


def test_a_five_player_replay_fits_a_phone(new_page: PageMaker, web_hall: HallProcess,
                                           seeded_five: Seeded) -> None:
    stored = run(_get(web_hall.url, None, f"/api/games/{seeded_five.game}"))
    record, actions = stored["record"], stored["record"]["actions"]
    for page, size in both_sizes(new_page, seeded_five, f"/#/replay/{seeded_five.game}/9",
                                 ".sc-replay[data-loaded='1']"):
        for step in (9, len(actions)):
            if step == len(actions):
                page.get_by_role("button", name="最后一步").click()
            expect(page.locator(".sc-replay")).to_have_attribute("data-step", str(step))
            state = replay({**record, "actions": actions[:step]})
            assert _shown_hands(page) == [Counter(state.observe(s)["hand"]) for s in range(5)]
            no_sideways_scroll(page)
        page.get_by_role("button", name="第一步").click()
        expect(page.locator(".sc-seat")).to_have_count(5)
        page.get_by_role("slider", name="步数").fill(str(len(actions) * 2 // 3))
        shot(page, f"replay-{stored['variant']}-{size}")


def test_forms_and_history_fit_a_phone(new_page: PageMaker, seeded: Seeded) -> None:
    page = new_page(PHONE)
    enter_as_guest(page)
    for screen in ("register", "login"):
        page.goto(f"/#/{screen}")
        expect(page.locator(f".sc-{screen} form")).to_be_visible()
        no_sideways_scroll(page)
        touch_targets(page)
        shot(page, f"{screen}-phone")
    axe_check(page)
    for page, size in both_sizes(new_page, seeded, "/#/history",
                                 ".sc-history[data-loaded='1']"):
        no_sideways_scroll(page)
        touch_targets(page)
        if size == "phone":
            shot(page, "history-phone")
