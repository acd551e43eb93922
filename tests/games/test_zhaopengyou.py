"""找朋友 (``zhaopengyou``) scripted games: ../shared/rules/zhao-pengyou.md, phase by phase.

The centre piece plays the rule file's worked example as a whole hand: seat 2
deals at level 5 (others 2/3/4/6), calls "2nd ♣A", seat 3 plays the 2nd ♣A in
trick 4 and becomes the friend; the attackers take 95 points in tricks, seat 0
(an attacker) wins the last trick with ♥QQ over a kitty of 10 + 10 + 5, so
P = 95 + 25 × 4 = 195: the dealer steps down, each attacker rises one level,
and the dealer's 下家 is the friend, so seat 4 deals next.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from cardhall.cards import deck, format_cards, parse_cards
from cardhall.games import Action, IllegalAction, new_game, replay
from cardhall.games.zhaopengyou import FRIEND_CALLS, ZhaoPengyou
from cardhall.games.zhaopengyou_match import Match, next_dealer, settle


def make_deal(spec: dict[int, str], kitty: str = "", seed: int = 0) -> dict[str, Any]:
    """A whole three-pack deal: the cards ``spec`` names per seat, the rest shuffled in."""
    pool = Counter(deck(3))
    parts: dict[int, list[int]] = {s: list(parse_cards(spec.get(s, ""))) for s in range(5)}
    parts[5] = list(parse_cards(kitty))
    for cards in parts.values():
        pool.subtract(cards)
    assert min(pool.values()) >= 0, "more copies than three packs hold"
    rest = sorted(pool.elements())
    random.Random(seed).shuffle(rest)
    for where, size in [*((s, 31) for s in range(5)), (5, 7)]:
        while len(parts[where]) < size:
            parts[where].append(rest.pop())
    assert not rest
    return {"hands": [format_cards(parts[s]) for s in range(5)], "kitty": format_cards(parts[5])}


def game(**options: Any) -> ZhaoPengyou:
    state = new_game("zhaopengyou", seed=0, options=options)
    assert isinstance(state, ZhaoPengyou)
    return state


def run(state: ZhaoPengyou, actions: list[str]) -> list[dict[str, Any]]:
    events = []
    for text in actions:
        events.extend(state.apply(text))
    return events


def snapshot(state: ZhaoPengyou) -> str:
    return json.dumps([state.observe(s) for s in range(5)], sort_keys=True)


# -- the worked example, trick by trick -----------------------------------------------------
# Level rank 5, trump ♠ (seat 2 declares 5s). Trumps: BJ SJ 5s 5h=5c=5d A…6 4 3 2 of ♠.
# Each row: the leader, then the cards in play order (the leader first, then 下家 onwards);
# the last trick is a pair trick, its plays split by "|".

KITTY = "Kc 3d Th 5d 3s 4s 6s"  # 10 + 10 + 5 = 25 points
EXAMPLE_LEVELS = ["2", "3", "5", "4", "6"]
DEALER, FRIEND = 2, 3
PLAN = [
    (2, "Ad 2d Kd 2d 2d"),  # 1: the dealer takes ♦ tricks (10)
    (2, "Ad 3d Td 3d 4d"),  # 2: (10)
    (2, "Ad 4d 4d 6d 6d"),  # 3
    (2, "Ac Ac 2c 2c 2c"),  # 4: 1st ♣A by seat 2, the 2nd by seat 3: the friend; ties: first
    (2, "D 5h As Ks 2s"),  # 5–13: the dealer's top trumps take every trump point but one
    (2, "D 5h As Ks 2s"),
    (2, "D 5c As Ks 3s"),
    (2, "X 5c Qs Ts 4s"),
    (2, "X 5c Qs Ts 6s"),
    (2, "X 5d Qs Ts 7s"),
    (2, "5s 5d Js 9s 7s"),
    (2, "5s 8s Js 9s 7s"),
    (2, "5s 8s Js 9s 8s"),
    (2, "2s 3s 4s 5h 6s"),  # 14: seat 0's off-suit 5 (step 12) beats: 5 points to the attackers
    (0, "Kd 7d 7d 7d Td"),  # 15–18: the attackers' ♦ tricks (20, 20, 0, 0)
    (0, "Kd 8d 8d 8d Td"),
    (0, "Qd 9d 9d 9d Jd"),
    (0, "Qd Jd 6d Jd Qd"),  # equal queens: seat 0 played first
    (0, "Ah 2h 2h 3h Kh"),  # 19–23: every ♥ point (10, 10, 10, 20, 0)
    (0, "Ah 3h 4h 4h Kh"),
    (0, "Ah 6h 6h 7h Kh"),
    (0, "Qh Th 7h 8h Th"),
    (0, "Jh Jh 8h 9h 9h"),
    (0, "3c 3c Ac 3c 4c"),  # 24–28: the dealer takes every ♣ point (0, 20, 20, 10, 0)
    (2, "Kc Tc 4c 4c 6c"),
    (2, "Kc Tc 6c 6c 7c"),
    (2, "Qc Tc 7c 7c 8c"),
    (2, "Qc 8c 8c 9c 9c"),
    (2, "Jc Jc 9c Qc Jc"),  # 29: seat 0's ♣Q wins the lead back
    (0, "Qh Qh | 2h 3h | 4h 6h | 7h 8h | 9h Jh"),  # 30: ♥QQ wins the last trick: 扣底 ×4
]


def plays_of(row: tuple[int, str]) -> list[tuple[int, str]]:
    leader, text = row
    parts = [p.strip() for p in text.split("|")] if "|" in text else text.split()
    return [((leader + i) % 5, part) for i, part in enumerate(parts)]


def example_deal() -> dict[str, Any]:
    hands: dict[int, list[str]] = {s: [] for s in range(5)}
    for row in PLAN:
        for seat, cards in plays_of(row):
            hands[seat].append(cards)
    deal = make_deal({s: " ".join(h) for s, h in hands.items()}, KITTY)
    assert all(len(parse_cards(h)) == 31 for h in deal["hands"])
    return deal


def example(call: str = "2 Ac") -> ZhaoPengyou:
    """The example hand up to the first lead: declared, kitty buried back, friend called."""
    state = game(deal=example_deal(), levels=EXAMPLE_LEVELS, dealer=DEALER)
    run(state, ["declare 5s", "pass", "pass", "pass", "pass", "pass", f"bury {KITTY}",
                f"call-friend {call}"])
    return state


def play_plan(state: ZhaoPengyou, stop: int | None = None) -> None:
    for number, row in enumerate(PLAN[:stop], 1):
        assert state.to_act == row[0], f"trick {number} should be led by seat {row[0]}"
        for seat, cards in plays_of(row):
            assert state.to_act == seat
            state.apply(f"play {cards}")


def test_worked_example() -> None:
    state = example()
    assert (state.level, state.trump, state.dealer) == (parse_cards("5s")[0] // 4, 0, DEALER)
    play_plan(state)
    outcome = state.result()
    assert outcome is not None
    assert outcome["ended"] == "finished" and outcome["winners"] == [0, 1, 4]
    assert outcome["points"] == [2, 2, -4, -2, 2]  # stake 2: (195 − 120) // 40 + 1
    assert outcome["multiplier"] == {"total": 2, "causes": {"stake": 2}}
    result = outcome["detail"]
    assert result["friend"] == FRIEND
    assert result["attackers"] == [0, 1, 4]
    assert result["trick_points"] == [95, 0, 180, 0, 0]
    assert result["attacker_trick_points"] == 95
    assert result["kitty"] == format_cards(parse_cards(KITTY))
    assert result["bottom"] == {"winner": 0, "captured": True, "pairs": 1, "multiplier": 4,
                                "points": 100}
    assert result["attacker_points"] == 195
    assert (result["holds"], result["winner"], result["level_gain"]) == (False, "attackers", 1)
    assert result["levels_before"] == EXAMPLE_LEVELS
    assert result["levels_after"] == ["3", "4", "5", "4", "7"]  # attackers +1 each
    assert (result["next_dealer"], result["next_level"]) == (4, "7")  # 下家 3 is the friend
    assert result["roles"] == ["attacker", "attacker", "dealer", "friend", "attacker"]
    assert result["match_winner"] is None
    assert state.zones()["played"] and not any(state.hands)


def test_worked_example_reveals_the_friend_in_trick_four() -> None:
    state = example()
    play_plan(state, 3)
    run(state, ["play Ac"])  # the 1st ♣A, by the dealer
    assert state.friend is None and state.observe(0)["detail"]["friend"] is None
    assert state.observe(0)["detail"]["attacker_points"] is None  # teams unknown
    assert state.observe(0)["roles"] == [None, None, "dealer", None, None]
    events = run(state, ["play Ac"])  # the 2nd, by seat 3
    assert {"type": "friend", "seat": 3, "card": "Ac", "n": 2} in events
    assert all(state.observe(s)["detail"]["friend"] == FRIEND for s in range(5))
    assert state.observe(0)["roles"] == ["attacker", "attacker", "dealer", "friend", "attacker"]
    assert state.observe(0)["detail"]["copies_played"] == 2
    assert state.observe(1)["detail"]["attacker_points"] == 0
    assert state.observe(1)["detail"]["points"] == [0, 0, 20, 0, 0]


def test_dealer_as_his_own_friend() -> None:
    """Ruling 16: the dealer plays the 1st ♦A himself: 1 against 4, no skip in succession."""
    state = example("1 Ad")
    play_plan(state)
    outcome = state.result()
    assert outcome is not None
    assert outcome["winners"] == [0, 1, 3, 4] and outcome["points"] == [2, 2, -8, 2, 2]
    result = outcome["detail"]
    assert result["friend"] == DEALER
    assert result["roles"] == ["attacker", "attacker", "dealer", "attacker", "attacker"]
    assert result["attacker_points"] == 195
    assert result["levels_after"] == ["3", "4", "5", "5", "7"]  # seat 3 attacks now
    assert result["next_dealer"] == 3  # the 下家, not skipped


def test_friend_never_played_leaves_the_dealer_alone() -> None:
    """Ruling 10: the 3rd ♣K is buried, so nobody plays it; known at the end."""
    state = example("3 Kc")
    play_plan(state)
    assert state.observe(0)["roles"] == ["attacker", "attacker", "dealer", "attacker", "attacker"]
    outcome = state.result()
    assert outcome is not None
    result = outcome["detail"]
    assert result["friend"] is None and state.copies == 2
    assert result["roles"].count("attacker") == 4
    assert result["next_dealer"] == 3
    assert sum(outcome["points"]) == 0 and outcome["points"][DEALER] == -8


# -- declarations --------------------------------------------------------------------------

LEVEL_TWOS = {0: "2s", 1: "2h 2h", 2: "2c 2c 2c", 3: "2d 2d"}
TWOS_KITTY = "2s 2s 2h 2d"


def first_hand(**options: Any) -> ZhaoPengyou:
    return game(deal=make_deal(LEVEL_TWOS, TWOS_KITTY), first=0, **options)


def test_overcalls_and_the_first_dealer() -> None:
    """Ruling 4: 1 → 2 → 3 identical level cards; hand 1's last declarer deals at level 2."""
    state = first_hand()
    assert state.legal_actions()[0].text == "pass"
    assert [a.text for a in state.legal_actions()] == ["pass", "declare 2s"]
    run(state, ["declare 2s"])
    assert [a.text for a in state.legal_actions()] == ["pass", "declare 2h 2h"]
    run(state, ["declare 2h 2h"])
    assert state.check("declare 2d 2d") is not None  # seat 2 is to act anyway
    assert "more than 2" in (state.check("declare 2c 2c") or "")
    events = run(state, ["declare 2c 2c 2c"])  # nothing can overcall three: closed at once
    assert [e["type"] for e in events] == ["declare", "trump", "kitty"]
    assert (state.phase, state.dealer, state.to_act, state.trump) == ("bury", 2, 2, 2)
    detail = state.observe(4)["detail"]
    assert detail["declarations"] == [[0, "2s"], [1, "2h 2h"], [2, "2c 2c 2c"]]
    assert detail["level"] == "2"
    assert state.observe(4)["last"] == ["declare 2s", "declare 2h 2h", "declare 2c 2c 2c",
                                         None, None]
    assert state.observe(4)["roles"] == [None, None, "dealer", None, None]


