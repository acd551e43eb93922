"""The bidding games (ddz2, ddz3, ddz4, 斗帝主) on the game contract: leaving, 托管, set-up
options, the result's shape, hostile actions, views. Exact numbers come from the rule
files (ddz-happy §4.4 for the escape, in points: docs/rulings.md)."""

from __future__ import annotations

import json
import math
import random
import time
from typing import Any

import pytest

from cardhall.cards import format_ranks
from cardhall.games import VARIANTS, Action, GameState, IllegalAction, new_game, replay
from cardhall.games.base import AUTO_LOCK_ENTRY
from cardhall.games.ddz import BiddingGame
from tests.games.hidden import assert_no_leak

#: The variants with contract bidding (ddz.py's BiddingGame).
BIDDING = [v.id for v in VARIANTS.values()
           if isinstance(v.factory, type) and issubclass(v.factory, BiddingGame)]
VIEW_LIMIT = 16 * 1024


def run(state: GameState, *actions: str) -> GameState:
    for action in actions:
        state.apply(action)
    return state


def snapshot(state: GameState) -> str:
    return json.dumps([[state.observe(s) for s in range(state.players)], state.record()],
                      sort_keys=True)


def spread(variant: str) -> dict[str, Any]:
    """A deal without bombs in any hand: the deck in rank order, dealt round the table;
    the kitty and the dead cards are the top of the deck (2s and jokers)."""
    game = new_game(variant)
    rs, lay, n = game.rs, game.layout, game.players  # type: ignore[attr-defined]
    ranks = [r for r in range(15) for _ in range(rs.limits[r])]
    dealt = n * lay.hand
    hands = [format_ranks(ranks[s:dealt:n]) for s in range(n)]
    return {"hands": hands, "kitty": format_ranks(ranks[dealt:dealt + lay.kitty]),
            "dead": format_ranks(ranks[dealt + lay.kitty:])}


def play_out(state: GameState, rng: random.Random) -> GameState:
    while not state.over:
        state.apply(rng.choice(state.legal_actions()))
    return state


def multiplier_product(mult: dict[str, Any]) -> float:
    return math.prod(mult["causes"].values())


# -- leaving (platform §5, happy §4.4 in points) -------------------------------------------

# (variant, options, actions before leaving, leaver, role, M_act, points)
ESCAPES = [
    # Spread deals: no bombs; M_act < 10, so P is 20 (landlord) or 10 (farmer).
    ("ddz2", {"first": 0}, [], 0, "farmer", 1, [-10, 10]),
    ("ddz2", {"first": 0}, [], 1, "farmer", 1, [10, -10]),
    ("ddz2", {"landlord": 0}, [], 0, "landlord", 1, [-20, 20]),
    ("ddz2", {"landlord": 0}, ["play 3"], 1, "farmer", 1, [10, -10]),
    # ddz4: the three others share X_esc, each rounded down to a whole point.
    ("ddz4", {"first": 1}, [], 2, "farmer", 1, [3, 3, -9, 3]),
    ("ddz4", {"first": 1}, ["bid 1"], 1, "landlord", 1, [6, -18, 6, 6]),
    ("ddz4", {"first": 1}, ["bid 1"], 0, "farmer", 1, [-9, 3, 3, 3]),
    # The landlord took 2222XXDD: the rocket he holds doubles, M_act = 2 × 2 = 4 < 10.
    ("ddz4", {"landlord": 0, "contract": 2}, [], 0, "landlord", 4, [-18, 6, 6, 6]),
    ("ddz4", {"landlord": 0, "contract": 2}, ["play 33"], 3, "farmer", 4, [3, 3, 3, -9]),
    # 斗帝主: while the emperor chooses, while playing; rebels pay the farmer rate.
    ("ddz_emperor", {"landlord": 0}, [], 0, "landlord", 1, [-20, 10, 10]),
    ("ddz_emperor", {"landlord": 0}, [], 2, "farmer", 1, [5, 5, -10]),
    ("ddz_emperor", {"landlord": 0}, ["take XXDD"], 0, "landlord", 2, [-20, 10, 10]),
    ("ddz_emperor", {"first": 2}, ["bid 2"], 2, "landlord", 2, [10, 10, -20]),
    ("ddz3", {"first": 0}, [], 0, "farmer", 1, [-10, 5, 5]),
    ("ddz3", {"first": 0}, ["bid 3"], 0, "landlord", 6, [-20, 10, 10]),  # took the rocket
]


