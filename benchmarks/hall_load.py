"""How fast is the hall: many clients playing real games over loopback, through the protocol.

Each client is a guest with its own WebSocket (``cardhall.client.HallClient``; one
shared HTTP client makes the guests). Clients quick-match into a room of humans
only, and each acts a think time after its turn arrives (uniform in 0.5–1.5 ×
``--think``: a simulated human, so sleeping is right), plays on with ``next``
after every settlement, and stops at the end. Reported:

- actions/s: actions acknowledged in the measured window (after the ramp);
- p50/p99 latency from sending an action to receiving the acting client's next
  ``state`` of that table with the new ``seq`` (stamped when the frame is read);
- games settled, errors by code (any ``error`` message, unexpected disconnects);
- beans conserved: at the end every guest's ``/api/me`` balance minus its starting
  beans, summed, must equal the sum of every settled game's bean changes and
  −(fees): ``A`` per seat of every scored game (the room's N·X ≥ N > A, and
  balances far above any loss, so no fee is capped).

It starts its own ``cardhall serve`` (temporary SQLite file, a config with one
room of humans only, generous ``[limits]``) and stops it at the end, or plays at
a running hall given ``--url`` (its ``--room`` must have no bots). Loopback only;
every wait is bounded; the load generator shares the machine's cores with the
server.

    .venv/bin/python benchmarks/hall_load.py --clients 1000 --think 1.0 --duration 60
    .venv/bin/python benchmarks/hall_load.py --sweep 100,250,500,750,1000 --duration 30
    .venv/bin/python benchmarks/hall_load.py --clients 500 --profile profile.svg   # py-spy
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx

from cardhall import bots
from cardhall.client import ClientError, HallClient
from cardhall.games import VARIANTS

Message = dict[str, Any]

STARTING_BEANS = 10_000
ROOM_N, ROOM_A = 10, 5
#: Seconds the clients get after the measured window to finish the games they are in
#: (acting at once, not measured) before the balances are read.
DRAIN_SECONDS = 90.0
#: Think time while draining: the games finish quickly, nobody measures them.
DRAIN_THINK = 0.01
#: After the window, a client not in a game stops once it has heard nothing for this long.
QUIET_SECONDS = 2.0
#: Concurrent HTTP requests while making guests and reading balances.
HTTP_CONCURRENCY = 32
UNSCORED = ("unscored", "dissolved")


# -- the server ---------------------------------------------------------------------------


def config_toml(variant: str, room: str) -> str:
    return (f'[[rooms]]\nid = "{room}"\nname = "load {variant}"\nvariant = "{variant}"\n'
            f"N = {ROOM_N}\nA = {ROOM_A}\nmin_beans = 0\nturn_seconds = 60\n"
            "# no bot_wait_seconds: bots never fill seats\n\n"
            f"[economy]\nstarting_beans = {STARTING_BEANS}\n\n"
            "[limits]\nguests_per_minute = 100000\nlogins_per_minute = 100000\n"
            "messages_per_second = 200\n")


@dataclass
class Served:
    url: str
    proc: subprocess.Popen[str]
    tmp: Path
    log: Path

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def start_server(variant: str, room: str, log_level: str, keep: bool) -> Served:
    tmp = Path(tempfile.mkdtemp(prefix="hall-load-"))
    config = tmp / "hall.toml"
    config.write_text(config_toml(variant, room))
    log = tmp / "serve.log"
    cmd = [sys.executable, "-m", "cardhall", "serve", "--port", "0",
           "--db", f"sqlite:///{tmp / 'hall.db'}", "--config", str(config),
           "--log-level", log_level]
    with log.open("w") as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    end = time.monotonic() + 60
    while time.monotonic() < end and proc.poll() is None:
        ready, _, _ = select.select([proc.stdout], [], [], max(0.0, end - time.monotonic()))
        line = proc.stdout.readline() if ready else ""
        if "the hall is open at " in line:
            return Served(line.strip().rsplit(" ", 1)[1].rstrip("/"), proc, tmp, log)
    proc.kill()
    proc.wait(5)
    text = log.read_text()[-3000:]
    if not keep:
        shutil.rmtree(tmp, ignore_errors=True)
    raise SystemExit(f"cardhall serve did not start:\n{text}")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def uptime() -> str:
    """The load averages (1, 5, 15 min), as ``uptime`` shows them."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


# -- the clients --------------------------------------------------------------------------


class TimedClient(HallClient):
    """A HallClient that stamps each message with the time its frame was read."""

    def _take(self, msg: Message) -> None:
        msg["_at"] = time.perf_counter()
        super()._take(msg)


