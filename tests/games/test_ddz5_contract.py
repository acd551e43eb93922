"""五人斗地主 on the game contract: the identity and doubling steps answered together in
any order and hidden until they close, roles as each seat knows them, leaving from every
seat in every phase (platform §5), 托管, the set-up options, the result's shape and
hostile actions."""

from __future__ import annotations

import itertools
import json
import math
import random
from typing import Any

import pytest

from cardhall.cards import format_ranks, parse_ranks
from cardhall.games import GameState, IllegalAction, new_game, replay
from cardhall.games.ddz5 import FivePlayer
from tests.games.hidden import assert_no_leak
from tests.games.test_ddz5 import F1, F2, F3, HL, OL, make_deal, start
from tests.games.test_ddz_bidding_contract import VIEW_LIMIT, hostile_actions, snapshot

SEATS = range(5)


def views(state: GameState) -> list[dict[str, Any]]:
    return [state.observe(s) for s in SEATS]


def play_random(state: GameState, rng: random.Random) -> None:
    """Random answers from random acting seats: every order of the simultaneous steps."""
    while not state.over:
        seat = rng.choice(state.acting)
        state.apply(rng.choice(state.legal_actions(seat)), seat=seat)


# -- the identity step: O and H together, in either order ------------------------------------

ANSWERS = list(itertools.product(("reveal", "decline"), repeat=2))


@pytest.mark.parametrize(("o_says", "h_says"), ANSWERS)
def test_identity_answers_in_either_order(o_says: str, h_says: str) -> None:
    finals = []
    for order in ((OL, HL), (HL, OL)):
        state = start({OL: "K", HL: "K"})
        assert state.acting == [OL, HL] and state.to_act == OL
        farmers = {s: state.observe(s) for s in (F1, F2, F3)}
        first, second = order
        say = {OL: o_says, HL: h_says}
        events = state.apply(f"@{first} {say[first]}")
        assert events == [{"type": "identity-answer", "to": [first], "answer": say[first]}]
        assert all(GameState.events_for(events, s) == [] for s in SEATS if s != first)
        assert state.acting == [second] and state.to_act == second
        for seat, before in farmers.items():  # a farmer's view does not move at all
            assert state.observe(seat) == before
        other = state.observe(second)
        assert other["detail"]["identity_answer"] is None and other["last"][first] is None
        assert other["multiplier"]["total"] == 1 and other["detail"]["revealed"] is None
        assert state.check(f"@{first} {say[first]}") == (
            f"seat {first} has no identity answer to give now (only the landlords answer, "
            "each once)")
        state.apply(f"@{second} {say[second]}")
        assert state.phase == "double" and state.acting == [0, 1, 2, 3, 4]
        finals.append(views(state))
    assert finals[0] == finals[1]
    revealed = "reveal" in (o_says, h_says)
    for view in finals[0]:
        assert view["multiplier"]["causes"]["reveal"] == (2 if revealed else 1)
        assert view["last"][OL] == o_says  # the open landlord is asked in public
        knows = revealed or view["seat"] in (HL,)
        assert view["last"][HL] == (h_says if knows else None)


def test_the_identity_step_names_nobody_to_the_farmers() -> None:
    """Who else answers (and has answered) would name the hidden landlord: a seat sees only
    its own part in the step, and refusals say nothing about the others."""
    state = start({OL: "K", HL: "K"})
    for seat in SEATS:
        view = state.observe(seat)
        mine = seat in (OL, HL)
        assert view["acting"] == ([seat] if mine else [])
        assert view["to_act"] == (seat if mine else None)
        assert view["legal"] == ([] if not mine else
                                 ["reveal", "decline"] if seat == OL else
                                 ["@2 reveal", "@2 decline"])
    for farmer in (F1, F2, F3):
        reason = state.check("reveal", seat=farmer)
        assert reason == (f"seat {farmer} has no identity answer to give now (only the "
                          "landlords answer, each once)")
        assert str(HL) not in reason.replace(f"seat {farmer}", "")
    state.apply("@0 decline")  # only H left: a farmer's refusal still names nobody
    assert state.check("@3 reveal") == ("seat 3 has no identity answer to give now (only "
                                        "the landlords answer, each once)")


