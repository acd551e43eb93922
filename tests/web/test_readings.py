"""出牌 with cards that read several ways: a chooser names each reading, the one chosen is
the one sent; a selection with one reading plays at once.

Two 癞子 rooms with a given deal (wild rank 9, seat 0 the landlord). In ``laizi-dealt``
the player's 3 3 3 9 reads as 三带一 333+9 and as the soft bomb 3333, and the lead is
listed in full (247 plays). In ``laizi-wilds`` (tests.games.deals.WILD_LEAD) three wild
cards make 2 234 plays, given as the ``plays`` diagram: the page knows only that a
selection is legal, sends the bare cards asking for their readings (``choose``), and
opens the chooser with the ``readings`` of the server's refusal (docs/protocol.md).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocket, expect

from tests.games.deals import WILD_LEAD
from tests.server.conftest import HallProcess, dealt_room, running_hall
from tests.web.conftest import PHONE, PageMaker, axe_check, shot
from tests.web.helpers import Received, enter_as_guest, quick_match, take_turn, wait_turn

LISTED = {"wild": "9", "landlord": 0, "deal": {
    "hands": ["33395577JJKKAA2XD", "34444556666778889", "99TTTJJQQQKKAA222"], "kitty": "8TQ"}}


@pytest.fixture(scope="module")
def web_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    rooms = (dealt_room("laizi-dealt", "ddz3_laizi", LISTED)
             + dealt_room("laizi-wilds", "ddz3_laizi", WILD_LEAD))
    yield from running_hall(tmp_path_factory.mktemp("readings"), rooms=rooms)


@dataclass
class Frames:
    """What the page sent (``act`` messages) and the seat-0 last plays its states showed."""

    acts: list[dict[str, Any]] = field(default_factory=list)
    shown: list[str] = field(default_factory=list)
    views: list[dict[str, Any]] = field(default_factory=list)

    @property
    def sent(self) -> list[str]:
        return [a["action"] for a in self.acts]


def to_my_lead(page: Page, room: str = "laizi-dealt") -> Frames:
    """Through 开始 and 加倍 to the first play; the frames the page sends and receives."""
    frames = Frames()

    def sending(frame: str | bytes) -> None:
        msg = json.loads(frame)
        if msg.get("type") == "act":
            frames.acts.append(msg)

    read = Received()  # deltas rebuilt into their states, as the page does

    def receiving(frame: str | bytes) -> None:
        msg = read(frame)
        if msg.get("type") == "state" and msg.get("view"):
            frames.shown.append(str(msg["view"]["last"][0]))
            frames.views.append(msg["view"])

    def watch(ws: WebSocket) -> None:
        ws.on("framesent", sending)
        ws.on("framereceived", receiving)

    page.on("websocket", watch)
    enter_as_guest(page)
    quick_match(page, room)
    while wait_turn(page) == "turn" and page.locator(".table[data-phase='play']").count() == 0:
        take_turn(page)
    expect(page.locator(".controls #play")).to_be_visible()
    return frames


def pick(page: Page, ranks: str) -> None:
    """Click cards of these ranks in the hand (one card per rank letter)."""
    used: set[int] = set()
    cards = page.locator(".hand .card")
    for r in ranks:
        i = next(i for i in range(cards.count())
                 if i not in used and (cards.nth(i).get_attribute("data-card") or "")[0] == r)
        used.add(i)
        cards.nth(i).click()


def test_the_chooser_sends_the_reading_chosen(new_page: PageMaker) -> None:
    page = new_page()
    frames = to_my_lead(page)
    pick(page, "3339")
    page.locator("#play").click()
    chooser = page.get_by_role("dialog")
    readings = chooser.locator("button.reading")
    expect(readings).to_have_count(2)
    assert [readings.nth(i).get_attribute("data-action") for i in range(2)] == \
        ["play 333+9=333+9", "play 3339=3333"]
    expect(readings.nth(0)).to_have_text("三带一 3 3 3 9")
    expect(readings.nth(1)).to_contain_text("软炸")
    expect(readings.nth(0)).to_be_focused()
    assert (readings.nth(1).bounding_box() or {"height": 0})["height"] >= 44
    shot(page, "readings-desktop")
    page.keyboard.press("Escape")
    expect(chooser).to_have_count(0)
    expect(page.locator(".hand .card[aria-pressed='true']")).to_have_count(4)
    page.locator("#play").click()
    page.keyboard.press("Tab")  # keyboard: the second reading, then Enter
    expect(readings.nth(1)).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".hand .card")).to_have_count(16)
    expect(page.get_by_role("dialog")).to_have_count(0)
    assert [a for a in frames.sent if a.startswith("play")] == ["play 3339=3333"]
    assert "play 3339=3333" in frames.shown


def test_one_reading_plays_at_once_and_the_phone_chooser(new_page: PageMaker) -> None:
    page = new_page(PHONE)
    frames = to_my_lead(page)
    pick(page, "3339")
    page.locator("#play").click()
    expect(page.get_by_role("dialog").locator("button.reading")).to_have_count(2)
    path: Path = shot(page, "readings-phone")
    assert path.exists()
    page.get_by_role("button", name="取消").click()
    page.keyboard.press("Escape")
    expect(page.locator(".hand .card[aria-pressed='true']")).to_have_count(0)
    pick(page, "55")
    page.locator("#play").click()
    expect(page.locator(".hand .card")).to_have_count(18)
    expect(page.get_by_role("dialog")).to_have_count(0)
    assert [a for a in frames.sent if a.startswith("play")] == ["play 55"]
    assert "play 55" in frames.shown


def test_from_the_diagram_the_server_names_the_readings(new_page: PageMaker) -> None:
    """3 3 3 9, which the rules would take as the soft bomb: 出牌 sends the bare cards
    asking (choose), the refusal's readings open the chooser, 三带一 is played."""
    page = new_page()
    frames = to_my_lead(page, "laizi-wilds")
    assert not frames.views[-1]["legal_complete"] and "plays" in frames.views[-1]
    pick(page, "3339")
    page.locator("#play").click()
    chooser = page.get_by_role("dialog")
    readings = chooser.locator("button.reading")
    expect(readings).to_have_count(2)
    assert frames.acts[-1] == {"type": "act", "table": frames.acts[-1]["table"],
                               "action": "play 3339", "seq": frames.acts[-1]["seq"],
                               "choose": True}
    assert [readings.nth(i).get_attribute("data-action") for i in range(2)] == \
        ["play 333+9=333+9", "play 3339=3333"]
    expect(readings.nth(0)).to_have_text("三带一 3 3 3 9")
    expect(readings.nth(1)).to_contain_text("软炸")
    expect(readings.nth(0)).to_be_focused()
    expect(page.locator(".controls .reason")).to_have_text("")  # no refusal shown
    axe_check(page, ".chooser")
    shot(page, "readings-diagram-desktop")
    page.keyboard.press("Escape")
    expect(chooser).to_have_count(0)
    expect(page.locator(".hand .card[aria-pressed='true']")).to_have_count(4)
    page.locator("#play").click()  # asks again; this time the player picks 三带一
    readings.nth(0).click()
    expect(page.locator(".hand .card")).to_have_count(16)
    mine = page.locator(".slot[data-seat='0'] .last .card")
    expect(mine).to_have_count(4)
    assert sorted((mine.nth(i).get_attribute("data-card") or "?")[0] for i in range(4)) == \
        ["3", "3", "3", "9"]
    assert [a for a in frames.sent if a.startswith("play")] == \
        ["play 3339", "play 3339", "play 333+9=333+9"]
    assert "play 333+9=333+9" in frames.shown


