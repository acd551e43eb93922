"""保皇 (baohuang) scripted games: docs/rules/baohuang.md, every phase and ruling.

Most deals are puzzles: a few cards per seat written out with the ``deal`` option (the
rest of the deck is out of play), ``emperor_card`` naming the seat dealt the emperor
card (a big joker ``D``) and, in simple mode, ``guard_card`` the seat dealt the guard
card (a small joker ``X``). Play goes clockwise, seat ``i`` → ``i + 1``; ceding goes
to the 上家, ``i − 1``. Scores by finishing order are in test_baohuang_score.py.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardhall import bots, rules
from cardhall.cards import BIG_JOKER_CARD, SIX, SMALL_JOKER_CARD, card_rank, format_cards
from cardhall.games import IllegalAction, new_game, replay
from cardhall.games.baohuang import Baohuang
from cardhall.games.baohuang_setup import SIZES
from cardhall.games.climbing import hand_text
from tests.games.hidden import assert_no_leak
from tests.games.test_conformance import check_step, play_random

P = "pass"
#: The 托管 bot reads the view: it moves to the new view with the bots (branch g-bots).


def game(hands: list[str], mode: str = "classic", emperor: int = 0, sword: int | None = None,
         **options: Any) -> Baohuang:
    opts: dict[str, Any] = {"deal": {"hands": hands}, "mode": mode, "emperor_card": emperor,
                            **options}
    if sword is not None:
        opts["guard_card"] = sword
    state = new_game("baohuang", seed=0, options=opts)
    assert isinstance(state, Baohuang)
    return state


def run(state: Baohuang, actions: list[str]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for text in actions:
        events.extend(state.apply(text))
    return events


def hand(state: Baohuang, seat: int) -> str:
    """The seat's hand as its view shows it, written as ranks ("6A22D")."""
    return "".join(c[0] for c in state.observe(seat)["hand"])


def view(state: Baohuang, seat: int) -> dict[str, Any]:
    """What only 保皇 shows: the view's ``detail``."""
    return dict(state.observe(seat)["detail"])


def role(state: Baohuang, seat: int) -> str | None:
    """The seat's own role as it knows it."""
    return state.observe(seat)["roles"][seat]  # type: ignore[no-any-return]


def mine(state: Baohuang, seat: int) -> str | None:
    """The seat's last answer as its own view shows it."""
    return state.observe(seat)["last"][seat]  # type: ignore[no-any-return]


def seen(events: list[dict[str, Any]], seat: int, kind: str) -> list[dict[str, Any]]:
    """The events of ``kind`` that ``seat`` is sent."""
    return [e for e in Baohuang.events_for(events, seat) if e["type"] == kind]


# -- §1 deck and deal ------------------------------------------------------------------------


@pytest.mark.parametrize("first", range(5))
def test_deal_one_by_one_from_the_first_seat(first: int) -> None:
    """Ruling 2: 34, 34, 34, 33, 33 in deal order; Ruling 1: 168 cards without 3, 4, 5."""
    state = new_game("baohuang", seed=first, options={"first": first})
    assert isinstance(state, Baohuang)
    sizes = [len(h) for h in state.hands]
    assert [sizes[(first + i) % 5] for i in range(5)] == list(SIZES)
    cards = [c for h in state.hands for c in h]
    assert len(cards) == 168 and sorted(cards) == sorted(state.deck_cards())
    assert {card_rank(c) for c in cards}.isdisjoint({0, 1, 2})
    assert cards.count(BIG_JOKER_CARD) == 4 and cards.count(SMALL_JOKER_CARD) == 4
    holder = state.holder
    assert BIG_JOKER_CARD in state.hands[holder]
    assert state.phase == "emperor" and state.to_act == holder
    assert all(view(state, s)["emperor_card"] == holder for s in range(5))


def test_the_emperor_card_is_any_of_the_four_big_jokers() -> None:
    """The marked copy is drawn from the seed among the dealt big jokers."""
    holders = set()
    for seed in range(40):
        state = new_game("baohuang", seed=seed)
        assert isinstance(state, Baohuang)
        holders.add(state.holder)
        assert BIG_JOKER_CARD in state.hands[state.holder]
    assert holders == set(range(5))


# -- §2.1 ceding --------------------------------------------------------------------------


