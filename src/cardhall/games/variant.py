"""What the registry knows of a variant before a game starts, as one declaration.

A variant is one ``Variant`` (``games.VARIANTS``): players, packs, version,
options, and everything the other layers would otherwise look up by its id:
its rule set object, its layout (cards per seat, kitty, dead cards), the bots'
rating scale and the clients' display hints. Options are data a hall or a
browser can read (``describe``) to build a room form without running Python;
``resolve`` fills defaults and checks every value, so a game only ever starts
from valid options. docs/adding-a-variant.md shows a new variant declared.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

from cardhall.cards import RANK_CHARS, card_rank
from cardhall.games.errors import BadSetup, clip, excerpt

if TYPE_CHECKING:
    from cardhall.games.base import GameState
    from cardhall.rules import RuleSet


OptionKind = Literal["bool", "int", "number", "seat", "choice", "text", "deal"]


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a variant: its default, the values it accepts, and words for a form.

    ``describe()`` is the same facts as plain data, so a hall or a browser can
    build a room form without running Python.
    """

    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    #: Validates and converts a supplied value; raises ValueError with a reason.
    convert: Callable[[Any], Any] | None = None
    kind: OptionKind | None = None
    help_zh: str = ""
    minimum: float | None = None
    maximum: float | None = None

    def coerce(self, name: str, value: Any) -> Any:
        try:
            out = self.convert(value) if self.convert is not None else value
        except (TypeError, ValueError) as exc:
            raise BadSetup("bad_option", f"option {name}: {exc}", option=name) from None
        if self.choices is not None and out not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            raise BadSetup("bad_option", f"option {name} must be one of {allowed}, not "
                           f"{value!r}", option=name)
        if isinstance(out, (int, float)) and not isinstance(out, bool):
            if self.minimum is not None and out < self.minimum:
                raise BadSetup("bad_option", f"option {name} must be at least {self.minimum}, "
                               f"not {out}", option=name)
            if self.maximum is not None and out > self.maximum:
                raise BadSetup("bad_option", f"option {name} must be at most {self.maximum}, "
                               f"not {out}", option=name)
        return out

    def resolved_kind(self) -> OptionKind:
        if self.kind is not None:
            return self.kind
        if isinstance(self.default, bool):
            return "bool"
        if self.choices is not None:
            return "choice"
        if isinstance(self.default, int):
            return "int"
        if isinstance(self.default, float):
            return "number"
        return "text"

    def describe(self, name: str) -> dict[str, Any]:
        out: dict[str, Any] = {"name": name, "kind": self.resolved_kind(),
                               "default": self.default, "help": self.help,
                               "help_zh": self.help_zh or self.help}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
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
class Layout:
    """How a variant deals: cards per seat, the kitty, and cards out of play."""

    hand: int
    kitty: int
    dead: int = 0

    @property
    def largest(self) -> int:
        """The largest hand a seat holds: a hand and the kitty (the landlord's)."""
        return self.hand + self.kitty


@dataclass(frozen=True)
class Ratings:
    """Where the bots' rating of a hand as dealt falls in this variant: its median and
    spread over many deals (``benchmarks/calibrate.py`` measures them). The bots bid,
    call and rob by a hand's percentile on this scale (bots/setup.py)."""

    median: float
    spread: float


#: A role's label in both languages: (中文, English).
Label = tuple[str, str]


@dataclass(frozen=True)
class Display:
    """How a client shows the variant, so that no client switches on its id.

    ``roles``: labels for the roles a view names that this variant calls its own
    way (斗帝主's emperor is 帝主), and for roles a client derives from the view's
    detail (五人's open and hidden landlord). ``sort``: how a hand is fanned:
    ``rank`` (biggest first) or ``trump`` (jokers, level cards and the trump suit
    first, then suit by suit). ``facts``: the keys of a view's detail shown in the
    line of facts above the table, in order (a trick game's level, trump, friend
    call and points). ``actions``: button labels of its own, keyed ``phase:text``
    (an exact action in a phase) or ``verb`` (``{arg}`` stands for the rest, as
    cards): 保皇's ``call`` names a guard, not a landlord.
    """

    roles: Mapping[str, Label] = field(default_factory=dict)
    sort: Literal["rank", "trump"] = "rank"
    facts: tuple[str, ...] = ()
    actions: Mapping[str, Label] = field(default_factory=dict)

    def describe(self, suits: bool) -> dict[str, Any]:
        def labels(table: Mapping[str, Label]) -> dict[str, dict[str, str]]:
            return {key: {"zh": zh, "en": en} for key, (zh, en) in table.items()}

        return {"roles": labels(self.roles), "sort": self.sort, "facts": list(self.facts),
                "actions": labels(self.actions), "suits": suits}


