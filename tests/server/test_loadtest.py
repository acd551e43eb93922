"""``cardhall loadtest`` against real ``cardhall serve`` processes.

A short run (20 clients, a few seconds) must finish with no error, beans conserved and
every game settled once, its figures agreeing with what the server's /metrics counted;
the check must notice a bean or a settlement that does not add up; clients reconnect
to a hall killed and restarted mid-run; and the CI load run: 30 s, 100 clients, two
processes over PostgreSQL and Redis.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import httpx
import pytest

from cardhall.client import loadtest
from cardhall.client.loadreport import check, find_room
from cardhall.client.loadtest import Clock, Plan, Player, Tally, TimedClient, ask_again, run
from tests.hall.pg import PostgresServer
from tests.hall.redis_server import RedisServer
from tests.server.cluster import cluster
from tests.server.conftest import (
    CARDHALL,
    METRICS_TOKEN,
    HallProcess,
    running_hall,
    start_hall,
)

ROOM = "ddz3-humans"


@pytest.fixture(scope="module")
def quiet_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    """A hall of its own: nobody else queues in its rooms while the clients play."""
    yield from running_hall(tmp_path_factory.mktemp("load"))


def load_test(urls: list[str], *args: str, timeout: float = 300
              ) -> tuple[dict[str, object], str, int]:
    cmd = [*CARDHALL, "loadtest", *(a for u in urls for a in ("--url", u)), "--room", ROOM,
           "--json", *args]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    assert out.stdout.strip(), f"no report (exit {out.returncode}): {out.stderr[-4000:]}"
    return json.loads(out.stdout), out.stderr, out.returncode


def assert_clean(report: dict[str, object], clients: int) -> None:
    assert report["ok"] is True
    assert report["errors"] == {} and report["drain_errors"] == {}
    assert report["problems"] == [] and report["unfinished"] == 0
    assert report["clients"] == clients
    beans = report["beans"]
    assert isinstance(beans, dict)
    assert beans["balances_changed"] == beans["settled_said"] == beans["stored_said"]
    assert beans["stored_said"] == -beans["fees"] < 0  # zero-sum games, A per seat in fees
    # The clients' counts are the servers': every acknowledged action, counted by the
    # process that owns its table; and every settlement, counted by that process.
    assert report["acked"] == report["server_actions"]
    assert report["settled"] == report["server_settled"]


def test_a_short_run_is_clean_and_agrees_with_the_servers_metrics(
        quiet_hall: HallProcess) -> None:
    report, err, status = load_test([quiet_hall.url], "--metrics-token-file",
                                    str(quiet_hall.metrics_token_file), "--clients", "20",
                                    "--duration", "4", "--ramp", "1", "--think", "0.2")
    assert status == 0, err
    assert_clean(report, 20)
    settled, actions = report["settled"], report["actions"]
    assert isinstance(settled, int) and isinstance(actions, int)
    assert settled >= 6 and actions > 20  # 6 tables of 3 played at least a game each
    assert report["actions_per_s"] == pytest.approx(actions / 4)
    p50, p99, top = report["p50_ms"], report["p99_ms"], report["max_ms"]
    assert isinstance(p50, float) and isinstance(p99, float) and isinstance(top, float)
    assert 0 < p50 <= p99 <= top
    assert "clients connected" in err and "p99 so far" in err
    # Where the actions' time went (/metrics): every accepted action was timed waiting for
    # its log commit, each written by one of the log's batches; the players' actions also
    # waiting for their table; the messages waiting to be written; the loop's lateness.
    text = httpx.get(f"{quiet_hall.url}/metrics", headers=quiet_hall.metrics_headers,
                     timeout=10).text
    found = {m[0]: float(m[1]) for m in re.findall(r"^(\S+) ([0-9.e+]+)$", text, re.M)}
    accepted = found["cardhall_action_seconds_count"]
    assert found['cardhall_action_stage_seconds_count{stage="logged"}'] == accepted
    assert 0 < found['cardhall_action_stage_seconds_count{stage="queued"}'] <= accepted
    assert found["cardhall_log_batch_rows_sum"] == accepted
    assert 0 < found["cardhall_log_batch_seconds_count"] <= accepted
    assert found["cardhall_send_wait_seconds_count"] > accepted  # a state per seat
    assert found["cardhall_loop_lag_seconds_count"] > 0


def test_worker_processes_merge_their_figures(quiet_hall: HallProcess) -> None:
    report, err, status = load_test([quiet_hall.url], "--metrics-token-file",
                                    str(quiet_hall.metrics_token_file), "--clients", "12",
                                    "--duration", "3", "--ramp", "1", "--think", "0.2",
                                    "--workers", "2")
    assert status == 0, err
    assert_clean(report, 12)
    assert report["workers"] == 2


def test_the_check_sees_a_bean_or_a_settlement_that_does_not_add_up(
        quiet_hall: HallProcess) -> None:
    room, fee, _ = asyncio.run(find_room((quiet_hall.url,), "ddz3", ROOM))
    plan = Plan(urls=(quiet_hall.url,), room=room, clients=6, duration=2, think=0.1, ramp=0)
    tally = run(plan)
    beans, problems = asyncio.run(check(plan, tally, fee))
    assert problems == [] and tally.games
    assert beans["balances_changed"] == beans["stored_said"] < 0
    player, account = next(iter(tally.players.items()))
    tally.players[player] = account._replace(end=account.end + 1)  # a bean from nowhere
    game = next(g for p, g in tally.seen if p == player)
    tally.seen[(player, game)] += 1  # told twice
    _, problems = asyncio.run(check(plan, tally, fee))
    assert any("beans not conserved" in p for p in problems)
    assert any("told 2 times" in p for p in problems)
    fewer = replace(plan, clients=plan.clients + 1)  # a client that never finished
    _, problems = asyncio.run(check(fewer, tally, fee))
    assert any("did not finish" in p for p in problems)


def test_a_room_with_bots_or_no_such_room_is_refused(quiet_hall: HallProcess) -> None:
    for room in ("ddz3-bots", "nowhere"):
        out = subprocess.run([*CARDHALL, "loadtest", "--url", quiet_hall.url, "--room", room],
                             capture_output=True, text=True, timeout=60, check=False)
        assert out.returncode != 0
        assert f"no room {room!r} without bots" in out.stderr


def served_actions(url: str) -> float:
    text = httpx.get(f"{url}/metrics", headers={"authorization": f"Bearer {METRICS_TOKEN}"},
                     timeout=10).text
    return float(next(line.split()[1] for line in text.splitlines()
                      if line.startswith("cardhall_action_seconds_count")))


@pytest.mark.services  # starts its own hall in the test
def test_clients_reconnect_when_the_hall_is_killed_and_play_on(tmp_path: Path) -> None:
    """SIGKILL the hall mid-run and start it again on the same port and database: every
    client reconnects, the games finish, and the beans still add up."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    hall = start_hall(tmp_path, port=port)
    cmd = [*CARDHALL, "loadtest", "--url", hall.url, "--room", ROOM, "--json", "--clients",
           "12", "--duration", "10", "--ramp", "1", "--think", "0.2"]
    load = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while served_actions(hall.url) < 30:  # games under way (no event to await here)
            assert time.monotonic() < deadline and load.poll() is None
            time.sleep(0.2)
        hall.kill()
        hall = start_hall(tmp_path, port=port, db_url=hall.db_url)
        out, err = load.communicate(timeout=300)
    finally:
        if load.poll() is None:
            load.kill()
        hall.stop()
    report = json.loads(out)
    assert report["reconnects"] >= 12, err
    assert report["problems"] == [] and report["unfinished"] == 0, err
    beans = report["beans"]
    assert beans["balances_changed"] == beans["stored_said"] < 0
    assert report["settled"] > 0


