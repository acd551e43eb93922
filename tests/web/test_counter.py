"""记牌器: what the counter shows is the deck less the cards played and the own hand, held
against the very states the page received over its WebSocket (so it could show nothing a
seat may not see); 保皇's deck has no 3, 4 or 5, 找朋友 counts suits too."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocket

from cardhall.games import VARIANTS
from tests.web.conftest import shot
from tests.web.helpers import Received, enter_as_guest, play_until, quick_match

CARD = re.compile(r"([3-9TJQKA2XD])([shcd]?)")


def capture(page: Page) -> list[dict[str, Any]]:
    """Every `state` message the page receives, in order."""
    states: list[dict[str, Any]] = []
    read = Received()  # deltas rebuilt into their states, as the page does

    def on_frame(payload: str | bytes) -> None:
        msg = read(payload)
        if msg.get("type") == "state" and msg.get("view"):
            states.append(msg)

    def on_socket(ws: WebSocket) -> None:
        ws.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    return states


def expected(view: dict[str, Any]) -> tuple[dict[str, int], dict[str, int]]:
    deck = VARIANTS[view["variant"]].deck
    seen = [m.groups() for text in [*view["played"], *view["hand"]]
            for m in CARD.finditer(text)]
    ranks = Counter(r for r, _ in seen)
    suits = Counter(s for _, s in seen if s)
    per_suit = sum(n for r, n in deck.items() if r not in "XD") // 4
    return ({r: n - ranks[r] for r, n in deck.items() if n},
            {s: per_suit - suits[s] for s in "shcd"})


def shown(page: Page) -> tuple[str, dict[str, int], dict[str, int]]:
    """The table's seq and the counter's cells, read at one instant (bots play on)."""
    seq, ranks, suits = page.evaluate("""() => {
        const cells = (attr) => Object.fromEntries([...document.querySelectorAll(
            `.counter .cell[data-${attr}]`)].map((e) => [e.getAttribute(`data-${attr}`),
            Number(e.querySelector("i").textContent)]));
        return [document.querySelector(".table").dataset.seq, cells("rank"), cells("suit")];
    }""")
    return seq, ranks, suits


@pytest.mark.parametrize("variant", ["ddz3", "baohuang", "zhaopengyou"])
def test_counter_counts_the_public_cards(desktop: Page, variant: str) -> None:
    page = desktop
    states = capture(page)
    enter_as_guest(page)
    quick_match(page, f"{variant}-bots")
    play_until(page, lambda p: p.locator(".table[data-phase='play'] .counter").count() > 0
               and len(states) > 0 and bool(states[-1]["view"]["played"]))
    seq, ranks, suits = shown(page)
    view = next(m["view"] for m in reversed(states) if str(m["seq"]) == seq)
    want_ranks, want_suits = expected(view)
    assert ranks == want_ranks
    assert suits == (want_suits if VARIANTS[variant].suits else {})
    assert sum(ranks.values()) < sum(VARIANTS[variant].deck.values())  # cards were taken off
    shot(page, f"counter-{variant}")
