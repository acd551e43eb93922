"""What every Dou Dizhu-family game shares: the deal, the hands, the play phase.

Rules common to ddz-classic §2 phase 4, and by reference to every other DDZ
file: the leader plays any legal hand and may not pass; each follower passes
or beats the last play; when every other player has passed in a row the
trick ends and the last player to play leads freely; the first player to
empty his hand ends the game and his side wins. A pass does not forfeit later
turns. Bombs are counted as they are played, by the variant's own idea of
which bombs double.

Cards are physical (card ids from ``cards.deck``) so that suits can be shown
and marked cards followed (5-player's revealed card); plays are by rank, and
when several cards of a rank could go, the marked card goes last
(docs/rulings.md). Subclasses supply the set-up phases and the settlement.
"""

from __future__ import annotations

import gc
import operator
from collections.abc import Callable, Sequence
from enum import StrEnum
from itertools import repeat
from typing import Any, ClassVar, cast

from cardhall.cards import (
    CARD_TEXT,
    NUM_RANKS,
    Card,
    CardError,
    Counts,
    card_rank,
    deck,
    format_ranks,
    parse_ranks,
    rank_text,
)
from cardhall.games.base import (
    Action,
    Event,
    GameState,
    IllegalAction,
    Observation,
    Variant,
    excerpt,
)
from cardhall.games.deal import given_deal
from cardhall.games.errors import Ambiguous, Illegal, NotInWindow, Unreadable, clip
from cardhall.games.variant import Layout
from cardhall.games.view import plays_index
from cardhall.rules import Play, RuleError, RuleSet
from cardhall.rules.frozen import maker
from cardhall.rules.ruleset import NoReading, SeveralReadings

PASS = Action("pass")


