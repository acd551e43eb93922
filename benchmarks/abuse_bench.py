"""Does the hall keep serving its players while one client floods its connection edge?

Starts one ``cardhall serve`` (a temporary SQLite file; one room of humans only, so
the players fill its tables; the edge's ``[limits]`` at their defaults), then runs
``cardhall loadtest``'s players (cardhall.client.loadtest) twice:

1. **quiet**: ``--players`` real players play full games for ``--duration`` s;
2. **attacked**: the same again while an attacker process holds ``--idle`` WebSockets
   that never say ``hello`` (each re-opened as soon as the hall closes it: the hello
   deadline is part of the defence) and ``--slow`` HTTP connections sending one byte of
   a request head every 10 s (also re-opened), spread over the loopback source
   addresses 127.0.0.2–127.0.0.250 so that the per-address cap does not simply refuse
   them all. A connection the hall refuses or drops is tried again a second later (a
   flood of connects at line rate is a different attack, for the kernel's or the
   proxy's per-source limits: the hall must accept a connection to refuse it).

The hall is pinned to one CPU and the players and attacker to the others (``--no-pin``
to share them), as a remote attacker would not take the hall's CPU; the attacker runs
at nice 19 (``--attacker-nice``), so it gets only what the players' client leaves and
cannot starve the client that measures (both are printed, read back from the kernel).
On a machine busy with other work, ``--hall-nice -15 --attacker-nice -5`` (root) keeps
that work from deciding the figures, with the attacker still below the players' client;
``--realtime`` puts the hall and the client under SCHED_RR (the attacker stays under the
ordinary policy), for a machine so busy that nice -15 still waits its turn.
The players come from 127.0.0.1, configured as a trusted proxy (``trusted_proxies``):
a hall's real players come from many addresses, which loopback cannot give them.
It reports, for both runs, the players' p99 action→state and the server's peak RSS
(sampled from /proc every 0.2 s), the attacker's counts (held, re-opened, refused) and
its rate over the attacked run, the hall's refusals by limit (its /metrics),
what a single address alone gets (``--single`` connections tried from 127.0.0.251),
and PASS/FAIL against the target: p99 under attack within 2× the quiet p99 and the
peak RSS at most 200 MB above it. Everything is on loopback, bounded in time, and
the processes it started are stopped by their pids.

    .venv/bin/python benchmarks/abuse_bench.py
    .venv/bin/python benchmarks/abuse_bench.py --players 100 --idle 5000 --slow 200 --duration 30
    .venv/bin/python benchmarks/abuse_bench.py --realtime --attacker-nice -5 --profile out
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from abuse_attacker import SINGLE, single_address
from hall_load import cpu_seconds, launch, pin, stop

from cardhall.client.loadreport import Report, load_test
from cardhall.client.loadtest import Plan

ROOM = "abuse"
#: The attacker's script, run as a process of its own.
ATTACKER = str(Path(__file__).with_name("abuse_attacker.py"))
P99_FACTOR, RSS_MB = 2.0, 200.0


#: The /metrics token the bench gives its hall (a file in the run's temporary directory).
METRICS_TOKEN = "abuse-bench-" + "0" * 20


def config_toml(token_file: Path, accepts: int | None = None) -> str:
    return (f'[metrics]\ntoken_file = "{token_file}"\n\n'
            f'[[rooms]]\nid = "{ROOM}"\nname = "abuse ddz3"\nvariant = "ddz3"\n'
            "N = 10\nA = 5\nmin_beans = 0\nturn_seconds = 60\n\n"
            "[limits]\nguests_per_minute = 100000\nlogins_per_minute = 100000\n"
            "messages_per_second = 200\nreplays_per_minute = 100000\n"
            + (f"accepts_per_second = {accepts}\n" if accepts else "")
            + "trusted_proxies = [\"127.0.0.1\"]\n")


def metrics_lines(url: str) -> list[str]:
    """The hall's /metrics, read with the bench's token, line by line."""
    request = urllib.request.Request(url + "/metrics",
                                     headers={"authorization": f"Bearer {METRICS_TOKEN}"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.read().decode().splitlines()


#: The hall's histograms the bench reads (/metrics), by what it prints for each: how late
#: its loop ran a timer; an accepted action's wait for its table, its log commit and the
#: whole of log, apply and send; a message's wait in its connection's queue. What of the
#: players' delay is the hall's, and what is their side of the loopback's (a local
#: attacker's packets cost the players' CPU too, which a remote one's would not).
HISTOGRAMS = {"loop lag": "cardhall_loop_lag_seconds",
              "queued": 'cardhall_action_stage_seconds{stage="queued"}',
              "logged": 'cardhall_action_stage_seconds{stage="logged"}',
              "log+apply+send": "cardhall_action_seconds",
              "send queue": "cardhall_send_wait_seconds"}


def histograms(url: str) -> dict[str, dict[float, float]]:
    """The hall's cumulative ``HISTOGRAMS`` (/metrics): metric -> upper bound -> count."""
    out: dict[str, dict[float, float]] = {name: {} for name in HISTOGRAMS.values()}
    for line in metrics_lines(url):
        if "_bucket{" not in line:
            continue
        name, labels = line.split("_bucket{", 1)
        stage = [part for part in labels.split("}", 1)[0].split(",")
                 if part.startswith("stage=")]
        key = name + ("{" + stage[0] + "}" if stage else "")
        if key in out:
            bound = line.split('le="', 1)[1].split('"', 1)[0]
            out[key][float(bound)] = float(line.rsplit(" ", 1)[1])
    return out


