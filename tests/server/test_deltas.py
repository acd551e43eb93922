"""Deltas through a real server and real WebSockets (docs/protocol.md, "Deltas").

A client that says hello with ``"deltas": true`` rebuilds every state from the
table's deltas (``HallClient(deltas=True)``: ``games.deltas.apply_events``, the hash
checked): at every action its rebuilt view is the engine's view of that seq, like a
full-view client's at the same table; reconnecting, a new game and every
``full_state_every`` messages bring a full ``state``; ``resync`` brings one on demand;
and a seat's deltas carry nothing it may not see: with the other seats' cards swapped,
they are the same to the byte.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from cardhall.client import HallClient
from cardhall.games.deltas import view_hash
from tests.server.conftest import HallProcess, dealt_room, running_hall
from tests.server.play import (
    check_views,
    guests,
    play_out,
    players,
    seat,
    vacate,
    variant_params,
)

Message = dict[str, Any]
FULL_EVERY = 20  # the default ``limits.full_state_every``


@pytest.mark.slow
@pytest.mark.parametrize("variant", variant_params())
async def test_a_delta_client_rebuilds_every_view_a_full_client_is_sent(
        hall: HallProcess, variant: str) -> None:
    n = players(variant)
    async with guests(hall.url, n, deltas=frozenset({0}), timeout=40) as clients:
        delta, full = clients[0], clients[1]
        table, _ = await seat(clients, f"{variant}-humans")
        played = await play_out(clients, table, seed=11)
        assert played.errors == []
        game = played.settled["game"]
        record = (await full.get(f"/api/games/{game}"))["record"]
        rebuilt = [st for i, st in played.states if i == 0]
        sent = [st for i, st in played.states if i == 1]
        # Every rebuilt view is the engine's view at its seq (as every full one is) ...
        assert check_views(record, [(0, st) for st in rebuilt]) == len(rebuilt)
        assert check_views(record, [(1, st) for st in sent]) == len(sent)
        # ... and it was told every seq the full client was, in the same phases.
        assert [(st["seq"], st["phase"], st["view"]["phase"]) for st in rebuilt] == \
            [(st["seq"], st["phase"], st["view"]["phase"]) for st in sent]
        # Most changes came as deltas, each hash held, and a full state at least every
        # FULL_EVERY messages of the table.
        deltas = [d for d in delta.deltas_seen if d["table"] == table]
        fulls = [s for s in delta.fulls_seen if s["table"] == table]
        assert delta.resyncs == 0
        assert len(deltas) >= len(record["actions"]) - len(fulls)
        assert len(fulls) >= (len(deltas) + len(fulls)) // FULL_EVERY
        assert all(d["events"][-1]["type"] == "view" for d in deltas)
        assert {view_hash(st["view"]) for st in rebuilt} >= {d["hash"] for d in deltas}
        await vacate(clients, table, f"{variant}-humans")


async def test_a_reconnect_a_new_game_and_a_resync_bring_a_full_state(
        hall: HallProcess) -> None:
    async with guests(hall.url, 3, deltas=frozenset({0, 1, 2}), timeout=40) as clients:
        c = clients[0]
        table, firsts = await seat(clients, "ddz3-humans")
        assert len(c.fulls_seen) == 1 and c.deltas_seen == []  # the first state is full
        # The game moves: each change comes as a delta on the state before it.
        st = next(s for s in firsts if s["seat"] in s["view"]["acting"])
        actor = clients[firsts.index(st)]
        await actor.act(table, st["view"]["legal"][0], st["seq"])
        moved = await c.expect("state", table=table, seq=st["seq"] + 1)
        assert c.deltas_seen[-1]["base"] == st["seq"] and len(c.fulls_seen) == 1
        # resync: the table's last state again, whole, and the deltas go on from it.
        await c.send({"type": "resync", "table": table})
        again = await c.expect("state", table=table)
        assert again == moved and c.fulls_seen[-1]["view"] == moved["view"]
        await c.send({"type": "resync", "table": "no-such-table"})
        assert (await c.expect("error"))["code"] == "unknown_table"
        # A reconnect is a gap: the hello brings the full state, not a delta.
        seen = len(c.deltas_seen)
        await c.drop()
        await c.expect("welcome")
        back = await c.expect("state", table=table)
        assert len(c.deltas_seen) == seen and c.fulls_seen[-1] is back  # came whole
        assert back["seq"] >= moved["seq"]  # his seat may have gone on 托管 meanwhile
        if back["view"]["auto"][back["seat"]]:
            await c.act(table, "auto off", back["seq"])
        # A new game at the table starts with a full state.
        played = await play_out(clients, table, seed=5)
        assert played.errors == [] and c.resyncs == 0
        for x in clients:
            await x.next(table)
        nxt = await c.expect("state", table=table,
                             where=lambda m: m["game"] != played.settled["game"])
        assert c.fulls_seen[-1]["game"] == nxt["game"] and c.fulls_seen[-1]["seq"] == 0
        await vacate(clients, table, "ddz3-humans")


async def test_a_full_view_client_is_told_what_it_always_was(hall: HallProcess) -> None:
    """Without the opt-in: no ``delta``, no ``events`` field, resync has nothing to send."""
    async with guests(hall.url, 3, timeout=40) as clients:
        table, firsts = await seat(clients, "ddz3-humans")
        assert all(set(s) == {"type", "table", "room", "game", "seq", "seat", "view",
                              "deadline", "players", "phase", "code", "owner",
                              "watchers", "spectators"}  # 观战's: additive fields
                   for s in firsts)
        await clients[0].send({"type": "resync", "table": table})
        assert (await clients[0].expect("error"))["code"] == "unknown_table"
        played = await play_out(clients, table, seed=2)
        assert all(st["type"] == "state" and "events" not in st for _, st in played.states)
        await vacate(clients, table, "ddz3-humans")


# -- no delta carries what its seat may not see -------------------------------------------

#: Seat 0 is the landlord and leads singles from its hand; seats 1 and 2 always pass.
#: The two deals differ only in seats 1 and 2's hands (swapped): seat 0 may not tell.
LEAD = "33399955JJKKAA2XD"
ONE, TWO = "34444556666778889", "77TTTJJQQQKKAA222"
DEALT = (dealt_room("swap-a", "ddz3", {"landlord": 0, "deal": {
            "hands": [LEAD, ONE, TWO], "kitty": "8TQ"}})
         + dealt_room("swap-b", "ddz3", {"landlord": 0, "deal": {
            "hands": [LEAD, TWO, ONE], "kitty": "8TQ"}})
         ).replace("bot_wait_seconds = 0\n", "")  # three guests, no bot
LEADS = 6


@pytest.fixture(scope="module")
def dealt_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    yield from running_hall(tmp_path_factory.mktemp("deltas"), rooms=DEALT)


async def _at(c: HallClient, table: str, seq: int) -> Message:
    """The client's state of ``table`` once it is at ``seq``."""
    while c.states[table]["seq"] != seq:
        await c.expect("state", table=table)
    return c.states[table]


