"""Set-up decisions of the planning bot, table-driven, on real observations.

Each decision turns on the hand's percentile among dealt hands (``setup.percentile``
of ``setup.rating``); the 保皇 answers are checked against the percentile given
directly, so each row says what the bot does with a hand of that strength, and
the percentile itself is checked on hands everyone would rank the same way.
"""

from __future__ import annotations

from typing import Any

import pytest

from cardhall.bots import make, setup
from cardhall.bots.planning import Policy
from cardhall.bots.view import rule_set
from cardhall.cards import parse_ranks
from cardhall.games import new_game
from cardhall.games.baohuang import Baohuang
from tests.bots.scenario import deal


def bh(hands: list[str], actions: list[str], seat: int, mode: str = "classic",
       **options: Any) -> tuple[dict[str, Any], list[str]]:
    """A 保皇 puzzle deal (``emperor_card`` at seat 0), advanced by ``actions``; seat's view."""
    state = new_game("baohuang", seed=0, options={
        "deal": {"hands": hands}, "mode": mode, "emperor_card": 0, **options})
    assert isinstance(state, Baohuang)
    for action in actions:
        state.apply(action)
    obs = state.observe(seat)
    return obs, [a.text for a in state.legal_actions()]


TRIPLE = "D 7s 7s 7s 9h"      # one card held three times: a guard can be called
NO_TRIPLE = "D 7s 7s 9h 9h"   # nothing to call: the open solo would be all that is left
CALLS = "D 7s 7s 7s As As As 9h 9h 9h 9h"  # 7s and As three times, 9h all four


@pytest.mark.parametrize(("hand", "mode", "p", "answer"), [
    (TRIPLE, "classic", 0.50, "accept"),
    (TRIPLE, "classic", 0.30, "cede"),          # weak: the emperor's double stake is a risk
    (NO_TRIPLE, "classic", 0.50, "cede"),       # could name no guard
    (NO_TRIPLE, "classic", 0.98, "accept"),     # strong enough to play alone
    (NO_TRIPLE, "simple", 0.50, "accept"),      # simple mode: the guard card names the guard
])
def test_emperor_card(hand: str, mode: str, p: float, answer: str) -> None:
    obs, legal = bh([hand, "X 6h", "6d", "8h", "8d"], [], 0, mode)
    assert setup.baohuang(obs, legal, p) == answer


def test_a_forced_holder_accepts() -> None:
    obs, legal = bh([TRIPLE, "6h", "6d", "8h", "8d"], ["cede"] * 5, 0)
    assert legal == ["accept"] and setup.baohuang(obs, legal, 0.1) == "accept"


@pytest.mark.parametrize(("p", "answer"), [
    (0.50, "call As"),   # the highest card held three times: a guard, not a solo
    (0.93, "call 9h"),   # all four 9h: 暗独保 with a hand that expects to go out first
    (0.98, "solo"),      # 明独保 with the strongest
])
def test_guard_call(p: float, answer: str) -> None:
    obs, legal = bh([CALLS, "6h", "6d", "8h", "8d"], ["accept"], 0)
    assert setup.baohuang(obs, legal, p) == answer


def test_only_four_copies_call_the_hidden_solo_rather_than_the_open_one() -> None:
    obs, legal = bh(["D 9h 9h 9h 9h", "6h", "6d", "8h", "8d"], ["accept"], 0)
    assert legal == ["call 9h", "solo"]
    assert setup.baohuang(obs, legal, 0.5) == "call 9h"


@pytest.mark.parametrize(("p", "answer"), [(0.5, "hidden-solo"), (0.98, "solo")])
def test_simple_mode_emperor_with_the_guard_card(p: float, answer: str) -> None:
    obs, legal = bh(["X D 7h", "9h", "8h", "Th", "Jh"], ["accept"], 0, "simple", guard_card=0)
    assert setup.baohuang(obs, legal, p) == answer


