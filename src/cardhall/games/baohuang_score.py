"""保皇 settlement by finishing order (../shared/rules/baohuang.md §4, Rulings 10–12).

Pure functions, kept apart from the game so that every formula of the rule file
can be checked to the exact number without playing a hand. Places are 1 … 5:
头客, 二客, 三客, 二拉, 大拉.

- Emperor and guard are two players in places ``e`` and ``g``:
  ``guard = 6 − (e + g)``, ``emperor = 2 × guard``, each of the three rebels
  ``−guard`` (zero-sum: 2g + g − 3g = 0).
- 明独保 (open solo, 1 against 4): the emperor finishes 1st → +24 and −6 each,
  anyone else first → −24 and +6 each. These values are the hidden solo's
  ±12 / ∓3 with the open bet's ×2 (24 = 2 × 12, Ruling 12): the settlement
  writes them so (base 12, cause ``open_solo`` ×2), and nothing doubles them again.
- 暗独保 (hidden solo): 1st → +12 / −3; 2nd → 0; 3rd or worse (including
  "two others went out before him", Rulings 10 and 11) → −12 / +3.
- ×2, applied once (Ruling 12): the guard chose 明保 (``open_guard``), or a
  rebellion (造反, at least two players chose ``rebel``) succeeded, i.e. the
  rebels' score before doubling is positive (``rebellion``). 明保 and 造反 never
  both occur: the game offers no rebellion after 明保 (Ruling 9); nor does 明独保
  meet either. So at most one cause applies, and ``factor`` is their product.

Play stops as soon as these numbers are fixed (Ruling 10), so a player may end
without a place: royal players left alone at the end share the remaining places,
and only their sum ``e + g`` matters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

PLAYERS = 5
PLACES = tuple(range(1, PLAYERS + 1))
EMPEROR, GUARD, REBEL = "emperor", "guard", "rebel"
OPEN_SOLO, HIDDEN_SOLO = "open", "hidden"


def pair(e: int, g: int) -> tuple[int, int, int]:
    """(emperor, guard, each rebel) before doubling, emperor in place ``e``, guard in ``g``."""
    if e == g or e not in PLACES or g not in PLACES:
        raise ValueError(f"emperor and guard need two different places 1 … 5, not {e} and {g}")
    guard = 6 - (e + g)
    return 2 * guard, guard, -guard


def open_solo(emperor_place: int | None) -> tuple[int, int]:
    """(emperor, each other player) of 明独保: only finishing 1st wins (play stops at 1st)."""
    return (24, -6) if emperor_place == 1 else (-24, 6)


def hidden_solo(emperor_place: int | None) -> tuple[int, int]:
    """(emperor, each other player) of 暗独保; no place (two others out first) is 3rd."""
    place = 3 if emperor_place is None else emperor_place
    if place == 1:
        return 12, -3
    if place == 2:
        return 0, 0
    return -12, 3


@dataclass(frozen=True)
class Settlement:
    """Scores per seat and how they came about."""

    scores: tuple[int, ...]
    #: Before doubling: the emperor's, the guard's (None in a solo) and one rebel's score.
    emperor: int
    guard: int | None
    rebel: int
    factor: int
    #: Why the base was multiplied, cause → factor (open_guard, rebellion, open_solo);
    #: ``factor`` is their product.
    causes: dict[str, int]
    rebellion_succeeded: bool
    #: e + g of a two-player royal side (None in a solo).
    royal_places: int | None
    #: The emperor's place as scored (a hidden solo stopped early counts as 3rd).
    emperor_place: int | None

    def to_json(self) -> dict[str, Any]:
        return {"emperor": self.emperor, "guard": self.guard, "rebel": self.rebel,
                "royal_places": self.royal_places, "emperor_place": self.emperor_place}


def settle(emperor: int, guard: int | None, solo: str | None,
           places: Sequence[int | None], open_guard: bool = False,
           rebellion: bool = False) -> Settlement:
    """Every seat's score once play has stopped.

    ``guard`` is the guard's seat (ignored in a solo); ``solo`` is None, ``"open"``
    or ``"hidden"``; ``places[seat]`` is the seat's finishing place or None if
    play stopped before he went out; ``open_guard`` is 明保 and ``rebellion``
    whether at least two players chose 造反.
    """
    if len(places) != PLAYERS:
        raise ValueError(f"places for {PLAYERS} seats, not {len(places)}")
    if open_guard and rebellion:
        raise ValueError("明保 and 造反 never both occur (Ruling 12)")
    if solo is not None and open_guard:
        raise ValueError("a solo emperor has no guard to open (明保)")
    if solo == OPEN_SOLO and rebellion:
        raise ValueError("明独保 already holds its ×2: no rebellion doubles it (Ruling 12)")
    if solo is not None:
        if solo not in (OPEN_SOLO, HIDDEN_SOLO):
            raise ValueError(f"solo is 'open' or 'hidden', not {solo!r}")
        place = places[emperor]
        causes: dict[str, int] = {}
        if solo == OPEN_SOLO:
            mine, theirs = open_solo(place)
            mine, theirs = mine // 2, theirs // 2  # the hidden solo's values, ×2 below
            causes["open_solo"] = 2
        else:
            mine, theirs = hidden_solo(place)
            place = 3 if place is None else place
        succeeded = rebellion and theirs > 0
        if succeeded:
            causes["rebellion"] = 2
        factor = _product(causes)
        scores = tuple((mine if s == emperor else theirs) * factor for s in range(PLAYERS))
        return Settlement(scores, mine, None, theirs, factor, causes, succeeded, None, place)
    if guard is None or guard == emperor:
        raise ValueError("a two-player royal side needs a guard other than the emperor")
    royal = _royal_places(emperor, guard, places)
    guard_score = 6 - royal
    rebel = -guard_score
    succeeded = rebellion and rebel > 0
    causes = {"open_guard": 2} if open_guard else {"rebellion": 2} if succeeded else {}
    factor = _product(causes)
    base = {emperor: 2 * guard_score, guard: guard_score}
    scores = tuple(base.get(s, rebel) * factor for s in range(PLAYERS))
    return Settlement(scores, 2 * guard_score, guard_score, rebel, factor, causes, succeeded,
                      royal, places[emperor])


def _product(causes: dict[str, int]) -> int:
    factor = 1
    for x in causes.values():
        factor *= x
    return factor


def _royal_places(emperor: int, guard: int, places: Sequence[int | None]) -> int:
    """e + g; royal players without a place take the places nobody has (Ruling 10)."""
    e, g = places[emperor], places[guard]
    if e is not None and g is not None:
        return e + g
    waiting = [s for s in range(PLAYERS) if places[s] is None]
    if any(s not in (emperor, guard) for s in waiting):
        raise ValueError("play is not over: a royal player and a rebel both still hold cards")
    taken = {p for p in places if p is not None}
    free = [p for p in PLACES if p not in taken]
    return (e or 0) + (g or 0) + sum(free[:len(waiting)])
