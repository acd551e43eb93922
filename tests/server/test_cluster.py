"""Several hall processes over one PostgreSQL and one Redis (``cardhall serve --redis``).

Real servers on loopback, real clients: players connected to different processes
share a table; the process running a table is SIGKILLed mid-game and another
takes it over from the action log; one paused past its lease (SIGSTOP) and
resumed cannot write; concurrent joins through every process never seat a player
twice; a private table's invite works through another process. Every game
settles once and every bean is accounted for.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import statistics
import time
from pathlib import Path
from typing import Any

import httpx
from redis.asyncio import Redis

from cardhall.client import HallClient
from cardhall.client.hall import ClientError
from tests.hall.pg import PostgresServer
from tests.hall.redis_server import RedisServer
from tests.server.cluster import LEASE, admin, cluster, guest_on, reconnect, stored, until
from tests.server.conftest import METRICS_TOKEN, HallProcess
from tests.server.play import Message, first_legal
from tests.server.play import play_out as play_all
from tests.server.test_crash import FEE, ROOM, START, advance


async def seat_in_order(clients: list[HallClient]) -> str:
    """Join ``ROOM`` one after the other (each queued before the next joins), so the
    last client's process is the one that takes the group and runs the table."""
    for c in clients[:-1]:
        await c.join(ROOM)
        await c.expect("queued", timeout=20)
    await clients[-1].join(ROOM)
    firsts = [await c.expect("state", timeout=20) for c in clients]
    assert len({s["table"] for s in firsts}) == 1, firsts
    return str(firsts[0]["table"])


async def owner_of(proc: HallProcess, table: str) -> str:
    """The process running ``table``, from the admin's census on ``proc``."""
    a = await admin(proc.url)
    try:
        rows = await a.get("/api/admin/tables")
        return next((str(t["process"]) for t in rows if t["id"] == table), "")
    finally:
        await a.close()


async def check_settled_once(clients: list[HallClient], settled: Message, db_url: str) -> None:
    """Settled once in the database, the balances are the start plus the settlement, the
    beans changed by no more than the fee, and the action log has no gap or repeat."""
    game_id = settled["game"]
    game, log = await stored(db_url, game_id)
    assert game.status == "settled" and game.beans == settled["beans"]
    assert [a.seq for a in log] == list(range(1, len(log) + 1))
    by_player = {me["id"]: me["beans"] for me in [await c.me() for c in clients]}
    for seat_no, player in enumerate(game.players):
        assert by_player[player] == START + settled["beans"][str(seat_no)]
    assert -3 * FEE <= sum(settled["beans"].values()) <= 0, "beans appeared or vanished"
    history = await clients[0].get("/api/history")
    assert [g["game"] for g in history].count(game_id) == 1, "settled twice"


def after(seq: int) -> Any:
    """A state past ``seq``: the action on ``seq`` was taken."""
    return lambda m: m["seq"] > seq


async def play_out(clients: list[HallClient], table: str, seed: int) -> Any:
    """Play the table out; ``busy`` is expected while the table moves between processes
    (the next state, from the new owner, comes once it has)."""
    return await play_all(clients, table, seed=seed, tolerate=frozenset({"stale", "busy"}))


async def close_all(clients: list[HallClient]) -> None:
    for c in clients:
        await c.close()


async def test_players_on_two_processes_share_a_table(
        tmp_path: Path, pg_server: PostgresServer, redis_server: RedisServer) -> None:
    async with cluster(tmp_path, pg_server, redis_server) as (p0, p1):
        a, b, c = await guest_on(p0.url), await guest_on(p1.url), await guest_on(p0.url)
        clients = [a, b, c]
        try:
            table = await seat_in_order([b, a, c])
            # Either process's lobby counts the table (each process publishes its count
            # with its heartbeat) and finds its owner.
            for who in (a, b):
                async def counted(who: HallClient = who) -> bool:
                    rooms = {r["id"]: r for r in await who.get("/api/rooms")}
                    return bool(rooms[ROOM]["tables"] == 1 and rooms[ROOM]["waiting"] == 0)
                await until(counted, what="the table is counted")
            assert await owner_of(p1, table) == await owner_of(p0, table) != ""
            # A second connection on the other process supersedes the first (4001).
            b2 = await reconnect(b, p0.url)
            assert (await b.expect("error"))["code"] == "superseded"
            assert (await b.expect("disconnected"))["code"] == 4001
            assert b2.welcome is not None and b2.welcome["tables"] == [table]
            await b2.expect("state", table=table)
            clients = [a, b2, c]
            # Action → state through two processes: milliseconds.
            latencies = []
            rng = random.Random(2)
            for _ in range(12):
                mover, state = await advance(clients, table, lambda v: "me")
                seq = state["seq"]
                started = time.perf_counter()
                await mover.act(table, first_legal(state["view"], rng), seq)
                await mover.expect("state", where=after(seq))
                latencies.append(time.perf_counter() - started)
            print(f"action→state over two processes: median "
                  f"{statistics.median(latencies) * 1000:.1f} ms, max "
                  f"{max(latencies) * 1000:.1f} ms, load {os.getloadavg()[0]:.2f}")
            assert statistics.median(latencies) < 0.1, latencies
            settled = (await play_out(clients, table, seed=4)).settled
            await check_settled_once(clients, settled, p0.db_url)
            # Both processes told players of it; only the owner counts the settlement.
            per_process = [await settlements_counted(p.url) for p in (p0, p1)]
            assert sorted(per_process) == [0, 1], per_process
        finally:
            await close_all([a, b, c, *clients])