def test_classic_ceding_without_tribute_and_forced_acceptance() -> None:
    state = new_game("baohuang", seed=3)
    assert isinstance(state, Baohuang)
    origin = state.holder
    dealt = [list(h) for h in state.hands]
    for k in range(1, 6):
        assert state.legal_actions() == [state.parse_action("accept"),
                                         state.parse_action("cede")]
        events = state.apply("cede")
        assert "tribute" not in events[0]
        assert state.pile == [BIG_JOKER_CARD]  # classic: the emperor card travels alone
        assert state.to_act == (origin - k) % 5
    assert state.to_act == origin  # one full lap
    assert [a.text for a in state.legal_actions()] == ["accept"]
    assert state.check("cede") == ("after a full lap the first holder must accept the "
                                   "emperor card (classic)")
    state.apply("accept")
    assert state.emperor == origin and state.hands == dealt and state.phase == "guard"


def test_simple_ceding_attaches_a_two_or_the_highest_card() -> None:
    """Rulings 3: the first holder cedes free; later decliners attach a 2 (else their highest
    non-joker card) and pass everything on; the accepter keeps it all."""
    state = game(["AKX", "229", "D78", "9", "26"], "simple", emperor=2, sword=0)
    events = run(state, ["cede"])  # seat 2, the first holder: no tribute
    assert "tribute" not in events[0] and events[0]["holder"] == 1
    assert [e.get("tribute") for e in run(state, ["cede", "cede"])] == ["2s", "As"]
    assert view(state, 3)["pile"] == "As 2s D"  # public
    assert hand(state, 1) == "92" and hand(state, 0) == "KX" and hand(state, 2) == "78"
    assert state.to_act == 4
    state.apply("accept")
    assert hand(state, 4) == "6A22D" and state.pile == [] and state.emperor == 4


def test_simple_two_laps_redeal() -> None:
    """Ruling 4: ten declines and no emperor → a fresh deal."""
    state = new_game("baohuang", seed=5, options={"mode": "simple"})
    assert isinstance(state, Baohuang)
    for k in range(1, 10):
        state.apply("cede")
        assert len(state.pile) == k  # the emperor card, then one card per later decline
    events = state.apply("cede")
    assert events[1] == {"type": "redeal", "reason": "two laps without an emperor (Ruling 4)"}
    assert state.deals == 2 and state.phase == "emperor" and state.pile == []
    assert sorted(c for h in state.hands for c in h) == sorted(state.deck_cards())
    assert state.to_act == state.holder and BIG_JOKER_CARD in state.hands[state.holder]


# -- guard call (classic), guard card (simple), Ruling 5 -----------------------------------


def test_ruling5_forced_holder_who_cannot_call_may_redeal() -> None:
    state = game(["D 7s 8s", "9s", "Ts", "Js", "Qs"])
    run(state, ["cede"] * 5 + ["accept"])
    assert [a.text for a in state.legal_actions()] == ["solo", "redeal"]
    events = state.apply("redeal")
    assert {"type": "redeal", "reason": "the emperor cannot call a guard (Ruling 5)"} in events
    assert state.deals == 2 and len([c for h in state.hands for c in h]) == 168


def test_ruling5_four_identical_cards_give_a_hidden_solo() -> None:
    state = game(["D 7s 7s 7s 7s", "9s", "Ts", "Js", "Qs"])
    run(state, ["cede"] * 5 + ["accept"])
    assert [a.text for a in state.legal_actions()] == ["call 7s", "solo"]
    run(state, ["call 7s"])
    assert state.solo == "hidden" and state.guard == 0
    assert view(state, 1)["called"] == "7s" and view(state, 1)["solo"] is None
    assert view(state, 0)["solo"] == "hidden"
    assert state.phase == "disclose" and [a.text for a in state.legal_actions()] == ["hidden"]
    assert state.check("open") == "you are your own guard (暗独保): there is no guard to open"


def test_a_willing_emperor_who_cannot_call_must_play_alone() -> None:
    state = game(["D 7s 8s", "9s", "Ts", "Js", "Qs"])
    state.apply("accept")
    assert [a.text for a in state.legal_actions()] == ["solo"]
    assert state.check("redeal") == ("only a first holder forced to accept may ask for a "
                                     "redeal (Ruling 5)")
    assert state.check("call 7s") == ("you hold 1 × 7s: a guard call needs 3 identical cards "
                                      "(all 4 for 暗独保)")


