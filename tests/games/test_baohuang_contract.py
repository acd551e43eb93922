"""保皇 on the game contract: simultaneous windows in every order, leaving, 托管, results,
scriptable set-ups, hostile actions and compact views (../shared/rules/baohuang.md,
platform.md §4–5; the house rulings are in docs/rulings.md, 保皇).

Deals are puzzles as in test_baohuang.py: a few cards per seat, the rest out of play;
``emperor`` is the seat dealt the emperor card, ``sword`` the guard card's seat.
"""

from __future__ import annotations

import itertools
import json
import random
import time
from typing import Any

import pytest

from cardhall.games import VARIANTS, IllegalAction, new_game, replay
from cardhall.games.baohuang import Baohuang
from cardhall.games.base import MAX_ACTION_TEXT, Action
from cardhall.games.view import judge
from tests.games.test_baohuang import P, game, run

VIEW_LIMIT = 16 * 1024


def views(state: Baohuang, seats: Any = range(5)) -> list[str]:
    return [json.dumps(state.observe(s), sort_keys=True, ensure_ascii=False) for s in seats]


def answer(state: Baohuang, seat: int, text: str) -> list[dict[str, Any]]:
    return state.apply(f"@{seat} {text}")


# -- 抢独: the guard window answered by five seats at once ------------------------------------

ROB_HANDS = ["6h", "7h", "D 8s 8s 8s", "8s 9h", "Th"]
ALONE_HANDS = ["6h", "7h", "D 8s 8s 8s 8s", "9h", "Th"]
#: (hands, answers by seat, the outcome every order must reach)
ROB_CASES = {
    "nearest robber wins": (ROB_HANDS, {2: "call 8s", 1: "no", 0: "rob-solo", 4: "rob-solo",
                                        3: "no"}, ("play", 0, "open", True)),
    "the emperor's solo first": (ROB_HANDS, {2: "solo", 1: "rob-solo", 0: "no", 4: "rob-solo",
                                             3: "no"}, ("play", 2, "open", False)),
    "hidden solo shown by robs": (ALONE_HANDS, {2: "call 8s", 1: "rob-solo", 0: "no", 4: "no",
                                                3: "no"}, ("play", 2, "hidden", False)),
    "nobody robs": (ROB_HANDS, {2: "call 8s", 1: "no", 0: "no", 4: "no", 3: "no"},
                    ("disclose", 2, None, False)),
}
FLIP = {"call 8s": "solo", "solo": "call 8s", "rob-solo": "no", "no": "rob-solo"}


def rob_window(hands: list[str]) -> Baohuang:
    state = game(hands, emperor=2, qiangdu=True)
    state.apply("accept")
    return state


@pytest.mark.parametrize("case", sorted(ROB_CASES))
def test_rob_window_in_every_order(case: str) -> None:
    """All 120 orders of the five answers reach the same state (Ruling 7 reads the answers,
    not their order); while open, ``acting`` is every seat still to answer, ``to_act`` the
    first of them in the window's order (the emperor, then the 上家 direction)."""
    hands, answers, (phase, emperor, solo, robbed) = ROB_CASES[case]
    canonical = [2, 1, 0, 4, 3]
    finals = set()
    for order in itertools.permutations(canonical):
        state = rob_window(hands)
        for k, seat in enumerate(order):
            waiting = [s for s in canonical if s not in order[:k]]
            assert state.acting == waiting and state.to_act == waiting[0]
            texts = [a.text for a in state.legal_actions(seat)]
            tagged = len(waiting) > 1 and seat != state.to_act
            assert texts and all(t.startswith(f"@{seat} ") is tagged for t in texts)
            answer(state, seat, answers[seat])
        assert (state.phase, state.emperor, state.solo, state.robbed) == (phase, emperor, solo,
                                                                          robbed)
        finals.add(tuple(views(state)))
        assert replay(state.record()).observe(0) == state.observe(0)
    assert len(finals) == 1


