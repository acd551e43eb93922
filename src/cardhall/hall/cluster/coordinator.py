"""What the hall needs to know beyond its own process, behind one interface.

A hall process holds some tables and some players' connections. Which process
runs a table (its lease and fencing token), how a command reaches a table held
elsewhere, how a message reaches a player connected elsewhere, the quick-match
queues, the invite codes and where each player sits are the ``Coordinator``'s.

One process (``cardhall serve`` without ``--redis``) runs on ``LocalCoordinator``:
every table and connection is here, leases are always granted with no fencing
token (``fence=None``: the database compares nothing), queues live in memory, and
nothing is ever forwarded. Several processes run on ``cluster.RedisCoordinator``,
which keeps the same things in Redis. The hall's code is the same in both.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from cardhall.hall.cluster.jobs import Job, LocalJob
from cardhall.hall.domain.errors import UnknownTable
from cardhall.hall.live.outbox import Outbox
from cardhall.protocol.messages import ServerMessage
from cardhall.protocol.peer import Carries, TableCall

if TYPE_CHECKING:
    from cardhall.hall.service import Hall

#: Slack when a queue's bot timer checks whether the wait is over (timer vs wall clock).
DUE_SLACK = 0.01


@dataclass(frozen=True, slots=True)
class Lease:
    """This process runs ``table``; its writes carry ``fence`` (None: nothing to fence)."""

    table: str
    fence: int | None


@dataclass(frozen=True, slots=True)
class Joined:
    """A queue after a change: ``group`` is a table's worth taken out of it (to be seated
    at the table id the caller gave), ``waiting`` who still waits, ``since`` when the
    first of them joined (seconds since the epoch)."""

    group: list[str]
    waiting: list[str]
    since: float | None


class Connections(Protocol):
    """The connections of this process, as a coordinator reaches them (the server's
    registry): deliver to a player connected here, close one superseded elsewhere."""

    def send(self, player_id: str, message: ServerMessage) -> None: ...
    def send_text(self, player_id: str, text: str, kind: Carries) -> None:
        """``send`` of a message another process serialized (``peer.Deliver``)."""
    def closed(self, player_id: str, table: str) -> None:
        """``table`` closed and the player was told nothing (a watcher): whatever his
        connection keeps of it can go. Nothing is sent."""
    def holds(self, player_id: str) -> bool: ...
    def supersede(self, player_id: str, conn: int) -> None: ...
    def players(self) -> dict[str, int]:
        """Each player connected here, with his connection's id."""
    def close_player(self, player_id: str, code: int, reason: str,
                     sessions: list[str] | None = None) -> bool:
        """Close the player's connection here (if it said hello with one of ``sessions``,
        when given); False if he has none here."""


class MatchQueues(Protocol):
    """The quick-match queues, one per room: each change is atomic."""

    async def add(self, room: str, player: str, need: int, table_id: str,
                  address: str = "") -> Joined:
        """Queue ``player`` in ``room`` (out of any other room's queue), connected from
        ``address``; a full table's worth leaves the queue as ``group``: the earliest
        players of distinct addresses (``apart``). ``not_allowed`` if he sits at a table."""
    async def remove(self, player: str, room: str | None = None) -> str | None:
        """Take ``player`` out of ``room``'s queue (any room's if None); the room, or None."""
    async def where(self, player: str) -> str | None: ...
    async def take_due(self, room: str, wait: float, table_id: str) -> Joined:
        """Everyone in ``room``'s queue of distinct addresses (the earliest of each) as
        ``group`` if its first player has waited ``wait`` seconds; otherwise nothing
        leaves. The bots fill the rest of the table; a second player from an address
        waits for the next."""
    async def waiting(self) -> dict[str, int]: ...


