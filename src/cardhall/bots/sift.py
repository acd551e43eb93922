"""A decision's plays read in one pass: those a view's index accepts, and what the policy
reads of each card multiset.

The policy reads a play list three ways, each per set of cards (a multiset):
its candidates (``Policy.candidates``: one reading per multiset, the grouped
kicker choices), the play a split's group is (``Policy.winning_line``: the
last reading of its cards) and the play going out (``Policy.ranked``: the
first of the whole hand with the lowest bomb tier). A wildcard lead has
thousands of plays, many readings of some fifteen hundred multisets, and its
generated list is first checked against the view's plays index
(``view.generated_plays``); in Python each of those passes costs about a
microsecond a play. ``sift`` makes them one pass, on the C loop where it is
built (``_search_sift.c``, which follows ``_sift`` here step for step; the
tests hold the two equal), and the policy reads the result (``Sifted``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cardhall.bots import native
from cardhall.cards import NUM_RANKS, format_ranks
from cardhall.rules import Play

#: Kicker variants of one main part worth evaluating (the lowest kickers first).
KICKER_VARIANTS = 3
#: Bits per rank of a packed multiset (up to 63 cards of one rank).
FIELD = 6
_UNITS = [1 << (FIELD * r) for r in range(NUM_RANKS)]
#: Each rank's label in a plays index (``format_ranks`` of one card, once per rank).
LABELS = [format_ranks([r]) for r in range(NUM_RANKS)]
#: A plays index as ``sift`` walks it: its nodes, its root, the bit shift of each level's
#: rank in a packed multiset, and the fields of the ranks it has levels for.
Walk = tuple[list[list[int]], int, tuple[int, ...], int]


def play_cards(p: Play) -> int:
    """A play's cards as one int, ``FIELD`` bits a rank, without making ``p.cards``' tuple."""
    h = 0
    units = _UNITS
    for r in p.main:
        h += units[r]
    for r in p.kickers:
        h += units[r]
    return h


def pack_cards(cards: Iterable[int]) -> int:
    """Ranks packed as ``play_cards`` packs a play's."""
    return sum(_UNITS[r] for r in cards)


def walk_of(index: Mapping[str, Any]) -> Walk | None:
    """A plays index over ranks, as ``sift`` walks it; None if its labels are not ranks."""
    rank_of = {label: r for r, label in enumerate(LABELS)}
    labels = index["labels"]
    if any(label not in rank_of for label in labels):
        return None
    shifts = tuple(FIELD * rank_of[label] for label in labels)
    allowed = sum(((1 << FIELD) - 1) << shift for shift in shifts)
    return list(index["nodes"]), int(index["root"]), shifts, allowed


def accepts(walk: Walk, packed: int) -> bool:
    """Whether the index accepts a packed multiset: ``games.view.judge``'s walk."""
    nodes, root, shifts, allowed = walk
    node = 0 if packed & ~allowed else root
    for shift in shifts:
        if not node:
            break
        if not 0 <= node < len(nodes):
            raise ValueError("the plays index is malformed")
        kids = nodes[node] if node > 1 else []
        if not isinstance(kids, list):
            raise ValueError("the plays index is malformed")
        k = (packed >> shift) & ((1 << FIELD) - 1)
        node = kids[k] if k < len(kids) else 0
    return node == 1


class Sifted(list[Play]):
    """Plays (those the index accepted), with what ``sift`` read of them for ``total``."""

    __slots__ = ("candidates", "lasts", "total", "whole")
    #: ``Policy.candidates`` of the plays.
    candidates: list[Play]
    #: Each multiset's last reading, by ``play_cards``.
    lasts: dict[int, Play]
    #: The first play of ``total`` cards with the lowest tier, if any.
    whole: Play | None
    total: int


def sift(plays: Sequence[Play], walk: Walk | None = None, total: int | None = None,
         use_c: bool | None = None) -> Sifted:
    """The plays whose cards ``walk`` accepts (all without one), read for a hand of
    ``total`` cards (None: ``whole`` is not asked for). ``use_c``: on the C loop (None:
    where it is built, ``native.NATIVE``). A ``Sifted`` list already read (for ``total``)
    is its own answer."""
    if walk is None and isinstance(plays, Sifted) and total in (None, plays.total):
        return plays
    if total is None:
        total = -1
    listed = plays if type(plays) is list else list(plays)
    run = native.sift if (native.NATIVE if use_c is None else use_c) else _sift
    kept, candidates, lasts, whole = run(listed, walk, total, KICKER_VARIANTS)
    out = Sifted(kept)
    out.candidates, out.lasts, out.whole, out.total = candidates, lasts, whole, total
    return out


def _sift(plays: list[Play], walk: Walk | None, total: int,
          variants: int) -> tuple[list[Play], list[Play], dict[int, Play], Play | None]:
    """``sift`` in Python: (kept, candidates, lasts, whole), each multiset asked once."""
    answers: dict[int, bool] = {}
    chosen: dict[int, Play] = {}
    lasts: dict[int, Play] = {}
    kept: list[Play] = [] if walk is not None else plays
    whole: Play | None = None
    for p in plays:
        h = play_cards(p)
        ok = answers.get(h)
        if ok is None:
            ok = answers[h] = walk is None or accepts(walk, h)
        if not ok:
            continue
        old = chosen.get(h)
        if old is None or (old.tier and not p.tier):
            chosen[h] = p  # the same cards read as a bomb double the stake: avoid
        lasts[h] = p
        if walk is not None:
            kept.append(p)
        if p.size == total and (whole is None or p.tier < whole.tier):
            whole = p
    return kept, _grouped(chosen.values(), variants), lasts, whole


def _grouped(plays: Iterable[Play], variants: int) -> list[Play]:
    """The plays grouped by reading and main part as it stands, in order of first
    appearance, at most ``variants`` of each group: the lowest kickers first."""
    groups: dict[tuple[Any, ...], list[Play]] = {}
    for p in plays:
        main = p.as_main if p.as_main is not None else p.main
        groups.setdefault((p.kind, p.key, p.length, p.tier, main), []).append(p)
    out: list[Play] = []
    for group in groups.values():
        if len(group) > 1:
            group.sort(key=_kickers_down)
        out.extend(group[:variants])
    return out


def _kickers_down(p: Play) -> list[int]:
    return sorted(p.kickers, reverse=True)