@dataclass
class Stats:
    window: tuple[float, float] = (0.0, 0.0)  # perf_counter start, end of the measured part
    latencies: list[float] = field(default_factory=list)
    trace: list[tuple[float, float, int, int]] = field(default_factory=list)  # t, lat, seq, who
    errors: Counter[str] = field(default_factory=Counter)
    late_errors: Counter[str] = field(default_factory=Counter)  # while draining
    games: dict[str, Message] = field(default_factory=dict)  # game id → settled message
    nexts: Counter[str] = field(default_factory=Counter)  # settled game id → `next`s sent
    finished: int = 0  # clients that ended cleanly

    def measured(self, t: float) -> bool:
        return self.window[0] <= t < self.window[1]


def choose(view: Message, rng: random.Random) -> str:
    """A random legal action; where the view lists no plays (big hands), 托管's answer."""
    legal = list(view["legal"])
    plays = [a for a in legal if a != "pass"] if view["phase"] == "play" else legal
    if not view.get("legal_complete", True) and not plays:
        return str(bots.make("tuoguan", view["variant"], view["seat"]).act(view))
    return rng.choice(plays or legal)


async def play(i: int, client: TimedClient, room: str, think: float, start_at: float,
               stop_at: float, end_at: float, stats: Stats) -> None:
    """One simulated human: join, act a think time after each turn, play on, stop."""
    rng = random.Random(i)
    loop = asyncio.get_running_loop()
    await asyncio.sleep(max(0.0, start_at - loop.time()))
    await client.connect()
    await client.join(room)
    acted: set[tuple[str, int]] = set()  # (game, seq): a table's seq restarts each game
    pending: tuple[str, int, float] | None = None  # table, seq acted on, sent at
    table: str | None = None
    playing = False
    last_game: tuple[str, int] | None = None  # the settled game, its seats (for `next`)
    heard = loop.time()
    while True:
        now = loop.time()
        stopping = now >= stop_at
        if now >= end_at:
            return  # still in a game at the deadline: not finished
        starting = last_game is not None and stats.nexts[last_game[0]] >= last_game[1]
        if stopping and not playing and not starting and now - heard >= QUIET_SECONDS:
            break  # done: no game to finish, and nothing more is coming
        try:
            msg = await client.recv(timeout=max(0.05, min(0.25, end_at - now)))
        except ClientError:
            continue  # nothing for a while: look at the clock again
        heard = loop.time()
        kind = msg["type"]
        errors = stats.late_errors if stopping else stats.errors
        if kind == "state":
            table = msg["table"]
            playing = msg["phase"] == "playing"
            if playing:
                last_game = None
            if pending is not None and pending[0] == table and msg["seq"] > pending[1]:
                if stats.measured(pending[2]):
                    stats.latencies.append(msg["_at"] - pending[2])
                    stats.trace.append((pending[2] - stats.window[0], msg["_at"] - pending[2],
                                        pending[1], i))
                pending = None
            view, seat, seq = msg["view"], msg["seat"], msg["seq"]
            if (not playing or view is None or seat not in view["acting"]
                    or view["auto"][seat] or (msg["game"], seq) in acted):
                continue
            acted.add((msg["game"], seq))
            await asyncio.sleep((DRAIN_THINK if stopping else think) * rng.uniform(0.5, 1.5))
            latest = client.states.get(table)
            if latest is None or latest["seq"] != seq:
                continue  # the table moved on meanwhile (a timer): its new state follows
            sent = time.perf_counter()
            pending = (table, seq, sent)
            await client.act(table, choose(view, rng), seq)
        elif kind == "settled":
            stats.games.setdefault(msg["game"], msg)
            playing = False
            if msg["dissolved"]:
                continue  # a `left` follows
            if loop.time() < stop_at:  # counted in the same step as the clock is read
                last_game = (msg["game"], len(msg["beans"]))
                stats.nexts[msg["game"]] += 1
                await client.next(msg["table"])
        elif kind == "left":
            playing, table = False, None
            if loop.time() < stop_at:
                await client.join(room)
        elif kind == "error":
            errors[msg["code"]] += 1
            pending = None
        elif kind == "disconnected":
            errors[f"disconnected {msg['code']}"] += 1
            if not msg["reconnecting"]:
                return
    stats.finished += 1


async def make_guests(url: str, http: httpx.AsyncClient, n: int, timeout: float
                      ) -> list[tuple[TimedClient, int]]:
    """``n`` guests (client, starting beans), made ``HTTP_CONCURRENCY`` at a time."""
    gate = asyncio.Semaphore(HTTP_CONCURRENCY)

    async def one() -> tuple[TimedClient, int]:
        c = TimedClient(url, http=http, timeout=timeout, reconnect=False)
        async with gate:
            data = await c.guest()
        return c, int(data["player"]["beans"])

    return list(await asyncio.gather(*(one() for _ in range(n))))


