"""A test run that dies without stopping its PostgreSQL cluster does not leave it running:
the next run's start stops it (a postmaster outlives the process that started it)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.hall.pg import OWNER, PostgresServer, _alive, stop_orphans


@pytest.mark.services  # starts its own PostgreSQL servers
def test_a_dead_runs_cluster_is_stopped_and_a_live_runs_kept() -> None:
    orphan, live = PostgresServer(), PostgresServer()
    orphan.start()
    live.start()
    try:
        assert orphan.pid is not None and _alive(orphan.pid)
        dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)
        (orphan.base / OWNER).write_text(dead.stdout.strip())  # its test run is gone
        stopped = stop_orphans()
        assert stopped == [orphan.base]
        assert not _alive(orphan.pid) and not orphan.base.exists()
        assert live.pid is not None and _alive(live.pid) and live.base.exists()
    finally:
        orphan.pid = None  # stopped already
        orphan.stop()
        live.stop()