def test_a_farmer_cannot_tell_one_declined_landlord_from_two() -> None:
    f1_hand = "3344556677889TTJJQQA2"
    games = [start({F1: f1_hand, **lords}, copies=copies) for lords, copies in (
        ({OL: "K", HL: "K"}, ("hand0", "hand2")), ({OL: "KK"}, ("hand0", "hand0")))]
    assert [g.single for g in games] == [False, True]
    assert games[0].observe(F1) == games[1].observe(F1)
    games[0].apply("@0 decline")
    games[0].apply("@2 decline")
    games[1].apply("decline")
    for seat in (F1, F3):
        assert games[0].observe(seat) == games[1].observe(seat)
    assert games[0].observe(F1)["last"] == ["decline", None, None, None, None]


# -- the doubling step: all five together, in every order --------------------------------------


def test_doubling_answers_in_every_order() -> None:
    doublers = {F1, HL}
    finals = set()
    for order in itertools.permutations(SEATS):
        state = start({OL: "K", HL: "K"})
        state.apply("@0 decline")
        state.apply("@2 decline")
        done: list[int] = []
        for seat in order:
            assert sorted(state.acting) == sorted(s for s in SEATS if s not in done)
            assert state.to_act == state.acting[0]
            verb = "double" if seat in doublers else "decline"
            events = state.apply(f"@{seat} {verb}")
            done.append(seat)
            if len(done) < 5:
                assert all(GameState.events_for(events, s) == [] for s in SEATS if s != seat)
                for other in SEATS:
                    view = state.observe(other)
                    shown = view["detail"]["doubling"]["doubled"]
                    assert shown == ([other] if other in done and other in doublers else [])
                    assert [view["last"][s] for s in done if s != other] == \
                        [None if s != OL else "decline" for s in done if s != other]
            else:
                assert events[-1] == {"type": "doubling", "doubled": sorted(doublers)}
        assert state.phase == "play" and state.to_act == OL
        finals.add(json.dumps(views(state), sort_keys=True))
        assert replay(state.record()).observe(F1) == state.observe(F1)
    assert len(finals) == 1  # the order of the answers leaves no trace in any view


def test_a_doubling_answer_given_twice_or_by_nobody_is_refused() -> None:
    state = start({OL: "K", HL: "K"})
    state.apply("@0 decline")
    state.apply("@2 decline")
    state.apply("@3 double")
    assert state.check("@3 decline") == "seat 3 has nothing to answer now (waiting for " \
        "seats 0, 1, 2, 4)"
    assert state.check("@3 double", seat=1) == "seat 1 cannot act for seat 3"
    assert state.check("double", seat=4) is None  # the asking seat answers for itself
    state.apply("double", seat=4)
    assert state.actions[-1] == "@4 double"


# -- roles and the table as each seat knows them --------------------------------------------


def test_roles_as_each_seat_knows_them() -> None:
    state = start({OL: "K", HL: "K"})
    assert state.observe(F1)["roles"] == ["landlord", "farmer", None, None, None]
    assert state.observe(OL)["roles"] == ["landlord", None, None, None, None]
    everyone = ["landlord", "farmer", "landlord", "farmer", "farmer"]
    assert state.observe(HL)["roles"] == everyone
    state.apply("@2 reveal")
    assert state.observe(F1)["roles"] == ["landlord", "farmer", None, None, None]
    state.apply("@0 decline")
    assert all(state.observe(s)["roles"] == everyone for s in SEATS)
    single = start({OL: "3456789TJQKA 3456789TK"}, kitty="JQA", copies=("hand0", "hand0"))
    assert single.observe(OL)["roles"] == ["landlord", *["farmer"] * 4]
    assert single.observe(F2)["roles"] == ["landlord", None, None, "farmer", None]


# -- leaving (platform §5: landlord rate for either landlord, farmer rate for farmers) ------


