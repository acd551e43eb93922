"""Every message of the hall protocol, typed (pydantic v2, strict): one place for the wire.

The names a client depends on are fixed by the wire contract (docs/protocol.md):
client messages ``hello``, ``join``, ``act``, ``next``, ``leave``; server
messages ``welcome``, ``state``, ``settled``, ``error``. The rest extends it.
Inbound messages are parsed by ``parse_client`` and nothing else: strict types
(``"seq": "6"`` is malformed), bounded strings, no unknown fields, so that
everything past it can trust what it holds.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    ValidationError,
    model_serializer,
    model_validator,
)
from pydantic_core import PydanticCustomError

from cardhall.games.errors import Param
from cardhall.protocol.chat import Say

#: The largest text message the server reads (the wire contract: up to 1 MiB gets an
#: ``error`` and the connection stays; only larger frames may close it).
MAX_MESSAGE_BYTES = 1 << 20
#: Nesting deeper than any message of this protocol needs is refused before parsing.
MAX_DEPTH = 8

Id = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]

ErrorCode = Literal[
    "malformed", "too_large", "unknown_type", "not_authenticated", "already_authenticated",
    "bad_token", "banned", "superseded", "unknown_room", "unknown_table", "not_seated",
    "not_your_turn", "stale", "illegal", "rate_limited", "not_enough_beans", "busy",
    "forbidden", "not_allowed", "internal", "session_expired", "unavailable", "bots_not_allowed",
]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# -- client → server --------------------------------------------------------------------


class Hello(_Msg):
    """First message of a connection: who it is. A second one is refused."""

    type: Literal["hello"]
    token: Annotated[str, Field(min_length=1, max_length=256)]
    #: Opt into deltas (docs/protocol.md, "Deltas"): after a full ``state`` per table,
    #: each change comes as a ``delta`` (the seat's events, the new seq, the view's hash).
    deltas: bool = False


class Join(_Msg):
    """Quick match in a room (``room``), or a seat at a friend's private table (``code``).

    Sent after the player's game at a table is settled, it leaves that table first.
    """

    type: Literal["join"]
    room: Id | None = None
    code: Annotated[str, Field(min_length=4, max_length=16, pattern=r"^[A-Z0-9]+$")] | None = None

    @model_validator(mode="after")
    def _somewhere(self) -> Join:
        if self.room is None and self.code is None:
            raise PydanticCustomError("where", "give a room or an invite code")
        return self


class Act(_Msg):
    """An action in the game at ``table``, on the state numbered ``seq``.

    ``action`` is canonical action text; ``auto on`` / ``auto off`` toggles 托管
    (the hall says which seat). An action on a stale ``seq`` is refused.
    """

    type: Literal["act"]
    table: Id
    action: Annotated[str, Field(min_length=1, max_length=256)]
    seq: Annotated[int, Field(ge=0, le=1_000_000)]
    #: Refuse cards that read several legal ways even where the game prefers one
    #: (癞子 3339: the soft bomb over 三带一), answering with the readings to choose from:
    #: a client that sends bare cards (the browser, from the ``plays`` diagram) asks so.
    choose: bool = False


class Next(_Msg):
    """After a settled game: play on at this table."""

    type: Literal["next"]
    table: Id


class Leave(_Msg):
    """Leave a table (with the game's consequence if a game is running), or the queue."""

    type: Literal["leave"]
    table: Id | None = None
    room: Id | None = None

    @model_validator(mode="after")
    def _something(self) -> Leave:
        if self.table is None and self.room is None:
            raise PydanticCustomError("where", "give a table or a room")
        return self


class Private(_Msg):
    """Open a private table in ``room`` for friends; ``bots`` fill empty seats on ``start``."""

    type: Literal["private"]
    room: Id
    bots: bool = False
    #: False: nobody but an admin may watch it (观战).
    spectators: bool = True


class Start(_Msg):
    """The private table's owner starts it now, bots filling the empty seats."""

    type: Literal["start"]
    table: Id


class Watch(_Msg):
    """Watch a table (观战): any player, a few actions behind, the public view only;
    ``leave`` with the table stops (docs/protocol.md, "Watching")."""

    type: Literal["watch"]
    table: Id


class Chat(_Msg):
    """Say one of the catalog's phrases or emotes (``protocol.chat``) at ``table``, where
    the player sits: a watcher may not speak; an unknown id is malformed."""

    type: Literal["chat"]
    table: Id
    say: Say


class Mute(_Msg):
    """Stop (``on``) or again hear (``on`` false) the chat of ``seat`` at ``table``."""

    type: Literal["mute"]
    table: Id
    seat: Annotated[int, Field(ge=0, le=15)]
    on: bool


class Spectators(_Msg):
    """The private table's owner opens (``on``) or closes it to spectators (观战) while it
    lives: closing sends its watchers but admins away (docs/protocol.md, "Watching")."""

    type: Literal["spectators"]
    table: Id
    on: bool


class Bring(_Msg):
    """Invite a friend to the private table the sender sits at: the friend is sent a
    ``brought`` with its code (docs/protocol.md, "Friends")."""

    type: Literal["bring"]
    table: Id
    player: Id


class Ping(_Msg):
    type: Literal["ping"]


class Enter(_Msg):
    """Enter the open event of ``kind`` (比赛场), paying its fee."""

    type: Literal["enter"]
    kind: Id


class Withdraw(_Msg):
    """Leave ``event`` before it starts: the fee comes back, once."""

    type: Literal["withdraw"]
    event: Id


class Resync(_Msg):
    """A delta client whose rebuilt view of ``table`` went wrong asks for it whole: the
    answer is the table's last ``state``, in full (the connection's, not the table's)."""

    type: Literal["resync"]
    table: Id


ClientMessage = Annotated[
    Hello | Join | Act | Next | Leave | Private | Start | Watch | Chat | Mute | Bring | Ping
    | Resync | Enter | Withdraw | Spectators, Field(discriminator="type")]
#: What an authenticated player asks of the hall (``Hall.handle``): every client message
#: but the connection's own, ``hello`` and ``resync`` (``server.ws`` answers those).
HallMessage = (Join | Act | Next | Leave | Private | Start | Watch | Chat | Mute | Bring | Ping
               | Enter | Withdraw | Spectators)
_CLIENT: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
CLIENT_TYPES = ("hello", "join", "act", "next", "leave", "private", "start", "watch", "chat",
                "mute", "ping", "resync", "bring", "enter", "withdraw", "spectators")


class ProtocolError(ValueError):
    """An inbound message that cannot be taken; ``code`` is the wire's error code.

    ``readings``: for an ``act`` refused because its cards read several ways, the
    acting seat's legal action texts they may mean (the ``error``'s ``readings``).
    ``reason`` and ``params``: for an ``act`` the game refused, its typed refusal's
    reason code and params (``games.reasons`` says them in zh or en). The hall's
    refusals become one in one place, ``cardhall.server.refusals``.
    """

    def __init__(self, code: ErrorCode, message: str,
                 readings: list[str] | None = None, *, reason: str | None = None,
                 params: dict[str, Param] | None = None) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.readings = readings
        self.reason = reason
        self.params = params


def _depth(value: Any, limit: int) -> int:
    """How deeply ``value`` nests, counting no further than ``limit`` (iterative)."""
    stack = [(value, 1)]
    deepest = 0
    while stack:
        item, d = stack.pop()
        deepest = max(deepest, d)
        if d > limit:
            return d
        if isinstance(item, dict):
            stack.extend((v, d + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, d + 1) for v in item)
    return deepest


def parse_client(text: str | bytes) -> ClientMessage:
    """The message ``text`` holds, or ProtocolError naming what is wrong with it."""
    size = len(text.encode() if isinstance(text, str) else text)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    if len(text) > 64 * 1024:
        # No message of this protocol comes near: refuse before spending time parsing.
        raise ProtocolError("too_large", "a message of this protocol is at most 64 KiB")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("malformed", "not a JSON text") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "a message is a JSON object with a \"type\"")
    # A value nests at most as deep as its text has brackets: most messages have too
    # few to need the walk.
    brackets = text.count(b"[") + text.count(b"{") if isinstance(text, bytes) \
        else text.count("[") + text.count("{")
    if brackets > MAX_DEPTH and _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise ProtocolError("malformed", "the message nests too deeply")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("malformed", "a message needs a \"type\" text")
    if kind not in CLIENT_TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {kind[:32]!r} "
                            f"(known: {', '.join(CLIENT_TYPES)})")
    try:
        return _CLIENT.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        raise ProtocolError("malformed", f"{kind}: {where}: {first['msg']}") from None


