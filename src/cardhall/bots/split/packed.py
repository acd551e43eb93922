"""Packed hands and kicker-slot counters: the split search's state, one int each.

A hand is one int, ``FIELD`` bits per rank, so that taking a play out is one
subtraction (a guard bit per rank tells whether the play was in hand) and a
memo key is one int; the open kicker slots ride above it, ``SLOT_BITS`` per
slot kind. The helpers here decode the slot counters, and cache what they
decode, since the counters take only a handful of values and the search asks
about them at every state (see ``hands``).
"""

from __future__ import annotations

from collections.abc import Sequence

from cardhall.cards import NUM_RANKS

#: Open kicker slots counted per kind (a plane of five trios is the most any rule needs).
MAX_SLOTS = 5
#: Bits per rank in a packed hand: five for a count (保皇's four packs hold 16 of a rank)
#: and a guard bit on top, so that one subtraction tells whether a play is in the hand.
FIELD = 6
MASK = (1 << (FIELD - 1)) - 1
FIELD_LIMIT = 1 << (FIELD - 1)
GUARD = sum(1 << (FIELD * r + FIELD - 1) for r in range(NUM_RANKS))
SLOT_SHIFT = FIELD * NUM_RANKS
HAND_MASK = (1 << SLOT_SHIFT) - 1
#: Bits per slot kind in the slot counters, which hold ``OFFSET`` + open slots − kickers
#: riding ahead of their carrier (room for a long plane's slots on top of MAX_SLOTS).
SLOT_BITS = 6
OFFSET = 8


def pack(counts: Sequence[int]) -> int:
    """A rank-count vector as one int, ``FIELD`` bits per rank."""
    h = 0
    for r in range(NUM_RANKS - 1, -1, -1):
        h = (h << FIELD) | counts[r]
    return h


def unpack(h: int) -> tuple[int, ...]:
    return tuple((h >> (FIELD * r)) & MASK for r in range(NUM_RANKS))


def slots_ok(slots: int) -> bool:
    """No kind with more than ``MAX_SLOTS`` open (what a carrier may add)."""
    while slots:
        if slots & SLOT_MASK > OFFSET + MAX_SLOTS:
            return False
        slots >>= SLOT_BITS
    return True


def settled(slots: int) -> bool:
    """Every slot filled and every kicker carried: a carrier's kickers are all or none."""
    while slots:
        if slots & SLOT_MASK != OFFSET:
            return False
        slots >>= SLOT_BITS
    return True


SLOT_MASK = (1 << SLOT_BITS) - 1
KINDS = 3  # kicker groups of 1, 2 and 3 cards
#: Slot counters → (kickers owed, cards the open slots need); the counters take few values.
OWED: dict[int, tuple[int, int]] = {}
#: Slot counters → whether every kind is within ``MAX_SLOTS`` of ``OFFSET``.
IN_RANGE: dict[int, bool] = {}
#: Bit ``b`` of every rank's count: a packed hand's card count is five popcounts.
BIT_PLANES = [sum(1 << (FIELD * r + b) for r in range(NUM_RANKS)) for b in range(FIELD - 1)]


#: Slot counters → (within range, kickers owed, cards the open slots need): what the
#: search asks of a move's counters, in one look-up.
SLOT_INFO: dict[int, tuple[bool, int, int]] = {}


def slot_info(slots: int) -> tuple[bool, int, int]:
    """``in_range`` and ``owed`` of the counters together (cached in ``SLOT_INFO``)."""
    found = SLOT_INFO[slots] = (in_range(slots), *owed(slots))
    return found


def owed(slots: int) -> tuple[int, int]:
    """(kickers riding ahead of their carrier, cards the open slots still need)."""
    debt = supply = 0
    size = 1
    while slots:
        field = slots & SLOT_MASK
        if field < OFFSET:
            debt += OFFSET - field
        else:
            supply += (field - OFFSET) * size
        slots >>= SLOT_BITS
        size += 1
    return debt, supply


def in_range(slots: int) -> bool:
    """No kind with more than ``MAX_SLOTS`` open or owed (cached in ``IN_RANGE``)."""
    ok = True
    rest = slots
    while rest:
        if not OFFSET - MAX_SLOTS <= rest & SLOT_MASK <= OFFSET + MAX_SLOTS:
            ok = False
        rest >>= SLOT_BITS
    IN_RANGE[slots] = ok
    return ok


def card_count(h: int) -> int:
    """Cards in a packed hand (counts are ``FIELD - 1`` bits): one popcount per bit plane."""
    b0, b1, b2, b3, b4 = BIT_PLANES
    return ((h & b0).bit_count() + ((h & b1).bit_count() << 1) + ((h & b2).bit_count() << 2)
            + ((h & b3).bit_count() << 3) + ((h & b4).bit_count() << 4))


def slot_count(opens: int) -> int:
    """Slots a carrier opens, all kinds together."""
    n = 0
    while opens:
        n += opens & SLOT_MASK
        opens >>= SLOT_BITS
    return n


