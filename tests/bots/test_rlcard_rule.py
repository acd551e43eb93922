"""The rlcard-rule adapter: notation both ways, the state RLCard's agent expects, legal answers.

The agent itself needs RLCard (the optional ``bench`` extra). Where it is
installed the agent's tests run; where it is not, the bot must say how to get
it. Either way every test here asserts something: nothing is skipped.
"""

from __future__ import annotations

import importlib.util

import pytest

from cardhall import bots
from cardhall.bots.rlcard_rule import from_rlcard, to_rlcard
from cardhall.games import new_game
from tests.bots.scenario import ddz3

HAVE_RLCARD = importlib.util.find_spec("rlcard") is not None


@pytest.mark.parametrize(("ours", "theirs"), [
    ("333444+56", "33344456"), ("XD", "BR"), ("3456789TJQKA", "3456789TJQKA"),
    ("2222+XD", "2222BR"), ("TTT+JJ", "TTTJJ"), ("333+X", "333B")])
def test_notation_round_trips(ours: str, theirs: str) -> None:
    assert to_rlcard(ours) == theirs
    assert from_rlcard(theirs) == ours.replace("+", "")


if not HAVE_RLCARD:

    def test_without_rlcard_the_bot_says_how_to_install_it() -> None:
        with pytest.raises(bots.BotError, match=r"needs RLCard: pip install 'cardhall\[bench\]'"):
            bots.make("rlcard-rule", "ddz3", 0)

else:

    def test_raw_obs_is_what_rlcard_shows() -> None:
        state = ddz3({1: "3456789TTJJQQKKKA"}, "play 3", "play K", "pass")
        bot = bots.make("rlcard-rule", "ddz3", 0, 1)
        obs = state.observe(0)
        raw = bot.raw_obs(obs, obs["legal"])  # type: ignore[attr-defined]
        assert raw["trace"] == [(0, "3"), (1, "K"), (2, "pass")]
        assert raw["landlord"] == 0 and raw["self"] == 0
        assert raw["played_cards"] == ["3", "K", ""]
        assert raw["actions"] == ["pass", "2", "B", "R", "BR"]  # what beats K, and passing
        assert raw["num_cards_left"] == [19, 16, 17]
        assert len(raw["current_hand"]) == 19 and len(raw["others_hand"]) == 33


    def test_answers_are_legal_and_reproducible() -> None:
        def game(seed: int) -> list[str]:
            state = new_game("ddz3", seed=seed, options={"landlord": seed % 3})
            seats = [bots.make("rlcard-rule", "ddz3", s, seed) for s in range(3)]
            while not state.over:
                obs = state.observe(state.to_act)
                answer = seats[state.to_act].act(obs)
                assert answer in obs["legal"]
                state.apply(answer)
            return state.actions

        for seed in range(3):
            assert game(seed) == game(seed)


    def test_refuses_what_rlcard_cannot_do() -> None:
        with pytest.raises(bots.BotError, match="ddz3 only"):
            bots.make("rlcard-rule", "ddz4", 0)
        bidding = new_game("ddz3", seed=1)
        bot = bots.make("rlcard-rule", "ddz3", bidding.to_act or 0)
        with pytest.raises(bots.BotError, match="fixed landlord"):
            bot.act(bidding.observe(bidding.to_act or 0))
