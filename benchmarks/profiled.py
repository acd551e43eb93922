"""``cardhall`` under cProfile, switched on and off by signals: one phase of a benchmark.

    python benchmarks/profiled.py OUT.prof serve --port 0 ...   (cardhall's own arguments)

With ``CARDHALL_PROFILE=stalls`` in its environment it records only the collector's
pauses and the loop's long turns (cheap: the latencies stay the hall's own).
SIGUSR1 starts recording, SIGUSR2 stops it and writes ``OUT.prof`` whole (pstats,
renamed into place; read it with ``python benchmarks/profiled.py --top OUT.prof``); the
next SIGUSR1 starts a new recording.
Only the main thread is recorded, in its CPU time (``time.thread_time``: a machine busy
with other work does not inflate it): the hall's event loop, where a player's act waits.
py-spy samples without this, but it is not always installed; cProfile slows the
profiled code (about 1.5-2x), so a profiled run's latencies are not the bench's figures.
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
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


class GcPauses:
    """The cyclic collector's pauses while recording, by generation (wall time: cProfile
    does not show them, it charges them to whatever allocated when one started)."""

    def __init__(self) -> None:
        self.on, self.started = False, 0.0
        self.pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if not self.on:
            return
        if phase == "start":
            self.started = time.perf_counter()
        else:
            self.pauses[info["generation"]].append(time.perf_counter() - self.started)

    def summary(self) -> str:
        parts = [f"gen {g}: {len(p)}, {sum(p) * 1000:.0f} ms in all, longest "
                 f"{max(p, default=0.0) * 1000:.1f} ms" for g, p in self.pauses.items()]
        for p in self.pauses.values():
            p.clear()
        return "collections while recording: " + "; ".join(parts)


def _what(handle: asyncio.events.Handle) -> str:
    """What a callback ran: a task's coroutine, or the function's qualified name."""
    callback = handle._callback  # type: ignore[attr-defined]
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        coro = owner.get_coro()
        return f"task {getattr(coro, '__qualname__', coro)}"
    inner = getattr(owner, "_task", None)  # TaskStepMethWrapper-like wrappers
    if isinstance(inner, asyncio.Task):
        return f"task {getattr(inner.get_coro(), '__qualname__', '?')}"
    return str(getattr(callback, "__qualname__", type(callback).__name__))


#: A turn this long is broken down by what it ran (``Stalls.summary``).
LONG_TURN = 0.008


class Stalls:
    """The loop's turns and callbacks while recording: how long each turn's callbacks took
    together (what a player's event queued behind them waited; the wait in ``select`` is
    not counted) and the slowest callbacks, by what they ran (asyncio's Handle._run and
    _run_once, wrapped: the bench's tool only)."""

    def __init__(self) -> None:
        self.on = False
        self.busy = 0.0  # this turn's callbacks so far
        self.turns: list[float] = []
        self.slowest: list[tuple[float, str]] = []
        #: This turn's callbacks over 0.2 ms (what ran), and its small ones (count, time).
        self.parts: list[tuple[float, str]] = []
        self.small = [0, 0.0]
        #: What the turns over LONG_TURN ran, by kind: count and time.
        self.long_parts: dict[str, list[float]] = {}
        self.long_turns = 0

    def install(self) -> None:
        run_once = asyncio.base_events.BaseEventLoop._run_once
        handle_run = asyncio.events.Handle._run
        stalls = self

        def timed_turn(loop: asyncio.base_events.BaseEventLoop) -> None:
            if not stalls.on:
                return run_once(loop)  # type: ignore[no-any-return]
            stalls.busy = 0.0
            stalls.parts.clear()
            stalls.small = [0, 0.0]
            try:
                return run_once(loop)  # type: ignore[no-any-return]
            finally:
                stalls.turns.append(stalls.busy)  # the callbacks' time, not the wait
                if stalls.busy > LONG_TURN:
                    stalls.long_turns += 1
                    for took, what in [*stalls.parts, (stalls.small[1], "(callbacks under "
                                                       "0.2 ms)")]:
                        entry = stalls.long_parts.setdefault(what, [0, 0.0])
                        entry[0] += 1 if what[0] != "(" else stalls.small[0]
                        entry[1] += took

        def timed_run(handle: asyncio.events.Handle) -> None:
            if not stalls.on:
                return handle_run(handle)  # type: ignore[no-any-return]
            started = time.perf_counter()
            try:
                return handle_run(handle)  # type: ignore[no-any-return]
            finally:
                took = time.perf_counter() - started
                stalls.busy += took
                if took > 0.0002:
                    what = _what(handle)
                    stalls.parts.append((took, what))
                    if took > 0.005:
                        stalls.slowest.append((took, what))
                else:
                    stalls.small[0] += 1
                    stalls.small[1] += took

        asyncio.base_events.BaseEventLoop._run_once = timed_turn  # type: ignore[method-assign]
        asyncio.events.Handle._run = timed_run  # type: ignore[method-assign]

    def summary(self) -> str:
        turns = sorted(self.turns)
        n = len(turns)
        busy = [t for t in turns if t > 0.001]  # the turns that did something
        q = (lambda f: busy[min(len(busy) - 1, int(f * len(busy)))] * 1000) if busy else (
            lambda f: 0.0)
        kinds: dict[str, list[float]] = {}
        for took, what in self.slowest:
            kinds.setdefault(what, []).append(took)
        worst = sorted(kinds.items(), key=lambda kv: -sum(kv[1]))[:12]
        lines = [f"loop turns while recording: {n}, over 1 ms: {len(busy)}; of those p50 "
                 f"{q(0.5):.1f} ms, p99 {q(0.99):.1f} ms, longest "
                 f"{(turns[-1] if turns else 0) * 1000:.1f} ms (cProfile's own cost in)",
                 "callbacks over 5 ms, by kind (count, total ms, longest ms):"]
        lines += [f"  {len(v)} {sum(v) * 1000:.0f} {max(v) * 1000:.1f}  {k}" for k, v in worst]
        lines.append(f"what the {self.long_turns} turns over {LONG_TURN * 1000:.0f} ms ran, by "
                     "kind (count, total ms):")
        lines += [f"  {int(n)} {t * 1000:.0f}  {k}" for k, (n, t) in
                  sorted(self.long_parts.items(), key=lambda kv: -kv[1][1])[:15]]
        self.turns.clear()
        self.slowest.clear()
        self.long_parts.clear()
        self.long_turns = 0
        return "\n".join(lines)


def main() -> int:
    if sys.argv[1] == "--top":
        print(top(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 30))
        return 0
    out = sys.argv[1]
    # CARDHALL_PROFILE=stalls: only the collector's pauses and the loop's turns, without
    # cProfile's cost (so the turns are the hall's own).
    only_stalls = os.environ.get("CARDHALL_PROFILE") == "stalls"
    profile = [cProfile.Profile(time.thread_time)]
    collections = GcPauses()
    gc.callbacks.append(collections)
    stalls = Stalls()
    stalls.install()

    def start(signum: int, frame: FrameType | None) -> None:
        if thresholds := os.environ.get("CARDHALL_GC"):  # an experiment: "10000,2,1000"
            gc.set_threshold(*(int(x) for x in thresholds.split(",")))
        collections.on = stalls.on = True
        if not only_stalls:
            profile[0].enable()

    def stop(signum: int, frame: FrameType | None) -> None:
        profile[0].disable()
        collections.on = stalls.on = False
        if only_stalls:
            print(collections.summary(), flush=True)
            print(stalls.summary().replace(" (cProfile's own cost in)", ""), flush=True)
            print(f"profile written: {out} (none: stalls only)", flush=True)
            return
        profile[0].dump_stats(out + ".part")
        os.replace(out + ".part", out)  # the reader never sees half a file
        print(collections.summary(), flush=True)
        print(stalls.summary(), flush=True)
        print(f"profile written: {out}", flush=True)  # the bench waits for this line
        profile[0] = cProfile.Profile(time.thread_time)

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    from cardhall.cli import main as cardhall  # noqa: PLC0415 (after the handlers)

    return cardhall(sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
