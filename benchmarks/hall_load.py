"""The hall's load sweep: a fresh ``cardhall serve`` per client count, ``cardhall loadtest`` at it.

The clients, figures and checks are ``cardhall loadtest`` (cardhall.client.loadtest and
loadreport); this script only starts the servers for each count (a temporary SQLite
file, or a fresh database on the PostgreSQL server ``--pg`` names; with ``--redis``,
``--processes`` processes of one hall over it), with one room of humans only and
generous ``[limits]``, adds the servers' CPU share over the run, and
prints one table row per count and where p99 first passes 100 ms. ``--profile`` records the
server with py-spy over the run.

    .venv/bin/python benchmarks/hall_load.py --sweep 250,500,1000,1500 --duration 30
    .venv/bin/python benchmarks/hall_load.py --sweep 250,500 --pg postgresql://postgres@db/postgres
    .venv/bin/python benchmarks/hall_load.py --sweep 500,1000 --pg URL --redis redis://127.0.0.1/0 \
        --processes 2
    .venv/bin/python benchmarks/hall_load.py --clients 500 --profile profile.svg
    .venv/bin/python benchmarks/hall_load.py --clients 1000 --spectators 200
    .venv/bin/python benchmarks/hall_load.py --clients 500 --pg URL --redis URL \
        --processes 2 --kill-at 15

``--kill-at S`` SIGKILLs the last process S seconds after the load test starts (guests
made, ramp, then the window), with the clients behind a failover front (``Failover``,
as the reverse proxy of docs/deploy.md: a connection goes to its own process, or to the
next one that accepts): their reconnects reach a live process, which adopts the dead
one's tables from the log. It reports the games lost (live in the database after the
run, or a client left in an unfinished game: must be 0), the bean check, and how long
after the kill the per-second p99 is back under 100 ms for good.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path

import asyncpg
from disk_probe import DiskProbe, DiskReport
from spectators import Spectators
from sqlalchemy.engine import make_url

from cardhall.client.loadreport import Report, load_test, uptime
from cardhall.client.loadtest import Plan
from cardhall.games import VARIANTS

ROOM = "load"


#: The servers' metrics token (``[metrics] token_file``): the scraper and the load test's
#: count check send it.
METRICS_TOKEN = secrets.token_hex(16)


def config_toml(variant: str, token_file: Path) -> str:
    return (f'[[rooms]]\nid = "{ROOM}"\nname = "load {variant}"\nvariant = "{variant}"\n'
            "N = 10\nA = 5\nmin_beans = 0\nturn_seconds = 60\n\n"
            "[economy]\nstarting_beans = 10000\n\n"
            "[limits]\nguests_per_minute = 100000\nlogins_per_minute = 100000\n"
            "messages_per_second = 200\nreplays_per_minute = 1000000\n"
            # the clients all come from loopback: the edge's caps per address lifted, and
            # loopback trusted as a proxy, which the edge's burst of 20 new connections
            # per address (edge.CONNECT_BURST) does not count: a ramp of 2,000 clients
            # met it whenever the hall accepted a backlog at once
            "connections_per_address = 100000\nconnects_per_minute = 1000000\n"
            'trusted_proxies = ["127.0.0.1"]\n\n'
            f"[metrics]\ntoken_file = {json.dumps(str(token_file))}\n")


async def fresh_pg_database(server: str, durable: bool = True) -> str:
    """A new empty database on the PostgreSQL server of ``server`` (a postgresql:// URL);
    not ``durable``: its commits do not wait for the disk (``synchronous_commit = off``),
    a diagnosis only (``--unsafe-async-commit``)."""
    name = f"load_{secrets.token_hex(4)}"
    conn = await asyncpg.connect(server)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
        if not durable:
            await conn.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
    finally:
        await conn.close()
    # The same server with the new database: a URL may name a socket directory in its
    # query (``?host=/run/postgresql``), so only the database part changes.
    return make_url(server).set(database=name).render_as_string(hide_password=False)


def start_server(tmp: Path, db: str, args: argparse.Namespace
                 ) -> tuple[str, subprocess.Popen[str]]:
    tmp.mkdir(parents=True, exist_ok=True)
    token = tmp / "metrics.token"
    token.write_text(METRICS_TOKEN)
    cluster = ["--redis", args.redis] if args.redis else []
    return launch(tmp, config_toml(args.variant, token), db,
                  ["--log-level", args.log_level, *cluster])


def launch(tmp: Path, config: str, db: str, extra: Sequence[str] = (),
           cpus: set[int] | None = None, python: Sequence[str] = ("-m", "cardhall")
           ) -> tuple[str, subprocess.Popen[str]]:
    """``cardhall serve`` on a free loopback port with ``config`` (TOML text, written to
    ``tmp/hall.toml``) and ``extra`` arguments: its URL once it says it is open, and the
    process (stderr in ``tmp/serve.log``). ``cpus``: the only CPUs it may run on, set as
    it starts (the threads it makes later inherit them) and again on every thread once
    it is open. ``python``: what runs instead of ``-m cardhall`` (a wrapper taking the
    same arguments, e.g. a profiler's)."""
    path = tmp / "hall.toml"
    path.write_text(config)
    cmd = [sys.executable, *python, "serve", "--port", "0", "--db", db,
           "--config", str(path), *extra]
    with (tmp / "serve.log").open("w") as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})
    if cpus is not None:
        pin(proc.pid, cpus)
    assert proc.stdout is not None
    end = time.monotonic() + 60
    while time.monotonic() < end and proc.poll() is None:
        ready, _, _ = select.select([proc.stdout], [], [], max(0.0, end - time.monotonic()))
        line = proc.stdout.readline() if ready else ""
        if "the hall is open at " in line:
            if cpus is not None:
                pin(proc.pid, cpus)
            return line.strip().rsplit(" ", 1)[1].rstrip("/"), proc
    stop(proc)
    raise SystemExit(f"cardhall serve did not start:\n{(tmp / 'serve.log').read_text()[-3000:]}")


