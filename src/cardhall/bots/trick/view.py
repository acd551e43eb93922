"""What one 找朋友 seat knows, read from its view alone: cards out, voids, likely teams.

The planning bot for 找朋友 (``plan``) judges plays by who will win the
trick and whose side that is. Both are uncertain until the friend shows
himself, so the view keeps

- the cards it has not seen (``unseen``, per face): the other hands, and the
  kitty unless this seat is the dealer who buried it;
- the groups (side suits, trumps) each seat is known to be void in: a
  follower who answered a lead with cards of another group had none left;
- the *friend hypotheses*: who might be the friend, with weights. Once the
  friend is revealed there is one. Before that, the dealer weighs every other
  seat that could still hold the called card (a seat void in its group
  cannot), with a small weight on nobody (the copy buried or never played); a
  seat that can make itself the friend by playing the called copy intends to
  (``intends_friend``), so it sits with the dealer; any other non-dealer weighs
  the non-dealers but itself. ``same(a, b)`` is then the probability that
  seats ``a`` and ``b`` are on one side.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cardhall.bots.base import Observation
from cardhall.cards import RANK_CHARS, SUIT_CHARS, Card, parse_card
from cardhall.cards import parse_cards as _parse
from cardhall.games.zhaopengyou_match import PLAYERS
from cardhall.games.zhaopengyou_setup import PACKS
from cardhall.rules.trick import GROUPS, Lead, Trumps, lead_of, play_rank, trumps

Cards = tuple[Card, ...]
#: Weight of "nobody is the friend" among the dealer's hypotheses before the reveal.
NOBODY = 0.05


@lru_cache(maxsize=1 << 16)
def cards_of(text: str) -> Cards:
    return tuple(sorted(_parse(text)))


@dataclass
class TrickView:
    """A 找朋友 seat's knowledge at one decision (see the module docstring)."""

    seat: int
    ctx: Trumps
    hand: Cards
    dealer: int
    counts: list[int]
    #: Unseen copies of each of the 54 faces, and how many cards that is.
    unseen: list[int]
    unseen_total: int
    #: voids[seat][group]: known to hold no card of that group.
    voids: list[list[bool]]
    #: (friend seat or None, weight): who may be the friend, weights summing to 1.
    hypotheses: list[tuple[int | None, float]]
    call: tuple[int, Card] | None
    copies: int
    friend: int | None
    #: The trick so far: plays in order, the lead, and the winning play's seat and rank.
    plays: list[tuple[int, Cards]]
    lead: Lead | None
    best_seat: int | None
    best_rank: tuple[int, int] | None

    def same(self, a: int, b: int) -> float:
        """Probability that seats ``a`` and ``b`` are on one side."""
        if a == b:
            return 1.0
        total = 0.0
        for friend, weight in self.hypotheses:
            side = {self.dealer, friend}
            if (a in side) == (b in side):
                total += weight
        return total

    def sign(self, s: int) -> float:
        """+1 for this seat's side, −1 for the other, in between while unsure."""
        return 2.0 * self.same(self.seat, s) - 1.0

    def intends_friend(self) -> bool:
        return self.friend is None and _can_become_friend(self)

    def after_me(self) -> list[int]:
        """Seats still to play to the current trick after this one."""
        left = PLAYERS - len(self.plays) - 1
        return [(self.seat + i) % PLAYERS for i in range(1, left + 1)]


def _can_become_friend(view: TrickView) -> bool:
    if view.call is None or view.seat == view.dealer:
        return False
    n, face = view.call
    held = view.hand.count(face)
    return held > 0 and view.copies < n <= view.copies + held


def context(obs: Observation) -> Trumps:
    words = obs["detail"]
    return trumps(RANK_CHARS.index(words["level"]), SUIT_CHARS.index(words["trump"]))


def hand_of(obs: Observation) -> Cards:
    """The seat's own cards (the view lists them as suited card text)."""
    return cards_of("".join(obs["hand"]))


def _plays(trick: Mapping[str, Any]) -> list[tuple[int, Cards]]:
    """A trick's plays in order, as (seat, cards): ``{seat, cards}`` entries or pairs."""
    out = []
    for entry in trick.get("plays") or ():
        if isinstance(entry, Mapping):
            out.append((int(entry["seat"]), cards_of(entry["cards"])))
        else:
            out.append((int(entry[0]), cards_of(entry[1])))
    return out


def read(obs: Observation) -> TrickView:
    """The view of a seat in the play phase (trump known, friend called).

    Cards out come from the view's ``played`` (every seat's cards played,
    suited); voids from the completed tricks (``detail["tricks"]``: each
    ``{leader, winner, plays: [[seat, cards], ...]}``) and the trick on the
    table (``table["plays"]``).
    """
    ctx = context(obs)
    words = obs["detail"]
    seat = int(obs["seat"])
    hand = hand_of(obs)
    dealer = int(words["dealer"])
    unseen = [PACKS] * 54
    for c in hand:
        unseen[c] -= 1
    kitty = cards_of(words["kitty"]) if seat == dealer and words.get("kitty") else None
    for c in kitty or ():
        unseen[c] -= 1
    for cards in obs.get("played") or ():
        for c in cards_of(cards):
            unseen[c] -= 1
    voids = [[False] * GROUPS for _ in range(PLAYERS)]
    table = obs.get("table")
    current = _plays(table) if table else []
    for plays in [*(_plays(t) for t in words.get("tricks") or ()), current]:
        if not plays:
            continue
        group = ctx.group[plays[0][1][0]]
        for s, cards in plays[1:]:
            if any(ctx.group[c] != group for c in cards):
                voids[s][group] = True
    call_obj = words.get("friend_call")
    call = None if call_obj is None else (int(call_obj["n"]), parse_card(call_obj["card"]))
    lead = lead_of(current[0][1], ctx) if current else None
    best_seat: int | None = None
    best_rank: tuple[int, int] | None = None
    if lead is not None:
        for s, cards in current:
            rank = play_rank(cards, lead, ctx)
            if rank is not None and (best_rank is None or rank > best_rank):
                best_seat, best_rank = s, rank
    counts = [int(n) for n in obs["counts"]]
    view = TrickView(
        seat=seat, ctx=ctx, hand=hand, dealer=dealer, counts=counts,
        unseen=unseen, unseen_total=sum(unseen), voids=voids, hypotheses=[],
        call=call, copies=int(words.get("copies_played") or 0), friend=words.get("friend"),
        plays=current, lead=lead, best_seat=best_seat, best_rank=best_rank)
    view.hypotheses = _hypotheses(view)
    return view


def _hypotheses(view: TrickView) -> list[tuple[int | None, float]]:
    if view.friend is not None:
        return [(view.friend, 1.0)]
    if _can_become_friend(view):
        return [(view.seat, 1.0)]
    others = [s for s in range(PLAYERS) if s not in (view.dealer, view.seat)]
    if view.call is not None:
        group = view.ctx.group[view.call[1]]
        holders = [s for s in others if not view.voids[s][group]]
        others = holders or others
    if view.seat == view.dealer:
        share = (1.0 - NOBODY) / len(others)
        return [(None, NOBODY), *((s, share) for s in others)]
    return [(s, 1.0 / len(others)) for s in others]


__all__ = ["TrickView", "cards_of", "context", "hand_of", "read"]
