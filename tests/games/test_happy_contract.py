"""欢乐斗地主 and 癞子场 on the game contract: windows answered at once, leaving, 托管,
scriptable set-ups, hostile actions, views (size, the ``plays`` index) and options.

The scripted deal and helpers are test_happy.py's (seat 0 is the rule file's A).
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from typing import Any

import pytest

from cardhall.cards import format_ranks
from cardhall.games import VARIANTS as REGISTRY
from cardhall.games import Action, GameState, IllegalAction, new_game, replay, variant
from cardhall.games.happy import Happy
from cardhall.games.view import judge
from tests.games.test_happy import (
    NO_DOUBLES,
    QUIET,
    READY,
    WIN_NO_BOMB,
    game,
    ranks,
    run,
    settled,
)

#: The variants played by the happy rules (欢乐 and its 癞子场).
VARIANTS = [v.id for v in REGISTRY.values()
            if isinstance(v.factory, type) and issubclass(v.factory, Happy)]
CALLED = [*QUIET, "call", "no-rob", "no-rob"]  # landlord 0, the doubling window open
KILOBYTES_16 = 16 * 1024


def views(state: GameState) -> str:
    return json.dumps([state.observe(s) for s in range(3)], sort_keys=True, ensure_ascii=False)


# -- the doubling window: all three at once ---------------------------------------------------

@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
@pytest.mark.parametrize("answers", [("double", "no-double", "double"),
                                     ("no-double", "no-double", "no-double"),
                                     ("double", "double", "double")])
def test_doubling_answers_in_any_order(order: tuple[int, ...], answers: tuple[str, ...]) -> None:
    state = game()
    run(state, CALLED)
    assert state.phase == "double" and state.acting == [0, 1, 2] and state.to_act == 0
    assert state.legal_actions(1) == [Action("no-double", seat=1), Action("double", seat=1)]
    waiting = [0, 1, 2]
    for seat in order:
        others = [s for s in range(3) if s != seat]
        # What the others see does not depend on the answer: compare with the other answer.
        other_answer = "no-double" if answers[seat] == "double" else "double"
        twin = state.clone()
        state.apply(f"@{seat} {answers[seat]}")
        twin.apply(f"@{seat} {other_answer}")
        waiting.remove(seat)
        if waiting:
            assert state.acting == waiting and state.to_act == waiting[0]
            for s in others:
                assert state.observe(s) == twin.observe(s), f"seat {s} learns {seat}'s answer"
            assert state.observe(seat)["last"][seat] == answers[seat]
            assert state.check(f"@{seat} double") == (
                f"seat {seat} has nothing to answer now (waiting for seats "
                f"{', '.join(map(str, waiting))})" if len(waiting) > 1 else
                f"it is seat {waiting[0]}'s turn, not seat {seat}'s")
    assert state.phase == "show" and state.acting == [0]
    # Every answer is written with its seat, but the last one, once it is alone in the window.
    assert state.actions[-3:] == [*(f"@{s} {answers[s]}" for s in order[:2]),
                                  answers[order[2]]]
    doubled = [s for s in range(3) if answers[s] == "double"]
    assert state.observe(1)["detail"]["doubling"]["doubled"] == doubled
    assert state.observe(2)["last"] == list(answers)
    # The same answers in another order reach the same table.
    same = game()
    run(same, [*CALLED, *(f"@{s} {answers[s]}" for s in range(3))])
    assert views(same) == views(state)
    assert replay(state.record()).observe(1) == state.observe(1)


def test_doubling_ineligible_seats_are_offered_only_no_double() -> None:
    state = game(balances=[9_000, 4_000, 9_000], double_min_beans=5_000)
    run(state, CALLED)
    assert state.observe(0)["detail"]["doubling"]["eligible"] == [False, False, True]
    for seat, eligible in enumerate([False, False, True]):
        legal = [a.text for a in state.legal_actions(seat)]
        prefix = "" if seat == state.to_act else f"@{seat} "
        assert legal == [f"{prefix}no-double"] + ([f"{prefix}double"] if eligible else [])
        assert state.observe(seat)["legal"] == legal
        if not eligible:
            reason = state.check(f"@{seat} double")
            assert reason is not None and "more than 5000 beans" in reason
    run(state, ["@2 double", "@1 no-double", "@0 no-double", "no-show", *WIN_NO_BOMB])
    result, detail = settled(state)
    assert detail["doubling"] == {"doubled": [2], "factors": [1, 1, 2]}
    assert result["points"] == [3, -1, -2]


def test_doubling_window_is_closed_to_nobody_else() -> None:
    state = game()
    run(state, [*CALLED, "@1 no-double"])
    assert state.acting == [0, 2]
    for text in ("@1 double", "@1 no-double"):
        assert state.check(text) == "seat 1 has nothing to answer now (waiting for seats 0, 2)"
    assert state.check("double", seat=1) is not None
    assert state.check("double", seat=2) is None  # a server passes the connection's seat
    state.apply("double", seat=2)
    assert state.actions[-1] == "@2 double" and state.acting == [0]
    state.apply("no-double")  # the last one: written bare
    assert state.actions[-1] == "no-double" and state.phase == "show"


# -- the pre-deal and deal windows: any player not yet showing may act -----------------------

@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_ready_window_any_order_first_shower_calls_first(order: tuple[int, ...]) -> None:
    state = game()
    assert state.acting == [0, 1, 2]
    for seat in order:
        state.apply(f"@{seat} show-start" if seat != 0 else "@0 start")
    assert state.phase == "deal" and state.acting == [0]
    showers = [s for s in order if s != 0]
    assert list(state.shown) == showers  # in the order the answers came (Ruling 20)
    run(state, ["no-show", "no-show"])
    assert state.phase == "call" and state.to_act == showers[0]


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_deal_point_any_order(order: tuple[int, ...]) -> None:
    state = game()
    run(state, READY)
    assert state.phase == "deal" and state.observe(0)["detail"]["dealt"] == 8
    answers = {0: "no-show", 1: "show", 2: "show"}
    for seat in order:
        assert state.acting == [s for s in range(3) if s not in state.shown
                                and f"@{s}" not in " ".join(state.actions[3:])]
        state.apply(f"@{seat} {answers[seat]}")
    assert state.shown == {s: 4 for s in order if s != 0}  # ×4 at the first point
    assert state.observe(0)["detail"]["dealt"] == 17 and state.acting == [0]
    state.apply("no-show")
    assert state.phase == "call" and state.to_act == next(s for s in order if s != 0)


# -- leaving -------------------------------------------------------------------------------

#: Set-up prefixes reaching every phase (landlord 0 from the call on; robbing: holder 1).
PHASES = {
    "ready": [],
    "ready-half": ["@1 start"],
    "deal-8": READY,
    "deal-17": [*READY, *["no-show"] * 3],
    "call": QUIET,
    "rob": [*QUIET, "call", "rob"],
    "double": CALLED,
    "show": [*CALLED, *NO_DOUBLES],
    "play": [*CALLED, *NO_DOUBLES, "no-show", "play 99"],
}


@pytest.mark.parametrize("variant_id", VARIANTS)
@pytest.mark.parametrize("phase", list(PHASES))
@pytest.mark.parametrize("seat", [0, 1, 2])
@pytest.mark.parametrize("forced", [False, True])
def test_leaving_from_every_seat_in_every_phase(variant_id: str, phase: str, seat: int,
                                                forced: bool) -> None:
    state = game(variant=variant_id, N=100, A=20, **({"wild": "9"} if "laizi" in variant_id
                                                     else {}))
    run(state, PHASES[phase])
    assert state.phase == phase.split("-", maxsplit=1)[0]
    events = state.apply(f"@{seat} leave" + (" forced" if forced else ""))
    assert events[0] == {"type": "leave", "seat": seat, "forced": forced}
    assert events[-1]["type"] == "over" and events[-1]["result"] == state.result()
    result, detail = settled(state)
    assert result["ended"] == "escape" and detail["escape"] == seat
    assert result["winners"] == [s for s in range(3) if s != seat]
    assert state.left == [s == seat for s in range(3)] and state.acting == []
    provisional = {"rob": 1}.get(phase, 0 if phase in ("double", "show", "play") else None)
    role = "landlord" if seat == provisional else "farmer"
    assert detail["role"] == role
    if phase.startswith("ready"):
        assert (detail["M_act"], detail["P"]) == (1, 10)  # the pre-start farmer rate
    x = detail["X_esc"]
    assert result["points"][seat] == -x and result["penalties"] == [0, 0, 0]
    assert [result["points"][s] for s in range(3) if s != seat] == [x / 2, x / 2]
    assert result["beans"][seat] == -(round(x * 100) + 20)
    assert state.check(f"@{(seat + 1) % 3} leave") == "the game is over"
    assert replay(state.record()).result() == result


def test_escape_verb_is_gone() -> None:
    state = game()
    assert state.check("@0 escape") == ("'escape' is not an action of 欢乐斗地主; before the "
                                        "deal, answer start or show-start (明牌开始, ×5)")
    assert state.check("leave") == "say which seat: @SEAT leave (e.g. @0 leave)"


# -- 托管 ---------------------------------------------------------------------------------

def test_auto_on_off_and_the_fourth_entry_locks() -> None:
    state = game()
    run(state, QUIET)
    for entry in range(1, 4):
        state.apply("@1 auto on")
        assert state.auto == [False, True, False] and state.observe(0)["auto"][1]
        assert state.check("@1 auto on") == "seat 1 is already on 托管"
        state.apply("@1 auto off")
        assert state.auto_entries[1] == entry
    assert state.check("@1 auto off") == "seat 1 is not on 托管"
    state.apply("@1 auto on")
    assert state.auto_locked(1) and state.observe(2)["auto_locked"] == [False, True, False]
    assert state.check("@1 auto off") == "托管 is locked for seat 1: it was entered 4 times"
    assert state.phase == "call" and state.to_act == 0  # 托管 is not an answer
    run(state, ["call", "no-rob", "no-rob", *NO_DOUBLES, "no-show", *WIN_NO_BOMB])
    result, _ = settled(state)
    assert result["ended"] == "finished" and result["dissolve"] and result["points"] == [2, -1, -1]


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_all_auto_natural_end_is_unscored(variant_id: str) -> None:
    state = game(variant=variant_id, N=100, A=20, balances=[9_000, 9_000, 9_000],
                 **({"wild": "3"} if "laizi" in variant_id else {}))
    run(state, ["@0 auto on", *QUIET, "@2 auto on", "call", "no-rob", "no-rob", "@1 auto on",
                *NO_DOUBLES, "no-show", *WIN_NO_BOMB])
    result, detail = settled(state)
    assert result["ended"] == "unscored" and result["winners"] == []
    assert result["points"] == [0, 0, 0] and result["beans"] == [0, 0, 0]
    assert "不予计分" in detail["unscored"] and "托管" in detail["unscored"]
    assert detail["scores"] == [0, 0, 0]
    assert detail["beans"] == {"changes": [0, 0, 0], "gross": [0, 0, 0], "fees": [0, 0, 0],
                               "house": 0}
    assert all(p["points"] == 0 for p in detail["pairs"])
    assert result["dissolve"] and result["auto"] == [True, True, True]


def test_escape_with_everyone_on_auto_is_still_scored() -> None:
    state = game(N=100)
    run(state, ["@0 auto on", "@1 auto on", "@2 auto on", *QUIET, "@1 leave"])
    result, _ = settled(state)
    assert result["ended"] == "escape" and result["points"] == [5, -10, 5]  # platform Ruling 12


# -- scriptable set-ups --------------------------------------------------------------------

def test_mixed_suited_and_bare_deal_sets_the_dealt_order() -> None:
    deal = {"hands": ["9s 9h 3456789TJQKA 22 T", "AAA KKK QQQ JJJ 33 44 5",
                      "3 4 55 666 777 888 9 T X D"], "kitty": "2d Ts 2"}
    state = game(deal=deal, golden_eye=1)
    run(state, READY)
    assert ranks(state.observe(0)) == "34567899"  # the first 8 in the order written
    assert {"9s", "9h"} <= set(state.observe(0)["hand"])  # exactly the suited cards named
    run(state, ["no-show"] * 6)
    (eye,) = [e for e in state.apply("eye 1 2") if e["type"] == "eye"]
    assert eye["cards"] == ["2", "T"]  # the kitty in the order written: 2d Ts 2
    run(state, ["call", "no-rob", "no-rob"])
    assert {"2d", "Ts"} <= set(state.observe(1)["hand"] + state.observe(0)["hand"])
    assert "2d" in state.observe(0)["hand"] and "Ts" in state.observe(0)["hand"]


@pytest.mark.parametrize("bad", [
    {"hands": ["9s 9s 3456789TJQKA 22", "AAA KKK QQQ JJJ 33 44 5", "3 4 55 666 777 888 9 T X D"],
     "kitty": "T 2 2"},
    {"hands": ["99 3456789TJQKA 22 T", "AAA KKK QQQ JJJ 33 44 5", "3 4 55 666 777 888 9 T X D"],
     "kitty": "T 2 2 Z"},
    {"hands": ["99"], "kitty": "T"},
    "99",
])
def test_bad_deals_are_refused(bad: Any) -> None:
    with pytest.raises(IllegalAction, match="option deal"):
        new_game("ddz3_happy", options={"deal": bad})


@pytest.mark.parametrize("first", [0, 1, 2])
def test_first_orders_the_windows_and_the_call(first: int) -> None:
    state = game(first=first)
    order = [(first + i) % 3 for i in range(3)]
    assert state.acting == order and state.observe(0)["detail"]["first"] == first
    assert run(state, QUIET)[:3] == order
    assert state.phase == "call" and state.to_act == first


@pytest.mark.parametrize("wild", list("3456789TJQKA2"))
def test_wild_option_fixes_the_wild_rank(wild: str) -> None:
    state = new_game("ddz3_laizi", seed=1, options={"wild": wild, "first": 0})
    run(state, [*QUIET, "call", "no-rob", "no-rob"])
    assert state.observe(1)["detail"]["wild"] == wild


def test_wild_option_is_checked() -> None:
    assert new_game("ddz3_laizi", options={"wild": "10"}).options["wild"] == "T"
    for bad in ("X", "D", "11", 3.5):
        with pytest.raises(IllegalAction, match="option wild"):
            new_game("ddz3_laizi", options={"wild": bad})


# -- hostile actions -----------------------------------------------------------------------

HOSTILE: list[Any] = [
    Action("eye", "9 9"), Action("eye", "1 1"), Action("eye", "1 2 3"), Action("pass", "now"),
    Action("bid", "9"), Action("call", "3"), Action("double", "please"), Action("play", "3" * 9),
    Action("play", "3" * 200), Action("play", "Z"), Action("auto", "maybe"), Action("leave", "x"),
    Action("start", seat=7), Action("start", seat=-1), Action("eye", "1 2", seat=5),
    Action(5, "x"), Action("play", None), Action("start", seat=True),
    "x" * 10_000, "play " + "3" * 250, "@99999 start", "@x start", "eye 1 " + "2" * 240,
    "eye 4 5", "eye", "pass now", "double double", "", "   ", "@1", "call\x00",
]


@pytest.mark.parametrize("variant_id", VARIANTS)
@pytest.mark.parametrize("prefix", ["ready", "call", "double", "play"])
def test_hostile_actions_are_refused_and_change_nothing(variant_id: str, prefix: str) -> None:
    state = game(variant=variant_id, golden_eye=1, **({"wild": "9"} if "laizi" in variant_id
                                                        else {}))
    run(state, {"ready": [], "call": QUIET, "double": CALLED,
                "play": [*CALLED, *NO_DOUBLES, "no-show"]}[prefix])
    foreign = new_game("ddz3_laizi" if variant_id == "ddz3_happy" else "ddz3_happy", seed=3,
                       options={"first": 0}).legal_actions()  # another game's own objects
    before, record, items = views(state), state.record(), list(state.items)
    for action in foreign:  # never trusted: judged exactly as its text
        assert state.check(action) == state.check(action.text)
    for bad in [*HOSTILE, Action("play", "3335=3333"), Action("play", "33=44")]:
        reason = state.check(bad)
        assert reason, f"{bad!r} accepted"
        assert len(reason) < 200, f"{bad!r}: the reason echoes too much"
        with pytest.raises(IllegalAction):
            state.apply(bad)
    assert views(state) == before and state.record() == record
    assert state.items == items


def test_junk_is_refused_without_building_a_wild_lead() -> None:
    """A 20-card 癞子 lead with four wild cards has thousands of plays: refusing junk,
    cards not held or a play that does not beat must not list them."""
    state = game(variant="ddz3_laizi", wild="9", landlord=0, deal={
        "hands": ["3344556677889999T", "33445566778TTTJJJ", "8JQQQQKKKKAAAA222"],
        "kitty": "2XD"})
    run(state, ["start"] * 3 + ["no-show"] * 6 + NO_DOUBLES + ["no-show"])
    state._changed()
    for bad in ("play 3" * 40, "pass now", "play QQQQ", "play 3Z", "eye 9 9", "x" * 10_000):
        assert state.check(bad)
    assert state._legal is None
    assert state.check("play 334455") is None  # judged without listing (docs/contract.md)


def test_a_listed_eye_is_taken_once_and_a_built_one_read_again() -> None:
    state = game(golden_eye=1)
    run(state, QUIET)
    listed = next(a for a in state.legal_actions() if a.verb == "eye")
    assert state.check(Action("eye", "3, 1")) is None  # read again from its text: eye 1 3
    state.apply(listed)
    assert state.check(listed) == "you have no Golden Eye (黄金眼) item left"


# -- views ---------------------------------------------------------------------------------

def test_roles_table_and_last() -> None:
    state = game()
    run(state, [*QUIET, "call", "rob"])
    obs = state.observe(2)
    assert obs["roles"] == [None, None, None] and obs["table"] is None
    assert obs["last"] == ["call", "rob", "no-show"]
    run(state, ["no-rob", "no-rob"])
    assert state.observe(2)["roles"] == ["farmer", "landlord", "farmer"]
    run(state, [*NO_DOUBLES, "no-show", "play 33"])
    obs = state.observe(0)
    assert obs["table"] == {"seat": 1, "cards": "33", "kind": "pair",
                            "leader": 1, "acted": [1]}
    assert obs["last"] == ["no-double", "play 33", "no-double"]
    assert obs["played"] == ["", "33", ""] and obs["counts"] == [17, 18, 17]
    assert "deal" not in obs["options"] and obs["version"] == 2


def test_detail_keeps_its_key_names() -> None:
    state = game(variant="ddz3_laizi", wild="9")
    run(state, [*CALLED, *NO_DOUBLES])
    detail = state.observe(1)["detail"]
    for key in ("first", "dealt", "shown", "auction", "caller", "robs", "doubling", "eye",
                "kitty", "wild", "landlord"):
        assert key in detail, key


def _selection(labels: list[str], cards: tuple[int, ...]) -> dict[str, int]:
    sel = Counter(format_ranks([r]) for r in cards)
    return {label: sel[label] for label in labels if sel[label]}


@pytest.mark.slow
def test_laizi_views_stay_small_and_the_plays_index_judges_like_the_legal_list() -> None:
    """Seeded random games plus a worst case lead (four wild cards in a 20-card run)."""
    biggest, indexed = 0, 0
    rng = random.Random(2026)
    states = []
    for seed in range(25):
        state = new_game("ddz3_laizi", seed=seed, options={"golden_eye": 1, "N": 10})
        while not state.over:
            if state.phase == "play" and state.trick is None:  # leads: the long lists
                states.append(state.clone())
            for seat in range(3):
                obs = state.observe(seat)
                biggest = max(biggest, len(json.dumps(obs, ensure_ascii=False).encode()))
            seat = rng.choice(state.acting)
            state.apply(rng.choice(state.legal_actions(seat)))
        for seat in range(3):
            biggest = max(biggest, len(json.dumps(state.observe(seat)).encode()))
    for wild in "986":
        worst = game(variant="ddz3_laizi", wild=wild, landlord=0, deal={
            "hands": ["3344556677889999T", "33445566778TTTJJJ", "8JQQQQKKKKAAAA222"],
            "kitty": "2XD"})
        run(worst, ["start"] * 3 + ["no-show"] * 6 + NO_DOUBLES + ["no-show"])
        states.append(worst)
    for state in states:
        seat = state.to_act
        if seat is None:
            continue
        obs = state.observe(seat)
        biggest = max(biggest, len(json.dumps(obs, ensure_ascii=False).encode()))
        if "plays" not in obs:
            continue
        indexed += 1
        assert not obs["legal_complete"] and not any(t.startswith("play") for t in obs["legal"])
        plays = obs["plays"]
        hand = state.counts[seat]
        labels = plays["labels"]
        counts = [hand[r] for r in range(len(hand)) if hand[r]]
        legal = {tuple(sorted(Counter(_selection(labels, a.play.cards)).items()))
                 for a in state.legal_actions() if a.play is not None}
        assert plays["count"] == len(legal)
        for sel in legal:
            assert judge(plays, dict(sel))
        for _ in range(300):
            pick = {lab: rng.randrange(c + 1) for lab, c in zip(labels, counts, strict=True)}
            pick = {k: v for k, v in pick.items() if v}
            if rng.random() < 0.5:  # small selections are the interesting ones
                keep = rng.sample(sorted(pick), min(len(pick), rng.randrange(1, 4)))
                pick = {k: pick[k] for k in keep}
            assert judge(plays, pick) == (tuple(sorted(pick.items())) in legal), pick
    assert indexed >= 2, "no view used the plays index"
    assert biggest < KILOBYTES_16, biggest


# -- options and version -----------------------------------------------------------------

@pytest.mark.parametrize("variant_id", VARIANTS)
def test_options_describe_kind_help_zh_and_ranges(variant_id: str) -> None:
    described = variant(variant_id).describe()
    assert described["version"] == 2
    options = {o["name"]: o for o in described["options"]}
    assert "deal" not in options  # secret
    assert all(o["help_zh"] and o["help_zh"] != o["help"] for o in options.values())
    assert options["first"]["kind"] == options["landlord"]["kind"] == "seat"
    assert options["N"]["kind"] == "int" and options["N"]["minimum"] == 1
    assert options["M0"]["minimum"] == 1 and options["A"]["minimum"] == 0
    assert options["golden_eye"]["kind"] == "int"
    if variant_id == "ddz3_laizi":
        assert options["wild"]["kind"] == "choice"
        assert options["wild"]["choices"] == [None, *"3456789TJQKA2"]
    json.dumps(described, ensure_ascii=False)


def test_old_records_are_refused() -> None:
    state = game()
    run(state, QUIET)
    record = {**state.record(), "version": 1}
    with pytest.raises(IllegalAction, match="version 1"):
        replay(record)

