"""找朋友 (``zhaopengyou``): five players, three packs, tricks, a called friend and levels.

Rules (../shared/rules/zhao-pengyou.md; numbers are its rulings):

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
  first hand the last declarer becomes dealer.
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
- Settlement, levels, next dealer and the zero-sum scores: ``zhaopengyou_match``.

Actions (canonical text; cards in ``cards.format_cards`` order):
``pass``, ``declare 2s 2s``, ``bury 3s 4h …`` (7 cards), ``call-friend 2 Ad``,
``play Ts Ts Js Js``.

What ``legal_actions()`` lists: every declaration and pass; all 162 friend
calls; every single, pair and tractor to lead, and per suit the largest throw
its leader can *see* will hold (judged from his own hand, the played cards and,
for the dealer, the kitty — the other hands would leak); every legal follow up
to ``trick_follow.FOLLOW_LIMIT`` of them, else the cheapest and a seeded sample.
The burial space (C(38, 7) ≈ 12.6 million) gets a representative few: the
platform's default burial (platform §4), the kitty as taken, the 7 lowest
cards, and the shortest side suits first. ``check`` judges ANY action exactly:
any burial of 7 held cards, any lead of held cards of one group (a throw that
will fail is legal: applying it plays the forced unit), any follow by §4.

Options: ``levels`` (each seat's level, default all 2), ``dealer`` (None: a
match's first hand), ``first`` (who opens the first hand's window) and, for
scripted tests and puzzles, ``deal`` (``{"hands": [5 texts], "kitty": text}``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from enum import StrEnum
from functools import lru_cache
from typing import Any

from cardhall.cards import (
    RANK_CHARS,
    SMALL_JOKER_CARD,
    SUIT_CHARS,
    Card,
    CardError,
    card,
    card_rank,
    deck,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)
from cardhall.games.base import Action, Event, GameState, IllegalAction, Observation, Variant
from cardhall.games.zhaopengyou_match import PLAYERS, options, settle
from cardhall.rules.trick import (
    LEVEL_CHARS,
    Lead,
    Trumps,
    failed_throw,
    group_name,
    lead_of,
    level_rank,
    play_rank,
    points,
    safe_throws,
    trumps,
)
from cardhall.rules.trick_follow import follow_error, follows, leads, lowest_cards

HAND, KITTY, PACKS = 31, 7, 3
Cards = tuple[Card, ...]
PASS = Action("pass")
FRIEND_CALLS = tuple(Action("call-friend", f"{n} {format_card(c)}")
                     for n in (1, 2, 3) for c in range(54))


class Phase(StrEnum):
    DECLARE = "declare"
    BURY = "bury"
    FRIEND = "friend"
    PLAY = "play"
    OVER = "over"


@lru_cache(maxsize=1 << 16)
def _cards(text: str) -> Cards:
    return tuple(sorted(parse_cards(text)))


@lru_cache(maxsize=1 << 16)
def _text(cards: Cards) -> str:
    return format_cards(cards)


def _vector(cards: Sequence[Card]) -> tuple[int, ...]:
    counts = [0] * 54
    for c in cards:
        counts[c] += 1
    return tuple(counts)


class ZhaoPengyou(GameState):
    """One hand of 找朋友 (a match is ``zhaopengyou_match.Match``)."""

    def __init__(self, variant: Variant, seed: int, options: dict[str, Any]) -> None:
        super().__init__(variant, seed, options)
        self.levels = [LEVEL_CHARS.index(v) for v in options["levels"]]
        self.dealer: int | None = options["dealer"]
        if self.dealer is None and any(self.levels):
            raise IllegalAction("without a dealer this is a match's first hand, where every "
                                "level is 2: give the dealer too")
        self.level = level_rank(self.levels[self.dealer] if self.dealer is not None else 0)
        self.hands: list[list[Card]] = [[] for _ in range(PLAYERS)]
        self.counts: list[tuple[int, ...]] = [(0,) * 54] * PLAYERS
        self.kitty: list[Card] = []
        self.taken: list[Card] = []  # the kitty as the dealer took it
        self.played: list[Card] = []
        self.log: list[Event] = []
        self.deals = 0
        self.declarations: list[tuple[int, Cards]] = []
        self.passes = 0
        self.trump: int | None = None
        self.ctx: Trumps | None = None
        self.friend_call: tuple[int, Card] | None = None
        self.friend: int | None = None
        self.copies = 0  # copies of the called face played so far
        self.trick: list[tuple[int, Cards]] = []
        self.lead: Lead | None = None
        self.winning = 0  # index in ``trick`` of the play winning it so far
        self.best: tuple[int, int] = (0, 0)  # that play's rank (trick.play_rank)
        self.tricks = 0
        self.last_trick: list[tuple[int, Cards]] = []
        self.last_winner: int | None = None
        self.won = [0] * PLAYERS  # points in the tricks each seat won
        self._legal: list[Action] | None = None
        self._index: dict[str, Action] = {}
        self._result: dict[str, Any] | None = None
        self.log.extend(self._deal())
        given_first = options["first"]
        self.first = (self.dealer if self.dealer is not None else
                      given_first if given_first is not None else self.rng.randrange(PLAYERS))
        self.log.extend(self._open_window())

    # -- dealing and declaring -------------------------------------------------------------

    def _deal(self) -> list[Event]:
        self.deals += 1
        given = self.options.get("deal")
        if given is not None and self.deals == 1:
            hands, kitty = self._given_deal(given)
        else:
            cards = list(deck(PACKS))
            self.rng.shuffle(cards)
            hands = [cards[i * HAND:(i + 1) * HAND] for i in range(PLAYERS)]
            kitty = cards[PLAYERS * HAND:]
        for seat, hand in enumerate(hands):
            self._set_hand(seat, hand)
        self.kitty = sorted(kitty)
        self.played = []
        return [{"type": "deal", "deal": self.deals, "dealer": self.dealer,
                 "level": RANK_CHARS[self.level]}]

    def _given_deal(self, given: Any) -> tuple[list[list[Card]], list[Card]]:
        if not isinstance(given, dict) or not isinstance(given.get("hands"), list):
            raise IllegalAction('option deal must be {"hands": [5 card texts], "kitty": text}')
        texts = [*given["hands"], given.get("kitty", "")]
        if len(texts) != PLAYERS + 1 or not all(isinstance(t, str) for t in texts):
            raise IllegalAction(f"option deal needs {PLAYERS} hands and a kitty as card text")
        try:
            parts = [list(_cards(t)) for t in texts]
        except CardError as exc:
            raise IllegalAction(f"option deal: {exc}") from None
        if [len(p) for p in parts] != [HAND] * PLAYERS + [KITTY] or \
                Counter(c for p in parts for c in p) != Counter(deck(PACKS)):
            raise IllegalAction(f"option deal must give {PLAYERS} hands of {HAND} and a kitty of "
                                f"{KITTY}: the whole three-pack deck")
        return parts[:PLAYERS], parts[PLAYERS]

    @staticmethod
    def _count(cards: Sequence[Card]) -> tuple[int, ...]:
        """How many of each of the 54 faces ``cards`` holds."""
        return _vector(cards)

    def _set_hand(self, seat: int, cards: Sequence[Card]) -> None:
        self.hands[seat] = sorted(cards)
        self.counts[seat] = _vector(cards)

    def _open_window(self) -> list[Event]:
        self.phase = Phase.DECLARE
        self.to_act = self.first
        self.passes = 0
        self.declarations = []
        return [{"type": "declare-window", "first": self.first}]

    def _standing(self) -> int:
        return len(self.declarations[-1][1]) if self.declarations else 0

    def _declare_actions(self, seat: int) -> list[Action]:
        standing = self._standing()
        out = [PASS]
        for suit in range(4):
            face = card(self.level, suit)
            held = self.counts[seat][face]
            out.extend(Action("declare", format_cards([face] * k))
                       for k in range(standing + 1, min(held, 3) + 1))
        return out

    def _check_declare(self, seat: int, cards: Cards) -> str | None:
        name = RANK_CHARS[self.level]
        if len(set(cards)) != 1 or len(cards) > 3 or cards[0] >= SMALL_JOKER_CARD:
            return f"declare 1, 2 or 3 identical level cards, e.g. 'declare {name}s {name}s'"
        if card_rank(cards[0]) != self.level:
            return f"the level rank is {name}: declare with {name}s of one suit"
        held = self.counts[seat][cards[0]]
        if held < len(cards):
            return f"you hold {held} {format_card(cards[0])}, not {len(cards)}"
        standing = self._standing()
        if len(cards) <= standing:
            return f"a new declaration must show more than {standing} identical level cards"
        return None

    def _apply_declare(self, seat: int, action: Action) -> list[Event]:
        if action.verb == "pass":
            self.passes += 1
            events: list[Event] = [{"type": "pass", "seat": seat}]
            if self.passes >= PLAYERS:
                return events + self._close_window()
        else:
            cards = _cards(action.arg)
            self.declarations.append((seat, cards))
            self.passes = 0
            events = [{"type": "declare", "seat": seat, "cards": action.arg}]
            if len(cards) == 3:
                return events + self._close_window()
        self.to_act = (seat + 1) % PLAYERS
        return events

    def _close_window(self) -> list[Event]:
        if not self.declarations:
            return [{"type": "redeal"}, *self._deal(), *self._open_window()]
        declarer, cards = self.declarations[-1]
        self.trump = cards[0] % 4
        self.ctx = trumps(self.level, self.trump)
        if self.dealer is None:
            self.dealer = declarer
        dealer = self.dealer
        events: list[Event] = [
            {"type": "trump", "suit": SUIT_CHARS[self.trump], "level": RANK_CHARS[self.level],
             "declarer": declarer, "dealer": dealer},
            {"type": "kitty", "to": [dealer], "cards": format_cards(self.kitty)},
        ]
        self.taken = list(self.kitty)
        self._set_hand(dealer, [*self.hands[dealer], *self.kitty])
        self.kitty = []
        self.phase = Phase.BURY
        self.to_act = dealer
        return events

    # -- kitty and friend ----------------------------------------------------------------------

    def _bury_actions(self, seat: int) -> list[Action]:
        """A representative few of the C(38, 7) burials (see the module docstring)."""
        ctx = self.ctx
        assert ctx is not None
        hand = self.hands[seat]
        side = [c for c in hand if not ctx.is_trump(c)]
        length = Counter(ctx.group[c] for c in side)
        short_first = sorted(side, key=lambda c: (length[ctx.group[c]], ctx.group[c],
                                                  ctx.strength[c], c))
        choices = [lowest_cards(hand, ctx, KITTY), self.taken,
                   sorted(hand, key=lambda c: (ctx.strength[c], c))[:KITTY]]
        if len(short_first) >= KITTY:
            choices.append(short_first[:KITTY])
        out: dict[str, Action] = {}
        for cards in choices:
            action = Action("bury", format_cards(cards))
            out.setdefault(action.text, action)
        return list(out.values())

    def _check_bury(self, seat: int, cards: Cards) -> str | None:
        if len(cards) != KITTY:
            return f"bury exactly {KITTY} cards, not {len(cards)}"
        return self._missing(seat, cards)

    def _missing(self, seat: int, cards: Cards) -> str | None:
        have = self.counts[seat]
        short = [c for c, n in Counter(cards).items() if n > have[c]]
        if short:
            return f"you do not hold {format_cards(short)} (not as many as that)"
        return None

    def _apply_bury(self, seat: int, cards: Cards) -> list[Event]:
        left = Counter(self.hands[seat])
        left.subtract(cards)
        self._set_hand(seat, list(left.elements()))
        self.kitty = list(cards)
        self.phase = Phase.FRIEND
        return [{"type": "bury", "seat": seat},
                {"type": "buried", "to": [seat], "cards": format_cards(cards)}]

    def _apply_friend(self, seat: int, action: Action) -> list[Event]:
        n, face = action.arg.split()
        self.friend_call = (int(n), parse_card(face))
        self.phase = Phase.PLAY
        self.to_act = seat
        return [{"type": "call-friend", "seat": seat, "n": int(n), "card": face}]

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
        else:
            rng = random.Random(self.seed * 1_000_003 + len(self.actions))
            plays, _ = follows(self.lead, hand, ctx, rng=rng)
        return [Action("play", _text(p)) for p in plays]

    def _check_play(self, seat: int, cards: Cards) -> str | None:
        ctx = self.ctx
        assert ctx is not None
        missing = self._missing(seat, cards)
        if missing:
            return missing
        if self.lead is None:
            if ctx.group_of(cards) is None:
                return (f"{format_cards(cards)} mixes suits: a lead is cards of one suit or "
                        "all trumps")
            return None
        return follow_error(self.lead, self.hands[seat], cards, ctx)

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
        self.trick.append((seat, cards))
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
        ctx = self.ctx
        assert ctx is not None
        winner = self.trick[self.winning][0]  # trick.trick_winner, kept play by play
        gained = points(c for _, cards in self.trick for c in cards)
        self.won[winner] += gained
        self.tricks += 1
        self.last_trick, self.last_winner = self.trick, winner
        self.trick, self.lead = [], None
        events: list[Event] = [{"type": "trick", "number": self.tricks, "winner": winner,
                                "points": gained}]
        if self.hands[winner]:
            self.to_act = winner
            return events
        self.phase = Phase.OVER
        self.to_act = None
        self._result = self._settle()
        return [*events, {"type": "over", "result": self._result}]

    def _settle(self) -> dict[str, Any]:
        assert self.dealer is not None and self.last_winner is not None
        assert self.friend_call is not None
        n, face = self.friend_call
        last_play = next(cards for seat, cards in self.last_trick if seat == self.last_winner)
        return settle(dealer=self.dealer, friend=self.friend, levels=self.levels, won=self.won,
                      kitty=self.kitty, last_winner=self.last_winner, last_play=last_play,
                      call=f"{n} {format_card(face)}")

    # -- the contract --------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            seat = self.to_act
            if self.over or seat is None:
                legal: list[Action] = []
            elif self.phase == Phase.DECLARE:
                legal = self._declare_actions(seat)
            elif self.phase == Phase.BURY:
                legal = self._bury_actions(seat)
            elif self.phase == Phase.FRIEND:
                legal = list(FRIEND_CALLS)
            else:
                legal = self._play_actions(seat)
            self._legal = legal
            self._index = {a.text: a for a in legal}
        return list(self._legal)

    def parse_action(self, text: str) -> Action:
        words = text.strip().split(None, 1)
        if not words:
            raise IllegalAction("empty action")
        verb, arg = words[0].lower(), (words[1].strip() if len(words) > 1 else "")
        if verb.startswith("@"):
            raise IllegalAction("in 找朋友 only the seat to act acts: no '@seat' actions")
        if verb == "pass":
            if arg:
                raise IllegalAction(f"pass takes nothing after it, not {arg!r}")
            return PASS
        if verb in ("declare", "bury", "play"):
            if not arg:
                raise IllegalAction(f"{verb} which cards? e.g. '{verb} Ts'")
            try:
                return Action(verb, format_cards(_cards(arg)))
            except CardError as exc:
                raise IllegalAction(str(exc)) from None
        if verb == "call-friend":
            parts = arg.split()
            if len(parts) != 2 or parts[0] not in ("1", "2", "3"):
                raise IllegalAction("call your friend as 'call-friend N CARD', N 1 to 3: "
                                    "e.g. 'call-friend 1 Ad' for the first ♦A played")
            try:
                face = parse_card(parts[1])
            except CardError as exc:
                raise IllegalAction(str(exc)) from None
            return Action("call-friend", f"{parts[0]} {format_card(face)}")
        raise IllegalAction(f"{text.strip()!r} is not an action of 找朋友: pass, declare, bury, "
                            "call-friend or play")

    def _check(self, action: Action) -> str | None:
        if self._legal is not None and self._index.get(action.text) == action:
            return None
        try:  # an Action built by hand must still be a well-formed, canonical one
            canonical = self.parse_action(action.text)
        except IllegalAction as exc:
            return str(exc)
        if canonical != action:
            return f"write {action.text!r} as {canonical.text!r}"
        seat = self.to_act
        assert seat is not None
        verb = action.verb
        if self.phase == Phase.DECLARE:
            if verb == "pass":
                return None
            if verb != "declare":
                return "the trump declaration is open: declare level cards or pass"
            return self._check_declare(seat, _cards(action.arg))
        if self.phase == Phase.BURY:
            if verb != "bury":
                return f"the dealer buries {KITTY} cards now: bury CARDS"
            return self._check_bury(seat, _cards(action.arg))
        if self.phase == Phase.FRIEND:
            if verb != "call-friend":
                return "the dealer calls his friend now: call-friend N CARD"
            return None
        if verb == "pass":
            return "nobody passes in 找朋友: play to the trick"
        if verb != "play":
            return f"{action.text!r} is not a play: it is your turn to play cards"
        return self._check_play(seat, _cards(action.arg))

    def _apply(self, action: Action) -> list[Event]:
        self._legal = None
        seat = self.to_act
        assert seat is not None
        if self.phase == Phase.DECLARE:
            events = self._apply_declare(seat, action)
        elif self.phase == Phase.BURY:
            events = self._apply_bury(seat, _cards(action.arg))
        elif self.phase == Phase.FRIEND:
            events = self._apply_friend(seat, action)
        else:
            events = self._apply_play(seat, _cards(action.arg))
        self.log.extend(events)
        return events

    def result(self) -> dict[str, Any] | None:
        return self._result

    # -- views ---------------------------------------------------------------------------

    def _trick_view(self) -> dict[str, Any] | None:
        if not self.trick:
            return None
        assert self.lead is not None
        best = self.trick[self.winning]
        return {"leader": self.trick[0][0], "lead": _text(self.trick[0][1]),
                "shape": self.lead.shape.describe(), "suit": group_name(self.lead.group),
                "plays": [[s, _text(c)] for s, c in self.trick],
                "seat": best[0], "cards": _text(best[1])}

    def observe(self, seat: int) -> Observation:
        if not 0 <= seat < PLAYERS:
            raise IllegalAction(f"no seat {seat} in a {PLAYERS}-player game")
        known = self.friend is not None or self.over
        side = {self.dealer, self.friend}
        obs: Observation = {
            "variant": self.variant.id,
            "seat": seat,
            "phase": str(self.phase),
            "to_act": self.to_act,
            "hand": format_cards(self.hands[seat]),
            "counts": [len(h) for h in self.hands],
            "levels": [LEVEL_CHARS[v] for v in self.levels],
            "level": RANK_CHARS[self.level],
            "trump": None if self.trump is None else SUIT_CHARS[self.trump],
            "declarations": [[s, format_cards(c)] for s, c in self.declarations],
            "dealer": self.dealer,
            "friend_call": None if self.friend_call is None else {
                "n": self.friend_call[0], "card": format_card(self.friend_call[1])},
            "copies_played": self.copies,
            "friend": self.friend,
            "trick": self._trick_view(),
            "last_trick": None if self.last_winner is None else {
                "winner": self.last_winner,
                "plays": [[s, _text(c)] for s, c in self.last_trick]},
            "tricks": self.tricks,
            "points": list(self.won),
            "attacker_points": (sum(p for s, p in enumerate(self.won) if s not in side)
                                if known else None),
            "log": [e for e in self.log if seat in e.get("to", (seat,))],
        }
        if self.over or (seat == self.dealer and self.phase in (Phase.FRIEND, Phase.PLAY)):
            obs["kitty"] = format_cards(self.kitty)
        if self.over:
            obs["result"] = self._result
        if seat == self.to_act:
            obs["legal_actions"] = [a.text for a in self.legal_actions()]
        return obs

    def zones(self) -> dict[str, list[Card]]:
        """Hands, the kitty (dealt, then buried) and every card played: the whole deck."""
        out = {f"hand{seat}": list(hand) for seat, hand in enumerate(self.hands)}
        out.update(kitty=list(self.kitty), played=list(self.played))
        return out

    def deck_cards(self) -> list[Card]:
        return list(deck(PACKS))


__all__ = ["FRIEND_CALLS", "Phase", "ZhaoPengyou", "options"]
