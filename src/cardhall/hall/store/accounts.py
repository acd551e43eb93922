"""Accounts: guests in one call, registration and login, passwords and their change.

- **Names** are checked and compared by ``hall.domain.names``: NFKC, letters of any script
  (so Chinese names work), digits, ``_`` and ``-``; nothing invisible; a name that
  looks like an existing one (its skeleton is taken) is refused. Prefixes the hall
  uses for generated names (游客, guest, 机器人, bot) are reserved, so nobody can pass
  for a guest or a bot.
- **Passwords** are hashed with argon2id (argon2-cffi's PasswordHasher). Hashing is
  deliberately slow, so it runs in a worker thread, never on the event loop. Login
  answers "wrong name or password" for both cases and hashes even for an unknown name,
  so neither the answer nor its timing tells whether a name exists. Wrong passwords
  for one name lock its logins for a while (``hall.store.lockout``).
- **Sessions** (tokens, expiry, listing, revoking) are ``hall.store.sessions``'. A password
  change ends every other session of the account; a ban ends them all.

Every new account gets ``economy.starting_beans`` as a ``start`` ledger entry in the
same transaction that creates it.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from cardhall.hall.domain.config import Economy
from cardhall.hall.domain.errors import (
    AuthFailed,
    BadName,
    BadPassword,
    Banned,
    NameTaken,
    NotFound,
)
from cardhall.hall.domain.levels import Level, level_for, title_of
from cardhall.hall.domain.names import NAME_MAX, NAME_MIN, name_key, normalise_name, skeleton
from cardhall.hall.store import lockout, sessions
from cardhall.hall.store.db import Database
from cardhall.hall.store.ledger import GOLDEN_EYE, add_entry, balance_in, held_in, items_in
from cardhall.hall.store.lockout import DEFAULT_LOCKOUT, LockoutPolicy
from cardhall.hall.store.models import Player, Session, Stat, utcnow
from cardhall.hall.store.sessions import DEFAULT_POLICY, SessionPolicy, TokenRefused, hash_token

__all__ = ["NAME_MAX", "NAME_MIN", "hash_token", "name_key", "normalise_name"]

PASSWORD_MIN, PASSWORD_MAX = 6, 128
GUEST_PREFIX = "游客"
#: How an English page writes a guest's name: "Guest 071712" for 游客071712 (/api/names).
GUEST_PREFIX_EN = "Guest "
RESERVED_PREFIXES = ("游客", "guest", "机器人", "bot")

HASHER = PasswordHasher()  # argon2id with the library's recommended cost


def new_id() -> str:
    """A random id (128 bits, hex): nothing can be learnt from or guessed about it."""
    return secrets.token_hex(16)


def check_new_name(name: object) -> str:
    """A name a person may register: valid and not a reserved prefix."""
    n = normalise_name(name)
    key = name_key(n)
    for prefix in RESERVED_PREFIXES:
        if key.startswith(prefix):
            raise BadName(f"names starting with {prefix!r} are reserved")
    return n


def check_password(password: object) -> str:
    if not isinstance(password, str):
        raise BadPassword("a password is text")
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise BadPassword(f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    return password


@dataclass(frozen=True, slots=True)
class Login:
    """What guest, register and login answer: the player and a fresh token (shown
    once; only its hash is kept)."""

    player: Player
    token: str


def _taken(n: str) -> NameTaken:
    return NameTaken(f"the name {n!r} is taken (or looks too much like one that is)")


async def _create(db: Database, name: str, password_hash: str | None, economy: Economy,
                  now: datetime, agent: str = "", *, bot_owner: str | None = None,
                  check: Callable[[AsyncSession], Awaitable[None]] | None = None) -> Login:
    """The account, its starting beans and its first session, in one transaction; a bot
    account (``bot_owner``) has no password and is no guest. ``check`` runs first in
    that transaction and may refuse (a bot's owner's limit: ``hall.store.bots``)."""
    player = Player(id=new_id(), name=name, name_key=name_key(name),
                    name_skeleton=skeleton(name), password_hash=password_hash,
                    is_guest=password_hash is None and bot_owner is None, is_admin=False,
                    banned=False, points=0, created=now, failed_logins=0, bot_owner=bot_owner)
    async with db.transaction() as s:
        if check is not None:
            await check(s)
        s.add(player)
        await s.flush()  # the player row first: the ledger entry refers to it
        if economy.starting_beans:
            add_entry(s, player.id, economy.starting_beans, "start", now=now)
        sess, token = sessions.new_session(player.id, now, agent)
        s.add(sess)
    return Login(player, token)


async def create_guest(db: Database, economy: Economy, now: datetime | None = None,
                       agent: str = "") -> Login:
    """A new guest account (name 游客 + 6 digits, unique) with the starting beans."""
    now = now or utcnow()
    for _ in range(20):
        name = f"{GUEST_PREFIX}{secrets.randbelow(10**6):06d}"
        try:
            return await _create(db, name, None, economy, now, agent)
        except IntegrityError:
            continue  # that name was taken (by now or just now): draw another
    raise NameTaken("could not find a free guest name; try again")


async def _hash(password: str, hasher: PasswordHasher) -> str:
    return await asyncio.to_thread(hasher.hash, password)


async def _name_taken(db: Database, n: str) -> bool:
    async with db.read() as s:
        return await s.scalar(select(Player.id).where(
            (Player.name_key == name_key(n)) | (Player.name_skeleton == skeleton(n)))) is not None


async def register(db: Database, name: str, password: str, economy: Economy,
                   hasher: PasswordHasher = HASHER, now: datetime | None = None,
                   agent: str = "") -> Login:
    """A new account with a password. BadName, NameTaken or BadPassword say why not."""
    n = check_new_name(name)
    check_password(password)
    if await _name_taken(db, n):
        raise _taken(n)
    digest = await _hash(password, hasher)
    try:
        return await _create(db, n, digest, economy, now or utcnow(), agent)
    except IntegrityError:  # the same name, or a look-alike, registered just now
        raise _taken(n) from None


async def claim_guest(db: Database, token: str, name: str, password: str,
                      hasher: PasswordHasher = HASHER, now: datetime | None = None,
                      policy: SessionPolicy = DEFAULT_POLICY) -> Player:
    """Turn the guest behind ``token`` into a registered account, beans and record kept;
    the token goes on working, as a registered player's session from now."""
    now = now or utcnow()
    n = check_new_name(name)
    check_password(password)
    authed = await sessions.authenticate(db, token, policy, now)
    if not authed.player.is_guest:
        raise BadName("this account already has a name")
    if await _name_taken(db, n):
        raise _taken(n)
    digest = await _hash(password, hasher)
    async with db.transaction() as s:
        player = await s.get(Player, authed.player.id)
        if player is None or not player.is_guest:
            raise BadName("this account already has a name")
        player.name, player.name_key, player.name_skeleton = n, name_key(n), skeleton(n)
        player.password_hash, player.is_guest = digest, False
        # A guest's session may be older than a registered one may be: it starts now.
        await s.execute(update(Session).where(Session.id == authed.session)
                        .values(created=now, used=now))
        try:
            await s.flush()
        except IntegrityError:
            raise _taken(n) from None
        return player


