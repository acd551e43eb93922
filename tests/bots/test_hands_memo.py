"""The split search's memo holds plain numbers, and the split is read back from them.

Each state's worth and its path link (the move taken, the state it leads to)
are stored as a float and an int, which the garbage collector never tracks,
so a search makes it collect no sooner; ``plan`` reads the split back from the
links, and must find the hand's own cards in it, the same split whatever
other hands the memo was filled by, before and after the memo is cleared.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardhall import rules
from cardhall.bots.split import hands
from cardhall.bots.split import native as native_loop
from cardhall.bots.split.hands import Planner
from cardhall.bots.split.mirror import MirrorPlanner
from tests.bots.scenario import hand_from

VARIANTS = ("ddz3", "ddz4", "ddz_emperor", "baohuang")




def _cards(planner: Planner, counts: Sequence[int]) -> list[int]:
    return sorted(r for g in planner.plan(counts).groups for r in g.cards)


@pytest.mark.parametrize("native", [False, True], ids=["python", "c"])
def test_a_search_allocates_nothing_the_collector_tracks(native: bool) -> None:
    rs = rules.get("ddz_emperor")
    hand = hand_from(rs, range(1, 69, 2))
    Planner(rs, native=native).worth(hand)  # the move tables and slot caches, once per rule set
    planner = Planner(rs, native=native)
    enabled = gc.isenabled()
    gc.disable()
    try:
        before = gc.get_count()[0]
        planner.worth(hand)
        made = gc.get_count()[0] - before
    finally:
        if enabled:
            gc.enable()
    assert len(planner._memo) > 5000  # a tuple per state would have counted that many
    assert made < 10
    if not native:  # the C loop's memo holds no Python objects at all
        assert not gc.is_tracked(planner._memo) and not gc.is_tracked(planner._path)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(VARIANTS), st.lists(st.integers(0, 999), min_size=1, max_size=34),
       st.lists(st.integers(0, 999), min_size=1, max_size=34), st.booleans())
def test_the_split_read_back_holds_the_hand_whatever_else_was_searched(
        variant: str, cards: list[int], other: list[int], native: bool) -> None:
    rs = rules.get(variant)
    hand, before = hand_from(rs, cards), hand_from(rs, other)
    fresh = Planner(rs, native=native)
    split = fresh.plan(hand)
    assert _cards(fresh, hand) == sorted(r for r, n in enumerate(hand) for _ in range(n))
    shared = Planner(rs, native=native)
    shared.plan(before)  # states the hand's search meets again, links written by another
    assert shared.plan(hand) == split
    assert shared.worth(hand) == split.worth


@pytest.mark.parametrize("native", [False, True], ids=["python", "c"])
def test_the_split_survives_the_memo_being_cleared(monkeypatch: pytest.MonkeyPatch,
                                                   native: bool) -> None:
    rs = rules.get("ddz3")
    hand = hand_from(rs, range(0, 51, 3))  # a dealt hand of 17: some hundred states
    fresh = Planner(rs, native=native)
    split = fresh.plan(hand)
    assert 0 < len(fresh._path) < len(fresh._memo)  # dead ends and the empty hand: no link
    limit = len(fresh._memo) // 3  # cleared mid-search
    monkeypatch.setattr(native_loop if native else hands, "MEMO_LIMIT", limit)
    small = Planner(rs, native=native)
    assert small.plan(hand) == split
    assert len(small._memo) <= limit + 1
    assert len(small._path) <= len(small._memo)


@pytest.mark.parametrize("native", [False, True], ids=["python", "c"])
def test_more_moves_than_a_link_numbers_is_an_error(monkeypatch: pytest.MonkeyPatch,
                                                    native: bool) -> None:
    class Fresh(MirrorPlanner):
        tables = f"/test-link-bits-{native}"  # move tables of its own, numbered from 0

    monkeypatch.setattr(hands, "LINK_BITS", 3)
    with pytest.raises(OverflowError, match="more moves than a path link numbers"):
        Fresh(rules.get("ddz3"), native=native).worth(hand_from(rules.get("ddz3"), range(0, 54, 3)))
