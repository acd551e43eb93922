"""The page under its Content-Security-Policy, and a hash route it cannot decode.

Every test of tests/web fails on a CSP violation (conftest's guard); these check that
the policy is really sent and enforced, and that the screens which once set inline
styles draw without one.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.conftest import Guard, PageMaker
from tests.web.helpers import enter_as_guest, open_lobby


def violations(page: Page) -> list[str]:
    found: list[str] = page.evaluate("window.cspViolations")
    return found


def test_the_page_runs_under_its_csp_and_the_csp_refuses_inline_code(desktop: Page,
                                                                      guard: Guard) -> None:
    response = desktop.goto("/")
    assert response is not None
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    expect(desktop.locator("body[data-ready='1']")).to_have_count(1)
    enter_as_guest(desktop)
    for screen in ("#/leaderboard", "#/history", "#/rules", "#/profile"):
        desktop.goto("/" + screen)
        expect(desktop.locator(f"#app[data-screen='{screen[2:]}'] > *").first).to_be_attached()
    expect(desktop.locator(".sc-bar span")).to_be_attached()  # the profile's level bar
    assert violations(desktop) == []
    # The policy is live: inline code and inline styles are refused (and seen).
    guard.allow("CSP violation")
    guard.allow("Content Security Policy")
    desktop.goto("/#/profile")
    expect(desktop.locator(".sc-bar span")).to_be_attached()
    desktop.evaluate("""() => {
        const d = document.createElement("div");
        d.innerHTML = '<img src="x:y" onerror="window.ran = 1"><b style="color: red">x</b>';
        document.body.append(d);
    }""")
    desktop.wait_for_function("() => window.cspViolations.length >= 2")
    assert desktop.evaluate("window.ran") is None
    kinds = {v.split(" ")[0] for v in violations(desktop)}
    assert kinds >= {"script-src-attr", "style-src-attr"}, violations(desktop)


def test_a_bad_escape_in_the_hash_says_so_and_the_page_goes_on(new_page: PageMaker) -> None:
    page = new_page()
    open_lobby(page)
    page.goto("/#/join/%E0%A4%A")
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("链接")
    page.get_by_role("link", name="大厅").last.click()
    expect(page.locator("#rooms[data-loaded='1']")).to_have_count(1)
    page.goto("/#/profile/%")
    expect(page.get_by_role("alert")).to_be_visible()
    page.goto("/#/leaderboard")
    expect(page.locator("#app[data-screen='leaderboard']")).to_have_count(1)