def test_from_the_diagram_on_a_phone(new_page: PageMaker) -> None:
    """3 5 9 9, which the rules refuse bare (two trios with a single): the chooser on a
    phone; 取消 keeps the selection; 5 5 reads one way and plays at once."""
    page = new_page(PHONE)
    frames = to_my_lead(page, "laizi-wilds")
    pick(page, "3599")
    page.locator("#play").click()
    readings = page.get_by_role("dialog").locator("button.reading")
    expect(readings).to_have_count(2)
    assert [readings.nth(i).get_attribute("data-action") for i in range(2)] == \
        ["play 399+5=333+5", "play 599+3=555+3"]
    expect(readings.nth(0)).to_be_focused()
    assert (readings.nth(1).bounding_box() or {"height": 0})["height"] >= 44
    path: Path = shot(page, "readings-diagram-phone")
    assert path.exists()
    page.get_by_role("button", name="取消").click()
    expect(page.get_by_role("dialog")).to_have_count(0)
    expect(page.locator(".hand .card[aria-pressed='true']")).to_have_count(4)
    page.keyboard.press("Escape")
    pick(page, "55")
    page.locator("#play").click()
    expect(page.locator(".hand .card")).to_have_count(18)
    expect(page.get_by_role("dialog")).to_have_count(0)
    assert [a for a in frames.sent if a.startswith("play")] == ["play 3599", "play 55"]
    assert "play 55" in frames.shown
