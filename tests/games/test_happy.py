"""欢乐斗地主 (ddz3_happy): every phase and ruling of ddz-happy.md, scripted on fixed deals.

Seats 0, 1, 2 are the rule file's A, B, C. One deal serves most tests:

- seat 0 is dealt 99, the straight 3…A, 22 and T; the kitty (T 2 2) gives
  him the bomb 2222, so as landlord he can play 99 / 2222 / 3…A / TT;
- seat 1 holds AAA KKK QQQ JJJ 33 44 5 (no bomb);
- seat 2 holds the rocket, so the deal has exactly two bombs once the kitty
  is taken (the escape example's "2 bombs in the deal").
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from cardhall.games import GameState, IllegalAction, new_game
from cardhall.games import beans as B
from tests.games.hidden import assert_no_leak

DEAL = {"hands": ["99 3456789TJQKA 22 T", "AAA KKK QQQ JJJ 33 44 5", "3 4 55 666 777 888 9 T X D"],
        "kitty": "T 2 2"}
READY = ["start"] * 3
NO_SHOWS = ["no-show"] * 6  # both deal points, all three players
QUIET = [*READY, *NO_SHOWS]
NO_DOUBLES = ["no-double"] * 3
# Landlord 0 wins with one bomb: 99, F1 AA, 2222, the straight, TT (F1 played: no spring).
WIN_WITH_BOMB = ["play 99", "play AA", "pass", "play 2222", "pass", "pass",
                 "play 3456789TJQKA", "pass", "pass", "play TT"]
# Landlord 0 wins without a bomb: 22 beats AA, and the last 22 goes out last.
WIN_NO_BOMB = ["play 99", "play AA", "pass", "play 22", "pass", "pass",
               "play 3456789TJQKA", "pass", "pass", "play TT", "pass", "pass", "play 22"]


def game(seed: int = 0, variant: str = "ddz3_happy", **options: Any) -> GameState:
    options.setdefault("deal", DEAL)
    options.setdefault("first", 0)
    return new_game(variant, seed=seed, options=options)


def run(state: GameState, actions: list[str]) -> list[int | None]:
    """Apply ``actions``; return who was to act before each (the order of decisions)."""
    seats = []
    for text in actions:
        seats.append(state.to_act)
        state.apply(text)
    return seats


def events(state: GameState, kind: str, seat: int = 0) -> list[dict[str, Any]]:
    """The events of ``kind`` so far, as ``seat`` was sent them."""
    return [e for e in state.events_for(state.log, seat) if e["type"] == kind]


def ranks(obs: dict[str, Any]) -> str:
    """A view's own hand as rank text (its cards are suited: ``Ts``, ``X``)."""
    return "".join(card[0] for card in obs["hand"])


def settled(state: GameState) -> tuple[dict[str, Any], dict[str, Any]]:
    """The result and its detail (the game's own settlement words); checks the shared shape."""
    result = state.result()
    assert result is not None and state.over
    assert sum(result["points"]) == 0
    total = 1
    for factor in result["multiplier"]["causes"].values():
        total *= factor
    assert result["multiplier"]["total"] == total
    return result, result["detail"]


# -- §4.5 worked examples ------------------------------------------------------------------

FULL_ROOM = {"M0": 1, "N": 100, "A": 20}


