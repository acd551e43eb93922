"""Prometheus metrics of one server process (``GET /metrics``).

Each app has its own registry, so two apps in one process (tests) do not collide.
Gauges that describe the present (tables, connections, queue lengths) are read
from the hall when scraped rather than kept up to date on every change.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

if TYPE_CHECKING:
    from cardhall.server.app import Server

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
#: Seconds between two looks at the event loop's lateness (``watch_loop``).
LOOP_TICK = 0.25
_SHORT = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.tables = Gauge("cardhall_tables", "live tables by phase", ["phase"], registry=r)
        self.connections = Gauge("cardhall_connections", "open WebSocket connections",
                                 registry=r)
        self.players = Gauge("cardhall_players_connected", "authenticated players", registry=r)
        self.queue_waiting = Gauge("cardhall_queue_waiting", "players waiting in room queues",
                                   ["room"], registry=r)
        self.table_queue = Gauge("cardhall_table_commands_queued",
                                 "commands waiting in all tables' queues", registry=r)
        self.send_queue = Gauge("cardhall_send_queue_messages",
                                "messages waiting in all connections' send queues", registry=r)
        self.connections_total = Counter("cardhall_connections_opened",
                                         "WebSocket connections opened",
                                         registry=r)
        self.action_seconds = Histogram(
            "cardhall_action_seconds", "time to log, apply and broadcast one accepted action",
            buckets=_SHORT, registry=r)
        # Where an action's time goes (operations.md, "Where an action's time goes").
        self.action_stage_seconds = Histogram(
            "cardhall_action_stage_seconds", "an accepted player action's time by stage: "
            "queued (waiting for its table), logged (its log commit)", ["stage"],
            buckets=_SHORT, registry=r)
        self.log_batch_seconds = Histogram(
            "cardhall_log_batch_seconds", "time to write one batch of the action log "
            "(a connection from the pool, the statement, its commit)", buckets=_SHORT,
            registry=r)
        self.log_batch_rows = Histogram(
            "cardhall_log_batch_rows", "actions written in one batch of the action log",
            buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256, 512), registry=r)
        self.send_wait_seconds = Histogram(
            "cardhall_send_wait_seconds", "time a message waited in its connection's queue "
            "before it was written to the socket", buckets=_SHORT, registry=r)
        self.loop_lag_seconds = Histogram(
            "cardhall_loop_lag_seconds", f"how late the event loop ran a timer (looked at "
            f"every {LOOP_TICK} s): time nothing else could run", buckets=_SHORT, registry=r)
        self.message_seconds = Histogram(
            "cardhall_message_seconds", "time to handle one client message, by type", ["type"],
            buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0), registry=r)
        # Counted where the game's end is committed (its table's owner), once per game,
        # however many processes tell its players.
        self.settlements = Counter("cardhall_settlements", "games settled", registry=r)
        self.errors = Counter("cardhall_errors", "errors sent to clients, by code", ["code"],
                              registry=r)
        self.http_errors = Counter("cardhall_http_errors", "HTTP error answers, by code",
                                   ["code"], registry=r)
        self.replay_renders = Counter(
            "cardhall_replay_renders", "finished games rendered for /api/games (kind game) "
            "or its replay (kind replay): the cache's misses", ["kind"], registry=r)
        self.replay_cache_bytes = Gauge("cardhall_replay_cache_bytes",
                                        "rendered finished games kept in memory", registry=r)
        # The connection edge's count (cardhall.server.edge.Gate.refused), copied when
        # scraped: the gate is plain data, kept apart from the exposition.
        self.edge_refused = Counter(
            "cardhall_edge_refused", "connections refused at the edge, by limit (code) and "
            "fate (kept to be answered with its 429/503 once its head arrives, or dropped at "
            "once)", ["code", "fate"],
            registry=r)
        self._edge_seen: dict[tuple[str, str], int] = {}
        self._stages: dict[str, Histogram] = {}

    def error(self, code: str) -> None:
        self.errors.labels(code).inc()

    def action(self, stage: str, seconds: float) -> None:
        """A table's ``latency_hook``: ``total`` is ``cardhall_action_seconds``."""
        if stage == "total":
            self.action_seconds.observe(seconds)
            return
        child = self._stages.get(stage)
        if child is None:  # labels() looks the child up under a lock: once per stage
            child = self._stages[stage] = self.action_stage_seconds.labels(stage)
        child.observe(seconds)

    def log_batch(self, rows: int, seconds: float) -> None:
        """The action log's ``batch_hook``."""
        self.log_batch_rows.observe(rows)
        self.log_batch_seconds.observe(seconds)

    async def watch_loop(self) -> None:
        """Until cancelled: how much later than asked the loop wakes a sleeper. A loop
        busy with one thing (a long callback, a collection, synchronous I/O) delays every
        player's action by as much."""
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(LOOP_TICK)
            self.loop_lag_seconds.observe(max(0.0, time.perf_counter() - asked - LOOP_TICK))

    def render(self, server: Server, waiting: dict[str, int],
               refused: Mapping[tuple[str, str], int] | None = None) -> bytes:
        """The exposition text; ``waiting`` is each room's queue (shared by every process
        when several run the hall); ``refused``, the edge's refusals so far (its gate's,
        when the app runs behind one)."""
        for key, n in (refused or {}).items():
            if n > self._edge_seen.get(key, 0):
                self.edge_refused.labels(*key).inc(n - self._edge_seen.get(key, 0))
                self._edge_seen[key] = n
        phases: dict[str, int] = {"waiting": 0, "playing": 0, "between": 0, "closed": 0}
        commands = 0
        for table in server.hall.lobby.tables.values():
            phases[str(table.phase)] = phases.get(str(table.phase), 0) + 1
            commands += table.queue.qsize()
        for phase, n in phases.items():
            self.tables.labels(phase).set(n)
        for room, n in waiting.items():
            self.queue_waiting.labels(room).set(n)
        self.table_queue.set(commands)
        self.connections.set(len(server.registry.connections))
        self.players.set(len(server.registry.by_player))
        self.send_queue.set(server.registry.queued())
        self.replay_cache_bytes.set(server.finished.cache.size)
        return generate_latest(self.registry)
