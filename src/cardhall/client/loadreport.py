"""What a load test found: its figures, the bean check, and the ``cardhall loadtest`` command.

The check uses the public API only (what any client may ask), never the database:

- beans conserved: the sum of every client's balance change (``/api/me`` at the end
  minus the guest's starting beans) equals the sum of the stored games' bean changes
  (``/api/games/{id}``) over every game a client was told settled or its
  ``/api/history`` lists, and each game's stored changes are what its ``settled``
  message said (so, with no reconnects, the messages' sum is the same figure);
- settled exactly once: every game a client saw settle is stored as settled (or
  dissolved when unscored), no client was told twice, and every client's
  ``/api/history`` lists each of its scored games once; a listed game the client was
  never told of is a problem unless the client reconnected (it may have settled while
  the client was away);
- no client was left unfinished (a game still running would settle after the check).

Given the halls' metrics token (``--metrics-token-file``), the actions and settlements
they counted over the run are reported beside the clients' own counts (equal when
nothing else plays there).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
from collections import Counter
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import httpx

from cardhall.client.loadtest import (
    TIMEOUT,
    LoadError,
    Plan,
    Tally,
    gather_limited,
    percentile,
    run,
)

UNSCORED = ("unscored", "dissolved")
ACTIONS_METRIC = "cardhall_action_seconds_count"
SETTLED_METRIC = "cardhall_settlements_total"
#: The most games /api/history lists.
HISTORY_LIMIT = 200


@dataclass
class Report:
    clients: int
    workers: int
    think: float
    duration: float
    actions: int  # acknowledged in the measured window
    actions_per_s: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    acked: int  # acknowledged over the whole run
    settled: int
    errors: dict[str, int]
    drain_errors: dict[str, int]
    reconnects: int
    unfinished: int
    beans: dict[str, int]
    problems: list[str] = field(default_factory=list)  # every failed check, in words
    server_actions: int | None = None  # counted by the servers' /metrics over the run
    server_settled: int | None = None
    client_cpu: float = 0.0  # share of one core the load generator used in the window
    load: str = ""
    p99_by_second: list[float] = field(default_factory=list)  # ms, per second of the window
    window_start: float = 0.0  # time.time() when the window began
    #: From a ``next`` sent in the window to the next game's deal: p50, p99 (ms), count.
    deal_p50_ms: float = 0.0
    deal_p99_ms: float = 0.0
    deals: int = 0

    @property
    def ok(self) -> bool:
        return not self.errors and not self.drain_errors and not self.problems

    def text(self) -> str:
        errs = ", ".join(f"{k} {v}" for k, v in sorted(self.errors.items())) or "0"
        lines = [
            f"clients {self.clients} ({self.workers} process"
            f"{'es' if self.workers > 1 else ''}), think {self.think} s, "
            f"measured {self.duration} s, load avg {self.load}",
            f"actions/s {self.actions_per_s:.1f} ({self.actions} in the window, "
            f"{self.acked} in all"
            + ("" if self.server_actions is None else f"; servers counted {self.server_actions}")
            + ")",
            f"latency action→state p50 {self.p50_ms:.1f} ms, p99 {self.p99_ms:.1f} ms, "
            f"max {self.max_ms:.1f} ms",
            f"next→deal p50 {self.deal_p50_ms:.0f} ms, p99 {self.deal_p99_ms:.0f} ms "
            f"({self.deals} deals)",
            f"games settled {self.settled}"
            + ("" if self.server_settled is None else f" (servers counted {self.server_settled})"),
            f"errors {errs}; reconnects {self.reconnects}; load generator CPU "
            f"{self.client_cpu:.0%}",
            f"beans: balances changed {self.beans['balances_changed']:+}, settlements said "
            f"{self.beans['settled_said']:+}, stored games say {self.beans['stored_said']:+} "
            f"(fees {self.beans['fees']}; {self.beans['missed']} settled while away): "
            + ("conserved, every game settled once" if not self.problems else "CHECK FAILED"),
        ]
        if self.drain_errors:
            lines.append(f"errors while finishing: {self.drain_errors}")
        lines += [f"  {p}" for p in self.problems[:20]]
        return "\n".join(lines)


async def find_room(urls: tuple[str, ...], variant: str, room: str | None
                    ) -> tuple[str, int, int]:
    """The room to play in (the first of ``variant`` with no bots unless named), its fee
    and the beans it asks to sit down; every server must have it."""
    chosen: tuple[str, int, int] | None = None
    for url in urls:
        async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT) as http:
            try:
                rooms = (await http.get("/api/rooms")).raise_for_status().json()
            except httpx.HTTPError as exc:
                raise LoadError(f"{url} does not answer /api/rooms: {exc}") from None
        humans = [r for r in rooms if r["bot_wait_seconds"] is None]
        pick = next((r for r in humans if r["id"] == room) if room else
                    (r for r in humans if r["variant"] == variant), None)
        if pick is None:
            what = f"room {room!r}" if room else f"room of {variant}"
            raise LoadError(f"{url} has no {what} without bots (its rooms: "
                            f"{', '.join(r['id'] for r in rooms)})")
        if chosen is not None and chosen[0] != pick["id"]:
            raise LoadError(f"the servers differ: {chosen[0]!r} vs {pick['id']!r} at {url}")
        chosen = (str(pick["id"]), int(pick["A"]), int(pick["min_beans"]))
    assert chosen is not None
    return chosen


async def server_counts(urls: tuple[str, ...], token: str | None = None
                        ) -> tuple[int, int] | None:
    """Actions and settlements every server counted so far (/metrics, read with the
    metrics ``token``), or None."""
    if token is None:
        return None
    actions = settled = 0
    for url in dict.fromkeys(urls):  # a server named twice is counted once
        async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT) as http:
            answer = await http.get("/metrics", headers={"authorization": f"Bearer {token}"})
        if not answer.is_success:
            return None
        found = {m[0]: float(m[1]) for m in re.findall(r"^(\w+) ([0-9.e+]+)$", answer.text,
                                                        re.MULTILINE)}
        if ACTIONS_METRIC not in found or SETTLED_METRIC not in found:
            return None
        actions += int(found[ACTIONS_METRIC])
        settled += int(found[SETTLED_METRIC])
    return actions, settled


async def check(plan: Plan, tally: Tally, fee: int) -> tuple[dict[str, int], list[str]]:
    """The bean and settled-once checks (module docstring): the sums and every problem."""
    histories, problems = await _histories(tally)
    missed = {g for p, listed in histories.items() for g in listed
              if (p, g) not in tally.seen}  # settled while its player was reconnecting
    if missed and not tally.reconnects:
        problems.append(f"{len(missed)} games in /api/history were never told settled, "
                        f"e.g. {sorted(missed)[0]}")
    problems += [f"player {p} was told {n} times that game {g} settled"
                 for (p, g), n in tally.seen.items() if n > 1]
    ids = sorted(set(tally.games) | missed)
    async with httpx.AsyncClient(base_url=plan.urls[0], timeout=TIMEOUT) as http:
        answers = await gather_limited([partial(http.get, f"/api/games/{g}") for g in ids])
    stored: dict[str, dict[str, int]] = {}
    for game, answer in zip(ids, answers, strict=True):
        if not answer.is_success:
            problems.append(f"game {game}: /api/games answered {answer.status_code}")
            continue
        data = answer.json()
        stored[game] = data["beans"] or {}
        msg = tally.games.get(game)
        if msg is None:
            continue
        want = "dissolved" if msg["result"]["ended"] in UNSCORED else "settled"
        if data["status"] != want:
            problems.append(f"game {game}: stored as {data['status']}, told {want}")
        if sorted(stored[game].values()) != sorted(msg["beans"].values()):
            problems.append(f"game {game}: stored beans {stored[game]}, told {msg['beans']}")
    changed = sum(a.end - a.start for a in tally.players.values())
    told = sum(sum(g["beans"].values()) for g in tally.games.values())
    stored_said = sum(sum(b.values()) for b in stored.values())
    if changed != stored_said:
        problems.append(f"beans not conserved: balances changed {changed}, the stored games "
                        f"say {stored_said} (the settlements told {told})")
    unfinished = plan.clients - tally.finished
    if unfinished:
        problems.append(f"{unfinished} clients did not finish (a game still running)")
    fees = sum(fee * len(g["beans"]) for g in tally.games.values()
               if g["result"]["ended"] not in UNSCORED)
    return {"balances_changed": changed, "settled_said": told, "stored_said": stored_said,
            "fees": fees, "missed": len(missed)}, problems


async def _histories(tally: Tally) -> tuple[dict[str, Counter[str]], list[str]]:
    """Each client's scored games in /api/history, and where they disagree with what the
    client was told: a game listed twice, or told settled (scored) and not listed. The
    history holds the latest ``HISTORY_LIMIT`` games: for a client with more, only the
    latest half of those it was told of must be listed (its history is full)."""
    by_url: dict[str, list[str]] = {}
    for player, account in tally.players.items():
        by_url.setdefault(account.url, []).append(player)
    histories: dict[str, Counter[str]] = {}
    full: set[str] = set()
    for url, players in by_url.items():
        async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT) as http:
            answers = await gather_limited([
                partial(http.get, "/api/history", params={"limit": str(HISTORY_LIMIT)},
                        headers={"Authorization": f"Bearer {tally.players[p].token}"})
                for p in players])
        for player, answer in zip(players, answers, strict=True):
            rows = answer.json()
            if len(rows) >= HISTORY_LIMIT:
                full.add(player)
            histories[player] = Counter(str(row["game"]) for row in rows
                                        if row["status"] != "dissolved")
    problems = [f"player {p}: /api/history lists game {g} {n} times"
                for p, listed in histories.items() for g, n in listed.items() if n > 1]
    told: dict[str, list[str]] = {}  # player → scored games it was told of, in order
    for p, g in tally.seen:
        if tally.games[g]["result"]["ended"] not in UNSCORED:
            told.setdefault(p, []).append(g)
    for p, games in told.items():
        must = games[-HISTORY_LIMIT // 2:] if p in full else games
        problems += [f"player {p}: told game {g} settled, /api/history does not list it"
                     for g in must if g not in histories.get(p, ())]
    return histories, problems


def uptime() -> str:
    """The load averages (1, 5, 15 min), as ``uptime`` shows them."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