@pytest.mark.parametrize(("balances", "threshold", "changes", "house"), [
    # Full example: F1 pays 96×100+20, F2 48×100+20, L gets 144×100−20.
    ([50_000, 30_000, 8_000], 5_000, [14_380, -9_620, -4_820], 60),
    # Variant: F2 holds only 3 000, pays it all and so no fee; L gets 9 600 + 3 000 − 20.
    ([50_000, 30_000, 3_000], 2_000, [12_580, -9_620, -3_000], 40),
])
def test_full_example(balances: list[int], threshold: int, changes: list[int],
                      house: int) -> None:
    # §2.1 gives C, the only shower, the first call: the example's "C no-robs" is C's
    # no-call (a no-caller never robs, §2.2). A calls, B robs, A robs back: robs = 2.
    state = game(balances=balances, double_min_beans=threshold, **FULL_ROOM)
    run(state, [*READY, "no-show", "no-show", "no-show", "no-show", "no-show", "show"])
    assert state.shown == {2: 3}  # at his 17th card: ×3
    assert run(state, ["no-call", "call", "rob", "rob"]) == [2, 0, 1, 0]
    run(state, ["double", "double", "no-double", "no-show", *WIN_WITH_BOMB])
    result, detail = settled(state)
    m = detail["multiplier"]
    assert (m["robs"], m["rob_factor"], m["show"], m["bombs"], m["spring"], m["M"]) == \
        (2, 4, 3, {"bomb": 1, "rocket": 0}, None, 24)
    assert result["multiplier"] == {"total": 24, "causes": {
        "M0": 1, "robs": 4, "show": 3, "bomb": 2, "rocket": 1, "spring": 1}}
    assert detail["pairs"] == [{"farmer": 1, "points": 96}, {"farmer": 2, "points": 48}]
    assert detail["scores"] == result["points"] == [144, -96, -48]
    assert (result["ended"], result["winners"]) == ("finished", [0])
    assert detail["doubling"] == {"doubled": [0, 1], "factors": [2, 2, 1]}
    assert detail["beans"]["changes"] == result["beans"] == changes
    assert detail["beans"]["house"] == house
    assert sum(changes) + house == 0


def test_source_example() -> None:
    """N = 1 000, X = 底分 × M = 6, A = 50, landlord wins: +11 950 / −6 050 / −6 050."""
    state = game(M0=6, N=1000, A=50)
    run(state, [*QUIET, "call", "no-rob", "no-rob", *NO_DOUBLES, "no-show", *WIN_NO_BOMB])
    result, detail = settled(state)
    assert detail["multiplier"]["M"] == result["multiplier"]["total"] == 6
    assert result["points"] == [12, -6, -6] and result["winners"] == [0]
    assert detail["beans"] == {"changes": [11_950, -6_050, -6_050], "gross": [12_000, -6_000,
                               -6_000], "fees": [50, 50, 50], "house": 150}
    assert result["beans"] == [11_950, -6_050, -6_050]


def test_escape_example() -> None:
    """F2 quits after 1 rob, 2 bombs in the deal, one played: M_act = 8, P = 10."""
    state = game(first=2, **FULL_ROOM)
    # C calls first (nobody showed, the random first seat is C); A robs, B and C do not.
    run(state, [*QUIET, "call", "rob", "no-rob", "no-rob", *NO_DOUBLES, "no-show",
                *WIN_WITH_BOMB[:6]])
    assert state.landlord == 0 and state.robs == 1
    state.apply("@2 leave")
    result, detail = settled(state)
    assert state.to_act is None and state.acting == [] and state.left == [False, False, True]
    assert detail["multiplier"]["bombs"] == {"bomb": 1, "rocket": 1}  # 2222 played, XD held
    assert result["multiplier"] == {"total": 8, "causes": {
        "M0": 1, "robs": 2, "show": 1, "bomb": 2, "rocket": 2, "spring": 1}}
    assert (detail["escape"], detail["role"], detail["M_act"], detail["P"], detail["X_esc"]) == \
        (2, "farmer", 8, 10, 10)
    assert (result["ended"], result["winners"]) == ("escape", [0, 1])
    assert result["points"] == detail["scores"] == [5, 5, -10]
    assert result["beans"] == detail["beans"]["changes"] == [500, 500, -1_020]
    assert detail["beans"]["house"] == 20


