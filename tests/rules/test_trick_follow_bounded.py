"""找朋友's follow generation is bounded and unchanged (issue 25).

Unchanged: on small random hands, ``follows`` (complete lists, and the cheapest plus the
seeded sample past the limit), ``cheapest_follow`` and ``tractor_vector`` equal the
listing as it was (``trick_follow_reference``), and ``follow_error`` passes exactly the
listed follows. Bounded: the largest leads a hand can make — a whole hand of one side
suit, all trumps, many pairs, many short tractors — are answered by ``legal_actions``,
``check`` and ``apply`` within a count of Python calls (``calls_at_most``), where the old
listing never returned.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardhall.cards import deck, format_cards, parse_cards
from cardhall.games import new_game
from cardhall.games.zhaopengyou import ZhaoPengyou
from cardhall.rules.trick import TRUMP, lead_of, pair_profile, trumps
from cardhall.rules.trick_follow import (
    FOLLOW_LIMIT,
    cheapest_follow,
    follow_error,
    follows,
    tractor_vector,
)
from tests.games.test_zhaopengyou import make_deal
from tests.rules import trick_follow_reference as reference


class TooManyCalls(AssertionError):
    pass


@contextmanager
def calls_at_most(budget: int) -> Iterator[list[int]]:
    """Fail (rather than hang) once the block has made ``budget`` Python calls."""
    made = [0]

    def count(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            made[0] += 1
            if made[0] > budget:
                raise TooManyCalls(f"more than {budget} calls")

    sys.setprofile(count)
    try:
        yield made
    finally:
        sys.setprofile(None)


# -- the same answers as before, on small hands ---------------------------------------------


@st.composite
def positions(draw: st.DrawFn) -> tuple[Any, ...]:
    """A trump context, a lead of one group and a follower's hand, from the cards three packs
    leave; groups are cut to a few adjacent faces at times, so pairs and tractors abound."""
    ctx = trumps(draw(st.integers(0, 12)), draw(st.integers(0, 3)))
    groups = [TRUMP] + [s for s in range(4) if s != ctx.suit]
    group = draw(st.sampled_from(groups))
    faces = sorted({c for c in range(54) if ctx.group[c] == group}, key=lambda c: ctx.step[c])
    if draw(st.booleans()):
        lo = draw(st.integers(0, max(0, len(faces) - 5)))
        faces = faces[lo:lo + draw(st.integers(2, 6))]
    pool = [c for c in faces for _ in range(3)]
    lead = draw(st.lists(st.sampled_from(range(len(pool))), min_size=1, max_size=8,
                         unique=True))
    lead_cards = [pool[i] for i in lead]
    left = [pool[i] for i in range(len(pool)) if i not in lead]
    mine = draw(st.lists(st.sampled_from(range(len(left))), max_size=12, unique=True)
                ) if left else []
    suit = [left[i] for i in mine]
    others = [c for c in deck(3) if ctx.group[c] != group]
    extra = max(len(lead_cards) - len(suit), 0) + draw(st.integers(0, 4))
    rng = random.Random(draw(st.integers(0, 1 << 16)))
    hand = suit + rng.sample(others, extra)
    return ctx, lead_of(lead_cards, ctx), hand, draw(st.integers(0, 1 << 16))


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_follows_as_before(position: tuple[Any, ...]) -> None:
    ctx, lead, hand, seed = position
    for limit in (FOLLOW_LIMIT, 12, 3):
        got = follows(lead, hand, ctx, limit=limit, rng=random.Random(seed))
        assert got == reference.follows(lead, hand, ctx, limit, random.Random(seed))
    assert cheapest_follow(lead, hand, ctx) == reference.Plan(lead, hand, ctx).cheapest()
    suit = [c for c in hand if ctx.group[c] == lead.group]
    if lead.shape.tractors:
        lengths = lead.shape.tractors
        assert (tractor_vector(pair_profile(suit, ctx), lengths)
                == reference.tractor_vector(pair_profile(suit, ctx), lengths))


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.randoms(use_true_random=False))
def test_follow_error_passes_exactly_the_listed(position: tuple[Any, ...],
                                                rng: random.Random) -> None:
    ctx, lead, hand, _ = position
    listed, complete = reference.follows(lead, hand, ctx, 10**9)
    assert complete
    for play in listed:
        assert follow_error(lead, hand, play, ctx) is None
    tried = [tuple(sorted(rng.sample(hand, lead.size))) for _ in range(20)]
    for play in tried:
        assert (follow_error(lead, hand, play, ctx) is None) == (play in listed), play


# -- the largest leads, answered within a bound ----------------------------------------------


def throw_deal(dealer_cards: str, declare: list[str], hands: dict[int, str] | None = None,
               kitty: str = "") -> ZhaoPengyou:
    """Seat 0 deals (level 2) holding ``dealer_cards``; ``declare`` runs the window; he buries
    what the kitty gave him and calls; it is his lead."""
    spec = {0: dealer_cards, **(hands or {})}
    state = new_game("zhaopengyou", seed=0,
                     options={"deal": make_deal(spec, kitty, seed=1), "dealer": 0})
    assert isinstance(state, ZhaoPengyou)
    for text in declare:
        state.apply(text)
    kept = Counter(parse_cards(dealer_cards))
    spare = sorted((Counter(state.hands[0]) - kept).elements())[:7]
    state.apply(f"bury {format_cards(spare)}")
    state.apply("call-friend 3 D")
    return state


def answer_all(state: ZhaoPengyou, lead: str, budget: int) -> None:
    """Seat 0 leads ``lead`` (it must hold); every follower's legal_actions, check of a listed
    and of an illegal play, and apply stay within ``budget`` calls each."""
    events = state.apply(f"play {lead}")
    assert events[0]["type"] == "play", events  # the throw held
    while state.trick:
        seat = state.to_act
        assert seat is not None and state.lead is not None
        with calls_at_most(budget):
            legal = state.legal_actions()
        assert legal and len(legal) <= FOLLOW_LIMIT
        hand = state.hands[seat]
        wrong = sorted(hand, key=lambda c: (state.ctx is not None
                                            and state.ctx.group[c] == state.lead.group, c))
        illegal = f"play {format_cards(wrong[:state.lead.size])}"
        state._changed()  # judge afresh: check lists nothing it need not
        with calls_at_most(budget):
            assert state.check(legal[-1]) is None
            verdict = state.check(illegal)
        assert verdict is None or "follow" in verdict or "must" in verdict or "hold" in verdict
        with calls_at_most(budget):
            state.apply(legal[-1] if verdict is None else legal[0])
        state.observe(seat)


BUDGET = 300_000

SIDE = ("Ad Ad Ad Kd Kd Kd Qd Qd Qd Jd Jd Jd Td Td Td 9d 9d 9d 8d 8d 8d 7d 7d 7d 6d 6d 6d "
        "5d 5d 4d 4d")
TRUMPS = ("D D D X X X 2s 2s 2s 2h 2h 2h 2c 2c 2c 2d 2d 2d As As As Ks Ks Ks Qs Qs Qs Js Js Js "
          "Ts")


def test_a_whole_hand_of_one_side_suit() -> None:
    """The issue's position: 31 diamonds thrown whole; seat 1 used never to answer."""
    state = throw_deal(SIDE, ["pass", "declare 2s 2s", *["pass"] * 5], {1: "2s 2s"})
    answer_all(state, SIDE, BUDGET)


