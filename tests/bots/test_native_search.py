"""The split search's C loop (``_search.c``) finds what the Python loop finds, to the last bit.

Every value a bot decides on comes from one of the two, so they must agree on
every worth (the same sums in the same order), every split (the same ties
broken the same way), the relaxed bounds and the wild-card greedy; and bots
running either must play the same games. The C loop is built by the install
(setup.py): where it is missing, the bots still play, many times slower, and
the first test says so.
"""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardhall import bots, rules
from cardhall.bots.split import native as native_loop
from cardhall.bots.split.hands import Planner
from cardhall.bots.split.mirror import TIE_MARGIN, MirrorPlanner
from cardhall.bots.split.packed import SLOT_SHIFT
from cardhall.bots.split.relaxed import RelaxedPlanner
from cardhall.cards import RANK_CHARS
from cardhall.games import VARIANTS, new_game
from tests.bots.scenario import hand_from

CLIMBING = [v.id for v in VARIANTS.values() if v.family == "climbing"]




def test_the_c_loop_is_built() -> None:
    assert native_loop.BUILT, "cardhall.bots.split._search was not built: pip install -e ."
    assert Planner(rules.get("ddz3"))._core is not None  # bots run it by default


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(CLIMBING), st.lists(st.integers(0, 9999), min_size=1, max_size=40),
       st.booleans())
def test_worths_and_splits_are_the_python_loops(variant: str, cards: list[int],
                                                mirrored: bool) -> None:
    rs = rules.get(variant)
    hand = hand_from(rs, cards)
    kind = MirrorPlanner if mirrored else Planner
    python, c = kind(rs, native=False), kind(rs, native=True)
    assert c.worth(hand) == python.worth(hand)
    if not mirrored:
        assert c.plan(hand) == python.plan(hand)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(CLIMBING[:-1]), st.lists(st.integers(0, 9999), min_size=1, max_size=40),
       st.sets(st.integers(0, 12), min_size=1, max_size=4))
def test_relaxed_bounds_are_the_python_loops(variant: str, cards: list[int],
                                             ranks: set[int]) -> None:
    rs = rules.get(variant)
    hand = hand_from(rs, cards)
    worths = []
    for native in (False, True):
        plain = MirrorPlanner(rs, native=native)
        relaxed = RelaxedPlanner(rs, plain)
        worths.append((relaxed.worth_at(hand, frozenset(ranks)), plain.worth(hand)))
    assert worths[0] == worths[1]
    assert worths[1][0] >= worths[1][1]  # a relaxation: never below the plain worth


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 9999), min_size=1, max_size=20), st.integers(0, 12),
       st.integers(1, 4))
def test_wild_worths_are_the_python_greedys(cards: list[int], wild: int, spare: int) -> None:
    rs = rules.get("ddz3_laizi")
    hand = hand_from(rs, cards)
    hand[wild] = min(rs.limits[wild], spare)
    assert Planner(rs, native=True).worth_wild(hand, wild) \
        == Planner(rs, native=False).worth_wild(hand, wild)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 9999), min_size=1, max_size=20), st.integers(0, 12),
       st.integers(1, 4), st.tuples(st.integers(0, 12), st.integers(0, 12)))
def test_wild_tries_from_either_search_place_the_cards_as_the_top_down_greedy(
        cards: list[int], wild: int, spare: int, span: tuple[int, int]) -> None:
    """``worth_wild_two``: each try from the search sharing more, ties valued top-down."""
    rs = rules.get("ddz3_laizi")
    hand = hand_from(rs, cards)
    hand[wild] = 0
    down, up = Planner(rs, native=True), MirrorPlanner(rs, native=True)
    assert down._core is not None and up._core is not None
    low, high = sorted(span)
    value, exact, state = down._core.worth_wild_two(
        down._pack(hand) | (down._empty_slots << SLOT_SHIFT), spare, wild, rs.limits, up._core,
        up._pack(hand) | (up._empty_slots << SLOT_SHIFT), low, high, TIE_MARGIN)
    counts = list(hand)
    counts[wild] = spare
    greedy = Planner(rs, native=False).worth_wild(counts, wild)
    assert down._core.solve(state) + 0.5 * spare == greedy  # the greedy's placement, exactly
    assert value == greedy if exact else abs(value - greedy) < TIE_MARGIN


def test_the_python_loop_shares_the_c_loops_memo() -> None:
    """A capped decision runs the Python loop over the same memo (``Planner.limit``)."""
    rs = rules.get("ddz_emperor")
    hand = hand_from(rs, list(range(1, 69, 2)))
    planner = Planner(rs, native=True)
    whole = planner.worth(hand)
    state = planner._pack(hand) | (planner._empty_slots << SLOT_SHIFT)
    assert planner._memo.get(state) == whole
    planner.limit(10)  # far too few states for a search of its own
    assert planner.worth(hand) == whole and not planner.spent
    planner._memo[state + 1] = 1.5
    assert planner._memo.get(state + 1) == 1.5
    planner.limit(None)
    assert planner.worth(hand) == whole


