"""Steps the browser tests share: enter as a guest, wait for the lobby."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def open_lobby(page: Page) -> None:
    page.goto("/")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)


def enter_as_guest(page: Page) -> None:
    """One click: the guest button, then the lobby with rooms and quick-match buttons."""
    open_lobby(page)
    page.get_by_role("button", name="游客进入").click()
    expect(page.locator("#rooms[data-loaded='1'] .room button.primary").first).to_be_visible()