def hall_p99s(before: dict[str, dict[float, float]], after: dict[str, dict[float, float]]
              ) -> str:
    """Each of ``HISTOGRAMS``' 99th percentile between two readings."""
    return "the hall's p99s: " + ", ".join(
        f"{said} {p99_bound(before[name], after[name])}" for said, name in HISTOGRAMS.items())


def p99_bound(before: dict[float, float], after: dict[float, float]) -> str:
    """The 99th percentile of a histogram between two readings (a bucket's bound)."""
    delta = {b: after[b] - before.get(b, 0.0) for b in sorted(after)}
    total = delta.get(float("inf"), 0.0)
    for bound, count in delta.items():
        if total and count >= 0.99 * total:
            return f"≤ {bound * 1000:g} ms" if bound != float("inf") else "over the top bucket"
    return "?"


class RssSampler:
    """The peak VmRSS of a process (MiB), sampled every 0.2 s on a thread."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak, self._stop = pid, 0.0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def rss(self) -> float:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def _run(self) -> None:
        while not self._stop.wait(0.2):
            self.peak = max(self.peak, self.rss())

    def __enter__(self) -> RssSampler:
        self.peak = self.rss()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


# -- the runs ----------------------------------------------------------------------------


async def probe(url: str, seconds: float) -> list[float]:
    """A new connection's GET /healthz every 2 s for ``seconds``: each answer's time."""
    import httpx  # noqa: PLC0415 (the server extra, as the players)
    out = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.monotonic()
        async with httpx.AsyncClient(timeout=60) as http:
            try:
                await http.get(url + "/healthz")
                out.append(time.monotonic() - started)
            except httpx.HTTPError:
                out.append(float("inf"))
        await asyncio.sleep(max(0.0, 2.0 - (time.monotonic() - started)))
    return out


def players(url: str, args: argparse.Namespace) -> Report:
    plan = Plan(urls=(url,), room=ROOM, clients=args.players, duration=args.duration,
                think=args.think, ramp=args.ramp)
    with open(os.devnull, "w") as quiet:
        return load_test(plan, "ddz3", ROOM, out=quiet)


@dataclass(frozen=True)
class Cpus:
    """Where each part of the bench runs. The hall has a CPU of its own, as it would
    against a remote attacker; the players' client and the attacker share the others,
    the attacker at a lower priority (a higher ``nice``), so that the players' client is
    never starved by it: what the players measure is then the hall's delay, not their
    own. On a machine busy with other work, ``hall_nice`` below 0 (root) keeps that work
    from deciding the figures: the hall and the players' client run at it, the
    attacker should then run between it and the others' 0; ``realtime`` (SCHED_RR) is
    the stronger form, for a machine so busy that even nice -15 waits its turn."""

    hall: frozenset[int] | None
    clients: frozenset[int] | None
    hall_nice: int
    attacker_nice: int
    realtime: bool = False

    @classmethod
    def plan(cls, pin: bool, hall_nice: int, attacker_nice: int, realtime: bool) -> Cpus:
        if attacker_nice <= hall_nice and not realtime:
            raise SystemExit("the attacker's nice must be above the hall's and the players' "
                             "client's: it must not take their CPU")
        cores = sorted(os.sched_getaffinity(0))
        if not pin or len(cores) < 2:
            return cls(None, None, hall_nice, attacker_nice, realtime)
        return cls(frozenset(cores[:1]), frozenset(cores[1:]), hall_nice, attacker_nice,
                   realtime)


def where(pid: int) -> str:
    """The CPUs and niceness the kernel holds for ``pid``'s main thread: what was set,
    read back."""
    cpus = ",".join(map(str, sorted(os.sched_getaffinity(pid))))
    if os.sched_getscheduler(pid) == os.SCHED_RR:
        return f"CPU {cpus} under SCHED_RR {os.sched_getparam(pid).sched_priority}"
    return f"CPU {cpus} at nice {os.getpriority(os.PRIO_PROCESS, pid)}"


def round_robin(pid: int, priority: int) -> None:
    """Every thread of ``pid`` under SCHED_RR at ``priority`` (root)."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        os.sched_setscheduler(int(task.name), os.SCHED_RR, os.sched_param(priority))