CALL_HANDS = ["D 7s 7s 7s 9h 6h", "7h 7h 7h Th", "Jh", "7s 7h 8h", "Qh"]


def test_classic_call_names_the_holder_of_the_fourth_copy() -> None:
    state = game(CALL_HANDS)
    events = state.apply("accept")
    assert state.check("call 7h") == ("you hold 0 × 7h: a guard call needs 3 identical cards "
                                      "(all 4 for 暗独保)")
    assert state.check("call X") == ("only a suited card (6 … 2) can be called: jokers have "
                                     "no suit (Ruling 6)")
    assert (state.check("call 9h") or "").startswith("you hold 1 × 9h")
    events += state.apply("call 7s")
    assert {"type": "call", "seat": 0, "card": "7s"} in events
    assert state.guard == 3 and state.solo is None
    for seat in range(5):
        obs = view(state, seat)
        assert obs["called"] == "7s" and obs["emperor"] == 0
        assert role(state, seat) == ("emperor" if seat == 0 else "guard" if seat == 3
                                     else "rebel")
        assert obs["guard"] == (3 if seat == 3 else None)  # not even the emperor knows
        roles = state.observe(seat)["roles"]
        assert roles == (["emperor", "rebel", "rebel", "guard", "rebel"] if seat == 3 else
                         [r if s in (0, seat) else None for s, r in enumerate(
                             ["emperor", "rebel", "rebel", "guard", "rebel"])])
        assert bool(seen(events, seat, "role")) is (seat == 3)
    # the disclosure step: only the guard sees that it is his turn
    assert state.phase == "disclose" and state.to_act == 3
    assert [state.observe(s)["to_act"] for s in range(5)] == [None, None, None, 3, None]
    assert [state.observe(s)["acting"] for s in range(5)] == [[], [], [], [3], []]
    assert state.check("hidden", seat=1) == ("not your turn: the guard (whom only he knows) "
                                             "chooses open or hidden")
    assert [a.text for a in state.legal_actions()] == ["open", "hidden"]


def test_the_guard_shows_himself_by_playing_the_called_card() -> None:
    """Ruling 8: the called card leaves his hand with his last card of its rank."""
    state = game(CALL_HANDS)
    events = run(state, ["accept", "call 7s", "hidden", "play 6", P, P, "play 7", P, P])
    assert not seen(events, 1, "guard-shown") and view(state, 1)["guard"] is None
    assert format_cards(state.hands[3]) == "7s 8h"  # the plain 7h went first
    run(state, [P, P])  # the trick ends: seat 3 leads
    assert state.to_act == 3
    events = state.apply("play 7")
    assert {"type": "guard-shown", "seat": 3, "solo": False} in events
    assert all(view(state, s)["guard"] == 3 for s in range(5))
    assert state.result() is None and not state.open_guard  # shown, not 明保: no ×2


def test_simple_mode_guard_card_holder_is_the_guard() -> None:
    state = game(["D7", "9", "X8", "T", "J"], "simple", sword=2)
    state.apply("accept")
    assert [a.text for a in state.legal_actions()] == ["no-solo"]
    assert state.check("solo") == ("you do not hold the guard card: its holder is your guard "
                                   "(no-solo)")
    assert state.check("call 7s") == ("simple mode: no-solo, or with the guard card in hand "
                                      "hidden-solo or solo")
    events = state.apply("no-solo")
    assert {"type": "guard-card-in-play"} in events and state.guard == 2
    assert view(state, 2)["holds_guard_card"] and role(state, 2) == "guard"
    assert not view(state, 1)["holds_guard_card"] and view(state, 1)["guard"] is None


def test_simple_mode_emperor_with_the_guard_card_is_alone() -> None:
    state = game(["XD7", "9", "8", "T", "J"], "simple", sword=0)
    state.apply("accept")
    assert [a.text for a in state.legal_actions()] == ["hidden-solo", "solo"]
    assert state.check("no-solo") == ("you hold the guard card yourself: hidden-solo (暗独保) "
                                      "or solo (明独保)")
    state.apply("hidden-solo")
    assert state.solo == "hidden" and state.guard == 0
    assert [view(state, s)["solo"] for s in range(5)] == ["hidden", None, None, None, None]
    state2 = game(["XD7", "9", "8", "T", "J"], "simple", sword=0)
    run(state2, ["accept", "solo"])
    assert state2.phase == "play" and state2.to_act == 0  # 明独保: no disclosure, no rebellion
    assert all(view(state2, s)["solo"] == "open" for s in range(5))