@pytest.mark.parametrize("case", sorted(ROB_CASES))
def test_rob_answers_stay_private_until_the_window_closes(case: str) -> None:
    """Before the last answer, a seat's view and the events it is sent are the same
    whatever the others answered; its own answer shows only in its own ``last``."""
    hands, answers, _ = ROB_CASES[case]
    flipped = {s: FLIP[a] for s, a in answers.items()}
    for order in random.Random(case).sample(list(itertools.permutations(answers)), 12):
        for seat in range(5):
            other = {s: (answers[s] if s == seat else flipped[s]) for s in answers}
            a, b = rob_window(hands), rob_window(hands)
            for s in order[:-1]:
                sent_a = Baohuang.events_for(answer(a, s, answers[s]), seat)
                sent_b = Baohuang.events_for(answer(b, s, other[s]), seat)
                assert sent_a == sent_b
                assert views(a, [seat]) == views(b, [seat])
            if seat in order[:-1]:
                assert a.observe(seat)["last"][seat] == answers[seat]


def test_window_answers_by_the_seat_asking() -> None:
    """A hall passes the connection's seat; an answer given twice or for another is refused."""
    state = rob_window(ROB_HANDS)
    state.apply("rob-solo", seat=4)
    assert state.actions[-1] == "@4 rob-solo"
    assert state.check("no", seat=4) == "seat 4 has nothing to answer now (waiting for seats " \
                                        "2, 1, 0, 3)"
    assert state.check("@3 no", seat=1) == "seat 1 cannot act for seat 3"
    assert state.check("@1 call 8s") == "抢独: answer rob-solo or no"
    assert state.check("@2 rob-solo") == ("call a card you hold three of (e.g. call 7s), "
                                          "or solo (明独保)")
    assert [a.text for a in state.legal_actions(1)] == ["@1 rob-solo", "@1 no"]
    assert state.legal_actions(4) == []  # answered
    state.apply("call 8s")  # the emperor is to_act: a bare answer is his, tagged in the record
    assert state.actions[-1] == "@2 call 8s"
    assert state.acting == [1, 0, 3] and state.to_act == 1


# -- 造反: the rebellion answered by four seats at once --------------------------------------

REBELLION = ["D7", "9", "X8", "T", "J"]


def rebellion_window() -> Baohuang:
    state = game(REBELLION, "simple", sword=2)
    run(state, ["accept", "no-solo", "hidden"])
    assert state.phase == "rebellion"
    return state


@pytest.mark.parametrize("rebels", [(), (1,), (1, 3), (2, 4), (1, 2, 3, 4)])
def test_rebellion_in_every_order(rebels: tuple[int, ...]) -> None:
    answers = {s: "rebel" if s in rebels else "no" for s in (1, 2, 3, 4)}
    finals = set()
    for order in itertools.permutations(answers):
        state = rebellion_window()
        for k, seat in enumerate(order):
            waiting = [s for s in (1, 2, 3, 4) if s not in order[:k]]
            assert state.acting == waiting and state.to_act == waiting[0]
            events = answer(state, seat, answers[seat])
            if k < 3:  # private until the last answer
                for other in range(5):
                    sent = Baohuang.events_for(events, other)
                    assert all(e.get("answer") is None for e in sent) or other == seat
                    assert state.observe(other)["last"][seat] == (
                        answers[seat] if other == seat else None)
                    assert state.observe(other)["detail"]["rebels"] == []
        assert state.rebels == sorted(rebels) and state.rebellion is (len(rebels) >= 2)
        assert state.phase == "play"
        assert all(state.observe(0)["last"][s] == answers[s] for s in answers)  # hoe icons
        finals.add(tuple(views(state)))
    assert len(finals) == 1


