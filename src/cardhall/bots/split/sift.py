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
tests hold the two equal), and the policy reads the result (``Sifted``). A lead
holding wild cards is read before its plays are made (``sift_blocks``): of some
1,900 plays the policy reads about 200, and making a play costs more than reading
it.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from cardhall.bots.split import native
from cardhall.cards import NUM_RANKS, format_ranks
from cardhall.rules import Play
from cardhall.rules.plays import new_play
from cardhall.rules.wild import HARD, PURE, SOFT, Block

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
    """Plays (those the index accepted), with what ``sift`` read of them for ``total``.

    Not ``complete``: only the plays read (``sift_blocks``), not every legal one.
    """

    __slots__ = ("candidates", "complete", "lasts", "total", "whole")
    #: ``Policy.candidates`` of the plays.
    candidates: list[Play]
    #: Each multiset's last reading, by ``play_cards``.
    lasts: Mapping[int, Play]
    #: The first play of ``total`` cards with the lowest tier, if any.
    whole: Play | None
    total: int
    complete: bool


def sift(plays: Sequence[Play], walk: Walk | None = None, total: int | None = None,
         use_c: bool | None = None) -> Sifted:
    """The plays whose cards ``walk`` accepts (all without one), read for a hand of
    ``total`` cards (None: ``whole`` is not asked for). ``use_c``: on the C loop (None:
    where it is built, ``native.NATIVE``). A ``Sifted`` list already read (for ``total``)
    is its own answer."""
    if walk is None and isinstance(plays, Sifted) and total in (None, plays.total):
        return plays
    if isinstance(plays, Sifted) and not plays.complete:
        raise ValueError("these plays were read for another hand, and are not all of them")
    if total is None:
        total = -1
    listed = plays if type(plays) is list else list(plays)
    run = native.sift if (native.NATIVE if use_c is None else use_c) else _sift
    return _sifted(*run(listed, walk, total, KICKER_VARIANTS), total, True)


def sift_blocks(blocks: list[Block], gen_play: Callable[[int], Play], walk: Walk | None,
                total: int) -> Sifted:
    """``sift`` of a wildcard lead's plays (``rules.wild.spelt_moves``) read from its
    ``blocks``, on the C loop (``_search_blocks.c``): the same candidates, whole and
    lasts, equal plays (the natural ones the same objects), but only those are made,
    and a last reading only when it is asked for (``BlockLasts``): of a lead's thousands
    of plays the policy reads a few hundred. The list holds the plays made, not every
    legal one (not ``complete``)."""
    candidates, pairs, whole = native.sift_blocks(blocks, gen_play, new_play, walk, total,
                                                  KICKER_VARIANTS, (SOFT, HARD, PURE))
    made = list(candidates)
    if whole is not None and whole not in made:
        made.append(whole)
    return _sifted(made, candidates, BlockLasts(pairs, blocks, gen_play), whole, total, False)


class BlockLasts(Mapping[int, Play]):
    """Each set of cards' last reading (``Sifted.lasts``) of ``sift_blocks``, made when
    first asked for: the policy asks for the few its split's groups are. The C loop
    gives them as pairs of native ints (the set packed 4 bits a rank, as one pack
    allows; its last way)."""

    def __init__(self, pairs: bytes, blocks: list[Block],
                 gen_play: Callable[[int], Play]) -> None:
        words = array("Q")
        words.frombytes(pairs)
        self._sets, self._ways = words[0::2], words[1::2]
        self._blocks, self._gen_play = blocks, gen_play
        self._made: dict[int, Play] = {}

    def _at(self, cards: int) -> int:
        """Where ``cards`` (packed by ``play_cards``) is in ``_sets``; -1: not there."""
        narrow = 0
        for r in range(NUM_RANKS):
            count = (cards >> (FIELD * r)) & ((1 << FIELD) - 1)
            if count > 15:
                return -1
            narrow |= count << (4 * r)
        if cards >> (FIELD * NUM_RANKS) or narrow not in self._sets:
            return -1
        return self._sets.index(narrow)

    def __getitem__(self, cards: int) -> Play:
        made = self._made.get(cards)
        if made is None:
            i = self._at(cards)
            if i < 0:
                raise KeyError(cards)
            made = self._made[cards] = native.block_play(self._blocks, self._ways[i],
                                                         self._gen_play, new_play)
        return made

    def __iter__(self) -> Iterator[int]:
        return (pack_cards(r for r in range(NUM_RANKS) for _ in range((s >> (4 * r)) & 15))
                for s in self._sets)

    def __len__(self) -> int:
        return len(self._sets)


def _sifted(kept: list[Play], candidates: list[Play], lasts: Mapping[int, Play],
            whole: Play | None, total: int, complete: bool) -> Sifted:
    out = Sifted(kept)
    out.candidates, out.lasts, out.whole, out.total = candidates, lasts, whole, total
    out.complete = complete
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