# -- 抢独 (qiangdu), Rulings 7 and 20 ------------------------------------------------------------


ROB_HANDS = ["6h", "7h", "D 8s 8s 8s", "8s 9h", "Th"]


def test_the_robber_nearest_the_emperor_on_his_left_wins() -> None:
    state = game(ROB_HANDS, emperor=2, qiangdu=True)
    state.apply("accept")
    assert state.queue == [2, 1, 0, 4, 3]  # the emperor, then the 上家 direction
    run(state, ["call 8s", "no"])
    events = run(state, ["rob-solo", "rob-solo", "no"])  # seats 0 and 4 rob
    assert {"type": "rob-solo", "robbers": [0, 4], "winner": 0} in events
    assert state.emperor == 0 and state.solo == "open" and state.robbed
    assert state.phase == "play" and state.to_act == 0  # the robber leads (Ruling 20)
    assert state.roles() == ["emperor", "rebel", "rebel", "rebel", "rebel"]
    assert all(view(state, s)["solo"] == "open" for s in range(5))


def test_rob_answers_stay_private_until_the_window_closes() -> None:
    state = game(ROB_HANDS, emperor=2, qiangdu=True)
    events = run(state, ["accept", "call 8s", "rob-solo"])
    assert mine(state, 1) == "rob-solo"
    for seat in (0, 2, 3, 4):
        assert view(state, seat)["robbers"] == [] and mine(state, seat) in (None, "call 8s")
        assert state.observe(seat)["last"][1] is None
        assert not any(e["type"] == "answer" and e.get("answer") == "rob-solo"
                       for e in Baohuang.events_for(events, seat))
    assert view(state, 3)["called"] is None  # the call is announced when the window closes


@pytest.mark.parametrize(("choice", "solo"), [("solo", "open"), ("call 8s", "hidden")])
def test_the_emperors_own_solo_beats_every_rob(choice: str, solo: str) -> None:
    hands = ["6h", "7h", "D 8s 8s 8s 8s", "9h", "Th"]
    state = game(hands, emperor=2, qiangdu=True)
    events = run(state, ["accept", choice, "rob-solo", "no", "rob-solo", "no"])
    assert {"type": "rob-solo", "robbers": [1, 4], "winner": None} in events
    assert state.emperor == 2 and state.solo == solo and state.phase == "play"
    # Ruling 7: the failed robs show everybody that he is alone
    assert all(view(state, s)["solo"] == solo for s in range(5))


def test_a_rob_takes_over_from_a_forced_redeal() -> None:
    state = game(["6h", "7h", "D 8s", "9h", "Th"], emperor=2, qiangdu=True)
    run(state, ["cede"] * 5 + ["accept", "redeal", "no", "no", "rob-solo", "no"])
    assert state.deals == 1 and state.emperor == 4 and state.solo == "open"


# -- disclosure and 造反 ------------------------------------------------------------------------


def test_open_guard_is_public_and_skips_the_rebellion() -> None:
    state = game(["D7", "9", "X8", "T", "J"], "simple", sword=2)
    events = run(state, ["accept", "no-solo", "open"])
    assert {"type": "open-guard", "seat": 2} in events
    assert state.phase == "play"
    assert all(view(state, s)["guard"] == 2 and view(state, s)["open_guard"]
               for s in range(5))


def test_two_rebels_force_the_guard_out_and_double_if_they_win() -> None:
    state = game(["D7", "9", "X8", "T", "J"], "simple", sword=2)
    run(state, ["accept", "no-solo", "hidden"])
    assert state.phase == "rebellion" and state.queue == [1, 2, 3, 4]
    run(state, ["rebel", "no"])
    assert view(state, 4)["rebels"] == [] and mine(state, 1) == "rebel"
    events = run(state, ["rebel", "no"])
    assert {"type": "rebellion", "rebels": [1, 3], "forced": True, "guard": 2,
            "solo": False} in events
    assert all(view(state, s)["guard"] == 2 for s in range(5))
    # the three rebels go out first: e + g = 9, rebels +3 each → the rebellion won, ×2
    run(state, ["play 7", "play 9", P, "play T", "play J"])
    result = state.result()
    assert result is not None
    assert result["points"] == [-12, 6, -6, 6, 6]
    assert result["detail"]["rebellion_succeeded"]
    assert result["multiplier"] == {"total": 2, "causes": {"rebellion": 2}}
    assert result["winners"] == [1, 3, 4]


