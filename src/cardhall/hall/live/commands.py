"""What a live table can be asked to do: one frozen dataclass per command.

A table changes only through its queue (``Table``), and what goes on the queue is one
of these, matched on its type by ``Table._handle``. Each says what it carries and
nothing else: a player's move names its player, text, seq and ``choose``; a timer's
names the game (and seq) it was set for, so a timer that outlived its game does
nothing. A command from another process arrives as the peer protocol's ``TableCall``
(pydantic, at the edge) and becomes one of these in one place (``from_call``).

The commands a seated player gives (``SEATED``) are checked for the seat once, by the
table, before they run.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, assert_never

from cardhall.hall.domain.errors import Unfit
from cardhall.protocol.chat import SAYINGS
from cardhall.protocol.messages import Friendly

if TYPE_CHECKING:
    from cardhall.protocol.peer import TableCall


# -- a player's commands (from his connection, here or at another process) ------------

@dataclass(frozen=True, slots=True)
class Play:
    """An action of the player's seat (the wire's ``act``) on the state ``seq``."""

    player: str
    text: str
    seq: int | None
    choose: bool = False  # refuse a text that reads several ways (the wire's ``choose``)


@dataclass(frozen=True, slots=True)
class PlayOn:
    """After a game: the player wants the next one (the wire's ``next``)."""

    player: str


@dataclass(frozen=True, slots=True)
class Leave:
    """The player leaves the table outright (mid-game: a forced quit)."""

    player: str
    reason: str = "left"


@dataclass(frozen=True, slots=True)
class Free:
    """The player wants another table: he leaves this one unless a game runs here."""

    player: str


@dataclass(frozen=True, slots=True)
class Kick:
    """An admin takes the player out (a forced quit mid-game)."""

    player: str


@dataclass(frozen=True, slots=True)
class Sit:
    """A friend takes a free seat at a private table still filling."""

    player: str
    name: str
    title: str


@dataclass(frozen=True, slots=True)
class StartNow:
    """A private table's owner starts it: bots take the empty seats."""

    player: str


@dataclass(frozen=True, slots=True)
class Say:
    """The player says a catalog id (the wire's ``chat``) at the table."""

    player: str
    say: str


@dataclass(frozen=True, slots=True)
class Mute:
    """The player (seated or watching) stops or resumes hearing ``seat``'s chat."""

    player: str
    seat: int
    on: bool


@dataclass(frozen=True, slots=True)
class Bring:
    """The player invites ``friend`` to this private table while it fills; the friend
    (checked by the inviter's process) is told ``by`` whom. ``by`` None: the friend
    blocks the inviter, so the table's checks are made and nothing is sent."""

    player: str
    friend: str
    by: Friendly | None


@dataclass(frozen=True, slots=True)
class Connection:
    """The player's connection went up or down (somewhere in the hall)."""

    player: str
    up: bool


@dataclass(frozen=True, slots=True)
class Watch:
    """The player watches the table (观战); ``admin``: he may watch any table."""

    player: str
    admin: bool = False


@dataclass(frozen=True, slots=True)
class Spectators:
    """The private table's owner opens (``on``) or closes it to spectators (观战)."""

    player: str
    on: bool


@dataclass(frozen=True, slots=True)
class Unwatch:
    """The watcher stops watching (``leave`` by a watcher, or his connection dropped)."""

    player: str


# -- the table's own ------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Begin:
    """Deal the first game of a table just opened."""


@dataclass(frozen=True, slots=True)
class Resume:
    """A table rebuilt from its log runs again; ``present``: its players connected
    somewhere in the hall (they get the state; the others are counted as away)."""

    present: frozenset[str]


@dataclass(frozen=True, slots=True)
class BotAnswer:
    """A bot's (or 托管's) answer for ``seat``, asked at ``seq``."""

    seat: int
    seq: int
    text: str


@dataclass(frozen=True, slots=True)
class Expire:
    """The turn timer set at (``game``, ``seq``) ran out."""

    game: str | None
    seq: int


@dataclass(frozen=True, slots=True)
class Recount:
    """Tell the seats and watchers how many watch now (``watchers.py``)."""


@dataclass(frozen=True, slots=True)
class Idle:
    """The grace between games, set after ``game``, ran out with nobody connected."""

    game: str | None


@dataclass(frozen=True, slots=True)
class SettlementDone:
    """The background settlement of ``game`` finished (committed or failed)."""

    game: str
    task: asyncio.Task[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class SettleAgain:
    """The retry timer of ``game``'s failed settlement ran out."""

    game: str | None


TableCommand = (Play | PlayOn | Leave | Free | Kick | Sit | StartNow | Say | Mute | Bring
                | Connection | Watch | Unwatch | Spectators | Recount | Begin | Resume
                | BotAnswer | Expire | Idle | SettlementDone | SettleAgain)

#: Commands only a player seated at the table may give (checked once, by the table).
SEATED = (Play, PlayOn, Leave, StartNow, Say, Spectators, Bring)


@dataclass(slots=True)
class Queued:
    """A command on a table's queue: ``done`` resolves when the table has taken it (or
    refused it) for a caller who waits; ``made``: when it was queued, for the
    ``queued`` latency stage."""

    command: TableCommand
    done: asyncio.Future[None] | None = field(default=None, repr=False)
    made: float = field(default_factory=time.perf_counter, repr=False)


def from_call(call: TableCall) -> TableCommand:
    """The command a ``TableCall`` (the peer protocol's, or this process's own) asks."""
    match call.kind:
        case "act":
            return Play(call.player, call.text, call.seq, call.choose)
        case "next":
            return PlayOn(call.player)
        case "leave":
            return Leave(call.player, call.text or "left")
        case "free":
            return Free(call.player)
        case "kick":
            return Kick(call.player)
        case "sit":
            return Sit(call.player, call.text, call.title)
        case "start_now":
            return StartNow(call.player)
        case "connection":
            if call.text not in ("up", "down"):
                raise Unfit("a connection is up or down")
            return Connection(call.player, call.text == "up")
        case "chat":
            if call.text not in SAYINGS:
                raise Unfit("say one of the chat catalog's ids")
            return Say(call.player, call.text)
        case "mute":
            if call.seat is None or call.text not in ("on", "off"):
                raise Unfit("a mute names a seat and is on or off")
            return Mute(call.player, call.seat, call.text == "on")
        case "bring":
            return Bring(call.player, call.text, call.by)
        case "watch":
            return Watch(call.player, call.admin)
        case "unwatch":
            return Unwatch(call.player)
        case "spectators":
            if call.text not in ("on", "off"):
                raise Unfit("spectators are on or off")
            return Spectators(call.player, call.text == "on")
        case _:
            assert_never(call.kind)