class Coordinator(Protocol):
    @property
    def process(self) -> str:
        """This process's id among the hall's processes."""
    @property
    def outbox(self) -> Outbox:
        """Where the hall's tables send players' messages."""
    @property
    def queues(self) -> MatchQueues: ...

    async def start(self, hall: Hall) -> None: ...
    async def close(self) -> None: ...
    async def acquire(self, table_id: str, above: int | None = None) -> Lease | None:
        """A lease on ``table_id``, or None when another live process holds it; with
        ``above`` (the token on the table's live game, to adopt it), also None when the
        tokens drawn now would not be above it (they are raised for the next try)."""
    async def release(self, lease: Lease) -> None: ...
    async def unowned(self, table_ids: list[str]) -> list[str]:
        """Those of ``table_ids`` that no live process holds (to be adopted)."""
    async def floor_fence(self, fence: int) -> None:
        """Make every token drawn from now on greater than ``fence``."""
    async def forward(self, call: TableCall) -> None:
        """Carry ``call`` out at the table's owner; a ``Refused`` as the owner refused it."""
    async def seated(self, table_id: str, players: list[str], gone: list[str]) -> None:
        """``players`` sit at ``table_id``; ``gone`` no longer do."""
    async def remote_tables_of(self, player: str) -> list[str]:
        """The tables another process runs at which ``player`` sits."""
    async def present(self, players: list[str]) -> set[str]:
        """Which of ``players`` have a live connection to some process."""
    def keep_note(self, player: str, message: ServerMessage) -> bool:
        """Keep what ``player`` missed while away for his next hello through any process
        (``notes.py``); False if there is no store shared by processes (the lobby keeps
        it in memory)."""
    async def take_notes(self, player: str) -> list[ServerMessage]:
        """What ``keep_note`` kept for ``player``, forgotten once taken."""
    async def attach(self, player: str, conn: int) -> None:
        """Connection ``conn`` here speaks for ``player`` now (another process's closes)."""
    async def detach(self, player: str, conn: int) -> bool:
        """``conn`` closed: True if it still spoke for ``player`` (he is gone)."""
    async def hand_over(self, player: str, tables: list[str]) -> bool:
        """``player`` connected again through another process: hand it the tables he
        watched through his connection here (``Hall.take_watches`` there); False when
        there is no such live process (the caller stops them)."""
    async def disconnect(self, player: str, code: int, reason: str,
                         sessions: list[str] | None = None) -> bool:
        """Close the player's connection wherever it is (only if it said hello with one
        of ``sessions``, when given: a logout closes that token's socket only); False if
        he has none (there)."""
    async def set_code(self, code: str, table_id: str | None) -> None: ...
    async def code_table(self, code: str) -> str | None: ...
    async def blocks_changed(self, player: str) -> None:
        """``player``'s block list changed here: the other processes read it again."""
    async def adopted(self, table_id: str) -> None:
        """``table_id`` was rebuilt here from the log: the other processes' players who
        watched it watch it again here (``Hall.watch_again`` there)."""
    async def census(self) -> list[dict[str, Any]]:
        """Every live table of every process (``Hall.local_tables``'s rows)."""
    async def table_counts(self) -> dict[str, int]:
        """Tables open per room, over every process."""
    def job(self, name: str, seconds: float) -> Job:
        """The hall-wide job ``name``, held ``seconds`` at a time (``jobs.py``): work one
        process does at a time."""


def kept_apart(address: str, person: str = "") -> str:
    """What quick match keeps apart, as keys separated by spaces: the address, except
    one of this host (loopback: the operator's own clients, a load test, a proxy on the
    host not listed in ``trusted_proxies``), which keeps nobody apart rather than
    everyone; and ``person``, the one behind the account (a bot account's owner, else
    the player himself), from wherever his accounts connect (docs/rulings.md, "Skill
    ratings" 7)."""
    try:
        keys = [] if ipaddress.ip_address(address).is_loopback else [address]
    except ValueError:  # not an address at all ("?", a test's name): unknown
        keys = []
    if person:
        keys.append(f"person:{person}")
    return " ".join(keys)


def apart(waiting: Sequence[str], addresses: Mapping[str, str],
          need: int | None = None) -> list[str]:
    """The earliest of ``waiting`` (in arrival order) who share no key (``kept_apart``:
    an address, a person), at most ``need``: two accounts of one person (one address, or
    an owner and his bot accounts) never share a matched table, where one could lose to
    the other on purpose or one program see two hands (ratings, ruling "Skill ratings").
    No key ("") keeps nobody apart. The Redis queues do the same in Lua
    (``redis_keys.APART``)."""
    group: list[str] = []
    seen: set[str] = set()
    for p in waiting:
        keys = set(addresses.get(p, "").split())
        if keys & seen:
            continue
        seen |= keys
        group.append(p)
        if need is not None and len(group) == need:
            break
    return group


