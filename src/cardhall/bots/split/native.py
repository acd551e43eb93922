"""The split search's C loop (``_search.c``) as the planners see it: built or not, and its memo.

The loop is built by the install where a C compiler is at hand; without it the
planners run the same search in Python (``hands.Planner``), and nothing else
changes but the time. Here: whether it is built and used, the memo views that let
the Python loop (capped decisions) read and write the C loop's memo, and the step
tables converted for it once per process.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from cardhall.bots.split._search import Core, Steps
    from cardhall.bots.split.sift import Walk
    from cardhall.bots.split.steps import Family
    from cardhall.rules import Play
    from cardhall.rules.wild import Block

try:
    from cardhall.bots.split import _search
except ImportError:  # not built (no C compiler at install): the Python loop alone
    _search = None  # type: ignore[assignment]

#: Whether the C loop is built.
BUILT = _search is not None
#: Whether planners run it by default: where it is built, unless the environment sets
#: ``CARDHALL_PURE_PYTHON`` (to measure or debug the Python loop).
NATIVE = BUILT and not os.environ.get("CARDHALL_PURE_PYTHON")
#: States the C loop's memo keeps before it is cleared (``hands.MEMO_LIMIT`` is the Python
#: loop's 200,000). Far fewer: there a state costs some 200 nanoseconds, and a memo of
#: 200,000 states (some 10 MB) misses the processor's caches at nearly every look-up. Over
#: 30 斗帝主 games the decisions' p99 was 5.24 ms at 200,000, 5.19 at 50,000, 4.56 at 20,000.
MEMO_LIMIT = 20_000
T = TypeVar("T")


class Store(Protocol):
    """What the search asks of its memo: a dict, or a view of the C loop's."""

    def get(self, state: int, /) -> float | None: ...
    def __setitem__(self, state: int, value: float, /) -> None: ...
    def __len__(self) -> int: ...
    def clear(self) -> None: ...


class Links(Protocol):
    """What the search asks of its path links: a dict, or a view of the C loop's."""

    def get(self, state: int, /) -> int | None: ...
    def __setitem__(self, state: int, link: int, /) -> None: ...
    def __len__(self) -> int: ...
    def clear(self) -> None: ...


class CoreView(Generic[T]):
    """One side of the C loop's memo as the Python loop sees it: its ``_memo`` (worths,
    ``Core.value``/``set_value``/``size``) or its ``_path`` (``link``/``set_link``/``links``)."""

    def __init__(self, get: Callable[[int], T | None], put: Callable[[int, T], None],
                 size: Callable[[], int], clear: Callable[[], None]) -> None:
        self.get, self._put, self._size, self.clear = get, put, size, clear

    def __setitem__(self, state: int, value: T) -> None:
        self._put(state, value)

    def __len__(self) -> int:
        return self._size()


def views(core: Core) -> tuple[CoreView[float], CoreView[int]]:
    """The C loop's memo as the Python loop's ``_memo`` and ``_path``."""
    return (CoreView(core.value, core.set_value, core.size, core.clear),
            CoreView(core.link, core.set_link, core.links, core.clear))


def core(steps_at: Callable[[int, int], Steps], constants: tuple[int, ...], hand_mask: int,
         guard: int, deep_add: int, planes: Sequence[int], repay: Sequence[Sequence[int]],
         empty_slots: int, per_rank: int, plain: Core | None, fields: int,
         mirrored: bool) -> Core:
    """A C loop over one planner's tables (``hands.Planner._native_core``)."""
    if _search is None:
        raise RuntimeError("the split search's C loop is not built (cardhall.bots.split._search)")
    return _search.Core(steps_at, constants, hand_mask, guard, deep_add, planes, repay,
                        empty_slots, per_rank, MEMO_LIMIT, plain, fields, mirrored)


def sift(plays: list[Play], walk: Walk | None, total: int,
         variants: int) -> tuple[list[Play], list[Play], dict[int, Play], Play | None]:
    """``bots.split.sift._sift`` on the C loop (``_search_sift.c``)."""
    if _search is None:
        raise RuntimeError("the split search's C loop is not built (cardhall.bots.split._search)")
    return _search.sift(plays, walk, total, variants)


def sift_blocks(blocks: list[Block], gen_play: Callable[[int], Play],
                new_play: Callable[..., Play], walk: Walk | None, total: int, variants: int,
                tiers: tuple[int, int, int],
                ) -> tuple[list[Play], bytes, Play | None]:
    """``bots.split.sift.sift_blocks`` on the C loop (``_search_blocks.c``)."""
    if _search is None:
        raise RuntimeError("the split search's C loop is not built (cardhall.bots.split._search)")
    return _search.sift_blocks(blocks, gen_play, new_play, walk, total, variants, tiers)


def block_play(blocks: list[Block], ref: int, gen_play: Callable[[int], Play],
               new_play: Callable[..., Play]) -> Play:
    """The play of a way ``sift_blocks`` named (``_search_blocks.c``)."""
    if _search is None:
        raise RuntimeError("the split search's C loop is not built (cardhall.bots.split._search)")
    return _search.block_play(blocks, ref, gen_play, new_play)


#: id of a step table (``Planner._steps_at``) → the table, kept alive so the id stays its
#: own, and its conversion for the C loop.
_CONVERTED: dict[int, tuple[tuple[Family, ...], Steps]] = {}


def converted(fams: tuple[Family, ...]) -> Steps:
    """A step table converted for the C loop, once per table for the whole process."""
    if _search is None:
        raise RuntimeError("the split search's C loop is not built (cardhall.bots.split._search)")
    found = _CONVERTED.get(id(fams))
    if found is None:
        found = _CONVERTED[id(fams)] = (fams, _search.Steps(fams))
    return found[1]
