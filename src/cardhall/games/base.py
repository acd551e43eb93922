"""The game contract every variant keeps (ARCHITECTURE.md, "The game contract").

A game is a mutable, cloneable state machine. Everything that happens is an
``Action`` whose canonical text parses back; a game's whole story is its
record (variant, options, seed, action texts), and ``replay`` rebuilds it
exactly, because the only randomness is a ``random.Random`` seeded once.

``check`` is exact for any action and never changes anything; ``apply``
raises ``IllegalAction`` with the same reason. ``observe(seat)`` is the only
view a client or bot ever gets: redaction happens there and nowhere else.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Self

from cardhall.rules import Play

Event = dict[str, Any]
Observation = dict[str, Any]


class IllegalAction(ValueError):
    """An action that the game does not allow now; the message says why, for a player."""


@dataclass(frozen=True, slots=True)
class Action:
    """One decision: a verb and its canonical argument (``"bid 3"``, ``"play 333+4"``).

    ``seat`` is set only for the few actions a seat may take out of turn
    (leaving a game); ``play`` carries the parsed reading of a play so that
    applying it needs no second parse.
    """

    verb: str
    arg: str = ""
    seat: int | None = None
    play: Play | None = field(default=None, compare=False, hash=False, repr=False)

    @property
    def text(self) -> str:
        head = f"@{self.seat} " if self.seat is not None else ""
        return f"{head}{self.verb} {self.arg}" if self.arg else f"{head}{self.verb}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a variant: its default, and the values it accepts."""

    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    #: Validates and converts a supplied value; raises ValueError with a reason.
    convert: Callable[[Any], Any] | None = None

    def coerce(self, name: str, value: Any) -> Any:
        try:
            out = self.convert(value) if self.convert is not None else value
        except (TypeError, ValueError) as exc:
            raise IllegalAction(f"option {name}: {exc}") from None
        if self.choices is not None and out not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            raise IllegalAction(f"option {name} must be one of {allowed}, not {value!r}")
        return out


def flag(value: Any) -> bool:
    """Option converter: a boolean, also from the text a command line gives."""
    if isinstance(value, bool):
        return value
    if str(value).strip().lower() in ("true", "1", "yes", "on"):
        return True
    if str(value).strip().lower() in ("false", "0", "no", "off"):
        return False
    raise ValueError(f"true or false, not {value!r}")


def seat_or_none(value: Any) -> int | None:
    """Option converter: a seat number or None (range is checked by the option's choices)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"a seat number, not {value!r}")
    return value


@dataclass(frozen=True)
class Variant:
    """A playable variant: what the registry knows before a game starts."""

    id: str
    name: str
    players: int
    packs: int
    description: str
    options: Mapping[str, Option]
    factory: Callable[[Variant, int, dict[str, Any]], GameState]

    def resolve(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults filled in, every value checked; an unknown option is an error."""
        given = dict(options or {})
        unknown = sorted(set(given) - set(self.options))
        if unknown:
            raise IllegalAction(f"{self.id} has no option {unknown[0]!r}")
        return {name: opt.coerce(name, given[name]) if name in given else opt.default
                for name, opt in self.options.items()}


class GameState(ABC):
    """The contract. Subclasses implement the ``_``-prefixed hooks."""

    variant: Variant
    seed: int
    options: dict[str, Any]
    to_act: int | None
    phase: str

    def __init__(self, variant: Variant, seed: int, options: dict[str, Any]) -> None:
        self.variant = variant
        self.seed = seed
        self.options = options
        self.rng = random.Random(seed)
        self.actions: list[str] = []
        self.to_act = None
        self.phase = "start"

    @property
    def players(self) -> int:
        return self.variant.players

    @property
    def over(self) -> bool:
        return self.phase == "over"

    # -- the contract ------------------------------------------------------------------

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal action of ``to_act`` (empty when the game is over)."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """The action ``text`` names, canonicalised; IllegalAction if it names none."""

    @abstractmethod
    def _check(self, action: Action) -> str | None:
        """None if ``action`` is legal now, else the reason."""

    @abstractmethod
    def _apply(self, action: Action) -> list[Event]:
        """Carry out a legal action."""

    @abstractmethod
    def observe(self, seat: int) -> Observation:
        """Exactly what ``seat`` may know, as JSON-able data."""

    @abstractmethod
    def result(self) -> dict[str, Any] | None:
        """Per-seat score deltas and settlement detail once over, else None."""

    @abstractmethod
    def zones(self) -> dict[str, list[int]]:
        """Every card of the game by where it is now; together, always the whole deck."""

    @abstractmethod
    def deck_cards(self) -> list[int]:
        """The game's full deck, for conservation checks."""

    def check(self, action: Action | str, seat: int | None = None) -> str | None:
        """None if legal, else a reason a player understands. Never changes the state.

        ``seat``, when given, is who is asking (a server passes the connection's
        seat): an action from any seat but ``to_act`` is refused, except the few
        taken out of turn, which must name that seat (``"@2 escape"``).
        """
        try:
            act = self._coerce(action)
        except IllegalAction as exc:
            return str(exc)
        if self.over:
            return "the game is over"
        if seat is not None:
            if not 0 <= seat < self.players:
                return f"there is no seat {seat} in this {self.players}-player game"
            actor = self.to_act if act.seat is None else act.seat
            if seat != actor:
                return (f"it is seat {self.to_act}'s turn, not seat {seat}'s"
                        if act.seat is None else f"seat {seat} cannot act for seat {act.seat}")
        return self._check(act)

    def apply(self, action: Action | str, seat: int | None = None) -> list[Event]:
        """Carry out ``action`` (or its text); raise IllegalAction and change nothing if illegal."""
        act = self._coerce(action)
        reason = self.check(act, seat)
        if reason is not None:
            raise IllegalAction(reason)
        self.actions.append(act.text)
        return self._apply(act)

    def clone(self) -> Self:
        """An independent copy: applying actions to it leaves this state untouched."""
        twin = self.__class__.__new__(self.__class__)
        twin.__dict__.update(self._copy_fields())
        return twin

    def _copy_fields(self) -> dict[str, Any]:
        """Field values for a clone: containers copied two levels deep, values shared.

        Game states hold plain data (ints, tuples, frozen plays) in lists, dicts
        and sets, at most a list of lists (hands); copying those levels is
        enough for independence and far cheaper than ``deepcopy``.
        """
        fields: dict[str, Any] = {}
        for name, value in self.__dict__.items():
            copy: Any = value
            if isinstance(value, list):
                copy = [list(v) if isinstance(v, list) else
                        dict(v) if isinstance(v, dict) else v for v in value]
            elif isinstance(value, dict):
                copy = {k: list(v) if isinstance(v, list) else v for k, v in value.items()}
            elif isinstance(value, set):
                copy = set(value)
            fields[name] = copy
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        fields["rng"] = rng
        return fields

    def record(self) -> dict[str, Any]:
        """Everything needed to rebuild this game: ``replay(record)``.

        Every option is written out, defaults included, so a record still
        replays the same game if a later version changes a default.
        """
        return {"variant": self.variant.id, "options": dict(self.options), "seed": self.seed,
                "actions": list(self.actions)}

    def _coerce(self, action: Action | str) -> Action:
        if isinstance(action, Action):
            return action
        if not isinstance(action, str):
            raise IllegalAction(f"an action is text or an Action, not {type(action).__name__}")
        return self.parse_action(action)
