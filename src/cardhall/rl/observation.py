"""A seat's view as one flat float32 vector, read from ``state.observe(seat)`` only.

The encoding never looks at the game state itself, so it holds exactly what the
seat may know (the games' views are redacted already; tests/rl swap the hidden
cards and compare). Seats are *relative*: position 0 is the observing seat, 1 the
next seat in turn order, and so on. Cards are counted on the variant's card axis:
the 15 ranks ``3`` … ``D`` in the climbing games, the 54 suited cards (``3s`` …
``2d``, ``X``, ``D``) in 找朋友, whose play depends on suits; the own hand is also
counted by suited card in every variant (保皇's guard call names a suited card).
``Layout.sections`` names every part with its offset and size (docs/rl.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from cardhall.cards import (
    RANK_CHARS,
    SUIT_CHARS,
    card_rank,
    parse_card,
    parse_cards,
    parse_ranks,
)
from cardhall.games import Variant
from cardhall.rl.actions import HEADS, MARK_AT, SIZE, VERB_AT, tokens

#: Every phase name of the nine games, in one order.
PHASES = ("start", "ready", "deal", "bid", "call", "rob", "show", "double", "identity",
          "kitty", "emperor", "guard", "disclose", "rebellion", "declare", "bury", "friend",
          "play", "over")
#: Every role a view names; index 0 is "not known to this seat".
ROLES = (None, "landlord", "farmer", "emperor", "guard", "rebel", "dealer", "friend",
         "attacker")
#: The tokens chosen so far in a decision, counted per segment (``+`` and ``=`` start one).
SEGMENTS = 4

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Layout:
    """Where each part of a variant's observation vector lies: (name, offset, size)."""

    players: int
    axis: int
    sections: tuple[tuple[str, int, int], ...]

    @classmethod
    def of(cls, variant: Variant) -> Layout:
        n, axis = variant.players, 54 if variant.suits else len(RANK_CHARS)
        parts = [("phase", len(PHASES)), ("acting", n), ("hand_cards", 54), ("hand", axis),
                 ("counts", n), ("played", n * axis), ("shown", n * axis), ("kitty", axis),
                 ("table_cards", axis), ("table_meaning", axis), ("table_seat", n),
                 ("table_leader", n), ("trick", n * axis), ("roles", n * len(ROLES)),
                 ("last", n * (HEADS + 1)), ("warnings", n), ("multiplier", 1),
                 ("wild", len(RANK_CHARS)), ("level", len(RANK_CHARS)),
                 ("trump", len(SUIT_CHARS) + 1), ("friend_call", 3 + 54),
                 ("named_card", 54), ("selection", SEGMENTS * SIZE)]
        sections, at = [], 0
        for name, size in parts:
            sections.append((name, at, size))
            at += size
        return cls(n, axis, tuple(sections))

    @property
    def size(self) -> int:
        _name, at, size = self.sections[-1]
        return at + size

    @cached_property
    def starts(self) -> dict[str, int]:
        return {name: at for name, at, _size in self.sections}

    def slot(self, name: str) -> slice:
        for key, at, size in self.sections:
            if key == name:
                return slice(at, at + size)
        raise KeyError(name)


