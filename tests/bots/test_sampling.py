"""The search bot: sampled deals agree with what the seat has seen; choices are legal."""

from __future__ import annotations

import random

from cardhall import bots
from cardhall.bots.planning import Policy
from cardhall.bots.sampling import Rollout, SamplingBot, determinise
from cardhall.bots.view import read_view, rule_set
from cardhall.games import new_game
from tests.bots.scenario import ddz3


def test_sampled_deals_agree_with_the_observation() -> None:
    state = ddz3({1: "3456789TTJJQQKKKA"}, "play 3", "play K", "pass")
    obs = state.observe(1)
    view = read_view(obs, rule_set(obs))
    rng = random.Random(0)
    for _ in range(20):
        hands = determinise(view, rng)
        assert hands[1] == view.hand
        assert [sum(h) for h in hands] == obs["counts"]
        for r in range(15):
            # every card is one this seat cannot see, and the kitty is with the landlord
            assert hands[0][r] + hands[2][r] <= view.unseen[r]
            assert hands[0][r] >= view.known[0][r]


def test_shown_hands_are_dealt_as_shown() -> None:
    """欢乐斗地主: a hand shown to the table is sampled exactly as shown."""
    state = new_game("ddz3_happy", seed=2, options={"landlord": 0, "first": 0})
    state.apply("show-start")  # seat 0 shows before the deal
    while state.phase != "play":
        state.apply(state.legal_actions()[0].text)
    seat = state.to_act
    assert seat == 0
    state.apply(state.legal_actions()[0].text)
    obs = state.observe(1)
    view = read_view(obs, rule_set(obs))
    assert 0 in view.exact
    hands = determinise(view, random.Random(1))
    assert hands[0] == view.exact[0]


def test_rollout_scores_a_won_position() -> None:
    # Farmer 2 holds a single 2 after its partner's 5: passing loses nothing, going out wins.
    state = ddz3({1: "4456677999JJQQKKA", 2: "3456789TJQKA888X2"},
                 "play 3", "pass", "play X", "pass", "pass", "play 3456789TJQKA", "pass",
                 "pass", "play 888", "pass", "play 999", "pass", "pass", "play 5")
    obs = state.observe(2)
    view = read_view(obs, rule_set(obs))
    policy = Policy(rule_set(obs))
    hands = determinise(view, random.Random(3))
    two = view.rs.parse_play("2")
    assert Rollout(view, policy, hands).play(two) == 1.0


def test_search_is_reproducible_and_legal() -> None:
    def game() -> list[str]:
        state = new_game("ddz3", seed=9, options={"landlord": 1})
        seats = [SamplingBot("ddz3", 0, 9, samples=4), bots.make("planning", "ddz3", 1, 9),
                 SamplingBot("ddz3", 2, 9, samples=4)]
        while not state.over:
            seat = state.to_act
            obs = state.observe(seat)
            answer = seats[seat].act(obs)
            assert answer in obs["legal"]
            state.apply(answer)
        return state.actions

    assert game() == game()