async def settlements_counted(url: str) -> int:
    """``cardhall_settlements_total`` on the process at ``url``."""
    async with httpx.AsyncClient(base_url=url, timeout=20) as http:
        text = (await http.get("/metrics", headers={
            "authorization": f"Bearer {METRICS_TOKEN}"})).text
    found = re.search(r"^cardhall_settlements_total (\S+)$", text, re.M)
    assert found is not None, text
    return int(float(found[1]))


async def run_by_p0(p0: HallProcess, p1: HallProcess) -> tuple[list[HallClient], str]:
    """Three guests, two on p1 and the last on p0, whose join seats them: p0 runs the
    table. The clients and the table."""
    clients = [await guest_on(p1.url), await guest_on(p1.url), await guest_on(p0.url)]
    return clients, await seat_in_order(clients)


async def test_sigkill_mid_game_another_process_takes_over(
        tmp_path: Path, pg_server: PostgresServer, redis_server: RedisServer) -> None:
    async with cluster(tmp_path, pg_server, redis_server) as (p0, p1):
        (a, b, c), table = await run_by_p0(p0, p1)
        moved: list[HallClient] = []
        try:
            await advance([a, b, c], table, lambda v: "stop" if v["counts"][0] < 15 else None)
            before = (await stored(p0.db_url, a.states[table]["game"]))[0].fence
            p0.kill()
            for x in (a, b):
                x.pending()  # what came before the kill
            c2 = await reconnect(c, p1.url)  # c's connection died with p0
            moved = [c2]
            assert c2.welcome is not None and c2.welcome["tables"] == [table]
            # p1 adopts the table once p0's lease runs out; everyone gets its state.
            for x in (a, b, c2):
                await x.expect("state", table=table, timeout=20)
            settled = (await play_out([a, b, c2], table, seed=5)).settled
            await check_settled_once([a, b, c2], settled, p1.db_url)
            game, _ = await stored(p1.db_url, settled["game"])
            assert game.fence > before, "the new owner's token is on the game"
        finally:
            await close_all([a, b, c, *moved])


async def test_a_stale_owner_cannot_write(
        tmp_path: Path, pg_server: PostgresServer, redis_server: RedisServer) -> None:
    async with cluster(tmp_path, pg_server, redis_server) as (p0, p1):
        (a, b, c), table = await run_by_p0(p0, p1)
        moved: list[HallClient] = []
        try:
            c2 = await reconnect(c, p1.url)
            moved = [c2]
            await c2.expect("state", table=table)
            clients = [a, b, c2]
            await advance(clients, table, lambda v: "stop" if v["counts"][0] < 16 else None)
            game_id = a.states[table]["game"]
            before = (await stored(p0.db_url, game_id))[0].fence
            logged = len((await stored(p0.db_url, game_id))[1])

            async def caught_up() -> bool:  # every state of the log has reached everyone
                return all(x.states[table]["seq"] == logged for x in clients)

            await until(caught_up, what="every client holds the latest state")
            for x in clients:  # then forget them
                x.pending()
            os.kill(p0.proc.pid, signal.SIGSTOP)  # p0 stalls past its lease
            for x in clients:  # p1 took the table over: its states
                await x.expect("state", table=table, timeout=20)
            after = (await stored(p0.db_url, game_id))[0].fence
            assert after > before
            await advance(clients, table, lambda v: "stop" if v["counts"][0] < 14 else None)
            os.kill(p0.proc.pid, signal.SIGCONT)
            # p0 wakes up believing it runs the table: it finds out and drops it.
            await until(lambda: _dropped(p0, table), what="p0 dropped the stale table")
            seen = [[m for m in x.pending() if m["type"] == "state"] for x in clients]
            played = await play_out(clients, table, seed=6)
            await check_settled_once(clients, played.settled, p1.db_url)
            game, log = await stored(p1.db_url, game_id)
            assert game.fence == after, "no write of p0 replaced the new owner's token"
            # What every client saw since p0 woke up is one history: seqs never go back,
            # and none tells of an action the log does not hold.
            for i in range(3):
                # play_out starts from the latest state it already held: left out here
                mine = seen[i] + [m for j, m in played.states if j == i][1:]
                seqs = [m["seq"] for m in mine]
                assert seqs == sorted(seqs), seqs
                assert max(seqs) <= len(log), "a state told of an action not in the log"
        finally:
            await close_all([a, b, c, *moved])