@pytest.mark.parametrize(("variant", "options", "before", "leaver", "role", "m_act", "points"),
                         ESCAPES)
def test_escape_costs_the_rate_of_the_role(variant: str, options: dict[str, Any],
                                           before: list[str], leaver: int, role: str,
                                           m_act: int, points: list[int]) -> None:
    state = run(new_game(variant, seed=1, options={"deal": spread(variant), **options}),
                *before)
    events = state.apply(f"@{leaver} leave")
    assert [e["type"] for e in events] == ["leave", "escape", "over"]
    result = state.result()
    assert result is not None and events[-1]["result"] == result
    assert result["ended"] == "escape" and state.over and state.acting == []
    assert result["points"] == points and sum(points) == 0
    assert result["winners"] == [s for s in range(state.players) if s != leaver]
    assert (result["detail"]["escape"], result["detail"]["role"]) == (leaver, role)
    assert result["detail"]["M_act"] == m_act == result["multiplier"]["total"]
    assert multiplier_product(result["multiplier"]) == m_act
    assert result["penalties"] == [0] * state.players  # an escape game has no −40
    assert state.left[leaver] and state.observe(leaver)["left"][leaver]
    assert state.check("pass") == "the game is over"
    assert state.check(f"@{(leaver + 1) % state.players} leave") == "the game is over"
    assert replay(json.loads(json.dumps(state.record()))).result() == result


def classic_bombs(**options: Any) -> GameState:
    """ddz3 with four bombs held: 3333, 4444 (seat 0), the rocket (1), AAAA (2); the kitty
    222 adds none."""
    deal = {"hands": ["3333444456789TJQK", "555666777888999XD", "TTTJJJQQQKKKAAAA2"],
            "kitty": "222"}
    return new_game("ddz3", seed=1, options={"deal": deal, **options})


@pytest.mark.parametrize(("options", "before", "leaver", "m_act", "points"), [
    ({"first": 0}, [], 0, 16, [-32, 16, 16]),  # 2^4 ≥ 10: P = 2 × 16 for a farmer
    ({"first": 0}, ["bid 2"], 0, 32, [-128, 64, 64]),  # the highest bidder: 4 × 32
    ({"first": 0}, ["bid 2"], 1, 32, [32, -64, 32]),
    ({"landlord": 0, "contract": 3}, [], 0, 48, [-192, 96, 96]),
    ({"landlord": 0, "contract": 3}, ["play 3333", "play XD"], 2, 48, [48, 48, -96]),
])
def test_escape_counts_every_bomb_held(options: dict[str, Any], before: list[str], leaver: int,
                                       m_act: int, points: list[int]) -> None:
    """happy §4.4: bombs held count, played or not (M_act ≥ 10: P = 4 or 2 × M_act)."""
    state = run(classic_bombs(**options), *before)
    state.apply(f"@{leaver} leave forced")
    result = state.result()
    assert result is not None
    assert (result["detail"]["held_bombs"], result["detail"]["M_act"]) == (4, m_act)
    assert result["points"] == points


def test_leaving_from_every_seat_in_every_phase() -> None:
    """Every (variant, phase, seat): the game ends at once, zero-sum, by the role's rate."""
    for variant in BIDDING:
        seen: set[tuple[str, bool, int]] = set()
        for seed in range(6):
            state = new_game(variant, seed=seed)
            rng = random.Random(seed)
            while not state.over:
                key = (str(state.phase), bool(state.bids), state.to_act or 0)  # type: ignore[attr-defined]
                for seat in range(state.players):
                    if (key[0], key[1], seat) in seen:
                        continue
                    seen.add((key[0], key[1], seat))
                    check_escape(state.clone(), seat)
                state.apply(rng.choice(state.legal_actions()))
        phases = {p for p, _, _ in seen}
        assert phases >= {"bid", "play"} | ({"kitty"} if variant == "ddz_emperor" else set())


