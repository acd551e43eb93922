"""找朋友 on the game contract: leaving, 托管, results, hostile input, views, set-ups, matches.

The rules themselves (the worked example, declarations, throws, settlement) are
in ``test_zhaopengyou``; this file holds what the live hall needs of the game.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

from cardhall.cards import format_cards, parse_cards
from cardhall.games import VARIANTS, Action, IllegalAction, new_game, replay
from cardhall.games.base import LEGAL_TEXT_BUDGET
from cardhall.games.view import judge
from cardhall.games.zhaopengyou import Phase, ZhaoPengyou
from cardhall.games.zhaopengyou_match import MATCH_VERSION, Match, replay_match
from cardhall.rules.trick_follow import cheapest_follow
from tests.games.test_zhaopengyou import (
    DEALER,
    EXAMPLE_LEVELS,
    KITTY,
    example_deal,
    game,
    make_deal,
    run,
    snapshot,
)

SETUP = ["declare 5s", "pass", "pass", "pass", "pass", "pass", f"bury {KITTY}",
         "call-friend 2 Ac"]
#: How far into the example hand each phase is reached (the last: mid-trick).
PHASES = {"declare": 0, "bury": 6, "friend": 7, "play": 8, "trick": 10}


def at(steps: int) -> ZhaoPengyou:
    state = game(deal=example_deal(), levels=EXAMPLE_LEVELS, dealer=DEALER)
    run(state, [*SETUP, "play Ad", "play 2d"][:steps])
    return state


def finish(state: ZhaoPengyou, seed: int = 0) -> dict[str, Any]:
    rng = random.Random(seed)
    while not state.over:
        state.apply(rng.choice(state.legal_actions()))
    result = state.result()
    assert result is not None
    return result


# -- leaving (platform §5: autoplay) ------------------------------------------------------


@pytest.mark.parametrize("forced", [False, True])
@pytest.mark.parametrize("phase", sorted(PHASES))
def test_leaving_puts_the_seat_on_tuoguan_and_play_goes_on(phase: str, forced: bool) -> None:
    for seat in range(5):
        state = at(PHASES[phase])
        to_act, before_phase = state.to_act, state.phase
        events = state.apply(f"@{seat} leave forced" if forced else f"@{seat} leave")
        leave: dict[str, Any] = {"type": "leave", "seat": seat, "forced": forced}
        if forced:
            leave["penalty"] = -40
        assert events == [leave, {"type": "auto", "seat": seat, "on": True, "entries": 1,
                                  "locked": False}]
        assert (state.to_act, state.phase, state.over) == (to_act, before_phase, False)
        view = state.observe(seat)
        assert view["left"][seat] and view["auto"][seat]
        assert state.penalties == [-40 if forced and s == seat else 0 for s in range(5)]
        assert "already left" in (state.check(f"@{seat} leave") or "")
        assert "has left" in (state.check(f"@{seat} auto off") or "")
        result = finish(state, seat)  # the hall's bot plays the seat on: scored normally
        assert result["ended"] == "finished" and sum(result["points"]) == 0
        assert result["penalties"] == state.penalties and result["dissolve"]
        assert replay(json.loads(json.dumps(state.record()))).result() == result


def test_a_seat_already_on_tuoguan_leaves_without_a_second_entry() -> None:
    state = at(PHASES["play"])
    state.apply("@4 auto on")
    assert state.apply("@4 leave") == [{"type": "leave", "seat": 4, "forced": False}]
    assert state.auto_entries[4] == 1 and state.left[4]


# -- 托管 ---------------------------------------------------------------------------------


def test_tuoguan_on_off_and_the_fourth_entry_locks() -> None:
    state = at(PHASES["declare"])
    assert "not on 托管" in (state.check("@3 auto off") or "")
    for entry in range(1, 4):
        assert state.apply("@3 auto on")[0]["entries"] == entry
        assert "already on" in (state.check("@3 auto on") or "")
        state.apply("@3 auto off")
        assert not state.observe(0)["auto"][3]
    event = state.apply("@3 auto on")[0]
    assert event == {"type": "auto", "seat": 3, "on": True, "entries": 4, "locked": True}
    assert "locked" in (state.check("@3 auto off") or "")
    assert state.observe(1)["auto_locked"] == [False, False, False, True, False]
    assert state.to_act == DEALER and state.phase == "declare"  # nothing else moved
    assert "say which seat" in (state.check("auto on") or "")


def test_an_all_tuoguan_hand_is_not_scored_and_moves_no_level() -> None:
    """platform §4; with docs/rulings.md 找朋友 11 (an all-托管 window never declares), only
    a table that goes on 托管 after the declaration reaches such an end."""
    state = at(PHASES["trick"])
    for seat in range(5):
        state.apply(f"@{seat} auto on")
    result = finish(state)
    assert result["ended"] == "unscored" and result["points"] == [0] * 5
    assert result["winners"] == [] and result["dissolve"]
    detail = result["detail"]
    assert detail["unscored"] and detail["level_gain"] == 0 and detail["match_winner"] is None
    assert detail["levels_after"] == detail["levels_before"] == EXAMPLE_LEVELS
    assert detail["next_dealer"] == DEALER and detail["attacker_points"] >= 0


def test_four_seats_on_tuoguan_still_score() -> None:
    state = at(PHASES["play"])
    for seat in range(4):
        state.apply(f"@{seat} auto on")
    result = finish(state)
    assert result["ended"] == "finished" and result["winners"] and result["dissolve"]


# -- results ------------------------------------------------------------------------------


def test_results_name_the_winning_side_with_zero_sum_points() -> None:
    for seed in range(8):
        state = new_game("zhaopengyou", seed=seed)
        result = finish(state, seed)  # type: ignore[arg-type]
        detail, points = result["detail"], result["points"]
        side = [s for s, role in enumerate(detail["roles"]) if role != "attacker"]
        assert result["winners"] == (side if detail["holds"] else detail["attackers"])
        assert sum(points) == 0
        assert all(points[s] > 0 for s in result["winners"])
        assert all(points[s] < 0 for s in range(5) if s not in result["winners"])
        causes = result["multiplier"]["causes"]
        stake = causes["stake"]
        assert result["multiplier"]["total"] == stake
        assert all(abs(points[s]) == stake for s in detail["attackers"])  # the dealer: the rest
        assert "scores" not in detail and detail["bottom"]["multiplier"] in (0, 2, 4, 8, 16, 32)
        for key in ("roles", "dealer", "friend", "friend_call", "trick_points", "bottom",
                    "levels_before", "levels_after", "next_dealer", "next_level"):
            assert key in detail
        assert state.observe(0)["multiplier"] == result["multiplier"]
        assert result["version"] == VARIANTS["zhaopengyou"].version == 2


# -- hostile input ------------------------------------------------------------------------

JUNK_TEXTS: list[str] = [
    "declare " + "5s" * 500_000,  # a million characters
    "play " + "Q" * 10_000,
    "declare " + "5s " * 80,
    "play " + "x" * 200,
    "declare 5",
    "bury ,,,, ",
    "call-friend 1 " + "A" * 200,
    "call-friend 99999999999999999999 Ad",
    "call-friend 1 Ad extra",
    "call-friend -1 Ad",
    "pass pass",
    "bid 9",
    "eye 9 9",
    "@",
    "@99999 pass",
    "@-1 pass",
    "@1",
    "auto maybe",
    "leave now",
    "\x00\x01",
    "play \u2660A",
]
JUNK_ACTIONS: list[Action] = [
    Action("play", "Q" * 10_000),
    Action("declare", "5s" * 300),
    Action("bid", "9"),
    Action("play", "33"),  # a 斗地主 play: no suits
    Action("play", "333+4"),
    Action("call-friend", "1"),
    Action("pass", "now"),
    Action(7, ""),  # type: ignore[arg-type]
    Action("play", None),  # type: ignore[arg-type]
    Action("pass", "", seat=True),
    Action("pass", "", seat=99),
    Action("leave", "", seat=None),
]


@pytest.mark.parametrize("phase", sorted(PHASES))
def test_hostile_input_is_refused_cheaply_and_changes_nothing(phase: str) -> None:
    state = at(PHASES[phase])
    before = snapshot(state)
    junk: list[Action | str] = [*JUNK_TEXTS, *JUNK_ACTIONS]
    for bad in junk:
        start = time.perf_counter()
        reason = state.check(bad)
        assert reason, f"{bad!r} accepted in {phase}"
        with pytest.raises(IllegalAction):
            state.apply(bad)
        assert time.perf_counter() - start < 0.05, f"{str(bad)[:40]!r} took too long"
        assert len(reason) < 240, reason  # never the whole hostile text
    assert snapshot(state) == before and state.actions == at(PHASES[phase]).actions


def test_a_foreign_variants_action_is_read_afresh() -> None:
    ddz = new_game("ddz3", seed=1)
    state = at(PHASES["declare"])
    for foreign in ddz.legal_actions():  # pass and bids: only the pass means something here
        assert (state.check(foreign) is None) == (foreign.text == "pass"), foreign
    assert state.apply(ddz.legal_actions()[0]) == [{"type": "pass", "seat": DEALER}]
    state = at(PHASES["play"])
    assert "needs a suit" in (state.check(Action("play", "3")) or "")
    mine = state.legal_actions()[0]
    assert state.check(Action(mine.verb, mine.arg)) is None  # a copy is read from its text


# -- the declaration window: asked in turn --------------------------------------------------


def test_the_declaration_window_asks_one_seat_at_a_time() -> None:
    state = game(deal=make_deal({}), first=3)
    seen = []
    while state.phase == Phase.DECLARE and state.deals == 1:
        assert state.acting == [state.to_act]
        assert all(state.legal_actions(s) == [] for s in range(5) if s != state.to_act)
        seen.append(state.to_act)
        state.apply("pass")
    assert seen == [3, 4, 0, 1, 2] and state.deals == 2 and state.to_act == 3


# -- scriptable set-ups -------------------------------------------------------------------


def test_the_first_seat_asked_is_drawn_from_the_seed_or_given() -> None:
    drawn = {new_game("zhaopengyou", seed=s).to_act for s in range(30)}
    assert len(drawn) > 2
    for first in range(5):
        assert new_game("zhaopengyou", seed=0, options={"first": first}).to_act == first
    later = new_game("zhaopengyou", 0, {"levels": ["2"] * 5, "dealer": 4, "first": 4})
    assert later.to_act == 4 and later.observe(0)["detail"]["first"] == 4


def test_a_given_deal_is_dealt_exactly_and_stays_secret() -> None:
    deal = example_deal()
    state = game(deal=deal, levels=EXAMPLE_LEVELS, dealer=DEALER)
    for seat in range(5):
        assert state.observe(seat)["hand"] == format_cards(parse_cards(deal["hands"][seat])) \
            .split()
    assert state.zones()["kitty"] == sorted(parse_cards(deal["kitty"]))
    assert "deal" not in state.observe(0)["options"]
    assert all(o["name"] != "deal" for o in VARIANTS["zhaopengyou"].describe()["options"])


@pytest.mark.parametrize(("where", "reason"), [
    ("hand", "hand 1 gives the bare rank 7"),
    ("kitty", "the kitty gives the bare rank 7"),
])
def test_a_given_deal_must_name_every_suit(where: str, reason: str) -> None:
    deal = example_deal()
    if where == "hand":
        cards = deal["hands"][1].split()
        cards[cards.index(next(c for c in cards if c.startswith("7")))] = "7"
        deal["hands"][1] = " ".join(cards)
    else:
        cards = deal["kitty"].split()
        cards[0] = "7"
        deal["kitty"] = " ".join(cards)
    with pytest.raises(IllegalAction, match=reason):
        game(deal=deal, levels=EXAMPLE_LEVELS, dealer=DEALER)


def test_jokers_need_no_suit_in_a_given_deal() -> None:
    deal = example_deal()
    assert "X" in deal["hands"][1] or any("X" in h for h in deal["hands"])
    assert game(deal=deal, levels=EXAMPLE_LEVELS, dealer=DEALER).zones()  # X, D are exact


def test_options_describe_themselves() -> None:
    described = {o["name"]: o for o in VARIANTS["zhaopengyou"].describe()["options"]}
    assert {name: o["kind"] for name, o in described.items()} == {
        "levels": "text", "dealer": "seat", "first": "seat"}
    assert all(o["help_zh"] and o["help_zh"] != o["help"] for o in described.values())
    assert VARIANTS["zhaopengyou"].options["deal"].kind == "deal"


# -- views ----------------------------------------------------------------------------------


def random_game(seed: int, on_step: Any) -> ZhaoPengyou:
    """Random legal actions, and now and then a random throw of up to 12 cards of one suit."""
    state = new_game("zhaopengyou", seed=seed)
    assert isinstance(state, ZhaoPengyou)
    rng = random.Random(seed)
    while not state.over:
        on_step(state)
        seat, ctx = state.to_act, state.ctx
        if state.phase == Phase.PLAY and state.lead is None and rng.random() < 0.3:
            assert seat is not None and ctx is not None
            hand = state.hands[seat]
            group = ctx.group[rng.choice(hand)]
            suit = [c for c in hand if ctx.group[c] == group]
            tried = rng.sample(suit, rng.randint(min(2, len(suit)), min(12, len(suit))))
            state.apply(f"play {format_cards(tried)}")
            continue
        state.apply(rng.choice(state.legal_actions()))
    on_step(state)
    return state


@pytest.mark.slow
def test_every_view_stays_small() -> None:
    sizes: list[int] = []

    def measure(state: ZhaoPengyou) -> None:
        sizes.extend(len(json.dumps(state.observe(s), ensure_ascii=False).encode())
                     for s in range(5))

    for seed in range(12):
        random_game(seed, measure)
    assert max(sizes) < 16 * 1024, max(sizes)


def test_views_show_the_trick_the_played_cards_and_every_finished_trick() -> None:
    def look(state: ZhaoPengyou) -> None:
        view = state.observe(0)
        assert isinstance(view["hand"], list) and len(view["hand"]) == len(state.hands[0])
        assert view["counts"] == [len(h) for h in state.hands]
        detail = view["detail"]
        assert len(detail["tricks"]) == len(state.history)
        if state.trick:
            table = view["table"]
            assert table["leader"] == state.trick[0][0]
            assert [p["seat"] for p in table["plays"]] == [s for s, _ in state.trick]
            assert table["seat"] in [p["seat"] for p in table["plays"]]
            winning = next(p["cards"] for p in table["plays"] if p["seat"] == table["seat"])
            assert table["cards"] == winning and table["kind"]
        else:
            assert view["table"] is None
        played = [parse_cards(text) for text in view["played"]]
        assert sum(len(p) for p in played) == len(state.played)
        for trick in detail["tricks"]:
            assert len(trick["plays"]) == 5 and trick["plays"][0][0] == trick["leader"]
        if detail["tricks"]:
            last = detail["tricks"][-1]
            assert detail["last_trick"] == last
        mult = view["multiplier"]
        total = 1
        for factor in mult["causes"].values():
            total *= factor
        assert mult["total"] == total

    state = random_game(3, look)
    assert sum(t["points"] for t in state.observe(1)["detail"]["tricks"]) == sum(state.won)


def throw_against(seat1: str) -> ZhaoPengyou:
    """Seat 0 deals (level 2, ♥ trump) and throws ♠JJJQQQKKKAAA, which holds; seat 1 is next."""
    spec = {0: "Js Js Js Qs Qs Qs Ks Ks Ks As As As 2h", 1: seat1}
    state = game(deal=make_deal(spec, "2d 2d 2d 2c 2c 2c 2s"), dealer=0, levels=["2"] * 5)
    run(state, ["declare 2h", *["pass"] * 5])
    keep = parse_cards(spec[0])
    spare = [c for c in state.hands[0] if c not in keep][:7]
    run(state, [f"bury {format_cards(spare)}", "call-friend 1 D",
                "play Js Js Js Qs Qs Qs Ks Ks Ks As As As"])
    assert state.to_act == 1 and state.lead is not None and state.lead.size == 12
    return state


def test_a_sampled_follow_list_is_not_complete() -> None:
    """Void in ♠ against 12 cards: C(31, 12)-ish follows, so the cheapest and a sample."""
    void = "3h 3h 4h 4h 5h 6h 7h 8h 9h Th Jh 3c 4c 5c 6c 7c 8c 9c Tc Jc 3d 4d 5d 6d 7d 8d 9d Td " \
        "Jd Qd Kd"
    state = throw_against(void)
    view = state.observe(1)
    assert view["legal_complete"] is False and "plays" not in view
    assert sum(len(t) + 3 for t in view["legal"]) <= LEGAL_TEXT_BUDGET
    assert state.lead is not None and state.ctx is not None
    cheapest = cheapest_follow(state.lead, state.hands[1], state.ctx)
    assert f"play {format_cards(cheapest)}" in view["legal"]
    assert state.observe(2)["legal_complete"] is True  # nothing to list for the others


def test_a_long_complete_follow_list_is_given_as_an_index() -> None:
    """Ten ♠ and 21 other faces against 12 cards: all ten and any two others, 210 follows."""
    others = [f"{r}{s}" for s in "cd" for r in "3456789TJQK"][:21]
    state = throw_against("3s 3s 4s 4s 5s 5s 6s 6s 7s 7s " + " ".join(others))
    listed = state.legal_actions()
    assert len(listed) == 210
    view = state.observe(1)
    assert view["legal"] == [] and view["legal_complete"] is False
    plays = view["plays"]
    assert plays["count"] == 210 and plays["labels"] == list(dict.fromkeys(view["hand"]))
    for action in listed[::17]:
        assert judge(plays, dict(_counts(action.arg)))
    assert not judge(plays, dict(_counts("3s 3s 4s 4s 5s 5s 6s 6s 7s 3c 4c 5c")))
    assert len(json.dumps(view)) < 16 * 1024


def _counts(text: str) -> list[tuple[str, int]]:
    words = text.split()
    return [(w, words.count(w)) for w in dict.fromkeys(words)]


# -- matches as records ---------------------------------------------------------------------


def played_match(seed: int, hands: int) -> Match:
    match = Match(seed=seed, first=2)
    for number in range(hands):
        finish(match.hand, seed + number)  # type: ignore[arg-type]
        match.next_hand()
    rng = random.Random(seed)
    for _ in range(40):  # the last hand is left half played
        match.hand.apply(rng.choice(match.hand.legal_actions()))
    return match


def test_a_match_record_replays_identically() -> None:
    match = played_match(11, 2)
    record = json.loads(json.dumps(match.record()))
    assert record["version"] == MATCH_VERSION and len(record["hands"]) == 3
    assert record["hands"][0]["options"]["first"] == 2
    again = replay_match(record)
    assert again.record() == match.record()
    assert [h.result() for h in again.hands] == [h.result() for h in match.hands]
    for mine, theirs in zip(match.hands, again.hands, strict=True):
        assert [mine.observe(s) for s in range(5)] == [theirs.observe(s) for s in range(5)]
    assert again.levels == match.levels and again.dealer == match.dealer


def test_a_match_record_is_checked() -> None:
    record = played_match(4, 1).record()
    with pytest.raises(IllegalAction, match="version"):
        replay_match({**record, "version": MATCH_VERSION + 1})
    with pytest.raises(IllegalAction, match="match record"):
        replay_match({"seed": 4, "hands": []})
    tampered = json.loads(json.dumps(record))
    tampered["hands"][1]["seed"] += 1
    with pytest.raises(IllegalAction, match="hand 2: its seed"):
        replay_match(tampered)
    early = json.loads(json.dumps(record))
    early["hands"][0]["actions"] = early["hands"][0]["actions"][:20]
    with pytest.raises(IllegalAction, match="still being played"):
        replay_match(early)
    old = json.loads(json.dumps(record))
    old["hands"][0]["version"] = 1
    with pytest.raises(IllegalAction, match="version"):
        replay_match(old)


def test_a_table_that_ends_a_hand_on_tuoguan_dissolves_the_match() -> None:
    match = Match(seed=2)
    rng = random.Random(2)
    while match.hand.phase != Phase.PLAY:
        match.hand.apply(rng.choice(match.hand.legal_actions()))
    match.hand.apply("@1 leave")
    finish(match.hand)  # type: ignore[arg-type]
    assert match.over and match.dissolved and match.winner is None
    with pytest.raises(IllegalAction, match="dissolved"):
        match.next_hand()
    assert replay_match(json.loads(json.dumps(match.record()))).dissolved
