"""Bot decisions off the event loop, under a time cap, never failing the table.

A table asks for a decision with the seat's view (a bot sees exactly what a
person there sees). The decision runs in a worker process, so a slow search or
a big move list never holds the event loop, nor the GIL of the thread serving
sockets. If the bot fails or overruns ``cap`` seconds, the 托管 policy answers
instead (cheap, in this process): a table never waits on a bot for longer
than the cap and never stalls on one's error.

A costly bot (one with a ``stand_in``: the search bot, whose rollouts may take a
worker for 0.8 s a decision) runs in at most half the workers at once (one with a
single worker), so a room of it cannot take every worker from the other rooms' bots:
with one worker another bot's decision waits behind one search at most (under a
second, well within the cap), with more the other half stays free. A costly decision
that finds those slots taken is answered at once by its stand-in (planning, whose
move the search would have refined) rather than queued past the cap, so a busy
search room plays the planning bot's moves, never 托管's.

The workers are *spawned* (a fresh interpreter), never forked from the hall: a
forked worker would inherit every socket open at that moment (the listening
socket, players' keep-alive connections and WebSockets) and keep them open after
the hall closes them, so a browser would reuse a connection nobody reads.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from cardhall import bots
from cardhall.bots import Bot
from cardhall.bots.view import legal_texts

log = logging.getLogger("cardhall.hall.bots")

#: Bot instances a worker keeps between decisions (a bot may carry memory of its game).
_CACHE_SIZE = 512
_cache: OrderedDict[tuple[str, str, int, int], bots.Bot] = OrderedDict()


def decide(name: str, variant: str, seat: int, seed: int, view: dict[str, Any]) -> str:
    """One decision, in whatever process runs it: the bot for that seat, kept warm."""
    key = (name, variant, seat, seed)
    bot = _cache.pop(key, None)
    if bot is None:
        bot = bots.make(name, variant, seat, seed)
    _cache[key] = bot
    while len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return bot.act(view)


#: How often a worker checks that the hall that started it still lives.
PARENT_CHECK_SECONDS = 0.5


def watch_parent(parent: int) -> None:
    """In a worker: exit once the hall process is gone (killed with SIGKILL, say), so no
    orphaned worker outlives it waiting on a queue nobody will ever write to."""

    def watch() -> None:
        while os.getppid() == parent:
            threading.Event().wait(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="watch-hall", daemon=True).start()


def _loaded() -> bool:
    """In a worker: import the bots now (not at the first decision); whether their
    split search runs in C there."""
    from cardhall.bots.split import native  # noqa: PLC0415 (in the worker, at its start)
    return native.NATIVE


def stand_in(name: str) -> str | None:
    """The bot that answers for the costly bot ``name`` when its slots are taken (None: a
    bot cheap enough to run anywhere, or a name the workers will refuse)."""
    factory = bots.BOTS.get(name)
    return factory.stand_in if isinstance(factory, type) and issubclass(factory, Bot) else None


class BotPool:
    """Runs decisions in ``workers`` processes (threads with ``processes=False``)."""

    def __init__(self, workers: int = 1, cap: float = 2.0, processes: bool = True) -> None:
        self.cap = cap
        self.workers = workers
        #: Costly decisions (``stand_in``) that may run at once, and those running.
        self.costly_slots = max(1, workers // 2)
        self._costly = 0
        #: Costly decisions answered by their stand-in, the slots being taken.
        self.stood_in = 0
        # "spawn", not the default "fork": the worker owns nothing of the hall's (module
        # docstring). A spawned worker costs ~0.3 s to start, once (``warm``).
        self._executor: Executor = (
            ProcessPoolExecutor(max_workers=workers, initializer=watch_parent,
                                initargs=(os.getpid(),),
                                mp_context=multiprocessing.get_context("spawn"))
            if processes else ThreadPoolExecutor(max_workers=workers))
        self.fallbacks = 0

    async def warm(self) -> bool:
        """Start every worker and load the bots in it, so the first decision does not
        pay for it (nor overrun the cap on a busy machine); whether the workers run the
        search in C."""
        loop = asyncio.get_running_loop()
        loaded = await asyncio.gather(*(loop.run_in_executor(self._executor, _loaded)
                                        for _ in range(self.workers)))
        return all(loaded)

    async def decide(self, name: str, variant: str, seat: int, seed: int,
                     view: dict[str, Any]) -> str:
        """The bot's action text, or the 托管 policy's when the bot fails or overruns (a
        costly bot's stand-in's when its slots are taken: module docstring)."""
        loop = asyncio.get_running_loop()
        substitute = stand_in(name)
        costly = substitute is not None
        if substitute is not None and self._costly >= self.costly_slots:
            name, costly = substitute, False
            self.stood_in += 1
        if costly:
            self._costly += 1
        try:
            future = loop.run_in_executor(self._executor, decide, name, variant, seat, seed,
                                          view)
            return await asyncio.wait_for(future, self.cap)
        except TimeoutError:
            log.warning("bot %s overran %.1fs in %s seat %d: 托管 answers", name, self.cap,
                        variant, seat)
        except Exception:  # a bot's bug must not stop a table: log it, answer by policy
            log.exception("bot %s failed in %s seat %d: 托管 answers", name, variant, seat)
        finally:
            if costly:
                self._costly -= 1
        self.fallbacks += 1
        try:
            return decide("tuoguan", variant, seat, seed, view)
        except Exception:  # the policy itself failed on this view: any legal action
            log.exception("托管 failed in %s seat %d: the first legal action answers",
                          variant, seat)
            legal = legal_texts(view)
            return legal[0] if legal else "pass"

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