def test_reinforcing_and_five_passes_close_the_window() -> None:
    state = first_hand()
    run(state, ["pass", "declare 2h", "pass", "pass", "pass", "pass"])
    assert state.phase == "declare" and state.to_act == 1  # the declarer may reinforce
    run(state, ["declare 2h 2h", *["pass"] * 4])
    assert state.phase == "declare"
    run(state, ["pass"])  # five in a row, the declarer's included
    assert (state.phase, state.dealer, state.trump) == ("bury", 1, 1)


def test_no_declaration_redeals() -> None:
    state = first_hand()
    before = state.observe(0)["hand"]
    events = run(state, ["pass"] * 5)
    assert [e["type"] for e in events][-3:] == ["redeal", "deal", "declare-window"]
    assert (state.deals, state.phase, state.to_act) == (2, "declare", 0)
    assert state.observe(0)["hand"] != before
    assert state.observe(0)["last"] == [None] * 5 and state.observe(0)["detail"]["deals"] == 2
    assert sorted(c for z in state.zones().values() for c in z) == sorted(deck(3))


def test_later_hands_keep_their_dealer_and_level() -> None:
    state = game(levels=["2", "9", "2", "2", "2"], dealer=1)
    assert (state.observe(0)["detail"]["level"], state.to_act, state.dealer) == ("9", 1, 1)
    # a later hand knows its dealer from the start; the others are fixed after the window
    assert state.observe(0)["roles"] == [None, "dealer", None, None, None]
    assert all(a.text == "pass" or a.text.split()[1].startswith("9")
               for a in state.legal_actions())