def test_one_rebel_reveals_nothing() -> None:
    state = game(["D7", "9", "X8", "T", "J"], "simple", sword=2)
    events = run(state, ["accept", "no-solo", "hidden", "rebel", "no", "no", "no"])
    assert {"type": "rebellion", "rebels": [1], "forced": False} in events
    assert [view(state, s)["guard"] for s in range(5)] == [None, None, 2, None, None]


def test_a_rebellion_exposes_a_hidden_solo() -> None:
    state = game(["XD7", "9", "8", "T", "J"], "simple", sword=0)
    events = run(state, ["accept", "hidden-solo", "hidden", "rebel", "rebel", "no", "no"])
    assert {"type": "rebellion", "rebels": [1, 2], "forced": True, "guard": 0,
            "solo": True} in events
    assert all(view(state, s)["solo"] == "hidden" for s in range(5))
    run(state, ["play 7", "play 9", "pass", "play T"])  # two others out first: he is 3rd
    result = state.result()
    assert result is not None and result["points"] == [-24, 6, 6, 6, 6]


def test_classic_mode_has_no_rebellion() -> None:
    state = game(CALL_HANDS)
    run(state, ["accept", "call 7s", "hidden"])
    assert state.phase == "play"


# -- play: the lead after going out (Ruling 16) and the end (Ruling 10) ------------------------


def test_worked_example_first_order_and_the_lead_after_going_out() -> None:
    """Simple, 明保: R1, emperor, R2, guard, R3 → e = 2, g = 4: everyone 0."""
    state = game(["6D", "7", "8X", "9", "66"], "simple", sword=2)
    run(state, ["accept", "no-solo", "open", "play 6", "play 7"])
    assert state.out == [1]
    run(state, [P, P, P])  # seat 1 is out: four players still hold cards
    assert state.trick is not None and state.to_act == 0
    run(state, ["play D", P, P, P])  # the emperor goes out 2nd; the others pass
    assert state.to_act == 2 and state.trick is None  # the next active player after him leads
    run(state, ["play 8", "play 9", P, P])  # R2 out 3rd; both others pass
    assert state.to_act == 4 and state.trick is None
    run(state, ["play 6", "play X"])
    result = state.result()
    assert result is not None
    assert result["detail"]["order"] == [1, 0, 3, 2]
    assert result["detail"]["places"] == [2, 1, 4, 3, None]
    assert result["points"] == [0, 0, 0, 0, 0] and result["detail"]["base"]["royal_places"] == 6
    assert result["multiplier"] == {"total": 2, "causes": {"open_guard": 2}}
    assert result["winners"] == []  # everyone scores 0
    assert result["detail"]["roles"] == ["emperor", "rebel", "guard", "rebel", "rebel"]


def test_worked_example_second_order() -> None:
    """Emperor 1st, guard 3rd → guard 2, emperor 4, rebels −2; 明保 ×2 → +4, +8, −4."""
    state = game(["D", "7", "X", "9", "T"], "simple", sword=2)
    run(state, ["accept", "no-solo", "open", "play D", P, P, P, P])
    assert state.to_act == 1  # all four passed on his last hand: the next player leads
    run(state, ["play 7", "play X"])
    result = state.result()
    assert result is not None and result["points"] == [8, -4, 4, -4, -4]


@pytest.mark.parametrize(("plays", "scores"), [
    (["play 7+D"], [24, -6, -6, -6, -6]),
    (["play 7", "play 8"], [-24, 6, 6, 6, 6]),
], ids=["emperor first", "another first"])
def test_open_solo_ends_at_the_first_player_out(plays: list[str], scores: list[int]) -> None:
    state = game(["7D", "8", "9", "T", "J"])
    run(state, ["accept", "solo", *plays])
    result = state.result()
    assert result is not None and result["points"] == scores and len(result["detail"]["order"]) == 1