@pytest.mark.parametrize(("before", "escaper", "role", "m_act", "p"), [
    # Before the deal: platform §2.2's pre-start farmer rate, whatever was shown.
    (["show-start"], 1, "farmer", 1, 10),
    # Mid-deal: ×5 show and the rocket (2222 is split with the kitty): M_act = 10 is not
    # "under 10", so P = 2 × 10 (Ruling 13).
    (["start", "start", "show-start"], 1, "farmer", 10, 20),
    # The provisional landlord (the caller) escapes at the landlord rate.
    ([*QUIET, "call"], 0, "landlord", 2, 20),
    # The landlord, once fixed, after robbing twice: 4 × 4 (2222 and XD) = 16 → 4 × 16.
    ([*QUIET, "call", "rob", "no-rob", "rob"], 0, "landlord", 16, 64),
])
def test_escape_rates(before: list[str], escaper: int, role: str, m_act: int, p: int) -> None:
    state = game()
    run(state, before)
    state.apply(f"@{escaper} leave")
    result, detail = settled(state)
    assert (detail["role"], detail["M_act"], detail["P"], detail["X_esc"]) == (role, m_act, p, p)
    assert result["ended"] == "escape" and result["points"][escaper] == -p
    assert state.check("@0 leave") == "the game is over"


# -- §2.2 rob order ------------------------------------------------------------------------

@pytest.mark.parametrize(("answers", "asked", "landlord", "robs"), [
    (["call", "rob", "rob", "rob"], [0, 1, 2, 0], 0, 3),          # A calls: B, C, then A; ×8
    (["call", "rob", "no-rob", "no-rob"], [0, 1, 2, 0], 1, 1),
    (["call", "no-rob", "no-rob"], [0, 1, 2], 0, 0),               # nobody robbed: no rob back
    (["no-call", "call", "rob", "rob"], [0, 1, 2, 1], 1, 2),       # B calls: C, then B
    (["no-call", "call", "rob", "no-rob"], [0, 1, 2, 1], 2, 1),
    (["no-call", "call", "no-rob"], [0, 1, 2], 1, 0),
    (["no-call", "no-call", "call"], [0, 1, 2], 2, 0),             # C calls: nobody robs
])
def test_rob_order(answers: list[str], asked: list[int], landlord: int, robs: int) -> None:
    state = game()
    run(state, QUIET)
    assert run(state, answers) == asked
    assert state.landlord == landlord and state.robs == robs
    assert state.phase == "double"
    obs = state.observe(1)
    assert obs["multiplier"]["causes"]["robs"] == 2 ** robs
    assert obs["detail"]["robs"] == robs and obs["detail"]["caller"] == asked[answers.index("call")]
    assert obs["detail"]["auction"] == [[s, a] for s, a in zip(asked, answers, strict=True)]
    assert obs["roles"] == ["farmer" if s != landlord else "landlord" for s in range(3)]


def test_a_player_who_said_no_call_never_robs() -> None:
    state = game()
    run(state, [*QUIET, "no-call", "call"])
    assert state.phase == "rob" and state.to_act == 2
    assert state.check("@0 rob") == "it is seat 2's turn, not seat 0's"
    run(state, ["rob", "rob"])  # C robs, B robs back; A is never asked
    assert state.phase == "double" and state.landlord == 1
    assert [s for s, verb in state.auction if s == 0] == [0]


# -- §2.1 nobody calls ---------------------------------------------------------------------

def test_nobody_calls_nobody_showed_redeals() -> None:
    state = game(seed=3)
    run(state, [*QUIET, "no-call", "no-call", "no-call"])
    assert [e["type"] for e in state.log[-4:]] == ["void", "deal", "order", "dealt"]
    assert state.deals == 2 and state.result() is None
    obs = state.observe(0)
    assert state.phase == "deal" and obs["detail"]["dealt"] == 8  # straight into the deal
    assert ranks(obs) != "34567899"  # a fresh shuffle, not the given deal
    assert state.acting == [state.first, (state.first + 1) % 3, (state.first + 2) % 3]
    assert state.auction == [] and state.landlord is None


