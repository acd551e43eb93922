"""In a window where several seats answer at once (欢乐's 开始 / 明牌开始), another seat's
answer arriving while the player's own is on its way must not give him his buttons back
(issue 26: a second tap sent twice). His answer is held on its way here (a route on the
page's WebSocket), a bot's answer arrives meanwhile, and the buttons stay disabled; let
through, it is the only answer he sent."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from cardhall.games import new_game
from tests.server.conftest import HallProcess, running_hall
from tests.web.helpers import enter_as_guest, quick_match, seq

#: Bots that answer a second after a window opens: the player's answer goes first.
SLOW = ('[[rooms]]\nid = "ddz3_happy-slow"\nname = "慢场"\nvariant = "ddz3_happy"\n'
        'N = 10\nA = 5\nmin_beans = 0\nbot_wait_seconds = 0\nbot_seconds = 1\n')


@pytest.fixture(scope="module")
def web_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    yield from running_hall(tmp_path_factory.mktemp("slowhall"), rooms=SLOW)


def test_another_seats_answer_does_not_rearm_the_buttons(desktop: Page) -> None:
    page = desktop
    held: list[str] = []
    sent: list[dict[str, object]] = []
    servers: list[WebSocketRoute] = []
    holding = {"on": True}

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        servers.append(server)

        def outgoing(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "act":
                sent.append(msg)
                if holding["on"]:
                    held.append(str(message))
                    return
            server.send(message)

        ws.on_message(outgoing)

    page.route_web_socket(re.compile(r"/ws$"), route)
    enter_as_guest(page)
    quick_match(page, "ddz3_happy-slow")
    answers = page.locator(".table[data-phase='ready'] .controls button.act")
    expect(answers.first).to_be_enabled()
    before = seq(page)
    answers.first.click()
    expect(answers.first).to_be_disabled()
    assert len(held) == 1
    # A bot answers (the table's seq moves on) while his answer is still held.
    page.wait_for_function("old => document.querySelector('.table').dataset.seq !== old",
                           arg=before)
    expect(page.locator(".table .controls button:enabled")).to_have_count(0)
    assert page.locator(".table[data-phase='ready']").count() == 1  # the window is open
    holding["on"] = False
    servers[-1].send(held.pop())
    expect(page.locator(".table[data-phase='ready']")).to_have_count(0)
    assert len([m for m in sent if str(m.get("action", "")).endswith("start")]) == 1


def states(answers: list[int]) -> list[dict[str, Any]]:
    """Seat 0's states through 欢乐's 开始 window and the deal's two 明牌 offers, the seats
    answering each window in the order given (real views from the engine), into the call."""
    game = new_game("ddz3_happy", seed=5)
    out = []
    players = [{"seat": i} for i in range(3)]

    def state() -> dict[str, Any]:
        return {"game": "g", "seat": 0, "seq": len(game.actions), "players": players,
                "view": game.observe(0)}

    out.append(state())
    while game.phase in ("ready", "deal"):
        seat = next(s for s in answers if s in game.acting)
        game.apply("start" if game.phase == "ready" else "no-show", seat=seat)
        out.append(state())
    return out


def test_the_wait_for_an_own_answer_ends_when_it_lands(desktop: Page) -> None:
    """answer.js against the engine's states: held while only others of his window answer;
    over once his answer lands, also where the next step asks him again with the same word
    (his last 明牌 answer closing the deal into his own call)."""
    page = desktop
    page.goto("/")

    def judge(seq: list[dict[str, Any]], at: int) -> list[bool]:
        verdicts: list[bool] = page.evaluate("""async ([seq, at]) => {
            const m = await import("/answer.js");
            const pending = m.pendingOf(seq[at], "no-show");
            return seq.slice(at + 1).map((msg) => m.stillWaiting(pending, msg));
        }""", [seq, at])
        return verdicts

    last_first = states([1, 2, 0])  # he answers each window last
    phases = [s["view"]["phase"] for s in last_first]
    assert phases[-1] == "call" and last_first[-1]["view"]["acting"] == [0]
    # He answered the second offer last: it closed into his call, with his word unchanged.
    at = len(last_first) - 2
    assert last_first[at]["view"]["acting"] == [0]
    assert last_first[-1]["view"]["last"][0] == last_first[at]["view"]["last"][0]
    assert judge(last_first, at) == [False]
    first = states([0, 1, 2])  # he answers each window first: the next state is his own
    assert judge(first, 0)[0] is False
    # He sent on the window's first state, the others' answers came first: held for both.
    assert judge(last_first, 0)[:2] == [True, True]
    assert judge(last_first, 0)[2] is False  # then his own: over
