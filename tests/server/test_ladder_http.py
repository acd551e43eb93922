"""Challenges and the ladder over HTTP on a real server (docs/protocol.md, "Challenges
and the ladder"): every refusal with its code and status, the opt-in, and a variant's
ladder page open to anyone with the anchors on it."""

from __future__ import annotations

import secrets
from typing import Any

import httpx
import pytest

from cardhall.client import HallClient, HttpError
from tests.server.conftest import HallProcess


async def refused(call: Any) -> tuple[int, str]:
    with pytest.raises(HttpError) as got:
        await call
    return got.value.status, got.value.code


async def test_challenges_and_opt_in_are_refused_with_their_codes(hall: HallProcess) -> None:
    async with HallClient(hall.url, timeout=20) as me, \
            HallClient(hall.url, timeout=20) as visitor:
        name = f"ch{secrets.token_hex(4)}"
        await me.register(name, "secret-pass-1")
        mine = await me.post("/api/bots", {"name": f"my{secrets.token_hex(4)}"})
        await visitor.guest()
        # A person is no competitor: he challenges, he is not challenged nor laddered.
        assert await refused(me.post("/api/ladder/optin", {"on": True})) == (403, "forbidden")
        # Nobody rates his own bot up by a match with it.
        assert await refused(me.post("/api/challenges", {"opponent": mine["name"]})) \
            == (400, "bad_request")
        async with HallClient(hall.url, timeout=20) as owner:
            await owner.register(f"ow{secrets.token_hex(4)}", "secret-pass-1")
            made = await owner.post("/api/bots", {"name": f"op{secrets.token_hex(4)}"})
        async with HallClient(hall.url, token=made["token"], timeout=20) as other:
            await refused_all(hall.url, me, visitor, other)


async def refused_all(url: str, me: HallClient, visitor: HallClient,
                      other: HallClient) -> None:
    """Every refusal, ``other`` being another owner's bot account."""
    anonymous = httpx.AsyncClient(base_url=url)
    try:
        answer = await anonymous.post("/api/challenges", json={"opponent": "planning"})
        assert answer.status_code == 401
    finally:
        await anonymous.aclose()
    assert await refused(visitor.post("/api/challenges", {"opponent": "planning"})) \
        == (403, "forbidden")
    assert await refused(visitor.post("/api/ladder/optin", {"on": True})) \
        == (403, "forbidden")
    assert await refused(me.post("/api/challenges", {"opponent": "planning",
                                                     "colour": "red"})) \
        == (400, "malformed")
    assert await refused(other.post("/api/ladder/optin", {"on": "yes"})) \
        == (400, "malformed")
    assert await refused(me.post("/api/challenges", {"opponent": "planning",
                                                     "deals": 99})) \
        == (400, "bad_request")
    assert await refused(me.post("/api/challenges", {"opponent": "planning",
                                                     "variant": "chess"})) \
        == (400, "bad_request")
    assert await refused(me.post("/api/challenges", {"opponent": "no-such-one"})) \
        == (404, "not_found")
    them = (await other.me())["name"]
    assert await refused(me.post("/api/challenges", {"opponent": them})) \
        == (409, "unavailable")  # not in the ladder
    assert await other.post("/api/ladder/optin", {"on": True}) == {"on": True}
    assert await refused(me.post("/api/challenges", {"opponent": them})) \
        == (409, "unavailable")  # in it, but not connected
    assert await other.post("/api/ladder/optin", {"on": False}) == {"on": False}
    assert await refused(me.get("/api/challenges/vnothere")) == (404, "not_found")
    assert await refused(me.get("/api/ladder/chess")) == (404, "not_found")


async def test_a_variants_ladder_is_open_to_anyone(hall: HallProcess) -> None:
    async with httpx.AsyncClient(base_url=hall.url) as anyone:
        answer = await anyone.get("/api/ladder/zhaopengyou")
        assert answer.status_code == 200
        board = answer.json()
        anchors = {r["name"]: r for r in board["ratings"] if r["anchor"]}
        assert set(anchors) == {"planning", "search"}
        assert anchors["search"]["rating"] > anchors["planning"]["rating"]
        assert board["variant"] == "zhaopengyou" and isinstance(board["matches"], list)
