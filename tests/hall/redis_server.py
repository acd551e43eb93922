"""A throwaway Redis server for the tests: its own port and directory, persistence off.

Debian's ``redis-server`` (scripts/services.sh installs it) runs in the foreground
on a private loopback port; only the process started here is stopped, by its pid.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from tests import lanes

INSTALL_HINT = "run scripts/services.sh (as root it installs Debian's redis-server)"


class RedisUnavailable(RuntimeError):
    """Redis cannot be started here; the message says why and what to do."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisServer:
    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RedisUnavailable(f"redis-server is not installed; {INSTALL_HINT}")
        self.binary = binary
        self.base = Path(tempfile.mkdtemp(prefix="cardhall-redis-"))
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        lanes.needs("redis-server")
        with (self.base / "redis.log").open("wb") as log:
            self.proc = subprocess.Popen(
                [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", str(self.base), "--daemonize", "no"],
                stdout=log, stderr=subprocess.STDOUT)
        end = time.monotonic() + 20
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                break
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.02)  # not listening yet: there is no event to wait for
        self.stop()
        raise RedisUnavailable(f"redis-server did not start:\n"
                               f"{(self.base / 'redis.log').read_text()[-2000:]}")

    def flush(self) -> None:
        """Empty it between tests (every key: leases, queues, presence)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as s:
            s.sendall(b"FLUSHALL\r\n")
            assert s.recv(16).startswith(b"+OK")

    def stop(self) -> None:
        if self.proc is not None:
            terminate(self.proc)
        shutil.rmtree(self.base, ignore_errors=True)


def terminate(proc: subprocess.Popen[Any]) -> None:
    """Stop a process this test run started: SIGTERM, then SIGKILL if it lingers."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