@cache
def _dummy_hash(hasher: PasswordHasher) -> str:
    return hasher.hash("not a password anyone has")


def _verify(hasher: PasswordHasher, digest: str, password: str) -> bool:
    try:
        return hasher.verify(digest, password)
    except (VerificationError, InvalidHashError):
        return False


async def _known_device(db: Database, device: str | None, player_id: str) -> bool:
    """Whether ``device`` (a token the client kept) is one of this account's sessions,
    expired or not, but not revoked: the lockout's known device (hall.store.lockout)."""
    if not device:
        return False
    holder = await sessions.player_of(db, device)
    return holder is not None and holder.id == player_id


async def _check_password(db: Database, player: Player, password: str, hasher: PasswordHasher,
                          policy: LockoutPolicy, now: datetime, counted: bool) -> bool:
    """Whether ``password`` is the player's; counted against the lockout if ``counted``."""
    if counted:
        await lockout.reserve(db, player.id, policy, now)
    digest = player.password_hash
    ok = digest is not None and await asyncio.to_thread(_verify, hasher, digest, password)
    if ok and (counted or player.failed_logins):
        await lockout.clear(db, player.id)
    return ok


async def login(db: Database, name: str, password: str, hasher: PasswordHasher = HASHER,
                now: datetime | None = None, *, policy: LockoutPolicy = DEFAULT_LOCKOUT,
                device: str | None = None, agent: str = "") -> Login:
    """A new token for a name and password. AuthFailed for a wrong name or password
    (the same answer for both), LockedOut after too many wrong passwords for the name
    (unless ``device``, a token the client kept, is one of the account's sessions),
    Banned for a banned account."""
    now = now or utcnow()
    if not isinstance(name, str) or not isinstance(password, str):
        raise AuthFailed("wrong name or password")
    async with db.read() as s:
        player = (await s.execute(
            select(Player).where(Player.name_key == name_key(name)))).scalar_one_or_none()
    if player is None or player.password_hash is None:
        await asyncio.to_thread(_verify, hasher, _dummy_hash(hasher), password)
        raise AuthFailed("wrong name or password")
    known = await _known_device(db, device, player.id)
    if not await _check_password(db, player, password, hasher, policy, now, not known):
        raise AuthFailed("wrong name or password")
    if player.banned:
        raise Banned("this account is banned")
    digest = player.password_hash
    async with db.transaction() as s:
        if hasher.check_needs_rehash(digest):  # the cost settings were raised since
            new = await _hash(password, hasher)
            await s.execute(update(Player).where(Player.id == player.id)
                            .values(password_hash=new))
        sess, token = sessions.new_session(player.id, now, agent)
        s.add(sess)
    return Login(player, token)


