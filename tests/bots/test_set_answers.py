"""保皇's answer count equals the plays ``rules.sets.moves`` lists, under every option.

``set_answers.count`` counts the pool's plays that beat a play without
building them; it must give the count the rules' own move list gives (no
bigger than ``most``), on drawn pools and plays: sets with jokers hung on
them, jokers alone, 烤牌 (a play holding a joker is roasted group by group)
and 憋6 (a set of 6s only as the last play: small pools reach it).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardhall import rules
from cardhall.bots.set_answers import count
from cardhall.cards import NUM_RANKS, SIX, SMALL_JOKER
from cardhall.rules import Play, RuleSet

BASE = rules.get("baohuang")
DECK = [r for r, n in enumerate(BASE.limits) for _ in range(n)]
OPTIONS = {(k, b): rules.get("baohuang", kaopai=k, bie6=b) for k in (False, True)
           for b in (False, True)}


def reference(rs: RuleSet, pool: tuple[int, ...], play: Play, most: int) -> int:
    return sum(1 for p in rs.moves(pool, play) if p.size <= most)


@st.composite
def positions(draw: st.DrawFn) -> tuple[RuleSet, tuple[int, ...], Play, int]:
    rs = OPTIONS[draw(st.booleans()), draw(st.booleans())]
    cards = draw(st.permutations(DECK))
    split = draw(st.one_of(st.integers(1, 12), st.integers(1, 90)))
    mine = [0] * NUM_RANKS
    for r in cards[:draw(st.integers(1, 40))]:
        mine[r] += 1
    plays = BASE.moves(tuple(mine))
    play = draw(st.sampled_from(plays))
    pool = [0] * NUM_RANKS
    for r in cards[40:40 + split]:
        pool[r] += 1
    return rs, tuple(pool), play, draw(st.integers(1, 30))


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(positions())
def test_count_is_the_move_lists(position: tuple[RuleSet, tuple[int, ...], Play, int]) -> None:
    rs, pool, play, most = position
    assert count(rs, pool, play, most) == reference(rs, pool, play, most)


def test_the_cases_the_count_turns_on() -> None:
    """Hand-made positions: a joker play under 烤牌, the last 6s under 憋6, none bigger."""
    pool = [0] * NUM_RANKS
    pool[SIX], pool[SMALL_JOKER] = 2, 2
    sevens = BASE.parse_play("77")
    joker = BASE.parse_play("X")
    for rs in OPTIONS.values():
        for play in (sevens, joker):
            for most in (1, 2, 4):
                assert count(rs, tuple(pool), play, most) == reference(rs, tuple(pool), play,
                                                                       most)
    plain = OPTIONS[False, False]
    assert count(plain, tuple(pool), sevens, 2) == 1  # XX only: 66 is lower
    assert count(plain, tuple(pool), sevens, 1) == 0  # no answer of one card beats a pair
    roast = OPTIONS[True, False]
    assert count(roast, tuple(pool), joker, 4) == reference(roast, tuple(pool), joker, 4) > 0