def test_a_hidden_solo_and_a_hidden_guard_look_the_same_to_the_others() -> None:
    """The phantom disclosure: seats 1, 3, 4 cannot tell the emperor alone with the guard
    card (hidden-solo, then his own 'hidden') from seat 2 holding it, through every step
    until the first card."""
    alone = game(["D7X", "9", "88", "T", "J"], "simple", sword=0)
    pair = game(["D78", "9", "8X", "T", "J"], "simple", sword=2)
    steps_alone = ["accept", "hidden-solo", "hidden", "no", "no", "no", "no"]
    steps_pair = ["accept", "no-solo", "hidden", "no", "no", "no", "no"]
    watchers = [1, 3, 4]
    assert views(alone, watchers) == views(pair, watchers)
    for a, b in zip(steps_alone, steps_pair, strict=True):
        ea, eb = alone.apply(a), pair.apply(b)
        for s in watchers:
            assert Baohuang.events_for(ea, s) == Baohuang.events_for(eb, s)
        assert views(alone, watchers) == views(pair, watchers), (a, b)
    assert alone.phase == pair.phase == "play"


# -- leaving and 托管 (Ruling 18, platform §4–5) ----------------------------------------------

#: Simple mode with 抢独: every phase is reached; the prefix reaching each phase.
PHASES = ["accept", "no-solo", "no", "no", "no", "no", "hidden", "no", "no", "no", "no",
          "play 7", "play 9", P, "play T", "play J"]
AT = {"emperor": 0, "guard": 1, "disclose": 6, "rebellion": 7, "play": 11}


def every_phase_game() -> Baohuang:
    return game(REBELLION, "simple", sword=2, qiangdu=True)


def finish(state: Baohuang, start: int) -> None:
    for text in PHASES[start:]:
        acting = state.acting
        state.apply(text if len(acting) == 1 else f"@{acting[0]} {text}")


@pytest.mark.parametrize("phase", sorted(AT))
@pytest.mark.parametrize("forced", [False, True], ids=["exit button", "forced"])
def test_leaving_from_every_seat_in_every_phase(phase: str, forced: bool) -> None:
    plain = every_phase_game()
    finish(plain, 0)
    expected = plain.result()
    assert expected is not None and expected["points"] == [-6, 3, -3, 3, 3]
    for seat in range(5):
        state = every_phase_game()
        finish_prefix(state, PHASES[:AT[phase]])
        assert state.phase == phase
        before = (state.phase, state.to_act, state.acting,
                  [a.text for a in state.legal_actions()])
        events = state.apply(f"@{seat} leave" + (" forced" if forced else ""))
        assert events[0] == {"type": "leave", "seat": seat, "forced": forced,
                             **({"penalty": -40} if forced else {})}
        assert (state.phase, state.to_act, state.acting,
                [a.text for a in state.legal_actions()]) == before  # play goes on
        assert state.left[seat] and state.auto[seat]
        assert state.check(f"@{seat} auto off") == f"seat {seat} has left the game"
        assert state.check(f"@{seat} leave forced") == f"seat {seat} has already left the game"
        finish(state, AT[phase])
        result = state.result()
        assert result is not None and result["points"] == expected["points"]
        assert result["penalties"] == [-40 if forced and s == seat else 0 for s in range(5)]
        assert result["ended"] == "finished" and result["dissolve"]
        assert replay(json.loads(json.dumps(state.record()))).result() == result


def test_tuoguan_on_off_and_the_fourth_entry_locks() -> None:
    state = every_phase_game()
    for k in range(1, 4):
        assert state.apply("@3 auto on")[0] == {"type": "auto", "seat": 3, "on": True,
                                                "entries": k, "locked": False}
        assert state.check("@3 auto on") == "seat 3 is already on 托管"
        state.apply("@3 auto off")
    assert state.check("@3 auto off") == "seat 3 is not on 托管"
    state.apply("@3 auto on")
    assert state.observe(0)["auto_locked"] == [False, False, False, True, False]
    assert state.check("@3 auto off") == "托管 is locked for seat 3: it was entered 4 times"
    finish(state, 0)
    result = state.result()
    assert result is not None and result["auto"] == [False, False, False, True, False]
    assert result["points"] == [-6, 3, -3, 3, 3] and result["penalties"] == [0] * 5
    again = replay(state.record())
    assert again.auto_locked(3) and again.result() == result