def edge_refusals(url: str) -> dict[str, float]:
    """The hall's own count of refused connections by limit and fate (/metrics)."""
    out = {}
    for line in metrics_lines(url):
        if line.startswith("cardhall_edge_refused_total{"):
            labels = dict(part.split("=", 1) for part in
                          line.split("{", 1)[1].split("}", 1)[0].split(","))
            code, fate = labels["code"].strip('"'), labels["fate"].strip('"')
            key = f"{code} ({fate})"
            out[key] = float(line.rsplit(" ", 1)[1])
    return out


def delta(before: dict[str, object], after: dict[str, object], key: str) -> dict[str, int]:
    """What a count of the attacker's (a dict) grew by between two readings."""
    a, b = before.get(key) or {}, after.get(key) or {}
    assert isinstance(a, dict) and isinstance(b, dict)
    return {k: int(v) - int(a.get(k, 0)) for k, v in sorted(b.items()) if v != a.get(k, 0)}


class Profiler:
    """The hall under ``benchmarks/profiled.py`` (``--profile``): ``phase(name)`` records
    the loop until ``done()``, which writes ``OUT.name.prof`` and prints its top entries."""

    def __init__(self, out: str | None) -> None:
        self.out = out
        self.proc: subprocess.Popen[str] | None = None
        self.name = ""

    @property
    def python(self) -> tuple[str, ...]:
        if self.out is None:
            return ("-m", "cardhall")
        return (str(Path(__file__).with_name("profiled.py")), self.out)

    def phase(self, proc: subprocess.Popen[str], name: str) -> None:
        if self.out is not None:
            self.proc, self.name = proc, name
            proc.send_signal(signal.SIGUSR1)

    def done(self) -> None:
        if self.out is None or self.proc is None:
            return
        self.proc.send_signal(signal.SIGUSR2)
        assert self.proc.stdout is not None
        said = []  # what the wrapper says, until the file is whole (or it has gone)
        while (line := self.proc.stdout.readline()) and "profile written" not in line:
            said.append(line.rstrip())
        if not os.path.exists(self.out):  # CARDHALL_PROFILE=stalls: no cProfile
            print(f"-- the hall's loop, {self.name}:\n" + "\n".join(said), flush=True)
            self.proc = None
            return
        target = f"{self.out}.{self.name}.prof"
        os.replace(self.out, target)
        from profiled import top  # noqa: PLC0415 (beside this file)
        print(f"-- the hall's loop, {self.name}, under cProfile ({target}):\n"
              + "\n".join(said) + "\n" + top(target, 25), flush=True)
        self.proc = None