def test_a_whole_hand_of_trumps() -> None:
    state = throw_deal(TRUMPS, ["declare 2s", *["pass"] * 5])
    answer_all(state, TRUMPS, BUDGET)


def test_spread_pairs_against_lower_pairs() -> None:
    """A throw of spread pairs holds when the leader also holds the pairs between them; a
    follower holding pairs below them chooses which to give."""
    lead = "Ah Ah Qh Qh Th Th 8h 8h"
    followers = {1: "7h 7h 6h 6h 5h 5h 4h 4h 3h 3h", 2: "7h 6h 5h 4h 3h"}
    state = throw_deal(f"{lead} Kh Kh Jh Jh 9h 9h",
                       ["pass", "pass", "pass", "declare 2s 2s", *["pass"] * 5],
                       {**followers, 3: "2s 2s"})
    answer_all(state, lead, BUDGET)


@pytest.mark.parametrize(("lead", "hand"), [
    # seven spread pairs against fifteen pairs: 6 435 ways to choose the owed pairs
    ("3s 3s 5s 5s 7s 7s 9s 9s Js Js Ks Ks 2h 2h 4s 6s 8s Ts",
     "3s 3s 4s 4s 5s 5s 6s 6s 7s 7s 8s 8s 9s 9s Ts Ts 2h 2h 2c 2c 2d 2d 2s 2s X X D D As As Ks"),
    # five tractors of two pairs against a pair on every trump step
    ("3s 3s 4s 4s 6s 6s 7s 7s 9s 9s Ts Ts Qs Qs Ks Ks 2h 2h 2s 2s",
     "3s 3s 4s 4s 5s 5s 6s 6s 7s 7s 8s 8s 9s 9s Ts Ts Js Js Qs Qs Ks Ks As As 2h 2h 2c 2c 2d "
     "2d X"),
    ("3s 3s 4s 4s 6s 6s 7s 7s 9s 9s Ts Ts Qs Qs Ks Ks 2h 2h 2s 2s X X D D",
     "3s 3s 4s 4s 5s 5s 6s 6s 7s 7s 8s 8s 9s 9s Ts Ts Js Js Qs Qs Ks Ks As As 2h 2h 2c 2c 2d "
     "2d D"),
])
def test_rules_level_worst_cases(lead: str, hand: str) -> None:
    """Leads no deal lets stand (a higher pair is out), judged as if they did."""
    ctx = trumps(parse_cards("2s")[0] // 4, parse_cards("2s")[0] % 4)
    the_lead, cards = lead_of(parse_cards(lead), ctx), list(parse_cards(hand))
    assert len(cards) == 31
    with calls_at_most(BUDGET):
        listed, _ = follows(the_lead, cards, ctx)
        cheapest = cheapest_follow(the_lead, cards, ctx)
    assert cheapest in listed
    with calls_at_most(BUDGET // 10):
        for play in listed[:20]:
            assert follow_error(the_lead, cards, play, ctx) is None