@pytest.mark.parametrize("bad", [-1, 1 << 128, 2.5, "3"])
def test_a_state_that_is_no_packed_hand_is_refused(bad: object) -> None:
    planner = Planner(rules.get("ddz3"), native=True)
    assert planner._core is not None
    with pytest.raises((OverflowError, TypeError)):
        planner._core.solve(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="never 0"):
        planner._core.solve(0)  # no slot counters: no state the search makes
    with pytest.raises(ValueError, match="top-down"):
        MirrorPlanner(rules.get("ddz3"), native=True)._core.worth_wild(  # type: ignore[union-attr]
            planner._empty_slots << SLOT_SHIFT, 1, 0, rules.get("ddz3").limits)


def test_a_core_is_set_up_once() -> None:
    planner = Planner(rules.get("ddz3"), native=True)
    assert planner._core is not None
    with pytest.raises(RuntimeError, match="set up once"):
        planner._core.__init__()  # type: ignore[misc, call-arg]
    assert planner.worth([3] * 13 + [1, 1]) == Planner(rules.get("ddz3"), native=False).worth(
        [3] * 13 + [1, 1])


def _trace(variant: str, games: int) -> str:
    digest = hashlib.sha256()
    for g in range(games):
        state = new_game(variant, seed=500 + g)
        seats = [bots.make("planning", variant=variant, seat=s, seed=g)
                 for s in range(state.players)]
        while not state.over:
            seat = state.to_act
            assert seat is not None
            action = seats[seat].act(state.observe(seat))
            digest.update(action.encode() + b"\n")
            state.apply(action)
    return digest.hexdigest()


@pytest.mark.parametrize("variant", CLIMBING)
def test_bots_play_the_same_games_on_either_loop(variant: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    c = _trace(variant, 6)
    monkeypatch.setattr(native_loop, "NATIVE", False)
    assert _trace(variant, 6) == c


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 53), min_size=6, max_size=20, unique=True), st.integers(0, 12),
       st.integers(1, 4))
def test_each_candidates_rest_is_valued_as_the_python_greedy(cards: list[int], wild: int,
                                                            held: int) -> None:
    """``Core.wild_worths`` (``wild_worth.fast_scores``' loop): each play's rest valued by the
    greedy, from the search that meets fewer new cards; top-down, exactly the Python one's."""
    rs = rules.get("ddz3_laizi", wild=RANK_CHARS[wild])
    hand = hand_from(rs, cards)
    hand[wild] = min(rs.limits[wild], held)
    down, up = Planner(rs, native=True), MirrorPlanner(rs, native=True)
    assert down._core is not None and up._core is not None
    base = list(hand)
    base[wild] = 0
    plays = rs.moves(hand)[:80]
    worths = down._core.wild_worths(
        plays, down._pack(base) | (down._empty_slots << SLOT_SHIFT),
        up._pack(base) | (up._empty_slots << SLOT_SHIFT), hand[wild], wild, rs.limits, up._core,
        TIE_MARGIN)
    python = Planner(rs, native=False)
    for p, (worth, exact, state, bonus) in zip(plays, worths, strict=True):
        rest = list(hand)
        for r in p.cards:
            rest[r] -= 1
        # The search each try goes to: as worth_wild_two's own (the play's lowest and
        # highest rank other than the wild one), or, with no wild card left, the same rule.
        ranks = [r for r in p.cards if r != wild] or [wild]
        rest_base = list(rest)
        rest_base[wild] = 0
        rest_down = down._pack(rest_base) | (down._empty_slots << SLOT_SHIFT)
        rest_up = up._pack(rest_base) | (up._empty_slots << SLOT_SHIFT)
        if rest[wild]:
            assert (worth, exact, state) == down._core.worth_wild_two(
                rest_down, rest[wild], wild, rs.limits, up._core, rest_up, min(ranks),
                max(ranks), TIE_MARGIN)
        else:
            below = sum(rest_base[: max(ranks) + 1])
            mirrored = below < sum(rest_base[min(ranks):])
            assert (worth, exact, state) == (up._core.solve(rest_up) if mirrored
                                             else down._core.solve(rest_down), not mirrored,
                                             rest_down)
        greedy = python.worth_wild(rest, wild)
        assert bonus == 0.5 * rest[wild]
        assert down._core.solve(state) + bonus == greedy  # the greedy's placement, exactly
        assert worth == greedy if exact else abs(worth - greedy) < TIE_MARGIN


def test_a_play_of_more_wild_cards_than_held_is_refused() -> None:
    rs = rules.get("ddz3_laizi", wild="5")
    down, up = Planner(rs, native=True), MirrorPlanner(rs, native=True)
    assert down._core is not None and up._core is not None
    empty = down._empty_slots << SLOT_SHIFT
    play = rs.moves(rs.hand("55"))[-1]
    with pytest.raises(ValueError, match="more wild cards"):
        down._core.wild_worths([play], empty, empty, 1, 2, rs.limits, up._core, TIE_MARGIN)
    with pytest.raises(ValueError, match="top-down core and a mirrored"):
        down._core.wild_worths([play], empty, empty, 2, 2, rs.limits, down._core, TIE_MARGIN)
