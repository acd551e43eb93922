"""The hall's settings: rooms, the bean economy and rate limits, from one TOML file.

An operator edits one file (``cardhall serve --config hall.toml``) and the hall must
refuse a bad one at start rather than misbehave later, so every key is typed and
checked here, unknown keys are errors (a misspelt ``min_bean`` would otherwise be
silently ignored), and each error names the key it is about
(``rooms[2].min_beans: ...``). Without a file every variant gets default rooms at
three stakes. A room's variant and options are checked against the games registry,
so a room that could never start a game is refused here.

    >>> cfg = default_config()
    >>> sorted({r.variant for r in cfg.rooms}) == sorted(VARIANTS)
    True
    >>> parse_config('[economy]\\nstarting_beans = -1').rooms  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardhall.hall.domain.config.ConfigError: economy.starting_beans: ...
"""

from __future__ import annotations

import ipaddress
import re
import tomllib
from collections.abc import Mapping
from itertools import pairwise
from pathlib import Path
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from cardhall.bots import SEATABLE, SamplingBot
from cardhall.bots.sampling import searches
from cardhall.games import VARIANTS, IllegalAction
from cardhall.hall.domain.ratings import SEAT_BOT


class ConfigError(ValueError):
    """A configuration file or value the hall cannot run with; the message names the key."""


class _Strict(BaseModel):
    # Unknown keys are errors and "10" is not 10: a config is written by hand, and a typo
    # that is accepted silently is worse than one refused at start.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


ROOM_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")


class Room(_Strict):
    """One room (场): a variant with fixed options at one stake.

    A player's beans change by ``X × N ∓ A`` per game (X his game points); ``M0`` is
    the initial multiplier, ``min_beans`` the balance needed to sit down,
    ``double_min_beans`` the balance a player must exceed to double (欢乐 rooms),
    ``bot_wait_seconds`` how long a queue waits before bots fill the empty seats
    (None: never), ``bot`` the bot that fills them (a rated identity of its own).
    """

    id: str
    #: Shown in the lobby; by default the variant's name and the room id.
    name: str = ""
    #: The name an English-speaking player sees; by default the variant's English name
    #: and the room id (``name`` when that is all an operator wrote).
    name_en: str = ""
    variant: str
    options: dict[str, Any] = Field(default_factory=dict)
    N: int = Field(ge=1)
    A: int = Field(ge=0)
    M0: int = Field(default=1, ge=1)
    min_beans: int = Field(ge=0)
    double_min_beans: int = Field(default=0, ge=0)
    turn_seconds: float = Field(default=20.0, gt=0, le=600)
    bot_wait_seconds: float | None = Field(default=None, ge=0)
    #: The least time a bot (or a seat on 托管) takes to answer, so that a person at the
    #: table can follow the play and take his seat back from 托管; 0: at once.
    bot_seconds: float = Field(default=0.0, ge=0, le=10)
    #: The bot that fills the empty seats (one of ``bots.SEATABLE``); a seat on 托管 is
    #: answered by the 托管 policy whatever this says.
    bot: str = SEAT_BOT
    #: Actions a watcher (观战) is behind the table; None: the hall's ``watching.delay``.
    watch_delay: int | None = Field(default=None, ge=0, le=100)
    #: Whether bot accounts (docs/bots.md) may quick-match here: off, a bot account's
    #: ``join`` is refused (``bots_not_allowed``), so no program takes a person's seat.
    bot_accounts: bool = False

    @model_validator(mode="before")
    @classmethod
    def _default_name(cls, data: Any) -> Any:
        if not isinstance(data, dict) or data.get("variant") not in VARIANTS:
            return data
        variant, room = VARIANTS[data["variant"]], data.get("id", "")
        if not data.get("name"):
            data = {**data, "name": f"{variant.name} {room}",
                    "name_en": data.get("name_en") or f"{variant.name_en or variant.id} {room}"}
        elif not data.get("name_en"):
            data = {**data, "name_en": data["name"]}
        return data

    @field_validator("bot")
    @classmethod
    def _seatable(cls, bot: str) -> str:
        if bot not in SEATABLE:
            raise ValueError(f"{bot!r} is not a bot the hall seats "
                             f"(it seats: {', '.join(SEATABLE)})")
        return bot

    @model_validator(mode="after")
    def _check_game(self) -> Self:
        if not ROOM_ID.match(self.id):
            raise ValueError(f"id {self.id!r}: lower-case letters, digits, _ and -, "
                             "at most 32, starting with a letter or digit")
        if self.variant not in VARIANTS:
            raise ValueError(f"variant {self.variant!r} is unknown "
                             f"(known: {', '.join(VARIANTS)})")
        try:
            VARIANTS[self.variant].resolve(self.options)
        except IllegalAction as exc:
            raise ValueError(f"options: {exc}") from None
        return self

    def resolved_options(self) -> dict[str, Any]:
        """The options with the variant's defaults filled in (what a game is started with)."""
        return VARIANTS[self.variant].resolve(self.options)


