"""Post-game analysis in a hall that is serving players: a three-player game analysed,
every seat, against issue 21's budget (under 60 s on this two-core machine).

One ``cardhall serve`` (a temporary SQLite file) with two ``ddz3`` rooms: ``load``, of
people only, and ``bots``, bots filling at once. The load is ``cardhall loadtest`` in a
process of its own: ``--clients`` guests (default 60, 20 tables) playing ``ddz3`` in the
``load`` room among themselves, each acting ``--think`` seconds (default 1.0) after his
turn comes, for the whole run. Before the load starts, a guest plays in the ``bots``
room, his seat played by the planning bot, until a game has at least 40 actions (a full
game, not one won in a few plays; at most five games, else the longest): that game is
analysed. Once
the load has ramped up, each of its three seats is asked for in turn (``POST
/api/games/{id}/analysis?seat=S``, then polled every half second until done), so the
hall's analysis worker (one process, docs/protocol.md) does the whole game while the
hall serves the load. Printed: each seat's decisions and seconds, the game's total, the
event loop's lateness over the analysis (the hall's own ``cardhall_loop_lag_seconds``,
one look every 0.25 s) and the load test's action latency and rate.

    .venv/bin/python benchmarks/analysis_bench.py
    .venv/bin/python benchmarks/analysis_bench.py --clients 90 --think 0.5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from hall_load import METRICS_TOKEN, Buckets, buckets, launch, quantile, stop

from cardhall import bots
from cardhall.client import HallClient

#: The budget of issue 21 for a three-player game.
BUDGET_SECONDS = 60.0
#: Seconds the load runs before the analysis starts (its ramp, and a settled rate).
WARM_SECONDS = 10.0
#: The game analysed: the first with this many actions (a full game), of at most GAMES.
PLIES, GAMES = 40, 5


def config(token: Path) -> str:
    rooms = "".join(
        f'[[rooms]]\nid = "{room}"\nname = "{room}"\nvariant = "ddz3"\nN = 10\nA = 5\n'
        f"min_beans = 0\nturn_seconds = 60\n{extra}\n"
        for room, extra in (("load", ""), ("bots", "bot_wait_seconds = 0\n")))
    return (rooms + "[economy]\nstarting_beans = 10000\n\n"
            "[limits]\nguests_per_minute = 100000\nlogins_per_minute = 100000\n"
            "messages_per_second = 200\nreplays_per_minute = 1000000\n"
            "connections_per_address = 100000\nconnects_per_minute = 1000000\n"
            'trusted_proxies = ["127.0.0.1"]\n\n'
            f"[metrics]\ntoken_file = {json.dumps(str(token))}\n")


async def finished_game(url: str, seed: int) -> tuple[str, int]:
    """A full game against bots, the guest's seat played by the planning bot, so that
    the game is as long as a real one: the first of at most ``GAMES`` with at least
    ``PLIES`` actions (else the longest). Its id and its number of actions."""
    played: list[tuple[int, str]] = []
    async with HallClient(url, timeout=30) as c:
        await c.guest()
        await c.connect()
        await c.join("bots")
        for n in range(GAMES):
            bot = bots.make("planning", "ddz3", 0, seed + n)
            while True:
                msg = await c.recv(30)
                if msg.get("type") == "settled":
                    break
                if msg.get("type") != "state":
                    continue
                view, seat = msg["view"], msg["seat"]
                if view is not None and seat in view["acting"]:
                    bot.seat = seat
                    await c.act(msg["table"], bot.act(view), msg["seq"])
            stored = await c.get(f"/api/games/{msg['game']}")
            played.append((len(stored["record"]["actions"]), str(msg["game"])))
            if played[-1][0] >= PLIES:
                break
            await c.send({"type": "next", "table": msg["table"]})
    plies, game = max(played)
    return game, plies


def scrape(url: str) -> Buckets:
    """The hall's histograms so far (``hall_load.STAGES``: the loop's lateness, each
    action's time from its arrival to its last message out)."""
    ask = urllib.request.Request(f"{url}/metrics",
                                 headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
    with urllib.request.urlopen(ask, timeout=30) as answer:
        return buckets(answer.read().decode())


def window(before: Buckets, after: Buckets, metric: str) -> dict[float, float]:
    """One histogram over the window between two scrapes: bound → count."""
    return {le: n - before.get((m, lab, le), 0) for (m, lab, le), n in after.items()
            if m == metric and lab == ""}


async def analyse(url: str, game: str, seat: int) -> tuple[float, int]:
    """Ask for one seat's analysis and wait for it: (seconds, decisions judged)."""
    path = f"/api/games/{game}/analysis"
    started = time.monotonic()
    async with HallClient(url, timeout=30) as c:
        answer = await c.request("POST", path, params={"seat": str(seat)})
        while answer["status"] != "done":
            await asyncio.sleep(0.5)
            answer = await c.get(path, seat=str(seat))
    return time.monotonic() - started, len(answer["analysis"]["decisions"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=60)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="analysis-bench-") as tmp_name:
        tmp = Path(tmp_name)
        token = tmp / "metrics.token"
        token.write_text(METRICS_TOKEN)
        url, server = launch(tmp, config(token), f"sqlite:///{tmp / 'hall.db'}")
        load = None
        try:
            game, plies = asyncio.run(finished_game(url, args.seed))
            duration = WARM_SECONDS + 3 * BUDGET_SECONDS
            load = subprocess.Popen(
                [sys.executable, "-m", "cardhall", "loadtest", "--url", url, "--clients",
                 str(args.clients), "--think", str(args.think), "--duration", str(duration),
                 "--room", "load", "--metrics-token-file", str(token)],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(WARM_SECONDS)
            before, load_before = scrape(url), os.getloadavg()[0]
            seats = [asyncio.run(analyse(url, game, s)) for s in range(3)]
            after, load_after = scrape(url), os.getloadavg()[0]
        finally:
            if load is not None:
                load.terminate()  # the figures are the hall's own, over the analysis
                try:
                    load.wait(20)
                except subprocess.TimeoutExpired:
                    load.kill()
                    load.wait(5)
            stop(server)
    total = sum(s for s, _ in seats)
    print(f"game {game} ({plies} actions): {args.clients} clients playing ddz3 "
          f"(think {args.think} s), load average {load_before:.2f} → {load_after:.2f}")
    for seat, (seconds, decisions) in enumerate(seats):
        print(f"  seat {seat}: {decisions:2d} decisions in {seconds:5.1f} s")
    print(f"  the whole game: {total:.1f} s (budget {BUDGET_SECONDS:.0f} s: "
          f"{'met' if total < BUDGET_SECONDS else 'MISSED'})")
    inf = float("inf")
    ticks = window(before, after, "cardhall_loop_lag_seconds")
    for bound in (0.01, 0.025, 0.05, 0.1, 0.25):
        print(f"  loop ticks later than {bound} s: {ticks[inf] - ticks[bound]:.0f} "
              f"of {ticks[inf]:.0f}")
    acts = window(before, after, "cardhall_action_seconds")
    counts = {("a", "", le): n for le, n in acts.items()}
    p50, p99 = quantile(counts, "a", "", 0.5), quantile(counts, "a", "", 0.99)
    print(f"  the load's actions over the analysis: {acts[inf]:.0f} "
          f"({acts[inf] / total:.1f}/s), p50 ≤ {p50} s, p99 ≤ {p99} s (arrival to last "
          "message out, the hall's own histogram)")


if __name__ == "__main__":
    main()
