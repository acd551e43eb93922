"""doudizhu-resolver (PyPI, aohajin/doudizhu_resolver 0.1.2), the two-hand 残局 solver issue 21
compares ours with, driven on our positions; None everywhere when it is not installed.

Its search (``play.try_play``) is a memoised minimax like ours; its rules are a table of
every hand of 37 types (``Doudizhu.DATA``: sorted cards → [(type, weight)]). Reading
``engine.py`` shows where they differ from cardhall's ddz3 (docs/rules/ddz3.md):

``bomb_rocket``      ``list_greater_cards`` lets any bomb answer the rocket (its
                     "elif" adds bombs when the play is the rocket): a bug; ddz3's
                     rocket beats everything.
``rocket_kickers``   both jokers may go together as single kickers (``6666+XD``,
                     ``333444+XD``); ddz3 never splits the rocket (K3).
``equal_pairs``      kicker pairs may repeat a rank (``4444+5555``, ``333444+5555``);
                     ddz3's kicker pairs have different ranks.
``readings``         a play is cards, not a reading: the answer may beat any reading of
                     the cards (the highest weight of each type); in cardhall the player
                     names the reading and only it is answered. It only matters for cards
                     that read as two types (``333444555666``), 12 cards or more.

Leads, passes, who leads after a pass and the other hand types agree. Its move lists cost
0.1–0.2 s each (every call scans the 35,000-hand table and parses each entry), so a
position of 6 cards a hand takes seconds and one of 10 far longer. ``Rules`` lists the same
hands by looking the hand's sub-multisets up in that table (checked against its own
functions by ``check_lists``), optionally with some of the differences above aligned to
cardhall's rules, so that each disagreement can be traced to the difference behind it.
"""

from __future__ import annotations

import importlib
import types
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from itertools import product

DIFFERENCES = ("bomb_rocket", "rocket_kickers", "equal_pairs")
#: cardhall's rank order (``_RANKS``), its spelling.
_NAMES = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "BJ", "CJ")
_RANKS = "3456789TJQKA2XD"


def load() -> types.ModuleType | None:
    """The package, or None when it is not installed (the ``bench`` extra)."""
    try:
        return importlib.import_module("doudizhu_resolver")
    except ImportError:
        return None


def cards(text: str) -> str:
    """Our cards (``"33X"``) in its notation, suits made up: ``"3s-3h-BJ"``."""
    seen: Counter[str] = Counter()
    out = []
    for char in text:
        name = _NAMES[_RANKS.index(char)]
        out.append(name if char in "XD" else name + "shdc"[seen[char]])
        seen[char] += 1
    return "-".join(out)


def verdict(dr: types.ModuleType, to_move: str, other: str) -> bool:
    """Whether the hand to move, leading, wins: its own search from a clear cache."""
    dr.clear_cache()
    return bool(dr.is_winable(cards(to_move), cards(other)))


class Rules:
    """Its move lists (``Doudizhu.list_playable_cards`` / ``list_greater_cards``), found by
    looking each sub-multiset of the hand up in its table instead of scanning the table,
    and with the differences named in ``aligned`` made cardhall's."""

    def __init__(self, dr: types.ModuleType, aligned: frozenset[str] = frozenset()) -> None:
        engine = importlib.import_module("doudizhu_resolver.doudizhu.engine")
        self.doudizhu = engine.Doudizhu
        self.data: dict[str, list[tuple[str, int]]] = engine.Doudizhu.DATA
        self.index: dict[str, int] = engine.CARD_IDX
        self.aligned = aligned
        self.contained = lru_cache(maxsize=1 << 16)(self._contained)

    def types(self, key: str) -> list[tuple[str, int]]:
        """The readings of ``key`` (sorted cards), less those cardhall's rules forbid."""
        readings = self.data.get(key, [])
        ranks = Counter(key.split("-"))
        if "rocket_kickers" in self.aligned and "BJ" in ranks and "CJ" in ranks \
                and len(ranks) > 2:
            return []
        if "equal_pairs" in self.aligned:
            fours = sum(n == 4 for n in ranks.values())
            readings = [(t, w) for t, w in readings
                        if not (t == "four_two_pair" and fours >= 2)
                        and not (t.startswith("trio_pair_chain") and fours >= 1)]
        return readings

    def _contained(self, hand: str) -> tuple[str, ...]:
        """Every hand of the table made of some of ``hand``'s cards (rank names, sorted)."""
        counts = Counter(hand.split("-"))
        ranks = sorted(counts, key=self.index.__getitem__)
        out = []
        for choice in product(*(range(counts[r] + 1) for r in ranks)):
            key = "-".join(r for r, k in zip(ranks, choice, strict=True) for _ in range(k))
            if key and self.types(key):
                out.append(key)
        return tuple(out)

    def _sorted(self, hand: str) -> str:
        return "-".join(sorted(hand.split("-"), key=self.index.__getitem__))

    def playable(self, hand: str) -> list[str]:
        return list(self.contained(self._sorted(hand)))

    def greater(self, target: str, hand: str) -> dict[str, list[str]]:
        """``Doudizhu.list_greater_cards``, step for step, on the table lookups."""
        best: dict[str, int] = {}
        for kind, weight in self.types(self._sorted(target)):
            if kind not in best or weight > best[kind]:
                best[kind] = weight
        wanted = list(best.items())
        if not wanted:
            return {}
        if wanted[0][0] != "rocket":
            if wanted[0][0] != "bomb":
                wanted.append(("bomb", -1))
            wanted.append(("rocket", -1))
        elif wanted[0][0] != "bomb" and "bomb_rocket" not in self.aligned:
            wanted.append(("bomb", -1))  # its bug: bombs answer the rocket
        out: dict[str, list[str]] = {}
        subs = self.contained(self._sorted(hand))
        for kind, weight in wanted:
            found = [k for k in subs if any(t == kind and w > weight for t, w in self.types(k))]
            if found:
                out[kind] = found
        return out

    @contextmanager
    def installed(self) -> Iterator[None]:
        """Its search, with these move lists in place of its own, then its own back."""
        saved = (self.doudizhu.list_playable_cards, self.doudizhu.list_greater_cards)
        self.doudizhu.list_playable_cards = staticmethod(self.playable)
        self.doudizhu.list_greater_cards = staticmethod(self.greater)
        try:
            yield
        finally:
            self.doudizhu.list_playable_cards = staticmethod(saved[0])
            self.doudizhu.list_greater_cards = staticmethod(saved[1])


def check_lists(dr: types.ModuleType, hands: list[str]) -> int:
    """How many of ``hands`` (ours) get from ``Rules`` (nothing aligned) exactly the move
    lists of its own functions, leading and answering each of its leads' first few."""
    rules = Rules(dr)
    own_lead: Callable[[str], list[str]] = rules.doudizhu.list_playable_cards
    own_answer: Callable[[str, str], dict[str, list[str]]] = rules.doudizhu.list_greater_cards
    same = 0
    for hand in hands:
        text = "-".join(c if c in ("BJ", "CJ") else c[:-1] for c in cards(hand).split("-"))
        leads = own_lead(text)
        ok = sorted(set(leads)) == sorted(rules.playable(text))
        for lead in leads[:: max(1, len(leads) // 4)]:
            theirs = {k: sorted(set(v)) for k, v in own_answer(lead, text).items()}
            ok = ok and theirs == {k: sorted(v) for k, v in rules.greater(lead, text).items()}
        same += ok
    return same