async def _seat0_deltas(url: str, room: str) -> list[Message]:
    """Seat 0's deltas over LEADS rounds (it leads its smallest single, the others
    pass), without the ids and times that differ from table to table."""
    async with guests(url, 3, deltas=frozenset({0, 1, 2}), timeout=40) as clients:
        table, firsts = await seat(clients, room)
        by_seat = {s["seat"]: clients[i] for i, s in enumerate(firsts)}
        seq = 0
        for _ in range(LEADS):
            for s in (0, 1, 2):
                st = await _at(by_seat[s], table, seq)
                action = next(a for a in st["view"]["legal"] if a != "pass") if s == 0 \
                    else "pass"
                await by_seat[s].act(table, action, seq)
                seq += 1
        await _at(by_seat[0], table, seq)
        told = [{k: v for k, v in d.items()
                 if k not in ("table", "room", "game", "deadline", "players")}
                for d in by_seat[0].deltas_seen if d["table"] == table]
        await vacate(clients, table, room)
        return told


async def test_a_seats_deltas_do_not_change_with_the_cards_it_cannot_see(
        dealt_hall: HallProcess) -> None:
    a = await _seat0_deltas(dealt_hall.url, "swap-a")
    b = await _seat0_deltas(dealt_hall.url, "swap-b")
    assert len(a) >= 3 * LEADS - 1  # every change but the full ones came as a delta
    assert [json.dumps(d, sort_keys=True) for d in a] == [json.dumps(d, sort_keys=True)
                                                         for d in b]
    assert any(e["type"] == "play" for d in a for e in d["events"])  # the story is told
