"""The split search's shortcuts agree with the plain computations they replace.

And its memo stays out of the garbage collector's way: worths and packed choices,
numbers it does not track, read back into the same split after a clear.
"""

from __future__ import annotations

import gc
import random

import pytest

from cardhall import rules
from cardhall.bots import hands as hands_module
from cardhall.bots import packed as hands
from cardhall.bots.hands import Planner
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


def _dealt(variant: str, rng: random.Random, size: int) -> list[int]:
    rs = rules.get(variant)
    deck = [r for r, n in enumerate(rs.limits) for _ in range(n)]
    counts = [0] * NUM_RANKS
    for r in rng.sample(deck, size):
        counts[r] += 1
    return counts


@pytest.mark.parametrize("variant, size", [("ddz3", 20), ("ddz4", 33), ("ddz_emperor", 34)])
def test_the_memo_holds_numbers_the_collector_does_not_track(variant: str, size: int) -> None:
    """A tuple per state would be tracked (and count towards a collection) until one ran."""
    rng = random.Random(size)
    p = Planner(rules.get(variant))
    for _ in range(5):
        p.plan(_dealt(variant, rng, size))
    assert p._memo and p._choices
    assert not any(gc.is_tracked(v) for v in (*p._memo.values(), *p._choices.values()))


def test_a_split_is_read_back_whole_when_the_memo_was_cleared_meanwhile(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``plan`` walks the memo's choices; a clear past ``MEMO_LIMIT`` must not cut it short."""
    rng = random.Random(11)
    hands_ = [_dealt("ddz4", rng, 33) for _ in range(4)]
    expected = [Planner(rules.get("ddz4")).plan(h) for h in hands_]
    monkeypatch.setattr(hands_module, "MEMO_LIMIT", 40)
    small = Planner(rules.get("ddz4"))
    assert [small.plan(h) for h in hands_] == expected
    assert len(small._memo) <= 41
