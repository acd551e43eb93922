"""找朋友 before the first trick: the deal, the declaration window, the kitty and the friend call.

The rules are stated in ``zhaopengyou`` (the game's module, which plays on
from here); this module holds phases 1–4 of zhao-pengyou.md §3 so that neither
file grows past reading size: dealing (or a ``deal`` option's suited hands),
the trump declaration asked in turn (docs/rulings.md, 找朋友 1), the dealer's
burial and his friend call, and how their action texts are read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
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
from cardhall.games.base import Action, Event, GameState, IllegalAction, Variant, excerpt
from cardhall.games.deal import given_deal, parse_mixed
from cardhall.games.errors import BadSetup, Illegal, NotInWindow, Unreadable, clip
from cardhall.games.zhaopengyou_match import PLAYERS
from cardhall.rules.trick import LEVEL_CHARS, Lead, Trumps, level_rank, trumps
from cardhall.rules.trick_follow import lowest_cards

HAND, KITTY, PACKS = 31, 7, 3
Cards = tuple[Card, ...]
PASS = Action("pass")
FRIEND_CALLS = tuple(Action("call-friend", f"{n} {format_card(c)}")
                     for n in (1, 2, 3) for c in range(54))
CARD_VERBS = ("declare", "bury", "play")
FRIEND_HINT = ("call your friend as 'call-friend N CARD', N 1 to 3: e.g. 'call-friend 1 Ad' "
               "for the first ♦A played")


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


def read_cards(verb: str, arg: str) -> Cards:
    """The suited cards of an action's argument, or IllegalAction quoting a short excerpt.

    One left-to-right pass over the text (``cards.parse_cards``): linear in its
    length, which base already caps at ``MAX_ACTION_TEXT``.
    """
    if not arg:
        raise Unreadable("no_cards", f"{verb} which cards? e.g. '{verb} Ts'", verb=verb)
    try:
        cards = _cards(arg)
    except CardError as exc:
        reason = str(exc).replace(repr(arg), excerpt(arg))
        raise Unreadable("not_cards", f"{verb}: {reason}", text=clip(arg)) from None
    if not cards:
        raise Unreadable("no_cards", f"{verb} which cards? e.g. '{verb} Ts'", verb=verb)
    return cards


def parse_call(arg: str) -> Action:
    """``call-friend N CARD`` canonicalised (N 1–3, any of the 54 faces)."""
    parts = arg.split()
    if len(parts) != 2 or parts[0] not in ("1", "2", "3") or len(parts[1]) > 3:
        raise Unreadable("bad_friend_call", FRIEND_HINT, text=clip(arg))
    try:
        face = parse_card(parts[1])
    except CardError:
        raise Unreadable("bad_friend_call", f"{excerpt(parts[1])} is not a card: "
                         f"{FRIEND_HINT}", text=clip(arg)) from None
    return Action("call-friend", f"{parts[0]} {format_card(face)}")


def refuse_bare_ranks(given: Any) -> None:
    """Suits matter everywhere in 找朋友 (the trump suit, following, the friend card), so a
    given deal names every card with its suit; a bare rank is refused, not filled in."""
    if not isinstance(given, Mapping):
        return
    hands = given.get("hands")
    named = [(f"hand {s}", t) for s, t in enumerate(hands)] if isinstance(hands, list) else []
    for where, text in [*named, ("the kitty", given.get("kitty"))]:
        if not isinstance(text, str):
            continue
        try:
            cards = parse_mixed(text)
        except CardError:
            continue  # given_deal reports it
        bare = next((c for c in cards if c < 0), None)
        if bare is not None:
            rank = RANK_CHARS[-1 - bare]
            raise BadSetup("bad_deal", f"option deal: {where} gives the bare rank {rank}; suits "
                           f"matter in 找朋友 (trump, following, the friend card), so give "
                           f"every card with its suit (e.g. {rank}s)", option="deal")


class ZhaoPengyouSetup(GameState):
    """The set-up phases of 找朋友; ``zhaopengyou.ZhaoPengyou`` adds play, settlement, views."""

    leave_policy = "autoplay"
    phase: Phase

    def __init__(self, variant: Variant, seed: int, options: dict[str, Any]) -> None:
        super().__init__(variant, seed, options)
        self.levels = [LEVEL_CHARS.index(v) for v in options["levels"]]
        self.dealer: int | None = options["dealer"]
        if self.dealer is None and any(self.levels):
            raise BadSetup("bad_option", "without a dealer this is a match's first hand, where "
                           "every level is 2: give the dealer too", option="dealer")
        given_first = options["first"]
        if self.dealer is not None and given_first not in (None, self.dealer):
            raise BadSetup("bad_option", f"option first is for a match's first hand: with "
                           f"dealer {self.dealer} the window opens at the dealer", option="first")
        self.level = level_rank(self.levels[self.dealer] if self.dealer is not None else 0)
        self.hands: list[list[Card]] = [[] for _ in range(PLAYERS)]
        self.counts: list[tuple[int, ...]] = [(0,) * 54] * PLAYERS
        self.kitty: list[Card] = []
        self.taken: list[Card] = []  # the kitty as the dealer took it
        self.played: list[Card] = []
        self.played_by: list[list[Card]] = [[] for _ in range(PLAYERS)]
        self.last: list[str | None] = [None] * PLAYERS
        self.deals = 0
        self.moves = 0  # in-turn actions applied (seeds the follow sample)
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
        #: Every completed trick: (leader, winner, points, plays).
        self.history: list[tuple[int, int, int, list[tuple[int, Cards]]]] = []
        self.won = [0] * PLAYERS  # points in the tricks each seat won
        self._legal: list[Action] | None = None
        self._index: dict[str, Action] = {}
        self._complete = True
        self._result: dict[str, Any] | None = None
        self._deal()
        self.first = (self.dealer if self.dealer is not None else
                      given_first if given_first is not None else self.rng.below(PLAYERS))
        self._open_window()

    # -- dealing ---------------------------------------------------------------------------

    def _deal(self) -> list[Event]:
        self.deals += 1
        given = self.options.get("deal")
        if given is not None and self.deals == 1:
            refuse_bare_ranks(given)
            hands, piles = given_deal(given, self.deck_cards(), {"kitty": KITTY}, PLAYERS, HAND)
            kitty = piles["kitty"]
        else:
            cards = list(deck(PACKS))
            self.rng.shuffle(cards)
            hands = [cards[i * HAND:(i + 1) * HAND] for i in range(PLAYERS)]
            kitty = cards[PLAYERS * HAND:]
        for seat, hand in enumerate(hands):
            self._set_hand(seat, hand)
        self.kitty = sorted(kitty)
        self.played = []
        self.played_by = [[] for _ in range(PLAYERS)]
        self.last = [None] * PLAYERS
        return [{"type": "deal", "deal": self.deals, "dealer": self.dealer,
                 "level": RANK_CHARS[self.level]}]

    @staticmethod
    def _count(cards: Sequence[Card]) -> tuple[int, ...]:
        """How many of each of the 54 faces ``cards`` holds."""
        return _vector(cards)

    def _set_hand(self, seat: int, cards: Sequence[Card]) -> None:
        self.hands[seat] = sorted(cards)
        self.counts[seat] = _vector(cards)

    def deck_cards(self) -> list[Card]:
        return list(deck(PACKS))

    # -- the declaration window (asked in turn: docs/rulings.md, 找朋友 1) -------------------

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

    def _check_declare(self, seat: int, cards: Cards) -> IllegalAction | None:
        name = RANK_CHARS[self.level]
        if len(set(cards)) != 1 or len(cards) > 3 or cards[0] >= SMALL_JOKER_CARD:
            return Illegal("declare_identical", f"declare 1, 2 or 3 identical level cards, e.g. "
                           f"'declare {name}s {name}s'", level=name)
        if card_rank(cards[0]) != self.level:
            return Illegal("declare_level", f"the level rank is {name}: declare with {name}s of "
                           "one suit", level=name)
        held = self.counts[seat][cards[0]]
        if held < len(cards):
            return Illegal("not_in_hand", f"you hold {held} {format_card(cards[0])}, not "
                           f"{len(cards)}", cards=format_cards(cards), held=held)
        standing = self._standing()
        if len(cards) <= standing:
            return Illegal("declare_too_few", f"a new declaration must show more than "
                           f"{standing} identical level cards", standing=standing)
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

    # -- kitty and friend --------------------------------------------------------------------

    def _bury_actions(self, seat: int) -> list[Action]:
        """A representative few of the C(38, 7) burials (docs/rulings.md, 找朋友 8)."""
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

    def _check_bury(self, seat: int, cards: Cards) -> IllegalAction | None:
        if len(cards) != KITTY:
            return Illegal("wrong_count", f"bury exactly {KITTY} cards, not {len(cards)}",
                           need=KITTY, got=len(cards))
        return self._missing(seat, cards)

    def _missing(self, seat: int, cards: Cards) -> IllegalAction | None:
        have = self.counts[seat]
        short = [c for c, n in Counter(cards).items() if n > have[c]]
        if short:
            return Illegal("not_in_hand", f"you do not hold {format_cards(short)} (not as "
                           "many as that)", cards=format_cards(short))
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

    # -- reading actions ---------------------------------------------------------------------

    def _parse(self, verb: str, arg: str) -> Action:
        if verb == "pass":
            if arg:
                raise Unreadable("bad_argument", f"pass takes nothing after it, not "
                                 f"{excerpt(arg)}", verb="pass", text=clip(arg))
            return PASS
        if verb in CARD_VERBS:
            return Action(verb, _text(read_cards(verb, arg)))
        if verb == "call-friend":
            return parse_call(arg)
        raise Unreadable("unknown_action", f"{excerpt(verb)} is not an action of 找朋友: pass, "
                         "declare, bury, call-friend or play", text=clip(verb),
                         allowed=["pass", "declare CARDS", "bury CARDS", "call-friend N CARD",
                                  "play CARDS"])

    def _setup_check(self, seat: int, action: Action) -> IllegalAction | None:
        verb = action.verb
        phase = str(self.phase)
        if self.phase == Phase.DECLARE:
            if verb == "pass":
                return None
            if verb != "declare":
                return NotInWindow("wrong_step", "the trump declaration is open: declare level "
                                   "cards or pass", phase=phase, text=clip(action.text),
                                   allowed=["declare CARDS", "pass"])
            return self._check_declare(seat, _cards(action.arg))
        if self.phase == Phase.BURY:
            if verb != "bury":
                return NotInWindow("wrong_step", f"the dealer buries {KITTY} cards now: bury "
                                   "CARDS", phase=phase, text=clip(action.text),
                                   allowed=["bury CARDS"])
            return self._check_bury(seat, _cards(action.arg))
        if verb != "call-friend":
            return NotInWindow("wrong_step", "the dealer calls his friend now: call-friend N "
                               "CARD", phase=phase, text=clip(action.text),
                               allowed=["call-friend N CARD"])
        return None

    def _setup_apply(self, seat: int, action: Action) -> list[Event]:
        if self.phase == Phase.DECLARE:
            return self._apply_declare(seat, action)
        if self.phase == Phase.BURY:
            return self._apply_bury(seat, _cards(action.arg))
        return self._apply_friend(seat, action)


__all__ = ["FRIEND_CALLS", "HAND", "KITTY", "PACKS", "PASS", "Phase", "ZhaoPengyouSetup",
           "read_cards"]