def check_escape(state: Any, seat: int) -> None:
    _, bidder = state._highest()
    provisional = state.landlord if state.landlord is not None else bidder
    role = "landlord" if seat == provisional else "farmer"
    events = state.apply(f"@{seat} leave")
    result = state.result()
    detail = result["detail"]
    assert events[-1] == {"type": "over", "result": result}
    assert result["ended"] == "escape" and detail["role"] == role
    m_act = detail["M_act"]
    x_esc = ({"landlord": 20, "farmer": 10}[role] if m_act < 10
             else {"landlord": 4, "farmer": 2}[role] * m_act)
    share = x_esc // (state.players - 1)
    assert detail["X_esc"] == x_esc
    assert result["points"] == [-share * (state.players - 1) if s == seat else share
                                for s in range(state.players)]


def test_a_dissolved_table_is_not_an_escape() -> None:
    state = new_game("ddz4", seed=4)
    run(state, *["pass"] * 12)
    assert state.result()["ended"] == "dissolved"  # type: ignore[index]
    assert state.check("@0 leave") == "the game is over"


# -- 托管 (platform §4) -----------------------------------------------------------------------


@pytest.mark.parametrize("variant", BIDDING)
def test_auto_on_off_and_the_fourth_entry_locks(variant: str) -> None:
    state = new_game(variant, seed=3)
    seat = (state.to_act + 1) % state.players  # type: ignore[operator]
    assert state.check(f"@{seat} auto off") == f"seat {seat} is not on 托管"
    assert state.check("auto on") == "say which seat: @SEAT auto on (e.g. @0 auto on)"
    assert state.check(f"@{seat} auto on", seat=(seat + 1) % state.players) is not None
    for entry in range(1, AUTO_LOCK_ENTRY + 1):
        events = state.apply(f"@{seat} auto on")
        assert events == [{"type": "auto", "seat": seat, "on": True, "entries": entry,
                           "locked": entry == AUTO_LOCK_ENTRY}]
        view = state.observe(0)
        assert view["auto"][seat] and view["auto_locked"][seat] is (entry == AUTO_LOCK_ENTRY)
        assert state.check(f"@{seat} auto on") == f"seat {seat} is already on 托管"
        if entry < AUTO_LOCK_ENTRY:
            state.apply(f"@{seat} auto off", seat=seat)
            assert not state.observe(seat)["auto"][seat]
        state.apply(state.legal_actions()[0])  # the game goes on meanwhile
        if state.over:
            break
    if not state.over:
        assert "locked" in (state.check(f"@{seat} auto off") or "")
    again = replay(json.loads(json.dumps(state.record())))
    assert (again.auto, again.auto_entries) == (state.auto, state.auto_entries)
    assert again.observe(seat) == state.observe(seat)


@pytest.mark.parametrize("variant", BIDDING)
def test_a_game_ending_with_every_seat_on_auto_is_not_scored(variant: str) -> None:
    for seed in range(3):
        state = new_game(variant, seed=seed)
        for seat in range(state.players):
            state.apply(f"@{seat} auto on")
        play_out(state, random.Random(seed))
        result = state.result()
        assert result is not None and result["dissolve"] is True
        if result["ended"] == "dissolved":  # ddz4: three passed-out deals stay dissolved
            continue
        assert result["ended"] == "unscored"
        assert (result["points"], result["winners"]) == ([0] * state.players, [])
        assert result["auto"] == [True] * state.players


def test_one_seat_off_auto_keeps_the_game_scored_and_dissolves_the_table() -> None:
    state = new_game("ddz3", seed=2)
    state.apply("@0 auto on")
    state.apply("@1 auto on")
    play_out(state, random.Random(2))
    result = state.result()
    assert result is not None and result["ended"] == "finished" and result["dissolve"]
    assert sum(result["points"]) == 0 and result["winners"]