# -- kitty and friend ------------------------------------------------------------------------


def test_kitty_is_the_dealers_alone() -> None:
    state = game(deal=example_deal(), levels=EXAMPLE_LEVELS, dealer=DEALER)
    events = run(state, ["declare 5s", *["pass"] * 5])
    kitty = format_cards(parse_cards(KITTY))
    kitty_events = [e for e in state.events_for(events, DEALER) if e["type"] == "kitty"]
    assert kitty_events == [{"type": "kitty", "cards": kitty}]
    assert not [e for e in state.events_for(events, 0) if e["type"] == "kitty"]
    dealer_view = state.observe(DEALER)["detail"]
    assert len(state.hands[DEALER]) == 38 and "kitty" not in dealer_view
    assert dealer_view["kitty_taken"] == kitty
    assert all("kitty_taken" not in state.observe(s)["detail"] for s in range(5) if s != DEALER)
    legal = [a.text for a in state.legal_actions()]
    assert f"bury {kitty}" in legal  # bury what was taken
    assert "bury 2d 2d 3d 4d 4d 6d 6d" not in legal  # a burial not listed ...
    events = state.apply("bury Ad Ad Ad 5s 5s 5s Kc")  # ... any 7 held cards (Ruling 13)
    assert state.events_for(events, 0) == [{"type": "bury", "seat": DEALER}]
    assert state.observe(DEALER)["detail"]["kitty"] == "5s 5s 5s Kc Ad Ad Ad"
    assert state.observe(DEALER)["last"][DEALER] == "bury 5s 5s 5s Kc Ad Ad Ad"
    assert state.observe(0)["last"][DEALER] == "bury"
    assert all("kitty" not in state.observe(s)["detail"] for s in range(5) if s != DEALER)
    assert len(state.legal_actions()) == len(FRIEND_CALLS) == 162


