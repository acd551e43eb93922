"""How long this machine's disk takes to make a small write durable, over a stretch of time.

Every action the hall accepts is committed (fsynced) before anyone hears of it, so the
slowest commits of the disk under the database are a floor under the hall's p99: when
one ``fdatasync`` takes 300 ms, every action logged in those 300 ms waits for it, on
SQLite and PostgreSQL alike. ``DiskProbe`` measures that floor beside a load run:
a thread overwrites 4 KB of a preallocated file (as a database log does: no file-size
change, so no file-system metadata to journal) and ``fdatasync``-s it every
``interval`` seconds, and reports the distribution and the stalls (syncs over 50 ms) it
met. It writes 200 small blocks a second at most, little next to the hall's own log.

    .venv/bin/python benchmarks/disk_probe.py --seconds 60 [--dir /var/lib/postgresql]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

BLOCK = 4096
BLOCKS = 256  # a 1 MB file, written round and round
#: A sync slower than this is a stall: alone it spends half the hall's 100 ms budget.
STALL_MS = 50.0


@dataclass(frozen=True)
class DiskReport:
    syncs: int
    p50_ms: float
    p99_ms: float
    max_ms: float
    stalls: int  # syncs over STALL_MS
    stalled_s: float  # their summed time

    def summary(self) -> str:
        return (f"{self.syncs} syncs, p50 {self.p50_ms:.1f} ms, p99 {self.p99_ms:.1f} ms, "
                f"max {self.max_ms:.0f} ms, {self.stalls} over {STALL_MS:.0f} ms "
                f"({self.stalled_s:.2f} s stalled)")

    def cell(self) -> str:
        """The table's column: the worst sync and the stalls."""
        return f"max {self.max_ms:.0f}, {self.stalls} > {STALL_MS:.0f}"


class DiskProbe:
    """Durable 4 KB writes on a thread until ``stop``; ``report`` over a time window."""

    def __init__(self, directory: str | Path | None = None, interval: float = 0.005) -> None:
        self.interval = interval
        fd, name = tempfile.mkstemp(prefix="disk-probe-", dir=directory)
        self.path = Path(name)
        self.fd = fd
        os.write(fd, b"\0" * BLOCK * BLOCKS)
        os.fsync(fd)  # allocated and durable before the first timed write
        self.samples: list[tuple[float, float]] = []  # (wall time at the start, ms)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="disk-probe", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        block, i = b"\1" * BLOCK, 0
        while not self._stop.wait(self.interval):
            started, t0 = time.time(), time.perf_counter()
            os.pwrite(self.fd, block, (i % BLOCKS) * BLOCK)
            os.fdatasync(self.fd)
            self.samples.append((started, (time.perf_counter() - t0) * 1000.0))
            i += 1

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)
        os.close(self.fd)
        self.path.unlink(missing_ok=True)

    def stalled_seconds(self, start: float, seconds: int) -> list[float]:
        """For each second from ``start`` (wall time), the slowest sync over ``STALL_MS``
        that was in progress during it (0: none): a stall holds every commit begun while
        it lasts, so it marks each second it overlaps."""
        worst = [0.0] * seconds
        for t, d in self.samples:
            if d <= STALL_MS:
                continue
            first, last = int(t - start), int(t + d / 1000.0 - start)
            for i in range(max(0, first), min(seconds - 1, last) + 1):
                worst[i] = max(worst[i], d)
        return worst

    def report(self, start: float = 0.0, end: float = float("inf")) -> DiskReport | None:
        """The syncs begun between ``start`` and ``end`` (wall time), None if there were
        none."""
        ms = sorted(d for t, d in self.samples if start <= t <= end)
        if not ms:
            return None
        slow = [d for d in ms if d > STALL_MS]
        return DiskReport(len(ms), ms[len(ms) // 2], ms[min(len(ms) - 1, int(len(ms) * 0.99))],
                          ms[-1], len(slow), sum(slow) / 1000.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--dir", help="a directory on the disk to measure (default: the "
                        "temporary directory)")
    parser.add_argument("--interval", type=float, default=0.005)
    args = parser.parse_args()
    probe = DiskProbe(args.dir, args.interval)
    try:
        time.sleep(args.seconds)  # the probe's thread measures meanwhile
    finally:
        probe.stop()
    found = probe.report()
    print(f"{probe.path.parent}: {found.summary() if found else 'no syncs'}")


if __name__ == "__main__":
    main()