class ClimbingGame(GameState):
    """Shared state and play phase of the shedding games."""

    #: The variant's declaration's (games/__init__.py): how it deals, what its plays follow.
    layout: Layout
    rs: RuleSet
    #: The game's one Phase enum; the shared play phase enters its PLAY and OVER.
    phases: ClassVar[type[StrEnum]]

    def __init__(self, variant: Variant, seed: int, options: dict[str, Any]) -> None:
        super().__init__(variant, seed, options)
        if variant.rules is None or variant.layout is None:
            raise TypeError(f"{variant.id} declares no rule set or layout: not a climbing game")
        self.rs = variant.rules
        self.layout = variant.layout
        n = variant.players
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.counts: list[Counts] = [(0,) * NUM_RANKS] * n
        self.kitty: list[Card] = []
        #: The kitty as dealt, kept for showing it once its cards are in a hand.
        self.kitty_dealt: list[Card] = []
        self.dead: list[Card] = []
        self.landlord: int | None = None
        self.side: list[int] = [1] * n  # 0: the landlord's side, 1: the others
        self.trick: tuple[int, Play] | None = None
        #: The seats that acted in the trick on the table, in the order they first did
        #: (its leader first): whose bubble (``last``) is of this trick (``_view_table``).
        self.acted: list[int] = []
        self.passes = 0
        self.plays_made = [0] * n
        self.bombs: list[Play] = []
        self.log: list[Event] = []
        self.deals = 0
        self.winner: int | None = None
        self.marked: set[Card] = set()
        self.played: list[Card] = []
        self.played_by: list[list[Card]] = [[] for _ in range(n)]
        self.last: list[str | None] = [None] * n
        self._legal: list[Action] | None = None
        self._legal_index: tuple[list[Action] | None, dict[str, Action]] = (None, {})
        self._result: dict[str, Any] | None = None
        self._start()

    # -- hooks for variants ------------------------------------------------------------

    def _start(self) -> None:
        """Deal and enter the first set-up phase; log what happened."""
        self.log.extend(self._deal())

    def _setup_actions(self) -> list[Action]:
        raise NotImplementedError(self.phase)

    def _setup_parse(self, verb: str, arg: str) -> Action:
        raise Unreadable("unknown_action", f"unknown action {excerpt(verb)}",
                         text=clip(verb), allowed=["play CARDS", "pass"])

    def _setup_check(self, action: Action) -> IllegalAction | None:
        return None

    def _setup_apply(self, action: Action) -> list[Event]:
        raise NotImplementedError(self.phase)

    def _settle(self) -> dict[str, Any]:
        raise NotImplementedError

    def _on_play(self, seat: int, play: Play, cards: list[Card]) -> list[Event]:
        """Called after every play, before the game-over check (5-player late reveal)."""
        return []

    def doubles(self, play: Play) -> bool:
        """Whether this bomb doubles the stake (variants narrow it)."""
        return play.is_bomb

    def _observe_extra(self, seat: int, obs: Observation) -> None:
        """Variant-specific public and private information, into the view's ``detail``."""

    def _multiplier_causes(self) -> dict[str, Any]:
        """The stake so far by cause (``games.view.Multiplier``); variants say theirs."""
        return {"causes": {}, "total": 1}

    def _last_text(self, seat: int, action: Action) -> str | None:
        """What the table shows of ``seat``'s action (None keeps it hidden for now)."""
        return action.at(None).text

    # -- dealing -----------------------------------------------------------------------

    def _deal(self) -> list[Event]:
        """Deal afresh: from the ``deal`` option the first time if given, else shuffled."""
        n, lay = self.players, self.layout
        self.deals += 1
        given = self.options.get("deal")
        if given is not None and self.deals == 1:
            hands, kitty, dead = self._given_deal(given)
        else:
            cards = list(deck(self.rs.packs, self.rs.absent))
            self.rng.shuffle(cards)
            hands = [sorted(cards[i * lay.hand:(i + 1) * lay.hand]) for i in range(n)]
            rest = cards[n * lay.hand:]
            kitty, dead = sorted(rest[:lay.kitty]), sorted(rest[lay.kitty:])
        self.hands = hands
        self.counts = [self._count(h) for h in hands]
        self.kitty, self.dead = kitty, dead
        self.kitty_dealt = list(kitty)
        self.played = []
        self.played_by = [[] for _ in range(n)]
        self.last = [None] * n
        return [{"type": "deal", "deal": self.deals}]

    def _given_deal(self, given: Any) -> tuple[list[list[Card]], list[Card], list[Card]]:
        """A deal from options: ``{"hands": [...], "kitty": "...", "dead": "..."}``."""
        lay = self.layout
        parts: dict[str, int | None] = {"kitty": lay.kitty, "dead": lay.dead}
        hands, piles = given_deal(given, self.deck_cards(), parts, self.players, lay.hand)
        return hands, piles["kitty"], piles["dead"]

    @staticmethod
    def _count(cards: Sequence[Card]) -> Counts:
        counts = [0] * NUM_RANKS
        for c in cards:
            counts[_RANK[c]] += 1
        return tuple(counts)

    def _give(self, seat: int, cards: Sequence[Card]) -> None:
        self.hands[seat] = sorted([*self.hands[seat], *cards])
        self.counts[seat] = self._count(self.hands[seat])

    def _take_cards(self, seat: int, ranks: Sequence[int]) -> list[Card]:
        """Remove cards of these ranks from a hand, marked cards last."""
        hand = self.hands[seat]
        counts = list(self.counts[seat])
        taken: list[Card] = []
        marked = self.marked
        for r in ranks:
            options = [c for c in hand if _RANK[c] == r]
            plain = [c for c in options if c not in marked] if marked else options
            card = plain[0] if plain else options[0]
            hand.remove(card)
            taken.append(card)
            counts[r] -= 1
        self.counts[seat] = tuple(counts)
        return taken

    # -- the contract --------------------------------------------------------------------

    def _legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._play_actions() if self.phase == "play" else self._setup_actions()
        return list(self._legal)

    def _legal_by_text(self) -> dict[str, Action]:
        """The legal actions by text, rebuilt when they change: a wildcard lead has
        1 000+ plays, and reading a wild play's text through the rules costs milliseconds."""
        if self.over or self.to_act is None:
            return {}
        self._legal_actions()  # fills the cache
        legal = self._legal
        if self._legal_index[0] is not legal:
            self._legal_index = (legal, {a.text: a for a in legal or ()})
        return self._legal_index[1]

    def _known(self, text: str) -> Action | None:
        return self._legal_by_text().get(text)  # the common case: a listed action's own text

    def _is_listed(self, action: Action) -> bool:
        return self._legal is not None and any(legal is action for legal in self._legal)

    def _changed(self) -> None:
        self._legal = None

    def _log_events(self, events: list[Event]) -> None:
        self.log.extend(events)

    def _parse(self, verb: str, arg: str) -> Action:
        if verb == "pass" and not arg:
            return PASS
        if verb == "play":
            try:
                play = self.rs.parse_play(arg)
            except (RuleError, CardError) as exc:
                raise self._unplayable(arg, short_reason(str(exc), arg), exc) from None
            return self._play_action(play)
        return self._setup_parse(verb, arg)

    def _meanings(self, text: str) -> list[str]:
        """``play CARDS`` means each reading the rules find for its cards (``+`` and ``=``
        narrow them); any other text, or cards that are no play, mean the text itself."""
        head = ""
        if text.startswith("@"):
            head, _, text = text.partition(" ")
            head, text = head + " ", text.strip()
        verb, _, arg = text.partition(" ")
        if verb.lower() != "play" or not arg.strip() or self.to_act is None:
            return [head + text]
        try:
            need = self._count_ranks(parse_ranks(arg.partition("=")[0].replace("+", "")))
            if any(map(operator.gt, need, self.counts[self.to_act])):
                return [head + text]  # cards not held: no reading is legal, none is sought
            plays = self.rs.readings_of(arg.strip())
        except (RuleError, CardError):
            return [head + text]
        return [head + self._play_action(p).text for p in plays] or [head + text]

    def _unplayable(self, arg: str, message: str, exc: Exception) -> IllegalAction:
        """Why ``play ARG`` names no one play (``exc``, from ``RuleSet.parse_play``): cards
        that read several ways (``Ambiguous``), that make no combination (``Illegal``),
        or no cards of this deck at all (``Unreadable``)."""
        if isinstance(exc, SeveralReadings):
            return Ambiguous(message, [self._play_action(p).text for p in exc.readings])
        if isinstance(exc, NoReading):
            return Illegal("not_a_combination", message, cards=clip(arg))
        return Unreadable("not_cards", message, text=clip(arg))

    def _check(self, action: Action) -> IllegalAction | None:
        if self._legal is not None and action.seat is None:
            for legal in self._legal:  # the common case: an action from legal_actions()
                if legal is action:
                    return None
        if self.phase != "play":
            if action.verb == "play":
                return NotInWindow("no_play_now", f"no cards are played during {self.phase}",
                                   phase=str(self.phase))
            return self._setup_check(action)
        if action.verb == "pass":
            return Illegal("must_lead", "you lead: you must play") if self._leading() else None
        if action.verb != "play":
            return NotInWindow("wrong_step", f"{excerpt(action.text)} is not a play: play "
                               "cards or pass", phase="play", text=clip(action.text),
                               allowed=["play CARDS", "pass"])
        assert action.play is not None
        return self._check_play(action.play)

    def _check_play(self, play: Play) -> IllegalAction | None:
        if self._play_action(play).text in self._legal_by_text():
            return None
        return self._play_refusal(play) or Illegal(
            "not_legal_now", f"{play.text} is not a legal play now", play=play.text)

    def _play_refusal(self, play: Play) -> IllegalAction | None:
        """The cheap reasons a play is refused (cards not held, does not beat), or None."""
        assert self.to_act is not None
        hand = self.counts[self.to_act]
        need = self._count_ranks(play.cards)
        if any(need[r] > hand[r] for r in range(NUM_RANKS)):
            missing = "".join(format_ranks([r]) * (need[r] - hand[r])
                              for r in range(NUM_RANKS) if need[r] > hand[r])
            return Illegal("not_in_hand", f"you do not hold {play.text} (missing {missing})",
                           cards=play.text, missing=missing)
        if not self._leading() and self.trick is not None and \
                not self.rs.beats(play, self.trick[1]):
            return Illegal("does_not_beat", f"{play.text} does not beat {self.trick[1].text}",
                           play=play.text, beat=self.trick[1].text)
        return None

    @staticmethod
    def _count_ranks(ranks: Sequence[int]) -> list[int]:
        counts = [0] * NUM_RANKS
        for r in ranks:
            counts[r] += 1
        return counts

    def _apply(self, action: Action) -> list[Event]:
        self._legal = None
        seat = self.to_act if action.seat is None else action.seat
        assert seat is not None
        shown = self._last_text(seat, action)
        if self.phase != "play":
            events = self._setup_apply(action)
        else:
            if self.trick is None:
                self.acted = []  # a lead: a new trick
            if action.verb == "pass":
                events = self._apply_pass()
            else:
                assert action.play is not None
                events = self._apply_play(action.play, action.arg)
            if self.trick is None:
                self.acted = []  # every other seat passed: the trick is over
            elif seat not in self.acted:
                self.acted.append(seat)
        self.last[seat] = shown
        self.log.extend(events)
        return events

    # -- play phase ----------------------------------------------------------------------

    def _leading(self) -> bool:
        return self.trick is None

    def _play_action(self, play: Play) -> Action:
        arg = play.text if play.as_text is None else f"{play.text}={play.as_text}"
        return Action("play", arg, None, play)

    def _play_actions(self) -> list[Action]:
        assert self.to_act is not None
        hand = self.counts[self.to_act]
        last = None if self.trick is None else self.trick[1]
        if self.rs.wild is None and self.rs.comparison == "ladder":
            gen = self.rs.gen
            cache = _ACTIONS.setdefault(self.rs.name, {})
            actions = []
            for code in gen.codes(hand, last):
                act = cache.get(code)
                if act is None:
                    act = cache[code] = self._play_action(gen.play(code))
                actions.append(act)
        elif type(self)._play_action is ClimbingGame._play_action:
            # A wild lead has thousands of plays, each made afresh (``wild.spelt_moves``),
            # and ``_play_action``'s text, as the rules spell it (each part once).
            collecting = gc.isenabled()
            if collecting:
                gc.disable()  # see _NO_COLLECTION
            try:
                plays, texts = self.rs.spelt_moves(hand, last)
                actions = list(map(_make_action, repeat("play"), texts, repeat(None), plays))
            finally:
                if collecting:
                    gc.enable()
        else:
            actions = [self._play_action(p) for p in self.rs.moves(hand, last)]
        return actions if last is None else [PASS, *actions]

    def _begin_play(self, leader: int) -> None:
        self.phase = self.phases("play")
        self.to_act = leader
        self.trick = None
        self.passes = 0

    def _next(self, seat: int) -> int:
        return (seat + 1) % self.players

    def _apply_pass(self) -> list[Event]:
        seat = self.to_act
        assert seat is not None
        self.passes += 1
        self.to_act = self._next(seat)
        events: list[Event] = [{"type": "pass", "seat": seat}]
        if self.passes >= self._passes_to_close():
            self.trick = None  # everyone else passed: the last player leads freely
            self.passes = 0
            events.append({"type": "trick-over", "leader": self.to_act})
        return events

    def _passes_to_close(self) -> int:
        """Passes in a row that end a trick: everyone but its holder."""
        return self.players - 1

    def _apply_play(self, play: Play, text: str) -> list[Event]:
        seat = self.to_act
        assert seat is not None
        cards = self._take_cards(seat, play.cards)
        self.played.extend(cards)
        self.played_by[seat].extend(cards)
        self.plays_made[seat] += 1
        self.trick = (seat, play)
        self.passes = 0
        cards_text, _, as_text = text.partition("=")
        event: Event = {"type": "play", "seat": seat, "cards": cards_text, "kind": play.kind,
                        "left": len(self.hands[seat])}
        if as_text:
            event["as"] = as_text
        if play.is_bomb:
            self.bombs.append(play)
            event["bomb"] = True
        events = [event, *self._on_play(seat, play, cards)]
        if not self.hands[seat]:
            events.extend(self._go_out(seat))
            if self.over:
                return events
        self.to_act = self._next(seat)
        return events

    def _go_out(self, seat: int) -> list[Event]:
        """``seat`` has emptied its hand: the first player out ends the game."""
        self.winner = seat
        return self._finish()

    def _finish(self) -> list[Event]:
        self.phase = self.phases("over")
        self.to_act = None
        self._result = self._settle()
        return [{"type": "over", "result": self._result}]

    def result(self) -> dict[str, Any] | None:
        return self._result

    def _end_with(self, result: dict[str, Any]) -> list[Event]:
        """End the game now with ``result`` (an escape): the closing ``over`` event."""
        self.phase = self.phases("over")
        self.to_act = None
        self._result = result
        return [{"type": "over", "result": result}]

    def _outcome(self, detail: dict[str, Any], winners: list[int], points: list[Any],
                 ended: str = "finished", beans: list[int] | None = None) -> dict[str, Any]:
        """The game's ``Result`` from its settlement (``detail`` keeps the game's own words)."""
        return self.outcome(ended=ended, winners=winners, points=points, detail=detail,
                            multiplier=self._multiplier_causes(), beans=beans)

    # -- views -----------------------------------------------------------------------------

    def spring(self) -> str | None:
        """ddz-happy §4.1: "spring" (farmers played nothing) or "anti-spring"."""
        if self.winner is None or self.landlord is None:
            return None
        farmers = [s for s in range(self.players) if self.side[s]]
        if self.side[self.winner] == 0 and all(self.plays_made[s] == 0 for s in farmers):
            return "spring"
        if self.side[self.winner] == 1 and self.plays_made[self.landlord] == 1:
            return "anti-spring"
        return None

    def _view_hand(self, seat: int) -> list[str]:
        return [CARD_TEXT[c] for c in self.hands[seat]]

    def _view_counts(self) -> list[int]:
        return [len(h) for h in self.hands]

    def _view_roles(self, seat: int) -> list[str | None]:
        if self.landlord is None:
            return [None] * self.players
        return ["landlord" if self.side[s] == 0 else "farmer" for s in range(self.players)]

    def _view_table(self) -> dict[str, Any] | None:
        if self.trick is None:
            return None
        return {"seat": self.trick[0], "cards": self.trick[1].text, "kind": self.trick[1].kind,
                "leader": self.acted[0], "acted": list(self.acted)}

    def _view_played(self) -> list[str]:
        return [rank_text(cards) for cards in self.played_by]

    def _view_last(self, seat: int) -> list[str | None]:
        return list(self.last)

    def _view_warnings(self) -> list[int]:
        return [s for s, h in enumerate(self.hands) if 0 < len(h) <= 2]

    def _view_multiplier(self) -> dict[str, Any]:
        return self._multiplier_causes()

    def _detail(self, seat: int) -> dict[str, Any]:
        detail: dict[str, Any] = {"landlord": self.landlord}
        if self.phase == "over":
            detail["hands"] = [hand_text(h) for h in self.hands]
        self._observe_extra(seat, detail)
        return detail

    def _plays_index(self, seat: int, actions: list[Action]) -> dict[str, Any] | None:
        ranks = [r for r in range(NUM_RANKS) if self.counts[seat][r]]
        position = {r: i for i, r in enumerate(ranks)}
        selections = []
        for a in actions:
            if a.play is None:
                continue
            vec = [0] * len(ranks)
            for r in a.play.cards:
                vec[position[r]] += 1
            selections.append(tuple(vec))
        return cast(dict[str, Any], plays_index([format_ranks([r]) for r in ranks], selections,
                                                [self.counts[seat][r] for r in ranks]))

    def deck_cards(self) -> list[Card]:
        return list(deck(self.rs.packs, self.rs.absent))

    def zones(self) -> dict[str, list[Card]]:
        """Where every card is: hands, kitty, dead, played. Together they are the deck."""
        out = {f"hand{seat}": list(hand) for seat, hand in enumerate(self.hands)}
        out.update(kitty=list(self.kitty), dead=list(self.dead), played=list(self.played))
        return out