async def test_the_ci_load_run(pg_server: PostgresServer, redis_server: RedisServer,
                               tmp_path: Path) -> None:
    """30 s, 100 clients spread over two processes of one hall (PostgreSQL + Redis): no
    error, beans conserved, every game settled once, every action counted by its owner."""
    async with cluster(tmp_path, pg_server, redis_server, n=2) as procs:
        report, err, status = await asyncio.to_thread(
            load_test, [p.url for p in procs], "--metrics-token-file",
            str(procs[0].metrics_token_file), "--clients", "100", "--duration", "30",
            "--ramp", "5", timeout=600)
    assert status == 0, err
    assert_clean(report, 100)


async def test_a_read_is_asked_again_when_its_connection_breaks() -> None:
    """The end-of-run reads go over connections idle since the start, which the server
    may close just as a read is sent on one: a real server here drops the first
    connection without answering, and the read is asked again on a new one."""
    seen: list[bool] = []  # per connection: answered?

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        if seen:  # every connection but the first gets its answer
            body = b'{"beans": 7}'
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                         b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
            await writer.drain()
        seen.append(bool(seen))
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            async def me() -> object:
                return (await http.get("/api/me")).json()
            with pytest.raises(httpx.TransportError):
                await ask_again(me, tries=1)  # what the end check used to do
            assert await ask_again(me) == {"beans": 7}
            assert seen == [False, True]
    finally:
        server.close()
        await server.wait_closed()


@pytest.mark.services  # starts its own hall in the test
def test_a_hall_that_refuses_the_guests_gets_a_clear_error(tmp_path: Path) -> None:
    """A hall at its default guest limit refuses most of a load test's guests: the command
    says so and what to change, in one line, not a traceback."""
    for server in running_hall(tmp_path, limits="guests_per_minute = 3\n"):
        out = subprocess.run([*CARDHALL, "loadtest", "--url", server.url, "--room", ROOM,
                              "--clients", "8", "--duration", "2"],
                             capture_output=True, text=True, timeout=120, check=False)
        assert out.returncode == 1
        assert "cardhall: the hall refused a guest: 429 rate_limited" in out.stderr, out.stderr
        assert "guests_per_minute" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.services  # starts its own hall in the test
