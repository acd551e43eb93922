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
    CARD_TEXT,
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
    """The vector of ``view`` (one seat's ``observe``) and the tokens chosen so far.

    Built as a list of the positions that hold a 1 (counted by ``np.bincount``, so a
    card twice is 2), then the few parts that hold other numbers: this runs once per
    decision of every game an agent trains on (benchmarks/rl_bench.py).
    """
    n, axis = layout.players, layout.axis
    me: int = view["seat"]
    at = layout.starts
    ones: list[int] = []
    add = ones.append

    def cards(name: str, text: str, seat: int) -> None:
        base = at[name] + (seat - me) % n * axis
        ones.extend([base + c for c in _axis(text, axis)])

    phase = str(view["phase"])
    add(at["phase"] + (PHASES.index(phase) if phase in PHASES else 0))
    ones.extend([at["acting"] + (s - me) % n for s in view["acting"]])
    ids = _card_ids(tuple(view["hand"]))
    ones.extend([at["hand_cards"] + c for c in ids])
    hand = at["hand"]
    ones.extend([hand + c for c in ids] if axis == 54 else [hand + _RANK_OF[c] for c in ids])
    for s, text in enumerate(view["played"]):
        if text:
            cards("played", text, s)
    detail = view["detail"]
    for shown in detail.get("shown") or ():
        cards("shown", shown["hand"], shown["seat"])
    if isinstance(detail.get("partner"), dict):  # 五人: the landlords see each other's hands
        cards("shown", detail["partner"]["hand"], detail["partner"]["seat"])
    for pile in ("kitty", "pile"):  # 保皇's pile: the cards that travel with the emperor card
        if isinstance(detail.get(pile), str):
            cards("kitty", detail[pile], me)
    table = view["table"]
    if table is not None:
        held, _, meant = table["cards"].partition("=")
        cards("table_cards", held, me)
        cards("table_meaning", meant or held, me)
        add(at["table_seat"] + (table["seat"] - me) % n)
        add(at["table_leader"] + (table["leader"] - me) % n)
        for play in table.get("plays") or ():
            cards("trick", play["cards"], play["seat"])
    width = len(ROLES)
    for s, role in enumerate(view["roles"]):
        add(at["roles"] + (s - me) % n * width + _ROLE_AT.get(role, 0))
    for s, last in enumerate(view["last"]):
        add(at["last"] + (s - me) % n * (HEADS + 1) + _head(last))
    ones.extend([at["warnings"] + (s - me) % n for s in view["warnings"]])
    if isinstance(detail.get("wild"), str):
        add(at["wild"] + RANK_CHARS.index(detail["wild"]))
    if isinstance(detail.get("level"), str):
        add(at["level"] + RANK_CHARS.index(detail["level"]))
    if "trump" in detail:
        trump = detail["trump"]
        suited = isinstance(trump, str) and len(trump) == 1 and trump in SUIT_CHARS
        add(at["trump"] + (SUIT_CHARS.index(trump) if suited else len(SUIT_CHARS)))
    call = detail.get("friend_call")
    if isinstance(call, dict):
        add(at["friend_call"] + int(call["n"]) - 1)
        add(at["friend_call"] + 3 + parse_card(call["card"]))
    for named in ("called", "revealed_card"):  # 保皇's guard call, 五人's revealed card
        if isinstance(detail.get(named), str):
            add(at["named_card"] + parse_card(detail[named]))
    out = np.bincount(ones, minlength=layout.size).astype(np.float32)
    counts = at["counts"]
    for s, k in enumerate(view["counts"]):
        out[counts + (s - me) % n] += k
    out[at["multiplier"]] += float(view["multiplier"]["total"])
    add_selection(layout, out, selection)
    return out


def add_selection(layout: Layout, out: Vector, selection: Sequence[int]) -> None:
    """Count the tokens chosen so far into ``out``'s ``selection`` part, per segment
    (``+`` and ``=`` each start the next one)."""
    base, segment = layout.starts["selection"], 0
    for t in selection:
        if t in _MARKS:
            segment = min(segment + 1, SEGMENTS - 1)
        out[base + segment * SIZE + t] += 1.0


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
_RANK_OF = tuple(card_rank(c) for c in range(len(CARD_TEXT)))
_ROLE_AT = {role: i for i, role in enumerate(ROLES) if role is not None}
_MARKS = frozenset(MARK_AT.values())


@lru_cache(maxsize=4096)
def _card_ids(hand: tuple[str, ...]) -> tuple[int, ...]:
    """Card ids of a view's hand (suited card texts), cached: a hand repeats while its
    seat waits."""
    return tuple(_CARD_ID[c] if c in _CARD_ID else parse_card(c) for c in hand)


_CARD_ID = {text: c for c, text in enumerate(CARD_TEXT)}


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
