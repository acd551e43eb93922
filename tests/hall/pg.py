"""A throwaway PostgreSQL server for the tests: its own cluster, port and directory.

initdb refuses to run as root, so as root the cluster is made and run as the
``postgres`` user (which the Debian package creates) in a directory that user owns.
Durability is switched off (fsync, synchronous_commit): the cluster dies with the
test run. Only the server started here is stopped, by its data directory.
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from tests import lanes

INSTALL_HINT = "run scripts/services.sh (as root it installs Debian's postgresql)"


class PostgresUnavailable(RuntimeError):
    """PostgreSQL cannot be started here; the message says why and what to do."""


def pg_bindir() -> Path:
    """The newest installed PostgreSQL's bin directory (Debian keeps it off PATH)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                   key=lambda p: [int(x) for x in re.findall(r"\d+", p.parent.parent.name)])
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).resolve().parent
    raise PostgresUnavailable(f"PostgreSQL is not installed: no initdb found; {INSTALL_HINT}")


#: The file in a cluster's directory naming the test process that started it.
OWNER = "owner.pid"


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped by init, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(") ", 1)[1][0] != "Z"


def stop_orphans(exclude: Path | None = None) -> list[Path]:
    """Stop the clusters of test runs that died without stopping theirs (a watchdog's exit,
    a SIGKILL, a timeout): a postmaster outlives its parent and would run for ever."""
    stopped = []
    for base in Path(tempfile.gettempdir()).glob("cardhall-pg-*"):
        owner = base / OWNER
        if base == exclude or not owner.exists() or not owner.read_text().strip().isdigit():
            continue
        if _alive(int(owner.read_text())):
            continue
        pid_file = base / "data" / "postmaster.pid"
        if pid_file.exists():
            subprocess.run([str(pg_bindir() / "pg_ctl"), "-D", str(base / "data"), "-m",
                            "immediate", "-w", "-t", "30", "stop"], capture_output=True,
                           timeout=60, check=False, **_postgres_user())
        shutil.rmtree(base, ignore_errors=True)
        stopped.append(base)
    return stopped


def _postgres_user() -> dict[str, Any]:
    """As root, run as the ``postgres`` user (initdb and pg_ctl refuse root)."""
    if os.geteuid() != 0:
        return {}
    pw = pwd.getpwnam("postgres")
    return {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": []}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """``start()`` a private cluster, ``url`` to reach it, ``stop()`` it and its files."""

    def __init__(self) -> None:
        self.bindir = pg_bindir()
        self.base = Path(tempfile.mkdtemp(prefix="cardhall-pg-"))
        self.data = self.base / "data"
        self.port = _free_port()
        self.pid: int | None = None
        self._as: dict[str, Any] = {}
        if os.geteuid() == 0:
            try:
                pw = pwd.getpwnam("postgres")
            except KeyError:
                raise PostgresUnavailable(f"running as root but there is no postgres user; "
                                          f"{INSTALL_HINT}") from None
            os.chown(self.base, pw.pw_uid, pw.pw_gid)
            self._as = {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": [],
                        "env": {"PATH": os.environ.get("PATH", ""), "HOME": str(self.base),
                                "LC_ALL": "C.UTF-8"}}

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        proc = subprocess.run([str(self.bindir / args[0]), *args[1:]], cwd=self.base,
                              capture_output=True, text=True, timeout=120, check=False,
                              **self._as)
        if proc.returncode != 0:
            log = self.base / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise PostgresUnavailable(f"{args[0]} failed ({proc.returncode}): "
                                      f"{proc.stderr.strip() or proc.stdout.strip()}\n{tail}")

    def start(self) -> None:
        lanes.needs("PostgreSQL")
        stop_orphans(exclude=self.base)
        (self.base / OWNER).write_text(str(os.getpid()))
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
                  "-E", "UTF8", "--no-sync", "--no-instructions")
        opts = (f"-p {self.port} -k {self.base} -c listen_addresses=127.0.0.1 "
                "-c fsync=off -c synchronous_commit=off -c full_page_writes=off")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.base / "server.log"),
                  "-o", opts, "-w", "-t", "60", "start")
        self.pid = int((self.data / "postmaster.pid").read_text().split()[0])

    def stop(self) -> None:
        try:
            if self.pid is not None:
                self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60",
                          "stop")
                self.pid = None
        finally:
            shutil.rmtree(self.base, ignore_errors=True)