async def change_password(db: Database, player: Player, session_id: str, old: str, new: str,
                          hasher: PasswordHasher = HASHER, now: datetime | None = None,
                          policy: LockoutPolicy = DEFAULT_LOCKOUT) -> list[str]:
    """Set a new password (the old one must be right: a wrong one counts towards the
    lockout like a failed login) and end every other session of the account; the ids
    of the sessions ended (their sockets are the caller's to close)."""
    now = now or utcnow()
    if player.is_guest or player.password_hash is None:
        raise BadPassword("a guest has no password: register a name and password first")
    check_password(new)
    if not isinstance(old, str) or not await _check_password(db, player, old, hasher, policy,
                                                             now, True):
        raise AuthFailed("the current password is wrong")
    digest = await _hash(new, hasher)
    async with db.transaction() as s:
        await s.execute(update(Player).where(Player.id == player.id)
                        .values(password_hash=digest))
        return await sessions.revoke_others(s, player.id, session_id, now)


async def player_by_token(db: Database, token: str,
                          policy: SessionPolicy = DEFAULT_POLICY) -> Player | None:
    """The player a token belongs to; None for an unknown, revoked or expired token or
    a banned player (``sessions.authenticate`` says which)."""
    try:
        return (await sessions.authenticate(db, token, policy)).player
    except TokenRefused:
        return None


async def revoke_token(db: Database, token: str,
                       now: datetime | None = None) -> tuple[str, str] | None:
    """Log out one token: (its player's id, its session's id), None if it was unknown or
    already revoked."""
    async with db.transaction() as s:
        row = (await s.execute(select(Session.player_id, Session.id).where(
            Session.token_hash == hash_token(token), Session.revoked.is_(None)))).one_or_none()
        if row is None:
            return None
        await s.execute(update(Session).where(Session.id == row[1])
                        .values(revoked=now or utcnow()))
        return str(row[0]), str(row[1])


async def revoke_all(db: Database, player_id: str, now: datetime | None = None) -> int:
    """Log a player out everywhere; how many tokens were revoked."""
    async with db.transaction() as s:
        return len(await sessions.revoke_others(s, player_id, None, now or utcnow()))


async def get_player(db: Database, player_id: str) -> Player:
    async with db.read() as s:
        player = await s.get(Player, player_id)
        if player is None:
            raise NotFound(f"no player {player_id!r}")
        return player


async def set_banned(db: Database, player_id: str, banned: bool) -> list[str]:
    """Ban or unban (an admin's act); a ban also ends every session of the player. His
    bot accounts go with him (banned or unbanned alike: a banned player must not play
    on through his programs); their ids are returned (their sockets are the caller's)."""
    async with db.transaction() as s:
        result = await s.execute(update(Player).where(Player.id == player_id)
                                 .values(banned=banned))
        if not result.rowcount:  # type: ignore[attr-defined]
            raise NotFound(f"no player {player_id!r}")
        bots = list(await s.scalars(select(Player.id).where(Player.bot_owner == player_id)))
        if bots:
            await s.execute(update(Player).where(Player.id.in_(bots)).values(banned=banned))
        if banned:
            await s.execute(update(Session).where(Session.player_id.in_([player_id, *bots]),
                                                  Session.revoked.is_(None))
                            .values(revoked=utcnow()))
        return bots


@dataclass(frozen=True, slots=True)
class VariantRecord:
    games: int
    wins: int
    points: int
    beans: int


@dataclass(frozen=True, slots=True)
class Profile:
    """What ``GET /api/me`` shows: beans, points, title, per-variant record."""

    id: str
    name: str
    is_guest: bool
    beans: int
    points: int
    level: Level
    golden_eyes: int
    record: dict[str, VariantRecord]
    #: Of ``beans``, those a game in progress holds (ruling 15): not to be spent until it ends.
    held: int = 0
    #: A bot account's owner, ``{"id", "name"}`` (None: a person's account).
    owner: dict[str, str] | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id, "name": self.name, "guest": self.is_guest, "beans": self.beans,
            "points": self.points, "title": title_of(self.points, self.owner is not None),
            "bot": self.owner is not None, "owner": self.owner, "level": self.level.number,
            "level_points": self.level.threshold,
            "next_level_points": self.level.next_threshold, "golden_eyes": self.golden_eyes,
            "held": self.held,
            "record": {v: {"games": r.games, "wins": r.wins, "points": r.points,
                           "beans": r.beans} for v, r in self.record.items()},
        }


async def profile(db: Database, player_id: str) -> Profile:
    async with db.transaction() as s:
        player = await s.get(Player, player_id)
        if player is None:
            raise NotFound(f"no player {player_id!r}")
        stats = (await s.execute(select(Stat).where(Stat.player_id == player_id)
                                 .order_by(Stat.variant))).scalars()
        return Profile(
            player.id, player.name, player.is_guest, await balance_in(s, player_id),
            player.points, level_for(player.points), await items_in(s, player_id, GOLDEN_EYE),
            {st.variant: VariantRecord(st.games, st.wins, st.points, st.beans) for st in stats},
            await held_in(s, player_id), await _owner(s, player))


async def _owner(s: AsyncSession, player: Player) -> dict[str, str] | None:
    if player.bot_owner is None:
        return None
    owner = await s.get(Player, player.bot_owner)
    return {"id": player.bot_owner, "name": owner.name if owner is not None else ""}
