"""Prometheus metrics of one server process (``GET /metrics``).

Each app has its own registry, so two apps in one process (tests) do not collide.
Gauges that describe the present (tables, connections, queue lengths) are read
from the hall when scraped rather than kept up to date on every change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

if TYPE_CHECKING:
    from cardhall.server.app import Server

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


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
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
            registry=r)
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

    def error(self, code: str) -> None:
        self.errors.labels(code).inc()

    def render(self, server: Server, waiting: dict[str, int]) -> bytes:
        """The exposition text; ``waiting`` is each room's queue (shared by every process
        when several run the hall)."""
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
        return generate_latest(self.registry)