@pytest.mark.parametrize("call", ["1 Ad", "3 X", "2 D", "1 5s"])
def test_any_face_may_be_called(call: str) -> None:
    state = game(deal=example_deal(), levels=EXAMPLE_LEVELS, dealer=DEALER)
    run(state, ["declare 5s", *["pass"] * 5, f"bury {KITTY}"])
    assert state.check(f"call-friend {call}") is None
    state.apply(f"call-friend {call}")
    assert state.observe(4)["detail"]["friend_call"] == {"n": int(call[0]), "card": call[2:]}
    assert state.observe(4)["last"][DEALER] == f"call-friend {call}"


# -- throws ------------------------------------------------------------------------------------


def dealt_to_play(spec: dict[int, str]) -> ZhaoPengyou:
    """Seat 0 deals at level 2 with hearts trump, buries 7 cards outside ``spec[0]``."""
    state = game(deal=make_deal(spec, "2d 2d 2d 2c 2c 2c 2s"), dealer=0,
                 levels=["2"] * 5)
    run(state, ["declare 2h", *["pass"] * 5])
    keep = Counter(parse_cards(spec[0]))
    spare = sorted((Counter(state.hands[0]) - keep).elements(),
                   key=lambda c: (c in parse_cards("2h As Ks Qs"), c))[:7]
    run(state, [f"bury {format_cards(spare)}", "call-friend 1 D"])
    return state