# -- server → client --------------------------------------------------------------------


class PlayerInfo(_Msg):
    id: str
    name: str
    beans: int
    points: int
    title: str
    guest: bool
    admin: bool = False
    #: A bot account (docs/bots.md): its title is a bot's, and rooms may refuse it.
    bot: bool = False


class Welcome(_Msg):
    type: Literal["welcome"] = "welcome"
    player: PlayerInfo
    tables: list[str]


class SeatInfo(_Msg):
    """Who sits in a seat, as every player at the table sees it."""

    seat: int
    id: str | None
    name: str
    title: str
    #: Played by a program: the hall's bot (``id`` null) or a bot account (``id`` set).
    bot: bool
    connected: bool
    auto: bool
    #: Between games: this player asked for the next one (再来一局); bots always have.
    next: bool = False


class State(_Msg):
    """A table after a change: ``view`` is exactly the engine's ``observe(seat)``.

    ``seq`` counts the actions accepted in game ``game``; ``deadline`` (ms since
    the epoch) is when the seats in ``view.acting`` will be put on 托管.
    ``code`` and ``owner`` (player id) are a private table's, so that a client that
    reconnects can show the invite again and the owner his start button.
    """

    type: Literal["state"] = "state"
    table: str
    room: str
    game: str | None
    seq: int
    seat: int
    view: dict[str, Any] | None
    deadline: int | None
    players: list[SeatInfo]
    phase: Literal["playing", "between", "waiting"] = "playing"
    code: str | None = None
    owner: str | None = None
    #: How many watch the table (观战), and whether others than admins may.
    watchers: int = 0
    spectators: bool = True
    #: The engine's events of the action that made this state, for this seat
    #: (``events_for``): never serialized in a ``state``; a delta client's ``delta``
    #: carries them (``server.deltas``).
    events: list[dict[str, Any]] | None = Field(default=None, exclude=True)


