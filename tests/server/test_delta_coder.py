"""What a delta connection is sent for each state (``server.deltas.DeltaCoder``), without
a server: a delta where the client holds the state before, a full state everywhere else."""

from __future__ import annotations

import json
from typing import Any

from cardhall.games import new_game
from cardhall.games.deltas import apply_events, view_hash
from cardhall.protocol.messages import Left, SeatInfo, State
from cardhall.protocol.peer import Carries, Deliver, parse_peer
from cardhall.server import deltas
from cardhall.server.connection import Connection, Registry
from cardhall.server.deltas import DeltaCoder

PLAYERS = [SeatInfo(seat=i, id=None, name=f"bot{i}", title="bot", bot=True, connected=True,
                    auto=False) for i in range(3)]


def states(game_id: str = "g1", seat: int = 0, count: int = 12) -> list[State]:
    """The states of a seeded game's first ``count`` actions, for ``seat``."""
    game = new_game("ddz3", seed=4)
    out = [State(table="t1", room="r", game=game_id, seq=0, seat=seat,
                 view=game.observe(seat), deadline=None, players=PLAYERS)]
    for seq in range(1, count + 1):
        events = game.apply(game.legal_actions()[0])
        out.append(State(table="t1", room="r", game=game_id, seq=seq, seat=seat,
                         view=game.observe(seat), deadline=None, players=PLAYERS,
                         events=game.events_for(events, seat)))
    return out


def kinds(coder: DeltaCoder, sent: list[State]) -> list[str]:
    return [json.loads(coder.encode(s))["type"] for s in sent]


def test_deltas_follow_a_full_state_and_rebuild_each_view() -> None:
    coder = DeltaCoder(every=100)
    sent = states()
    held: dict[str, Any] = {}
    for st in sent:
        msg = json.loads(coder.encode(st))
        if msg["type"] == "state":
            held = msg["view"]
            assert msg == json.loads(st.model_dump_json())  # a full state as ever
            continue
        assert msg["base"] == msg["seq"] - 1 and "view" not in msg
        assert msg["events"][:-1] == st.events and msg["events"][-1]["type"] == "view"
        held = apply_events(held, msg["events"])
        assert held == json.loads(json.dumps(st.view))
        assert msg["hash"] == view_hash(held)
    assert (coder.fulls, coder.deltas) == (1, len(sent) - 1)


def test_a_full_state_every_n_messages() -> None:
    assert kinds(DeltaCoder(every=5), states()) == (["state"] + ["delta"] * 4) * 2 + [
        "state", "delta", "delta"]
    assert set(kinds(DeltaCoder(every=1), states())) == {"state"}


def test_a_gap_a_new_game_or_another_seat_is_a_full_state() -> None:
    sent = states()
    coder = DeltaCoder()
    assert kinds(coder, [sent[0], sent[1], sent[3], sent[4]]) == [
        "state", "delta", "state", "delta"]  # seq 1 to 3: a gap
    assert kinds(coder, [sent[4]]) == ["delta"]  # the same seq again: a delta (no events)
    assert json.loads(coder.encode(sent[4]))["events"] == [{"type": "view"}]
    assert kinds(coder, [states(game_id="g2")[1]]) == ["state"]  # another game
    assert kinds(coder, [states(game_id="g2", seat=1)[2]]) == ["state"]  # another seat
    coder.forget("t1")  # the player left the table
    assert kinds(coder, [states(game_id="g2", seat=1)[3]]) == ["state"]


def test_a_resync_is_the_last_state_whole_and_a_forwarded_state_is_coded_alike() -> None:
    sent = states()
    here, there = DeltaCoder(), DeltaCoder()
    for st in sent[:5]:
        mine = json.loads(here.encode(st))
        theirs = json.loads(there.encode_text(st.model_dump_json(), Carries.STATE))
        if mine["type"] == "delta":  # forwarded from another process: no story events
            assert theirs["events"] == mine["events"][-1:]
        assert {k: v for k, v in mine.items() if k != "events"} == \
            {k: v for k, v in theirs.items() if k != "events"}
    assert json.loads(here.resync("t1") or "") == json.loads(sent[4].model_dump_json())
    assert here.resync("t2") is None
    assert there.encode_text('{"type":"left","table":"t1","reason":"left"}',
                             Carries.LEFT).startswith(
        '{"type":"left"')
    assert json.loads(there.encode(sent[5]))["type"] == "state"  # it forgot the table