async def _dropped(proc: HallProcess, table: str) -> bool:
    text = proc.log.read_text()
    return f"table {table}: lease lost" in text or f"table {table}: another process" in text


async def test_concurrent_joins_never_seat_a_player_twice(
        tmp_path: Path, pg_server: PostgresServer, redis_server: RedisServer) -> None:
    async with cluster(tmp_path, pg_server, redis_server, n=3) as procs:
        urls = [p.url for p in procs]
        firsts = [await guest_on(urls[i % 3]) for i in range(12)]
        seconds: list[HallClient] = []
        try:
            # Each player joins through one process and, at once, again through another
            # (his second connection supersedes the first; both joins may be handled).
            async def twice(i: int, c: HallClient) -> None:
                await c.join(ROOM)
                again = HallClient(urls[(i + 1) % 3], token=c.token, timeout=20)
                seconds.append(again)
                await again.connect()
                await again.join(ROOM)

            await asyncio.gather(*(twice(i, c) for i, c in enumerate(firsts)))
            a = await admin(urls[0])
            try:
                async def four_tables() -> list[dict[str, Any]]:
                    rows = [t for t in await a.get("/api/admin/tables") if t["room"] == ROOM]
                    return rows if len(rows) == 4 else []
                rows = await until(four_tables, what="12 players at 4 tables")
            finally:
                await a.close()
            seated = [p for t in rows for p in t["players"]]
            ids = [(await c.me())["id"] for c in firsts]
            assert sorted(seated) == sorted(ids)
            assert len(set(seated)) == 12, "a player sits twice"
        finally:
            await close_all([*firsts, *seconds])


async def test_hellos_at_once_through_two_processes_leave_one_connection(
        tmp_path: Path, pg_server: PostgresServer, redis_server: RedisServer) -> None:
    """The same token says hello to two processes in the same instant, again and again:
    each time exactly one connection is closed as superseded (the one whose presence
    was set first, even while it was still reading its welcome) and the other lives."""
    async with cluster(tmp_path, pg_server, redis_server) as (p0, p1):
        first = await guest_on(p0.url)
        me = (await first.me())["id"]
        await first.close()
        for _ in range(12):
            pair = [HallClient(p.url, token=first.token, timeout=20) for p in (p0, p1)]
            try:
                said = await asyncio.gather(*(c.connect() for c in pair),
                                            return_exceptions=True)
                refused = [c for c, r in zip(pair, said, strict=True)
                           if isinstance(r, ClientError) and "superseded" in str(r)]
                assert len(refused) + sum(isinstance(r, dict) for r in said) == 2, said
                if refused:  # closed while it was still saying hello
                    assert len(refused) == 1, "both were closed"
                    live = next(c for c in pair if c not in refused)
                else:
                    told = {asyncio.ensure_future(c.expect("disconnected")): c for c in pair}
                    done, waiting = await asyncio.wait(told, timeout=20,
                                                       return_when=asyncio.FIRST_COMPLETED)
                    for task in waiting:
                        task.cancel()
                    assert len(done) == 1, "neither connection was closed"
                    assert next(iter(done)).result()["code"] == 4001
                    live = told[next(iter(waiting))]
                assert (await live.me())["id"] == me
                await live.send({"type": "join", "room": "no-such-room"})
                assert (await live.expect("error"))["code"]  # still answered: it lives
            finally:
                await close_all(pair)