def test_an_escape_with_every_seat_on_auto_is_still_scored() -> None:
    state = new_game("ddz3", seed=2, options={"deal": spread("ddz3"), "first": 0})
    for seat in range(3):
        state.apply(f"@{seat} auto on")
    state.apply("@1 leave")
    assert state.result()["ended"] == "escape"  # type: ignore[index]
    assert state.result()["points"] == [5, -10, 5]  # type: ignore[index]


# -- scriptable set-up: option first -----------------------------------------------------------


@pytest.mark.parametrize("variant", BIDDING)
def test_option_first_fixes_the_first_bidder(variant: str) -> None:
    players = VARIANTS[variant].players
    for first in range(players):
        for seed in range(4):
            state = new_game(variant, seed=seed, options={"first": first})
            assert state.to_act == first and state.acting == [first]
            assert state.observe(0)["detail"]["first_bidder"] == first
            if variant in ("ddz3", "ddz_emperor"):  # the flagged card is in his hand
                flag = next(e for e in state.log if e["type"] == "flag")  # type: ignore[attr-defined]
                assert flag["seat"] == first and flag["card"] in state.observe(first)["hand"]
    with pytest.raises(IllegalAction, match="option first"):
        new_game(variant, options={"first": players})
    with pytest.raises(IllegalAction, match="option first"):
        new_game(variant, options={"first": "1"})


def test_option_first_holds_for_the_first_deal_only() -> None:
    """A redeal draws its first bidder from the seed again (classic Ruling 3)."""
    firsts = set()
    for seed in range(8):
        state = run(new_game("ddz3", seed=seed, options={"first": 2}), "pass", "pass", "pass")
        assert state.deals == 2  # type: ignore[attr-defined]
        firsts.add(state.to_act)
    assert len(firsts) > 1


# -- the result's shape ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", BIDDING)
def test_result_shape(variant: str) -> None:
    for seed in range(8):
        state = play_out(new_game(variant, seed=seed), random.Random(seed))
        result = state.result()
        assert result is not None and result == state.observe(0)["result"]
        assert result["variant"] == variant and result["version"] == 2
        assert sum(result["points"]) == 0
        assert result["multiplier"]["total"] == multiplier_product(result["multiplier"])
        assert all(isinstance(s, int) for s in result["winners"])
        if result["ended"] == "dissolved":
            continue
        assert result["ended"] == "finished"
        landlord = state.landlord  # type: ignore[attr-defined]
        farmers = [s for s in range(state.players) if s != landlord]
        assert result["winners"] in ([landlord], farmers)
        assert result["detail"]["stake"] == result["multiplier"]["total"]
        for s in range(state.players):
            won = s in result["winners"]
            assert (result["points"][s] > 0) is won


# -- hostile actions ---------------------------------------------------------------------------

JUNK = ["", "   ", "fly away", "play 33Z", "play", "bid 9", "bid 0", "bid 1 2", "@9 pass",
        "@-1 pass", "@x pass", "@00001 pass", "eye 9 9", "pass now", "declare junk",
        "take ZZ", "take " + "3" * 200, "call now", "no-call 1", "reveal", "double",
        "auto maybe", "leave now", "@0 auto", "x" * 10_000, "play " + "3" * 10_000,
        "@1 " + "pass " * 2000, "play 3" * 30, "play 小王大王小王", "play 3\x00"]


def hostile_actions(state: GameState) -> list[Any]:
    foreign = new_game("ddz5", seed=1).legal_actions() + new_game("ddz3_happy").legal_actions()
    return [*JUNK, Action("bid", "9"), Action("bid", " 1"), Action("play", "ZZ"),
            Action("take", "33333333"), Action("pass", "now"), Action("play", "3" * 5000),
            Action(5, "x"), Action("pass", 3), Action("pass", "", True),  # type: ignore[arg-type]
            Action("pass", "", 99), Action("pass", "", -1), *foreign, 12, None, b"pass"]


