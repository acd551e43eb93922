"""``cardhall`` under cProfile, switched on and off by signals: one phase of a benchmark.

    python benchmarks/profiled.py OUT.prof serve --port 0 ...   (cardhall's own arguments)

SIGUSR1 starts recording, SIGUSR2 stops it and writes ``OUT.prof`` whole (pstats,
renamed into place; read it with ``python benchmarks/profiled.py --top OUT.prof``); the
next SIGUSR1 starts a new recording.
Only the main thread is recorded, in its CPU time (``time.thread_time``: a machine busy
with other work does not inflate it): the hall's event loop, where a player's act waits.
py-spy samples without this, but it is not always installed; cProfile slows the
profiled code (about 1.5-2x), so a profiled run's latencies are not the bench's figures.
"""

from __future__ import annotations

import cProfile
import os
import pstats
import signal
import sys
import time
from types import FrameType


def top(path: str, n: int = 30) -> str:
    """The ``n`` entries of a profile with the most time of their own, then by
    cumulative time: where the loop's time went."""
    import io  # noqa: PLC0415

    out = io.StringIO()
    stats = pstats.Stats(path, stream=out)
    stats.sort_stats("tottime").print_stats(n)
    stats.sort_stats("cumulative").print_stats(n)
    return out.getvalue()


def main() -> int:
    if sys.argv[1] == "--top":
        print(top(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 30))
        return 0
    out = sys.argv[1]
    profile = [cProfile.Profile(time.thread_time)]

    def start(signum: int, frame: FrameType | None) -> None:
        profile[0].enable()

    def stop(signum: int, frame: FrameType | None) -> None:
        profile[0].disable()
        profile[0].dump_stats(out + ".part")
        os.replace(out + ".part", out)  # the reader never sees half a file
        print(f"profile written: {out}", flush=True)  # the bench waits for this line
        profile[0] = cProfile.Profile(time.thread_time)

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    from cardhall.cli import main as cardhall  # noqa: PLC0415 (after the handlers)

    return cardhall(sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
