"""What a delta connection is sent for each state (``server.deltas.DeltaCoder``), without
a server: a delta where the client holds the state before, a full state everywhere else."""

from __future__ import annotations

import json
from typing import Any

from cardhall.games import new_game
from cardhall.games.deltas import apply_events, view_hash
from cardhall.protocol.messages import SeatInfo, State
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
        theirs = json.loads(there.encode_text(st.model_dump_json()))
        if mine["type"] == "delta":  # forwarded from another process: no story events
            assert theirs["events"] == mine["events"][-1:]
        assert {k: v for k, v in mine.items() if k != "events"} == \
            {k: v for k, v in theirs.items() if k != "events"}
    assert json.loads(here.resync("t1") or "") == json.loads(sent[4].model_dump_json())
    assert here.resync("t2") is None
    assert there.encode_text('{"type":"left","table":"t1","reason":"left"}').startswith(
        '{"type":"left"')
    assert json.loads(there.encode(sent[5]))["type"] == "state"  # it forgot the table
