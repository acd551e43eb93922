"""Scenario tests for the bidding variants: ddz3, ddz4, 斗帝主, ddz2 (exact numbers).

Each scripted game fixes the cards with the ``deal`` option and, where the
auction is not the point, the landlord; the plays then reproduce the worked
examples of the rule files.
"""

from __future__ import annotations

import pytest

from cardhall.cards import format_ranks, parse_ranks
from cardhall.games import Action, GameState, new_game


def run(state, *actions: str):
    for action in actions:
        state.apply(action)
    return state


# -- ddz3 (ddz-classic.md) ----------------------------------------------------------------

def deal_around(variant: str, fixed: dict[int, str], size: int, kitty: str = "",
                kitty_size: int = 0, dead: int = 0) -> dict[str, object]:
    """A deal giving seats ``fixed`` hands and the kitty; the rest dealt in rank order."""
    rs = new_game(variant).rs
    rest = [r for r in range(15) for _ in range(rs.limits[r])]
    for text in [*fixed.values(), kitty]:
        for r in parse_ranks(text):
            rest.remove(r)
    if not kitty:
        kitty, rest = format_ranks(rest[-kitty_size:]), rest[:-kitty_size]
    dead_text, rest = format_ranks(rest[len(rest) - dead:]), rest[:len(rest) - dead]
    hands = []
    for seat in range(new_game(variant).players):
        if seat in fixed:
            hands.append(fixed[seat])
        else:
            hands.append(format_ranks(rest[:size]))
            rest = rest[size:]
    assert not rest
    return {"hands": hands, "kitty": kitty, "dead": dead_text}


def classic(fixed: dict[int, str], **options: object):
    """A ddz3 game: seat 0 is the landlord holding ``fixed[0]`` (20 cards, kitty last)."""
    landlord = fixed[0]
    hands = {0: landlord[:17], **{s: h for s, h in fixed.items() if s}}
    deal = deal_around("ddz3", hands, 17, landlord[17:])
    return new_game("ddz3", seed=1, options={"deal": deal, "landlord": 0, **options})


def test_classic_worked_example_24_points_landlord_wins() -> None:
    """Contract 3, two bombs and the rocket: S = 3 × 8 = 24; landlord +48, farmers −24."""
    g = classic({0: "3333444456789TJQK222", 1: "555666777888999XD"}, contract=3)
    assert g.observe(1)["detail"]["kitty"] == "222"  # the kitty is shown to everyone
    run(g, "play 3333", "play XD", "pass", "pass",  # a bomb, the rocket: the farmer leads
        "play 5", "pass", "play 4444", "pass", "pass",  # the landlord bombs a single
        "play 56789TJQK", "pass", "pass", "play 222")
    result = g.result()
    assert result["points"] == [48, -24, -24]
    assert result["ended"] == "finished" and result["winners"] == [0]
    assert result["detail"]["winner"] == "landlord"
    assert result["detail"]["bombs"] == 3
    assert result["detail"]["stake"] == 24
    assert result["multiplier"] == {"total": 24, "causes": {"contract": 3, "bombs": 8}}


def test_classic_farmers_win_and_the_landlord_pays_both() -> None:
    g = classic({0: "3456789TJQK3456789TJ", 1: "2222AAAKKKQQQJJXD"}, contract=3)
    run(g, "play 3456789TJQK", "play 2222", "pass", "pass",  # a bomb: k = 1
        "play AAA+J", "pass", "pass", "play KKK+J", "pass", "pass",
        "play QQQ+X", "pass", "pass", "play D")
    assert g.result()["points"] == [-12, 6, 6]  # S = 3 × 2; the landlord pays 2S
    assert g.result()["winners"] == [1, 2] and g.result()["detail"]["winner"] == "farmers"


def test_classic_play_example_a_b_c() -> None:
    """A leads 3339; B passes; C 5557; A KKKJ; B AAA3; C, A pass: B leads freely."""
    g = classic({0: "3339KKKJ56789TQQ22XD", 1: "AAA344466889TTJJQ"})
    run(g, "play 333+9", "pass", "play 555+7", "play KKK+J", "play AAA+3", "pass")
    assert g.check("pass") is None and g.to_act == 0
    run(g, "pass")
    assert g.to_act == 1 and g.observe(1)["table"] is None
    assert g.check("pass") == "you lead: you must play"
    run(g, "play 4")
    assert g.observe(2)["table"] == {"seat": 1, "cards": "4", "kind": "single",
                                         "leader": 1, "acted": [1]}
    assert g.observe(0)["last"] == ["pass", "play 4", "pass"]


