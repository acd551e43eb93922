"""The table drawn around the play (issue 26): each seat's play in front of it, the trick
in the middle in playing order with its leader marked and the winning play highlighted,
the last trick with its taker and points a tap away, and the called card always on the
table. Read from the DOM at one instant and held against the very state the page had
then (its WebSocket frames), for a trick game (找朋友), a climbing game (斗地主) and
保皇's called guard card."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.conftest import axe_check, shot
from tests.web.helpers import enter_as_guest, play_until, quick_match
from tests.web.test_counter import capture

CARD = re.compile(r"[3-9TJQKA2XD][shcd]?")

READ = """() => {
    const slots = [...document.querySelectorAll(".pit .slot")].map((e) => ({
        seat: Number(e.dataset.seat), order: Number(e.dataset.order || 0),
        lead: "lead" in e.dataset, win: "win" in e.dataset, took: "took" in e.dataset,
        stale: "stale" in e.dataset,
        cards: [...e.querySelectorAll(".card")].map((c) => c.dataset.card),
        said: (e.querySelector(".said") || {}).textContent || null }));
    const called = document.querySelector(".pit .called");
    return { seq: document.querySelector(".table").dataset.seq, slots,
             info: (document.querySelector(".pit-info") || {}).textContent || "",
             called: called ? { card: called.querySelector(".card").dataset.card,
                                text: called.textContent } : null };
}"""


def read(page: Page, states: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The pit as drawn and the view of the state it was drawn from."""
    shown = page.evaluate(READ)
    view = next(m["view"] for m in reversed(states) if str(m["seq"]) == shown["seq"])
    return shown, view


def by_seat(shown: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {s["seat"]: s for s in shown["slots"]}


def cards(text: str) -> list[str]:
    return CARD.findall(text.partition("=")[0])


def test_a_trick_games_trick_in_playing_order(desktop: Page) -> None:
    page = desktop
    states = capture(page)
    enter_as_guest(page)
    quick_match(page, "zhaopengyou-bots")

    def trick_under_way(p: Page) -> bool:
        if not states or p.locator(".table[data-phase='play'] .pit").count() == 0:
            return False
        table = states[-1]["view"]["table"]
        return bool(table and len(table["plays"]) >= 2)

    play_until(page, trick_under_way)
    shown, view = read(page, states)
    table = view["table"]
    slots = by_seat(shown)
    for i, p in enumerate(table["plays"]):
        slot = slots[p["seat"]]
        assert slot["order"] == i + 1
        assert slot["lead"] == (i == 0)
        assert slot["win"] == (p["seat"] == table["seat"])
        assert sorted(slot["cards"]) == sorted(cards(p["cards"]))
        assert not slot["stale"]
    played = {p["seat"] for p in table["plays"]}
    assert all(not s["cards"] and not s["said"] for seat, s in slots.items() if seat not in played)
    names = [pl["name"] for pl in states[-1]["players"]]
    assert f"{names[table['leader']]} 首出" in shown["info"]
    call = view["detail"]["friend_call"]
    assert shown["called"]["card"] == call["card"]
    assert f"第{call['n']}张" in shown["called"]["text"]
    shot(page, "trick-zhaopengyou-desktop")
    axe_check(page, ".table")  # the middle's marks and the called card included

    # A later trick: the last one, peeked at, shows who took it and its points.
    def second_trick(p: Page) -> bool:
        if not states or p.locator(".table[data-phase='play'] .pit").count() == 0:
            return False
        v = states[-1]["view"]
        return bool(v["table"] and v["detail"]["last_trick"])

    play_until(page, second_trick)
    page.locator("#peek").click()
    expect(page.locator(".pit[data-peek='1']")).to_have_count(1)
    shown, view = read(page, states)
    last = view["detail"]["last_trick"]
    slots = by_seat(shown)
    for i, (seat, text) in enumerate(last["plays"]):
        assert slots[seat]["order"] == i + 1 and slots[seat]["stale"]
        assert slots[seat]["took"] == (seat == last["winner"])
        assert sorted(slots[seat]["cards"]) == sorted(cards(text))
    winner = states[-1]["players"][last["winner"]]["name"]
    assert f"{winner} 收" in shown["info"]
    if last["points"]:
        assert f"{last['points']} 分" in shown["info"]
    shot(page, "trick-peek-zhaopengyou-desktop")
    page.locator("#peek").click()
    expect(page.locator(".pit[data-peek='1']")).to_have_count(0)


def test_a_climbing_games_slots_hold_this_trick_only(desktop: Page) -> None:
    page = desktop
    states = capture(page)
    enter_as_guest(page)
    quick_match(page, "ddz3-bots")

    def followed(p: Page) -> bool:
        if not states or p.locator(".table[data-phase='play'] .pit").count() == 0:
            return False
        table = states[-1]["view"]["table"]
        return bool(table and len(table["acted"]) >= 2)

    play_until(page, followed)
    shown, view = read(page, states)
    table = view["table"]
    slots = by_seat(shown)
    for seat in table["acted"]:
        slot = slots[seat]
        assert not slot["stale"] and slot["win"] == (seat == table["seat"])
        text = view["last"][seat]
        if text.startswith("play "):
            assert "".join(sorted(slot["cards"])) == "".join(sorted(cards(text[5:])))
        else:
            assert slot["said"] == "不出"  # a pass, never relabelled from the bidding
    for seat, slot in slots.items():
        if seat not in table["acted"]:  # an earlier trick's play is not on the table
            assert not slot["cards"] and not slot["said"]
    shot(page, "trick-ddz3-desktop")


def test_baohuangs_called_card_is_on_the_table(desktop: Page) -> None:
    page = desktop
    states = capture(page)
    enter_as_guest(page)
    quick_match(page, "baohuang-bots")

    def called(p: Page) -> bool:
        return bool(states) and bool(states[-1]["view"]["detail"].get("called")) \
            and p.locator(".pit .called").count() > 0

    play_until(page, lambda p: called(p) or p.locator(".table[data-phase='play']").count() > 0)
    if not called(page):  # the emperor played alone (独保): nothing was called
        assert page.locator(".pit .called").count() == 0
        return
    shown, view = read(page, states)
    assert shown["called"]["card"] == view["detail"]["called"]
    guard = next((i for i, r in enumerate(view["roles"]) if r == "guard"), None)
    if guard is None:
        assert "侍卫还没亮明" in shown["called"]["text"]
    else:
        assert states[-1]["players"][guard]["name"] in shown["called"]["text"]
    shot(page, "trick-baohuang-desktop")