def run(args: argparse.Namespace) -> int:
    if args.attacker_realtime and not args.realtime:
        raise SystemExit("--attacker-realtime goes with --realtime")
    cpus = Cpus.plan(args.pin, args.hall_nice, args.attacker_nice, args.realtime)
    # The players' client: this process.
    pin(os.getpid(), set(cpus.clients or os.sched_getaffinity(0)), cpus.hall_nice,
        cpus.realtime)
    profiler = Profiler(args.profile)
    with tempfile.TemporaryDirectory(prefix="abuse-", dir=args.db_dir) as tmp:
        token_file = Path(tmp) / "metrics.token"
        token_file.write_text(METRICS_TOKEN + "\n")
        url, server = launch(Path(tmp), config_toml(token_file, args.accepts), f"sqlite:///{tmp}/hall.db",
                             cpus=None if cpus.hall is None else set(cpus.hall),
                             python=profiler.python)
        pin(server.pid, set(cpus.hall or os.sched_getaffinity(server.pid)), cpus.hall_nice,
            cpus.realtime)
        port = int(url.rsplit(":", 1)[1])
        attacker: subprocess.Popen[str] | None = None
        decoy: subprocess.Popen[str] | None = None
        try:
            cpu, wall = cpu_seconds(server.pid), time.monotonic()
            lag = histograms(url)
            profiler.phase(server, "quiet")
            with RssSampler(server.pid) as quiet_rss:
                quiet = players(url, args)
            profiler.done()
            quiet_lag = hall_p99s(lag, histograms(url))
            quiet_cpu = (cpu_seconds(server.pid) - cpu) / (time.monotonic() - wall)
            print(f"quiet:    p99 {quiet.p99_ms:.1f} ms (p50 {quiet.p50_ms:.1f}), "
                  f"{quiet.settled} games settled, errors {quiet.errors or 0}, peak RSS "
                  f"{quiet_rss.peak:.0f} MiB, server CPU {quiet_cpu:.0%}, {quiet_lag}", flush=True)
            alone = asyncio.run(single_address(port, args.single))
            print(f"one address alone ({SINGLE}), {args.single} idle WebSockets tried: "
                  + ", ".join(f"{k}: {v}" for k, v in sorted(alone.items())), flush=True)
            seconds = args.warmup + args.ramp + args.duration + 60
            target = port
            if args.control:
                decoy = subprocess.Popen([sys.executable, ATTACKER, "--decoy"],
                                         stdout=subprocess.PIPE, text=True)
                assert decoy.stdout is not None
                target = int(decoy.stdout.readline())
                pin(decoy.pid, set(cpus.clients or os.sched_getaffinity(0)),
                    cpus.attacker_nice)
                if args.attacker_realtime:
                    round_robin(decoy.pid, 1)
                print(f"control: the attacker is aimed at a decoy (pid {decoy.pid}, port "
                      f"{target}) beside it, which resets every connection: the hall "
                      "serves only the players", flush=True)
            attacker = subprocess.Popen(
                [sys.executable, ATTACKER, "--port", str(target),
                 "--idle", str(args.idle), "--slow", str(args.slow), "--seconds",
                 str(seconds)], stdout=subprocess.PIPE, text=True)
            # At once, before its interpreter has started: the threads it makes inherit it.
            pin(attacker.pid, set(cpus.clients or os.sched_getaffinity(0)), cpus.attacker_nice)
            if args.attacker_realtime:
                # Above everything else on the machine, below the hall and the client.
                for pid, priority in ((server.pid, 2), (os.getpid(), 2), (attacker.pid, 1)):
                    round_robin(pid, priority)
            print(f"CPUs: the hall (pid {server.pid}) {where(server.pid)}; the players' "
                  f"client (this process, pid {os.getpid()}) {where(os.getpid())}; the "
                  f"attacker (pid {attacker.pid}) {where(attacker.pid)}"
                  + ("" if cpus.hall is not None else " (not pinned: --no-pin or 1 CPU)"),
                  flush=True)
            counts = _Reader(attacker)
            with RssSampler(server.pid) as attack_rss:
                probes = asyncio.run(probe(url, args.warmup))
                held = counts.last
                print(f"while the attack starts: GET /healthz every 2 s answered in "
                      f"{', '.join(f'{p:.2f}' for p in probes)} s", flush=True)
                print(f"attack after {args.warmup:g} s: {held.get('idle_held')} idle "
                      f"WebSockets and {held.get('slow_held')} slow heads held, "
                      f"{held.get('attempts')} connects tried", flush=True)
                cpu, wall = cpu_seconds(server.pid), time.monotonic()
                attacker_cpu = cpu_seconds(attacker.pid)
                lag, refusals, before = histograms(url), edge_refusals(url), counts.last
                profiler.phase(server, "attacked")
                try:
                    attacked = players(url, args)
                except Exception as exc:  # the players could not play: the result
                    attacked = None
                    failure = f"{type(exc).__name__}: {exc}"
                profiler.done()
                window = time.monotonic() - wall
                after = counts.last
                attack_cpu = (cpu_seconds(server.pid) - cpu) / window
                attack_lag = hall_p99s(lag, histograms(url))
                attacker_cpu = (cpu_seconds(attacker.pid) - attacker_cpu) / window
                refusals = {k: v - refusals.get(k, 0.0)
                            for k, v in edge_refusals(url).items() if v != refusals.get(k)}
        finally:
            if attacker is not None:
                stop(attacker)
            if decoy is not None:
                stop(decoy)
            stop(server)
            log_bytes = (Path(tmp) / "serve.log").stat().st_size
    print(f"server log: {log_bytes / 1024:.0f} KiB over both runs; load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")

    def rate(key: str) -> str:
        return f"{(int(after.get(key, 0)) - int(before.get(key, 0))) / window:.0f}/s"  # type: ignore[call-overload]

    print(f"attacker over the players' attacked run ({window:.0f} s, {attacker_cpu:.0%} "
          f"of a CPU): {rate('attempts')} connects tried, {rate('opened')} completed, "
          f"{rate('upgraded')} WebSockets let in; it saw refused "
          f"{delta(before, after, 'refused')}, closed by the hall "
          f"{delta(before, after, 'closed_by_hall')}, failed {delta(before, after, 'failed')}")
    print("the hall's refusals over that run, by limit (its /metrics): "
          + (", ".join(f"{k}: {v:.0f} ({v / window:.0f}/s)" for k, v in refusals.items())
             or "none"))
    if attacked is None:
        print(f"attacked: the players could not play ({failure}); peak RSS "
              f"{attack_rss.peak:.0f} MiB, server CPU {attack_cpu:.0%}: FAIL")
        return 1
    print(f"attacked: p99 {attacked.p99_ms:.1f} ms (p50 {attacked.p50_ms:.1f}), "
          f"{attacked.settled} games settled, errors {attacked.errors or 0}, peak RSS "
          f"{attack_rss.peak:.0f} MiB, server CPU {attack_cpu:.0%}, {attack_lag}")
    p99_ok = attacked.p99_ms <= P99_FACTOR * max(quiet.p99_ms, 1.0)
    rss_ok = attack_rss.peak - quiet_rss.peak <= RSS_MB
    games_ok = attacked.settled > 0 and not attacked.errors and quiet.ok and attacked.ok
    print(f"target: p99 ≤ {P99_FACTOR:g}× quiet ({attacked.p99_ms:.1f} vs "
          f"{quiet.p99_ms:.1f} ms): {'PASS' if p99_ok else 'FAIL'}; peak RSS ≤ quiet + "
          f"{RSS_MB:g} MB ({attack_rss.peak - quiet_rss.peak:+.0f} MiB): "
          f"{'PASS' if rss_ok else 'FAIL'}; players' games and beans: "
          f"{'PASS' if games_ok else 'FAIL ' + '; '.join(attacked.problems[:3])}")
    return 0 if p99_ok and rss_ok and games_ok else 1


