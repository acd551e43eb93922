"""找朋友 (``zhaopengyou``): five players, three packs, tricks, a called friend and levels.

Rules (docs/rules/zhaopengyou.md; numbers are its rulings):

- Three packs, 162 cards: 31 to each seat, 7 to the kitty (底牌). Point cards:
  every 5 is 5, every 10 and K is 10 (300 in all). Seat ``i`` plays after
  ``i − 1``; its 下家 is ``i + 1`` (Ruling 14).
- Level rank ℓ = the dealer's level; a match's first hand, which has no dealer
  yet, plays ℓ = 2. Trumps: BJ > SJ > T-ℓ > ℓ of the other suits (equal) >
  T-A … T-2; side suits A … 2 without ℓ (``rules/trick.py``: order, units,
  tractors across the removed ℓ and up the trump top, throws, the winner).
- Trump declaration (翻主, Rulings 4, 5). **House model of the deal window**
  (docs/rulings.md): all 31 cards are dealt first; then the seats are asked in
  turn, from the dealer (first hand: a seat drawn from the seed, or option
  ``first``), to ``declare`` 1, 2 or 3 identical ℓ cards of one suit or
  ``pass``. A declaration must show more cards than the standing one (1 → 2 →
  3; a player may reinforce his own). The window closes after five passes in a
  row — everyone, the last declarer included, has answered the last
  declaration — or at once after a three-card declaration, which nothing can
  overcall. Its suit is trump. Nobody declared: redeal, same dealer. In the
  first hand the last declarer becomes dealer. One seat answers at a time: the
  rules' race to flip cards during the deal is not a window of simultaneous
  answers, and asking in turn is its replayable model.
- Kitty (扣底, Ruling 13): the dealer takes the 7 kitty cards (shown to him
  alone) and buries any 7 cards, trumps and points allowed: ``bury`` + 7 cards.
- Friend call (叫朋友, Ruling 10): ``call-friend N CARD``, N 1–3, any of the 54
  faces. Copies of that face are counted in play order, all copies of one play
  at once; whoever plays the N-th copy is the friend, revealed then — the
  dealer himself included (1 against 4). Never played (buried, or not enough
  copies played): the dealer is alone, known at the end.
- Play: the dealer leads the first trick, the winner of a trick the next; every
  player plays to every trick (no passing). Leads, follows, trumping, throws
  and failed throws (Ruling 9) as §4 and ``rules/trick_follow.py``. The hand
  ends when the hands are empty (31 tricks of singles, fewer with pairs).
- Leaving (platform §5, ``autoplay``): the seat goes on 托管 and the hand goes
  on; ``leave forced`` also costs −40 (``penalties``). A hand that ends with all
  five seats on 托管 is not scored (its levels do not move either).
- Settlement, levels, next dealer and the zero-sum scores: ``zhaopengyou_match``.

Actions (canonical text; cards in ``cards.format_cards`` order):
``pass``, ``declare 2s 2s``, ``bury 3s 4h …`` (7 cards), ``call-friend 2 Ad``,
``play Ts Ts Js Js``.

What ``legal_actions()`` lists: every declaration and pass; all 162 friend
calls; every single, pair and tractor to lead, and per suit the largest throw
its leader can *see* will hold (judged from his own hand, the played cards and,
for the dealer, the kitty — the other hands would leak); every legal follow up
to ``trick_follow.FOLLOW_LIMIT`` of them, else the cheapest and a seeded sample
no longer than a view lists as text (the view then says ``legal_complete:
false``; a long complete list goes out as a ``plays`` index). The burial space (C(38, 7) ≈
12.6 million) gets a representative few: the platform's default burial
(platform §4), the kitty as taken, the 7 lowest cards, and the shortest side
suits first, and the dealer's view says ``legal_complete: false`` with
``detail.bury`` (7): any 7 cards of his hand. ``check`` judges ANY action
exactly: any burial of 7 held cards, any lead of held cards of one group (a
throw that will fail is legal: applying it plays the forced unit), any follow
by §4.

Options: ``levels`` (each seat's level, default all 2), ``dealer`` (None: a
match's first hand), ``first`` (who opens the first hand's window; None: drawn
from the seed) and, for scripted tests and puzzles, ``deal`` (``{"hands": [5
texts], "kitty": text}``, every card suited).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from cardhall.cards import RANK_CHARS, SUIT_CHARS, Card, format_card, format_cards
from cardhall.games.base import LEGAL_TEXT_BUDGET, Action, Event, IllegalAction, Observation
from cardhall.games.errors import Illegal, NotInWindow, clip
from cardhall.games.rng import Rng
from cardhall.games.view import multiplier, plays_index
from cardhall.games.zhaopengyou_match import PLAYERS, options, settle, unscored
from cardhall.games.zhaopengyou_setup import (
    FRIEND_CALLS,
    KITTY,
    PACKS,
    Cards,
    Phase,
    ZhaoPengyouSetup,
    _cards,
    _text,
)
from cardhall.rules.trick import (
    LEVEL_CHARS,
    Trumps,
    failed_throw,
    group_name,
    lead_of,
    play_rank,
    points,
    safe_throws,
)
from cardhall.rules.trick_follow import follow_refusal, follows_within, leads


class ZhaoPengyou(ZhaoPengyouSetup):
    """One hand of 找朋友 (a match is ``zhaopengyou_match.Match``)."""

    # -- play ------------------------------------------------------------------------------

    def _unseen(self, seat: int) -> list[Card]:
        """Cards ``seat`` has not seen: the other hands, and the kitty unless he buried it."""
        gone = Counter(self.hands[seat])
        gone.update(self.played)
        if seat == self.dealer:
            gone.update(self.kitty)
        return [c for c in range(54) for _ in range(PACKS - gone[c])]

    def _play_actions(self, seat: int) -> list[Action]:
        ctx = self.ctx
        assert ctx is not None
        hand = self.hands[seat]
        if self.lead is None:
            plays = leads(hand, ctx) + safe_throws(hand, self._unseen(seat), ctx)
            # ``check`` takes any cards of one group (a throw that fails is legal): the
            # list holds them all only when it is as long as their number.
            self._complete = len(plays) == _lead_count(hand, ctx)
        else:
            seed = self.seed * 1_000_003 + self.moves
            # A sample is only a sample: keep it to what a view lists as text (a sample
            # does not share the structure that makes a complete list's index small).
            fit = LEGAL_TEXT_BUDGET // (len("play ") + 3 * self.lead.size + 3)
            plays, self._complete = follows_within(self.lead, hand, ctx, fit,
                                                   lambda: Rng(seed))
        return [Action("play", _text(p)) for p in plays]

    def _check_play(self, seat: int, cards: Cards) -> IllegalAction | None:
        ctx = self.ctx
        assert ctx is not None
        missing = self._missing(seat, cards)
        if missing:
            return missing
        if self.lead is None:
            if ctx.group_of(cards) is None:
                return Illegal("lead_mixes_suits", f"{format_cards(cards)} mixes suits: a lead "
                               "is cards of one suit or all trumps", cards=format_cards(cards))
            return None
        refusal = follow_refusal(self.lead, self.hands[seat], cards, ctx)
        if refusal is None:
            return None
        return Illegal(refusal.reason, refusal.text, **refusal.params)

    def _apply_play(self, seat: int, cards: Cards) -> list[Event]:
        ctx = self.ctx
        assert ctx is not None
        events: list[Event] = []
        if self.lead is None:
            lead = lead_of(cards, ctx)
            others = [h for s, h in enumerate(self.hands) if s != seat]
            forced = failed_throw(lead, others, ctx)
            if forced is not None:
                events += [{"type": "throw-failed", "seat": seat, "cards": forced.text},
                           {"type": "throw-tried", "to": [seat], "cards": format_cards(cards)}]
                cards = forced.cards
                lead = lead_of(cards, ctx)
            self.lead = lead
            self.winning, self.best = 0, play_rank(cards, lead, ctx) or (0, 0)
        else:
            rank = play_rank(cards, self.lead, ctx)
            if rank is not None and rank > self.best:
                self.winning, self.best = len(self.trick), rank
        left = Counter(self.hands[seat])
        left.subtract(cards)
        self._set_hand(seat, list(left.elements()))
        self.played.extend(cards)
        self.played_by[seat].extend(cards)
        self.trick.append((seat, cards))
        self.last[seat] = f"play {_text(cards)}"
        events.append({"type": "play", "seat": seat, "cards": _text(cards)})
        events.extend(self._count_copies(seat, cards))
        if len(self.trick) == PLAYERS:
            events.extend(self._end_trick())
        else:
            self.to_act = (seat + 1) % PLAYERS
        return events

    def _count_copies(self, seat: int, cards: Cards) -> list[Event]:
        """Ruling 10: the N-th copy of the called face makes its player the friend."""
        assert self.friend_call is not None
        n, face = self.friend_call
        k = cards.count(face)
        if not k:
            return []
        before, self.copies = self.copies, self.copies + k
        if self.friend is None and before < n <= self.copies:
            self.friend = seat
            return [{"type": "friend", "seat": seat, "card": format_card(face), "n": n}]
        return []

    def _end_trick(self) -> list[Event]:
        winner = self.trick[self.winning][0]  # trick.trick_winner, kept play by play
        gained = points(c for _, cards in self.trick for c in cards)
        self.won[winner] += gained
        self.history.append((self.trick[0][0], winner, gained, self.trick))
        self.trick, self.lead = [], None
        events: list[Event] = [{"type": "trick", "number": len(self.history),
                                "winner": winner, "points": gained}]
        if self.hands[winner]:
            self.to_act = winner
            return events
        self.phase = Phase.OVER
        self.to_act = None
        self._result = self._settle()
        return [*events, {"type": "over", "result": self._result}]

    def _settle(self) -> dict[str, Any]:
        assert self.dealer is not None and self.history and self.friend_call is not None
        n, face = self.friend_call
        _, last_winner, _, last_trick = self.history[-1]
        last_play = next(cards for seat, cards in last_trick if seat == last_winner)
        detail = settle(dealer=self.dealer, friend=self.friend, levels=self.levels,
                        won=self.won, kitty=self.kitty, last_winner=last_winner,
                        last_play=last_play, call=f"{n} {format_card(face)}")
        scores, causes = detail.pop("scores"), detail.pop("multiplier")
        side = [s for s, role in enumerate(detail["roles"]) if role != "attacker"]
        attackers = detail["attackers"]
        if self.all_auto():
            detail = unscored(detail)
        return self.outcome(ended="finished", winners=side if detail["holds"] else attackers,
                            points=scores, multiplier=dict(multiplier({"stake": causes["stake"]})),
                            detail=detail)

    # -- the contract ----------------------------------------------------------------------

    def _legal_actions(self) -> list[Action]:
        if self._legal is None:
            seat = self.to_act
            assert seat is not None
            self._complete = True
            if self.phase == Phase.DECLARE:
                legal = self._declare_actions(seat)
            elif self.phase == Phase.BURY:
                # Four suggestions of C(38, 7) burials, any of which ``check`` takes:
                # the view says the list is not complete (``detail.bury``: how many).
                legal = self._bury_actions(seat)
                self._complete = False
            elif self.phase == Phase.FRIEND:
                legal = list(FRIEND_CALLS)
            else:
                legal = self._play_actions(seat)
            self._legal = legal
            self._index = {a.text: a for a in legal}
        return list(self._legal)

    def _known(self, text: str) -> Action | None:
        if self.over or self.to_act is None:
            return None
        self._legal_actions()
        return self._index.get(text)

    def _is_listed(self, action: Action) -> bool:
        return self._legal is not None and self._index.get(action.text) is action

    def _changed(self) -> None:
        self._legal = None
        self._index = {}

    def _check(self, action: Action) -> IllegalAction | None:
        if self._legal is not None and self._index.get(action.text) is action:
            return None
        seat = self.to_act
        assert seat is not None
        if self.phase != Phase.PLAY:
            return self._setup_check(seat, action)
        if action.verb == "pass":
            return Illegal("no_pass", "nobody passes in 找朋友: play to the trick")
        if action.verb != "play":
            # (the wire said not_your_turn for this until refusals were typed, as its
            # text holds "turn"; it is the player's turn: an action of another step)
            return NotInWindow("wrong_step", f"{action.text[:40]!r} is not a play: it is "
                               "your turn to play cards", phase=str(self.phase),
                               text=clip(action.text), allowed=["play CARDS"])
        return self._check_play(seat, _cards(action.arg))

    def _apply(self, action: Action) -> list[Event]:
        seat = self.to_act
        assert seat is not None
        self.moves += 1
        if self.phase == Phase.PLAY:
            return self._apply_play(seat, _cards(action.arg))
        shown = "bury" if action.verb == "bury" else action.text
        events = self._setup_apply(seat, action)
        if events and events[-1]["type"] != "declare-window":  # a redeal clears the bubbles
            self.last[seat] = shown
        return events

    def result(self) -> dict[str, Any] | None:
        return self._result

    def zones(self) -> dict[str, list[Card]]:
        """Hands, the kitty (dealt, then buried) and every card played: the whole deck."""
        out = {f"hand{seat}": list(hand) for seat, hand in enumerate(self.hands)}
        out.update(kitty=list(self.kitty), played=list(self.played))
        return out

    # -- views -----------------------------------------------------------------------------

    def observe(self, seat: int) -> Observation:
        """base's view; a follow list cut to the cheapest and a sample is not complete."""
        view = super().observe(seat)
        if view["legal"] and not self._complete:
            view["legal_complete"] = False
        return view

    def _plays_index(self, seat: int, actions: list[Action]) -> dict[str, Any] | None:
        """A long complete follow list as a ``Plays`` index over the hand's faces.

        A complete list shares structure (the cards a follow must hold, then any
        few of the rest), so its index is a fraction of its text; where it is not,
        the text is kept (None).
        """
        faces = sorted(set(self.hands[seat]))
        position = {c: i for i, c in enumerate(faces)}
        selections = []
        for a in actions:
            vec = [0] * len(faces)
            for c in _cards(a.arg):
                vec[position[c]] += 1
            selections.append(tuple(vec))
        counts = self.counts[seat]
        index = dict(plays_index([format_card(c) for c in faces], selections,
                                 [counts[c] for c in faces]))
        text = sum(len(a.text) + 3 for a in actions)
        return index if len(json.dumps(index)) < text else None

    def _friend_known(self) -> bool:
        return self.friend is not None or self.over

    def _view_hand(self, seat: int) -> list[str]:
        return [format_card(c) for c in self.hands[seat]]

    def _view_counts(self) -> list[int]:
        return [len(h) for h in self.hands]

    def _view_roles(self, seat: int) -> list[str | None]:
        """The dealer once fixed; friend and attackers once the friend is known (else None)."""
        dealer = self.dealer
        # A later hand of a match knows its dealer from the start; a first hand's dealer
        # is the last declarer, known once the window closes.
        if dealer is None or (self.phase == Phase.DECLARE and self.options["dealer"] is None):
            return [None] * PLAYERS
        if not self._friend_known():
            return ["dealer" if s == dealer else None for s in range(PLAYERS)]
        return ["dealer" if s == dealer else "friend" if s == self.friend else "attacker"
                for s in range(PLAYERS)]

    def _view_table(self) -> dict[str, Any] | None:
        if not self.trick:
            return None
        assert self.lead is not None
        best = self.trick[self.winning]
        return {"seat": best[0], "cards": _text(best[1]), "kind": self.lead.shape.describe(),
                "leader": self.trick[0][0],
                "plays": [{"seat": s, "cards": _text(c)} for s, c in self.trick]}

    def _view_played(self) -> list[str]:
        return [format_cards(cards) for cards in self.played_by]

    def _view_last(self, seat: int) -> list[str | None]:
        last = list(self.last)
        if seat == self.dealer and last[seat] == "bury":
            last[seat] = f"bury {format_cards(self.kitty)}"  # he knows what he buried
        return last

    def _view_multiplier(self) -> dict[str, Any]:
        if self._result is not None:
            return dict(self._result["multiplier"])
        return dict(multiplier({}))

    def _detail(self, seat: int) -> dict[str, Any]:
        known = self._friend_known()
        side = {self.dealer, self.friend}
        dealer = self.dealer
        last = self.history[-1] if self.history else None
        detail: dict[str, Any] = {
            "levels": [LEVEL_CHARS[v] for v in self.levels],
            "level": RANK_CHARS[self.level],
            "trump": None if self.trump is None else SUIT_CHARS[self.trump],
            "first": self.first,
            "deals": self.deals,
            "declarations": [[s, format_cards(c)] for s, c in self.declarations],
            "dealer": dealer,
            "friend_call": None if self.friend_call is None else {
                "n": self.friend_call[0], "card": format_card(self.friend_call[1])},
            "copies_played": self.copies,
            "friend": self.friend,
            "trick_suit": None if self.lead is None else group_name(self.lead.group),
            "last_trick": None if last is None else {
                "leader": last[0], "winner": last[1], "points": last[2],
                "plays": [[s, _text(c)] for s, c in last[3]]},
            "tricks": [{"leader": leader, "winner": winner, "points": gained,
                        "plays": [[s, _text(c)] for s, c in plays]}
                       for leader, winner, gained, plays in self.history],
            "points": list(self.won),
            "attacker_points": (sum(p for s, p in enumerate(self.won) if s not in side)
                                if known else None),
        }
        if seat == dealer and self.phase != Phase.DECLARE:
            detail["kitty_taken"] = format_cards(self.taken)  # shown to him alone
        if seat == dealer and self.phase == Phase.BURY:
            detail["bury"] = KITTY  # any this many cards of his hand (legal lists a few)
        if self.over or (seat == dealer and self.phase in (Phase.FRIEND, Phase.PLAY)):
            detail["kitty"] = format_cards(self.kitty)
        return detail


def _lead_count(hand: Sequence[Card], ctx: Trumps) -> int:
    """How many leads ``check`` takes from ``hand``: the non-empty selections of each
    group's cards (a face held k times is chosen 0 … k times)."""
    ways: dict[int, int] = {}
    for c, k in Counter(hand).items():
        g = ctx.group[c]
        ways[g] = ways.get(g, 1) * (k + 1)
    return sum(w - 1 for w in ways.values())


__all__ = ["FRIEND_CALLS", "KITTY", "Phase", "ZhaoPengyou", "options"]