_RANK = tuple(card_rank(c) for c in range(54))
#: Interned play actions per rule set, by move code: a game's hot loop reuses them.
_ACTIONS: dict[str, dict[int, Action]] = {}


# _NO_COLLECTION: the cyclic collector is paused while a wild list is built. A crafted
# 癞子 lead makes 20 000+ tracked objects (a play and an action each, and memo entries),
# none in a cycle; left on, the collector ran dozens of young passes over them and,
# with the rule sets' memos long-lived, full passes too: a quarter of a cold list's
# time (issue 25's adversarial bench, 40 → 30 ms). Once on again it looks at them once.

#: ``Action(verb, arg, seat, play)``, made in bulk (``rules.frozen``): a wild lead has
#: thousands of plays.
_make_action: Callable[[str, str, int | None, Play | None], Action] = maker(Action)


def short_reason(reason: str, text: str, limit: int = 40) -> str:
    """``reason`` with a long quoted ``text`` cut to an excerpt (reasons never echo it whole)."""
    if len(text) <= limit or text not in reason:
        return reason
    return reason.replace(text, f"{text[:limit]}… ({len(text)} characters)")


def hand_text(cards: Sequence[Card]) -> str:
    return rank_text(cards)


def cards_text(cards: Sequence[Card]) -> list[str]:
    """Each card with its suit (``["3h", "X"]``), as a hand is shown: the ranks of
    ``hand_text`` are what the rules read, the suits what a table draws."""
    return [CARD_TEXT[c] for c in cards]