def test_classic_bidding_one_turn_each_and_3_ends() -> None:
    g = new_game("ddz3", seed=3)
    first = g.to_act
    assert [a.text for a in g.legal_actions()] == ["pass", "bid 1", "bid 2", "bid 3"]
    run(g, "bid 1")
    assert [a.text for a in g.legal_actions()] == ["pass", "bid 2", "bid 3"]
    assert g.check("bid 1") == "a bid must be higher than 1"
    run(g, "pass", "pass")
    assert g.landlord == first and g.phase == "play" and g.to_act == first
    assert len(g.hands[first]) == 20
    g = new_game("ddz3", seed=3)
    run(g, "bid 3")
    assert g.landlord == first and g.observe(0)["detail"]["contract"] == 3


def test_classic_all_pass_redeals_with_a_new_first_bidder() -> None:
    g = new_game("ddz3", seed=1)
    hands = [list(h) for h in g.hands]
    run(g, "pass", "pass", "pass")
    assert g.phase == "bid" and g.deals == 2 and g.landlord is None
    assert [list(h) for h in g.hands] != hands
    assert sum(1 for e in g.log if e["type"] == "flag") == 2


def test_classic_first_bidder_holds_the_flagged_card() -> None:
    for seed in range(10):
        g = new_game("ddz3", seed=seed)
        flag = next(e for e in g.log if e["type"] == "flag")
        assert flag["card"] in g.observe(g.to_act)["hand"]
        assert flag["seat"] == g.to_act == g.first_bidder
        assert g.observe(0)["detail"]["flagged"] == flag["card"]


def test_classic_spring_is_a_house_option() -> None:
    hand = "3456789TJQKAXD22KKKA"
    moves = ("play 3456789TJQKA", "pass", "pass", "play XD", "pass", "pass", "play 22",
             "pass", "pass", "play KKK+A")
    plain = run(classic({0: hand}), *moves)
    assert plain.result()["points"] == [4, -2, -2]  # the rocket ×2; no spring by default
    assert plain.result()["detail"]["spring"] is None
    assert plain.result()["multiplier"]["causes"] == {"contract": 1, "bombs": 2}
    spring = run(classic({0: hand}, spring=True), *moves)
    assert spring.result()["detail"]["spring"] == "spring"
    assert spring.result()["points"] == [8, -4, -4]
    assert spring.result()["multiplier"] == {"total": 4, "causes": {"contract": 1, "bombs": 2,
                                                                    "spring": 2}}


# -- ddz4 (ddz-4p.md) ------------------------------------------------------------------------


def test_ddz4_three_passed_out_deals_dissolve() -> None:
    g = new_game("ddz4", seed=4)
    for deal in (1, 2):
        run(g, "pass", "pass", "pass", "pass")
        assert g.phase == "bid" and g.deals == deal + 1
    run(g, "pass", "pass", "pass", "pass")
    result = g.result()
    assert g.over and result is not None
    assert (result["ended"], result["winners"], result["points"]) == ("dissolved", [], [0] * 4)
    assert result["detail"] == {"deals": 3} and "beans" not in result


def test_ddz4_kitty_is_hidden_from_farmers() -> None:
    g = new_game("ddz4", seed=4)
    run(g, "bid 3")
    landlord = g.landlord
    assert landlord is not None and len(g.hands[landlord]) == 33
    assert "kitty" in g.observe(landlord)["detail"]
    for seat in range(4):
        if seat != landlord:
            assert "kitty" not in g.observe(seat)["detail"]
            assert all("cards" not in e for e in GameState.events_for(g.log, seat)
                       if e["type"] == "kitty")


def test_ddz4_worked_example_only_big_bombs_and_rocket_double() -> None:
    """Contract 2; 4-, 5-, 7-card bombs and the rocket (and a second 4-card bomb):
    k = 2 (7-card bomb, rocket), S = 8; landlord +24, each farmer −8."""
    landlord = "3333444445555555XXDD6789TJQKA6666"
    dealt, kitty = landlord[:25], landlord[25:]
    g = new_game("ddz4", options={"deal": deal_around("ddz4", {0: dealt}, 25, kitty),
                                  "landlord": 0, "contract": 2})
    assert len(g.hands[0]) == 33
    for play in ("3333", "44444", "5555555", "XXDD", "6789TJQKA"):
        run(g, f"play {play}", "pass", "pass", "pass")
    run(g, "play 6666")
    result = g.result()
    assert result["points"] == [24, -8, -8, -8]
    assert result["detail"]["bombs"] == 2
    assert result["detail"]["bomb_plays"] == ["5555555", "XXDD"]
    assert result["multiplier"] == {"total": 8, "causes": {"contract": 2, "bombs": 4}}
    assert "kitty" in g.observe(1)["detail"]  # revealed at the end (Ruling 7)


@pytest.mark.parametrize(("cards", "doubles"), [
    ("3333", False), ("33333", False), ("333333", True), ("3333333", True),
    ("33333333", True), ("XXDD", True), ("33", False), ("333+44", False),
])
def test_ddz4_doubling_table(cards: str, doubles: bool) -> None:
    g = new_game("ddz4", seed=0)
    assert g.doubles(g.rs.parse_play(cards)) is doubles


# -- 斗帝主 (dou-dizhu-emperor.md) -----------------------------------------------------------