def bomb_deal() -> dict[str, Any]:
    """O holds three 5-card bombs; the other hands none; the other 8h with seat 1 (H)."""
    o = "33333 44444 55555 666 77 8h"
    rest = [r for r in range(15) for _ in range(8 if r < 13 else 2)]
    for r in parse_ranks(o):
        rest.remove(r)
    kitty = "9TJ"
    for r in parse_ranks(kitty):
        rest.remove(r)
    hands = [o, *(format_ranks(rest[s::4]) for s in range(4))]
    hands[1] = hands[1].replace("8", "8h", 1)
    return {"hands": hands, "kitty": kitty}


# (before, leaver, role, M_act, points)
BOMB_ESCAPES = [
    ([], HL - 1, "landlord", 8, [5, -20, 5, 5, 5]),  # H (seat 1) before answering: 8 < 10
    ([], 3, "farmer", 8, [2.5, 2.5, 2.5, -10, 2.5]),
    (["@0 reveal"], OL, "landlord", 8, [-20, 5, 5, 5, 5]),  # not public before the step closes
    (["@0 reveal", "@1 decline"], OL, "landlord", 16, [-64, 16, 16, 16, 16]),  # 4 × 16
    (["@0 reveal", "@1 decline", "@4 double"], 2, "farmer", 16, [8, 8, -32, 8, 8]),
]


@pytest.mark.parametrize(("before", "leaver", "role", "m_act", "points"), BOMB_ESCAPES)
def test_escape_rates_with_bombs_held(before: list[str], leaver: int, role: str, m_act: int,
                                      points: list[float]) -> None:
    state = new_game("ddz5", seed=1, options={"deal": bomb_deal(), "revealed": "8h",
                                              "landlord": 0, "N": 100, "A": 10})
    assert isinstance(state, FivePlayer) and state.hidden == 1
    for text in before:
        state.apply(text)
    events = state.apply(f"@{leaver} leave")
    assert [e["type"] for e in events] == ["leave", "escape", "over"]
    result = state.result()
    assert result is not None and result["ended"] == "escape"
    assert (result["detail"]["role"], result["detail"]["held_bombs"]) == (role, 3)
    assert result["detail"]["M_act"] == m_act == result["multiplier"]["total"]
    assert result["points"] == points and sum(points) == 0
    assert result["winners"] == [s for s in SEATS if s != leaver]
    x_esc = -points[leaver]
    share = int(x_esc * 100) // 4  # beans: X_esc × N in four shares, the fee from the escaper
    assert result["beans"] == [-(4 * share) - 10 if s == leaver else share for s in SEATS]
    assert result["detail"]["beans"]["house"] == 10


def test_leaving_from_every_seat_in_every_phase() -> None:
    covered: set[tuple[str, int, int]] = set()
    for seed in range(8):
        state = new_game("ddz5", seed=seed)
        rng = random.Random(seed)
        while not state.over:
            answered = len(state.answers if state.phase == "identity"  # type: ignore[attr-defined]
                           else state.doubled)  # type: ignore[attr-defined]
            step = (str(state.phase), min(answered, 1) if state.phase != "play" else 0)
            for seat in SEATS:
                if (*step, seat) not in covered:
                    covered.add((*step, seat))
                    check_escape(state.clone(), seat)
            seat = rng.choice(state.acting)
            state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
    assert {p for p, _, _ in covered} == {"identity", "double", "play"}
    assert len(covered) == 5 * 5  # identity and double, before and after a first answer


def check_escape(state: Any, seat: int) -> None:
    role = "landlord" if seat in state.landlords() else "farmer"
    state.apply(f"@{seat} leave forced")
    result = state.result()
    detail = result["detail"]
    assert result["ended"] == "escape" and detail["role"] == role
    m = detail["M_act"]
    x_esc = {"landlord": 20, "farmer": 10}[role] if m < 10 else \
        {"landlord": 4, "farmer": 2}[role] * m
    assert detail["X_esc"] == x_esc and result["penalties"] == [0] * 5
    assert result["points"] == [-x_esc if s == seat else x_esc / 4 for s in SEATS]
    assert sum(result["points"]) == 0


# -- 托管 -----------------------------------------------------------------------------------------


