"""托管 for 保皇: platform.md §4's default answers and play policy, from the observation only.

Set-up (the non-committal answer, platform Ruling 4):

- emperor card: ``cede`` while ceding is allowed, else ``accept``;
- classic guard call: the first callable card (≥ 3 identical copies) in rank
  order, then suit order ``s h c d``; none callable: ``redeal`` where Ruling 5
  allows it, else ``solo``, the only answer left;
- simple mode, the emperor holding the guard card: ``hidden-solo`` (no
  declaration; the open solo would double the stake), else ``no-solo``;
- 抢独, 造反: ``no``; guard disclosure: ``hidden``.

Play: a follower passes. A leader plays his smallest single; with 憋6 a 6 may
not go early (Ruling 17), so that is the lowest non-6 single, and once only 6s
and jokers remain he plays them all at once, the jokers hung on the 6s (the
only legal way for the 6s to go).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardhall.bots.view import ranks_of
from cardhall.cards import RANK_CHARS, SIX, SMALL_JOKER, parse_card, parse_ranks

#: Set-up answers in order of preference; a call is chosen before all of them.
DEFAULTS = ("cede", "accept", "redeal", "hidden-solo", "no-solo", "no", "hidden", "solo")


def choose(observation: dict[str, Any], legal: Sequence[str]) -> str:
    """The 托管 action for one 保皇 seat."""
    plays = [a for a in legal if a.startswith("play ")]
    if "pass" in legal:
        return "pass"
    if plays:
        return lead(observation, plays)
    calls = [a for a in legal if a.startswith("call ")]
    if calls:
        return min(calls, key=lambda a: parse_card(a.split(None, 1)[1]))
    for answer in DEFAULTS:
        if answer in legal:
            return answer
    return legal[0]


def lead(observation: dict[str, Any], plays: Sequence[str]) -> str:
    """The smallest single, or with 憋6 every remaining 6 (and joker) at once."""
    hand = sorted(ranks_of(observation.get("hand")))
    bie6 = bool((observation.get("options") or {}).get("bie6"))
    if bie6 and SIX in hand and all(r == SIX or r >= SMALL_JOKER for r in hand):
        for play in plays:
            if sorted(parse_ranks(_cards(play))) == hand:
                return play
    singles = [p for p in plays if len(_cards(p)) == 1]
    return min(singles or plays, key=lambda p: RANK_CHARS.index(_cards(p)[0]))


def _cards(play: str) -> str:
    return play.split(None, 1)[1].replace("+", "")
