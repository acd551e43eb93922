"""The browser client plays with deltas on (web/deltas.js): a whole hand through the UI
with every change rebuilt from its events and its hash checked, no resync asked for,
and the table it drew from them the table a full state draws."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page, WebSocketRoute, expect

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
    # A hand can end before the player's next turn (a bot playing out with bombs while
    # his "can't beat" turns pass by themselves): then the next hand, as a player would.
    for _ in range(3):
        play_until(page, lambda p: int(p.locator("body").get_attribute("data-deltas") or 0)
                   >= 8)
        if wait_turn(page) == "turn":
            break
        page.locator("#again").click()
        page.wait_for_selector(".table:not(:has(.settle))")
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


class Tamper:
    """Between the page and the hall (Playwright's WebSocket route; the page is as
    served): spoils the hash of the next delta when ``spoil`` is set, and answers the
    page's next ``refuse`` resyncs itself with ``rate_limited``, as the hall's rate
    limit would, instead of passing them on."""

    def __init__(self) -> None:
        self.spoil = False
        self.refuse = 0
        self.resyncs: list[tuple[int, bool]] = []  # (connection, passed on)
        self.connections = 0

    def route(self, page_side: WebSocketRoute) -> None:
        self.connections += 1
        number = self.connections
        hall = page_side.connect_to_server()

        def to_page(frame: str | bytes) -> None:
            msg = json.loads(frame)
            if msg["type"] == "delta" and self.spoil:
                self.spoil = False
                msg["hash"] = "0" * 16
                frame = json.dumps(msg)
            page_side.send(frame)

        def to_hall(frame: str | bytes) -> None:
            if json.loads(frame)["type"] == "resync":
                self.resyncs.append((number, self.refuse == 0))
                if self.refuse > 0:
                    self.refuse -= 1
                    page_side.send(json.dumps({"type": "error", "code": "rate_limited",
                                               "message": "at most 10 messages per second"}))
                    return
            hall.send(frame)

        hall.on_message(to_page)
        page_side.on_message(to_hall)


def _same_as_a_full_state(page: Page) -> Page:
    """At the player's turn, a second tab (a full state: superseding) draws what the page
    drew; the second tab, to go on with."""
    assert wait_turn(page) == "turn"
    before = drawn(page)
    other = page.context.new_page()
    other.goto(page.url)
    expect(other.locator(f".table[data-seq='{before['seq']}']")).to_be_visible()
    expect(other.locator(".controls button:enabled").first).to_be_visible()
    assert drawn(other) == before
    page.close()
    return other


def test_a_delta_that_does_not_check_is_resynced_even_when_refused_once(desktop: Page) -> None:
    page = desktop
    tamper = Tamper()
    page.route_web_socket("**/ws", tamper.route)
    enter_as_guest(page)
    quick_match(page, "ddz3-bots")
    expect(page.locator(".table[data-variant='ddz3']")).to_be_visible()
    play_until(page, lambda p: int(p.locator("body").get_attribute("data-deltas") or 0) >= 3)
    # A delta whose hash does not check: a resync, refused once (rate_limited), asked
    # again after a wait and answered in full.
    tamper.spoil, tamper.refuse = True, 1
    play_until(page, lambda p: len(tamper.resyncs) >= 2)
    expect(page.locator("body")).to_have_attribute("data-resyncs", "2")
    assert tamper.resyncs == [(1, False), (1, True)]
    # What it drew from the full state it was sent is what a full state draws.
    page = _same_as_a_full_state(page)
    assert tamper.resyncs == [(1, False), (1, True)]  # none since


def test_the_port_resyncs_on_a_patch_that_throws_forgets_a_left_table_and_bounds_refusals(
        desktop: Page) -> None:
    page = desktop
    enter_as_guest(page)
    got = page.evaluate("""async () => {
        const m = await import("/deltas.js");
        const d = new m.Deltas();
        const asked = [];
        const state = {type: "state", table: "t", game: "g", seq: 0, view: {a: 1}, players: []};
        d.take(state, (t) => asked.push(t));
        // An extend of a key the view lacks: a resync, not an exception.
        const broken = {type: "delta", table: "t", game: "g", base: 0, seq: 1, hash: "x",
                        events: [{type: "view", extend: {log: [1]}}]};
        const out = {shown: d.take(broken, (t) => asked.push(t)), asked: [...asked]};
        out.notAnError = d.refused({code: "illegal"});
        out.answers = [1, 2, 3, 4].map(() => d.refused({code: "rate_limited"}));
        d.forget("t");  // a `left`: nothing kept, nothing awaited
        out.kept = d.last.has("t") || d.resyncing.has("t");
        out.afterLeft = d.refused({code: "unknown_table"});
        return out;
    }""")
    assert got["shown"] is None and got["asked"] == ["t"]
    assert got["notAnError"] is None
    assert got["answers"] == [{"retry": ["t"], "wait": 250}, {"retry": ["t"], "wait": 500},
                              {"retry": ["t"], "wait": 1000}, {"reconnect": True}]
    assert got["kept"] is False and got["afterLeft"] is None