@pytest.mark.parametrize("last_off", [None, 4])
def test_all_tuoguan_at_the_natural_end_is_unscored(last_off: int | None) -> None:
    state = every_phase_game()
    for seat in range(5):
        state.apply(f"@{seat} auto on")
    state.apply("@1 leave forced")  # penalties stand either way
    if last_off is not None:
        state.apply(f"@{last_off} auto off")
    finish(state, 0)
    result = state.result()
    assert result is not None
    if last_off is None:
        assert result["ended"] == "unscored" and result["points"] == [0] * 5
        assert result["winners"] == []
    else:
        assert result["ended"] == "finished" and result["points"] == [-6, 3, -3, 3, 3]
        assert result["winners"] == [1, 3, 4]
    assert result["penalties"] == [0, -40, 0, 0, 0]


# -- results ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("steps", "points", "winners", "causes"), [
    (["accept", "solo", "play 7+D"], [24, -6, -6, -6, -6], [0], {"open_solo": 2}),
    (["accept", "solo", "play 7", "play 8"], [-24, 6, 6, 6, 6], [1, 2, 3, 4],
     {"open_solo": 2}),
], ids=["open solo won", "open solo lost"])
def test_result_shape(steps: list[str], points: list[int], winners: list[int],
                      causes: dict[str, int]) -> None:
    state = game(["7D", "8", "9", "T", "J"])
    run(state, steps)
    result = state.result()
    assert result is not None
    assert result["variant"] == "baohuang" and result["version"] == 2
    assert result["ended"] == "finished" and result["points"] == points
    assert result["winners"] == winners and sum(points) == 0
    assert result["multiplier"] == {"total": 2, "causes": causes}
    detail = result["detail"]
    assert detail["roles"] == ["emperor", "rebel", "rebel", "rebel", "rebel"]
    assert detail["solo"] == "open" and detail["base"]["emperor"] == points[0] // 2
    assert state.observe(3)["multiplier"] == result["multiplier"]


def test_the_view_multiplier_shows_only_what_is_public() -> None:
    state = game(REBELLION, "simple", sword=2)
    run(state, ["accept", "no-solo"])
    assert all(state.observe(s)["multiplier"] == {"total": 1, "causes": {}} for s in range(5))
    state.apply("open")
    assert all(state.observe(s)["multiplier"] == {"total": 2, "causes": {"open_guard": 2}}
               for s in range(5))
    rebels = rebellion_window()
    run(rebels, ["rebel", "rebel", "no", "no"])  # ×2 only if the rebels win: not yet
    assert rebels.observe(1)["multiplier"] == {"total": 1, "causes": {}}


# -- scriptable set-ups -----------------------------------------------------------------------


def test_the_emperor_and_guard_card_options_pick_among_the_holders() -> None:
    hands = ["D X 7", "D X 8", "9", "T", "J"]
    for seat in (0, 1):
        state = game(hands, "simple", emperor=seat, sword=1 - seat)
        assert state.holder == state.to_act == seat and state.sword == 1 - seat
    with pytest.raises(IllegalAction, match="option emperor_card: seat 2 is dealt no emperor"):
        game(hands, emperor=2)
    with pytest.raises(IllegalAction, match="option guard_card: seat 3 is dealt no guard"):
        game(hands, "simple", sword=3)
    # without the options, each dealt copy is equally likely: over seeds both holders occur
    games = [new_game("baohuang", seed=s, options={"deal": {"hands": hands}, "mode": "simple"})
             for s in range(30)]
    drawn = {g.holder for g in games if isinstance(g, Baohuang)}
    assert drawn == {0, 1}


