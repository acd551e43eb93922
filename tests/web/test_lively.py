"""Liveliness that can be turned off (issue 26): plays, the deal, bombs, the rocket and a
spring animated (CSS only, none under reduced motion or with effects off), short sounds
made by the page (never before a gesture, none while muted, the mute remembered), and
an avatar drawn by the page in every seat, the same for a player on every page.

Bombs, the rocket and a spring are rare in a short game: they are told to the page
here through its own connection (``route_web_socket``), as the hall would tell them: a
``state`` one action on from the page's own, with the engine's events."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, WebSocketRoute, expect

from tests.web.conftest import DESKTOP, PHONE, PageMaker, shot
from tests.web.helpers import enter_as_guest, quick_match, take_turn, wait_turn
from tests.web.test_session import private_table

#: Every element fx.js marks, as it is added to the page: its classes and the animation
#: it runs then (the computed animation-name: "none" when nothing moves).
WATCH_FX = """
window.fxSeen = [];
const FX = ".fx-play, .fx-pass, .fx-deal, .fx-bomb, .fx-rocket, .fx-burst, .fx-shake";
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) {
    if (!(n instanceof Element)) continue;
    for (const el of [n, ...n.querySelectorAll(FX)]) {
      if (!el.matches(FX)) continue;
      const target = el.matches(".hand") ? el.querySelector(".card")
        : el.matches(".fx-burst") ? el.querySelector("span") : el;
      window.fxSeen.push({ cls: el.className, seat: el.dataset.seat ?? null,
        anim: target ? getComputedStyle(target).animationName : "none" });
    }
  }
}).observe(document, { childList: true, subtree: true });
"""

#: The page's AudioContexts and every sound source started in them, counted.
WATCH_AUDIO = """
window.audioContexts = 0;
window.soundsStarted = 0;
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  constructor(...args) { super(...args); window.audioContexts += 1; }
};
const start = AudioScheduledSourceNode.prototype.start;
AudioScheduledSourceNode.prototype.start = function (...args) {
  window.soundsStarted += 1;
  return start.apply(this, args);
};
"""

SEEN = "() => window.fxSeen"


def watched(page: Page) -> Page:
    page.add_init_script(WATCH_FX)
    page.add_init_script(WATCH_AUDIO)
    return page


def seen(page: Page, cls: str) -> list[dict[str, Any]]:
    return [e for e in page.evaluate(SEEN) if cls in e["cls"].split()]


def play_until_seen(page: Page, cls: str, limit: int = 60) -> list[dict[str, Any]]:
    """Take turns until an element marked `cls` was added (or the game is settled)."""
    for _ in range(limit):
        if seen(page, cls):
            return seen(page, cls)
        if wait_turn(page) == "settled":
            break
        take_turn(page)
    return seen(page, cls)


def reload_at_a_table(page: Page, room: str = "ddz3-bots") -> None:
    """Reload; back at the table, or at a new one if the game ended meanwhile (a slow
    machine: the table put the idle guest on 托管 and played the game out)."""
    page.reload()
    page.wait_for_selector(".table .hand, #rooms[data-loaded='1']")
    if not page.locator(".table .hand").count():
        quick_match(page, room)


def test_a_play_and_the_deal_are_animated_with_effects_on(new_page: PageMaker) -> None:
    page = watched(new_page(DESKTOP))
    enter_as_guest(page)
    quick_match(page, "ddz3-bots")
    expect(page.locator("#fx-toggle")).to_have_attribute("aria-pressed", "true")
    deal = seen(page, "fx-deal")
    assert deal and deal[0]["anim"] == "fx-deal", deal
    plays = play_until_seen(page, "fx-play")
    assert plays, "no play was marked"
    assert all(re.fullmatch(r"fx-from-(below|above|left|right)", p["anim"]) for p in plays), plays
    # The play is in the slot at once: the mark is a class on the element drawn.
    assert all("slot" in p["cls"].split() for p in plays)


def test_nothing_moves_under_reduced_motion(new_page: PageMaker) -> None:
    page = watched(new_page({**DESKTOP, "reduced_motion": "reduce"}))
    enter_as_guest(page)
    quick_match(page, "ddz3-bots")
    plays = play_until_seen(page, "fx-play")
    assert plays, "no play was marked"
    marked = page.evaluate(SEEN)
    assert marked and all(e["anim"] == "none" for e in marked), marked


def test_effects_turned_off_stay_off_after_a_reload(new_page: PageMaker) -> None:
    page = watched(new_page(DESKTOP))
    enter_as_guest(page)
    quick_match(page, "ddz3-bots")
    page.locator("#fx-toggle").click()
    expect(page.locator("#fx-toggle")).to_have_attribute("aria-pressed", "false")
    reload_at_a_table(page)
    expect(page.locator("#fx-toggle")).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("() => document.documentElement.dataset.fx") == "off"
    plays = play_until_seen(page, "fx-play")
    assert plays and all(e["anim"] == "none" for e in page.evaluate(SEEN)), page.evaluate(SEEN)


def test_the_mute_is_remembered_and_a_muted_page_makes_no_sound(new_page: PageMaker) -> None:
    page = watched(new_page(DESKTOP))
    enter_as_guest(page)
    quick_match(page, "ddz3-bots")
    toggle = page.locator("#sound-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    reload_at_a_table(page)
    expect(toggle).to_have_attribute("aria-pressed", "false")
    for _ in range(4):  # clicks (gestures) and plays, sounds asked for: none made
        if wait_turn(page) == "settled":
            break
        take_turn(page)
    assert page.evaluate("() => [window.audioContexts, window.soundsStarted]") == [0, 0]
    toggle.click()  # sound on: a click to say so, and the plays sound from then on
    expect(toggle).to_have_attribute("aria-pressed", "true")
    page.wait_for_function("() => window.soundsStarted > 0")
    assert page.evaluate("() => localStorage.getItem('cardhall.sound')") == "1"


def test_no_sound_before_the_first_gesture(new_page: PageMaker) -> None:
    """A page opened at a table hears the bots play but sounds nothing until the player
    has clicked: the browser's autoplay policy, kept by the page itself."""
    first = new_page(DESKTOP)
    enter_as_guest(first)
    quick_match(first, "ddz3-bots")
    # The same player in a page never touched (the first one is superseded; the seat is
    # never left empty, as a reload might leave it long enough for the game to end).
    page = watched(first.context.new_page())
    page.goto(first.url)
    expect(page.locator(".table .hand")).to_be_attached()
    assert wait_turn(page) == "turn"  # the bots played meanwhile: told, not sounded
    assert page.evaluate("() => [window.audioContexts, window.soundsStarted]") == [0, 0]
    for _ in range(12):  # gestures, then plays (a bid is not sounded): a sound
        take_turn(page)
        if page.evaluate("() => window.soundsStarted") or wait_turn(page) == "settled":
            break
    page.wait_for_function("() => window.soundsStarted > 0")