def test_hidden_solo_ends_when_two_others_are_out() -> None:
    state = game(["XD7", "6", "8", "9", "T"], "simple", sword=0)
    run(state, ["accept", "hidden-solo", "hidden", "no", "no", "no", "no",
                "play 7", P, "play 8", "play 9"])
    result = state.result()
    assert result is not None
    assert result["points"] == [-12, 3, 3, 3, 3] and result["detail"]["base"]["emperor_place"] == 3


def test_hidden_solo_ends_when_the_emperor_is_out() -> None:
    state = game(["XD7", "8", "9", "T", "J"], "simple", sword=0)
    run(state, ["accept", "hidden-solo", "hidden", "no", "no", "no", "no",
                "play 7", "play 8", P, P, P, "play D", P, P, P])
    assert state.to_act == 0  # he still holds the guard card
    events = state.apply("play X")
    assert {"type": "guard-shown", "seat": 0, "solo": True} in events
    result = state.result()
    assert result is not None and result["points"] == [0, 0, 0, 0, 0]
    assert result["detail"]["order"] == [1, 0]


def test_play_stops_when_only_royal_players_remain() -> None:
    state = game(["D 7s 7s 7s", "7s 6h", "8h", "9h", "Th"])
    run(state, ["accept", "call 7s", "hidden", "play 7", P, "play 8", "play 9", "play T"])
    result = state.result()
    assert result is not None
    assert result["detail"]["places"] == [None, None, 1, 2, 3]
    assert result["detail"]["base"]["royal_places"] == 9
    assert result["points"] == [-6, -3, 3, 3, 3]


def test_play_goes_on_after_the_emperor_until_the_guard_is_out() -> None:
    state = game(["D 7s 7s 7s", "7s 6h", "8h", "9h", "Th"])
    run(state, ["accept", "call 7s", "hidden", "play 777+D"])
    assert not state.over and state.out == [0] and state.to_act == 1


# -- 憋6 -----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["classic", "simple"])
def test_bie6_at_every_point_of_a_hand(mode: str) -> None:
    """Ruling 17: exactly the plays of the plain rules, minus every play with a 6 that
    does not empty the hand; those are refused with the 憋6 reason."""
    for seed in range(3):
        kaopai = seed == 1
        plain = rules.get("baohuang", kaopai=kaopai)
        state = new_game("baohuang", seed=seed, options={"mode": mode, "bie6": True,
                                                          "kaopai": kaopai})
        rng = random.Random(seed)
        while not state.over:
            if state.phase == "play":
                assert isinstance(state, Baohuang) and state.to_act is not None
                held = state.counts[state.to_act]
                last = None if state.trick is None else state.trick[1]
                for play in plain.moves(held, last):
                    reason = state.check(f"play {play.text}")
                    if SIX in play.cards and play.size != sum(held):
                        assert reason is not None and "憋6" in reason
                    else:
                        assert reason is None, play.text
            state.apply(rng.choice(state.legal_actions()))


def test_bie6_scripted() -> None:
    state = game(["D 66 7", "8", "9", "T", "J"], bie6=True)
    run(state, ["accept", "solo"])
    assert state.check("play 66") == ("憋6: sixes go only as your last hand, all of them at "
                                      "once (Ruling 17)")
    assert state.check("play 6") is not None
    run(state, ["play 7", P, P, P, P, "play D", P, P, P, P])  # nobody beats: he leads again
    assert state.check("play 6") is not None and state.check("play 66") is None


# -- 托管 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("cards", "bie6", "expected"), [
    ("D 6 6 X", True, "play 66+XD"),  # only 6s and jokers: all at once
    ("D 6 6 7", True, "play 7"),  # the lowest non-6 single
    ("D 6 6 7", False, "play 6"),  # without 憋6 the smallest single
    ("D 6", True, "play 6+D"),
])
def test_tuoguan_leads_respecting_bie6(cards: str, bie6: bool, expected: str) -> None:
    state = game([cards, "8", "9", "T", "J"], bie6=bie6)
    run(state, ["accept", "solo"])
    bot = bots.make("tuoguan", "baohuang", 0)
    assert bot.act(state.observe(0)) == expected