async def test_private_table_and_bots_across_processes(
        tmp_path: Path, pg_server: PostgresServer, redis_server: RedisServer) -> None:
    async with cluster(tmp_path, pg_server, redis_server) as (p0, p1):
        owner, friend, solo = (await guest_on(p0.url), await guest_on(p1.url),
                               await guest_on(p1.url))
        moved: list[HallClient] = []
        try:
            await owner.send({"type": "private", "room": ROOM, "bots": True})
            invite = await owner.expect("invite")
            await friend.send({"type": "join", "code": invite["code"]})
            joined = await friend.expect("state", table=invite["table"])
            assert joined["phase"] == "waiting" and joined["seat"] == 1
            await owner.send({"type": "start", "table": invite["table"]})
            playing = await friend.expect("state", table=invite["table"],
                                          where=lambda m: m["phase"] == "playing")
            assert [p["bot"] for p in playing["players"]] == [False, False, True]
            # The friend reconnects through the owner's process: his table comes back.
            again = await reconnect(friend, p0.url)
            moved = [again]
            assert again.welcome is not None and again.welcome["tables"] == [invite["table"]]
            await again.expect("state", table=invite["table"])
            # A room whose bots come at once seats a lone player (through p1).
            await solo.join("ddz3-bots")
            alone = await solo.expect("state")
            assert sum(not p["bot"] for p in alone["players"]) == 1
            # An admin on p1 kicks the friend, who is connected to p0: closed there (4003).
            friend_id = joined["players"][1]["id"]
            warden = await admin(p1.url)
            try:
                kicked = await warden.post("/api/admin/kick", {"player": friend_id})
            finally:
                await warden.close()
            assert kicked == {"player": friend_id, "tables": 1, "connected": True}
            assert (await again.expect("disconnected"))["code"] == 4003
        finally:
            await close_all([owner, friend, solo, *moved])


async def test_timers_run_on_after_a_takeover(
        tmp_path: Path, pg_server: PostgresServer, redis_server: RedisServer) -> None:
    """Nobody comes back after the owner dies: the new owner's turn timers put every
    seat on 托管 (1.5 s a play in this room) and 托管 plays the game out, settled once."""
    async with cluster(tmp_path, pg_server, redis_server) as (p0, p1):
        clients = [await guest_on(p0.url) for _ in range(3)]
        try:
            for c in clients:
                await c.join("ddz3-timeout")
            first = await clients[0].expect("state", timeout=20)
            assert first["deadline"] is not None
            game_id = first["game"]
            p0.kill()

            async def settled() -> bool:
                game, _ = await stored(p1.db_url, game_id)
                return game.status in ("settled", "dissolved")
            await until(settled, timeout=90, what="the abandoned game ends on p1")
            _, log = await stored(p1.db_url, game_id)
            assert [a.seq for a in log] == list(range(1, len(log) + 1))
            assert sum(a.action.endswith("auto on") for a in log) >= 1, "the timers fired"
            assert '"adopt"' in p1.log.read_text()
        finally:
            await close_all(clients)


async def test_redis_losing_its_data_mid_game(
        tmp_path: Path, pg_server: PostgresServer, redis_server: RedisServer) -> None:
    """Redis restarts empty mid-game: the leases and the token counter are gone. The
    table's owner sets its lease again with the token the game carries (nobody else took
    it) and raises the counter above it; the players, connected to both processes,
    finish the game with no table dropped; settled once."""
    async with cluster(tmp_path, pg_server, redis_server) as (p0, p1):
        a, b, c = await guest_on(p1.url), await guest_on(p0.url), await guest_on(p0.url)
        clients = [a, b, c]
        try:
            table = await seat_in_order(clients)
            await advance(clients, table, lambda v: "stop" if v["counts"][0] < 16 else None)
            game_id = a.states[table]["game"]
            before = (await stored(p0.db_url, game_id))[0].fence
            redis_server.flush()
            await until(lambda: lease_back(redis_server, table, before),
                        what="the owner holds its lease again, with the same token")
            settled = (await play_out(clients, table, seed=8)).settled
            await check_settled_once(clients, settled, p0.db_url)
            assert (await stored(p0.db_url, game_id))[0].fence == before
            assert all("lease lost" not in p.log.read_text() for p in (p0, p1))
        finally:
            await close_all(clients)


async def lease_back(redis_server: RedisServer, table: str, fence: int) -> bool:
    """``table``'s lease is held with token ``fence`` and the counter is not below it."""
    r = Redis.from_url(redis_server.url, decode_responses=True)
    try:
        held, counter = await r.mget([f"cardhall:lease:{table}", "cardhall:fence"])
    finally:
        await r.aclose()
    return held is not None and str(held).endswith(f" {fence}") and int(counter or 0) >= fence


