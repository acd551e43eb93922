"""In a window where several seats answer at once (欢乐's 开始 / 明牌开始), another seat's
answer arriving while the player's own is on its way must not give him his buttons back
(issue 26: a second tap sent twice). His answer is held on its way here (a route on the
page's WebSocket), a bot's answer arrives meanwhile, and the buttons stay disabled; let
through, it is the only answer he sent."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

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
