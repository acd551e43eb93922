"""托管 for the trick-taking game 找朋友 (platform.md §4): play policy and set-up defaults.

Nobody may pass a trick, so the shedding games' "follower passes" cannot apply
(platform Ruling 5). The policy, from the seat's observation alone (its hand,
the level rank and trump suit, its legal actions):

- trump declaration → ``pass`` (the non-committal default, platform Ruling 4);
- burial → the 7 lowest non-trump, non-point cards, then the lowest others
  (``trick_follow.lowest_cards``: side point cards before any trump);
- friend call → the 1st of a side-suit A the dealer does not hold, suits in
  ♠♥♣♦ order (when A is the level rank every A is trump and K is the highest
  side card, so K stands in); failing that the highest face he does not hold;
- leader → the lowest side-suit non-point single, else the lowest single;
- follower → the legal follow with the fewest points, then the lowest cards
  (``trick_follow.cost``: plays compared by their highest card first). When a
  follower has too many follows to list, the game's list still holds this one.
"""

from __future__ import annotations

from functools import lru_cache

from cardhall.bots.base import Observation
from cardhall.cards import ACE, KING, RANK_CHARS, SUIT_CHARS, Card, card, format_card, format_cards
from cardhall.cards import parse_cards as _parse
from cardhall.rules.trick import POINTS, Trumps, trumps
from cardhall.rules.trick_follow import cost, lowest_cards

KITTY = 7


@lru_cache(maxsize=1 << 16)
def _cards(text: str) -> tuple[Card, ...]:
    return tuple(_parse(text))


def context(observation: Observation) -> Trumps:
    """The hand's trump context, as the view's ``detail`` shows it."""
    words = observation["detail"]
    return trumps(RANK_CHARS.index(words["level"]), SUIT_CHARS.index(words["trump"]))


def friend_call(hand: list[Card], ctx: Trumps) -> str:
    """The default friend call (platform §4), as the action's argument: ``"1 Ah"``."""
    top = KING if ctx.level == ACE else ACE
    for suit in range(4):
        face = card(top, suit)
        if suit != ctx.suit and face not in hand:
            return f"1 {format_card(face)}"
    for face in sorted(range(54), key=lambda c: (ctx.strength[c], c), reverse=True):
        if face not in hand:
            return f"1 {format_card(face)}"
    raise AssertionError("a hand of 31 cards cannot hold all 54 faces")


def choose(observation: Observation, legal: list[str]) -> str:
    """The 托管 answer for a 找朋友 seat."""
    phase = observation.get("phase")
    if phase == "declare" or "pass" in legal:
        return "pass"
    ctx = context(observation)
    hand = list(_parse("".join(observation["hand"])))
    if phase == "bury":
        return "bury " + format_cards(lowest_cards(hand, ctx, KITTY))
    if phase == "friend":
        return "call-friend " + friend_call(hand, ctx)
    plays = [_cards(a[5:]) for a in legal if a.startswith("play ")]
    if observation.get("table") is None:
        singles = [p[0] for p in plays if len(p) == 1]
        quiet = [c for c in singles if not ctx.is_trump(c) and POINTS[c] == 0]
        return "play " + format_card(min(quiet or singles, key=lambda c: (ctx.strength[c], c)))
    cheapest: tuple[Card, ...] = min(plays, key=lambda p: cost(p, ctx))
    return "play " + format_cards(cheapest)