def test_a_throw_that_holds() -> None:
    state = dealt_to_play({0: "2h As As As Ks", 1: "Ks Ks"})
    listed = [a.text for a in state.legal_actions()]
    assert "play Ks As As As" in listed  # offered: he holds every A, so nothing beats his K
    events = run(state, ["play Ks As As As"])
    assert [e["type"] for e in events] == ["play"]
    assert state.observe(1)["table"] == {
        "seat": 0, "cards": "Ks As As As", "kind": "a pair, 2 singles", "leader": 0,
        "plays": [{"seat": 0, "cards": "Ks As As As"}]}
    assert state.observe(1)["detail"]["trick_suit"] == "♠"


def test_a_throw_that_fails_plays_its_lowest_beatable_unit() -> None:
    state = dealt_to_play({0: "2h Ks Qs", 3: "As"})
    assert state.check("play Ks Qs") is None  # legal to try: it fails when applied
    before = len(state.hands[0])
    events = run(state, ["play Ks Qs"])
    assert events[0] == {"type": "throw-failed", "seat": 0, "cards": "Qs"}
    assert events[1] == {"type": "throw-tried", "to": [0], "cards": "Qs Ks"}
    assert events[2] == {"type": "play", "seat": 0, "cards": "Qs"}
    assert len(state.hands[0]) == before - 1 and parse_cards("Ks")[0] in state.hands[0]
    assert state.lead is not None and state.lead.cards == parse_cards("Qs")
    assert not [e for e in state.events_for(events, 1) if e["type"] == "throw-tried"]
    assert state.observe(1)["played"][0] == "Qs" and state.observe(1)["last"][0] == "play Qs"


def test_random_throws_keep_the_game_sound() -> None:
    """Leaders also try arbitrary multi-card leads of one suit (listed or not): every one is
    legal, failed ones play a unit of what was tried, and the game replays identically."""
    outcomes: Counter[str] = Counter()
    for seed in range(10):
        state = new_game("zhaopengyou", seed=seed)
        assert isinstance(state, ZhaoPengyou)
        rng = random.Random(seed)
        while not state.over:
            seat, ctx = state.to_act, state.ctx
            if state.phase == "play" and state.lead is None and rng.random() < 0.3:
                assert seat is not None and ctx is not None
                hand = state.hands[seat]
                group = ctx.group[rng.choice(hand)]
                suit = [c for c in hand if ctx.group[c] == group]
                tried = sorted(rng.sample(suit, rng.randint(min(2, len(suit)), min(6, len(suit)))))
                text = f"play {format_cards(tried)}"
                assert state.check(text) is None
                events = state.apply(text)
                played = parse_cards(next(e for e in events if e["type"] == "play")["cards"])
                assert not Counter(played) - Counter(tried)
                outcomes[events[0]["type"]] += 1
                continue
            state.apply(rng.choice(state.legal_actions()))
        assert sorted(c for z in state.zones().values() for c in z) == sorted(deck(3))
        assert replay(state.record()).result() == state.result()
    assert outcomes["throw-failed"] > 10 and outcomes["play"] > 0


