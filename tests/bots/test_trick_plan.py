"""The planning bot in 找朋友: set-up answers in scripted deals, point-card sense in played games.

Set-up decisions are checked on real observations of dealt hands. Play is
checked where its outcome is certain: the seat last to play to a trick, with
the teams known (the friend revealed), knows exactly who takes the trick, so

- a partner holds it: the bot gives him the most points it can, and takes
  the trick over from him only when that gives more;
- an opponent holds it: the bot takes a trick worth points when any play
  can, and otherwise gives him the fewest points it can;

and before the reveal the dealer never plays the called copy himself (he
would be his own friend, alone against four) while another play is legal.
Every such position met in a few seeded all-planning games is checked.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from cardhall.bots import make
from cardhall.bots.trick.plan import suit_strength
from cardhall.bots.trick.view import cards_of, read
from cardhall.cards import parse_card
from cardhall.games import new_game
from cardhall.games.zhaopengyou import ZhaoPengyou
from cardhall.rules.trick import POINTS, play_rank
from tests.games.test_zhaopengyou import make_deal

#: 31 cards with one level card (2d) and no long suit: too weak to name trump unasked.
WEAK = "3s 4s 5s 6s 7s 8s 9s 3h 4h 5h 6h 7h 8h 9h 3c 4c 5c 6c 7c 8c 9c 3d 4d 5d 6d 7d 8d 9d " \
       "Ts Th 2d"
#: Long in hearts, with two 2h and a joker: worth naming hearts.
STRONG_HEARTS = "2h 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah X 3s 4s 5s 6s 7s 8s 3c 4c 5c 6c " \
                "7c 8c 3d 4d 5d 6d"


def planning(state: ZhaoPengyou) -> str:
    seat = state.to_act
    assert seat is not None
    return make("planning", "zhaopengyou", seat).act(state.observe(seat))


def first_hand(spec: dict[int, str], first: int, **options: Any) -> ZhaoPengyou:
    state = new_game("zhaopengyou", seed=0,
                     options={"deal": make_deal(spec), "first": first, **options})
    assert isinstance(state, ZhaoPengyou)
    return state


def test_a_strong_suit_is_declared_with_every_copy() -> None:
    state = first_hand({0: STRONG_HEARTS}, first=0)
    assert planning(state) == "declare 2h 2h"


def test_a_weak_hand_passes_in_the_first_hand() -> None:
    state = first_hand({1: WEAK}, first=1)
    assert suit_strength(cards_of(WEAK), parse_card("2d") // 4, 3) < 11
    assert planning(state) == "pass"


def test_a_known_dealer_names_trump_even_when_weak() -> None:
    state = first_hand({1: WEAK}, first=1, dealer=1)
    assert planning(state) == "declare 2d"


def test_overcall_only_with_a_clearly_better_suit() -> None:
    state = first_hand({0: WEAK, 1: STRONG_HEARTS}, first=0)
    state.apply("declare 2d")
    assert planning(state) == "declare 2h 2h"  # hearts is far stronger for seat 1
    long_hearts = "3h 4h 5h 6h 7h 8h 9h Th Jh 3d 4d 2d 2d 3s 4s 5s 6s 7s 8s 9s " \
                  "3c 4c 5c 6c 7c 8c 9c Ts Tc Js Jc"
    state = first_hand({0: STRONG_HEARTS, 1: long_hearts}, first=0)
    state.apply("declare 2h")
    assert planning(state) == "pass"  # its diamonds are weaker than the standing hearts


def dealer_to_bury(hand: str, declare: str = "declare 2h 2h", **options: Any) -> ZhaoPengyou:
    """Seat 0 deals with ``hand``, names trump, the others pass: his burial is next."""
    state = first_hand({0: hand}, first=0, dealer=0, **options)
    state.apply(declare)
    while state.phase == "declare":
        state.apply("pass")
    assert state.phase == "bury"
    return state


def test_burial_empties_a_short_plain_suit_and_keeps_points_and_trumps() -> None:
    hand = "2h 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah X 3s 4s 6s 7s 8s Ks 3c 4c 6c " \
           "As As Qd Qd Kd Td 5d"
    state = dealer_to_bury(hand)
    answer = planning(state)
    buried = cards_of(answer.split(None, 1)[1])
    assert len(buried) == 7
    assert state.ctx is not None and not any(state.ctx.is_trump(c) for c in buried)
    assert not any(POINTS[c] for c in buried)
    assert {c for c in buried if c % 4 == 2} == set(cards_of("3c 4c 6c"))  # clubs emptied
    assert parse_card("As") not in buried  # an ace is kept
    state.apply(answer)  # a burial the game accepts
    assert state.phase == "friend"


def side_ace_lacked(state: ZhaoPengyou, call: str, top: str = "A") -> None:
    """The call names the first copy of a side suit's top card the dealer does not hold."""
    words = call.split()
    assert words[:2] == ["call-friend", "1"], call
    face = parse_card(words[2])
    assert state.ctx is not None and not state.ctx.is_trump(face)
    assert words[2][0] == top and face not in state.hands[0]
    ctx = state.ctx
    lacking = [g for g in range(4) if g != ctx.suit
               and all(c // 4 != face // 4 or c % 4 != g for c in state.hands[0])]
    length = {g: sum(1 for c in state.hands[0] if ctx.group[c] == g) for g in lacking}
    assert length[face % 4] == min(length.values()), (call, length)  # the shortest such suit


def test_friend_call_names_an_ace_of_the_shortest_suit_the_dealer_lacks() -> None:
    state = dealer_to_bury(STRONG_HEARTS)
    state.apply(planning(state))
    call = planning(state)
    side_ace_lacked(state, call)
    state = dealer_to_bury(STRONG_HEARTS.replace("6d", "Ad"))
    state.apply(planning(state))
    call = planning(state)
    side_ace_lacked(state, call)
    assert call != "call-friend 1 Ad"  # the dealer holds ♦A


def test_at_level_ace_the_top_side_card_is_the_king() -> None:
    hand = "Ah Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh X 3s 4s 5s 6s 7s 8s 3c 4c 5c 6c 7c 8c " \
           "3d 4d 5d 6d"
    state = dealer_to_bury(hand, "declare Ah Ah", levels=["A", "2", "2", "2", "2"])
    state.apply(planning(state))
    side_ace_lacked(state, planning(state), top="K")


def test_the_dealer_does_not_call_himself_by_playing_the_called_copy() -> None:
    state = dealer_to_bury(STRONG_HEARTS.replace("6d", "Ad"))
    state.apply(planning(state))
    state.apply("call-friend 1 Ad")  # a call of a copy he holds
    for _ in range(3):  # however he leads, he keeps ♦A back
        answer = planning(state)
        assert "Ad" not in answer.split()
        state.apply(answer)
        while state.to_act != 0 and not state.over:
            state.apply(planning(state))


# -- play, in games the planning bot plays at every seat ------------------------------------


def positions(games: int) -> Iterator[tuple[dict[str, Any], str]]:
    """Every play decision of ``games`` seeded all-planning hands: (observation, answer)."""
    for seed in range(games):
        state = new_game("zhaopengyou", seed=seed)
        team = [make("planning", "zhaopengyou", s, seed) for s in range(5)]
        while not state.over:
            seat = state.to_act
            assert seat is not None
            obs = state.observe(seat)
            answer = team[seat].act(obs)
            assert state.check(answer) is None and state.parse_action(answer).text == answer
            if obs["phase"] == "play":
                yield obs, answer
            state.apply(answer)


@pytest.fixture(scope="module")
def played() -> list[tuple[dict[str, Any], str]]:
    return list(positions(6))


def last_with_known_teams(obs: dict[str, Any]) -> bool:
    trick = obs["table"]
    return obs["detail"]["friend"] is not None and trick is not None \
        and len(trick["plays"]) == 4


def follows(obs: dict[str, Any]) -> list[tuple[tuple[int, ...], bool, int]]:
    """Each legal follow: (cards, overtakes the trick's winner, points)."""
    view = read(obs)
    assert view.lead is not None and view.best_rank is not None
    out = []
    for text in obs["legal"]:
        cards = cards_of(text[5:])
        rank = play_rank(cards, view.lead, view.ctx)
        out.append((cards, rank is not None and rank > view.best_rank,
                    sum(POINTS[c] for c in cards)))
    return out


def test_feeds_a_partner_who_holds_the_trick(played: list[tuple[dict[str, Any], str]]) -> None:
    checked = 0
    for obs, answer in played:
        if not last_with_known_teams(obs):
            continue
        view = read(obs)
        assert view.best_seat is not None
        if view.same(view.seat, view.best_seat) < 1:
            continue
        options = follows(obs)
        mine = next(o for o in options if o[0] == cards_of(answer[5:]))
        assert mine[2] == max(o[2] for o in options), (answer, obs["table"])
        if mine[1]:  # taking over from a partner only to give him more points
            assert all(o[2] < mine[2] for o in options if not o[1]), (answer, obs["table"])
        checked += 1
    assert checked >= 20


def test_takes_points_from_an_opponent_or_gives_the_fewest(
        played: list[tuple[dict[str, Any], str]]) -> None:
    taken = ducked = 0
    for obs, answer in played:
        if not last_with_known_teams(obs):
            continue
        view = read(obs)
        assert view.best_seat is not None
        if view.same(view.seat, view.best_seat) > 0:
            continue
        options = follows(obs)
        mine = next(o for o in options if o[0] == cards_of(answer[5:]))
        on_table = sum(POINTS[c] for play in obs["table"]["plays"] for c in cards_of(play["cards"]))
        if any(o[1] for o in options):
            if on_table >= 10:
                assert mine[1], f"let an opponent keep {on_table}: {answer} in {obs['table']}"
                taken += 1
        else:
            assert mine[2] == min(o[2] for o in options), (answer, obs["table"])
            ducked += 1
    assert taken >= 2 and ducked >= 20


def test_a_holder_of_the_called_copy_becomes_the_friend() -> None:
    """Every hand of these seeds finds its friend, and before the dealer's side is lost."""
    for seed in range(6):
        state = new_game("zhaopengyou", seed=seed)
        team = [make("planning", "zhaopengyou", s, seed) for s in range(5)]
        while not state.over:
            seat = state.to_act
            assert seat is not None
            state.apply(team[seat].act(state.observe(seat)))
        result = state.result()
        assert result is not None
        words = result["detail"]
        assert words["friend"] is not None and words["friend"] != words["dealer"]


def test_the_view_is_true_to_the_hidden_cards() -> None:
    """What a seat infers matches the cards it cannot see: the unseen copies are exactly the
    other hands (and the kitty unless it buried it), a seat shown void holds none of that
    group, and a friend hypothesis never names a seat that cannot be the friend."""
    for seed in range(3):
        state = new_game("zhaopengyou", seed=seed)
        assert isinstance(state, ZhaoPengyou)
        team = [make("planning", "zhaopengyou", s, seed) for s in range(5)]
        while not state.over:
            seat = state.to_act
            assert seat is not None
            obs = state.observe(seat)
            if obs["phase"] == "play":
                view = read(obs)
                hidden = [c for s in range(5) if s != seat for c in state.hands[s]]
                if seat != state.dealer:
                    hidden += state.kitty
                assert view.unseen == [hidden.count(c) for c in range(54)]
                for s in range(5):
                    for group in range(5):
                        if view.voids[s][group]:
                            assert not any(view.ctx.group[c] == group for c in state.hands[s])
                assert abs(sum(w for _, w in view.hypotheses) - 1) < 1e-9
                if state.friend is not None:
                    assert view.hypotheses == [(state.friend, 1.0)]
                else:
                    assert all(f != state.dealer for f, _ in view.hypotheses)
            state.apply(team[seat].act(obs))
