"""A game's refusal in the player's language: the browser renders an ``error``'s
``reason`` and ``params`` with the hall's table (/api/reasons, web/reasons.js) exactly as
``games.reasons.render`` does, and the table screen shows that sentence, not the English
``message`` (docs/protocol.md)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from playwright.sync_api import WebSocketRoute, expect

from cardhall.games import new_game
from cardhall.games.errors import Params
from cardhall.games.reasons import LANGUAGES, render
from tests.games.test_reasons import _candidates
from tests.web.conftest import PageMaker
from tests.web.helpers import enter_as_guest, quick_match, wait_turn


def samples() -> dict[str, Params]:
    """One real refusal's params per reason, from seeded games of three variants (lists,
    phases and suit groups among them)."""
    found: dict[str, Params] = {}
    for variant in ("ddz3", "zhaopengyou", "ddz3_happy"):
        rng = random.Random(variant)
        state = new_game(variant, 1)
        seen: list[str] = []
        for _ in range(25):
            for text, seat in _candidates(state, rng, seen):
                refusal = state.refusal(text, seat)
                if refusal is not None:
                    found.setdefault(refusal.reason, refusal.params)
            seat = rng.choice(state.acting)
            action = rng.choice(state.legal_actions(seat))
            state.apply(action, seat)
            seen.append(action.at(None).text)
    return found


def test_the_browser_says_a_refusal_as_the_hall_does(new_page: PageMaker) -> None:
    page = new_page()
    enter_as_guest(page)
    cases = samples()
    assert {"not_your_turn", "wrong_step", "must_follow_suit", "does_not_beat"} <= set(cases)
    said: dict[str, dict[str, str | None]] = page.evaluate("""async (cases) => {
        const m = await import("/reasons.js");
        await m.loadReasons(async (method, path) => (await fetch(path)).json());
        const out = {};
        for (const [reason, params] of Object.entries(cases)) {
            out[reason] = {zh: m.render(reason, params, "zh"), en: m.render(reason, params, "en")};
        }
        return out;
    }""", cases)
    for reason, params in cases.items():
        for language in LANGUAGES:
            assert said[reason][language] == render(reason, params, language), (reason, language)


def test_the_table_shows_a_refusal_in_chinese(new_page: PageMaker) -> None:
    """An ``error`` with a reason (sent here into the page's own connection, as the hall
    would for a play that no longer beats) shows the table's sentence in 中文."""
    page = new_page()
    sockets: list[WebSocketRoute] = []

    def through(ws: WebSocketRoute) -> None:
        ws.connect_to_server()  # everything passes both ways, as without the route
        sockets.append(ws)

    page.route_web_socket(re.compile(r"/ws$"), through)
    enter_as_guest(page)
    quick_match(page, "ddz3-bots")
    assert wait_turn(page) == "turn"
    error: dict[str, Any] = {"type": "error", "code": "illegal", "message": "55 does not beat 77",
                             "reason": "does_not_beat", "params": {"play": "55", "beat": "77"}}
    sockets[-1].send(json.dumps(error))
    expect(page.locator(".controls .reason")).to_have_text("55 管不上 77")
    plain = {"type": "error", "code": "illegal", "message": "no game is running at this table"}
    sockets[-1].send(json.dumps(plain))  # no reason: its code's sentence, in Chinese
    expect(page.locator(".controls .reason")).to_have_text("现在不能这样做")
    for code, said in (("stale", "牌局已经变了"), ("busy", "服务器正忙"),
                       ("rate_limited", "太频繁")):
        sockets[-1].send(json.dumps({"type": "error", "code": code, "message": "in English"}))
        expect(page.locator(".controls .reason")).to_contain_text(said)
    sockets[-1].send(json.dumps({"type": "error", "code": "teapot", "message": "as sent"}))
    expect(page.locator(".controls .reason")).to_have_text("as sent")  # a code it does not know
    page.locator("#lang").click()  # English: the hall's own words where the code is vague
    sockets[-1].send(json.dumps(plain))
    expect(page.locator(".controls .reason")).to_have_text(plain["message"])