def test_auto_in_the_simultaneous_steps_and_the_lock() -> None:
    state = start({OL: "K", HL: "K"})
    state.apply("@3 auto on")  # any seat, any time, even one not asked
    state.apply("@2 reveal")
    assert state.observe(F1)["auto"] == [False, False, False, True, False]
    for _ in range(3):
        state.apply("@3 auto off")
        state.apply("@3 auto on")
    assert state.observe(0)["auto_locked"][3]
    assert "locked" in (state.check("@3 auto off") or "")
    state.apply("@0 decline")
    again = replay(json.loads(json.dumps(state.record())))
    assert again.auto_entries == [0, 0, 0, 4, 0]
    assert [again.observe(s) for s in SEATS] == views(state)


def test_every_seat_on_auto_at_the_end_is_unscored() -> None:
    for seed in range(3):
        state = new_game("ddz5", seed=seed, options={"N": 100, "A": 10})
        for seat in SEATS:
            state.apply(f"@{seat} auto on")
        play_random(state, random.Random(seed))
        result = state.result()
        assert result is not None
        assert (result["ended"], result["points"], result["winners"]) == \
            ("unscored", [0] * 5, [])
        assert result["beans"] == [0] * 5 and "beans" not in result["detail"]
        assert result["dissolve"]


# -- scriptable set-up: revealed and landlord -----------------------------------------------


def test_revealed_and_landlord_fix_what_the_seed_would_draw() -> None:
    deal = make_deal({OL: "K", HL: "K"})
    seen = []
    for seed in range(4):
        state = new_game("ddz5", seed=seed, options={"deal": deal, "revealed": "Kd",
                                                     "landlord": HL})
        assert isinstance(state, FivePlayer)
        assert (state.landlord, state.hidden) == (HL, OL)
        assert state.observe(F1)["detail"]["revealed_card"] == "Kd"
        seen.append(views(state))
    assert all(v == seen[0] for v in seen)
    state = new_game("ddz5", seed=0, options={"deal": deal, "revealed": "Th"})
    assert state.observe(0)["detail"]["revealed_card"] == "Th"


@pytest.mark.parametrize("bad", ["T", "Tx", "th h", "X", "D", 5, True, ["Th"], "Th" * 100])
def test_the_revealed_option_is_one_suited_non_joker_card(bad: Any) -> None:
    with pytest.raises(IllegalAction, match="option revealed"):
        new_game("ddz5", options={"revealed": bad})


# -- result shape, views, hostile actions --------------------------------------------------


def test_result_shape_and_views_over_random_games() -> None:
    for seed in range(6):
        state = new_game("ddz5", seed=seed, options={"N": 100, "A": 10})
        rng = random.Random(seed)
        while True:
            if seed < 2:
                assert_no_leak(state, rng)
            for seat in SEATS:
                view = state.observe(seat)
                assert "log" not in view
                assert len(json.dumps(view, ensure_ascii=False).encode()) < VIEW_LIMIT
            if state.over:
                break
            seat = rng.choice(state.acting)
            state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
        result = state.result()
        assert result is not None and result["ended"] == "finished"
        lords = result["detail"]["landlords"]
        assert result["winners"] in (sorted(lords), [s for s in SEATS if s not in lords])
        assert sum(result["points"]) == 0
        assert math.prod(result["multiplier"]["causes"].values()) == \
            result["multiplier"]["total"] == result["detail"]["M"]
        assert sum(result["beans"]) + result["detail"]["beans"]["house"] == 0


def test_hostile_actions_change_nothing_in_any_step() -> None:
    state = start({OL: "3K", HL: "K"})
    for text in [None, "@0 decline", "@2 reveal", "@4 double", "@1 decline", "@0 double",
                 "@2 decline", "@3 decline", "play 3", "pass"]:
        if text is not None:
            state.apply(text)
        before = snapshot(state)
        for bad in hostile_actions(state):
            if isinstance(bad, str) and bad.strip() in ("reveal", "double"):
                continue  # legal answers in some steps
            reason = state.check(bad)
            if reason is None:
                continue
            assert 0 < len(reason) <= 200, reason
            with pytest.raises(IllegalAction):
                state.apply(bad)
        assert snapshot(state) == before
