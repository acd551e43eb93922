"""The WebSocket protocol's refusals: each gets its error code, the connection stays,
and nothing changes at the table."""

from __future__ import annotations

import json

import pytest

from cardhall.client import ClientError, HallClient
from tests.server.conftest import HallProcess
from tests.server.play import guests, seat, vacate


async def alive(c: HallClient) -> None:
    """The connection still answers (its earlier messages have all been handled)."""
    await c.ping()
    await c.expect("pong")


async def refused(c: HallClient, text: str | bytes, code: str) -> dict[str, object]:
    await c.send_raw(text)
    err = await c.expect("error")
    assert err["code"] == code, err
    await alive(c)
    return err


async def test_hello_comes_first_and_once(hall: HallProcess) -> None:
    async with guests(hall.url, 1) as (c,):
        await refused(c, json.dumps({"type": "hello", "token": c.token}),
                      "already_authenticated")
    raw = HallClient(hall.url, "not-a-token", reconnect=False)
    try:
        with pytest.raises(ClientError, match="bad_token"):
            await raw.connect()
        await raw.send({"type": "join", "room": "ddz3-humans"})
        assert (await raw.expect("error"))["code"] == "not_authenticated"
    finally:
        await raw.close()


@pytest.mark.parametrize(("text", "code"), [
    ("{not json", "malformed"),
    ("[1, 2]", "malformed"),
    (json.dumps({"no": "type"}), "malformed"),
    (json.dumps({"type": "dance"}), "unknown_type"),
    (json.dumps({"type": "act", "table": "t1", "action": "pass", "seq": "6"}), "malformed"),
    (json.dumps({"type": "act", "table": "t1", "action": "pass", "seq": 1, "x": 1}),
     "malformed"),
    (json.dumps({"type": "join", "room": "../etc"}), "malformed"),
    (json.dumps({"type": "join"}), "malformed"),  # neither a room nor a code
    (json.dumps({"type": "leave"}), "malformed"),  # neither a table nor a room
    ('{"type": "ping", "a": ' + "[" * 50 + "]" * 50 + "}", "malformed"),
    ("[" * 100_000 + "]" * 100_000, "too_large"),
    (json.dumps({"type": "ping", "pad": "x" * (1024 * 1024 - 40)}), "too_large"),
    (b'{"type": "ping"}', "malformed"),
    (json.dumps({"type": "join", "room": "no-such-room"}), "unknown_room"),
    (json.dumps({"type": "act", "table": "tnothere", "action": "pass", "seq": 0}),
     "unknown_table"),
    (json.dumps({"type": "watch", "table": "tnothere"}), "unknown_table"),
])
async def test_bad_frames_get_errors_and_the_connection_stays(
        hall: HallProcess, text: str | bytes, code: str) -> None:
    async with guests(hall.url, 1) as (c,):
        await refused(c, text, code)


async def test_a_frame_over_the_limit_may_close(hall: HallProcess) -> None:
    async with guests(hall.url, 1) as (c,):
        c.reconnect = False
        await c.send_raw("x" * (1024 * 1024 + 128 * 1024))
        gone = await c.expect("disconnected")
        assert gone["code"] == 1009


async def test_a_game_refusal_carries_its_reason_and_params(hall: HallProcess) -> None:
    """The game's typed refusal reaches the client as ``reason`` + ``params`` beside the
    contract's ``code`` and ``message``; errors that are not the game's carry neither."""
    async with guests(hall.url, 3) as players:
        table, _ = await seat(players, "ddz3-humans")
        state = players[0].states[table]
        seq, acting = state["seq"], state["view"]["acting"][0]
        by_seat = {p.states[table]["seat"]: p for p in players}
        mover, waiter = by_seat[acting], by_seat[(acting + 1) % 3]
        waiter_seat = (acting + 1) % 3

        def act(action: str, at: int = seq) -> str:
            return json.dumps({"type": "act", "table": table, "action": action, "seq": at})

        turn = await refused(waiter, act("pass"), "not_your_turn")
        assert turn["reason"] == "not_your_turn"
        assert turn["params"] == {"seat": waiter_seat, "to_act": acting}
        assert "readings" not in turn
        step = await refused(mover, act("play 3"), "illegal")  # cards while bidding
        assert step["reason"] == "no_play_now" and step["params"] == {"phase": "bid"}
        junk = await refused(mover, act("bid 9"), "illegal")
        assert junk["reason"] == "unknown_action" and junk["params"]["text"] == "bid 9"
        stale = await refused(mover, act("pass", seq + 5), "stale")
        assert "reason" not in stale and "params" not in stale
        await vacate(players, table, "ddz3-humans")