@pytest.mark.parametrize(("p", "answer"), [(0.995, "rob-solo"), (0.9, "no")])
def test_rob_the_solo(p: float, answer: str) -> None:
    obs, legal = bh(["D 8s 8s 8s", "7h", "6h", "8s 9h", "Th"], ["accept", "call 8s"], 4,
                    qiangdu=True)
    assert legal == ["rob-solo", "no"]
    assert setup.baohuang(obs, legal, p) == answer


@pytest.mark.parametrize(("p", "answer"), [(0.85, "open"), (0.5, "hidden")])
def test_guard_disclosure(p: float, answer: str) -> None:
    obs, legal = bh(["D 8s 8s 8s", "8s 9h", "6h", "7h", "Th"], ["accept", "call 8s"], 1)
    assert legal == ["open", "hidden"] and obs["roles"][1] == "guard"
    assert setup.baohuang(obs, legal, p) == answer


@pytest.mark.parametrize(("seat", "p", "answer"), [
    (2, 0.7, "rebel"),   # a rebel with a good hand: a won rebellion counts double
    (2, 0.4, "no"),
    pytest.param(1, 0.9, "no"),  # the guard never
])                                                          # doubles his own loss
def test_rebellion(seat: int, p: float, answer: str) -> None:
    hands = ["D 7h", "X 9h", "6h", "8h", "Th"]
    state = new_game("baohuang", seed=0, options={
        "deal": {"hands": hands}, "mode": "simple", "emperor_card": 0, "guard_card": 1})
    assert isinstance(state, Baohuang)
    state.apply("accept")
    state.apply("no-solo")
    state.apply("hidden")
    while state.to_act != seat:
        state.apply("no")
    obs = state.observe(seat)
    legal = [a.text for a in state.legal_actions()]
    assert legal == ["rebel", "no"]
    assert setup.baohuang(obs, legal, p) == answer


# -- the Dou Dizhu family, with the percentile computed from the hand ---------------------


def ddz3_bid(hand: str) -> str:
    state = new_game("ddz3", seed=1, options={"deal": deal("ddz3", {0: hand})})
    while state.to_act != 0:
        state.apply("pass")
    return make("planning", "ddz3", 0).act(state.observe(0))


@pytest.mark.parametrize(("hand", "answer"), [
    ("XD2222AAKKQQJJT98", "bid 3"),   # rocket, a bomb of 2s: as strong as hands come
    ("3456789TJQKA2XD33", "bid 3"),   # a 12-card straight with both jokers
    ("334466889TTQQKK5J", "pass"),    # scattered pairs, nothing above K
])
def test_ddz3_bid(hand: str, answer: str) -> None:
    assert ddz3_bid(hand) == answer


def test_percentile_orders_hands_and_stays_in_range() -> None:
    obs = {"variant": "ddz3"}
    policy = Policy(rule_set(obs))
    ranks = [setup.percentile("ddz3", setup.rating(setup.hand_of({"hand": h}), policy.planner))
             for h in ("334466889TTQQKK5J", "34567899TTJQKAA22", "XD2222AAKKQQJJT98")]
    assert ranks == sorted(ranks) and 0.0 < ranks[0] < 0.2 and 0.95 < ranks[-1] < 1.0


def test_emperor_kitty_keeps_the_cards_that_raise_the_hand() -> None:
    """斗帝主: the kept kitty cards leave the hand worth at least as much as before."""
    state = new_game("ddz_emperor", seed=3)
    while state.phase != "kitty":
        seat = state.to_act
        assert seat is not None
        state.apply(make("planning", "ddz_emperor", seat).act(state.observe(seat)))
    seat = state.to_act
    assert seat is not None
    obs = state.observe(seat)
    answer = make("planning", "ddz_emperor", seat).act(obs)
    assert answer in obs["legal"]
    worth = Policy(rule_set(obs)).planner.worth
    hand = setup.hand_of(obs)
    kept = list(hand)
    for r in parse_ranks("" if answer == "take none" else answer.split(None, 1)[1]):
        kept[r] += 1
    assert worth(tuple(kept)) >= worth(hand)