class Delta(_Msg):
    """A change of a table for a client that opted into deltas: the ``state`` it
    replaces, without its ``view``. ``events`` (the seat's, ending with the ``view``
    event: ``games.deltas``) applied to the view of the client's state numbered
    ``base`` give the new view, whose ``hash`` is ``games.deltas.view_hash``; the
    other fields are the state's (``players`` only when they changed)."""

    type: Literal["delta"] = "delta"
    table: str
    room: str
    game: str | None
    base: int
    seq: int
    seat: int
    events: list[dict[str, Any]]
    hash: str
    deadline: int | None
    #: Absent when the seats are as in the state numbered ``base``.
    players: list[SeatInfo] | None = None
    phase: Literal["playing", "between", "waiting"] = "playing"
    code: str | None = None
    owner: str | None = None
    watchers: int = 0
    spectators: bool = True

    @model_serializer(mode="wrap")
    def _without_same_players(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if data.get("players") is None:
            data.pop("players", None)
        return data


class RatingChange(_Msg):
    """One seat's skill rating in the game's variant, before and after the game (the
    displayed numbers, hall.domain.ratings), whether it is still provisional, and its
    rated games so far."""

    before: int
    after: int
    provisional: bool
    games: int


class Settled(_Msg):
    """A game's settlement, sent once it has committed (``/api/me`` already shows it).

    ``fees`` (the fee in each seated player's ``beans``), ``balances`` (his beans
    after it) and ``ratings`` (each rated seat's skill rating, bots' too) are optional
    additions to this fixed message: a settlement that explains itself shows the fee,
    "before → after" (before = balance − beans) and the rating's move."""

    type: Literal["settled"] = "settled"
    table: str
    game: str
    result: dict[str, Any]
    beans: dict[str, int]
    points: dict[str, int | float]
    titles: dict[str, str]
    dissolved: bool
    fees: dict[str, int] | None = None
    balances: dict[str, int] | None = None
    ratings: dict[str, RatingChange] | None = None

    @model_serializer(mode="wrap")
    def _without_absent(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for key in ("fees", "balances", "ratings"):
            if data.get(key) is None:
                data.pop(key, None)
        return data


class Away(_Msg):
    """What happened at ``table`` while the player was disconnected (platform rules §5,
    ruling 13): his seat played on 托管, ``turns`` of his decisions taken by it; when
    the game ended meanwhile (``over``), its settlement, once committed (``settled``).
    Sent when he comes back: by the table if he still sits there, else after the
    ``welcome`` of his next hello. ``seat``: his seat there (the settlement's ``beans``
    and ``points`` are keyed by seat; a client that lost the table reads his there)."""

    type: Literal["away"] = "away"
    table: str
    game: str | None
    turns: int
    over: bool
    settled: Settled | None = None
    seat: int | None = None


class Queued(_Msg):
    type: Literal["queued"] = "queued"
    room: str
    waiting: int
    bots_at: int | None


class Invite(_Msg):
    type: Literal["invite"] = "invite"
    table: str
    room: str
    code: str


class Friendly(_Msg):
    """A player as the friends messages name him (never anything private)."""

    id: str
    name: str
    title: str


class Friend(_Msg):
    """Pushed when ``player`` asks to be your friend or accepts your request."""

    type: Literal["friend"] = "friend"
    event: Literal["asked", "accepted"]
    player: Friendly


class Brought(_Msg):
    """A friend (``by``) invites you to his private table: ``join`` with ``code``."""

    type: Literal["brought"] = "brought"
    table: str
    room: str
    code: str
    by: Friendly


class Left(_Msg):
    """The player no longer sits at ``table`` (he left, was kicked, or it dissolved)."""

    type: Literal["left"] = "left"
    table: str
    reason: str


class Error(_Msg):
    """A refusal. ``readings`` only on an ``illegal`` act whose cards read several ways:
    the legal action texts they may mean, to send one; absent from every other error.
    ``reason`` and ``params`` only on an ``act`` the game refused: the rule's stable code
    and what its sentence needs (``games.reasons``), for a client that says it in its
    player's language; absent from every other error (additive to the wire contract)."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    readings: list[str] | None = None
    reason: str | None = None
    params: dict[str, Param] | None = None

    @model_serializer(mode="wrap")
    def _without_absent(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for key in ("readings", "reason", "params"):
            if data.get(key) is None:
                data.pop(key, None)
        return data


class Pong(_Msg):
    type: Literal["pong"] = "pong"


class Entrant(_Msg):
    """One entrant in an ``event`` message: ``no`` his number, ``bot`` a bot's place."""

    no: int
    name: str
    bot: bool
    chips: int
    status: Literal["in", "left", "out", "done"]
    place: int | None = None
    prize: int | None = None


class DealLine(_Msg):
    """One entrant's row of a duplicate event's results (``event.results``): per deal his
    points and matchpoints (None: not shown yet: some person has not played it), his
    matchpoints, the top he could have had and their percentage; ``games`` the deals'
    game ids for their replays, once the event is over (None before)."""

    no: int
    points: list[int | None]
    matchpoints: list[int | None]
    total: int
    top: int
    percent: float
    played: int
    games: list[str | None] | None = None


class EventState(_Msg):
    """An event's standings, to its entrants at every change (docs/protocol.md)."""

    type: Literal["event"] = "event"
    event: str
    kind: str
    name: str
    status: Literal["open", "running", "done"]
    round: int
    rounds: int
    stake: int
    deals: int
    fee: int
    prizes: list[int]
    entrants: list[Entrant]
    tables: list[list[int]]
    format: Literal["knockout", "duplicate"] = "knockout"
    #: A duplicate event's results, per entrant in entry order (None: a knockout).
    results: list[DealLine] | None = None


class Said(_Msg):
    """Seat ``seat`` at ``table`` said ``say`` (a ``chat``): to everyone at the table who
    has not muted that seat, the speaker too."""

    type: Literal["chat"] = "chat"
    table: str
    seat: int
    say: Say


ServerMessage = (Welcome | State | Delta | Settled | Away | Queued | Invite | Left | Error
                 | Pong | Said | Friend | Brought | EventState)