def avatars(page: Page) -> dict[str, dict[str, str]]:
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('.seat')].map(
        (s) => { const a = s.querySelector('.who svg.avatar');
                 return [s.dataset.seat, a ? { kind: a.dataset.kind, id: a.dataset.avatar,
                                               svg: a.innerHTML } : null]; }))""")


def test_every_seat_has_an_avatar_the_same_on_two_pages(new_page: PageMaker) -> None:
    owner, friend = new_page(DESKTOP), new_page(PHONE)
    private_table(owner, friend)
    seen_owner, seen_friend = avatars(owner), avatars(friend)
    assert len(seen_owner) == 3 and all(seen_owner.values()), seen_owner
    assert seen_owner == seen_friend  # the same face for each player on both pages
    kinds = sorted(a["kind"] for a in seen_owner.values())
    assert kinds == ["bot", "human", "human"], kinds
    people = [a for a in seen_owner.values() if a["kind"] == "human"]
    bot = next(a for a in seen_owner.values() if a["kind"] == "bot")
    assert people[0]["id"] != people[1]["id"]
    assert bot["svg"] != people[0]["svg"] and bot["svg"] != people[1]["svg"]
    shot(owner, "lively-avatars-desktop")
    shot(friend, "lively-avatars-phone")


# --- bombs, the rocket and a spring, told through the page's own connection ---------------

CRAFT = """async ([step, result]) => {
    const { store } = await import("/app.js");
    const st = [...store.tables.values()].find((s) => s.view);
    const view = JSON.parse(JSON.stringify(st.view));
    const seat = step ? step.seat : st.seat;
    const out = { ...st, seq: st.seq + 1, events: step ? [step] : [] };
    if (step) {
        view.phase = "play";
        view.last[seat] = `play ${step.cards}`;
        view.played[seat] = (view.played[seat] || "") + step.cards;
        view.table = { seat, cards: step.cards, kind: step.kind, leader: seat, acted: [seat] };
    }
    if (result) {
        const n = st.players.length;
        view.phase = "over";
        view.acting = [];
        view.result = { ...result, winners: [st.seat], points: Array.from({ length: n }, (_, i) =>
            i === st.seat ? 2 * (n - 1) : -2), ended: "finished", dissolve: false };
        out.phase = "between";
    }
    out.view = view;
    delete out.type;
    return JSON.stringify({ type: "state", ...out });
}"""


def routed(page: Page) -> list[WebSocketRoute]:
    sockets: list[WebSocketRoute] = []

    def through(ws: WebSocketRoute) -> None:
        ws.connect_to_server()
        sockets.append(ws)

    page.route_web_socket(re.compile(r"/ws$"), through)
    return sockets


def tell(page: Page, sockets: list[WebSocketRoute], step: dict[str, Any] | None,
         result: dict[str, Any] | None = None) -> None:
    """Send the page a state one action on from its own: `step` (a play event) or the
    game over with `result`."""
    sockets[-1].send(page.evaluate(CRAFT, [step, result]))


def at_a_table(page: Page, room: str = "ddz3-bots") -> list[WebSocketRoute]:
    sockets = routed(watched(page))
    enter_as_guest(page)
    quick_match(page, room)
    page.wait_for_selector(".table .pit .slot")
    return sockets


def test_a_bomb_and_the_rocket_have_their_own_effect(new_page: PageMaker) -> None:
    for kind, page in (("desktop", new_page(DESKTOP)), ("phone", new_page(PHONE))):
        sockets = at_a_table(page)
        other = (int(page.locator(".seat.pos-me").get_attribute("data-seat") or 0) + 1) % 3
        tell(page, sockets, {"type": "play", "seat": other, "cards": "9999", "kind": "bomb",
                             "bomb": True, "left": 10})
        slot = page.locator(f".pit .slot[data-seat='{other}']")
        expect(slot).to_have_class(re.compile(r"\bfx-bomb\b"))
        expect(page.locator("#fx-layer .fx-burst.fx-bomb")).to_have_count(1)
        page.wait_for_timeout(250)
        shot(page, f"lively-bomb-{kind}")
        bomb = seen(page, "fx-burst")
        assert bomb and bomb[-1]["anim"] == "fx-label", bomb
        tell(page, sockets, {"type": "play", "seat": other, "cards": "XD", "kind": "rocket",
                             "bomb": True, "left": 8})
        expect(slot).to_have_class(re.compile(r"\bfx-rocket\b"))
        expect(page.locator("#fx-layer .fx-burst.fx-rocket")).to_have_count(1)
        expect(page.locator(".felt.fx-shake")).to_have_count(1)
        page.wait_for_timeout(550)
        shot(page, f"lively-rocket-{kind}")


def test_a_spring_has_its_banner_and_the_settlement_its_avatars(new_page: PageMaker) -> None:
    page = new_page(DESKTOP)
    sockets = at_a_table(page)
    tell(page, sockets, None, {"multiplier": {"total": 6, "causes": {"contract": 3, "spring": 2}},
                               "detail": {"spring": "spring"}})
    expect(page.locator("#fx-layer .fx-burst.fx-spring")).to_have_count(1)
    expect(page.locator(".settle tbody tr")).to_have_count(3)
    expect(page.locator(".settle tbody th svg.avatar")).to_have_count(3)
    page.wait_for_timeout(450)
    shot(page, "lively-spring-desktop")


def test_bursts_stay_hidden_under_reduced_motion(new_page: PageMaker) -> None:
    page = new_page({**PHONE, "reduced_motion": "reduce"})
    sockets = at_a_table(page)
    other = (int(page.locator(".seat.pos-me").get_attribute("data-seat") or 0) + 2) % 3
    tell(page, sockets, {"type": "play", "seat": other, "cards": "XD", "kind": "rocket",
                         "bomb": True, "left": 8})
    slot = page.locator(f".pit .slot[data-seat='{other}']")
    expect(slot).to_have_class(re.compile(r"\bfx-rocket\b"))
    assert all(e["anim"] == "none" for e in page.evaluate(SEEN))
    burst = page.locator("#fx-layer .fx-burst")
    if burst.count():
        expect(burst.first).to_be_hidden()
    shot(page, "lively-reduced-phone")


def test_toggles_read_in_english(new_page: PageMaker) -> None:
    page = new_page(DESKTOP)
    enter_as_guest(page)
    page.locator("#lang").click()
    quick_match(page, "ddz3-bots")
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-label", "Sound")
    expect(page.locator("#fx-toggle")).to_have_attribute("aria-label", "Effects")
