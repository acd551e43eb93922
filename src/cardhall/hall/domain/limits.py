"""An in-memory sliding-window rate limiter, one window per key (a client address).

Logins and new accounts are limited per address so that nobody can guess passwords or
mint guests (each with starting beans) in bulk. The limiter is per process: several
server processes each keep their own windows, which only loosens the limit by the
number of processes, an accepted trade for needing no shared store. The clock is
injected so tests can move time without sleeping.

    >>> t = [0.0]
    >>> lim = RateLimiter(2, 60.0, clock=lambda: t[0])
    >>> lim.allow("1.2.3.4"), lim.allow("1.2.3.4"), lim.allow("1.2.3.4")
    (True, True, False)
    >>> t[0] = 60.0
    >>> lim.allow("1.2.3.4")
    True
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable


class RateLimiter:
    """At most ``limit`` events per key in any window of ``window`` seconds.

    Memory is bounded by the keys seen within one window: a key whose events have all
    expired is dropped on the next sweep (at most one sweep per window).
    """

    def __init__(self, limit: int, window: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if limit < 1 or window <= 0:
            raise ValueError(f"a rate limit needs limit >= 1 and window > 0, "
                             f"not {limit} per {window}s")
        self.limit = limit
        self.window = window
        self._clock = clock
        self._events: dict[str, deque[float]] = {}
        self._swept = clock()

    def _recent(self, key: str, now: float) -> deque[float]:
        q = self._events.setdefault(key, deque())
        while q and q[0] <= now - self.window:
            q.popleft()
        return q

    def _sweep(self, now: float) -> None:
        if now - self._swept < self.window:
            return
        self._swept = now
        for key in [k for k, q in self._events.items() if not q or q[-1] <= now - self.window]:
            del self._events[key]

    def allow(self, key: str) -> bool:
        """Count one event for ``key`` if it is within the limit; False (and nothing
        counted) if it is not."""
        now = self._clock()
        self._sweep(now)
        q = self._recent(key, now)
        if len(q) >= self.limit:
            return False
        q.append(now)
        return True

    def retry_after(self, key: str) -> float:
        """Seconds until ``key`` may act again (0 when it may now)."""
        now = self._clock()
        q = self._recent(key, now)
        if len(q) < self.limit:
            return 0.0
        return q[0] + self.window - now

    def __len__(self) -> int:
        """How many keys are being tracked (for tests and metrics)."""
        return len(self._events)


#: Seconds over which wrong invite codes are counted.
CODE_WINDOW = 3600.0


class CodeTries:
    """Wrong invite codes, limited per player and per client address.

    A private table's code (``lobby.CODE_CHARS``, 32 symbols, ``CODE_LENGTH`` long: 40
    bits) is all that keeps a stranger from its seats. Only wrong codes are counted, so
    friends who type theirs right are never slowed; past ``per_player`` wrong codes in
    an hour (or ``per_address`` for everyone behind one address, which a player minting
    guests shares), every lookup is refused until the oldest leaves the window. Per
    process, like ``RateLimiter``: with several processes the limit is that many times
    looser, still hopeless for guessing (docs/security.md has the arithmetic).
    """

    def __init__(self, per_player: int, per_address: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.players = RateLimiter(per_player, CODE_WINDOW, clock)
        self.addresses = RateLimiter(per_address, CODE_WINDOW, clock)

    def wait(self, player: str, address: str) -> float:
        """Seconds before this player (from this address) may look a code up again."""
        return max(self.players.retry_after(player),
                   self.addresses.retry_after(address) if address else 0.0)

    def failed(self, player: str, address: str) -> None:
        """Count one wrong code."""
        self.players.allow(player)
        if address:
            self.addresses.allow(address)