# -- bad actions -------------------------------------------------------------------------------

BAD = [
    # (how far into the example, action, a piece of the reason)
    (0, "declare 3s", "level rank is 5"),
    (0, "declare 5h", "you hold 0 5h"),
    (0, "declare 5s 5s 5s 5s", "1, 2 or 3 identical"),
    (0, "declare 5s 5c", "1, 2 or 3 identical"),
    (0, "bury Ad", "declaration is open"),
    (0, "play Ad", "declaration is open"),
    (0, "call-friend 4 Ad", "N 1 to 3"),
    (0, "call-friend 1", "N 1 to 3"),
    (0, "pass now", "pass takes nothing"),
    (0, "@3 pass", "seat 2's turn"),
    (0, "@2 bury Ad", "declaration is open"),
    (0, "declare", "which cards"),
    (0, "declare 5z", "unexpected"),
    (0, "shuffle", "not an action of 找朋友"),
    (6, "bury Ad", "exactly 7"),
    (6, "bury Ah Ah Ah Ah Ah Ah Ah", "do not hold Ah"),
    (6, "pass", "buries 7 cards"),
    (7, "play Ad", "calls his friend"),
    (8, "pass", "nobody passes"),
    (8, "play Ad Ac", "mixes suits"),
    (8, "play Ah", "do not hold Ah"),
    (9, "play 5h", "still hold ♦ cards"),
    (9, "play 2d 2d", "do not hold"),
    (9, "call-friend 1 Ad", "not a play"),
]


@pytest.mark.parametrize(("steps", "bad", "reason"), BAD)
def test_bad_actions_are_refused_and_change_nothing(steps: int, bad: str, reason: str) -> None:
    state = game(deal=example_deal(), levels=EXAMPLE_LEVELS, dealer=DEALER)
    run(state, ["declare 5s", "pass", "pass", "pass", "pass", "pass", f"bury {KITTY}",
                "call-friend 2 Ac", "play Ad"][:steps])
    before = snapshot(state)
    got = state.check(bad)
    assert got is not None and reason in got, got
    with pytest.raises(IllegalAction, match=reason.replace("(", r"\(")):
        state.apply(bad)
    assert snapshot(state) == before


def test_hand_built_actions_are_judged_too() -> None:
    """Read again from their text: a non-canonical one is judged as what its text says."""
    state = example()
    assert "unexpected" in (state.check(Action("play", "garbage")) or "")
    assert "mixes suits" in (state.check(Action("play", "Ad Ac 2h")) or "")
    assert "seat 2's turn" in (state.check(Action("play", "2h", seat=3)) or "")
    assert state.check(Action("play", "2h", seat=2)) is None
    assert state.check(Action("play", "2h")) is None
    assert state.check(Action("play", "2h  ")) is None


@pytest.mark.parametrize(("options", "reason"), [
    ({"levels": ["2", "3", "2", "2", "2"]}, "give the dealer"),
    ({"levels": ["2", "2", "2", "2"], "dealer": 0}, "5 levels"),
    ({"levels": ["2", "2", "2", "2", "1"], "dealer": 0}, "a level is"),
    ({"dealer": 5}, "dealer must be one of"),
    ({"deal": {"hands": ["3s", "3s", "3s", "3h", "3h"], "kitty": ""}}, "the whole deck"),
    ({"deal": {"hands": ["3s"] * 5, "kitty": ""}}, "more cards than the deck holds"),
    ({"levels": ["2"] * 5, "dealer": 1, "first": 3}, "opens at the dealer"),
])
def test_bad_options(options: dict[str, Any], reason: str) -> None:
    with pytest.raises(IllegalAction, match=reason):
        new_game("zhaopengyou", seed=0, options=options)