def test_nobody_calls_first_shower_is_landlord() -> None:
    state = game()
    run(state, [*READY, "no-show", "no-show", "no-show", "no-show", "show", "show"])
    assert list(state.shown) == [1, 2]  # 1's answer came first
    assert run(state, ["no-call", "no-call", "no-call"]) == [1, 2, 0]
    assert state.landlord == 1 and state.robs == 0 and state.phase == "double"
    assert events(state, "landlord") == [{"type": "landlord", "seat": 1, "robs": 0}]


# -- §2.5 show cards -----------------------------------------------------------------------

@pytest.mark.parametrize(("answers", "shown", "factor", "first_caller"), [
    (["show-start", "start", "start", *NO_SHOWS[:4]], {0: 5}, 5, 0),
    ([*READY, "show", "no-show", "no-show", "no-show", "show"], {0: 4, 2: 3}, 4, 0),
    ([*READY, "no-show", "no-show", "no-show", "show", "show", "show"], {0: 3, 1: 3, 2: 3}, 3, 0),
    # 1 shows before the deal, 0 only during it: 1 showed first and calls first.
    (["start", "show-start", "start", "show", "no-show", "no-show"], {1: 5, 0: 4}, 5, 1),
])
def test_show_factor_is_the_largest(answers: list[str], shown: dict[int, int], factor: int,
                                    first_caller: int) -> None:
    state = game()
    run(state, answers)
    assert state.shown == shown
    assert state.phase == "call" and state.to_act == first_caller
    obs = state.observe(1)
    assert obs["multiplier"]["causes"]["show"] == factor  # the maximum, never the product
    assert [(s["seat"], s["factor"]) for s in obs["detail"]["shown"]] == list(shown.items())


def test_first_deal_point_shows_only_eight_cards() -> None:
    state = game()
    run(state, ["show-start", "start", "start"])
    assert state.phase == "deal" and state.acting == [1, 2]  # 0 already shows: not asked
    obs = state.observe(1)
    assert ranks(obs) == "QQKKKAAA" and obs["counts"] == [8, 8, 8]
    assert obs["detail"]["shown"] == [{"seat": 0, "factor": 5, "hand": "34567899"}]
    assert "kitty" not in obs["detail"]
    state.apply("show")  # at 8 cards: ×4
    run(state, ["no-show", "no-show"])  # second point: only 2 is still asked
    assert state.shown == {0: 5, 1: 4}
    obs = state.observe(2)
    assert obs["counts"] == [17, 17, 17] and len(obs["hand"]) == 17
    assert obs["detail"]["shown"][1]["hand"] == "33445JJJQQQKKKAAA"


def test_landlord_show_before_first_lead() -> None:
    state = game()
    run(state, [*QUIET, "call", "no-rob", "no-rob", *NO_DOUBLES])
    assert state.phase == "show" and state.to_act == 0
    assert [a.text for a in state.legal_actions()] == ["no-show", "show"]
    state.apply("show")
    assert state.shown == {0: 2} and state.phase == "play" and state.to_act == 0
    assert state.observe(2)["detail"]["shown"][0]["hand"] == "345678999TTTJQKA2222"


def test_showing_landlord_is_not_asked_again() -> None:
    state = game()
    run(state, ["show-start", "start", "start", *NO_SHOWS[:4], "call", "no-rob", "no-rob",
                *NO_DOUBLES])
    assert state.phase == "play" and state.shown == {0: 5}


# -- §2.3 doubling -------------------------------------------------------------------------

