"""What the settlement tests share: the page's connection watched (and its ``settled``
held back on demand), and the board read from the DOM and checked against the engine's
``Result`` and the hall's ``settled`` (tests/web/test_settlement.py,
tests/web/test_settlement_words.py)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Locator, Page, WebSocketRoute, expect

from tests.web.helpers import Received

#: Chinese characters (and full-width punctuation) an English page must not show.
CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def signed(n: float) -> str:
    """As the board writes points and beans: "+12", "-6", "0", "2.5"."""
    text = str(int(n)) if float(n).is_integer() else str(n)
    return f"+{text}" if n > 0 else text


class Wire:
    """Between the page and the hall (Playwright's WebSocket route; the page is as
    served): every message the hall sends is kept (deltas rebuilt into states), and
    while ``hold`` is set its ``settled`` waits here until ``release``, and so does
    whatever follows it (a table that dissolves says ``left`` after its ``settled``)."""

    def __init__(self) -> None:
        self.hold = False
        self.got: list[dict[str, Any]] = []
        self._held: list[tuple[WebSocketRoute, str | bytes]] = []
        self._read = Received()

    def route(self, page_side: WebSocketRoute) -> None:
        hall = page_side.connect_to_server()

        def to_page(frame: str | bytes) -> None:
            msg = self._read(frame)
            self.got.append(msg)
            if (msg.get("type") == "settled" and self.hold) or self._held:
                self._held.append((page_side, frame))
                return
            page_side.send(frame)

        hall.on_message(to_page)
        page_side.on_message(hall.send)

    def release(self) -> None:
        self.hold = False
        for side, frame in self._held:
            side.send(frame)
        self._held.clear()

    def settled(self) -> dict[str, Any]:
        return [m for m in self.got if m.get("type") == "settled"][-1]

    def last_view(self, game: str) -> dict[str, Any]:
        view: dict[str, Any] = [m for m in self.got if m.get("type") == "state"
                                and m.get("game") == game and m.get("view")][-1]["view"]
        return view


def watch(page: Page) -> Wire:
    wire = Wire()
    page.route_web_socket(re.compile(r"/ws$"), wire.route)
    return wire


def cards_of(text: str) -> int:
    """How many cards a hand's text holds: rank text ("334455TA22") or suited ("3s 4h")."""
    return len(re.findall(r"[3-9TJQKA2XD][shcd]?", text.replace(" ", "")))


def check_board(board: Locator, result: dict[str, Any], seat: int,
                settled: dict[str, Any] | None, hands: list[str] | None) -> None:
    """The board shows the engine's result and the hall's settlement: every seat's
    points and beans, the reader's fee and beans before → after, every multiplier cause
    that is not ×1, each seat's 加倍 and each pair's arithmetic, 找朋友's 扣底 and levels,
    保皇's places, the cards left."""
    d = result["detail"]
    rows = board.locator(".sx-seats tbody tr")
    expect(rows).to_have_count(len(result["points"]))
    for s, points in enumerate(result["points"]):
        row = board.locator(f".sx-seats tr[data-seat='{s}']")
        expect(row.locator("td.points")).to_contain_text(signed(points))
        if settled is not None and str(s) in settled["beans"]:
            expect(row.locator("td.beans")).to_have_text(signed(settled["beans"][str(s)]))
        if "levels_after" in d:
            level = f"{d['levels_before'][s]} → {d['levels_after'][s]}".replace("T", "10")
            expect(row.locator("td.role")).to_contain_text(level)
    if settled is not None and str(seat) in settled["beans"]:
        mine = board.locator(".sx-mine")
        fee, change = settled["fees"][str(seat)], settled["beans"][str(seat)]
        after = settled["balances"][str(seat)]
        expect(mine).to_contain_text(f"{after - change} → {after}")
        expect(mine).to_contain_text(signed(change))
        expect(mine).to_contain_text(str(fee))
        fees = set(settled["fees"].values())
        if len(fees) == 1:
            expect(board.locator(".sx-fee")).to_contain_text(str(fees.pop()))
    mult = board.locator(".sx-mult")
    scored = result["ended"] in ("finished", "escape")
    if not scored:  # unscored, dissolved: no multiplier, no 加倍
        expect(mult).to_have_count(0)
        expect(board.locator(".sx-doubling")).to_have_count(0)
    else:
        expect(mult.locator("strong")).to_contain_text(f"×{result['multiplier']['total']}")
    for cause, factor in result["multiplier"]["causes"].items():
        if factor != 1 and scored:
            expect(mult.locator(f".sx-cause[data-cause='{cause}']")).to_contain_text(str(factor))
    if "doubling" in d and scored:
        doubled = [s for s, f in enumerate(d["doubling"]["factors"]) if f > 1]
        expect(board.locator(".sx-double")).to_have_count(len(doubled))
        for s in doubled:
            expect(board.locator(f".sx-double[data-seat='{s}']")).to_have_count(1)
    if "pairs" in d and result["ended"] == "finished":
        expect(board.locator(".sx-pair")).to_have_count(len(d["pairs"]))
        for k, pair in enumerate(d["pairs"]):
            line = board.locator(".sx-pair").nth(k)
            points = signed(pair["points"]).lstrip("+")
            expect(line).to_have_text(re.compile(rf"[=→] {re.escape(points)}$"))  # the cap: →
            if d.get("coefficient", 1) != 1:
                expect(line).to_contain_text(f"× {d['coefficient']}")
    if "bottom" in d:
        expect(board.locator(".sx-bottom")).to_have_attribute(
            "data-multiplier", str(d["bottom"]["multiplier"]))
        expect(board.locator(".sx-how")).to_contain_text(str(d["attacker_points"]))
    if "stake" in d and "pairs" not in d:
        expect(board.locator(".sx-how")).to_contain_text(f"= {d['stake']}")
    if "base" in d and result["ended"] == "finished":
        expect(board.locator(".sx-how")).to_contain_text(str(d["base"]["royal_places"]
                                                             or d["base"]["emperor"]))
    if hands is not None and any(hands):
        for s, text in enumerate(hands):
            shown = board.locator(f".sx-hands li[data-seat='{s}'] .card")
            expect(shown).to_have_count(cards_of(text))
    if isinstance(d.get("kitty"), str):
        expect(board.locator(".sx-kitty .card")).to_have_count(cards_of(d["kitty"]))


def english_without_chinese(board: Locator, names: list[str]) -> None:
    """The English board has no Chinese character outside the players' names and the
    card faces (the 癞 tag of a wild card)."""
    text = board.evaluate("""el => { const c = el.cloneNode(true);
        c.querySelectorAll('.card').forEach(x => x.remove()); return c.innerText; }""")
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "")
    assert not CJK.findall(text), text


__all__ = ["CJK", "Wire", "cards_of", "check_board", "english_without_chinese", "signed",
           "watch"]
