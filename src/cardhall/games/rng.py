"""The games' own random generator: a record must replay on any later Python.

Python promises that ``random.Random(seed).random()`` stays the same across
versions, but not ``shuffle``, ``randrange`` or ``sample``, which have changed
before. A game record is kept for years and replayed by other programs (the
browser's replay viewer, other people's tools), so every chance event of a game
goes through this small generator, whose whole algorithm is written here:

- the state is one unsigned 64-bit integer, first ``seed mod 2**64``;
- each draw is SplitMix64 (Steele, Lea and Flood, 2014): add
  ``0x9E3779B97F4A7C15`` to the state, then mix a copy with two
  xor-shift-multiply steps and a final xor-shift, giving 64 bits;
- ``below(n)`` takes the draw's value modulo ``n``, redrawing a value from the
  top ``2**64 mod n`` values so that every result is equally likely;
- ``shuffle`` is Fisher-Yates from the last position down: for ``i = n-1 … 1``
  swap position ``i`` with ``below(i + 1)``;
- ``sample(xs, k)`` shuffles a copy the same way and keeps its last ``k``
  positions in the order they were fixed (last position first).

``VERSION`` names this algorithm; records carry their variant's version, which
is bumped if this ever changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

VERSION = 1
_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


class Rng:
    """SplitMix64 with unbiased bounded draws; see the module docstring."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        self.state = (self.state + _GAMMA) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``0 … n-1``."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, not {n}")
        limit = (1 << 64) - (1 << 64) % n  # draws at or above it would favour small results
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def randrange(self, n: int) -> int:
        return self.below(n)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: list[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        pool = list(items)
        if not 0 <= k <= len(pool):
            raise ValueError(f"cannot sample {k} of {len(pool)}")
        out: list[T] = []
        for i in range(len(pool) - 1, len(pool) - 1 - k, -1):
            j = self.below(i + 1)
            pool[i], pool[j] = pool[j], pool[i]
            out.append(pool[i])
        return out

    def copy(self) -> Rng:
        twin = Rng(0)
        twin.state = self.state
        return twin