def test_what_a_forwarded_text_is_comes_typed_with_it_not_from_its_text() -> None:
    sent = states()
    coder = DeltaCoder()
    coder.encode(sent[0])
    # The same state with its keys in another order (pydantic's order is not the
    # protocol's): what it carries says it is a state, and it is coded as one.
    reordered = json.dumps(json.loads(sent[1].model_dump_json()), sort_keys=True)
    assert not reordered.startswith('{"type":"state"')
    assert json.loads(coder.encode_text(reordered, Carries.STATE))["type"] == "delta"
    assert coder.encode_text(sent[2].model_dump_json(), Carries.OTHER) == \
        sent[2].model_dump_json()  # told it is something else: it goes as it came
    left = Left(table="t1", reason="left")
    deliver = parse_peer(Deliver(items=[
        ("p", sent[2].model_dump_json(), Carries.of(sent[2])),
        ("p", left.model_dump_json(), Carries.of(left))]).model_dump_json())
    assert isinstance(deliver, Deliver)
    assert [kind for _, _, kind in deliver.items] == [Carries.STATE, Carries.LEFT]


class Kept:
    """A socket nothing is written to: the connections' queues are read instead."""

    async def send_text(self, data: str) -> None:
        raise AssertionError("the writer is not started here")

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        raise AssertionError("the writer is not started here")


def _queued(conn: Connection) -> list[Any]:
    return [json.loads(text) for text, _ in conn._out]


def test_a_delta_that_fails_sends_the_full_state_and_the_broadcast_goes_on() -> None:
    registry = Registry()
    conns = []
    for player in ("a", "b", "c"):
        conn = Connection(Kept(), "127.0.0.1", 10)
        conn.player_id, conn.deltas = player, DeltaCoder()
        registry.add(conn)
        registry.attach(conn, player)
        conns.append(conn)
    sent = states()
    # A view no hash can be made of (NaN is not JSON): the delta fails for every seat;
    # its full state still goes (NaN is written as null, as to any client).
    broken = sent[1].model_copy(update={"view": {**(sent[1].view or {}), "x": float("nan")}})
    for st in (sent[0], broken, sent[2]):
        for player in ("a", "b", "c"):  # as Table._broadcast does: one after the other
            registry.send(player, st)
    for conn in conns:
        got = _queued(conn)
        assert [m["type"] for m in got] == ["state", "state", "delta"]
        assert got[1]["seq"] == 1 and got[1]["view"]["x"] is None
        assert conn.deltas is not None and conn.deltas.failures == 1


def test_a_coder_keeps_a_bounded_number_of_tables() -> None:
    coder = DeltaCoder()
    first = states()[0]
    for i in range(deltas.TABLES + 1):
        coder.encode(first.model_copy(update={"table": f"t{i}"}))
    assert coder.resync("t0") is None  # the one sent to longest ago is forgotten
    assert coder.resync("t1") is not None and coder.resync(f"t{deltas.TABLES}") is not None
    # A table sent to again is the newest: the next one over the bound drops another.
    coder.encode(first.model_copy(update={"table": "t1"}))
    coder.encode(first.model_copy(update={"table": "t-new"}))
    assert coder.resync("t1") is not None and coder.resync("t2") is None


def test_a_watcher_told_a_table_closed_forgets_it() -> None:
    registry = Registry()
    conn = Connection(Kept(), "127.0.0.1", 10)
    conn.player_id, conn.deltas = "admin", DeltaCoder()
    registry.add(conn)
    registry.attach(conn, "admin")
    registry.send("admin", states()[0])
    assert conn.deltas.resync("t1") is not None
    registry.closed("admin", "t1")  # Table._close: no message, the coder forgets
    assert conn.deltas.resync("t1") is None
    assert [m["type"] for m in _queued(conn)] == ["state"]  # and nothing is sent
