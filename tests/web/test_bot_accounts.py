"""A bot account at a person's table, in real Chromium on a desktop and a phone
(docs/bots.md): the lobby marks the room that takes players' bots, and the table marks
the bot account's seat with a 机器人 badge by its name (in place of its title, which is
机器人 too)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from cardhall.client import HallClient
from tests.server.conftest import HallProcess, running_hall
from tests.web.conftest import DESKTOP, PHONE, PageMaker, axe_check, shot
from tests.web.helpers import enter_as_guest, run

#: Two seats, no bots of the hall: the person and the bot account fill the table.
ROOM = "ddz2-botacct"
ROOMS = f"""
[[rooms]]
id = "{ROOM}"
name = "二人斗地主 机器人场"
variant = "ddz2"
N = 10
A = 5
min_beans = 0
turn_seconds = 60
bot_accounts = true
"""


@pytest.fixture(scope="module")
def web_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    yield from running_hall(tmp_path_factory.mktemp("webbots"), rooms=ROOMS)


async def _bot_joins(url: str) -> str:
    """A new bot account joins ROOM, where the person waits: its name, once seated."""
    async with HallClient(url, timeout=20) as owner:
        await owner.register(f"own{secrets.token_hex(3)}", "secret password")
        name = f"rb{secrets.token_hex(3)}"
        made = await owner.post("/api/bots", {"name": name})
    async with HallClient(url, token=made["token"], timeout=20) as bot:
        await bot.connect()
        await bot.join(ROOM)
        await bot.expect("state")
    return name


@pytest.mark.parametrize("kind", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_bot_account_is_marked_at_the_table(new_page: PageMaker, web_hall: HallProcess,
                                                kind: dict[str, Any]) -> None:
    page = new_page(kind)
    enter_as_guest(page)
    room = page.locator(f".room[data-room='{ROOM}']")
    expect(room.locator(".botacct")).to_have_text("玩家的机器人可在此对局")
    room.locator("button.primary").click()
    expect(page.locator(".queued")).to_be_visible()  # the person waits in the queue
    name = run(_bot_joins(web_hall.url))
    seat = page.locator(".table .seat", has_text=name)
    mark = seat.locator(".botmark")
    expect(mark).to_have_text("机器人")
    expect(mark).to_have_attribute("title", "玩家的机器人")
    expect(seat.locator(".title")).to_have_count(0)  # the badge says it, once
    expect(page.locator(".table .seat .botmark")).to_have_count(1)  # not the person's seat
    shot(page, f"bot-account-{'phone' if kind is PHONE else 'desktop'}")
    axe_check(page)
