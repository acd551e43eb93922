"""The game contract every variant keeps (docs/contract.md).

A game is a mutable, cloneable state machine. Everything that happens is an
``Action`` whose canonical text parses back; a game's whole story is its
record (variant, version, options, seed, action texts), and ``replay``
rebuilds it exactly, because the only randomness is the game's own documented
generator (``games.rng``) seeded once.

``check`` is exact for any action and never changes anything; ``apply``
raises ``IllegalAction`` with the same reason. ``observe(seat)`` is the only
view a client or bot ever gets (typed: ``games.view.View``), and
``events_for(events, seat)`` the only events a seat may be sent: redaction
happens there and nowhere else.

What every variant shares lives here, so that it is one rule, not nine:

- who may act now (``acting``): one seat, or several at once where the rules
  let them answer together; an answer by a seat other than ``to_act`` is
  written ``@S verb`` in the record;
- the out-of-turn actions of every game, from any seat at any time:
  ``@S auto on`` / ``@S auto off`` (托管, platform.md §4: the fourth entry
  locks it) and ``@S leave`` / ``@S leave forced`` (platform.md §5: each game
  says what leaving costs), checked and carried out by ``OutOfTurn``
  (``out_of_turn.py``), which ``GameState`` inherits;
- how an action is read: always from its text (an ``Action`` built by hand or
  taken from another game is read again), never more than ``MAX_ACTION_TEXT``
  characters, reasons that quote at most a short excerpt of what was sent.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Self

from cardhall.games.errors import (
    Illegal,
    IllegalAction,
    NotInWindow,
    NotYourTurn,
    Unreadable,
    excerpt,
)
from cardhall.games.out_of_turn import AUTO_LOCK_ENTRY, META_VERBS, LeavePolicy, OutOfTurn
from cardhall.games.rng import Rng
from cardhall.games.variant import Option, OptionKind, Variant, flag, seat_or_none
from cardhall.rules import Play

Event = dict[str, Any]
Observation = dict[str, Any]

#: The longest action text any game needs is well under this (a 34-card 保皇 play is
#: about 40 characters); anything longer is refused before it is read.
MAX_ACTION_TEXT = 256
#: Legal actions are listed in a view while their text totals at most this many
#: characters; past it the plays are given as an index (``games.view.Plays``).
LEGAL_TEXT_BUDGET = 6000


@dataclass(frozen=True, slots=True)
class Action:
    """One decision: a verb and its canonical argument (``"bid 3"``, ``"play 333+4"``).

    ``seat`` is set for the actions a seat takes out of turn (``@2 leave``) and
    for answers given together with other seats (``@1 double``); ``play``
    carries the parsed reading of a play so that applying it needs no second
    parse.
    """

    verb: str
    arg: str = ""
    seat: int | None = None
    play: Play | None = field(default=None, compare=False, hash=False, repr=False)

    @property
    def text(self) -> str:
        head = f"@{self.seat} " if self.seat is not None else ""
        return f"{head}{self.verb} {self.arg}" if self.arg else f"{head}{self.verb}"

    def at(self, seat: int | None) -> Action:
        """The same decision, said by ``seat`` (None: by the seat whose turn it is)."""
        return self if seat == self.seat else Action(self.verb, self.arg, seat, self.play)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"


class GameState(OutOfTurn, ABC):
    """The contract. Subclasses implement the ``_``-prefixed hooks."""

    variant: Variant
    seed: int
    options: dict[str, Any]
    to_act: int | None
    phase: str

    #: What ``resolve`` returned last: (actions so far, the action, the seat asked for).
    _resolved: tuple[int, Action, int | None] | None = None

    def __init__(self, variant: Variant, seed: int, options: dict[str, Any]) -> None:
        self.variant = variant
        self.seed = seed
        self.options = options
        self.rng = Rng(seed)
        self.actions: list[str] = []
        self.to_act = None
        self.phase = "start"
        n = variant.players
        self.auto: list[bool] = [False] * n
        self.auto_entries: list[int] = [0] * n
        self.left: list[bool] = [False] * n
        self.penalties: list[int] = [0] * n

    @property
    def players(self) -> int:
        return self.variant.players

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def acting(self) -> list[int]:
        """Every seat that may act now, ``to_act`` first; empty when the game is over."""
        if self.over or self.to_act is None:
            return []
        return self._acting()

    def _acting(self) -> list[int]:
        """Games with windows that several seats answer together widen this."""
        assert self.to_act is not None
        return [self.to_act]

    # -- the contract ------------------------------------------------------------------

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action of ``seat`` (default ``to_act``), out-of-turn ones aside.

        The actions of ``to_act`` are written bare; those of another acting
        seat carry it (``@1 double``), exactly as the record will.
        """
        if seat is None or seat == self.to_act:
            return [] if self.to_act is None or self.over else self._legal_actions()
        if seat not in self.acting:
            return []
        return [a.at(seat) for a in self._legal_for(seat)]

    @abstractmethod
    def _legal_actions(self) -> list[Action]:
        """Every legal action of ``to_act``."""

    def _legal_for(self, seat: int) -> list[Action]:
        """Every legal action of an acting seat other than ``to_act`` (simultaneous windows)."""
        return []

    def parse_action(self, text: str) -> Action:
        """The action ``text`` names, canonicalised; IllegalAction if it names none."""
        if not isinstance(text, str):
            raise Unreadable("not_text", f"an action is text or an Action, not "
                             f"{type(text).__name__}")
        if len(text) > MAX_ACTION_TEXT:
            raise Unreadable("too_long", f"an action is at most {MAX_ACTION_TEXT} characters "
                             f"(this one has {len(text)})", limit=MAX_ACTION_TEXT,
                             length=len(text))
        body = text.strip()
        known = self._known(body)
        if known is not None:
            return known
        seat: int | None = None
        if body.startswith("@"):
            head, _, body = body.partition(" ")
            if not head[1:].isdigit() or len(head) > 4:
                raise Unreadable("bad_seat_tag", f"{excerpt(head)} is not a seat: write "
                                 "@SEAT ACTION (e.g. @2 leave)", text=excerpt(head))
            seat = int(head[1:])
            if seat >= self.players:
                raise Unreadable("no_such_seat", f"there is no seat {seat} in this "
                                 f"{self.players}-player game", seat=str(seat),
                                 players=self.players)
            body = body.strip()
        words = body.split(None, 1)
        if not words:
            raise Unreadable("empty", "empty action")
        verb, arg = words[0].lower(), (words[1].strip() if len(words) > 1 else "")
        if verb in META_VERBS:
            return self._parse_meta(verb, arg).at(seat)
        return self._parse(verb, arg).at(seat)

    def _known(self, text: str) -> Action | None:
        """A fast path: ``text`` exactly as one of the listed legal actions writes it."""
        return None

    @abstractmethod
    def _parse(self, verb: str, arg: str) -> Action:
        """The in-turn action ``verb arg`` names (no seat), canonicalised."""

    @staticmethod
    def _parse_meta(verb: str, arg: str) -> Action:
        if verb == "auto":
            if arg.lower() not in ("on", "off"):
                raise Unreadable("bad_auto", "托管 is auto on or auto off (e.g. @2 auto on)")
            return Action("auto", arg.lower())
        if arg.lower() not in ("", "forced"):
            raise Unreadable("bad_leave",
                             "leaving is leave, or leave forced for a forced quit or a kick")
        return Action("leave", arg.lower())

    @abstractmethod
    def _check(self, action: Action) -> IllegalAction | None:
        """None if ``action`` (bare, or tagged by an acting seat) is legal now, else why."""

    @abstractmethod
    def _apply(self, action: Action) -> list[Event]:
        """Carry out a legal in-turn action."""

    def observe(self, seat: int) -> Observation:
        """Exactly what ``seat`` may know, as JSON-able data: a ``games.view.View``.

        The common core comes from the hooks below; ``_detail`` adds what only
        this game has. Legal actions are listed in full while they fit
        ``LEGAL_TEXT_BUDGET``; past it the plays among them are given as a
        ``Plays`` index (``_plays_index``) and ``legal_complete`` is false.
        """
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise Unreadable("no_such_seat", f"no seat {seat!r} in a {self.players}-player "
                             "game", seat=str(seat), players=self.players)
        legal: list[str] = []
        complete = True
        plays = None
        if seat in self.acting:
            actions = self.legal_actions(seat)
            legal = [a.text for a in actions]
            if sum(len(t) + 3 for t in legal) > LEGAL_TEXT_BUDGET:
                plays = self._plays_index(seat, actions)
                if plays is not None:
                    legal = [a.text for a in actions if a.verb != "play"]
                    complete = False
        view: Observation = {
            "variant": self.variant.id,
            "version": self.variant.version,
            "seat": seat,
            "phase": str(self.phase),
            "acting": self.acting,
            "to_act": self.to_act,
            "hand": self._view_hand(seat),
            "counts": self._view_counts(),
            "roles": self._view_roles(seat),
            "table": self._view_table(),
            "played": self._view_played(),
            "last": self._view_last(seat),
            "warnings": self._view_warnings(),
            "multiplier": self._view_multiplier(),
            "options": {k: v for k, v in self.options.items()
                        if k not in self.variant.secret_options},
            "auto": list(self.auto),
            "auto_locked": [self.auto_locked(s) for s in range(self.players)],
            "left": list(self.left),
            "legal": legal,
            "legal_complete": complete,
            "result": self.result(),
            "detail": self._detail(seat),
        }
        if plays is not None:
            view["plays"] = plays
        return view

    @abstractmethod
    def _view_hand(self, seat: int) -> list[str]:
        """The seat's own cards, each as suited card text, in the game's sort order."""

    @abstractmethod
    def _view_counts(self) -> list[int]:
        """How many cards each seat holds."""

    @abstractmethod
    def _view_roles(self, seat: int) -> list[str | None]:
        """Each seat's role as ``seat`` knows it (None: not fixed, or not known to it)."""

    @abstractmethod
    def _view_table(self) -> dict[str, Any] | None:
        """The play to beat or the trick so far (``games.view.Table``), or None."""

    @abstractmethod
    def _view_played(self) -> list[str]:
        """Each seat's cards played so far, public to all (a card counter's source)."""

    @abstractmethod
    def _view_last(self, seat: int) -> list[str | None]:
        """Each seat's last action as ``seat`` may know it (the table's speech bubbles)."""

    def _view_warnings(self) -> list[int]:
        """Seats that all players are warned about (DDZ family: 1 or 2 cards left)."""
        return []

    @abstractmethod
    def _view_multiplier(self) -> dict[str, Any]:
        """The multiplier so far with its causes (``games.view.Multiplier``)."""

    @abstractmethod
    def _detail(self, seat: int) -> dict[str, Any]:
        """What only this game shows, redacted for ``seat``."""

    def _plays_index(self, seat: int, actions: list[Action]) -> dict[str, Any] | None:
        """A ``games.view.Plays`` of the play actions, or None to list them all."""
        return None

    @abstractmethod
    def result(self) -> dict[str, Any] | None:
        """Once over: ``games.view.Result``; else None."""

    @abstractmethod
    def zones(self) -> dict[str, list[int]]:
        """Every card of the game by where it is now; together, always the whole deck."""

    @abstractmethod
    def deck_cards(self) -> list[int]:
        """The game's full deck, for conservation checks."""

    def check(self, action: Action | str, seat: int | None = None) -> str | None:
        """None if legal, else a reason a player understands. Never changes the state.

        ``seat``, when given, is who is asking (a server passes the connection's
        seat): only an acting seat may answer, and an action that names a seat
        (``@2 leave``) must name the asker's.
        """
        refusal = self.refusal(action, seat)
        return None if refusal is None else str(refusal)

    def refusal(self, action: Action | str, seat: int | None = None) -> IllegalAction | None:
        """None if legal, else the typed refusal (``check``'s reason is its message)."""
        try:
            self._resolve(action, seat)
        except IllegalAction as exc:
            return exc
        return None

    def apply(self, action: Action | str, seat: int | None = None) -> list[Event]:
        """Carry out ``action`` (or its text); raise IllegalAction and change nothing if illegal.

        Returns every event with its audience (``"to"``, when not everyone);
        a server sends each seat only ``events_for(events, seat)``.
        """
        resolved, self._resolved = self._resolved, None
        if resolved is not None and resolved[1] is action \
                and resolved[::2] == (len(self.actions), seat):
            act = action  # the very object resolve() returned, at this state: trusted
        else:
            act = self._resolve(action, seat)
        self.actions.append(act.text)
        events = self._apply_meta(act) if act.verb in META_VERBS else self._apply(act)
        self._changed()
        return events

    def canonical(self, action: Action | str, seat: int | None = None) -> str:
        """The exact text ``apply(action, seat)`` would record, or IllegalAction with the reason.

        A server writes this text to its action log first and applies it after,
        so that nothing anyone is told of can be lost.
        """
        return self._resolve(action, seat).text

    def resolve(self, action: Action | str, seat: int | None = None) -> Action:
        """The canonical action meant (its ``text`` is ``canonical``'s), or the typed
        refusal. ``apply`` of the very object returned, for the same seat and before
        anything else changes the state, carries it out without reading or checking it
        again: a server resolves a move once, logs its text, then applies it."""
        act = self._resolve(action, seat)
        self._resolved = (len(self.actions), act, seat)
        return act

    def readings(self, action: str, seat: int | None = None) -> list[str]:
        """Every legal action ``action`` may mean for ``seat``: canonical texts that
        ``check(text, seat)`` accepts, in the order of ``legal_actions(seat)``.

        One for an action that reads one way (``play 55``), several for cards that read
        several ways (癞子 ``play 33559``: 339+55=333+55 or 559+33=555+33; also ``play
        3339``, which ``apply`` would take as the soft bomb it prefers), none for an
        illegal one. A client that sent bare cards offers these to choose from. Text
        over ``MAX_ACTION_TEXT`` characters has none, read no further.
        """
        if not isinstance(action, str) or len(action) > MAX_ACTION_TEXT:
            return []
        found: set[str] = set()
        for text in self._meanings(action.strip()):
            try:
                found.add(self.canonical(text, seat))
            except IllegalAction:
                continue
        if len(found) < 2:
            return list(found)
        order = self._reading_order(found, seat)
        return sorted(found, key=lambda t: (order.get(t, len(order)), t))

    def _reading_order(self, found: set[str], seat: int | None) -> dict[str, int]:
        """Positions in ``legal_actions(seat)`` that order ``found`` (legal readings of one
        text); a game whose list is costly to build may give any positions in that order."""
        return {a.text: i for i, a in enumerate(self.legal_actions(seat))}

    def _meanings(self, text: str) -> list[str]:
        """The action texts ``text`` may mean, legal or not: games whose plays read
        several ways (``ClimbingGame``) widen this; elsewhere a text means itself."""
        return [text]

    def _resolve(self, action: Action | str, seat: int | None) -> Action:
        """The canonical action meant, or IllegalAction with the reason."""
        act = self._coerce(action)
        if self.over:
            raise NotInWindow("game_over", "the game is over")
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < self.players):
            raise Unreadable("no_such_seat", f"there is no seat {seat!r} in this "
                             f"{self.players}-player game", seat=str(seat),
                             players=self.players)
        if act.seat is not None and seat is not None and act.seat != seat:
            raise Illegal("not_your_seat", f"seat {seat} cannot act for seat {act.seat}",
                          seat=seat, other=act.seat)
        if act.verb in META_VERBS:
            who = act.seat if act.seat is not None else seat
            if who is None:
                raise Unreadable("no_seat_named", f"say which seat: @SEAT {act.text} "
                                 f"(e.g. @0 {act.text})", text=act.text)
            act = act.at(who)
            reason = self._check_meta(act)
        else:
            acting = self.acting
            who = act.seat if act.seat is not None else seat if seat is not None else self.to_act
            if who not in acting:
                asker = -1 if who is None else who  # (None only once the game is over)
                if len(acting) == 1:
                    raise NotYourTurn("not_your_turn", f"it is seat {self.to_act}'s turn, "
                                      f"not seat {who}'s", seat=asker, to_act=acting[0])
                raise NotYourTurn("waiting_for", f"seat {who} has nothing to answer now "
                                  f"(waiting for seats {', '.join(map(str, acting))})",
                                  seat=asker, acting=list(acting))
            act = act.at(None if who == self.to_act and len(acting) == 1 else who)
            reason = self._check(act)
        if reason is not None:
            raise reason
        return act

    def _coerce(self, action: Action | str) -> Action:
        """The action read from its text: an Action is never trusted for its fields."""
        if isinstance(action, Action):
            if self._is_listed(action):
                return action
            if not isinstance(action.verb, str) or not isinstance(action.arg, str) or not (
                    action.seat is None or (isinstance(action.seat, int)
                                            and not isinstance(action.seat, bool))):
                raise Unreadable("not_text",
                                 "an Action holds a text verb, a text argument and a seat")
            action = action.text
        return self.parse_action(action)

    def _is_listed(self, action: Action) -> bool:
        """Whether ``action`` is the very object ``legal_actions()`` handed out (no re-read)."""
        return False

    def _changed(self) -> None:  # a hook most games need not fill
        """Called after every accepted action: drop anything cached for the old state."""

    def outcome(self, *, ended: str, winners: list[int], points: list[Any],
                multiplier: dict[str, Any], detail: dict[str, Any],
                beans: list[int] | None = None) -> dict[str, Any]:
        """A ``games.view.Result``, with the rules every game shares applied here once.

        platform.md §4: a game that reaches its natural end with every seat on
        托管 is not scored (no points, no beans, no fee); the table dissolves
        after settlement when any seat is on 托管 at the end. Ruling 12 there:
        an escape ends the game first, so it is always scored.
        """
        if ended == "finished" and self.all_auto():
            ended = "unscored"
            points = [0] * self.players
            beans = None if beans is None else [0] * self.players
            winners = []
        result: dict[str, Any] = {
            "variant": self.variant.id, "version": self.variant.version, "ended": ended,
            "winners": sorted(winners), "points": list(points),
            "penalties": list(self.penalties), "multiplier": multiplier,
            "auto": list(self.auto), "dissolve": any(self.auto), "detail": detail}
        if beans is not None:
            result["beans"] = list(beans)
        return result

    # -- events and records ----------------------------------------------------------

    @staticmethod
    def events_for(events: Sequence[Event], seat: int) -> list[Event]:
        """The events ``seat`` may be sent: others' private ones dropped, audiences removed."""
        out: list[Event] = []
        for e in events:
            to = e.get("to")
            if to is None:
                out.append(e)
            elif seat in to:
                out.append({k: v for k, v in e.items() if k != "to"})
        return out

    def clone(self) -> Self:
        """An independent copy: applying actions to it leaves this state untouched."""
        twin = self.__class__.__new__(self.__class__)
        twin.__dict__.update(self._copy_fields())
        return twin

    def _copy_fields(self) -> dict[str, Any]:
        """Field values for a clone: every mutable container copied, immutable values shared.

        Game states hold plain data (ints, text, tuples, frozen plays) in lists,
        dicts and sets; copying the containers all the way down is enough for
        independence and far cheaper than ``deepcopy``, which would also copy
        the shared rule sets and interned plays.
        """
        fields = {name: _copy(value) for name, value in self.__dict__.items()}
        fields["rng"] = self.rng.copy()
        return fields

    def record(self) -> dict[str, Any]:
        """Everything needed to rebuild this game: ``replay(record)``.

        Every option is written out, defaults included, so a record still
        replays the same game if a later version changes a default.
        """
        return {"variant": self.variant.id, "version": self.variant.version,
                "options": dict(self.options), "seed": self.seed,
                "actions": list(self.actions)}


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, set):
        return set(value)
    return value


__all__ = ["AUTO_LOCK_ENTRY", "LEGAL_TEXT_BUDGET", "MAX_ACTION_TEXT", "META_VERBS", "Action",
           "Event", "GameState", "IllegalAction", "LeavePolicy", "Observation", "Option",
           "OptionKind", "Variant", "excerpt", "flag", "seat_or_none"]
