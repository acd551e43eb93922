"""Whole games through a real server: matching, views, settlement, reconnect, escape."""

from __future__ import annotations

import pytest

from cardhall.client import HallClient
from tests.server.conftest import HallProcess
from tests.server.play import (
    check_views,
    guests,
    play_out,
    players,
    seat,
    vacate,
    variant_params,
)


@pytest.mark.parametrize("variant", variant_params())
async def test_a_whole_game_to_settled(hall: HallProcess, variant: str) -> None:
    n = players(variant)
    async with guests(hall.url, n) as clients:
        before = [(await c.me())["beans"] for c in clients]
        table, firsts = await seat(clients, f"{variant}-humans")
        assert sorted(s["seat"] for s in firsts) == list(range(n))
        game = firsts[0]["game"]
        played = await play_out(clients, table, seed=7)
        assert played.errors == []
        settled = played.settled
        assert settled["game"] == game
        assert set(settled["beans"]) == {str(i) for i in range(n)}
        # /api/me already shows the settlement when `settled` arrives.
        for c, had in zip(clients, before, strict=True):
            seat_no = c.states[table]["seat"]
            me = await c.me()
            assert me["beans"] == had + settled["beans"][str(seat_no)]
            assert me["record"][variant]["games"] == 1
        stored = await clients[0].get(f"/api/games/{game}")
        assert stored["players"] == [
            next(c.player["id"] for c in clients if c.states[table]["seat"] == i)  # type: ignore[index]
            for i in range(n)]
        assert stored["beans"] == settled["beans"]
        assert stored["result"] == settled["result"]
        assert check_views(stored["record"], played.states) >= len(stored["record"]["actions"])
        await vacate(clients, table, f"{variant}-humans")


async def test_live_game_is_not_served(hall: HallProcess) -> None:
    async with guests(hall.url, 3) as clients:
        _, firsts = await seat(clients, "ddz3-humans")
        answer = await clients[0].http.get(f"/api/games/{firsts[0]['game']}")
        assert answer.status_code == 404
        assert answer.json()["error"] == "not_found"
        assert "still being played" in answer.json()["message"]
        await vacate(clients, firsts[0]["table"], "ddz3-humans")


async def test_reconnect_mid_game_gets_the_full_state(hall: HallProcess) -> None:
    async with guests(hall.url, 3) as clients:
        table, _ = await seat(clients, "ddz3-humans")
        c = clients[1]
        before = c.states[table]
        await c.drop()
        gone = await c.expect("disconnected")
        assert gone["reconnecting"] is True
        welcome = await c.expect("welcome")
        assert welcome["tables"] == [table]
        state = await c.expect("state", table=table)
        assert state["game"] == before["game"]
        assert state["seat"] == before["seat"]
        assert state["view"]["hand"] == before["view"]["hand"]
        # While he was away his seat went on 托管; he takes it back and the game goes on.
        seat_no = state["seat"]
        if state["view"]["auto"][seat_no]:
            await c.act(table, "auto off", state["seq"])
            back = await c.expect("state", table=table,
                                  where=lambda m: not m["view"]["auto"][seat_no])
            assert back["seq"] == state["seq"] + 1
        played = await play_out(clients, table, seed=3)
        assert played.settled["game"] == before["game"]
        await vacate(clients, table, "ddz3-humans")


async def test_reconnect_between_games_tells_the_settlement_again(hall: HallProcess) -> None:
    async with guests(hall.url, 3) as clients:
        table, _ = await seat(clients, "ddz3-humans")
        settled = (await play_out(clients, table, seed=4)).settled
        c = clients[2]
        await c.drop()
        await c.expect("welcome")
        state = await c.expect("state", table=table)
        assert state["phase"] == "between"
        again = await c.expect("settled", table=table)
        assert again == settled  # the same game, beans, points and titles
        await vacate(clients, table, "ddz3-humans")


async def test_escape_ends_a_ddz3_game(hall: HallProcess) -> None:
    async with guests(hall.url, 3) as clients:
        table, firsts = await seat(clients, "ddz3-humans")
        leaver = clients[0]
        await leaver.leave(table=table)
        left = await leaver.expect("left", table=table)
        assert left["reason"] == "left"
        settled = await clients[1].expect("settled", table=table)
        assert settled["result"]["ended"] == "escape"
        leaver_seat = firsts[0]["seat"]
        assert settled["beans"][str(leaver_seat)] < 0
        assert sum(settled["beans"].values()) <= 0  # the fee aside, zero-sum
        me = await leaver.me()
        assert me["beans"] < 10_000
        await vacate(clients, table, "ddz3-humans")


async def test_history_lists_finished_games(hall: HallProcess) -> None:
    async with guests(hall.url, 3) as clients:
        table, firsts = await seat(clients, "ddz3-humans")
        await clients[0].leave(table=table)
        await clients[0].expect("left", table=table)
        await clients[1].expect("settled", table=table)
        rows = await clients[1].get("/api/history")
        assert [r["game"] for r in rows] == [firsts[0]["game"]]
        assert rows[0]["variant"] == "ddz3"
        await vacate(clients, table, "ddz3-humans")


async def test_second_connection_supersedes_the_first(hall: HallProcess) -> None:
    async with guests(hall.url, 1) as (first,):
        second = HallClient(hall.url, first.token)
        try:
            await second.connect()
            err = await first.expect("error")
            assert err["code"] == "superseded"
            gone = await first.expect("disconnected")
            assert gone["code"] == 4001 and gone["reconnecting"] is False
            await second.ping()
            assert (await second.expect("pong"))["type"] == "pong"
        finally:
            await second.close()
