"""Cards chosen on cards (issue 26): 斗帝主's kitty, 找朋友's burying and friend call and
保皇's guard call are made by clicking cards, never in a dropdown, on a desktop and on
a phone, each under a line that says what the decision does; what the clicks send is
what the next state shows. The deals are fixed (tests/server's ``dealt_room``) so that
the guest, seat 0, is the one to decide: the emperor, the dealer, the emperor."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, WebSocket, expect

from cardhall.cards import Rank, deck, format_cards, parse_cards
from tests.server.conftest import HallProcess, dealt_room, running_hall
from tests.web.conftest import DESKTOP, PHONE, PageMaker, axe_check, shot
from tests.web.helpers import STRIP, Received, enter_as_guest, quick_match

KINDS = {"desktop": DESKTOP, "phone": PHONE}
#: The smallest phone the hall fits (360×640).
SMALL = {**PHONE, "viewport": {"width": 360, "height": 640}}


def arrange(packs: int, mine: str, sizes: list[int], kitty: int = 0,
            without: tuple[Rank, ...] = ()) -> dict[str, Any]:
    """A deal option: seat 0 holds `mine` and the rest of the deck, shuffled by a fixed
    seed, fills the hands (and the kitty) in seat order."""
    cards = list(deck(packs, without=without))
    want = list(parse_cards(mine))
    for c in want:
        cards.remove(c)
    random.Random(5).shuffle(cards)
    hands = [want + cards[:sizes[0] - len(want)]]
    cards = cards[sizes[0] - len(want):]
    for n in sizes[1:]:
        hands.append(cards[:n])
        cards = cards[n:]
    out: dict[str, Any] = {"hands": [format_cards(h) for h in hands]}
    if kitty:
        out["kitty"] = format_cards(cards[:kitty])
    return out


#: 斗帝主 with seat 0 made emperor: the game opens on his kitty choice (7 8 Q A A 2,
#: suited).
EMPEROR = {"landlord": 0, "contract": 2, "deal": arrange(2, "", [34, 34, 34], kitty=6)}
#: 找朋友 with seat 0 dealer, holding three ♠2 and three ♥2 (level 2): seven ways to
#: declare, more than a row of buttons; he declares the ♠2s, which closes the window at
#: once, then buries and calls.
FRIENDS = {"dealer": 0, "deal": arrange(3, "2s 2s 2s 2h 2h 2h", [31] * 5, kitty=7)}
#: 保皇 (classic) with the emperor card in seat 0, who holds three ♠7, three ♥K, four ♦9.
GUARD = {"emperor_card": 0,
         "deal": arrange(4, "D 7s 7s 7s Kh Kh Kh 9d 9d 9d 9d", [34, 34, 34, 33, 33],
                         without=(0, 1, 2))}


@pytest.fixture(scope="module")
def web_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    rooms = (dealt_room("emperor-dealt", "ddz_emperor", EMPEROR)
             + dealt_room("friends-dealt", "zhaopengyou", FRIENDS)
             + dealt_room("guard-dealt", "baohuang", GUARD))
    yield from running_hall(tmp_path_factory.mktemp("picks"), rooms=rooms)


@dataclass
class Frames:
    """What the page sent (its ``act`` actions) and the views its states showed."""

    sent: list[str] = field(default_factory=list)
    views: list[dict[str, Any]] = field(default_factory=list)

    def watch(self, page: Page) -> None:
        read = Received()

        def sending(frame: str | bytes) -> None:
            msg = json.loads(frame)
            if msg.get("type") == "act":
                self.sent.append(msg["action"])

        def receiving(frame: str | bytes) -> None:
            msg = read(frame)
            if msg.get("type") == "state" and msg.get("view"):
                self.views.append(msg["view"])

        def attach(ws: WebSocket) -> None:
            ws.on("framesent", sending)
            ws.on("framereceived", receiving)

        page.on("websocket", attach)


def sit(new_page: PageMaker, kind: str, room: str) -> tuple[Page, Frames]:
    page = new_page({**KINDS, "small": SMALL}[kind])
    frames = Frames()
    frames.watch(page)
    enter_as_guest(page)
    quick_match(page, room)
    return page, frames


def big_enough(el: Locator) -> None:
    """A tap target of 44 × 44 px at least (WCAG 2.5.5), phone included."""
    box = el.bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44, box


def no_dropdown(page: Page) -> None:
    assert page.locator("select").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("kind", KINDS)
def test_the_emperor_keeps_kitty_cards_by_clicking_them(new_page: PageMaker, kind: str) -> None:
    page, frames = sit(new_page, kind, "emperor-dealt")
    picks = page.locator(".controls .picks[data-pick='take']")
    expect(picks).to_be_visible()
    no_dropdown(page)
    expect(page.locator(".controls .note")).to_contain_text("0 到 6 张")
    cards = picks.locator(".pick-card")
    expect(cards).to_have_count(6)
    kitty = EMPEROR["deal"]["kitty"].split()  # drawn with their suits, as dealt
    assert [cards.nth(i).get_attribute("data-card") for i in range(6)] == kitty
    assert [k[0] for k in kitty] == list("78QAA2")
    confirm = picks.locator("button.confirm")
    expect(confirm).to_have_text("一张不拿")
    expect(confirm).to_have_attribute("data-action", "take none")
    for i in range(6):
        big_enough(cards.nth(i))
    big_enough(confirm)
    cards.nth(2).click()  # ♦Q
    cards.nth(4).click()  # ♦A: an A, and the game keeps the kitty's first A (♠A)
    expect(cards.nth(3)).to_have_attribute("aria-pressed", "true")
    expect(cards.nth(4)).to_have_attribute("aria-pressed", "false")
    cards.nth(4).click()  # a second A: both pressed; then one A again
    expect(cards.nth(4)).to_have_attribute("aria-pressed", "true")
    cards.nth(4).click()
    expect(cards.nth(4)).to_have_attribute("aria-pressed", "false")
    if kind == "desktop":  # and by keyboard: → to the 2, Space keeps it, Space again drops it
        page.keyboard.press("ArrowRight")
        expect(cards.nth(5)).to_be_focused()
        page.keyboard.press("Space")
        expect(cards.nth(5)).to_have_attribute("aria-pressed", "true")
        expect(cards.nth(5)).to_be_focused()  # the picker drawn again keeps the focus
        page.keyboard.press("Space")
        expect(cards.nth(5)).to_have_attribute("aria-pressed", "false")
    expect(cards.nth(2)).to_have_attribute("aria-pressed", "true")
    expect(confirm).to_have_text("拿这 2 张")
    expect(confirm).to_have_attribute("data-action", "take QA")
    axe_check(page, ".controls")
    shot(page, f"picks-ddz_emperor-{kind}")
    confirm.click()
    expect(page.locator(".table[data-phase='play']")).to_be_visible()
    expect(page.locator(".hand .card")).to_have_count(36)
    assert frames.sent[-1] == "take QA"
    assert frames.views[-1]["last"][0] == "take QA"
    assert frames.views[-1]["counts"][0] == 36
    before = frames.views[0]["hand"]
    after = list(frames.views[-1]["hand"])
    for c in before:
        after.remove(c)
    assert sorted(after) == ["As", "Qd"]  # the cards shown pressed
    expect(page.locator(".controls .picks")).to_have_count(0)


@pytest.mark.parametrize("kind", [*KINDS, "small"])
def test_the_dealer_buries_and_calls_his_friend_on_cards(new_page: PageMaker, kind: str) -> None:
    page, frames = sit(new_page, kind, "friends-dealt")
    declare = page.locator(".controls button[data-action='declare 2s 2s 2s']")
    expect(declare).to_be_enabled()
    expect(page.locator(".controls .note")).to_contain_text("亮主")
    # A long list is a group of buttons, each one tap, never a dropdown.
    many = page.locator(".controls .many[data-verb='declare'] button")
    expect(many).to_have_count(7)
    no_dropdown(page)
    for b in many.all():
        big_enough(b)
    shot(page, f"picks-declare-{kind}")
    declare.click()
    # Burying: seven cards from the hand, the count on the button, the suits on the cards.
    pick = page.locator(".controls #pick")
    expect(pick).to_have_text("扣底 0/7")
    expect(page.locator(".controls .note")).to_contain_text("扣底")
    no_dropdown(page)
    hand = page.locator(".hand .card")
    expect(hand).to_have_count(38)
    for i in range(38):  # every card shows its suit, and can be tapped (a strip ≥ 20 px)
        suit = hand.nth(i).locator(".corner i")
        card = hand.nth(i).get_attribute("data-card") or ""
        if card not in ("X", "D"):
            expect(suit).to_be_visible()
            assert suit.inner_text() in "♠♥♣♦"
    boxes = page.evaluate("""() => [...document.querySelectorAll('.hand .card')].map(
        (c) => [Math.round(c.getBoundingClientRect().top), c.getBoundingClientRect().left])""")
    rows: dict[int, list[float]] = {}
    for top, left in boxes:
        rows.setdefault(top, []).append(left)
    assert min(b - a for r in rows.values() for a, b in pairwise(r)) >= 20
    low = range(31, 38)  # the last seven: the smallest of the last suit
    for i in low:
        hand.nth(i).click(position=STRIP)
    expect(pick).to_have_text("扣底 7/7")
    expect(pick).to_be_enabled()
    big_enough(pick)
    shot(page, f"picks-bury-{kind}")
    buried = [hand.nth(i).get_attribute("data-card") for i in low]
    pick.click()
    # The friend call: a suit, a card, which copy.
    picks = page.locator(".controls .picks[data-pick='call-friend']")
    expect(picks).to_be_visible()
    no_dropdown(page)
    expect(page.locator(".controls .note")).to_contain_text("这张牌的第 N 张")
    confirm = picks.locator("button.confirm")
    expect(confirm).to_be_disabled()
    expect(picks.locator(".pick-suit[aria-pressed='true']")).to_have_attribute("data-suit", "h")
    expect(picks.locator(".pick-suit[data-suit='s']")).to_contain_text("主")  # ♠ is trump
    picks.locator(".pick-suit[data-suit='c']").click()
    cards = picks.locator(".pick-card")
    expect(cards).to_have_count(13)
    expect(cards.first).to_have_attribute("data-card", "Ac")
    for i in range(13):
        big_enough(cards.nth(i))
    tops = {round((cards.nth(i).bounding_box() or {"y": -1})["y"]) for i in range(13)}
    assert len(tops) <= 2, tops  # a suit in two rows at most, even 360 px wide
    for b in picks.locator(".pick-suit, .pick-nth").all():
        big_enough(b)
    picks.locator(".pick-card[data-card='Ac']").click()
    picks.locator(".pick-nth[data-n='2']").click()
    expect(confirm).to_have_text("叫朋友：第2张 ♣A")
    expect(confirm).to_have_attribute("data-action", "call-friend 2 Ac")
    big_enough(confirm)
    axe_check(page, ".controls")
    shot(page, f"picks-zhaopengyou-{kind}")
    confirm.click()
    expect(page.locator(".table[data-phase='play']")).to_be_visible()
    expect(page.locator(".facts")).to_contain_text("找朋友：第2张 ♣A")
    assert frames.sent[-3:] == ["declare 2s 2s 2s", f"bury {' '.join(buried)}",
                                "call-friend 2 Ac"]
    assert frames.views[-1]["detail"]["friend_call"] == {"n": 2, "card": "Ac"}


def test_the_friend_call_by_keyboard_and_in_english(new_page: PageMaker) -> None:
    page, frames = sit(new_page, "desktop", "friends-dealt")
    page.locator(".controls button[data-action='declare 2s 2s 2s']").click()
    hand = page.locator(".hand .card")
    expect(hand).to_have_count(38)
    for i in range(7):
        hand.nth(i).click(position=STRIP)
    page.locator(".controls #pick").click()
    picks = page.locator(".controls .picks[data-pick='call-friend']")
    expect(picks).to_be_visible()
    page.locator("#lang").click()
    expect(page.locator(".controls .note")).to_contain_text("whoever plays its N-th copy")
    confirm = picks.locator("button.confirm")
    expect(confirm).to_have_text("Click a card first")
    # Tab stops once in each row: into the suits, → to ♣ (Enter), Tab to the cards, → to
    # ♣K (Space), Tab to the copies, → → to the 3rd (Enter), Tab to the confirm button.
    picks.locator(".pick-suit[aria-pressed='true']").focus()
    page.keyboard.press("ArrowRight")
    expect(picks.locator(".pick-suit[data-suit='c']")).to_be_focused()
    page.keyboard.press("Enter")
    expect(picks.locator(".pick-suit[data-suit='c']")).to_be_focused()
    page.keyboard.press("Tab")
    expect(picks.locator(".pick-card").first).to_be_focused()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    expect(picks.locator(".pick-card[data-card='Kc']")).to_have_attribute("aria-pressed", "true")
    expect(picks.locator(".pick-card[data-card='Kc']")).to_be_focused()
    page.keyboard.press("Tab")
    expect(picks.locator(".pick-nth[data-n='1']")).to_be_focused()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    expect(confirm).to_have_text("Call friend: copy 3 of ♣K")
    shot(page, "picks-zhaopengyou-en-desktop")
    page.keyboard.press("Tab")
    expect(confirm).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".table[data-phase='play']")).to_be_visible()
    assert frames.sent[-1] == "call-friend 3 Kc"
    assert frames.views[-1]["detail"]["friend_call"] == {"n": 3, "card": "Kc"}


@pytest.mark.parametrize("kind", KINDS)
def test_the_emperor_calls_his_guard_on_cards(new_page: PageMaker, kind: str) -> None:
    page, frames = sit(new_page, kind, "guard-dealt")
    accept = page.locator(".controls button[data-action='accept']")
    expect(accept).to_be_enabled()
    expect(page.locator(".controls .note")).to_contain_text("皇牌")
    accept.click()
    picks = page.locator(".controls .picks[data-pick='call']")
    expect(picks).to_be_visible()
    no_dropdown(page)
    expect(page.locator(".controls .note")).to_contain_text("第四张")
    legal = frames.views[-1]["legal"]
    calls = [a.split(" ")[1] for a in legal if a.startswith("call ")]
    assert {"7s", "Kh", "9d"} <= set(calls)
    cards = picks.locator(".pick-card")
    assert [c.get_attribute("data-card") for c in cards.all()] == calls
    held = picks.locator(".pick-cell:has(.pick-card[data-card='9d']) .held")
    expect(held).to_have_text("有4张")
    expect(picks.locator(".pick-cell:has(.pick-card[data-card='7s']) .held")).to_have_text("有3张")
    expect(page.locator(".controls button[data-action='solo']")).to_be_visible()  # a button still
    for c in cards.all():
        big_enough(c)
    confirm = picks.locator("button.confirm")
    expect(confirm).to_be_disabled()
    picks.locator(".pick-card[data-card='7s']").click()
    expect(confirm).to_have_text("叫侍卫 ♠7")
    expect(confirm).to_have_attribute("data-action", "call 7s")
    big_enough(confirm)
    axe_check(page, ".controls")
    shot(page, f"picks-baohuang-{kind}")
    confirm.click()
    expect(page.locator(".controls .picks")).to_have_count(0)
    page.wait_for_function("() => document.querySelector('.table').dataset.phase !== 'guard'")
    assert frames.sent[-1] == "call 7s"
    assert frames.views[-1]["detail"]["called"] == "7s"
    assert frames.views[-1]["last"][0] == "call 7s"


def test_a_set_up_decision_says_what_its_answers_do(new_page: PageMaker) -> None:
    """欢乐's first decision: 明牌开始 is ×5, said above its buttons, in either language."""
    page = new_page(PHONE)
    enter_as_guest(page)
    quick_match(page, "ddz3_happy-bots")
    note = page.locator(".controls .note")
    expect(note).to_contain_text("明牌开始让大家全程看到你的手牌，倍数 ×5")
    expect(page.locator(".controls button[data-action$='show-start']")).to_be_visible()
    page.locator("#lang").click()
    expect(note).to_contain_text("Start open shows your hand to everyone all game, ×5")