#: The variants an event (比赛场) plays: three-seat games first (docs/rulings.md, "Events").
EVENT_VARIANTS = ("ddz3", "ddz3_happy")


#: A duplicate event's most entrants and deals: its message carries every entrant's
#: result on every deal to every entrant, at each deal anyone finishes (~10 KB at most).
DUPLICATE_ENTRANTS, DUPLICATE_DEALS = 32, 24
#: A challenge's most deals (two entrants: its message stays small).
CHALLENGE_DEALS = 40


class EventKind(_Strict):
    """One kind of event (比赛场) the hall runs again and again: a sit-and-go knockout
    (``format``) of ``entrants`` players (bots fill after ``bot_wait_seconds``; None:
    never) who pay ``fee`` beans each. ``prizes`` are the places' shares of the fees
    paid, in percent, and ``house`` the hall's: they sum to 100. Every entrant starts
    with ``chips`` event chips (never beans); round ``r`` plays ``deals`` games at each
    table at ``stakes[r]`` chips a point, then only the best ``field[r + 1]`` by chips
    go on; the last round is one table.

    ``format = "duplicate"`` (复式, ``hall.events.duplicate``): every entrant plays the
    same ``deals`` deals alone with bots, at the same seat, and is ranked by comparison
    on each deal (matchpoints); ``entrants`` is any number from 2, there is one round
    (``field`` is the entrants, ``stakes`` 1) and ``chips`` is unused.

    A challenge (``hall.events.challenge``) is a duplicate event the hall makes for two
    competitors, never configured: ``rotate`` (deal ``i`` at seat ``i mod players``, so
    both sides of the game are played), any variant, up to ``CHALLENGE_DEALS`` deals,
    ``bots`` naming the bot that plays each entrant without a player (an anchor)."""

    id: str
    name: str = ""
    name_en: str = ""
    format: Literal["knockout", "duplicate"] = "knockout"
    variant: str = "ddz3"
    entrants: int = Field(default=6, ge=1, le=300)
    fee: int = Field(default=1_000, ge=0, le=10**12)
    prizes: tuple[int, ...] = (60, 30, 10)
    house: int = Field(default=0, ge=0, le=100)
    chips: int = Field(default=1_000, ge=1, le=10**9)
    deals: int = Field(default=3, ge=1, le=50)
    field_: tuple[int, ...] = Field(default=(), alias="field")
    stakes: tuple[int, ...] = ()
    bot_wait_seconds: float | None = Field(default=60.0, ge=0)
    turn_seconds: float = Field(default=20.0, gt=0, le=600)
    bot_seconds: float = Field(default=1.0, ge=0, le=10)
    #: Seconds a table waits after a deal before it deals the next (the result is read).
    between_seconds: float = Field(default=3.0, ge=0, le=60)
    #: A challenge's: the entrant's seat rotates deal by deal (``i mod players``).
    rotate: bool = False
    #: A challenge's: by entrant number, the bot playing him ("" for a player).
    bots: tuple[str, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _defaults(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
        if not data.get("name"):
            data["name"] = f"比赛 {data.get('id', '')}"
        if not data.get("name_en"):
            data["name_en"] = f"Event {data.get('id', '')}" if data["name"].startswith(
                "比赛") else data["name"]
        seats = VARIANTS[data["variant"]].players if data.get("variant") in VARIANTS else 3
        entrants = data.get("entrants", 6)
        if data.get("format") == "duplicate" and isinstance(entrants, int):
            data.setdefault("field", (entrants,))  # one round: everyone plays every deal
            data.setdefault("stakes", (1,))
        if not data.get("field") and isinstance(entrants, int) and entrants >= seats:
            field, n = [entrants], entrants
            while n > seats:  # about half go on each round, whole tables
                n = max(seats, (n // 2) // seats * seats)
                field.append(n)
            data["field"] = tuple(field)
        if not data.get("stakes") and isinstance(data.get("field"), tuple):
            data["stakes"] = tuple(2 ** r for r in range(len(data["field"])))
        return data

    @model_validator(mode="after")
    def _check_event(self) -> Self:
        if not ROOM_ID.match(self.id) or len(self.id) > 28:
            raise ValueError(f"id {self.id!r}: lower-case letters, digits, _ and -, "
                             "at most 28, starting with a letter or digit")
        if self.rotate:  # a challenge: made by the hall, checked by its maker
            if self.format != "duplicate" or self.variant not in VARIANTS \
                    or self.entrants != 2 or not 1 <= self.deals <= CHALLENGE_DEALS:
                raise ValueError("a challenge: a duplicate match of two, any variant")
            return self
        if self.bots:
            raise ValueError("bots: a challenge's (the hall's), not configured")
        if self.variant not in EVENT_VARIANTS:
            raise ValueError(f"variant {self.variant!r}: events play "
                             f"{', '.join(EVENT_VARIANTS)}")
        seats = VARIANTS[self.variant].players
        f = self.field_
        if self.format == "duplicate":
            if not 2 <= self.entrants <= DUPLICATE_ENTRANTS or f != (self.entrants,) \
                    or self.stakes != (1,) or self.deals > DUPLICATE_DEALS:
                raise ValueError(f"a duplicate event: 2 to {DUPLICATE_ENTRANTS} entrants, "
                                 f"at most {DUPLICATE_DEALS} deals, one round "
                                 "(field = [entrants], stakes = [1])")
        elif not f or f[0] != self.entrants or f[-1] != seats or any(
                n % seats or n >= before for before, n in pairwise(f)) \
                or f[0] % seats:
            raise ValueError(f"field {list(f)}: the players in each round, from entrants "
                             f"({self.entrants}) down to one table ({seats}), each fewer "
                             f"and a multiple of {seats}")
        if len(self.stakes) != len(f) or any(s < 1 for s in self.stakes):
            raise ValueError(f"stakes: one chips-a-point of at least 1 per round ({len(f)})")
        if any(p < 1 for p in self.prizes) or len(self.prizes) > self.entrants \
                or sum(self.prizes) + self.house != 100:
            raise ValueError("prizes (percent per place, each at least 1, no more places "
                             "than entrants) and house must sum to 100")
        return self

    @property
    def seats(self) -> int:
        return VARIANTS[self.variant].players

    def room(self) -> Room:
        """The room its tables play in: no beans (its games are points only), its pace."""
        return Room(id=f"ev-{self.id}", name=self.name, name_en=self.name_en,
                    variant=self.variant, N=1, A=0, min_beans=0,
                    turn_seconds=self.turn_seconds, bot_seconds=self.bot_seconds)


def default_events() -> tuple[EventKind, ...]:
    """A six-player knockout of each event variant (6 → 3), 1 000 beans in, and a
    four-player 复式 of 三人斗地主 over six deals, so a new hall offers both formats."""
    knockouts = tuple(EventKind(id=f"{v}-sng6", name=f"{VARIANTS[v].name} 六人淘汰赛",
                                name_en=f"{VARIANTS[v].name_en or v} 6-player knockout",
                                variant=v) for v in EVENT_VARIANTS)
    duplicate = EventKind(id="ddz3-dup4", name=f"{VARIANTS['ddz3'].name} 四人复式赛",
                          name_en=f"{VARIANTS['ddz3'].name_en or 'ddz3'} 4-player duplicate",
                          format="duplicate", variant="ddz3", entrants=4, deals=6)
    return (*knockouts, duplicate)


class Relief(_Strict):
    """The daily relief grant (救济): ``amount`` beans to a player whose balance is below
    ``below``, at most ``per_day`` times per UTC day, so nobody is locked out for good."""

    amount: int = Field(default=2_000, ge=1)
    per_day: int = Field(default=3, ge=0)
    below: int = Field(default=1_000, ge=1)


class Economy(_Strict):
    """Beans (欢乐豆): what a new account gets, the relief grant, item prices."""

    starting_beans: int = Field(default=10_000, ge=0)
    relief: Relief = Field(default_factory=Relief)
    golden_eye_price: int = Field(default=1_000, ge=1)


class Limits(_Strict):
    """Abuse limits: per client address for new accounts and logins, per connection for
    WebSocket messages, per player and per address for wrong invite codes, and the
    connection edge's bounds (docs/operations.md, "[limits]").

    The edge's bounds exist because an idle socket costs the hall memory and a file
    descriptor while costing the attacker nothing: every connection must say who it is
    (``hello_seconds``) or finish its request head (``header_seconds``) and body
    (``body_seconds``) quickly, and no address (``connections_per_address``) nor all of
    them (``connections_total``) may hold more than their share.
    """

    guests_per_minute: int = Field(default=10, ge=1)
    logins_per_minute: int = Field(default=20, ge=1)
    #: Bot account changes (made, new token, retired) one player may make a minute.
    bot_changes_per_minute: int = Field(default=5, ge=1)
    messages_per_second: int = Field(default=20, ge=1)
    #: A client that opted into deltas gets a full ``state`` of a table at least every
    #: this many messages of it (docs/protocol.md, "Deltas"): 1 sends only full states.
    full_state_every: int = Field(default=20, ge=1, le=10_000)
    #: Finished games rendered per minute for one address, and for one account (a game
    #: already rendered is served from memory and not counted).
    replays_per_minute: int = Field(default=30, ge=1)
    #: Memory for rendered finished games (MiB), least recently used dropped first.
    replay_cache_mb: int = Field(default=64, ge=1, le=65_536)
    #: Wrong invite codes a player may try per hour, and all players of one address.
    code_failures_per_hour: int = Field(default=10, ge=1)
    code_failures_per_hour_per_address: int = Field(default=30, ge=1)
    #: Post-game analyses one client address may have queued or running at once (the
    #: queue holds 8 in all): guests are free, so a per-account bound alone let one
    #: address fill the queue with a few guest tokens.
    analyses_per_address: int = Field(default=2, ge=1)
    #: What-if lines one client address may ask for a minute (each is a bot playout in
    #: the analysis worker, 8 at once for everyone).
    whatifs_per_minute: int = Field(default=20, ge=1)
    #: Quick chat (docs/protocol.md, "Quick chat"): a player's lines at least this many
    #: seconds apart, and at most this many a minute.
    chat_gap_seconds: float = Field(default=2.0, gt=0, le=60)
    chat_lines_per_minute: int = Field(default=10, ge=1, le=60)

    #: Seconds a WebSocket has to say a valid ``hello`` before it is closed (4002).
    hello_seconds: float = Field(default=5.0, gt=0, le=300)
    #: Seconds an HTTP request head (and a WebSocket's handshake) has to arrive whole,
    #: from the connection's start or the end of its previous response.
    header_seconds: float = Field(default=10.0, gt=0, le=300)
    #: Seconds a request body has to arrive whole (408 after).
    body_seconds: float = Field(default=10.0, gt=0, le=300)
    #: Open connections (HTTP keep-alive and WebSocket alike) from one peer address; a
    #: trusted proxy's own connections count only in the total.
    connections_per_address: int = Field(default=64, ge=1)
    #: New connections a minute from one peer address (20 at once at most, then this
    #: rate); a trusted proxy's are not counted.
    connects_per_minute: int = Field(default=60, ge=1)
    #: Open connections in all; lowered at start to what the process's file limit allows.
    connections_total: int = Field(default=10_000, ge=1)
    #: New connections the hall accepts a second, from everyone (a second's worth at
    #: once): past it the kernel's queue holds them, so a connect flood costs the event
    #: loop this many accepts a second at most (docs/security.md).
    accepts_per_second: int = Field(default=1_000, ge=1)
    #: Peers whose ``X-Forwarded-For`` names the client (addresses or networks, e.g.
    #: ``["10.0.0.5", "192.168.0.0/24"]``); none by default: the peer is the client.
    trusted_proxies: tuple[str, ...] = ()
    #: Lines with the same message template a logger writes at most per
    #: ``log_repeat_seconds``; past it one "suppressed K similar lines" line per window.
    log_repeats: int = Field(default=100, ge=1)
    log_repeat_seconds: float = Field(default=60.0, gt=0)

    @model_validator(mode="before")
    @classmethod
    def _proxies_tuple(cls, data: Any) -> Any:
        # TOML arrays arrive as lists; a tuple field in strict mode wants a tuple.
        if isinstance(data, dict) and isinstance(data.get("trusted_proxies"), list):
            data = {**data, "trusted_proxies": tuple(data["trusted_proxies"])}
        return data

    @model_validator(mode="after")
    def _check_proxies(self) -> Self:
        for entry in self.trusted_proxies:
            try:
                ipaddress.ip_network(entry, strict=False)
            except ValueError:
                raise ValueError(f"trusted_proxies: {entry!r} is not an IP address or "
                                 "network (e.g. 10.0.0.5 or 10.0.0.0/8)") from None
        return self


class ActionLog(_Strict):
    """How the action log groups its commits (docs/operations.md, "Durability and the
    action log's group commit").

    ``gather_ms``: while actions arrive faster than one per this many milliseconds, a
    batch waits up to this long for more before it commits (PostgreSQL's
    ``commit_delay``): fewer commits, fsyncs and hand-offs for a few milliseconds more
    per action. 0 commits each batch at once.
    """

    gather_ms: float = Field(default=8.0, ge=0, le=100)


class MetricsAccess(_Strict):
    """Who may read ``GET /metrics``: whoever sends the token kept in ``token_file``
    (``Authorization: Bearer …``); nobody when it is not set. The token lives in a file,
    not here, so the config can be shared without it (docs/operations.md)."""

    token_file: str | None = None


class Accounts(_Strict):
    """Sessions and logins (hall.store.sessions, hall.store.lockout).

    A registered player's session lasts ``session_days`` from its login and ends sooner
    when unused for ``idle_days`` (0: no idle limit); a guest's (his only key to the
    account) ends only when unused for ``guest_idle_days``. ``lockout_after`` wrong
    passwords in a row for one name lock its new logins for ``lockout_seconds``,
    doubling with each further failure up to ``lockout_max_seconds``; failures are
    forgotten after ``lockout_forget_hours`` without one.
    """

    session_days: float = Field(default=30.0, gt=0, le=3650)
    idle_days: float = Field(default=7.0, ge=0, le=3650)
    guest_idle_days: float = Field(default=90.0, gt=0, le=3650)
    lockout_after: int = Field(default=5, ge=1, le=1000)
    lockout_seconds: float = Field(default=60.0, gt=0, le=86_400)
    lockout_max_seconds: float = Field(default=900.0, gt=0, le=86_400)
    lockout_forget_hours: float = Field(default=24.0, gt=0, le=8760)
    #: Bot accounts (docs/bots.md) one registered player may hold (retired ones not
    #: counted); 0: nobody may make one.
    bots_per_owner: int = Field(default=5, ge=0, le=100)

    @model_validator(mode="after")
    def _cap_above_first(self) -> Self:
        if self.lockout_max_seconds < self.lockout_seconds:
            raise ValueError("lockout_max_seconds is below lockout_seconds")
        return self


class Watching(_Strict):
    """观战: how far behind the table a watcher sees it (``delay`` actions, unless the
    room says ``watch_delay``), and the bounds on what watchers make the hall spend:
    watchers per table (each is sent every change) and tables one player watches."""

    delay: int = Field(default=3, ge=0, le=100)
    per_table: int = Field(default=20, ge=1, le=1000)
    per_player: int = Field(default=3, ge=1, le=64)


class Ladder(_Strict):
    """Challenges and the bot ladder (``hall.events.challenge``, docs/operations.md):
    a match is ``deals`` deals by default (a challenger may ask ``min_deals`` to
    ``max_deals``); every ``interval_seconds`` (None: the continuous ladder is off) the
    hall pairs the opted-in competitors who are online, and the anchors. A challenger
    may make ``per_hour`` challenges an hour. ``anchors``: the built-in bots one may
    challenge, each with its fixed ladder rating (μ, the scale's anchors: never moved).
    The tables' pace: ``turn_seconds`` a turn, bots answer after ``bot_seconds``, the
    next deal after ``between_seconds``."""

    interval_seconds: float | None = Field(default=None, gt=0)
    deals: int = Field(default=8, ge=1, le=CHALLENGE_DEALS)
    min_deals: int = Field(default=2, ge=1, le=CHALLENGE_DEALS)
    max_deals: int = Field(default=CHALLENGE_DEALS, ge=1, le=CHALLENGE_DEALS)
    per_hour: int = Field(default=30, ge=1, le=10_000)
    anchors: dict[str, float] = Field(default_factory=lambda: {"planning": 25.0,
                                                                 "search": 27.0})
    turn_seconds: float = Field(default=20.0, gt=0, le=600)
    bot_seconds: float = Field(default=0.0, ge=0, le=10)
    between_seconds: float = Field(default=0.5, ge=0, le=60)

    @model_validator(mode="after")
    def _check_ladder(self) -> Self:
        if not self.min_deals <= self.deals <= self.max_deals:
            raise ValueError("deals: between min_deals and max_deals")
        if any(a not in SEATABLE for a in self.anchors):
            raise ValueError(f"anchors: bots the hall seats ({', '.join(SEATABLE)})")
        return self


class HallConfig(_Strict):
    """Everything a hall is configured with."""

    rooms: tuple[Room, ...] = ()
    economy: Economy = Field(default_factory=Economy)
    limits: Limits = Field(default_factory=Limits)
    action_log: ActionLog = Field(default_factory=ActionLog)
    metrics: MetricsAccess = Field(default_factory=MetricsAccess)
    accounts: Accounts = Field(default_factory=Accounts)
    events: tuple[EventKind, ...] = Field(default_factory=default_events)
    watching: Watching = Field(default_factory=Watching)
    ladder: Ladder = Field(default_factory=Ladder)

    @model_validator(mode="after")
    def _unique_rooms(self) -> Self:
        seen: set[str] = set()
        for room in self.rooms:
            if room.id in seen:
                raise ValueError(f"room id {room.id!r} is used twice")
            seen.add(room.id)
        if len({e.id for e in self.events}) != len(self.events):
            raise ValueError("an event id is used twice")
        if any(e.id.startswith("ch-") for e in self.events):
            raise ValueError("an event id starting with 'ch-' is a challenge's (the hall's)")
        return self

    def room(self, room_id: str) -> Room:
        """The room with that id; KeyError names it when there is none."""
        for r in self.rooms:
            if r.id == room_id:
                return r
        raise KeyError(f"no room {room_id!r}")


# (suffix, title, English title, N, A, min_beans, double_min_beans, bot_wait_seconds):
# stakes grow ten times per step so the same starting beans last many games in 新手 and
# few in 高级.
STAKES: tuple[tuple[str, str, str, int, int, int, int, float | None], ...] = (
    ("novice", "新手场", "Novice", 10, 5, 0, 2_000, 10.0),
    ("junior", "初级场", "Junior", 100, 30, 5_000, 20_000, 30.0),
    ("senior", "高级场", "Senior", 1_000, 300, 50_000, 200_000, None),
)


#: The built-in rooms' pace: bots answer after a second, as in the big halls, so a game
#: against bots (or a seat on 托管) does not flash past the person watching it.
BOT_SECONDS = 1.0
#: The stake whose default rooms seat the search bot: the highest one that bots fill
#: (高级场 has none), so the strongest bot meets the strongest players and ``bot:search``
#: earns a rating in a default hall. Only where it searches (``sampling.searches``: the
#: Dou Dizhu variants); elsewhere its every move is planning's, and planning sits there.
SEARCH_STAKE = "junior"


def default_bot(variant: str, stake: str) -> str:
    """The bot of a default room (``SEARCH_STAKE``)."""
    return SamplingBot.name if stake == SEARCH_STAKE and searches(variant) else SEAT_BOT


#: The default hall's one room open to bot accounts (机器人场, docs/bots.md): 三人斗地主 at
#: the novice stake, the hall's bots filling after 10 s, so a bot account alone still
#: plays; people may come too, knowing whom they meet there.
BOT_ROOM = "ddz3-bots"


def default_rooms() -> tuple[Room, ...]:
    """Three rooms per variant (新手/初级/高级), ids ``<variant>-<stake>``, and the bot
    room (``BOT_ROOM``)."""
    stakes = tuple(
        Room(id=f"{vid}-{suffix}", name=f"{v.name} {title}",
             name_en=f"{v.name_en or vid} {title_en}", variant=vid, N=n, A=a,
             min_beans=min_beans, double_min_beans=double, bot_wait_seconds=wait,
             bot_seconds=BOT_SECONDS, bot=default_bot(vid, suffix))
        for vid, v in VARIANTS.items()
        for suffix, title, title_en, n, a, min_beans, double, wait in STAKES
    )
    _, _, _, n, a, _, double, wait = STAKES[0]
    bots = Room(id=BOT_ROOM, name=f"{VARIANTS['ddz3'].name} 机器人场",
                name_en=f"{VARIANTS['ddz3'].name_en} Bot room", variant="ddz3", N=n, A=a,
                min_beans=0, double_min_beans=double, bot_wait_seconds=wait,
                bot_seconds=BOT_SECONDS, bot_accounts=True)
    return (*stakes, bots)


def _where(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def from_mapping(data: Mapping[str, Any]) -> HallConfig:
    """Validated settings from parsed TOML; no ``[[rooms]]`` means the default rooms."""
    data = dict(data)
    if "rooms" not in data:
        data["rooms"] = default_rooms()
    elif isinstance(data["rooms"], list) and not data["rooms"]:
        raise ConfigError("rooms: an empty list; leave [[rooms]] out for the default rooms")
    elif isinstance(data["rooms"], list):
        # TOML arrays arrive as lists; a tuple field in strict mode wants a tuple.
        data["rooms"] = tuple(data["rooms"])
    if isinstance(data.get("events"), list):
        data["events"] = tuple(data["events"])
    try:
        return HallConfig.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        msg = first["msg"].removeprefix("Value error, ")
        raise ConfigError(f"{_where(first['loc'])}: {msg}") from None


def parse_config(text: str, source: str = "<config>") -> HallConfig:
    """Settings from TOML text; ConfigError names the file and line for bad TOML."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from None
    return from_mapping(data)


def load_config(path: str | Path | None) -> HallConfig:
    """Settings from a TOML file, or the defaults when ``path`` is None."""
    if path is None:
        return default_config()
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read the config file: {exc.strerror}") from None
    return parse_config(text, str(p))


def default_config() -> HallConfig:
    """The settings of a hall started without a config file."""
    return from_mapping({})