@pytest.mark.parametrize("first", range(5))
def test_first_seat_option(first: int) -> None:
    state = new_game("baohuang", seed=3, options={"first": first, "emperor_card": None})
    assert isinstance(state, Baohuang)
    assert [len(state.hands[(first + i) % 5]) for i in range(5)] == [34, 34, 34, 33, 33]
    assert state.observe(0)["detail"]["first"] == first


def test_a_given_deal_mixes_suited_and_bare_cards() -> None:
    state = game(["D 7s 7s 7s 6", "7", "8h 8", "X", "22"])
    held = [state.observe(s)["hand"] for s in range(5)]
    assert held[0].count("7s") == 3 and held[0][0][0] == "6" and held[0][-1] == "D"
    assert held[1][0][0] == "7" and "8h" in held[2] and held[3] == ["X"]
    assert [len(h) for h in held] == [5, 1, 2, 1, 2]
    assert state.dead and len(state.dead) == 168 - 11
    with pytest.raises(IllegalAction, match="more cards than the deck holds"):
        game(["D 7s 7s 7s 7s 7s", "7", "8", "X", "2"])
    with pytest.raises(IllegalAction, match="option deal needs 5 hands"):
        game(["D", "7"])
    with pytest.raises(IllegalAction, match="option deal"):
        game(["D", "", "8", "9", "T"])


def test_options_are_described_as_data() -> None:
    described = {o["name"]: o for o in VARIANTS["baohuang"].describe()["options"]}
    assert "deal" not in described  # secret
    assert described["first"]["kind"] == "seat" and described["first"]["maximum"] == 4
    assert described["emperor_card"]["kind"] == "seat"
    assert described["mode"]["kind"] == "choice" and described["kaopai"]["kind"] == "bool"
    assert all(o["help_zh"] != o["help"] for o in described.values())
    assert VARIANTS["baohuang"].options["deal"].resolved_kind() == "deal"
    with pytest.raises(IllegalAction, match="first must be one of"):
        new_game("baohuang", options={"first": 5})


def test_an_old_record_is_refused() -> None:
    state = game(["7D", "8", "9", "T", "J"])
    record = {**state.record(), "version": 1}
    with pytest.raises(IllegalAction, match="version 1"):
        replay(record)


# -- hostile actions --------------------------------------------------------------------------

HOSTILE: list[Any] = [
    Action("call", "7s 8s"), Action("call", "X" * 300), Action("accept", "now"),
    Action("play", "7" * 300), Action("rob-solo", "", 9), Action("no", "", -1),
    Action("quit", "", 1), Action("escape", "", 2), Action("leave", "soon", 1),
    Action("auto", "maybe", 1), Action(7, "x"),  # type: ignore[arg-type]
    Action("play", 7),  # type: ignore[arg-type]
    Action("pass", "", True),  # type: ignore[arg-type]
    "x" * 10_000, "call " + "7s" * 5000, "@1 " + "rebel " * 2000, "@99999 no", "@x no",
    "call 7s 8s", "call 1", "accept now", "pass now", "@1", "@", "", "   ", "play", "play 5",
    "bid 9", "double", "@1 auto", "@1 leave now",
]


def test_hostile_actions_are_refused_cheaply_and_change_nothing() -> None:
    foreign = new_game("ddz3", seed=1).legal_actions()
    for prefix in (["accept"], ["accept", "no-solo", "no", "no", "no"],
                   PHASES[:AT["rebellion"]], PHASES[:AT["play"]]):
        state = every_phase_game()
        finish_prefix(state, prefix)
        snapshot = (views(state), list(state.actions))
        for bad in [*HOSTILE, *foreign]:
            start = time.perf_counter()
            reason = state.check(bad)
            assert reason is not None, bad
            assert len(reason) < 300 and time.perf_counter() - start < 0.05
            with pytest.raises(IllegalAction):
                state.apply(bad)
        assert (views(state), list(state.actions)) == snapshot