@pytest.mark.parametrize(("balances", "eligible"), [
    (None, [True, True, True]),                      # a points room: everybody may
    ([5_001, 5_001, 5_001], [True, True, True]),     # just above
    ([5_000, 9_000, 9_000], [False, False, False]),  # landlord at the threshold: strict >
    ([9_000, 5_000, 9_000], [False, False, True]),   # the landlord needs all three
    ([9_000, 4_999, 5_001], [False, False, True]),
    ([4_999, 9_000, 9_000], [False, False, False]),  # farmers need the landlord too
])
def test_doubling_eligibility(balances: list[int] | None, eligible: list[bool]) -> None:
    state = game(landlord=0, balances=balances, double_min_beans=5_000)
    run(state, QUIET)
    assert state.phase == "double" and state.observe(1)["detail"]["doubling"]["eligible"] == \
        eligible
    for seat in (0, 1, 2):
        legal = [a.text for a in state.legal_actions()]
        assert legal == (["no-double", "double"] if eligible[seat] else ["no-double"])
        if not eligible[seat]:
            reason = state.check("double")
            assert reason is not None and "more than 5000 beans" in reason
        state.apply("double" if eligible[seat] else "no-double")
    assert state.result() is None and state.phase in ("show", "play")


def test_doubling_answers_stay_private_until_all_answered() -> None:
    state = game(landlord=0)
    run(state, [*QUIET, "double"])
    assert state.observe(0)["detail"]["doubling"]["doubled"] == [0]
    assert state.observe(1)["detail"]["doubling"]["doubled"] == []
    assert state.observe(0)["last"] == ["double", None, None]
    assert state.observe(1)["last"] == [None, None, None]
    run(state, ["no-double", "double"])
    assert state.observe(1)["detail"]["doubling"]["doubled"] == [0, 2]
    assert state.observe(1)["last"] == ["double", "no-double", "double"]
    assert events(state, "doubled", 1) == [{"type": "doubled", "seats": [0, 2]}]


# -- §2.4 Golden Eye -----------------------------------------------------------------------

def test_golden_eye_limits_and_privacy() -> None:
    state = game(golden_eye=[3, 1, 0])
    run(state, QUIET)
    assert state.check("eye 1 2") is None and "eye 1 2" in [a.text for a in state.legal_actions()]
    others = [state.observe(s) for s in (1, 2)]
    assert state.parse_action("eye 2,1").text == "eye 1 2"
    state.apply("eye 2 1")
    assert state.to_act == 0 and state.phase == "call"  # a peek is not an answer
    assert events(state, "eye") == [{"type": "eye", "seat": 0, "positions": [1, 2],
                                     "cards": ["T", "2"]}]  # the kitty as dealt: T 2 2
    assert events(state, "eye", 1) == events(state, "eye", 2) == []
    assert [state.observe(s) for s in (1, 2)] == others  # not told it was used
    state.apply("eye 2 3")
    assert state.observe(0)["detail"]["eye"] == {"items": 1, "uses": 2}
    assert state.check("eye 1 3") == "Golden Eye (黄金眼) can be used at most 2 times a game"
    state.apply("call")
    assert state.check("eye 1 2") is None  # B's own rob turn, one item
    state.apply("eye 1 3")
    assert state.check("eye 1 2") == "you have no Golden Eye (黄金眼) item left"
    state.apply("no-rob")
    assert state.check("eye 1 2") == "you have no Golden Eye (黄金眼) item left"  # C has none
    assert not any(a.verb == "eye" for a in state.legal_actions())
    state.apply("no-rob")
    assert state.check("eye 1 2") == "Golden Eye (黄金眼) is used only on your own call or rob turn"
    assert state.check("eye 1 1") == "eye takes two different kitty positions from 1 to 3, e.g. " \
        "eye 1 3"


def test_golden_eye_only_on_call_and_rob_turns() -> None:
    state = game(golden_eye=2)
    assert state.check("eye 1 2") == "Golden Eye (黄金眼) is used only on your own call or rob turn"
    run(state, QUIET)
    assert state.check("eye 1 2") is None


# -- §4.1 spring and anti-spring -----------------------------------------------------------