def pin(pid: int, cpus: set[int], nice: int | None = None, realtime: bool = False) -> None:
    """Pin every thread of ``pid`` to ``cpus`` (``sched_setaffinity`` of a pid moves one
    thread; threads made later inherit it); with ``nice``, give each that niceness (under
    the ordinary policy); ``realtime``: SCHED_RR priority 1 instead (root; the kernel
    still leaves 5% of each second to the others), for a figure the machine's other work
    must not decide."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        tid = int(task.name)
        os.sched_setaffinity(tid, cpus)
        if realtime:
            os.sched_setscheduler(tid, os.SCHED_RR, os.sched_param(1))
        elif nice is not None:
            if os.sched_getscheduler(tid) != os.SCHED_OTHER:  # a real-time parent's child
                os.sched_setscheduler(tid, os.SCHED_OTHER, os.sched_param(0))
            os.setpriority(os.PRIO_PROCESS, tid, nice)


def stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
    if proc.stdout is not None:
        proc.stdout.close()


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class CpuMeter:
    """The processes' CPU seconds every half second, on a thread, so that the measured
    window's share (``ms_per_action``) leaves out the guests, the ramp and the drain."""

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids
        self.samples: list[tuple[float, float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.5):
            try:
                self.samples.append((time.time(), sum(cpu_seconds(p) for p in self.pids)))
            except OSError:  # a killed process: the window's figure is left out
                return

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def ms_per_action(self, start: float, end: float, actions: int) -> float | None:
        """Server CPU milliseconds per action acknowledged in the window [start, end)."""
        first = next((c for t, c in self.samples if t >= start), None)
        last = next((c for t, c in reversed(self.samples) if t <= end), None)
        if first is None or last is None or not actions:
            return None
        return (last - first) * 1000 / actions


def profile(pid: int, out: str, seconds: float) -> subprocess.Popen[bytes]:
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    fmt = {"json": "speedscope", "txt": "raw"}.get(out.rsplit(".", 1)[-1], "flamegraph")
    return subprocess.Popen([spy, "record", "--pid", str(pid), "--duration",
                             str(max(1, int(seconds))), "--rate", "100", "--format", fmt,
                             "--output", out, "--nonblocking"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


async def flush_redis(url: str) -> None:
    """Empty the Redis database of ``url``: each count's hall starts with no queue."""
    import redis.asyncio as aioredis  # noqa: PLC0415 (only with --redis)
    client = aioredis.from_url(url)
    try:
        await client.flushdb()
    finally:
        await client.aclose()


class Failover:
    """One TCP front per process, on a thread of its own: a connection to front ``i``
    goes to process ``i``, or (refused: it died) to the next that accepts."""

    def __init__(self, urls: list[str]) -> None:
        self.backends = [(u.split("//")[1].rsplit(":", 1)[0], int(u.rsplit(":", 1)[1]))
                         for u in urls]
        self.ports = [_free_port() for _ in urls]
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        threading.Thread(target=self._serve, args=(ready,), daemon=True).start()
        ready.wait(10)

    @property
    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{p}" for p in self.ports]

    def _serve(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        for i, port in enumerate(self.ports):
            self.loop.run_until_complete(asyncio.start_server(
                lambda r, w, i=i: self._pipe(i, r, w), "127.0.0.1", port))
        ready.set()
        self.loop.run_forever()

    async def _pipe(self, i: int, reader: asyncio.StreamReader,
                    writer: asyncio.StreamWriter) -> None:
        order = self.backends[i:] + self.backends[:i]
        for host, port in order:
            try:
                up_r, up_w = await asyncio.open_connection(host, port)
                break
            except OSError:
                continue
        else:
            writer.close()
            return
        await asyncio.gather(_copy(reader, up_w), _copy(up_r, writer))

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)


async def _copy(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
    with contextlib.suppress(ConnectionError):  # the other side went away: close ours
        while chunk := await src.read(65536):
            dst.write(chunk)
            await dst.drain()
    dst.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def live_games(db: str) -> int:
    """Games the database still holds as live (after the run: lost ones)."""
    conn = await asyncpg.connect(db)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM games WHERE status = 'live'"))
    finally:
        await conn.close()


#: The servers' histograms of where an action's time goes, by (metric, label) shown.
STAGES = (("cardhall_action_stage_seconds", 'stage="queued"', "queued"),
          ("cardhall_action_stage_seconds", 'stage="logged"', "logged"),
          ("cardhall_log_batch_seconds", "", "log batch"),
          ("cardhall_log_batch_rows", "", "batch rows"),
          ("cardhall_action_seconds", "", "log+apply+send"),
          ("cardhall_send_wait_seconds", "", "send queue"),
          ("cardhall_loop_lag_seconds", "", "loop lag"))


Buckets = dict[tuple[str, str, float], float]  # (metric, label, le) → count


def buckets(text: str) -> Buckets:
    """The histogram buckets of STAGES in a /metrics text."""
    found: Buckets = {}
    for line in text.splitlines():
        for metric, label, _ in STAGES:
            if line.startswith(f"{metric}_bucket{{") and label in line:
                le = float(line.split('le="', 1)[1].split('"', 1)[0])
                found[metric, label, le] = float(line.rsplit(" ", 1)[1])
    return found


def quantile(counts: Buckets, metric: str, label: str, q: float) -> float | None:
    """The ``q`` quantile of one histogram (its bucket's upper bound: the figure is at most
    that), None when it is empty."""
    rows = sorted((le, n) for (m, lab, le), n in counts.items() if m == metric and lab == label)
    if not rows or rows[-1][1] == 0:
        return None
    return next(le for le, n in rows if n >= q * rows[-1][1])


#: Seconds between the scraper's reads of /metrics. Each read renders every metric of
#: the process on its loop (about 8 ms at 1,000 clients: read every second, 1.4% of the
#: loop's time went to the benchmark itself); Prometheus reads every 15 s or more.
SCRAPE_SECONDS = 5.0


class Scraper:
    """Every ``SCRAPE_SECONDS``, each process's /metrics buckets, on a thread: the
    window's share is the difference of the snapshots nearest inside its start and end."""

    def __init__(self, urls: list[str]) -> None:
        self.urls = urls
        self.snapshots: list[tuple[float, list[Buckets]]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(SCRAPE_SECONDS):
            texts = []
            for url in self.urls:
                try:
                    ask = urllib.request.Request(f"{url}/metrics", headers={
                        "Authorization": f"Bearer {METRICS_TOKEN}"})
                    with urllib.request.urlopen(ask, timeout=5) as answer:
                        texts.append(buckets(answer.read().decode()))
                except OSError:  # a killed process: nothing from it
                    texts.append({})
            self.snapshots.append((time.time(), texts))

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)

    def window(self, start: float, end: float) -> str:
        """Each process's p99 per stage (bucket bounds, ms) between ``start`` and ``end``."""
        first = next((s for s in self.snapshots if s[0] >= start), None)
        last = next((s for s in reversed(self.snapshots) if s[0] <= end), None)
        if first is None or last is None or last[0] <= first[0]:
            return "no snapshots"
        parts = []
        for i, (a, b) in enumerate(zip(first[1], last[1], strict=True)):
            if not a or not b:
                continue
            diff = {k: b[k] - a.get(k, 0.0) for k in b}
            shown = [f"{name} ≤{p if 'rows' in metric else p * 1000:g}"
                     f" (max ≤{m if 'rows' in metric else m * 1000:g})"
                     for metric, label, name in STAGES
                     if (p := quantile(diff, metric, label, 0.99)) is not None
                     and (m := quantile(diff, metric, label, 1.0)) is not None]
            parts.append(f"process {i}: " + ", ".join(shown))
        return "; ".join(parts)


def recovery(report: Report, killed_at: float,
             stalled: list[float] | None = None) -> float | None:
    """Seconds from the kill until the per-second p99 stays under 100 ms to the window's
    end (None: it never did); with ``stalled`` (the disk probe's per-second stalls), in
    every second the disk did not stall."""
    offset = killed_at - report.window_start
    seconds = report.p99_by_second
    calm = [not (stalled and i < len(stalled) and stalled[i]) for i in range(len(seconds))]
    for s in range(max(0, int(offset)), len(seconds)):
        if all(x < 100.0 for x, ok in zip(seconds[s:], calm[s:], strict=True) if ok):
            return max(0.0, s - offset)
    return None


def one(n: int, args: argparse.Namespace) -> tuple[Report, float]:
    """Fresh servers, ``n`` clients at them: the report and the servers' CPU share (of one
    core, summed over the processes)."""
    tmp = Path(tempfile.mkdtemp(prefix="hall-load-"))
    db = asyncio.run(fresh_pg_database(args.pg, durable=not args.unsafe_async_commit)) \
        if args.pg else f"sqlite:///{tmp / 'hall.db'}"
    if args.redis:
        asyncio.run(flush_redis(args.redis))
    served = [start_server(tmp / f"p{i}", db, args) for i in range(args.processes)]
    spy = profile(served[0][1].pid, args.profile, args.ramp + args.duration + 10) \
        if args.profile else None
    front = Failover([u for u, _ in served]) if args.kill_at is not None else None
    killed: list[float] = []
    disk = DiskProbe(args.probe_dir or tmp)
    try:
        cpu0, t0 = sum(cpu_seconds(p.pid) for _, p in served), time.monotonic()
        plan = Plan(urls=tuple(front.urls if front else (u for u, _ in served)), room=ROOM,
                    clients=n, duration=args.duration, think=args.think, ramp=args.ramp,
                    workers=args.workers, metrics_token=METRICS_TOKEN, deltas=args.deltas)
        if args.kill_at is not None:
            victim = served[-1][1]
            timer = threading.Timer(args.kill_at, lambda: (
                killed.append(time.time()), os.kill(victim.pid, signal.SIGKILL)))
            timer.start()
        scraper = Scraper([u for u, _ in served])
        meter = CpuMeter([p.pid for _, p in served])
        watchers = Spectators(list(plan.urls), ROOM, args.spectators, args.ramp)
        watchers.start()
        try:
            report = load_test(plan, args.variant, ROOM)
        finally:
            seen = watchers.stop()
            scraper.stop()
            meter.stop()
        if args.spectators:
            print(f"  {args.spectators} spectators: {seen.summary()}", flush=True)
        window = (report.window_start, report.window_start + args.duration)
        print(f"  server p99 ms by stage over the window (bucket bounds): "
              f"{scraper.window(*window)}", flush=True)
        per = meter.ms_per_action(*window, report.actions)
        print(f"  server CPU per action over the window: "
              f"{'-' if per is None else f'{per:.2f} ms'}; next→deal p50 "
              f"{report.deal_p50_ms:.0f} ms, p99 {report.deal_p99_ms:.0f} ms "
              f"({report.deals} deals)", flush=True)
        synced = disk.report(*window)
        print(f"  disk over the window (4 KB fdatasync, {disk.path.parent}): "
              f"{synced.summary() if synced else 'no syncs'}", flush=True)
        cpu = (sum(cpu_seconds(p.pid) for _, p in served if p.poll() is None) - cpu0) / (
            time.monotonic() - t0) if not killed else 0.0
        if killed:
            lost = asyncio.run(live_games(db)) + report.unfinished
            back = recovery(report, killed[0])
            stalled = disk.stalled_seconds(report.window_start, len(report.p99_by_second))
            calm = recovery(report, killed[0], stalled)
            print(f"  SIGKILL of 1 of {len(served)} processes at "
                  f"{killed[0] - report.window_start:+.1f} s into the window: games lost "
                  f"{lost}, beans {'conserved' if not report.problems else 'NOT conserved'}, "
                  f"p99 back under 100 ms after "
                  f"{'never' if back is None else f'{back:.0f} s'} "
                  f"({'never' if calm is None else f'{calm:.0f} s'} in the seconds the disk "
                  f"did not stall); per-second p99 ms: "
                  f"{' '.join(f'{x:.0f}' for x in report.p99_by_second)}; per-second disk "
                  f"stall ms: {' '.join(f'{x:.0f}' for x in stalled)}", flush=True)
    finally:
        disk.stop()
        if front is not None:
            front.close()
        if spy is not None:
            spy.wait(args.ramp + args.duration + 60)
        for _, proc in served:
            stop(proc)
        if args.keep:
            print(f"  the servers' logs and database are kept in {tmp}", flush=True)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return report, cpu, synced


HEADER = ("| clients | actions/s | p50 ms | p99 ms | errors | settled | beans conserved "
          "| server CPU | load-gen CPU | disk sync ms | load avg (1/5/15) |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|")


def row(r: Report, cpu: float, disk: DiskReport | None) -> str:
    errs = ", ".join(f"{k} {v}" for k, v in sorted(r.errors.items())) or "0"
    return (f"| {r.clients} | {r.actions_per_s:.0f} | {r.p50_ms:.1f} | {r.p99_ms:.1f} | "
            f"{errs} | {r.settled} | {'yes' if not r.problems else 'NO'} | {cpu:.0%} | "
            f"{r.client_cpu:.0%} | {disk.cell() if disk else '-'} | {r.load} |")


def main(args: argparse.Namespace) -> None:
    where = "PostgreSQL" + (" + Redis" if args.redis else "") if args.pg else "SQLite"
    if args.unsafe_async_commit:
        where += " (NOT DURABLE: synchronous_commit off, to measure the disk's share)"
    print(f"{args.processes} process(es) on {where}, think {args.think} s, measured "
          f"{args.duration} s after a {args.ramp} s ramp, variant {args.variant}, "
          f"{args.workers} load process(es), {os.cpu_count()} cores; load avg {uptime()}")
    print(HEADER, flush=True)
    counts = [int(x) for x in args.sweep.split(",")] if args.sweep else [args.clients]
    bent = None
    for n in counts:
        report, cpu, disk = one(n, args)
        print(row(report, cpu, disk), flush=True)
        for p in report.problems[:5]:
            print(f"  {p}", flush=True)
        if report.p99_ms >= 100.0 and bent is None:
            bent = n
    if len(counts) > 1:
        print(f"p99 passes 100 ms at {bent} clients" if bent else
              "p99 stays under 100 ms at every count")


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--sweep", help="comma-separated client counts, one fresh server each")
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--ramp", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=1, help="load generator processes")
    parser.add_argument("--variant", default="ddz3", choices=sorted(VARIANTS))
    parser.add_argument("--deltas", action="store_true", help="the clients opt into deltas, "
                        "as the browser does")
    parser.add_argument("--pg", help="a PostgreSQL server URL: a fresh database on it per "
                        "count instead of SQLite")
    parser.add_argument("--redis", help="a Redis URL: the processes run as one hall over it "
                        "(needs --pg); its database is emptied before each count")
    parser.add_argument("--processes", type=int, default=1, help="server processes (with "
                        "--redis)")
    parser.add_argument("--kill-at", type=float, help="SIGKILL the last process this many "
                        "seconds after the load test starts (needs --processes 2 or more)")
    parser.add_argument("--unsafe-async-commit", action="store_true", help="diagnosis "
                        "only: the fresh PostgreSQL database commits without waiting for "
                        "the disk, so the run shows what the hall costs without its fsyncs")
    parser.add_argument("--probe-dir", help="where the disk probe writes (default: the "
                        "run's temporary directory, the SQLite database's disk); give "
                        "PostgreSQL's data disk when it is another")
    parser.add_argument("--spectators", type=int, default=0, help="guests who watch (观战) "
                        "the tables, spread over them, from the end of the ramp on")
    parser.add_argument("--log-level", default="warning")
    parser.add_argument("--keep", action="store_true",
                        help="keep each run's folder (the servers' serve.log, the SQLite file)")
    parser.add_argument("--profile", help="py-spy the server into this file (.svg, .json "
                        "speedscope, .txt collapsed)")
    return parser.parse_args()


if __name__ == "__main__":
    parsed = parse()
    if parsed.processes > 1 and not (parsed.redis and parsed.pg):
        raise SystemExit("several processes need --pg and --redis")
    if parsed.unsafe_async_commit and not parsed.pg:
        raise SystemExit("--unsafe-async-commit is PostgreSQL's (needs --pg)")
    if parsed.kill_at is not None and parsed.processes < 2:
        raise SystemExit("--kill-at needs --processes 2 or more (another takes over)")
    main(parsed)