async def _measure(plan: Plan, fee: int, before: tuple[int, int] | None, tally: Tally
                   ) -> Report:
    after = (await server_counts(plan.urls, plan.metrics_token) if before is not None
             else None)
    beans, problems = await check(plan, tally, fee)
    lat = sorted(tally.latencies)
    deals = sorted(tally.deals)
    return Report(
        clients=plan.clients, workers=plan.workers, think=plan.think, duration=plan.duration,
        actions=len(lat), actions_per_s=len(lat) / plan.duration,
        p50_ms=percentile(lat, 50) * 1000, p99_ms=percentile(lat, 99) * 1000,
        max_ms=lat[-1] * 1000 if lat else 0.0, acked=tally.acked, settled=len(tally.games),
        errors=dict(tally.errors), drain_errors=dict(tally.drain_errors),
        reconnects=tally.reconnects, unfinished=plan.clients - tally.finished, beans=beans,
        problems=problems,
        server_actions=None if after is None or before is None else after[0] - before[0],
        server_settled=None if after is None or before is None else after[1] - before[1],
        client_cpu=tally.client_cpu / plan.duration, load=uptime(),
        p99_by_second=per_second_p99(tally, plan.duration), window_start=tally.window_start,
        deal_p50_ms=percentile(deals, 50) * 1000, deal_p99_ms=percentile(deals, 99) * 1000,
        deals=len(deals))