def test_levels_option_accepts_text() -> None:
    state = game(levels="2TA22", dealer=2)
    assert state.options["levels"] == ["2", "T", "A", "2", "2"]
    assert state.observe(0)["detail"]["level"] == "A"
    assert new_game("zhaopengyou", 0, {"levels": ["2", "10", "a", "2", "2"], "dealer": 1}) \
        .observe(0)["detail"]["level"] == "T"


# -- settlement ------------------------------------------------------------------------------

BANDS = [
    # attackers' points, holds, levels gained, stake
    (0, True, 3, 3), (39, True, 3, 3), (40, True, 2, 2), (79, True, 2, 2), (80, True, 1, 1),
    (119, True, 1, 1), (120, False, 0, 1), (159, False, 0, 1), (160, False, 1, 2),
    (199, False, 1, 2), (200, False, 2, 3), (239, False, 2, 3), (240, False, 3, 4),
    (279, False, 3, 4), (280, False, 4, 5), (300, False, 4, 5), (320, False, 5, 6),
]


@pytest.mark.parametrize(("p", "holds", "gain", "unit"), BANDS)
def test_level_bands(p: int, holds: bool, gain: int, unit: int) -> None:
    """§5: dealer side + (3 − P//40) below 120, attackers + (P − 120)//40 from 120."""
    result = settle(dealer=0, friend=1, levels=[0, 3, 0, 5, 9], won=[0, 0, p, 0, 0],
                    kitty=[], last_winner=0, last_play=parse_cards("As"), call="1 Ad")
    assert (result["holds"], result["level_gain"]) == (holds, gain)
    after = [int(x) if x.isdigit() else x for x in result["levels_after"]]
    if holds:
        assert after[:2] == [2 + gain, 5 + gain] and after[2:] == [2, 7, "J"]
    else:
        assert after[:2] == [2, 5]
        assert result["levels_after"][2:] == [
            "23456789TJQKA"[min(12, v + gain)] for v in (0, 5, 9)]
    sign = 1 if holds else -1
    assert result["scores"] == [2 * unit * sign, unit * sign, *[-unit * sign] * 3]


@pytest.mark.parametrize(("winner", "play", "points"), [
    (2, "As", 50), (2, "Qh Qh", 100), (2, "3h 3h 4h 4h", 200), (2, "3h 3h 9h 9h", 200),
    (0, "Qh Qh", 0), (1, "3h 3h 4h 4h", 0)])
def test_bottom_capture(winner: int, play: str, points: int) -> None:
    """扣底 with 0, 1, 2 pairs (the kitty holds 25); nothing when the dealer side wins it."""
    result = settle(dealer=0, friend=1, levels=[0] * 5, won=[0] * 5, kitty=parse_cards(KITTY),
                    last_winner=winner, last_play=parse_cards(play), call="1 Ad")
    assert result["bottom"]["points"] == points
    assert result["attacker_points"] == points


def test_levels_stop_at_a_and_only_a_dealer_at_a_passes_it() -> None:
    ace, king, queen = 12, 11, 10
    held = settle(dealer=0, friend=1, levels=[ace, ace, king, 0, 0], won=[0] * 5, kitty=[],
                  last_winner=0, last_play=(), call="1 Ad")
    assert held["match_winner"] == 0 and held["levels_after"][:2] == ["A", "A"]
    lost = settle(dealer=0, friend=1, levels=[ace, 0, king, 0, queen], won=[0, 0, 300, 0, 0],
                  kitty=[], last_winner=0, last_play=(), call="1 Ad")
    assert lost["match_winner"] is None and lost["levels_after"] == ["A", "2", "A", "6", "A"]
    friend_at_a = settle(dealer=0, friend=1, levels=[queen, ace, 0, 0, 0], won=[0] * 5,
                         kitty=[], last_winner=0, last_play=(), call="1 Ad")
    assert friend_at_a["match_winner"] is None
    assert friend_at_a["levels_after"][:2] == ["A", "A"]


