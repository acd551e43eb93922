"""A finished game's replay (GET /api/games/{id}/replay) and a guest who registers."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardhall.client import HallClient, HttpError
from cardhall.games import replay
from tests.server.conftest import HallProcess
from tests.server.play import guests, play_out, seat, vacate, variant_params


def _json(value: object) -> Any:
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("variant", variant_params())
async def test_replay_shows_every_step_with_every_hand(hall: HallProcess, variant: str) -> None:
    room = f"{variant}-bots"
    async with guests(hall.url, 1) as (c,):
        table, (first,) = await seat([c], room)
        game_id = first["game"]
        with pytest.raises(HttpError) as live:
            await c.get(f"/api/games/{game_id}/replay")
        assert (live.value.status, live.value.code) == (404, "not_found")
        await play_out([c], table, seed=3, timeout=240)
        stored = await c.get(f"/api/games/{game_id}")
        got = await c.get(f"/api/games/{game_id}/replay")
        await vacate([c], table, room)
    actions = stored["record"]["actions"]
    frames = got["frames"]
    assert len(frames) == len(actions) + 1
    assert [f["action"] for f in frames] == [None, *actions]
    assert (got["result"], got["beans"], got["variant"]) == (
        stored["result"], stored["beans"], variant)
    assert c.player is not None
    assert got["seats"][first["seat"]]["name"] == c.player["name"]
    assert [s["bot"] for s in got["seats"]] == [p is None for p in stored["players"]]
    for step, f in enumerate(frames):
        state = replay({**stored["record"], "actions": actions[:step]})
        views = [_json(state.observe(s)) for s in range(state.players)]
        assert f["hands"] == [v["hand"] for v in views], f"step {step}"
        assert (f["phase"], f["counts"], f["multiplier"]) == (
            views[0]["phase"], views[0]["counts"], views[0]["multiplier"])
        for key in ("landlord", "hidden_landlord", "kitty"):  # known to some: shown
            known = {json.dumps(v["detail"].get(key)) for v in views} - {"null"}
            if len(known) == 1:
                assert json.dumps(f["detail"][key]) == known.pop(), (step, key)
        if step:
            said = actions[step - 1].split(" ", 1)[0]
            if said.startswith("@"):
                assert f["seat"] == int(said[1:])
            else:
                assert f["seat"] == frames[step - 1]["acting"][0]
    assert frames[-1]["result"] == stored["result"]
    assert frames[-1]["phase"] == "over"


async def test_replay_of_an_unknown_game_is_not_found(hall: HallProcess) -> None:
    async with HallClient(hall.url) as c:
        for path in ("/api/games/nope/replay", f"/api/games/{'x' * 65}/replay"):
            with pytest.raises(HttpError) as missing:
                await c.get(path)
            assert (missing.value.status, missing.value.code) == (404, "not_found")


async def test_a_guest_who_registers_keeps_his_beans_and_games(hall: HallProcess) -> None:
    async with guests(hall.url, 1) as (c,):
        assert c.player is not None
        guest_id = c.player["id"]
        table, _ = await seat([c], "ddz3-bots")
        await play_out([c], table, seed=11)
        await vacate([c], table, "ddz3-bots")
        before = await c.me()
        history = await c.get("/api/history")
        token = c.token
        reg = await c.register("Keeper9", "long enough")
        assert reg["token"] == token
        assert reg["player"]["id"] == guest_id and reg["player"]["guest"] is False
        after = await c.me()
        assert (after["beans"], after["record"], after["points"]) == (
            before["beans"], before["record"], before["points"])
        assert after["name"] == "Keeper9" and await c.get("/api/history") == history
        # a registered player's token is no guest's: registering makes a new account
        other = await c.register("Keeper10", "long enough")
        assert other["player"]["id"] != guest_id and other["token"] != token
        async with HallClient(hall.url) as again:
            await again.login("keeper9", "long enough")
            assert (await again.me())["id"] == guest_id