def per_second_p99(tally: Tally, duration: float) -> list[float]:
    """p99 (ms) of the actions sent in each second of the window (0 where none were)."""
    seconds: list[list[float]] = [[] for _ in range(max(1, int(duration + 0.999)))]
    for at, latency in zip(tally.sent, tally.latencies, strict=True):
        seconds[min(len(seconds) - 1, max(0, int(at)))].append(latency)
    return [percentile(sorted(x), 99) * 1000 if x else 0.0 for x in seconds]


def load_test(plan: Plan, variant: str, room: str | None, out: Any = sys.stderr) -> Report:
    """Find the room, run the clients, check the beans: the whole ``cardhall loadtest``."""
    room_id, fee, min_beans = asyncio.run(find_room(plan.urls, variant, room))
    plan = Plan(**{**asdict(plan), "room": room_id, "min_beans": min_beans})
    before = asyncio.run(server_counts(plan.urls, plan.metrics_token))
    tally = run(plan, out)
    return asyncio.run(_measure(plan, fee, before, tally))


def command(args: argparse.Namespace) -> int:
    """``cardhall loadtest``: exit status 1 on any error or failed check."""
    if args.clients < 1 or args.duration <= 0 or args.think < 0 or args.ramp < 0 \
            or args.workers < 1:
        raise SystemExit("cardhall: --clients, --workers ≥ 1; --duration > 0; "
                         "--think, --ramp ≥ 0")
    token = None
    if args.metrics_token_file is not None:
        try:
            token = Path(args.metrics_token_file).read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise SystemExit(f"cardhall: cannot read {args.metrics_token_file}: "
                             f"{exc.strerror}") from None
    plan = Plan(urls=tuple(u.rstrip("/") for u in args.url), room="", clients=args.clients,
                duration=args.duration, think=args.think, ramp=args.ramp,
                workers=min(args.workers, args.clients), metrics_token=token,
                deltas=args.deltas)
    print(f"loadtest: {plan.clients} clients over {', '.join(plan.urls)}, think {plan.think} s, "
          f"{plan.ramp} s ramp, {plan.duration} s measured; {os.cpu_count()} cores, "
          f"load avg {uptime()}", file=sys.stderr, flush=True)
    try:
        report = load_test(plan, args.variant, args.room)
    except LoadError as exc:
        raise SystemExit(f"cardhall: {exc}") from None
    if args.json:
        print(json.dumps({**asdict(report), "ok": report.ok}, ensure_ascii=False))
    else:
        print(report.text())
    return 0 if report.ok else 1
