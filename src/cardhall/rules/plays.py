"""A play: one reading of a set of cards in a climbing game.

The same cards can have several readings (``333444555666`` is a trio chain, a
plane carrying 6-6-6, or a plane of 4-5-6 carrying 3-3-3), so a play is the
cards *and* the reading: kind, key, chain length, and which cards are the main
part and which the kickers. Its text says all of that: main part first,
kickers after ``+``. In the wildcard game a play also records what each wild
card stands for (``as_main`` / ``as_kickers``); the plain fields keep the
cards actually played.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardhall.cards import RANK_CHARS, Rank, format_ranks
from cardhall.rules.frozen import maker


@dataclass(frozen=True, slots=True)
class Play:
    kind: str
    #: Rank that decides comparison (top of a chain, the trio of a trio+pair).
    key: Rank
    #: Chain units (1 for a hand that is not a chain).
    length: int
    #: Cards of the main part, ascending, as actually played.
    main: tuple[Rank, ...]
    #: Kicker cards, ascending, as actually played.
    kickers: tuple[Rank, ...] = ()
    #: Bomb class in the variant's ladder; 0 for every hand that is not a bomb.
    tier: int = 0
    #: Second key, only for 飞船 (the top of its trio chain); -1 elsewhere.
    subkey: Rank = -1
    #: Wildcard plays: the ranks the main part / kickers stand for; None when natural.
    as_main: tuple[Rank, ...] | None = None
    as_kickers: tuple[Rank, ...] | None = None

    @property
    def size(self) -> int:
        return len(self.main) + len(self.kickers)

    @property
    def cards(self) -> tuple[Rank, ...]:
        return self.main + self.kickers

    @property
    def is_bomb(self) -> bool:
        return self.tier > 0

    @property
    def text(self) -> str:
        """Canonical text: ``"333444+56"``; parses back to this reading."""
        return _text(self.main, self.kickers)

    @property
    def as_text(self) -> str | None:
        if self.as_main is None:
            return None
        return _text(self.as_main, self.as_kickers or ())

    @property
    def key_text(self) -> str:
        return RANK_CHARS[self.key] + (RANK_CHARS[self.subkey] if self.subkey >= 0 else "")

    def to_json(self) -> dict[str, Any]:
        """The stable JSON shape of the command line and the wire protocol."""
        out: dict[str, Any] = {
            "cards": self.text,
            "kind": self.kind,
            "key": self.key_text,
            "length": self.length,
        }
        if self.is_bomb:
            out["bomb"] = self.tier
        as_text = self.as_text
        if as_text is not None:
            out["as"] = as_text
        return out

    def __repr__(self) -> str:
        extra = f" as {self.as_text}" if self.as_main is not None else ""
        return f"<Play {self.kind} {self.text}{extra} key={self.key_text} n={self.length}>"


def _text(main: tuple[Rank, ...], kickers: tuple[Rank, ...]) -> str:
    text = format_ranks(main)
    return f"{text}+{format_ranks(kickers)}" if kickers else text


#: ``Play(kind, key, ...)`` with every field given, for the generators' hot loops
#: (``rules.frozen``: a wildcard lead makes thousands of new plays).
new_play: Callable[[str, Rank, int, tuple[Rank, ...], tuple[Rank, ...], int, Rank,
                    tuple[Rank, ...] | None, tuple[Rank, ...] | None], Play] = maker(Play)