async def test_refusals_at_a_table_change_nothing(hall: HallProcess) -> None:
    async with guests(hall.url, 4) as clients:
        players, outsider = clients[:3], clients[3]
        table, firsts = await seat(players, "ddz3-humans")
        state = players[0].states[table]
        seq, acting = state["seq"], state["view"]["acting"][0]
        by_seat = {p.states[table]["seat"]: p for p in players}
        mover, waiter = by_seat[acting], by_seat[(acting + 1) % 3]
        legal = mover.states[table]["view"]["legal"]
        for c, msg, code in [
            (mover, {"action": legal[0], "seq": seq + 5}, "stale"),
            (mover, {"action": legal[0], "seq": seq - 1 if seq else seq + 1}, "stale"),
            (mover, {"action": "play 3333333", "seq": seq}, "illegal"),
            (mover, {"action": "bid 9", "seq": seq}, "illegal"),
            (waiter, {"action": "pass", "seq": seq}, "not_your_turn"),
            (outsider, {"action": legal[0], "seq": seq}, "not_seated"),
        ]:
            await refused(c, json.dumps({"type": "act", "table": table, **msg}), code)
        await refused(outsider, json.dumps({"type": "next", "table": table}), "not_seated")
        await refused(mover, json.dumps({"type": "next", "table": table}), "not_allowed")
        for p in players:  # no state went out: nothing changed
            assert [m for m in p.pending() if m["type"] == "state"] == []
        await mover.act(table, legal[0], seq)
        after = await waiter.expect("state", table=table)
        assert after["seq"] == seq + 1
        await vacate(players, table, "ddz3-humans")
        del firsts


def test_a_join_or_leave_that_names_nowhere_is_malformed_when_read() -> None:
    # Read, not carried out: the hall's handle takes only messages of a shape it can do.
    from cardhall.protocol.messages import ProtocolError, parse_client  # noqa: PLC0415

    with pytest.raises(ProtocolError, match="join: message: give a room or an invite code"):
        parse_client('{"type": "join"}')
    with pytest.raises(ProtocolError, match="leave: message: give a table or a room"):
        parse_client('{"type": "leave"}')
    assert parse_client('{"type": "leave", "room": "r"}').type == "leave"


def test_a_message_nesting_too_deeply_is_refused_before_it_is_validated() -> None:
    from cardhall.protocol.messages import MAX_DEPTH, ProtocolError, parse_client  # noqa: PLC0415

    def nested(levels: int) -> str:  # the message object itself is the first level
        return '{"type": "ping", "a": ' + "[" * (levels - 1) + "]" * (levels - 1) + "}"

    with pytest.raises(ProtocolError, match="nests too deeply"):
        parse_client(nested(MAX_DEPTH + 1))
    with pytest.raises(ProtocolError, match="ping: a: Extra inputs"):  # deep enough to read
        parse_client(nested(MAX_DEPTH))
    with pytest.raises(ProtocolError, match="nests too deeply"):  # as bytes too
        parse_client(nested(MAX_DEPTH + 1).encode())
    # Brackets inside a text are not nesting: validated, not refused for depth.
    with pytest.raises(ProtocolError, match="act: action: "):
        parse_client(json.dumps({"type": "act", "table": "t1", "seq": 1,
                                 "action": ["[{" * 20]}))