def test_tuoguan_default_answers() -> None:
    """platform §4: cede while allowed, else accept; the first callable card; redeal; no."""
    bot = [bots.make("tuoguan", "baohuang", s) for s in range(5)]

    def act(state: Baohuang) -> str:
        assert state.to_act is not None
        text = bot[state.to_act].act(state.observe(state.to_act))
        state.apply(text)
        return text

    state = game(["D 8h 8h 8h 7s 7s 7s 7h 7h 7h", "9h", "Th", "7s", "Jh"], qiangdu=True)
    assert [act(state) for _ in range(6)] == ["cede"] * 5 + ["accept"]
    assert [act(state) for _ in range(5)] == ["call 7s", "no", "no", "no", "no"]
    assert state.to_act == 3 and act(state) == "hidden"  # the guard, dealt the 4th 7s
    cannot = game(["D 8h", "9h", "Th", "Qh", "Jh"])
    assert [act(cannot) for _ in range(7)] == ["cede"] * 5 + ["accept", "redeal"]
    simple = game(["XD7", "8", "9", "T", "J"], "simple", sword=0)
    assert [act(simple) for _ in range(10)] == ["cede"] * 10  # two laps: a redeal
    assert simple.deals == 2
    alone = game(["XD7", "8", "9", "T", "J"], "simple", sword=0)
    alone.apply("accept")  # a player who accepted himself, then left: no declaration
    assert [act(alone) for _ in range(7)] == ["hidden-solo", "hidden", "no", "no", "no", "no",
                                              "play 7"]


def test_tuoguan_plays_whole_games() -> None:
    for mode, options in (("classic", {}), ("classic", {"bie6": True, "qiangdu": True})):
        for seed in range(3):
            state = new_game("baohuang", seed=seed, options={"mode": mode, **options})
            players = [bots.make("tuoguan", "baohuang", s, seed) for s in range(5)]
            while not state.over:
                assert state.to_act is not None
                state.apply(players[state.to_act].act(state.observe(state.to_act)))
            result = state.result()
            assert result is not None and sum(result["points"]) == 0


# -- leaving: @S leave, Ruling 18 (more in test_baohuang_contract.py) -------------------------


def test_leaving_puts_the_seat_on_tuoguan_and_a_forced_quit_costs_40() -> None:
    state = game(["D", "7", "X", "9", "T"], "simple", sword=2)
    run(state, ["accept"])
    assert state.check("leave") == "say which seat: @SEAT leave (e.g. @0 leave)"
    events = state.apply("@3 leave forced")
    assert events == [{"type": "leave", "seat": 3, "forced": True, "penalty": -40},
                      {"type": "auto", "seat": 3, "on": True, "entries": 1, "locked": False}]
    assert state.to_act == 0 and state.phase == "guard"  # nothing else moves
    assert state.check("@3 leave") == "seat 3 has already left the game"
    assert state.observe(1)["auto"] == [False, False, False, True, False]
    assert state.observe(1)["left"] == [False, False, False, True, False]
    assert view(state, 1)["penalties"] == [0, 0, 0, -40, 0]
    state.apply("@1 leave")  # the exit button: 托管, no penalty
    run(state, ["no-solo", "open", "play D", P, P, P, P, "play 7", "play X"])
    result = state.result()
    assert result is not None and result["ended"] == "finished"
    assert result["points"] == [8, -4, 4, -4, -4] and sum(result["points"]) == 0
    assert result["penalties"] == [0, 0, 0, -40, 0]
    assert result["auto"] == [False, True, False, True, False] and result["dissolve"]
    assert replay(state.record()).result() == result


def test_every_seat_on_tuoguan_is_not_scored() -> None:
    state = game(["D", "7", "X", "9", "T"], "simple", sword=2)
    run(state, [f"@{s} leave forced" for s in range(5)])
    run(state, ["accept", "no-solo", "open", "play D", P, P, P, P, "play 7", "play X"])
    result = state.result()
    assert result is not None and result["ended"] == "unscored"
    assert result["points"] == [0] * 5 and result["winners"] == []
    assert result["penalties"] == [-40] * 5


# -- bad actions ----------------------------------------------------------------------------