def test_a_room_the_guests_cannot_afford_gets_a_clear_error(tmp_path: Path) -> None:
    """(The built-in rooms without bots are the 高级场, beyond a new guest's beans.)"""
    dear = ('[[rooms]]\nid = "dear"\nname = "dear"\nvariant = "ddz3"\nN = 10\nA = 5\n'
            'min_beans = 999999\nturn_seconds = 30\n')
    for server in running_hall(tmp_path, rooms=dear):
        out = subprocess.run([*CARDHALL, "loadtest", "--url", server.url, "--room", "dear",
                              "--clients", "6", "--duration", "2"],
                             capture_output=True, text=True, timeout=120, check=False)
        assert out.returncode == 1
        assert "room dear asks 999999 beans to sit down and a new guest holds" in out.stderr, \
            out.stderr
        assert "Traceback" not in out.stderr


class ScriptedClient(TimedClient):
    """A load-test client with no server: the test queues what the hall says, and the
    client's ``ping`` and ``leave`` of a room are answered as the hall would (the pong;
    ``not_seated``: not queued)."""

    def __init__(self) -> None:
        super().__init__("http://hall.invalid")
        self.player = {"id": "p0"}
        self.sent: list[dict[str, object]] = []
        #: What the hall says after the client's next message of a type, by type.
        self.answers: dict[str, list[dict[str, object]]] = {}

    async def send(self, message: dict[str, object]) -> None:
        self.sent.append(message)
        for answer in self.answers.pop(str(message["type"]), []):
            self.hear(answer)
        if message["type"] == "ping":
            self.hear({"type": "pong"})
        elif message["type"] == "leave" and "room" in message:
            self.hear({"type": "error", "code": "not_seated"})

    def hear(self, message: dict[str, object]) -> None:
        """The hall says ``message``: read as from the socket (stamped, states kept)."""
        self._take(dict(message))


def scripted_game(game: str, seat_acting: int) -> list[dict[str, object]]:
    """A game's last state of play (``seat_acting`` to act) and its end: the between
    state and the settlement, as the hall sends them to seat 0 of table t1."""
    view = {"acting": [seat_acting], "auto": [False, False, False], "phase": "play",
            "legal": ["pass"], "variant": "ddz3", "seat": 0}
    state = {"type": "state", "table": "t1", "game": game, "seat": 0, "view": view}
    return [{**state, "seq": 5, "phase": "playing"}, {**state, "seq": 6, "phase": "between"},
            {"type": "settled", "table": "t1", "game": game, "dissolved": False}]


def scripted_player(monkeypatch: pytest.MonkeyPatch, window: float
                    ) -> tuple[Player, ScriptedClient, Tally]:
    """One load-test client whose window ends in ``window`` s, with a short drain."""
    monkeypatch.setattr(loadtest, "DRAIN_SECONDS", 6.0)
    monkeypatch.setattr(loadtest, "QUIET_SECONDS", 0.2)
    monkeypatch.setattr(loadtest, "DEAL_WAIT_SECONDS", 1.0)
    clock = Clock(start=asyncio.get_running_loop().time(), ramp=0.0, duration=window,
                  clients=1)
    client, tally = ScriptedClient(), Tally()
    return Player(0, client, ROOM, 1.0, clock, tally), client, tally


async def test_a_next_sent_just_before_the_window_ends_does_not_hold_the_client(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The window ends between two players of a table hearing their game settled: the
    first asked for the next game, the others stop and never ask, so no deal comes.
    The client that asked is between games, not in one: it stops like the others
    instead of waiting for the drain's end and counting as unfinished."""
    player, client, tally = scripted_player(monkeypatch, 0.3)
    loop = asyncio.get_running_loop()
    for msg in scripted_game("g1", 1):
        client.hear(msg)
    await asyncio.wait_for(player._loop(), 10)
    assert {"type": "next", "table": "t1"} in client.sent  # asked in the window
    assert tally.finished == 1
    assert loop.time() < player.clock.end - 3  # stopped, not held to the drain's end


async def test_a_deal_after_the_window_ends_is_played_to_its_end(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every player of the table asked for the next game in the window, and its deal
    comes after the window ended, later than the quiet that stops an idle client: the
    client waits for it and plays that game to its settlement."""
    player, client, tally = scripted_player(monkeypatch, 0.3)
    loop = asyncio.get_running_loop()
    for msg in scripted_game("g1", 1):
        client.hear(msg)
    deal, *end = scripted_game("g2", 0)
    client.answers["act"] = end
    loop.call_later(0.9, client.hear, deal)
    await asyncio.wait_for(player._loop(), 10)
    assert {"type": "act", "table": "t1", "action": "pass", "seq": 5} in client.sent
    assert tally.seen == {("p0", "g1"): 1, ("p0", "g2"): 1}
    assert tally.finished == 1
