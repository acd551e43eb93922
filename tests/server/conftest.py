"""Real hall processes for the server tests: ``cardhall serve`` on a free loopback port.

Each server gets a temporary SQLite file and a config TOML with fast rooms for
every variant: ``<v>-humans`` (no bots: the test's clients fill the table),
``<v>-bots`` (bots fill at once) and ``<v>-timeout`` (1.5 s per play). The
server prints its URL once it listens (``--port 0``), so nothing waits by
sleeping. Only the process a fixture started is stopped, by its pid.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cardhall.games import VARIANTS
from tests import lanes
from tests.hall.redis_server import terminate

ADMIN_NAME, ADMIN_PASSWORD = "Warden", "correct horse"
CARDHALL = [sys.executable, "-m", "cardhall"]


#: ``[limits]`` given to every test hall unless its test sets them.
EDGE_ROOM = {"connections_per_address": 100_000, "connects_per_minute": 1_000_000}

#: ``ddz3-paced``: bots answer after this long at the least (Room.bot_seconds).
PACE = 0.4


def rooms_toml() -> str:
    out = []
    for v in VARIANTS:
        for kind, extra in (("humans", "turn_seconds = 30\n"),
                            ("bots", "turn_seconds = 30\nbot_wait_seconds = 0\n"),
                            ("timeout", "turn_seconds = 1.5\n")):
            out.append(f'[[rooms]]\nid = "{v}-{kind}"\nname = "{v} {kind}场"\n'
                       f'name_en = "{v} {kind} room"\nvariant = "{v}"\n'
                       f'N = 10\nA = 5\nmin_beans = 0\n{extra}')
    out.append('[[rooms]]\nid = "ddz3-paced"\nname = "ddz3 paced"\nvariant = "ddz3"\n'
               'N = 10\nA = 5\nmin_beans = 0\nturn_seconds = 30\nbot_wait_seconds = 0\n'
               f'bot_seconds = {PACE}\n')
    return "\n".join(out)


def dealt_room(room: str, variant: str, options: dict[str, Any]) -> str:
    """TOML for a room whose every game starts as ``options`` say (a given ``deal``,
    the landlord, the wild rank: docs/contract.md), bots filling at once: the hall's
    own way to script a deal for a test."""
    return (f'[[rooms]]\nid = "{room}"\nname = "{room}"\nvariant = "{variant}"\n'
            f"options = {_toml(options)}\nN = 10\nA = 5\nmin_beans = 0\n"
            "turn_seconds = 60\nbot_wait_seconds = 0\n")


def _toml(value: Any) -> str:
    """An inline TOML value: tables from dicts, the rest as JSON spells it (the same)."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    return json.dumps(value)


#: Every test hall's metrics token (``[metrics] token_file``): /metrics answers only it.
METRICS_TOKEN = "test-metrics-token-0123456789"


@dataclass
class HallProcess:
    url: str
    db_url: str
    proc: subprocess.Popen[str]
    log: Path

    @property
    def metrics_headers(self) -> dict[str, str]:
        """What a request for ``/metrics`` sends to be answered."""
        return {"authorization": f"Bearer {METRICS_TOKEN}"}

    @property
    def metrics_token_file(self) -> Path:
        """The file the hall read its metrics token from (``cardhall loadtest`` reads it)."""
        return self.log.parent / "metrics.token"

    def kill(self) -> None:
        """SIGKILL: the process dies at once, mid-whatever it was doing."""
        self.proc.kill()
        self.proc.wait(10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()

    def stop(self) -> None:
        terminate(self.proc)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def start_hall(tmp: Path, limits: str = "", grace: float = 60.0,
               db_url: str | None = None, redis_url: str | None = None,
               lease: float = 2.0, rooms: str = "", port: int = 0,
               extra: str = "", admin: bool = True, metrics: bool = True,
               files: int | None = None, only_rooms: bool = False) -> HallProcess:
    """A ``cardhall serve`` on its own port (``port``, or a free one); with ``redis_url``,
    one of several processes of one hall (each with its own ``tmp``), its leases lasting
    ``lease`` seconds. ``extra``: more TOML for the config (e.g. ``[economy.relief]``).
    ``metrics``: /metrics answers ``METRICS_TOKEN`` (else nobody); ``files``: the
    process's open-file limit (soft and hard). ``only_rooms``: ``rooms`` are the hall's
    only rooms (the shared test rooms left out, their names made of variant ids)."""
    lanes.needs("cardhall serve")
    tmp.mkdir(parents=True, exist_ok=True)
    config = tmp / "hall.toml"
    token = tmp / "metrics.token"
    token.write_text(METRICS_TOKEN + "\n")
    limits = limits or (
        "guests_per_minute = 1000\nlogins_per_minute = 1000\nmessages_per_second = 200\n"
        "replays_per_minute = 100000\n")
    # The tests' clients all come from 127.0.0.1: the edge's caps per address are lifted
    # unless a test sets them (tests/server/test_edge.py does).
    for key, value in EDGE_ROOM.items():
        if key not in limits:
            limits += f"{key} = {value}\n"
    config.write_text(("" if only_rooms else rooms_toml()) + rooms + "\n[limits]\n" + limits
                      + (f"\n[metrics]\ntoken_file = {json.dumps(str(token))}\n" if metrics
                         else "\n")
                      + extra)
    db_url = db_url or f"sqlite:///{tmp / 'hall.db'}"
    if admin:  # False: the database has its admin (and may be locked for writing)
        subprocess.run([*CARDHALL, "admin", "create", ADMIN_NAME, "--db", db_url],
                       input=ADMIN_PASSWORD + "\n", check=True, capture_output=True,
                       text=True, timeout=60)
    log = tmp / "serve.log"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    cluster = ["--redis", redis_url, "--lease", str(lease)] if redis_url else []
    with log.open("w") as err:
        proc = subprocess.Popen(
            [*(CARDHALL if files is None else _limited(files)), "serve", "--port", str(port),
             "--db", db_url, "--config", str(config), "--grace", str(grace), *cluster],
            stdout=subprocess.PIPE, stderr=err, text=True, env=env)
    assert proc.stdout is not None
    end = time.monotonic() + 60
    while time.monotonic() < end:
        ready, _, _ = select.select([proc.stdout], [], [], end - time.monotonic())
        line = proc.stdout.readline() if ready else ""
        if "the hall is open at " in line:
            url = line.strip().rsplit(" ", 1)[1].rstrip("/")
            return HallProcess(url, db_url, proc, log)
        if proc.poll() is not None:
            break
    proc.kill()
    raise RuntimeError(f"cardhall serve did not start:\n{log.read_text()[-3000:]}")


def _limited(files: int) -> list[str]:
    """``cardhall`` run with at most ``files`` open files (soft and hard limits)."""
    return [sys.executable, "-c",
            "import os, resource, sys; "
            f"resource.setrlimit(resource.RLIMIT_NOFILE, ({files}, {files})); "
            "os.execv(sys.executable, [sys.executable, '-m', 'cardhall', *sys.argv[1:]])"]


def running_hall(tmp: Path, **settings: Any) -> Iterator[HallProcess]:
    """A fixture's hall: ``start_hall(tmp, **settings)``, stopped when the fixture ends
    (``yield from running_hall(...)``)."""
    server = start_hall(tmp, **settings)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    yield from running_hall(tmp_path_factory.mktemp("hall"))
