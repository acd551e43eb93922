"""我的 → 账号安全 in Chromium: the sessions list with its revoke buttons, the password
change, and a page whose session ended (revoked, password changed, expired) told so and
sent to the login form, not left blank."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from playwright.sync_api import Page, expect
from sqlalchemy import update

from cardhall.client import HallClient
from cardhall.hall.store.db import Database
from cardhall.hall.store.models import Session
from cardhall.hall.store.sessions import hash_token
from tests.server.conftest import HallProcess
from tests.web.conftest import Guard, PageMaker
from tests.web.helpers import login, open_lobby, run

PASSWORD, NEW_PASSWORD = "first secret", "second secret"


def _register(url: str, name: str) -> None:
    async def go() -> None:
        async with HallClient(url) as c:
            await c.register(name, PASSWORD)
            await c.post("/api/logout")  # only the browsers' sessions are listed
    run(go())


def _sessions(page: Page) -> None:
    page.goto("/#/")  # from the profile too: the list is drawn anew
    page.goto("/#/profile")
    expect(page.locator("#sessions[data-loaded='1']")).to_have_count(1)


def _told_to_log_in(page: Page, words: str) -> None:
    expect(page.locator("#notice")).to_contain_text(words)
    expect(page.locator("#app[data-screen='login']")).to_have_count(1)
    expect(page.get_by_label("用户名")).to_be_visible()
    expect(page.locator("#who")).to_have_text("")


def test_revoke_a_device_and_change_the_password(new_page: PageMaker, web_hall: HallProcess,
                                                 guard: Guard) -> None:
    guard.allow(r"status of 401")  # the ended sessions' refusals, provoked on purpose
    _register(web_hall.url, "Keeper7")
    mine, other = new_page(), new_page()
    login(mine, "Keeper7", PASSWORD)
    login(other, "Keeper7", PASSWORD)
    _sessions(mine)
    rows = mine.locator("#sessions tbody tr")
    expect(rows).to_have_count(2)
    expect(mine.locator("#sessions tr[data-current='1']")).to_contain_text("本设备")
    # Log the other device out: its open page is told and shown the login form.
    mine.locator("#sessions tr[data-current='0'] button.sc-revoke").click()
    expect(mine.locator("#security-status")).to_have_text("已让那台设备下线。")
    expect(rows).to_have_count(1)
    _told_to_log_in(other, "此设备的登录已结束")
    # The password change: a wrong current password is refused, then the other device
    # (logged in again) is logged out and this one stays.
    login(other, "Keeper7", PASSWORD)
    _sessions(mine)
    expect(rows).to_have_count(2)
    mine.get_by_label("当前密码").fill("not the password")
    mine.get_by_label("新密码").fill(NEW_PASSWORD)
    mine.get_by_label("再输一次密码").fill(NEW_PASSWORD)
    mine.get_by_role("button", name="修改密码").click()
    expect(mine.locator("#security-status")).to_have_text("当前密码不对。")
    mine.get_by_label("当前密码").fill(PASSWORD)
    mine.get_by_label("新密码").fill(NEW_PASSWORD)
    mine.get_by_label("再输一次密码").fill(NEW_PASSWORD)
    mine.get_by_role("button", name="修改密码").click()
    expect(mine.locator("#security-status")).to_have_text("密码已修改，其他 1 台设备已下线。")
    expect(rows).to_have_count(1)
    _told_to_log_in(other, "此设备的登录已结束")
    login(other, "Keeper7", NEW_PASSWORD)
    expect(mine.locator("#who")).to_contain_text("Keeper7")  # still logged in


def test_an_expired_session_goes_to_the_login_form(new_page: PageMaker, web_hall: HallProcess,
                                                   guard: Guard) -> None:
    guard.allow(r"status of 401")
    _register(web_hall.url, "Sleeper7")
    page = new_page()
    login(page, "Sleeper7", PASSWORD)
    token = page.evaluate("localStorage.getItem('cardhall.token')")

    async def age() -> None:
        db = Database.open(web_hall.db_url)
        try:
            async with db.transaction() as s:
                await s.execute(update(Session).where(Session.token_hash == hash_token(token))
                                .values(created=datetime.now(UTC) - timedelta(days=31)))
        finally:
            await db.close()
    run(age())
    page.goto("about:blank")
    page.goto("/#/history")  # a screen that needs the session, in a page loaded afresh
    _told_to_log_in(page, "登录已过期")
    login(page, "Sleeper7", PASSWORD)


def test_the_panel_in_english_and_for_a_guest(new_page: PageMaker) -> None:
    page = new_page()
    open_lobby(page)
    page.get_by_role("button", name="游客进入").click()
    expect(page.locator("#who")).to_contain_text("游客")
    page.locator("#lang").click()
    _sessions(page)
    expect(page.locator("#sec-h")).to_have_text("Security")
    expect(page.locator("#sessions tr[data-current='1'] button")).to_have_text(
        "Log this device out")
    expect(page.locator("#password-form")).to_have_count(0)
    expect(page.locator(".sc-security .sc-note")).to_contain_text("A guest has no password")
