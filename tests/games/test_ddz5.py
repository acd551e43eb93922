"""五人斗地主 (ddz5) scripted games: ../shared/rules/ddz-5p.md, every phase and ruling.

Deals are written out with the ``deal`` option: a few cards per seat that the
script needs, the two copies of the revealed card Kd placed by hand, the rest
of the deck filled in order. Unless a test says otherwise seat 0 is the open
landlord O (``OL`` in code), seat 2 the hidden landlord H (``HL``) and seats 1, 3,
4 the farmers F1, F2, F3, as in the rule file's worked example (play goes 0 → 1 →
2 → 3 → 4).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardhall import rules
from cardhall.cards import card_rank, deck, format_cards, parse_card, parse_ranks
from cardhall.games import GameState, IllegalAction, new_game, replay
from cardhall.games.ddz5 import FivePlayer

P = "pass"
PASS4 = [P, P, P, P]
OL, F1, HL, F2, F3 = range(5)
FARMERS = (F1, F2, F3)


def make_deal(spec: dict[int, str], kitty: str = "",
              copies: tuple[str, str] = ("hand0", "hand2")) -> dict[str, Any]:
    """A whole suited deal: ``spec`` ranks per seat, Kd's two copies where ``copies`` say.

    A copy counts as one of its holder's K's; no other part ever gets a Kd.
    """
    pool = sorted(deck(2))
    kd = parse_card("Kd")
    pool.remove(kd)
    pool.remove(kd)
    parts: dict[str, list[int]] = {f"hand{s}": [] for s in range(5)}
    parts["kitty"] = []
    for where in copies:
        parts[where].append(kd)
    wanted = {f"hand{s}": text for s, text in spec.items()} | ({"kitty": kitty} if kitty else {})
    for where, text in wanted.items():
        ranks = list(parse_ranks(text))
        for c in parts[where]:
            ranks.remove(card_rank(c))
        for r in ranks:
            card = next(c for c in pool if card_rank(c) == r)
            pool.remove(card)
            parts[where].append(card)
    for where, size in [*((f"hand{s}", 21) for s in range(5)), ("kitty", 3)]:
        while len(parts[where]) < size:
            parts[where].append(pool.pop(0))
    assert not pool
    return {"hands": [format_cards(parts[f"hand{s}"]) for s in range(5)],
            "kitty": format_cards(parts["kitty"])}


def start(spec: dict[int, str], kitty: str = "", copies: tuple[str, str] = ("hand0", "hand2"),
          **options: Any) -> FivePlayer:
    state = new_game("ddz5", seed=0, options={
        "deal": make_deal(spec, kitty, copies), "revealed": "Kd", "landlord": OL, **options})
    assert isinstance(state, FivePlayer)
    return state


def run(state: FivePlayer, actions: list[str]) -> list[dict[str, Any]]:
    events = []
    for text in actions:
        events.extend(state.apply(text))
    return events


def setup(state: FivePlayer, identity: tuple[str, ...] = ("decline", "decline"),
          doublers: set[int] | frozenset[int] = frozenset()) -> None:
    """The identity answers (O first), then all five doubling answers from O on."""
    run(state, [*identity, *("double" if s in doublers else "decline" for s in range(5))])


def snapshot(state: FivePlayer) -> str:
    return json.dumps([state.observe(s) for s in range(5)], sort_keys=True)


# -- §4 worked example -----------------------------------------------------------------------
# O leads 3, the others follow 4 5 6 7 (every farmer plays a card: no spring), O bombs
# with 8888 (4 cards: no effect) and leads 999999 (6 cards: ×2), a pair chain and 222.

EXAMPLE_SPEC = {OL: "3 8888 999999 TTJJQQKKAA", F1: "4", HL: "5K", F2: "6", F3: "7"}
EXAMPLE_PLAY = ["play 3", "play 4", "play 5", "play 6", "play 7", "play 8888", *PASS4,
                "play 999999", *PASS4, "play TTJJQQKKAA", *PASS4, "play 222"]

EXAMPLE = [
    # (doublers, X by seat (O F1 H F2 F3), x per pair O-F1 O-F2 O-F3 H-F1 H-F2 H-F3, beans)
    ({HL, F1}, [8, -12, 16, -6, -6], [4, 2, 2, 8, 4, 4], [790, -1210, 1590, -610, -610]),
    (set(), [6, -4, 6, -4, -4], [2, 2, 2, 2, 2, 2], [590, -410, 590, -410, -410]),
]


@pytest.mark.parametrize(("doublers", "scores", "pairs", "beans"), EXAMPLE)
def test_worked_example(doublers: set[int], scores: list[int], pairs: list[int],
                        beans: list[int]) -> None:
    state = start(EXAMPLE_SPEC, kitty="222", N=100, A=10)
    setup(state, ("reveal", "decline"), doublers)
    run(state, EXAMPLE_PLAY)
    result = state.result()
    assert result is not None
    assert result["points"] == scores
    assert [p["points"] for p in result["detail"]["pairs"]] == pairs
    assert [(p["landlord"], p["farmer"]) for p in result["detail"]["pairs"]] == \
        [(lo, f) for lo in (OL, HL) for f in FARMERS]
    assert result["beans"] == beans == result["detail"]["beans"]["changes"]
    assert result["detail"]["beans"]["house"] == 50
    mult = result["detail"]
    assert (mult["M"], mult["bombs"], mult["bomb_plays"], mult["spring"]) == \
        (4, 1, ["999999"], None)
    assert result["multiplier"] == {"total": 4, "causes": {"M0": 1, "reveal": 2, "bombs": 2,
                                                           "spring": 1}}
    assert result["winners"] == [OL, HL] and result["ended"] == "finished"
    assert result["detail"]["winner"] == "landlords" and result["detail"]["hidden_landlord"] == HL
    assert result["detail"]["doubling"]["doubled"] == sorted(doublers)
    assert replay(json.loads(json.dumps(state.record()))).result() == result


# -- the bomb ladder: which plays double (§3, Ruling 14) --------------------------------------

LADDER = [
    # (bomb, ladder tier, doubles)
    ("6666", 1, False),
    ("XX", 2, False),
    ("DD", 2, False),
    ("66666", 3, True),
    ("666666", 4, True),
    ("XXD", 5, True),
    ("XDD", 5, True),
    ("6666666", 6, True),
    ("66666666", 7, True),
    ("XXDD", 8, True),
]


@pytest.mark.parametrize(("bomb", "tier", "doubles"), LADDER)
def test_which_bombs_double(bomb: str, tier: int, doubles: bool) -> None:
    state = start({OL: bomb + "K", HL: "K"})
    assert rules.get("ddz5").parse_play(bomb).tier == tier
    setup(state)
    before = state.multiplier()["M"]
    run(state, [f"play {bomb}"])
    assert state.multiplier()["M"] == before * (2 if doubles else 1)
    assert state.observe(F1)["detail"]["multiplier"]["bombs"] == int(doubles)
    assert state.observe(F1)["multiplier"]["causes"]["bombs"] == (2 if doubles else 1)


# -- roles and the identity step ---------------------------------------------------------------

# O's two straights take him out at once; nobody else plays, so this is a spring (×2).
STRAIGHTS = ["play 3456789TJQKA", *PASS4, "play 3456789TJQKA"]

SINGLE = [
    # (how O comes to hold both copies, dealt hand of O, kitty, copies)
    ("both dealt to him", "3456789TJQKA 3456789TK", "JQA", ("hand0", "hand0")),
    ("the other copy in the kitty (Ruling 2)", "3456789TJQKA 3456789TJ", "QKA",
     ("hand0", "kitty")),
]


@pytest.mark.parametrize(("answer", "factor"), [("reveal", 2), ("decline", 1)])
@pytest.mark.parametrize(("why", "hand", "kitty", "copies"), SINGLE)
def test_single_landlord(why: str, hand: str, kitty: str, copies: tuple[str, str],
                         answer: str, factor: int) -> None:
    state = start({OL: hand}, kitty=kitty, copies=copies, N=100, A=10)
    assert state.hidden is None and state.landlords() == [OL]
    assert state.observe(OL)["detail"]["role"] == "single landlord"
    assert state.observe(OL)["detail"]["single_landlord"] is True
    run(state, [answer])  # Ruling 3: only the landlord is asked
    assert state.phase == "double"
    for seat in (*FARMERS, HL):
        obs = state.observe(seat)
        assert obs["detail"]["role"] == "farmer"
        assert obs["detail"]["single_landlord"] is (True if answer == "reveal" else None)
        assert obs["detail"]["landlords"] == [OL] and obs["detail"]["hidden_landlord"] is None
    run(state, ["decline"] * 5 + STRAIGHTS)
    result = state.result()
    assert result is not None and result["detail"]["single"] is True
    m = factor * 2  # spring
    assert result["detail"]["M"] == m == result["multiplier"]["total"]
    assert result["points"] == [4 * m, -m, -m, -m, -m]  # x = 底分 × M / L with L = 1
    assert result["beans"] == [400 * m - 10, *[-100 * m - 10] * 4]  # beans.settle


REVEALS = [
    # (O answers, H answers, revealed)
    ("reveal", "reveal", True),
    ("reveal", "decline", True),
    ("decline", "reveal", True),
    ("decline", "decline", False),
]


@pytest.mark.parametrize(("o_says", "h_says", "revealed"), REVEALS)
def test_reveal_by_either(o_says: str, h_says: str, revealed: bool) -> None:
    state = start({OL: "K", HL: "K"})
    assert state.to_act == OL and state.phase == "identity"
    assert state.observe(HL)["detail"]["role"] == "hidden landlord"
    assert state.observe(HL)["detail"]["hidden_landlord"] == HL
    assert state.observe(OL)["detail"]["hidden_landlord"] is None  # Ruling 10
    events = run(state, [o_says, h_says])
    assert state.phase == "double"
    public = [e for e in events if e["type"] == "identity"]
    assert len(public) == 1 and "to" not in public[0]
    assert public[0]["revealed"] is revealed
    assert state.multiplier()["reveal_factor"] == (2 if revealed else 1)
    for seat in FARMERS:
        assert state.observe(seat)["detail"]["hidden_landlord"] == (HL if revealed else None)
        assert "partner" not in state.observe(seat)["detail"]
    if revealed:
        assert state.shown_to == {OL, HL}
        assert state.observe(OL)["detail"]["partner"]["cards"] == \
            " ".join(state.observe(HL)["hand"])
        assert state.observe(HL)["detail"]["partner"]["cards"] == \
            " ".join(state.observe(OL)["hand"])
    else:
        assert state.shown_to == set()
        assert "partner" not in state.observe(OL)["detail"]
        assert "partner" not in state.observe(HL)["detail"]


def test_identity_answers_stay_hidden_until_both_answered() -> None:
    state = start({OL: "K", HL: "K"})
    before = {s: state.observe(s) for s in range(5)}
    run(state, ["reveal"])
    for seat in FARMERS:  # nothing at all changes for a farmer
        assert state.observe(seat) == before[seat]
    h = state.observe(HL)
    assert h["detail"]["identity_answer"] is None and h["detail"]["revealed"] is None
    assert h["multiplier"]["causes"]["reveal"] == 1 and h["last"][OL] is None
    assert not any(e["type"].startswith("identity") for e in GameState.events_for(state.log, HL))
    assert state.observe(OL)["detail"]["identity_answer"] == "reveal"
    assert state.observe(OL)["last"][OL] == "reveal"
    assert state.observe(OL)["to_act"] is None  # it is H's turn, and O may not know H
    assert state.observe(OL)["acting"] == []
    assert h["to_act"] == HL and h["legal"] == ["reveal", "decline"]
    run(state, ["decline"])
    assert state.observe(F1)["detail"]["hidden_landlord"] == HL
    assert GameState.events_for(state.log, F1)[-1] == {
        "type": "identity", "revealed": True, "by": [OL], "hidden_landlord": HL}


def test_a_farmer_cannot_tell_who_is_hidden() -> None:
    """Two deals that differ only in who holds the other copy look the same to F1."""
    spec = {OL: "3K", HL: "5K", F2: "6K"}
    games = [start(spec, copies=("hand0", f"hand{h}")) for h in (HL, F2)]
    assert [g.hidden for g in games] == [HL, F2]
    script = ["decline", "decline", "double", "decline", "double", "decline", "decline",
              "play 3"]
    for text in script:
        assert games[0].observe(F1) == games[1].observe(F1)
        assert games[0].observe(F3) == games[1].observe(F3)
        for g in games:
            g.apply(text)


def test_doubling_answers_stay_hidden_until_all_answered() -> None:
    state = start({OL: "K", HL: "K"})
    run(state, ["decline", "decline"])
    for seat in range(4):
        assert state.to_act == seat
        run(state, ["double"])
        for other in range(5):
            obs = state.observe(other)
            assert obs["detail"]["doubling"]["doubled"] == ([other] if other <= seat else [])
            seen = GameState.events_for(state.log, other)
            assert all(e["type"] != "double-answer" for e in seen
                       if other != seat and e.get("to") == [seat])
            assert not any(e["type"] == "doubling" for e in seen)
    run(state, ["decline"])
    for other in range(5):
        assert state.observe(other)["detail"]["doubling"]["doubled"] == [0, 1, 2, 3]


def test_the_open_landlord_leads() -> None:
    state = start({OL: "K", HL: "K"})
    setup(state)
    assert state.phase == "play" and state.to_act == OL
    assert "pass" not in [a.text for a in state.legal_actions()]
    assert state.check("pass") == "you lead: you must play"


# -- late reveal (Ruling 9) and the copy played last -----------------------------------------

# H takes the lead: O leads 3, H beats it with 4, everyone else passes.
H_LEADS = ["play 3", P, "play 4", *PASS4]

LATE = [
    # (H's plays once he leads, revealed after each)
    (["play K"], [False]),  # he keeps the copy: the other K goes first
    (["play K", *PASS4, "play K"], [False, False, False, False, False, True]),
    (["play KK"], [True]),
]


@pytest.mark.parametrize(("plays", "revealed"), LATE)
def test_late_reveal_by_playing_the_copy(plays: list[str], revealed: list[bool]) -> None:
    state = start({OL: "3K", HL: "4KK"})
    setup(state)
    run(state, H_LEADS)
    assert state.to_act == HL
    for text, now in zip(plays, revealed, strict=True):
        events = state.apply(text)
        assert any(e["type"] == "reveal" for e in events) is (now and text.startswith("play K"))
        assert (state.reveal_how == "copy") is now
        assert (state.observe(F1)["detail"]["hidden_landlord"] == HL) is now
        assert ("partner" in state.observe(OL)["detail"]) is now
        assert ("Kd" in state.observe(HL)["hand"]) is not now
    assert state.multiplier()["reveal_factor"] == 1  # a late reveal never doubles


def test_a_still_hidden_landlord_going_out_wins_for_the_landlords() -> None:
    state = start({OL: "34567K", HL: "6789T 3456789TJQKA 3333"})
    setup(state)
    run(state, ["play 34567", P, "play 6789T", P, P, P, P, "play 3333", *PASS4])
    assert state.reveal_how is None and state.to_act == HL
    events = state.apply("play 3456789TJQKA")
    assert [e["type"] for e in events] == ["play", "reveal", "over"]
    result = state.result()
    assert result is not None
    detail = result["detail"]
    assert (detail["winner"], detail["out"], detail["revealed"]) == ("landlords", HL, "copy")
    # 3333 is a 4-card bomb (no ×2); no farmer played a card: spring ×2.
    assert (result["detail"]["M"], result["detail"]["spring"]) == (2, "spring")
    assert result["points"] == [3, -2, 3, -2, -2]


# -- spring (Ruling 8) ---------------------------------------------------------------------

# O: singles 3 and 7, then two straights; H and F1 each hold a 4.
SPRING_SPEC = {OL: "37 3456789TJQKA 3456789", F1: "4", HL: "4K"}
SPRING_END = ["play 7", *PASS4, "play 3456789TJQKA", *PASS4, "play 3456789TJQ"]
SPRING = [
    # (who else plays, script, spring, scores)
    ("nobody", ["play 3", *PASS4], "spring", [3, -2, 3, -2, -2]),
    ("only the hidden landlord", ["play 3", P, "play 4", P, P], "spring", [3, -2, 3, -2, -2]),
    ("a farmer", ["play 3", "play 4", P, P, P], None, [1.5, -1, 1.5, -1, -1]),
]


@pytest.mark.parametrize(("who", "script", "spring", "scores"), SPRING)
def test_spring(who: str, script: list[str], spring: str | None, scores: list[float]) -> None:
    state = start(SPRING_SPEC, kitty="TJQ")
    setup(state)
    run(state, script + SPRING_END)
    result = state.result()
    assert result is not None and result["detail"]["winner"] == "landlords"
    assert result["detail"]["spring"] == spring
    assert result["points"] == scores


def test_no_anti_spring() -> None:
    """F1 goes out while O made only his opening play: no ×2 (Ruling 8)."""
    state = start({OL: "3456789K", F1: "456789T 33445566778899"})
    setup(state)
    run(state, ["play 3456789", "play 456789T", P, P, P, P, "play 33445566778899"])
    result = state.result()
    assert result is not None and result["detail"]["winner"] == "farmers"
    assert (result["detail"]["spring"], result["detail"]["M"]) == (None, 1)
    assert result["points"] == [-1.5, 1, -1.5, 1, 1]


# -- beans: floors, caps and the odd bean (Ruling 6, ddz-happy §4.3) ------------------------

BIG = 10 ** 6
BEANS = [
    # (case, balances, bean changes O F1 H F2 F3, house)
    ("no limits", None, [790, -1210, 1590, -610, -610], 50),
    # F1 can pay 500: O and H share it 1 : 2 (166.67 → 167, 333.33 → 333); no fee left.
    ("F1 short", [BIG, 500, BIG, BIG, BIG], [557, -500, 1123, -610, -610], 40),
    # O may win at most his 300: his pairs 400/200/200 shrink to 150/75/75.
    ("O capped", [300, BIG, BIG, BIG, BIG], [290, -960, 1590, -485, -485], 50),
]


@pytest.mark.parametrize(("case", "balances", "changes", "house"), BEANS)
def test_bean_floors_and_caps(case: str, balances: list[int] | None, changes: list[int],
                              house: int) -> None:
    state = start(EXAMPLE_SPEC, kitty="222", N=100, A=10, balances=balances)
    setup(state, ("reveal", "decline"), {HL, F1})
    run(state, EXAMPLE_PLAY)
    result = state.result()
    assert result is not None
    assert result["beans"] == changes
    assert result["detail"]["beans"]["house"] == house
    assert sum(changes) + house == 0


ODD_BEAN = [
    # (landlords win?, N = 1: every pair is half a bean; O gets the odd bean)
    (True, [2, -1, 1, -1, -1]),
    (False, [-1, 1, -2, 1, 1]),
]


@pytest.mark.parametrize(("landlords_win", "changes"), ODD_BEAN)
def test_the_odd_bean_goes_to_the_open_landlord(landlords_win: bool,
                                                changes: list[int]) -> None:
    if landlords_win:
        state = start(SPRING_SPEC, kitty="TJQ", N=1)
        setup(state)
        run(state, ["play 3", "play 4", P, P, P, *SPRING_END])
    else:
        state = start({OL: "3456789K", F1: "456789T 33445566778899"}, N=1)
        setup(state)
        run(state, ["play 3456789", "play 456789T", P, P, P, P, "play 33445566778899"])
    result = state.result()
    assert result is not None
    assert [abs(p["points"]) for p in result["detail"]["pairs"]] == [0.5] * 6
    assert result["beans"] == changes


# -- doubling condition (Ruling 11) ----------------------------------------------------------

RICH, POOR = 5000, 500
DOUBLE_MIN = [
    # (identity answers, balances, may double by seat): a seat that does not know the
    # sides must count everyone as a possible opponent.
    (("decline", "decline"), [RICH] * 5, [True] * 5),
    (("decline", "decline"), [RICH, RICH, POOR, RICH, RICH], [False] * 5),
    (("reveal", "decline"), [RICH, RICH, POOR, RICH, RICH], [True, False, False, False, False]),
    (("reveal", "decline"), [RICH, POOR, RICH, RICH, RICH], [False, False, False, True, True]),
    (("decline", "decline"), [RICH, POOR, RICH, RICH, RICH], [False, False, False, False, False]),
]


@pytest.mark.parametrize(("identity", "balances", "may"), DOUBLE_MIN)
def test_doubling_needs_beans(identity: tuple[str, str], balances: list[int],
                              may: list[bool]) -> None:
    state = start({OL: "K", HL: "K"}, double_min_beans=1000, balances=balances)
    run(state, list(identity))
    for seat in range(5):
        assert state.to_act == seat
        assert ("double" in [a.text for a in state.legal_actions()]) is may[seat]
        assert state.observe(seat)["detail"]["doubling"]["eligible"] is may[seat]
        reason = state.check("double")
        assert (reason is None) is may[seat]
        if reason is not None:
            assert "doubling needs more than 1000 beans" in reason
        run(state, ["decline"])


# -- bad actions and options ---------------------------------------------------------------

BAD = [
    # (actions first, bad action, reason contains)
    ([], "double", "in the identity step, reveal or decline"),
    ([], "pass", "in the identity step, reveal or decline"),
    ([], "play 3", "no cards are played during identity"),
    ([], "reveal now", "is not an action of ddz5"),
    ([], "@1 reveal", "seat 1 has no identity answer to give now"),
    (["decline", "decline"], "@1 pass", "in the doubling step, double or decline"),
    (["decline", "decline"], "reveal", "in the doubling step, double or decline"),
    (["decline"] * 7, "pass", "you lead: you must play"),
    (["decline"] * 7, "double", "is not a play: play cards or pass"),
    (["decline"] * 7, "play 2222", "you do not hold 2222"),
    (["decline"] * 7 + ["play 3"], "play 55", "55 does not beat 3"),
]


@pytest.mark.parametrize(("before", "bad", "reason"), BAD)
def test_bad_actions_are_refused_and_change_nothing(before: list[str], bad: str,
                                                    reason: str) -> None:
    state = start({OL: "3K", HL: "K"})
    run(state, before)
    seen, actions = snapshot(state), list(state.actions)
    assert reason in (state.check(bad) or "")
    with pytest.raises(IllegalAction, match=reason):
        state.apply(bad)
    assert snapshot(state) == seen and state.actions == actions


OPTIONS = [
    ({"revealed": "X"}, "never a joker"),
    ({"revealed": "Kd", "landlord": 1}, "no Kd is dealt by seat 1"),
    ({"balances": [1, 2, 3]}, "5 bean balances"),
    ({"N": 0}, "option N"),
]


@pytest.mark.parametrize(("options", "reason"), OPTIONS)
def test_bad_options(options: dict[str, Any], reason: str) -> None:
    deal = make_deal({OL: "K", HL: "K"})
    with pytest.raises(IllegalAction, match=reason):
        new_game("ddz5", options={"deal": deal, **options})


def test_the_revealed_card_is_never_in_the_kitty() -> None:
    deal = make_deal({}, kitty="KK", copies=("kitty", "kitty"))
    with pytest.raises(IllegalAction, match="no Kd is dealt"):
        new_game("ddz5", options={"deal": deal, "revealed": "Kd"})
    for seed in range(20):  # Ruling 1: a random revealed card is a dealt non-joker
        state = new_game("ddz5", seed=seed)
        assert isinstance(state, FivePlayer)
        assert state.landlord is not None and state.revealed_card < 52
        dealt = list(state.hands[state.landlord])
        for card in state.kitty_dealt:
            dealt.remove(card)
        assert state.revealed_card in dealt
        both = state.hands[state.landlord].count(state.revealed_card) == 2
        assert both is state.single  # Ruling 2: both copies after the kitty → single