@pytest.mark.parametrize(("plays", "spring", "scores"), [
    # The farmers never play: spring ×2 on top of the bomb: M = 4.
    (["play 3456789TJQKA", "pass", "pass", "play 2222", "pass", "pass", "play 99", "pass",
      "pass", "play TT"], "spring", [8, -4, -4]),
    # The landlord plays once, then F1 goes out: anti-spring, M = 2.
    (["play 99", "play AA", "pass", "pass", "play 33", "pass", "pass", "play 44", "pass",
      "pass", "play 5", "pass", "pass", "play JJJQQQKKK", "pass", "pass", "play A"],
     "anti-spring", [-4, 2, 2]),
    (WIN_NO_BOMB, None, [2, -1, -1]),
])
def test_spring_and_anti_spring(plays: list[str], spring: str | None,
                                scores: list[int]) -> None:
    state = game()
    run(state, [*QUIET, "call", "no-rob", "no-rob", *NO_DOUBLES, "no-show", *plays])
    result, detail = settled(state)
    assert detail["spring"] == spring and detail["multiplier"]["spring"] == spring
    assert detail["multiplier"]["spring_factor"] == (2 if spring else 1)
    assert result["multiplier"]["causes"]["spring"] == (2 if spring else 1)
    assert result["points"] == scores
    assert result["winners"] == ([0] if scores[0] > 0 else [1, 2])


# -- bad actions ---------------------------------------------------------------------------

@pytest.mark.parametrize(("before", "bad", "reason"), [
    ([], "call", "before the deal, answer start or show-start (明牌开始, ×5)"),
    ([], "play 3", "no cards are played during ready"),
    ([], "escape", "'escape' is not an action of 欢乐斗地主; before the deal, answer start or "
                   "show-start (明牌开始, ×5)"),
    ([], "@3 leave", "there is no seat 3 in this 3-player game"),
    ([], "@1 call", "before the deal, answer start or show-start (明牌开始, ×5)"),
    (["start"], "@0 start", "seat 0 has nothing to answer now (waiting for seats 1, 2)"),
    ([], "rob 2", "'rob 2' is not an action of 欢乐斗地主; before the deal, answer start or "
                  "show-start (明牌开始, ×5)"),
    (QUIET, "pass now", "'pass now' is not an action of 欢乐斗地主; answer call (叫地主) or "
                        "no-call (不叫)"),
    (QUIET, "eye 9 9", "eye takes two different kitty positions from 1 to 3, e.g. eye 1 3"),
    (QUIET, "@1 call", "it is seat 0's turn, not seat 1's"),
    (READY, "show-start", "during the deal, answer show (发牌明牌) or no-show"),
    (QUIET, "rob", "answer call (叫地主) or no-call (不叫)"),
    (QUIET, "pass", "answer call (叫地主) or no-call (不叫)"),
    ([*QUIET, "call"], "call", "answer rob (抢地主) or no-rob (不抢)"),
    ([*QUIET, "call", "no-rob", "no-rob"], "show", "answer double (加倍) or no-double (不加倍)"),
    ([*QUIET, "call", "no-rob", "no-rob", *NO_DOUBLES], "double",
     "before your first lead, answer show (明牌, ×2) or no-show"),
    ([*QUIET, "call", "no-rob", "no-rob", *NO_DOUBLES, "no-show"], "pass",
     "you lead: you must play"),
    ([*QUIET, "call", "no-rob", "no-rob", *NO_DOUBLES, "no-show"], "play XD",
     "you do not hold XD (missing XD)"),
    ([*QUIET, "call", "no-rob", "no-rob", *NO_DOUBLES, "no-show", "play 99"], "play 66",
     "you do not hold 66 (missing 66)"),
    ([*QUIET, "call", "no-rob", "no-rob", *NO_DOUBLES, "no-show", "play 99"], "play 44",
     "44 does not beat 99"),
    ([*QUIET, "call", "no-rob", "no-rob", *NO_DOUBLES, "no-show"], "rob",
     "'rob' is not a play: play cards or pass"),
])
def test_bad_actions_rejected_with_reason(before: list[str], bad: str, reason: str) -> None:
    state = game()
    run(state, before)
    snapshot = json.dumps([state.observe(s) for s in range(3)], sort_keys=True)
    record = state.record()
    assert state.check(bad) == reason
    with pytest.raises(IllegalAction, match=f"^{re.escape(reason)}$"):
        state.apply(bad)
    assert json.dumps([state.observe(s) for s in range(3)], sort_keys=True) == snapshot
    assert state.record() == record


