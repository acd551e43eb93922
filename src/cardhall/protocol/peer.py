"""Typed messages between hall processes (over Redis pub/sub, one channel per process).

When several processes run the hall (``cardhall serve --redis``), a player's
connection and his table may live in different processes. What crosses between
them is one of these messages, validated on arrival like a client's frame
(``parse_peer``): a call on a table for its owner (``TableCall``) and its answer
(``CallReply``), messages for players connected elsewhere (``Deliver``), the
news that a player connected elsewhere (``Supersede``), an admin's kick of a
player connected elsewhere (``Close``), an operator's census of the live
tables (``Census``/``CensusReply``), and the watches of a superseded connection,
handed to the process of the one that superseded it (``Watches``).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from cardhall.games.errors import Param
from cardhall.protocol.messages import Friendly, Left, ServerMessage, State

#: The table commands another process may ask of a table's owner.
CallKind = Literal["act", "next", "leave", "start_now", "sit", "free", "kick", "connection",
                   "watch", "unwatch", "chat", "mute", "spectators", "bring"]


class _Peer(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TableCall(_Peer):
    """One command for a table, from whichever process holds the player's connection."""

    type: Literal["call"] = "call"
    id: int = 0  # the caller's request number (0: no answer wanted)
    reply_to: str = ""  # the calling process
    table: str
    kind: CallKind
    player: str
    text: str = ""
    seq: int | None = None
    title: str = ""
    choose: bool = False  # an act's ``choose`` (protocol.messages.Act)
    admin: bool = False  # a watch's: the player is an admin (watches any table)
    #: A mute's seat (``text``: "on" or "off", as a ``spectators``'); a chat's id: ``text``.
    seat: int | None = None
    by: Friendly | None = None  # a bring's inviter as the friend (``text``) is told; None:
    # the friend blocks him (the table checks, sends nothing)


class CallReply(_Peer):
    type: Literal["reply"] = "reply"
    id: int
    #: The owner's refusal, as plain data (``hall.domain.errors.rebuilt`` makes it
    #: again): its kind's code (None: done), message, readings, reason and params.
    code: str | None = None
    message: str = ""
    readings: list[str] | None = None
    reason: str | None = None  # a game's refusal
    params: dict[str, Param] | None = None
    #: The table is not run here (any more): the caller looks its owner up again.
    moved: bool = False


class Carries(StrEnum):
    """What a forwarded message is, as far as the connection it reaches must know: one
    that opted into deltas turns a ``state`` into a delta and forgets a table on its
    ``left`` (``server.deltas``); anything else goes as it came. Said by the sender,
    which holds the typed message, so that the receiver never reads the JSON's text to
    tell (its field order is pydantic's, not the protocol's)."""

    STATE = "state"
    LEFT = "left"
    OTHER = "other"

    @classmethod
    def of(cls, message: ServerMessage) -> Carries:
        if isinstance(message, State):
            return cls.STATE
        if isinstance(message, Left):
            return cls.LEFT
        return cls.OTHER


class Deliver(_Peer):
    """Messages for players whose connection this process holds, in the order sent.

    Each is (player, the message's JSON as his client gets it, what it ``Carries``):
    serialized once, by the
    process that made it, and written to the socket as it came. Parsing and validating a
    ``state`` (its view, its legal actions) only to serialize it again cost the receiving
    process more than the sending one's work on it; both are hall processes of one
    version, and what the client receives is still a message the sender validated.
    """

    type: Literal["deliver"] = "deliver"
    items: list[tuple[str, str, Carries]]


class Supersede(_Peer):
    """The player connected to another process: close connection ``conn`` here (4001)."""

    type: Literal["supersede"] = "supersede"
    player: str
    conn: int


class Close(_Peer):
    """Close the player's connection here (an admin's kick or ban: 4003; with
    ``sessions``, only a connection that said hello with one of them: a logout, a
    revoked session, a password change: 4401)."""

    type: Literal["close"] = "close"
    player: str
    code: int
    reason: str
    sessions: list[str] | None = None


class Blocks(_Peer):
    """``player``'s block list changed through another process: read it again here, so
    a block silences his chat at this process's tables at once (``hall.live.friends``)."""

    type: Literal["blocks"] = "blocks"
    player: str


class Census(_Peer):
    type: Literal["census"] = "census"
    id: int
    reply_to: str


class CensusReply(_Peer):
    type: Literal["census_reply"] = "census_reply"
    id: int
    tables: list[dict[str, Any]]


class Watches(_Peer):
    """The player's connection elsewhere was superseded by one to the receiver: the
    tables he watched through it, now the receiver's to count and stop (观战)."""

    type: Literal["watches"] = "watches"
    player: str
    tables: list[str]


class Adopted(_Peer):
    """The sender rebuilt ``table`` from the log (its owner died or stalled): players
    connected to the receiver who watched it watch it again there (观战)."""

    type: Literal["adopted"] = "adopted"
    table: str


PeerMessage = Annotated[TableCall | CallReply | Deliver | Supersede | Close | Blocks
                        | Census | CensusReply | Watches | Adopted,
                        Field(discriminator="type")]
_PEER: TypeAdapter[PeerMessage] = TypeAdapter(PeerMessage)


def parse_peer(data: bytes | str) -> PeerMessage:
    """A message from another process (ValidationError if it is not one)."""
    return _PEER.validate_json(data)