async def balances(clients: list[TimedClient]) -> list[int]:
    gate = asyncio.Semaphore(HTTP_CONCURRENCY)

    async def one(c: TimedClient) -> int:
        async with gate:
            return int((await c.me())["beans"])

    return list(await asyncio.gather(*(one(c) for c in clients)))


@dataclass
class Result:
    clients: int
    think: float
    duration: float
    actions: int
    actions_per_s: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    settled: int
    errors: dict[str, int]
    drain_errors: dict[str, int]
    beans_conserved: bool
    beans: dict[str, int]
    unfinished: int
    server_cpu: float | None
    client_cpu: float
    load: str

    def row(self) -> str:
        errs = ", ".join(f"{k} {v}" for k, v in sorted(self.errors.items())) or "0"
        cpu = "" if self.server_cpu is None else f"{self.server_cpu:.0%}"
        return (f"| {self.clients} | {self.actions_per_s:.0f} | {self.p50_ms:.1f} | "
                f"{self.p99_ms:.1f} | {errs} | {self.settled} | "
                f"{'yes' if self.beans_conserved else 'NO'} | {cpu} | {self.client_cpu:.0%} "
                f"| {self.load} |")


HEADER = ("| clients | actions/s | p50 ms | p99 ms | errors | settled | beans conserved "
          "| server CPU | load-gen CPU | load avg (1/5/15) |\n"
          "|---|---|---|---|---|---|---|---|---|---|")


async def run(url: str, room: str, clients_n: int, think: float, duration: float, ramp: float,
              server_pid: int | None, on_window: Any = None) -> Result:
    timeout = 30.0
    limits = httpx.Limits(max_connections=HTTP_CONCURRENCY,
                          max_keepalive_connections=HTTP_CONCURRENCY)
    async with httpx.AsyncClient(base_url=url, timeout=timeout, limits=limits) as http:
        rooms = {r["id"]: r for r in (await http.get("/api/rooms")).json()}
        if room not in rooms:
            raise SystemExit(f"the hall has no room {room!r} (it has {', '.join(rooms)})")
        fee = int(rooms[room]["A"])
        made = await make_guests(url, http, clients_n, timeout)
        # The load generator's own pauses would count as latency: move what exists now
        # out of the collector's sight (the clients live to the end anyway).
        gc.collect()
        gc.freeze()
        gc.disable()  # bounded run: nothing it makes needs collecting before the end
        clients = [c for c, _ in made]
        loop = asyncio.get_running_loop()
        t0 = loop.time() + 0.5
        stop_at = t0 + ramp + duration
        end_at = stop_at + DRAIN_SECONDS
        stats = Stats()
        p0 = time.perf_counter() + (t0 - loop.time())
        stats.window = (p0 + ramp, p0 + ramp + duration)
        tasks = [asyncio.create_task(play(i, c, room, think, t0 + ramp * i / clients_n,
                                          stop_at, end_at, stats))
                 for i, c in enumerate(clients)]
        await asyncio.sleep(max(0.0, t0 + ramp - loop.time()))
        cpu0 = cpu_seconds(server_pid) if server_pid else 0.0
        me0 = time.process_time()
        if on_window is not None:
            on_window()
        await asyncio.sleep(max(0.0, stop_at - loop.time()))
        server_cpu = (cpu_seconds(server_pid) - cpu0) / duration if server_pid else None
        client_cpu = (time.process_time() - me0) / duration
        load = uptime()
        done = await asyncio.gather(*tasks, return_exceptions=True)
        for d in done:
            if isinstance(d, BaseException):
                stats.errors[f"exception {type(d).__name__}"] += 1
        gc.enable()
        after = await balances(clients)
        await asyncio.gather(*(asyncio.wait_for(c.disconnect(), 15) for c in clients),
                             return_exceptions=True)
    start = {id(c): b for c, b in made}
    changed = sum(a - start[id(c)] for c, a in zip(clients, after, strict=True))
    told = sum(sum(g["beans"].values()) for g in stats.games.values())
    fees = sum(fee * len(g["beans"]) for g in stats.games.values()
               if g["result"]["ended"] not in UNSCORED)
    started_right = all(b == STARTING_BEANS for _, b in made) or server_pid is None
    unfinished = clients_n - stats.finished  # their games may settle after the check
    lat = sorted(stats.latencies)
    q = statistics.quantiles(lat, n=100, method="inclusive") if len(lat) >= 2 else [0.0] * 99
    if os.environ.get("HALL_LOAD_TRACE"):  # every measured action: sent at, latency, seq
        Path(os.environ["HALL_LOAD_TRACE"]).write_text(
            "".join(f"{t:.4f} {lat * 1000:.2f} {seq} {who}\n" for t, lat, seq, who in stats.trace))
    return Result(
        clients=clients_n, think=think, duration=duration, actions=len(lat),
        actions_per_s=len(lat) / duration, p50_ms=q[49] * 1000, p99_ms=q[98] * 1000,
        max_ms=(lat[-1] * 1000) if lat else 0.0, settled=len(stats.games),
        errors=dict(stats.errors), drain_errors=dict(stats.late_errors),
        beans_conserved=changed == told == -fees and started_right and not unfinished,
        beans={"balances_changed": changed, "settled_said": told, "fees": fees},
        unfinished=unfinished, server_cpu=server_cpu, client_cpu=client_cpu,
        load=load)