def test_option_errors() -> None:
    with pytest.raises(IllegalAction, match="option balances: one bean balance per seat"):
        new_game("ddz3_happy", options={"balances": [1, 2]})
    with pytest.raises(IllegalAction, match="option M0: a whole number of at least 1"):
        new_game("ddz3_happy", options={"M0": 0})
    with pytest.raises(IllegalAction, match="has no option 'wild'"):
        new_game("ddz3_happy", options={"wild": "5"})


# -- beans.py ------------------------------------------------------------------------------

@pytest.mark.parametrize(("case", "pairs", "landlord_wins", "n", "a", "balances", "changes",
                          "house"), [
    ("source example, no balances", {1: 6, 2: 6}, True, 1000, 50, None,
     [11_950, -6_050, -6_050], 150),
    ("full example", {1: 96, 2: 48}, True, 100, 20, [50_000, 30_000, 8_000],
     [14_380, -9_620, -4_820], 60),
    ("loser floor: pays his balance, no fee", {1: 96, 2: 48}, True, 100, 20,
     [50_000, 30_000, 3_000], [12_580, -9_620, -3_000], 40),
    ("loser floor: fee only down to 0", {1: 96, 2: 48}, True, 100, 20,
     [50_000, 30_000, 4_810], [14_380, -9_620, -4_810], 50),
    ("short landlord: shared 1:3", {1: 10, 2: 30}, False, 100, 20, [2_000, 9_000, 9_000],
     [-2_000, 480, 1_480], 40),
    ("winner cap: landlord wins at most his balance", {1: 10, 2: 30}, True, 100, 20,
     [1_000, 9_000, 9_000], [980, -270, -770], 60),
    ("winner cap: farmer wins at most his balance", {1: 10, 2: 30}, False, 100, 20,
     [9_000, 300, 9_000], [-3_320, 280, 2_980], 60),
    ("winner's fee never exceeds his win", {1: 10, 2: 30}, False, 100, 20,
     [9_000, 15, 9_000], [-3_035, 0, 2_980], 55),
    ("a player with nothing pays nothing", {1: 10, 2: 30}, True, 100, 20, [9_000, 0, 9_000],
     [2_980, 0, -3_020], 40),
    ("per pair half up (quarter points)", {1: B.Fraction(5, 4), 2: B.Fraction(3, 4)}, True,
     2, 0, None, [5, -3, -2], 0),
    ("two halves up would pass the floor: the last gives one back", {1: 10, 2: 10}, False,
     1, 0, [5, 99, 99], [-5, 3, 2], 0),
])
def test_beans_settle(case: str, pairs: dict[int, Any], landlord_wins: bool, n: int, a: int,
                      balances: list[int] | None, changes: list[int], house: int) -> None:
    beans = B.settle(0, pairs, landlord_wins, n, a, balances)
    assert list(beans.changes) == changes, case
    assert beans.house == house, case
    assert sum(beans.gross) == 0 and sum(beans.changes) + beans.house == 0
    if balances is not None:
        assert all(b + c >= 0 for b, c in zip(balances, beans.changes, strict=True))


@pytest.mark.parametrize(("x_esc", "n", "a", "balances", "changes", "house"), [
    (10, 100, 20, None, [500, 500, -1_020], 20),                  # the escape example
    (10, 100, 20, [9_000, 9_000, 700], [350, 350, -700], 0),      # short escaper: no fee
    (10, 100, 20, [9_000, 100, 9_000], [500, 100, -620], 20),     # receiver capped
    (B.Fraction(5, 2), 1, 0, None, [1, 1, -3], 1),                # odd bean to the house
])
def test_beans_escape(x_esc: Any, n: int, a: int, balances: list[int] | None,
                      changes: list[int], house: int) -> None:
    beans = B.settle_escape(2, x_esc, 3, n, a, balances)
    assert list(beans.changes) == changes
    assert beans.house == house and sum(beans.changes) + beans.house == 0