def finish_prefix(state: Baohuang, prefix: list[str]) -> None:
    for text in prefix:
        acting = state.acting
        state.apply(text if len(acting) == 1 else f"@{acting[0]} {text}")


def test_a_long_text_is_refused_before_it_is_read() -> None:
    state = every_phase_game()
    assert state.check("play " + "7" * MAX_ACTION_TEXT) == (
        f"an action is at most {MAX_ACTION_TEXT} characters (this one has "
        f"{MAX_ACTION_TEXT + 5})")


# -- compact views ----------------------------------------------------------------------------


@pytest.mark.parametrize("options", [
    {}, {"mode": "simple", "qiangdu": True}, {"kaopai": True, "bie6": True, "qiangdu": True},
], ids=["classic", "simple-qiangdu", "classic-all"])
def test_every_view_stays_under_16_kb(options: dict[str, Any]) -> None:
    """Random whole games (big hands at the start, every card at the end): every seat's view
    at every step is under 16 KB of JSON, with no log in it."""
    largest = steps = 0
    for seed in range(6):
        state = new_game("baohuang", seed=seed, options=options)
        rng = random.Random(seed)
        while True:
            for seat in range(5):
                obs = state.observe(seat)
                assert "log" not in obs and "log" not in obs["detail"]
                largest = max(largest, len(json.dumps(obs, ensure_ascii=False).encode()))
            if state.over:
                break
            legal = state.legal_actions()
            # the long games: no solo and no rob where there is another answer
            long = [a for a in legal if a.verb not in ("solo", "rob-solo")] or legal
            state.apply(rng.choice(long if seed % 2 else legal))
            steps += 1
    assert steps > 600 and largest < VIEW_LIMIT


def test_a_long_lead_list_becomes_a_plays_index() -> None:
    """Eight jokers on a 34-card hand: about 650 leads, given as ``plays``, each judged."""
    state = game(["DDDDXXXX 666 777 888 999 TTT JJ QQ KK AA 22", "6", "7", "8", "9"])
    run(state, ["accept", "solo"])
    obs = state.observe(0)
    assert not obs["legal_complete"] and "plays" in obs
    assert obs["plays"]["count"] == len(state.legal_actions())
    assert len(json.dumps(obs, ensure_ascii=False).encode()) < VIEW_LIMIT
    for action in state.legal_actions()[:50]:
        assert action.play is not None
        selection: dict[str, int] = {}
        for label in action.play.text.replace("+", ""):
            selection[label] = selection.get(label, 0) + 1
        assert judge(obs["plays"], selection)
    assert not judge(obs["plays"], {"6": 1, "7": 1})


# -- roles as each seat knows them --------------------------------------------------------------


def roles_seen(state: Baohuang) -> list[list[str | None]]:
    return [state.observe(s)["roles"] for s in range(5)]


def test_roles_as_each_seat_knows_them() -> None:
    E, G, R, N = "emperor", "guard", "rebel", None
    state = game(REBELLION, "simple", sword=2)
    assert roles_seen(state) == [[N] * 5] * 5  # the emperor card is still travelling
    state.apply("accept")
    assert roles_seen(state) == [[E, N, N, N, N]] * 5  # the guard window is open
    state.apply("no-solo")
    assert roles_seen(state) == [
        [E, N, N, N, N],  # the emperor does not know his guard
        [E, R, N, N, N],  # a rebel knows himself
        [E, R, G, R, R],  # the guard knows everyone
        [E, N, N, R, N],
        [E, N, N, N, R]]
    state.apply("open")
    assert roles_seen(state) == [[E, R, G, R, R]] * 5
    alone = game(["XD7", "9", "8", "T", "J"], "simple", sword=0)
    run(alone, ["accept", "hidden-solo"])
    assert roles_seen(alone)[0] == [E, R, R, R, R]  # alone, he knows all are rebels
    assert roles_seen(alone)[1] == [E, R, N, N, N]