class _Reader:
    """The attacker's latest counts, read from its stdout on a thread."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.last: dict[str, object] = {}
        self._proc = proc
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            self.last = json.loads(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--idle", type=int, default=5000)
    parser.add_argument("--slow", type=int, default=200)
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    parser.add_argument("--ramp", type=float, default=5.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--warmup", type=float, default=40.0,
                        help="seconds the attack runs before the players start")
    parser.add_argument("--single", type=int, default=100,
                        help="idle WebSockets tried from one address alone")
    parser.add_argument("--no-pin", dest="pin", action="store_false",
                        help="do not pin the hall to its own CPU")
    parser.add_argument("--attacker-nice", type=int, default=19,
                        help="the attacker's niceness (19: it runs on what the players' "
                        "client leaves of their CPU)")
    parser.add_argument("--hall-nice", type=int, default=0,
                        help="the hall's and the players' client's niceness (below 0 needs "
                        "root: on a machine busy with other work, e.g. --hall-nice -10 "
                        "--attacker-nice -5)")
    parser.add_argument("--realtime", action="store_true",
                        help="the hall and the players' client under SCHED_RR (root), the "
                        "attacker under the ordinary policy at --attacker-nice: for a "
                        "machine so busy that nice alone does not keep its work out")
    parser.add_argument("--db-dir", help="where the hall's SQLite file goes (default: the "
                        "system's temporary directory); /dev/shm keeps a disk shared with "
                        "other work out of both runs' figures")
    parser.add_argument("--accepts", type=int, default=None,
                        help="the hall's [limits] accepts_per_second (default: its own)")
    parser.add_argument("--control", action="store_true",
                        help="aim the attacker at a decoy beside it instead of the hall: "
                        "what the players lose to the attack's cost on their own side of "
                        "the machine, which a remote attacker would not cost them")
    parser.add_argument("--attacker-realtime", action="store_true",
                        help="with --realtime: the attacker under SCHED_RR too, below the "
                        "hall and the players' client (priority 1 against their 2), so that "
                        "other work on the machine cannot weaken the attack either")
    parser.add_argument("--profile", metavar="OUT", help="run the hall under cProfile "
                        "(benchmarks/profiled.py): OUT.quiet.prof and OUT.attacked.prof, "
                        "their top entries printed; the latencies are then not the "
                        "bench's figures")
    args = parser.parse_args()
    raise SystemExit(run(args))


if __name__ == "__main__":
    main()