def test_emperor_sees_the_kitty_alone_and_keeps_any_subset() -> None:
    g = new_game("ddz_emperor", seed=8)
    run(g, "bid 3")
    emperor = g.landlord
    assert emperor is not None and g.phase == "kitty" and g.to_act == emperor
    kitty = g.observe(emperor)["detail"]["kitty"]
    assert len(kitty) == 6
    for seat in range(3):
        if seat != emperor:
            assert "kitty" not in g.observe(seat)["detail"]
    takes = [a.text for a in g.legal_actions()]
    assert "take none" in takes and f"take {kitty}" in takes
    assert g.check("take 2222") is not None or "2222" in kitty
    run(g, f"take {kitty[:2]}")
    assert len(g.hands[emperor]) == 36 and len(g.dead) == 4
    rebel = (emperor + 1) % 3
    assert g.observe(rebel)["counts"][emperor] == 36  # rebels learn only the count
    assert not any("cards" in e for e in GameState.events_for(g.log, rebel)
                   if e["type"].startswith("kitty"))
    assert g.observe(rebel)["last"][emperor] == "take"  # not which cards
    assert g.observe(emperor)["last"][emperor] == f"take {kitty[:2]}"
    assert g.observe(rebel)["roles"][emperor] == "emperor"


def test_emperor_worked_example_rebels_win() -> None:
    """Contract 3; one 6-card bomb and 天王 played (k = 2): S = 12; emperor −24, rebels +12."""
    rebel = "333333XXDD3456789TJQKA3456789TJQKA"
    g = new_game("ddz_emperor", options={
        "deal": deal_around("ddz_emperor", {1: rebel}, 34, kitty_size=6),
        "landlord": 0, "contract": 3})
    run(g, "take none", f"play {g.observe(0)['hand'][0][0]}",
        "play 333333", "pass", "pass", "play XXDD", "pass", "pass",
        "play 3456789TJQKA", "pass", "pass", "play 3456789TJQKA")
    result = g.result()
    assert result["points"] == [-24, 12, 12]
    assert result["winners"] == [1, 2] and result["detail"]["winner"] == "farmers"
    assert result["detail"]["bombs"] == 2
    assert result["multiplier"] == {"total": 12, "causes": {"contract": 3, "bombs": 4}}


def test_emperor_doubling_bombs() -> None:
    g = new_game("ddz_emperor", seed=0)
    assert not g.doubles(g.rs.parse_play("3333"))  # a four is no bomb here
    assert g.doubles(g.rs.parse_play("33333"))
    assert g.doubles(g.rs.parse_play("XXDD"))


# -- ddz2 (ddz-2p.md) --------------------------------------------------------------------------


def test_ddz2_first_call_wins_and_both_no_call_redeals() -> None:
    g = new_game("ddz2", seed=6)
    first = g.to_act
    assert [a.text for a in g.legal_actions()] == ["call", "no-call"]
    run(g, "no-call", "no-call")
    assert g.deals == 2 and g.phase == "bid"
    caller = g.to_act
    run(g, "call")
    assert g.landlord == caller and len(g.hands[caller]) == 23
    assert len(g.hands[1 - caller]) == 20
    assert first in (0, 1)


def test_ddz2_dead_cards_stay_hidden_until_the_end() -> None:
    g = new_game("ddz2", seed=6)
    run(g, "call")
    assert len(g.dead) == 11
    assert all("dead" not in g.observe(s)["detail"] for s in range(2))
    assert g.observe(1 - g.landlord)["detail"]["kitty"] == g.observe(g.landlord)["detail"]["kitty"]


def test_ddz2_worked_example_bomb_and_rocket() -> None:
    """A bomb and the rocket played, the landlord wins: k = 2, S = 4; +4 / −4."""
    landlord = "3333XD456789TJQKA556677"
    g = new_game("ddz2", options={
        "deal": deal_around("ddz2", {0: landlord[:20]}, 20, landlord[20:], dead=11),
        "landlord": 0})
    assert len(g.hands[0]) == 23 and len(g.dead) == 11
    run(g, "play 3333", "pass", "play XD", "pass", "play 456789TJQKA", "pass", "play 556677")
    assert g.result()["points"] == [4, -4]
    assert g.result()["detail"]["stake"] == 4 == g.result()["multiplier"]["total"]


def test_hand_built_actions_are_judged_by_their_text() -> None:
    g = classic({0: "3333444456789TJQK222", 1: "555666777888999XD"})
    assert g.check(Action("play", "4433")) == "'4433' is not a ddz3 play"
    assert g.check(Action("play", "3 3")) is None  # the pair of 3s, however it is spaced
    assert g.check(Action("play", "XX")) == "ddz3 has only 1 of X (got 2)"
    g.apply(Action("play", "33"))
    assert g.observe(1)["table"] == {"seat": 0, "cards": "33", "kind": "pair",
                                         "leader": 0, "acted": [0]}
