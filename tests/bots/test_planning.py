"""The planning bot at the table: with its side, against a short opponent, counting cards.

Each position is reached by scripted plays on a fixed ddz3 deal (seat 0 the
landlord, seats 1 and 2 the farmers); the bot is then asked what it does.
"""

from __future__ import annotations

from cardhall import bots
from cardhall.bots.planning import Policy
from cardhall.bots.view import read_view, rule_set
from cardhall.cards import parse_counts, parse_ranks
from cardhall.rules import get as get_rules
from tests.bots.scenario import ddz3


def answer(state, seat: int) -> str:
    return bots.make("planning", "ddz3", seat, 0).act(state.observe(seat))


def test_does_not_beat_a_partner_who_holds_the_trick() -> None:
    # The landlord leads 3, farmer 1 plays K; farmer 2 could beat it (A, 2) but does not.
    state = ddz3({1: "3456789TTJJQQKKKA"}, "play 3", "play K")
    obs = state.observe(2)
    assert any(a.startswith("play ") for a in obs["legal"])
    assert answer(state, 2) == "pass"


def test_beats_a_partner_only_to_go_out() -> None:
    # Farmer 2 sheds down to a single 2; farmer 1 leads a 5 and the landlord passes:
    # farmer 2 beats its partner, because that play empties its hand.
    state = ddz3({1: "4456677999JJQQKKA", 2: "3456789TJQKA888X2"},
                 "play 3", "pass", "play X", "pass", "pass",
                 "play 3456789TJQKA", "pass", "pass", "play 888", "pass", "play 999",
                 "pass", "pass", "play 5")
    assert state.observe(2)["counts"][2] == 1 and state.to_act == 2
    assert state.observe(2)["table"]["seat"] == 1
    assert answer(state, 2) == "play 2"


def test_blocks_an_opponent_with_one_card() -> None:
    # The landlord sheds down to one card; farmer 1 then leads and plays no single it
    # cannot be sure of (it leads a pair or better, or the big joker).
    state = ddz3({0: "34566667778999TJQKA2", 1: "33445588TTJJQKAXD"},
                 "play 3456789TJQKA", "pass", "pass", "play 666+77", "pass", "pass",
                 "play 99", "play TT", "pass", "pass")
    assert state.observe(1)["counts"][0] == 1 and state.to_act == 1
    play = answer(state, 1).split(None, 1)[1]
    assert len(play) >= 2 or play == "D"


def test_beats_a_short_opponent_high() -> None:
    # The landlord, two cards left, leads a 5: farmer 1 does not let it through cheaply,
    # it answers with its highest single (the small joker).
    state = ddz3({0: "3456789TJQKA66677952",
                  1: "33445588TTJJQKAX8"},
                 "play 3456789TJQKA", "pass", "pass", "play 666+77", "pass", "pass",
                 "play 9", "pass", "pass", "play 5")
    assert state.observe(1)["counts"][0] == 1 and state.to_act == 1
    assert answer(state, 1) == "play X"


def test_feeds_a_partner_about_to_go_out() -> None:
    # Farmer 2 is down to one card (a joker); farmer 1, on lead, plays its lowest single.
    state = ddz3({1: "35566778899TJKKKA", 2: "3456789TJQKAQQQ2X"},
                 "play 4", "pass", "play 2", "pass", "pass", "play 3456789TJQKA", "pass",
                 "pass", "play QQQ", "pass", "play KKK", "pass", "pass")
    assert state.observe(1)["counts"][2] == 1 and state.to_act == 1
    assert answer(state, 1) == "play 3"


def test_counts_the_cards_played() -> None:
    # After both 2s... the view's unseen pool is the deck less its hand and every play.
    state = ddz3({1: "3456789TTJJQQKKKA"}, "play 3", "play K", "pass")
    obs = state.observe(1)
    view = read_view(obs, rule_set(obs))
    hand = parse_counts("".join(card[0] for card in obs["hand"]))
    played = parse_counts("3K")
    kitty = parse_counts(obs["detail"]["kitty"])
    deck = get_rules("ddz3").limits
    assert view.unseen == tuple(deck[r] - hand[r] - played[r] for r in range(15))
    # The public kitty is known to be in the landlord's hand (minus what it has played).
    assert view.known[0] == tuple(max(0, kitty[r] - (r == 0)) for r in range(15))
    assert view.partners == frozenset({2}) and view.opponents == frozenset({0})


def test_unbeatable_plays_are_recognised() -> None:
    state = ddz3({1: "3456789TTJJQQKKKA"}, "play 3", "play K", "pass")
    obs = state.observe(1)
    view = read_view(obs, rule_set(obs))
    policy = Policy(rule_set(obs))
    pool = view.opponent_pool()
    rs = policy.rs
    assert not policy.is_boss(view, rs.parse_play("A"), pool)  # 2s and jokers are out
    big = [r for r in range(15) if pool[r]][-1]
    assert parse_ranks("D") == (big,)