def profile(pid: int, out: str, seconds: float) -> subprocess.Popen[bytes] | None:
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        print("py-spy is not installed (pip install py-spy): no profile", file=sys.stderr)
        return None
    fmt = "speedscope" if out.endswith(".json") else "flamegraph"
    if out.endswith(".txt"):
        fmt = "raw"
    return subprocess.Popen([spy, "record", "--pid", str(pid), "--duration",
                             str(max(1, int(seconds))), "--rate", "100", "--format", fmt,
                             "--output", out, "--nonblocking"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--sweep", help="comma-separated client counts, one fresh server each")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds before acting")
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds to bring clients in")
    parser.add_argument("--variant", default="ddz3", choices=sorted(VARIANTS))
    parser.add_argument("--url", help="a running hall (loopback) instead of starting one")
    parser.add_argument("--room", help="with --url: a room of humans only")
    parser.add_argument("--log-level", default="info", help="the started server's log level")
    parser.add_argument("--profile", help="py-spy the server over the measured window into "
                        "this file (.svg flamegraph, .json speedscope, .txt collapsed)")
    parser.add_argument("--json", action="store_true", help="also print each result as JSON")
    parser.add_argument("--keep", action="store_true", help="keep the server's temp folder")
    args = parser.parse_args()
    counts = [int(x) for x in args.sweep.split(",")] if args.sweep else [args.clients]
    if args.url and urlparse(args.url).hostname not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit("hall_load plays over loopback only")
    if max(counts) < 3 or min(counts) < 1:
        raise SystemExit("at least one table's worth of clients")
    print(f"think {args.think} s, measured {args.duration} s after a {args.ramp} s ramp, "
          f"variant {args.variant}; the load generator shares the machine with the server "
          f"({os.cpu_count()} cores); load avg at start {uptime()}")
    print(HEADER)
    results = []
    for n in counts:
        served = None
        room = args.room or f"load-{args.variant.replace('_', '-')}"
        if args.url:
            url, pid = args.url.rstrip("/"), None
        else:
            served = start_server(args.variant, room, args.log_level, args.keep)
            url, pid = served.url, served.proc.pid
        spy: list[subprocess.Popen[bytes] | None] = []

        def window(pid: int | None = pid,
                   spy: list[subprocess.Popen[bytes] | None] = spy) -> None:
            if args.profile and pid:
                spy.append(profile(pid, args.profile, args.duration))
        try:
            result = asyncio.run(run(url, room, n, args.think, args.duration, args.ramp, pid,
                                     window))
        finally:
            for p in spy:
                if p is not None:
                    try:
                        p.wait(args.duration + 30)
                    except subprocess.TimeoutExpired:
                        p.kill()
            if served is not None:
                served.stop()
                if args.keep:
                    print(f"kept {served.tmp}", file=sys.stderr)
                else:
                    shutil.rmtree(served.tmp, ignore_errors=True)
        results.append(result)
        print(result.row(), flush=True)
        extra = []
        if result.drain_errors:
            extra.append(f"errors while draining: {result.drain_errors}")
        if result.unfinished:
            extra.append(f"{result.unfinished} clients did not finish cleanly")
        if not result.beans_conserved:
            extra.append(f"beans: {result.beans}")
        if extra:
            print("  " + "; ".join(extra), flush=True)
        if args.json:
            print(json.dumps(result.__dict__, ensure_ascii=False), flush=True)
    bent = next((r.clients for r in results if r.p99_ms >= 100.0), None)
    if len(results) > 1:
        print(f"p99 passes 100 ms at {bent} clients" if bent else
              "p99 stays under 100 ms at every count")


if __name__ == "__main__":
    main()
