"""The split search's shortcuts agree with the plain computations they replace."""

from __future__ import annotations

import random

from cardhall.bots.split import packed as hands
from cardhall.cards import NUM_RANKS


def test_card_count_is_the_sum_of_the_packed_counts() -> None:
    rng = random.Random(3)
    for _ in range(500):
        counts = [rng.randrange(hands.FIELD_LIMIT) for _ in range(NUM_RANKS)]
        assert hands.card_count(hands.pack(counts)) == sum(counts)


def test_slot_counters_decoded_as_the_loop_over_kinds_does() -> None:
    rng = random.Random(5)
    for _ in range(300):
        fields = [rng.randrange(hands.OFFSET - hands.MAX_SLOTS - 1,
                                hands.OFFSET + hands.MAX_SLOTS + 2) for _ in range(hands.KINDS)]
        slots = sum(f << (hands.SLOT_BITS * k) for k, f in enumerate(fields))
        debt = sum(hands.OFFSET - f for f in fields if f < hands.OFFSET)
        supply = sum((f - hands.OFFSET) * (k + 1)
                     for k, f in enumerate(fields) if f >= hands.OFFSET)
        assert hands.owed(slots) == (debt, supply)
        inside = all(abs(f - hands.OFFSET) <= hands.MAX_SLOTS for f in fields)
        assert hands.in_range(slots) is inside
        assert hands.slots_ok(slots) is all(f <= hands.OFFSET + hands.MAX_SLOTS for f in fields)