@dataclass(frozen=True)
class Variant:
    """A playable variant: what the registry knows before a game starts.

    ``version`` is bumped whenever the same record would play differently
    (rules, deal, action texts, the generator); a record carries it, and a
    record of another version is refused rather than replayed wrongly.
    """

    id: str
    name: str
    players: int
    packs: int
    description: str
    options: Mapping[str, Option]
    factory: Callable[[Variant, int, dict[str, Any]], GameState]
    version: int = 1
    name_en: str = ""
    #: Whether plays name suited cards (找朋友 follows suit): a card counter then counts
    #: suits as well as ranks. In the climbing games a play is its ranks alone.
    suits: bool = False
    #: Options that are never shown in a view (a given deal names every hand).
    secret_options: tuple[str, ...] = ("deal",)
    #: The climbing rule set its plays follow (hand types, bomb ladder); None for a
    #: trick game, whose plays follow suit (rules/trick.py).
    rules: RuleSet | None = None
    #: How it deals (a climbing game deals by it; a trick game declares it for clients).
    layout: Layout | None = None
    #: The bots' rating scale of dealt hands; None: a neutral scale.
    ratings: Ratings | None = None
    display: Display = field(default_factory=Display)
    #: The seats of the side a finished game was played against, read from its result's
    #: detail (``games.sides``: the landlord, 五人's two, 找朋友's dealer and friend, 保皇's
    #: emperor and guard), for a team-aware rating; None: the winners against the rest.
    side: Callable[[Mapping[str, Any]], list[int]] | None = None

    def __post_init__(self) -> None:
        if self.rules is not None and self.rules.packs != self.packs:
            raise ValueError(f"{self.id}: {self.packs} packs, but its rule set deals "
                             f"{self.rules.packs}")

    def __copy__(self) -> Variant:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Variant:
        """The declaration itself: it is immutable and shared by every game of the variant,
        so a copied game (a test's ``deepcopy``) must not copy it, nor the rule set it
        holds with its move tables."""
        return self

    @property
    def family(self) -> Literal["climbing", "trick"]:
        """``climbing`` (a play beats the last one by the rule set) or ``trick``."""
        return "trick" if self.rules is None else "climbing"

    def resolve(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults filled in, every value checked; an unknown option is an error."""
        if options is not None and not isinstance(options, Mapping):
            raise BadSetup("bad_option", f"options are a table of names to values, not "
                           f"{type(options).__name__}", option="")
        given = dict(options or {})
        unknown = sorted(set(given) - set(self.options), key=str)
        if unknown:
            raise BadSetup("bad_option", f"{self.id} has no option "
                           f"{excerpt(str(unknown[0]))}", option=clip(str(unknown[0])))
        return {name: opt.coerce(name, given[name]) if name in given else opt.default
                for name, opt in self.options.items()}

    @cached_property
    def deck(self) -> dict[str, int]:
        """How many cards of each rank the deck holds (保皇 has no 3, 4 or 5), from a game's
        own deck, so that a card counter never starts from a wrong total."""
        held = Counter(card_rank(c) for c in self.factory(self, 0, self.resolve({})).deck_cards())
        return {char: held[rank] for rank, char in enumerate(RANK_CHARS)}

    def describe(self) -> dict[str, Any]:
        """The variant as plain data: for a lobby, a room form, a client's help."""
        return {"id": self.id, "name": self.name, "name_en": self.name_en or self.id,
                "players": self.players, "packs": self.packs, "version": self.version,
                "suits": self.suits, "deck": dict(self.deck),
                "description": self.description, "family": self.family,
                "rule_set": None if self.rules is None else self.rules.description,
                "layout": None if self.layout is None else {
                    "seats": self.players, "hand": self.layout.hand,
                    "kitty": self.layout.kitty, "dead": self.layout.dead},
                "display": self.display.describe(self.suits),
                "options": [opt.describe(name) for name, opt in self.options.items()
                            if name not in self.secret_options]}
