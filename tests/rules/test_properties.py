"""Properties every rule set must have, checked on random hands (hypothesis).

For every variant: each generated move uses only cards of the hand,
classifies back to its own reading and parses back from its text; no move
is listed twice; a follow is exactly the leads that beat the last play; and
for small hands the generator equals the definition (every reading of every
sub-multiset), which is what catches a missing or an extra move.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardhall.cards import NUM_RANKS
from cardhall.rules import RuleSet
from tests.rules.variants import (
    RULESETS,
    brute_force,
    counts_of,
    deck_ranks,
    full_text,
    hand_size,
)

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
IDS = list(RULESETS)


def deals(rs: RuleSet, size: int) -> st.SearchStrategy[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Two disjoint hands of up to ``size`` cards from the variant's deck."""
    def split(perm: list[int], a: int, b: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return counts_of(perm[:a]), counts_of(perm[a:a + b])
    return st.builds(split, st.permutations(deck_ranks(rs)),
                     st.integers(1, size), st.integers(1, size))


@pytest.mark.parametrize("name", IDS)
@SETTINGS
@given(data=st.data())
def test_moves_are_legal_distinct_and_self_describing(name: str, data: st.DataObject) -> None:
    rs = RULESETS[name]
    hand, other = data.draw(deals(rs, hand_size(rs)))
    leads = rs.moves(hand)
    assert len(set(leads)) == len(leads), "a move is listed twice"
    for p in leads:
        used = counts_of(list(p.cards))
        assert all(used[r] <= hand[r] for r in range(NUM_RANKS)), f"{p} uses cards not in hand"
        assert p in rs.classify(used), f"{p} does not classify back to itself"
        assert rs.parse_play(full_text(p)) == p, f"{full_text(p)} does not parse back"
    # A follow is exactly the leads that beat the last play.
    other_leads = rs.moves(other)
    if other_leads:
        last = data.draw(st.sampled_from(other_leads))
        follows = rs.moves(hand, last)
        assert len(set(follows)) == len(follows)
        assert all(rs.beats(p, last) for p in follows)
        assert set(follows) == {p for p in leads if rs.beats(p, last)}


@pytest.mark.parametrize("name", IDS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_small_hands_equal_brute_force(name: str, data: st.DataObject) -> None:
    rs = RULESETS[name]
    limit = 7 if rs.wild is not None else 9
    hand, other = data.draw(deals(rs, limit))
    assert set(rs.moves(hand)) == brute_force(rs, hand)
    readings = [p for p in rs.moves(other)]
    if readings:
        last = data.draw(st.sampled_from(readings))
        assert set(rs.moves(hand, last)) == brute_force(rs, hand, last)


@pytest.mark.parametrize("name", IDS)
@SETTINGS
@given(data=st.data())
def test_beats_is_a_strict_order(name: str, data: st.DataObject) -> None:
    """Irreflexive and asymmetric: equal plays never beat, and two plays never beat each other."""
    rs = RULESETS[name]
    hand, other = data.draw(deals(rs, hand_size(rs)))
    a_moves, b_moves = rs.moves(hand), rs.moves(other)
    if not a_moves or not b_moves:
        return
    a = data.draw(st.sampled_from(a_moves))
    b = data.draw(st.sampled_from(b_moves))
    assert not rs.beats(a, a)
    assert not (rs.beats(a, b) and rs.beats(b, a))
