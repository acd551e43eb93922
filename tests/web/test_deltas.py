"""The browser client plays with deltas on (web/deltas.js): a whole hand through the UI
with every change rebuilt from its events and its hash checked, no resync asked for,
and the table it drew from them the table a full state draws."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.web.helpers import enter_as_guest, play_until, quick_match, seq, wait_turn


def drawn(page: Page) -> dict[str, Any]:
    """What the table shows: the seq, the hand's cards, each seat's box (name, role,
    marks, card count, last play; not its running clock)."""
    return {"seq": seq(page),
            "hand": page.locator(".hand .card").evaluate_all(
                "cards => cards.map(c => c.getAttribute('aria-label'))"),
            "seats": page.locator(".table .seat").evaluate_all(
                "seats => seats.map(s => { const c = s.cloneNode(true);"
                " c.querySelectorAll('.clock').forEach(x => x.remove());"
                " return c.textContent; })")}


def test_a_hand_played_on_deltas_draws_what_a_full_state_draws(desktop: Page) -> None:
    page = desktop
    enter_as_guest(page)
    # The page's port computes the Python library's hash (tests/games/test_deltas.py).
    assert page.evaluate("""async () => (await import("/deltas.js")).viewHash(
        {b: [1, 2.0, 0.5], a: "牌\\n", c: {z: null, y: true}})""") == "b4784e7e16845bc2"
    quick_match(page, "ddz3-bots")
    expect(page.locator(".table[data-variant='ddz3']")).to_be_visible()
    # Halfway, at the player's turn (the table waits for him), a second tab of the same
    # session takes over the connection (superseded: no 托管, the table does not move) and
    # draws the table from the full state its hello brings: what the first one drew.
    play_until(page, lambda p: int(p.locator("body").get_attribute("data-deltas") or 0) >= 8)
    assert wait_turn(page) == "turn"
    before = drawn(page)
    assert page.locator("body").get_attribute("data-resyncs") == "0"
    other = page.context.new_page()
    other.goto(page.url)
    expect(other.locator(f".table[data-seq='{before['seq']}']")).to_be_visible()
    expect(other.locator(".controls button:enabled").first).to_be_visible()
    assert other.locator("body").get_attribute("data-deltas") == "0"  # a full state drew it
    assert drawn(other) == before
    page.close()
    page = other
    # To the end of the hand on deltas again, none of them failing its hash.
    play_until(page, lambda p: p.locator(".settle").count() > 0)
    expect(page.locator(".settle")).to_be_visible()
    assert int(page.locator("body").get_attribute("data-deltas") or 0) > 0
    assert page.locator("body").get_attribute("data-resyncs") == "0"