def bad_cases() -> list[tuple[str, list[str], str, str]]:
    return [
        ("emperor", [], "play 7", "no cards are played during emperor"),
        ("emperor", [], "solo", "you hold the emperor card: accept (当皇帝) or cede (让位) it "
                                "to your 上家"),
        ("emperor", [], "@7 leave", "there is no seat 7 in this 5-player game"),
        ("emperor", [], "@1 cede", "it is seat 0's turn, not seat 1's"),
        ("emperor", [], "quit", "'quit' is not an action of 保皇"),
        ("emperor", [], "@1 quit", "'quit' is not an action of 保皇"),
        ("emperor", [], "call", "'call' is not an action of 保皇"),
        ("emperor", [], "call 7", "call takes one suited card such as 7s"),
        ("guard", ["accept"], "open", "call a card you hold three of (e.g. call 7s), or solo"),
        ("disclose", ["accept", "call 7s"], "rebel", "you are the guard: open (明保, all scores "
                                                     "×2) or hidden (暗保)"),
        ("play", ["accept", "call 7s", "hidden"], P, "you lead: you must play"),
        ("play", ["accept", "call 7s", "hidden"], "play 9999", "you do not hold 9999"),
        ("play", ["accept", "call 7s", "hidden"], "play 5", "baohuang is played without 5"),
        ("play", ["accept", "call 7s", "hidden"], "accept", "'accept' is not a play"),
        ("play", ["accept", "call 7s", "hidden", "play 9"], "play 7",
         "7 does not beat 9: the same number of cards, each higher than its partner"),
        ("play", ["accept", "call 7s", "hidden", "play 9"], "play 7T",
         "'7T' is not a baohuang play"),
        ("play", ["accept", "call 7s", "hidden", "play 9"], "play 77",
         "77 does not beat 9: the same number of cards, each higher than its partner"),
    ]


@pytest.mark.parametrize(("phase", "before", "action", "reason"), bad_cases(),
                         ids=[f"{c[0]}:{c[2]}" for c in bad_cases()])
def test_bad_actions_are_refused_with_a_reason_and_change_nothing(
        phase: str, before: list[str], action: str, reason: str) -> None:
    state = game(CALL_HANDS)
    run(state, before)
    assert state.phase == phase
    snapshot = json.dumps([state.observe(s) for s in range(5)], sort_keys=True)
    got = state.check(action)
    assert got is not None and got.startswith(reason)
    with pytest.raises(IllegalAction):
        state.apply(action)
    assert json.dumps([state.observe(s) for s in range(5)], sort_keys=True) == snapshot


def test_after_the_end_everything_is_refused() -> None:
    state = game(["7D", "8", "9", "T", "J"])
    run(state, ["accept", "solo", "play 7+D"])
    for action in (P, "@1 leave", "@1 auto on", "accept"):
        assert state.check(action) == "the game is over"


# -- what a seat sees -------------------------------------------------------------------------


def test_observation_shows_counts_order_and_roles_never_other_cards() -> None:
    state = game(["6D", "7", "8X", "9", "66"], "simple", sword=2)
    run(state, ["accept", "no-solo", "hidden", "no", "no", "no", "no", "play 6", "play 7"])
    for seat in range(5):
        obs = state.observe(seat)
        assert obs["counts"] == [1, 0, 2, 1, 2] and obs["detail"]["order"] == [1]
        assert obs["detail"]["emperor"] == 0 and hand(state, seat) == hand_text(state.hands[seat])
        assert obs["detail"]["guard"] == (2 if seat == 2 else None)
        assert "hands" not in obs["detail"]
        assert obs["played"] == ["6", "7", "", "", ""]
        assert obs["table"] == {"seat": 1, "cards": "7", "kind": "set",
                                "leader": 0, "acted": [0, 1]}
    assert state.observe(0)["hand"] == ["D"]


# -- every option, the whole contract ---------------------------------------------------------

OPTION_SETS = [
    {"mode": "simple"},
    {"mode": "classic", "kaopai": True, "bie6": True, "qiangdu": True},
    {"mode": "simple", "kaopai": True, "bie6": True, "qiangdu": True, "first": 2},
]


def contract_step(rng: random.Random) -> Any:
    """The conformance step, plus: no observation moves when hidden cards are shuffled."""

    def step(state: Any, legal: list[Any]) -> None:
        check_step(state, legal)
        assert_no_leak(state, rng)

    return step


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=["simple", "classic-all", "simple-all"])
def test_random_games_with_every_option(options: dict[str, Any]) -> None:
    for seed in range(4):
        state = new_game("baohuang", seed=seed, options=options)
        rng = random.Random(seed)
        play_random(state, rng, contract_step(rng))
        result = state.result()
        assert result is not None and sum(result["points"]) == 0
        assert replay(json.loads(json.dumps(state.record()))).result() == result
