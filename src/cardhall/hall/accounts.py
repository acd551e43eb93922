"""Accounts: guests in one call, registration and login, session tokens.

- **Names** are 2–16 characters of letters (any script, so Chinese names work),
  digits, ``_`` and ``-``, compared case-insensitively after NFKC normalisation (so
  ``Ａｌｉｃｅ`` is ``alice``). Prefixes the hall uses for generated names (游客,
  guest, 机器人, bot) are reserved, so nobody can pass for a guest or a bot.
- **Passwords** are hashed with argon2id (argon2-cffi's PasswordHasher). Hashing is
  deliberately slow, so it runs in a worker thread, never on the event loop. Login
  answers "wrong name or password" for both cases and hashes even for an unknown name,
  so neither the answer nor its timing tells whether a name exists.
- **Tokens** are ``secrets.token_urlsafe(32)``; only their SHA-256 is stored, so the
  database alone cannot be used to log in. Revoking sets ``revoked``; a banned player's
  tokens stop working at once.

Every new account gets ``economy.starting_beans`` as a ``start`` ledger entry in the
same transaction that creates it.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from cardhall.hall.config import Economy
from cardhall.hall.db import Database
from cardhall.hall.errors import AuthFailed, BadName, BadPassword, Banned, NameTaken, NotFound
from cardhall.hall.ledger import GOLDEN_EYE, add_entry, balance_in, held_in, items_in
from cardhall.hall.levels import Level, level_for
from cardhall.hall.models import Player, Session, Stat, utcnow

NAME_MIN, NAME_MAX = 2, 16
PASSWORD_MIN, PASSWORD_MAX = 6, 128
GUEST_PREFIX = "游客"
RESERVED_PREFIXES = ("游客", "guest", "机器人", "bot")
_NAME_PUNCT = frozenset("_-")

HASHER = PasswordHasher()  # argon2id with the library's recommended cost


def new_id() -> str:
    """A random id (128 bits, hex): nothing can be learnt from or guessed about it."""
    return secrets.token_hex(16)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def normalise_name(name: object) -> str:
    """The name as it will be stored (NFKC, checked); BadName says what is wrong."""
    if not isinstance(name, str):
        raise BadName("a name is text")
    n = unicodedata.normalize("NFKC", name)
    if not NAME_MIN <= len(n) <= NAME_MAX:
        raise BadName(f"a name has {NAME_MIN} to {NAME_MAX} characters, not {len(n)}")
    for ch in n:
        cat = unicodedata.category(ch)
        if not (cat.startswith("L") or cat == "Nd" or ch in _NAME_PUNCT):
            raise BadName(f"a name may hold letters, digits, _ and -, not {ch!r}")
    return n


def name_key(name: str) -> str:
    """What uniqueness is decided on: the normalised name, case-folded."""
    return unicodedata.normalize("NFKC", name).casefold()


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


def _new_session(player_id: str, now: datetime) -> tuple[Session, str]:
    token = secrets.token_urlsafe(32)
    return Session(token_hash=hash_token(token), player_id=player_id, created=now), token


async def _create(db: Database, name: str, password_hash: str | None, economy: Economy,
                  now: datetime) -> Login:
    player = Player(id=new_id(), name=name, name_key=name_key(name),
                    password_hash=password_hash, is_guest=password_hash is None,
                    is_admin=False, banned=False, points=0, created=now)
    async with db.transaction() as s:
        s.add(player)
        await s.flush()  # the player row first: the ledger entry refers to it
        if economy.starting_beans:
            add_entry(s, player.id, economy.starting_beans, "start", now=now)
        sess, token = _new_session(player.id, now)
        s.add(sess)
    return Login(player, token)


async def create_guest(db: Database, economy: Economy, now: datetime | None = None) -> Login:
    """A new guest account (name 游客 + 6 digits, unique) with the starting beans."""
    now = now or utcnow()
    for _ in range(20):
        name = f"{GUEST_PREFIX}{secrets.randbelow(10**6):06d}"
        try:
            return await _create(db, name, None, economy, now)
        except IntegrityError:
            continue  # that name was taken (by now or just now): draw another
    raise NameTaken("could not find a free guest name; try again")


async def _hash(password: str, hasher: PasswordHasher) -> str:
    return await asyncio.to_thread(hasher.hash, password)


async def _name_taken(db: Database, key: str) -> bool:
    async with db.transaction() as s:
        return await s.scalar(select(Player.id).where(Player.name_key == key)) is not None


async def register(db: Database, name: str, password: str, economy: Economy,
                   hasher: PasswordHasher = HASHER, now: datetime | None = None) -> Login:
    """A new account with a password. BadName, NameTaken or BadPassword say why not."""
    n = check_new_name(name)
    check_password(password)
    if await _name_taken(db, name_key(n)):
        raise NameTaken(f"the name {n!r} is taken")
    digest = await _hash(password, hasher)
    try:
        return await _create(db, n, digest, economy, now or utcnow())
    except IntegrityError:
        raise NameTaken(f"the name {n!r} is taken") from None


async def claim_guest(db: Database, token: str, name: str, password: str,
                      hasher: PasswordHasher = HASHER) -> Player:
    """Turn the guest behind ``token`` into a registered account, beans and record kept."""
    n = check_new_name(name)
    check_password(password)
    digest = await _hash(password, hasher)
    async with db.transaction() as s:
        player = await _player_for_token(s, token)
        if player is None:
            raise AuthFailed("not logged in")
        if not player.is_guest:
            raise BadName("this account already has a name")
        if await s.scalar(select(Player.id).where(Player.name_key == name_key(n))) is not None:
            raise NameTaken(f"the name {n!r} is taken")
        player.name, player.name_key = n, name_key(n)
        player.password_hash, player.is_guest = digest, False
        try:
            await s.flush()
        except IntegrityError:
            raise NameTaken(f"the name {n!r} is taken") from None
        return player


@cache
def _dummy_hash(hasher: PasswordHasher) -> str:
    return hasher.hash("not a password anyone has")


def _verify(hasher: PasswordHasher, digest: str, password: str) -> bool:
    try:
        return hasher.verify(digest, password)
    except (VerificationError, InvalidHashError):
        return False


async def login(db: Database, name: str, password: str, hasher: PasswordHasher = HASHER,
                now: datetime | None = None) -> Login:
    """A new token for a name and password. AuthFailed for a wrong name or password
    (the same answer for both), Banned for a banned account."""
    now = now or utcnow()
    if not isinstance(name, str) or not isinstance(password, str):
        raise AuthFailed("wrong name or password")
    async with db.transaction() as s:
        player = (await s.execute(
            select(Player).where(Player.name_key == name_key(name)))).scalar_one_or_none()
    digest = player.password_hash if player is not None else None
    ok = await asyncio.to_thread(_verify, hasher, digest or _dummy_hash(hasher), password)
    if player is None or digest is None or not ok:
        raise AuthFailed("wrong name or password")
    if player.banned:
        raise Banned("this account is banned")
    async with db.transaction() as s:
        if hasher.check_needs_rehash(digest):  # the cost settings were raised since
            new = await _hash(password, hasher)
            await s.execute(update(Player).where(Player.id == player.id)
                            .values(password_hash=new))
        sess, token = _new_session(player.id, now)
        s.add(sess)
    return Login(player, token)


async def _player_for_token(s: AsyncSession, token: str) -> Player | None:
    if not isinstance(token, str) or not token:
        return None
    return (await s.execute(
        select(Player).join(Session, Session.player_id == Player.id)
        .where(Session.token_hash == hash_token(token), Session.revoked.is_(None),
               Player.banned.is_(False)))).scalar_one_or_none()


async def player_by_token(db: Database, token: str) -> Player | None:
    """The player a token belongs to; None for an unknown or revoked token or a banned
    player."""
    async with db.read() as s:
        return await _player_for_token(s, token)


async def revoke_token(db: Database, token: str, now: datetime | None = None) -> bool:
    """Log out one token; False if it was unknown or already revoked."""
    async with db.transaction() as s:
        result = await s.execute(
            update(Session).where(Session.token_hash == hash_token(token),
                                  Session.revoked.is_(None)).values(revoked=now or utcnow()))
        return bool(result.rowcount)  # type: ignore[attr-defined]


async def revoke_all(db: Database, player_id: str, now: datetime | None = None) -> int:
    """Log a player out everywhere; how many tokens were revoked."""
    async with db.transaction() as s:
        result = await s.execute(
            update(Session).where(Session.player_id == player_id, Session.revoked.is_(None))
            .values(revoked=now or utcnow()))
        return int(result.rowcount)  # type: ignore[attr-defined]


async def get_player(db: Database, player_id: str) -> Player:
    async with db.read() as s:
        player = await s.get(Player, player_id)
        if player is None:
            raise NotFound(f"no player {player_id!r}")
        return player


async def set_banned(db: Database, player_id: str, banned: bool) -> None:
    """Ban or unban (an admin's act); a ban also ends every session of the player."""
    async with db.transaction() as s:
        result = await s.execute(update(Player).where(Player.id == player_id)
                                 .values(banned=banned))
        if not result.rowcount:  # type: ignore[attr-defined]
            raise NotFound(f"no player {player_id!r}")
        if banned:
            await s.execute(update(Session).where(Session.player_id == player_id,
                                                  Session.revoked.is_(None))
                            .values(revoked=utcnow()))


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

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id, "name": self.name, "guest": self.is_guest, "beans": self.beans,
            "points": self.points, "title": self.level.title, "level": self.level.number,
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
            await held_in(s, player_id))