async def test_a_process_paused_past_its_lease_keeps_its_tables(
        tmp_path: Path, pg_server: PostgresServer, redis_server: RedisServer) -> None:
    """The only process stalls past its leases (SIGSTOP, as a starved renewal would):
    nobody else took its table, so on waking it sets the lease again with the same token
    and keeps the table (no drop, no takeover: the clients play on with no error)."""
    async with cluster(tmp_path, pg_server, redis_server, n=1) as (p0,):
        clients = [await guest_on(p0.url) for _ in range(3)]
        try:
            table = await seat_in_order(clients)
            game_id = clients[0].states[table]["game"]
            before = (await stored(p0.db_url, game_id))[0].fence
            os.kill(p0.proc.pid, signal.SIGSTOP)
            async def expired() -> bool:  # the lease runs out while p0 is stopped
                r = Redis.from_url(redis_server.url)
                try:
                    return not await r.exists(f"cardhall:lease:{table}")
                finally:
                    await r.aclose()
            await until(expired, timeout=LEASE * 5, what="p0's lease expired")
            os.kill(p0.proc.pid, signal.SIGCONT)
            await until(lambda: lease_back(redis_server, table, before),
                        what="p0 holds its lease again, with the same token")
            settled = (await play_all(clients, table, seed=9)).settled  # no busy, no error
            await check_settled_once(clients, settled, p0.db_url)
            text = p0.log.read_text()
            assert "lease lost" not in text and '"adopt"' not in text
            assert "its lease had lapsed; taken again" in text
        finally:
            await close_all(clients)


async def test_a_forwarding_process_looks_a_table_owner_up_once_per_lease(
        tmp_path: Path, pg_server: PostgresServer, redis_server: RedisServer) -> None:
    """Two players on p1 play at p0's table: each of their actions is forwarded to p0,
    but p1 reads p0's lease (GET and PTTL, ``owners``) only when the one it read may
    have lapsed, not once per action."""
    async with cluster(tmp_path, pg_server, redis_server) as (p0, p1):
        (a, b, c), table = await run_by_p0(p0, p1)
        try:
            r = Redis.from_url(redis_server.url, decode_responses=True)
            try:
                await r.config_resetstat()
                started = time.monotonic()
                settled = (await play_out([a, b, c], table, seed=7)).settled
                elapsed = time.monotonic() - started
                stats = await r.info("commandstats")
            finally:
                await r.aclose()
            _, log = await stored(p0.db_url, settled["game"])
            forwarded = sum(1 for x in log if x.seat in (a.states[table]["seat"],
                                                         b.states[table]["seat"]))
            lookups = int(stats.get("cmdstat_pttl", {}).get("calls", 0))
            # A lease read has 2/3 to all of LEASE left (renewed every third of it).
            bound = 1 + int(elapsed / (LEASE * 2 / 3))
            print(f"{forwarded} actions forwarded in {elapsed:.1f} s, {lookups} lookups "
                  f"(bound {bound})")
            assert 1 <= lookups <= bound < forwarded, (lookups, bound, forwarded)
            await check_settled_once([a, b, c], settled, p0.db_url)
        finally:
            await close_all([a, b, c])


async def test_a_player_back_through_another_process_is_told_what_he_missed(
        tmp_path: Path, pg_server: PostgresServer, redis_server: RedisServer) -> None:
    """Ruling 13 over several processes: a player of a table p0 runs drops; the others
    play the game out (his seat on 托管), the table dissolves; his hello through p1
    brings the ``away`` that p0's table kept for him (in Redis), and only once."""
    async with cluster(tmp_path, pg_server, redis_server) as (p0, p1):
        clients, table = await run_by_p0(p0, p1)
        gone = clients[2]  # connected to p0, which runs the table
        back: HallClient | None = None
        try:
            seat = gone.states[table]["seat"]
            await gone.disconnect()
            settled = (await play_out(clients[:2], table, seed=5)).settled
            assert settled["dissolved"] and settled["result"]["auto"][seat]
            back = await reconnect(gone, p1.url)
            assert back.welcome is not None and back.welcome["tables"] == []
            away = await back.expect("away", table=table)
            assert away["over"] and away["settled"] == settled and away["seat"] == seat
            assert away["turns"] > 0
            assert (await back.expect("left", table=table))["reason"] == "dissolved"
            again = await reconnect(back, p0.url)
            await again.ping()  # answered once everything before it was handled
            told: list[Any] = []
            while (m := await again.recv())["type"] != "pong":
                told.append(m)
            assert not [m for m in told if m["type"] == "away"], told  # told once
            await again.close()
        finally:
            await close_all([*clients, *([back] if back else [])])