@pytest.mark.parametrize(("dealer", "friend", "holds", "expected"), [
    (2, 3, False, 4),  # the 下家 is the friend: skipped
    (2, 4, False, 3),
    (2, 2, False, 3),  # the dealer was his own friend: no skip (Ruling 16)
    (2, None, False, 3),  # the called copy never came
    (4, 0, False, 1),  # round the table
    (2, 3, True, 2),  # held: the same dealer
])
def test_dealer_succession(dealer: int, friend: int | None, holds: bool, expected: int) -> None:
    assert next_dealer(dealer, friend, holds) == expected


# -- matches -------------------------------------------------------------------------------


def play_hand(state: Any, seed: int) -> None:
    """Uniformly random legal actions (the bots read views of their own: tests/bots)."""
    rng = random.Random(seed)
    while not state.over:
        state.apply(rng.choice(state.legal_actions()))


def test_a_match_carries_levels_and_the_dealer() -> None:
    match = Match(seed=3)
    assert isinstance(match.hand, ZhaoPengyou)
    assert match.hand.dealer is None and match.levels == ["2"] * 5
    with pytest.raises(IllegalAction, match="still being played"):
        match.next_hand()
    for number in range(3):
        play_hand(match.hand, number)
        result = match.hand.result()
        assert result is not None
        detail = result["detail"]
        hand = match.next_hand()
        assert isinstance(hand, ZhaoPengyou)
        assert hand.options["levels"] == detail["levels_after"]
        assert hand.options["dealer"] == hand.dealer == detail["next_dealer"]
        assert hand.observe(0)["detail"]["level"] == detail["next_level"]
    assert len(match.record()["hands"]) == 4
    assert replay(match.record()["hands"][1]).result() == match.hands[1].result()


def test_a_match_ends_when_a_dealer_at_a_holds() -> None:
    for seed in range(60):
        match = Match(seed=seed, levels=["A", "2", "2", "2", "2"], dealer=0)
        play_hand(match.hand, seed)
        if match.over:
            break
    assert match.over and match.winner == 0 and not match.dissolved
    result = match.hand.result()
    assert result is not None
    assert result["detail"]["holds"] and result["detail"]["levels_after"][0] == "A"
    with pytest.raises(IllegalAction, match="passed A"):
        match.next_hand()


# -- 托管 -------------------------------------------------------------------------------------


def test_tuoguan_answers() -> None:
    from cardhall.bots import make as make_bot  # noqa: PLC0415

    state = example()
    bot = make_bot("tuoguan", "zhaopengyou", DEALER)
    assert bot.act(state.observe(DEALER)) == "play 2h"  # lowest side non-point single
    run(state, ["play Ad"])
    follower = make_bot("tuoguan", "zhaopengyou", 3)
    assert follower.act(state.observe(3)) == "play 2d"  # cheapest follow
    leading = {"variant": "zhaopengyou", "phase": "play", "level": "5", "trump": "s",
               "hand": "Th 3s Kd", "trick": None}
    assert bot.act({**leading, "legal_actions": ["play Th", "play 3s", "play Kd"]}) == \
        "play Th"  # only point cards and trumps: the lowest single by rank, points or not
    fresh = game(deal=example_deal(), levels=EXAMPLE_LEVELS, dealer=DEALER)
    assert bot.act(fresh.observe(DEALER)) == "pass"  # never declares
    run(fresh, ["declare 5s", *["pass"] * 5])
    burial = bot.act(fresh.observe(DEALER))
    assert fresh.check(burial) is None and burial == fresh.legal_actions()[0].text
    fresh.apply(burial)
    call = bot.act(fresh.observe(DEALER))
    assert call == "call-friend 1 Ah"  # ♥A: the first side ace the dealer lacks