@pytest.mark.parametrize(("m_act", "role", "coefficient", "cap", "p", "x_esc"), [
    (8, "farmer", 1, None, 10, 10),
    (8, "landlord", 1, None, 20, 20),
    (10, "farmer", 1, None, 20, 20),       # exactly 10: the ×2 branch (Ruling 13)
    (10, "landlord", 1, None, 40, 40),
    (9, "landlord", 1, None, 20, 20),
    (64, "farmer", B.Fraction(1, 4), 10_000, 128, 32),
    (2 ** 20, "landlord", B.Fraction(1, 4), 10_000, 4 * 2 ** 20, 10_000),
])
def test_escape_points(m_act: int, role: str, coefficient: Any, cap: int | None, p: int,
                       x_esc: int) -> None:
    assert B.escape_points(m_act, 1, role, coefficient, cap) == (p, x_esc)


@pytest.mark.parametrize(("m", "doubles", "coefficient", "cap", "pairs"), [
    (24, {0: 2, 1: 2, 2: 1}, 1, None, {1: 96, 2: 48}),
    (64, {0: 1, 1: 1, 2: 1}, B.Fraction(1, 4), 10_000, {1: 16, 2: 16}),
    (2 ** 15, {0: 1, 1: 1, 2: 1}, B.Fraction(1, 4), 10_000, {1: 5_000, 2: 5_000}),
    # Capped pairs 2:1 are rounded to quarter points and still sum to the cap.
    (2 ** 15, {0: 1, 1: 2, 2: 1}, B.Fraction(1, 4), 10_000,
     {1: B.Fraction(26_667, 4), 2: B.Fraction(13_333, 4)}),
])
def test_pair_points(m: int, doubles: dict[int, int], coefficient: Any, cap: int | None,
                     pairs: dict[int, Any]) -> None:
    got = B.pair_points(m, doubles, 0, coefficient, cap)
    assert got == pairs
    if cap is not None:
        assert sum(got.values()) <= cap


@pytest.mark.parametrize(("x", "rounded"), [(B.Fraction(5, 2), 3), (B.Fraction(7, 2), 4),
                                            (B.Fraction(9, 4), 2), (B.Fraction(11, 4), 3)])
def test_round_half_up(x: Any, rounded: int) -> None:
    assert B.round_half_up(x) == rounded


#: A bean room with Golden Eye items (also the golden games' options, tests/games/test_golden.py).
ROOM: dict[str, Any] = {"golden_eye": 1, "M0": 2, "N": 100, "A": 20,
                        "double_min_beans": 1_000, "balances": [40_000, 900, 25_000]}


@pytest.mark.parametrize("variant", ["ddz3_happy", "ddz3_laizi"])
def test_rooms_hide_cards_and_balance_beans(variant: str) -> None:
    """Random games with Golden Eye items and a bean room: no seat's observation moves when
    the cards it cannot see are shuffled; points are zero-sum, beans only lose the fee."""
    for seed in range(4):
        rng = random.Random(seed)
        state = new_game(variant, seed=seed, options=ROOM)
        escape_at = rng.randrange(80) if seed % 2 else None
        while not state.over:
            assert_no_leak(state, rng)
            if len(state.actions) == escape_at:
                state.apply(f"@{rng.randrange(3)} leave")
            else:
                seat = rng.choice(state.acting)  # windows answered at once: any order
                state.apply(rng.choice(state.legal_actions(seat)))
        result, detail = settled(state)
        changes = result["beans"]
        assert changes == detail["beans"]["changes"]
        assert sum(changes) + detail["beans"]["house"] == 0
        assert all(b + c >= 0 for b, c in zip(ROOM["balances"], changes, strict=True))