class LocalQueues:
    """The queues of a hall in one process: in memory, ordered by arrival."""

    def __init__(self) -> None:
        self.rooms: dict[str, dict[str, float]] = {}
        self.addresses: dict[str, str] = {}

    async def add(self, room: str, player: str, need: int, table_id: str,
                  address: str = "") -> Joined:
        await self.remove(player)
        q = self.rooms.setdefault(room, {})
        q[player] = time.time()
        self.addresses[player] = address
        group = apart(list(q), self.addresses, need)
        if len(group) < need:
            group = []
        for p in group:
            del q[p]
            self.addresses.pop(p, None)
        return self._joined(room, group)

    def _joined(self, room: str, group: list[str]) -> Joined:
        q = self.rooms.get(room, {})
        return Joined(group, list(q), min(q.values()) if q else None)

    async def remove(self, player: str, room: str | None = None) -> str | None:
        for r, q in self.rooms.items():
            if (room is None or r == room) and q.pop(player, None) is not None:
                self.addresses.pop(player, None)
                return r
        return None

    async def where(self, player: str) -> str | None:
        return next((r for r, q in self.rooms.items() if player in q), None)

    async def take_due(self, room: str, wait: float, table_id: str) -> Joined:
        q = self.rooms.get(room, {})
        if q and min(q.values()) + wait <= time.time() + DUE_SLACK:
            group = apart(list(q), self.addresses)
            for p in group:
                del q[p]
                self.addresses.pop(p, None)
            return self._joined(room, group)
        return self._joined(room, [])

    async def waiting(self) -> dict[str, int]:
        return {r: len(q) for r, q in self.rooms.items()}


class LocalCoordinator:
    """One process holds everything: nothing to lease, fence, forward or share."""

    process = "local"

    def __init__(self, outbox: Outbox, connections: Connections | None = None) -> None:
        self.outbox = outbox
        self.connections = connections
        self.queues = LocalQueues()
        self._codes: dict[str, str] = {}
        self._hall: Hall | None = None
        self._jobs: dict[str, LocalJob] = {}

    async def start(self, hall: Hall) -> None:
        self._hall = hall

    async def close(self) -> None:
        return None

    def keep_note(self, player: str, message: ServerMessage) -> bool:
        return False

    async def take_notes(self, player: str) -> list[ServerMessage]:
        return []

    async def acquire(self, table_id: str, above: int | None = None) -> Lease | None:
        return Lease(table_id, None)

    async def release(self, lease: Lease) -> None:
        return None

    async def floor_fence(self, fence: int) -> None:
        return None

    async def unowned(self, table_ids: list[str]) -> list[str]:
        assert self._hall is not None
        return [t for t in table_ids if t not in self._hall.lobby.tables]

    async def forward(self, call: TableCall) -> None:
        raise UnknownTable(f"no table {call.table[:64]!r}")

    async def seated(self, table_id: str, players: list[str], gone: list[str]) -> None:
        return None

    async def remote_tables_of(self, player: str) -> list[str]:
        return []

    async def present(self, players: list[str]) -> set[str]:
        # At start (a table rebuilt) nobody is connected yet; later, whoever is here.
        held = self.connections
        return set() if held is None else {p for p in players if held.holds(p)}

    async def attach(self, player: str, conn: int) -> None:
        return None

    async def detach(self, player: str, conn: int) -> bool:
        return True

    async def hand_over(self, player: str, tables: list[str]) -> bool:
        return False  # no other process

    async def disconnect(self, player: str, code: int, reason: str,
                         sessions: list[str] | None = None) -> bool:
        return self.connections is not None and self.connections.close_player(
            player, code, reason, sessions)

    async def set_code(self, code: str, table_id: str | None) -> None:
        if table_id is None:
            self._codes.pop(code, None)
        else:
            self._codes[code] = table_id

    async def code_table(self, code: str) -> str | None:
        return self._codes.get(code)

    async def blocks_changed(self, player: str) -> None:
        return None  # no other process

    async def adopted(self, table_id: str) -> None:
        return None  # no other process

    async def census(self) -> list[dict[str, Any]]:
        assert self._hall is not None
        return self._hall.local_tables()

    async def table_counts(self) -> dict[str, int]:
        assert self._hall is not None
        return self._hall.local_counts()

    def job(self, name: str, seconds: float) -> Job:
        return self._jobs.setdefault(name, LocalJob())