@pytest.mark.parametrize("variant", BIDDING)
def test_hostile_actions_are_refused_cheaply_and_change_nothing(variant: str) -> None:
    state = new_game(variant, seed=5)
    rng = random.Random(5)
    steps = 0
    while not state.over and steps < 40:
        before = snapshot(state)
        began = time.perf_counter()
        for bad in hostile_actions(state):
            reason = state.check(bad)
            if reason is None:  # a foreign action, or a forgiving text, legal here too
                assert isinstance(bad, Action)
                assert state.parse_action(bad.text).text in [a.text for a in
                                                             state.legal_actions()]
                continue
            assert 0 < len(reason) <= 200, reason
            with pytest.raises(IllegalAction):
                state.apply(bad)
        assert time.perf_counter() - began < 1.0
        assert snapshot(state) == before
        state.apply(rng.choice(state.legal_actions()))
        steps += 1


def test_hand_built_actions_are_read_from_their_text() -> None:
    state = new_game("ddz3", seed=1, options={"first": 0})
    assert state.check(Action("bid", "9")) == ("'bid 9' is not an action of ddz3: pass, "
                                               "bid 1/2/3, play CARDS")
    assert state.check(Action("bid", "3")) is None  # a fresh Action with a legal text
    assert state.check(Action("bid", "3", 1)) == "it is seat 0's turn, not seat 1's"
    listed = state.legal_actions()[-1]
    state.apply(listed)
    assert state.actions == ["bid 3"]


# -- options, views, records -------------------------------------------------------------------


@pytest.mark.parametrize("variant", [*BIDDING, "ddz5"])
def test_options_are_described_with_kinds_chinese_help_and_ranges(variant: str) -> None:
    described = VARIANTS[variant].describe()
    assert described["version"] == 2 and described["name_en"] != variant
    names = {o["name"]: o for o in described["options"]}
    assert "deal" not in names  # secret: never in a form or a view
    for option in described["options"]:
        assert option["kind"] in ("bool", "int", "number", "seat", "choice", "text", "deal")
        assert option["help_zh"] and option["help_zh"] != option["help"]
    for name in ("first", "landlord"):
        if name in names:
            assert names[name]["kind"] == "seat"
    if "contract" in names:
        assert (names["contract"]["minimum"], names["contract"]["maximum"]) == (1, 3)
    json.dumps(described)


@pytest.mark.parametrize("variant", [*BIDDING, "ddz5"])
def test_records_of_version_1_are_refused(variant: str) -> None:
    record = new_game(variant, seed=1).record()
    assert record["version"] == 2
    with pytest.raises(IllegalAction, match="version 1"):
        replay({**record, "version": 1})


@pytest.mark.parametrize("variant", BIDDING)
def test_views_are_small_snapshots_that_leak_nothing(variant: str) -> None:
    for seed in range(3):
        rng = random.Random(seed)
        state = new_game(variant, seed=seed)
        while True:
            if seed == 0:
                assert_no_leak(state, rng)
            for seat in range(state.players):
                view = state.observe(seat)
                assert "log" not in view and "deal" not in view["options"]
                assert len(json.dumps(view, ensure_ascii=False).encode()) < VIEW_LIMIT
                assert view["acting"] == state.acting
                assert all(isinstance(c, str) for c in view["hand"])
            if state.over:
                break
            state.apply(rng.choice(state.legal_actions()))


def test_roles_are_none_until_the_landlord_is_known() -> None:
    state = new_game("ddz3", seed=1, options={"first": 0})
    assert state.observe(1)["roles"] == [None, None, None]
    run(state, "bid 3")
    assert state.observe(1)["roles"] == ["landlord", "farmer", "farmer"]
    assert state.observe(2)["multiplier"] == {"total": 3, "causes": {"contract": 3, "bombs": 1}}
    assert state.observe(2)["last"] == ["bid 3", None, None]