def encode(layout: Layout, view: dict[str, Any], selection: Sequence[int]) -> Vector:
    """The vector of ``view`` (one seat's ``observe``) and the tokens chosen so far."""
    out = np.zeros(layout.size, dtype=np.float32)
    n, axis = layout.players, layout.axis
    me: int = view["seat"]
    starts = layout.starts

    def rel(seat: int) -> int:
        return (seat - me) % n

    def put(name: str, index: int, value: float = 1.0) -> None:
        out[starts[name] + index] += value

    def cards(name: str, text: str, seat: int | None = None) -> None:
        base = 0 if seat is None else rel(seat) * axis
        for c in _axis(text, axis):
            put(name, base + c)

    phase = str(view["phase"])
    put("phase", PHASES.index(phase) if phase in PHASES else 0)
    for s in view["acting"]:
        put("acting", rel(s))
    for c in view["hand"]:
        put("hand_cards", parse_card(c))
    cards("hand", " ".join(view["hand"]))
    for s, k in enumerate(view["counts"]):
        put("counts", rel(s), float(k))
    for s, text in enumerate(view["played"]):
        cards("played", text, s)
    detail = view["detail"]
    for shown in detail.get("shown") or ():
        cards("shown", shown["hand"], shown["seat"])
    if isinstance(detail.get("partner"), dict):  # 五人: the landlords see each other's hands
        cards("shown", detail["partner"]["hand"], detail["partner"]["seat"])
    for pile in ("kitty", "pile"):  # 保皇's pile: the cards that travel with the emperor card
        if isinstance(detail.get(pile), str):
            cards("kitty", detail[pile])
    table = view["table"]
    if table is not None:
        held, _, meant = table["cards"].partition("=")
        cards("table_cards", held)
        cards("table_meaning", meant or held)
        put("table_seat", rel(table["seat"]))
        put("table_leader", rel(table["leader"]))
        for play in table.get("plays") or ():
            cards("trick", play["cards"], play["seat"])
    for s, role in enumerate(view["roles"]):
        put("roles", rel(s) * len(ROLES) + (ROLES.index(role) if role in ROLES else 0))
    for s, last in enumerate(view["last"]):
        put("last", rel(s) * (HEADS + 1) + _head(last))
    for s in view["warnings"]:
        put("warnings", rel(s))
    put("multiplier", 0, float(view["multiplier"]["total"]))
    if isinstance(detail.get("wild"), str):
        put("wild", RANK_CHARS.index(detail["wild"]))
    if isinstance(detail.get("level"), str):
        put("level", RANK_CHARS.index(detail["level"]))
    if "trump" in detail:
        trump = detail["trump"]
        suited = isinstance(trump, str) and len(trump) == 1 and trump in SUIT_CHARS
        put("trump", SUIT_CHARS.index(trump) if suited else len(SUIT_CHARS))
    call = detail.get("friend_call")
    if isinstance(call, dict):
        put("friend_call", int(call["n"]) - 1)
        put("friend_call", 3 + parse_card(call["card"]))
    for named in ("called", "revealed_card"):  # 保皇's guard call, 五人's revealed card
        if isinstance(detail.get(named), str):
            put("named_card", parse_card(detail[named]))
    segment = 0
    marks = set(MARK_AT.values())
    for t in selection:
        if t in marks:
            segment = min(segment + 1, SEGMENTS - 1)
        put("selection", segment * SIZE + t)
    return out


def action_row(layout: Layout, text: str) -> Vector:
    """One action's features (``CardhallEnv.action_features``): its first token one-hot,
    its cards on the card axis, what they stand for."""
    row = np.zeros(HEADS + 2 * layout.axis, dtype=np.float32)
    row[_head(text)] = 1.0
    verb, _, arg = text.partition(" ")
    if verb == "call-friend":
        arg = arg.split()[-1]  # the card, not its copy
    if verb in VERB_AT and arg != "none":
        held, _, meant = arg.partition("=")
        for c in _axis(held, layout.axis):
            row[HEADS + c] += 1.0
        for c in _axis(meant or held, layout.axis):
            row[HEADS + layout.axis + c] += 1.0
    return row


@lru_cache(maxsize=8192)
def _axis(text: str, axis: int) -> tuple[int, ...]:
    """Positions on the card axis of a card text (ranks, or suited cards in 找朋友).

    Cached: a view's texts (cards played so far, the hand) repeat from step to step.
    """
    text = text.replace("+", "")
    if not text.strip():
        return ()
    if axis == 54:
        return tuple(parse_cards(text))
    if any(ch in SUIT_CHARS for ch in text):
        return tuple(card_rank(c) for c in parse_cards(text))
    fast = [_RANK_AT.get(ch) for ch in text if ch != " "]
    if None not in fast:  # plain rank characters, as the views write them
        return tuple(r for r in fast if r is not None)
    return tuple(parse_ranks(text))


_RANK_AT = {ch: i for i, ch in enumerate(RANK_CHARS)}


def _head(last: str | None) -> int:
    """The first token of a seat's last action (HEADS for none or a meta action)."""
    if not last:
        return HEADS
    text = last.split(" ", 1)[1] if last.startswith("@") else last
    try:
        head: int = tokens(text)[0]
    except ValueError:
        return HEADS
    return head
