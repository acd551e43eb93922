"""Friends and blocks (issue 22), as the database keeps them.

- **A request** waits for its answer as one row (asker, asked). Accepting makes the two
  friends (a ``Friendship`` row each way) and deletes it; declining (or the asker
  withdrawing it) deletes it and leaves nothing: the asker may ask again later (the
  server rate-limits asks). Asking someone who already asked you accepts his request.
- **A block** stops the blocked player's requests, invites and chat from reaching the
  blocker, *silently*, as the big halls do: his request is stored as any other (his
  own list shows it waiting) but never shown to the blocker nor pushed to him, so the
  blocked cannot tell a block from a player who does not answer. Blocking also ends a
  friendship and withdraws the blocker's own request; unblocking shows the blocked
  player's request again if it is still there.
- **Limits** (``FRIENDS_MAX``, ``PENDING_MAX``, ``BLOCKS_MAX``) bound what one player can
  make the hall keep; past them the write is refused (``Conflict``) and nothing changes.
  Two writes racing past a limit in one instant can overshoot it by one: a bound on
  memory, not an invariant anyone relies on.
- **Guests** have no friends: they are neither found nor asked, and may not ask (a
  guest is minted in one call: a stranger's flood of requests would cost nothing).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import delete, exists, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from cardhall.hall.domain.errors import BadRequest, Conflict, Forbidden, NotFound
from cardhall.hall.domain.levels import title_for
from cardhall.hall.domain.names import name_key
from cardhall.hall.store.db import Database
from cardhall.hall.store.models import Block, FriendRequest, Friendship, Player

#: Friends a player may have.
FRIENDS_MAX = 200
#: Requests a player may have waiting for an answer, asked by him (and, counted apart,
#: asked of him: beyond that he must answer some before anyone else can ask).
PENDING_MAX = 50
#: Players one may block.
BLOCKS_MAX = 500
#: Players a search answers with at most.
FIND_MAX = 10
#: A prefix search needs this many characters (an exact name may be shorter).
PREFIX_MIN = 2


@dataclass(frozen=True, slots=True)
class Someone:
    """A player as another sees him in the friends screens: nothing private."""

    id: str
    name: str
    title: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "title": self.title}


@dataclass(frozen=True, slots=True)
class Listing:
    """A player's friends, the requests asked of him (``incoming``) and by him
    (``outgoing``), and whom he blocks; each by name."""

    friends: list[Someone]
    incoming: list[Someone]
    outgoing: list[Someone]
    blocks: list[Someone]


@dataclass(frozen=True, slots=True)
class Asked:
    """An ask's outcome: ``friends`` when it accepted the other's request; ``tell``:
    whether the other may hear of it (False when he blocks the asker: kept silent)."""

    other: Someone
    friends: bool
    tell: bool


P = ParamSpec("P")
R = TypeVar("R")


def _raced(write: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """Two writes of one pair racing (a double click on accept, two asks crossing):
    the loser's insert meets the winner's row (PostgreSQL; SQLite's writes take turns)
    and is refused as ``Conflict``, nothing written, rather than failing as a 500."""
    @functools.wraps(write)
    async def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await write(*args, **kwargs)
        except IntegrityError:
            raise Conflict("that changed meanwhile: look again") from None
    return guarded


def _someone(p: Player) -> Someone:
    return Someone(p.id, p.name, title_for(p.points))


def _like(text: str) -> str:
    """``text`` as a LIKE prefix pattern, its wildcards taken literally."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


async def find(db: Database, caller: str, text: str, limit: int = FIND_MAX) -> list[Someone]:
    """Registered players whose name is ``text`` (case-folded) or, from ``PREFIX_MIN``
    characters, starts with it: the exact one first, then by name; never the caller,
    a guest, a bot account or a banned player."""
    key = name_key(text.strip())
    if not key:
        raise BadRequest("give a name to look for")
    if len(key) > 64:
        return []
    match = Player.name_key == key if len(key) < PREFIX_MIN else or_(
        Player.name_key == key, Player.name_key.like(_like(key), escape="\\"))
    async with db.read() as s:
        rows = (await s.scalars(
            select(Player).where(match, Player.id != caller, Player.is_guest.is_(False),
                                 Player.bot_owner.is_(None), Player.banned.is_(False))
            .order_by((Player.name_key != key), Player.name_key).limit(limit))).all()
    return [_someone(p) for p in rows]


async def _player(s: AsyncSession, player_id: str) -> Player:
    p = await s.get(Player, player_id)
    if p is None or p.banned:
        raise NotFound(f"no player {player_id[:32]!r}")
    return p


async def _befriendable(s: AsyncSession, player_id: str) -> Player:
    """A player one may ask or block: registered, not banned, not a bot. A guest (or a
    bot account) is answered as an unknown id (``not_found``), by ``ask`` and ``block``
    alike: neither is findable, and one call must not tell their ids from nobody's."""
    p = await _player(s, player_id)
    if p.is_guest or p.is_bot:
        raise NotFound(f"no player {player_id[:32]!r}")
    return p


async def _count(s: AsyncSession, query: Any) -> int:
    return int(await s.scalar(select(func.count()).select_from(query.subquery())) or 0)


def _friends_of(player: str) -> Any:
    return select(Friendship.friend).where(Friendship.player == player)


def _visible_incoming(player: str) -> Any:
    """Requests asked of ``player`` by players he does not block."""
    return select(FriendRequest.asker).where(
        FriendRequest.asked == player,
        ~exists().where(Block.blocker == player, Block.blocked == FriendRequest.asker))


async def _blocks(s: AsyncSession, blocker: str, blocked: str) -> bool:
    return await s.get(Block, (blocker, blocked)) is not None


async def _room_for_friends(s: AsyncSession, *players: str) -> None:
    for p in players:
        if await _count(s, _friends_of(p)) >= FRIENDS_MAX:
            raise Conflict(f"a player has at most {FRIENDS_MAX} friends")


async def _befriend(s: AsyncSession, a: str, b: str) -> None:
    await _room_for_friends(s, a, b)
    await s.execute(delete(FriendRequest).where(or_(
        (FriendRequest.asker == a) & (FriendRequest.asked == b),
        (FriendRequest.asker == b) & (FriendRequest.asked == a))))
    s.add_all([Friendship(player=a, friend=b), Friendship(player=b, friend=a)])


async def _lock(s: AsyncSession, *players: str) -> None:
    """Take the players' rows (in id order: no deadlock) for the rest of the transaction:
    two calls on the same players (crossed asks, an accept and a block at once, many
    asks of one player) run one after the other, so each sees what the other did and
    the bounds hold. SQLite needs none: its writers already take turns."""
    await s.execute(select(Player.id).where(Player.id.in_(sorted(set(players))))
                    .order_by(Player.id).with_for_update())


@_raced
async def ask(db: Database, asker: Player, asked_id: str) -> Asked:
    """``asker`` asks ``asked_id`` to be friends (or accepts his waiting request)."""
    if asker.is_guest or asker.is_bot:
        raise Forbidden("register to have friends (a bot account has none)")
    if asked_id == asker.id:
        raise BadRequest("you cannot befriend yourself")
    async with db.transaction() as s:
        await _lock(s, asker.id, asked_id)
        other = await _befriendable(s, asked_id)
        them = _someone(other)
        if await s.get(Friendship, (asker.id, other.id)) is not None:
            raise Conflict(f"{other.name} is your friend already")
        if await _blocks(s, asker.id, other.id):
            raise Conflict(f"you block {other.name}: unblock first")
        silent = await _blocks(s, other.id, asker.id)
        theirs = await s.get(FriendRequest, (other.id, asker.id))
        if theirs is not None and not silent:
            await _befriend(s, asker.id, other.id)
            return Asked(them, friends=True, tell=True)
        if await s.get(FriendRequest, (asker.id, other.id)) is not None:
            return Asked(them, friends=False, tell=False)  # asked already: said once
        if await _count(s, select(FriendRequest.asked).where(
                FriendRequest.asker == asker.id)) >= PENDING_MAX:
            raise Conflict(f"at most {PENDING_MAX} requests wait for an answer: "
                           "withdraw some first")
        if not silent and await _count(s, _visible_incoming(other.id)) >= PENDING_MAX:
            raise Conflict(f"{other.name} has {PENDING_MAX} requests waiting: try later")
        await _room_for_friends(s, asker.id)
        s.add(FriendRequest(asker=asker.id, asked=other.id))
    return Asked(them, friends=False, tell=not silent)


@_raced
async def accept(db: Database, player: str, asker: str) -> Someone:
    """``player`` accepts ``asker``'s request: they are friends."""
    async with db.transaction() as s:
        await _lock(s, player, asker)
        request = await s.get(FriendRequest, (asker, player))
        if request is None or await _blocks(s, player, asker):
            raise NotFound("no such request waits for you")
        other = await _player(s, asker)
        await _befriend(s, player, asker)
    return _someone(other)


async def decline(db: Database, player: str, other: str) -> None:
    """Delete the request between ``player`` and ``other``: his to ``player`` (declined)
    or ``player``'s to him (withdrawn). Nothing is kept of it."""
    async with db.transaction() as s:
        await _lock(s, player, other)
        pairs = [(FriendRequest.asker == player) & (FriendRequest.asked == other)]
        if not await _blocks(s, player, other):  # else his request is not shown: not there
            pairs.append((FriendRequest.asker == other) & (FriendRequest.asked == player))
        gone = await s.execute(delete(FriendRequest).where(or_(*pairs)))
        if not getattr(gone, "rowcount", 0):
            raise NotFound("no request waits between you")


async def remove(db: Database, player: str, friend: str) -> None:
    """End a friendship, both ways."""
    async with db.transaction() as s:
        await _lock(s, player, friend)
        gone = await s.execute(delete(Friendship).where(or_(
            (Friendship.player == player) & (Friendship.friend == friend),
            (Friendship.player == friend) & (Friendship.friend == player))))
        if not getattr(gone, "rowcount", 0):
            raise NotFound("that player is not your friend")


@_raced
async def block(db: Database, player: str, target: str) -> Someone:
    """``player`` blocks ``target`` (again: nothing changes): a friendship between them
    ends and ``player``'s request to him is withdrawn."""
    if player == target:
        raise BadRequest("you cannot block yourself")
    async with db.transaction() as s:
        await _lock(s, player, target)
        other = await _befriendable(s, target)
        if await _blocks(s, player, target):
            return _someone(other)
        if await _count(s, select(Block.blocked).where(Block.blocker == player)) \
                >= BLOCKS_MAX:
            raise Conflict(f"you may block at most {BLOCKS_MAX} players")
        await s.execute(delete(Friendship).where(or_(
            (Friendship.player == player) & (Friendship.friend == target),
            (Friendship.player == target) & (Friendship.friend == player))))
        await s.execute(delete(FriendRequest).where(FriendRequest.asker == player,
                                                    FriendRequest.asked == target))
        s.add(Block(blocker=player, blocked=target))
    return _someone(other)


async def unblock(db: Database, player: str, target: str) -> None:
    async with db.transaction() as s:
        await _lock(s, player, target)
        gone = await s.execute(delete(Block).where(Block.blocker == player,
                                                   Block.blocked == target))
        if not getattr(gone, "rowcount", 0):
            raise NotFound("you do not block that player")


async def _named(s: AsyncSession, ids: Any) -> list[Someone]:
    rows = (await s.scalars(select(Player).where(Player.id.in_(ids))
                            .order_by(Player.name_key))).all()
    return [_someone(p) for p in rows]


async def listing(db: Database, player: str) -> Listing:
    """Everything the friends screen shows of ``player``'s (each list bounded by its
    limit)."""
    async with db.read() as s:
        return Listing(
            friends=await _named(s, _friends_of(player)),
            incoming=await _named(s, _visible_incoming(player)),
            outgoing=await _named(s, select(FriendRequest.asked)
                                  .where(FriendRequest.asker == player)),
            blocks=await _named(s, select(Block.blocked).where(Block.blocker == player)))


async def are_friends(db: Database, a: str, b: str) -> bool:
    async with db.read() as s:
        return await s.get(Friendship, (a, b)) is not None


async def blocks(db: Database, blocker: str, blocked: str) -> bool:
    """Does ``blocker`` block ``blocked`` (hears nothing from him)?"""
    async with db.read() as s:
        return await _blocks(s, blocker, blocked)


async def blocked_by(db: Database, listener: str) -> set[str]:
    """Everyone ``listener`` blocks (at most ``BLOCKS_MAX``)."""
    async with db.read() as s:
        return set((await s.scalars(select(Block.blocked).where(
            Block.blocker == listener))).all())


async def blockers_of(db: Database, listener: str, speakers: list[str]) -> set[str]:
    """Those of ``speakers`` whom ``listener`` blocks (one read for a table's seats)."""
    if not speakers:
        return set()
    async with db.read() as s:
        return set((await s.scalars(select(Block.blocked).where(
            Block.blocker == listener, Block.blocked.in_(speakers)))).all())


async def named(db: Database, ids: list[str]) -> list[Someone]:
    """``ids`` as others see them (by name; unknown ids left out)."""
    async with db.read() as s:
        return await _named(s, ids)
