"""Session tokens: made at login, checked on every request and hello, listed, revoked.

- **Tokens** are ``secrets.token_urlsafe(32)``; only their SHA-256 is stored, so the
  database alone cannot be used to log in. Each session also has a public ``id``
  (random, unrelated to the token): what its owner sees in the list and revokes by.
- **Expiry** (``[accounts]`` in the config, ``SessionPolicy``): a registered player's
  session ends ``session_days`` after its login, and sooner when unused for
  ``idle_days``. A guest's token is his only key to the account (no password), so it
  has no fixed lifetime: it ends only when unused for ``guest_idle_days``; so does a
  bot account's (``hall.store.bots``), which its owner replaces at will.
  ``used`` is refreshed at most once per ``TOUCH`` (an hour), so checking a token
  writes to the database at most hourly per session; in the server those writes go
  through a ``Toucher``, which nobody waits for and which gathers the touches that
  come while one is being written into one UPDATE (after a restart, every returning
  player's hello touches his session at once: one write per batch, not per hello).
- **Ends** are told apart (``TokenRefused.why``): an unknown token, a revoked one
  (logout, revoked from another device, a password change, a ban) and an expired
  one each get their own sentence, so a client can say why it must log in again.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from cardhall.hall.domain.config import Accounts
from cardhall.hall.domain.errors import HallError, NotFound
from cardhall.hall.store.db import Database
from cardhall.hall.store.models import Player, Session, utcnow

#: ``used`` is written at most this often per session.
TOUCH = timedelta(hours=1)
AGENT_MAX = 128

log = logging.getLogger("cardhall.hall.sessions")


class TokenRefused(HallError):
    """A token that cannot be used: ``why`` is unknown, revoked, expired or banned."""

    code = "bad_token"

    def __init__(self, why: Literal["unknown", "revoked", "expired", "banned"]) -> None:
        self.why = why
        if why == "expired":
            self.code = "session_expired"
        super().__init__({
            "unknown": "unknown token: log in again",
            "revoked": "this session was ended (logged out, revoked from another device "
                       "or by a password change): log in again",
            "expired": "your session has expired: log in again",
            "banned": "this account is banned",
        }[why])


@dataclass(frozen=True, slots=True)
class SessionPolicy:
    """How long sessions last (from ``[accounts]``); ``idle`` None: no idle limit."""

    lifetime: timedelta
    idle: timedelta | None
    guest_idle: timedelta

    @classmethod
    def of(cls, accounts: Accounts) -> SessionPolicy:
        return cls(timedelta(days=accounts.session_days),
                   timedelta(days=accounts.idle_days) if accounts.idle_days else None,
                   timedelta(days=accounts.guest_idle_days))

    def ends(self, session: Session, guest: bool) -> datetime:
        """When ``session`` expires if it is not used again; ``guest``: its account has
        only its token (a guest's, a bot's: ``Player.token_only``)."""
        return self.end_of(session.created, session.used or session.created, guest)

    def end_of(self, created: datetime, last: datetime, guest: bool) -> datetime:
        """When a session made at ``created`` and last used at ``last`` expires."""
        if guest:
            return last + self.guest_idle
        end = created + self.lifetime
        return min(end, last + self.idle) if self.idle is not None else end


DEFAULT_POLICY = SessionPolicy.of(Accounts())


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_session(player_id: str, now: datetime, agent: str = "") -> tuple[Session, str]:
    """A session row for a new login and its token (shown once, never stored)."""
    token = secrets.token_urlsafe(32)
    return Session(token_hash=hash_token(token), id=secrets.token_hex(16),
                   player_id=player_id, created=now, agent=agent[:AGENT_MAX]), token


@dataclass(frozen=True, slots=True)
class Authed:
    """A token that works: its player, its session's public id and when that session
    ends if it is not used again (a socket open then is closed: ``server.expiry``)."""

    player: Player
    session: str
    ends: datetime


async def _lookup(s: AsyncSession, token: str) -> tuple[Session, Player] | None:
    if not isinstance(token, str) or not token:
        return None
    row = (await s.execute(
        select(Session, Player).join(Player, Session.player_id == Player.id)
        .where(Session.token_hash == hash_token(token)))).one_or_none()
    return None if row is None else (row[0], row[1])


class Toucher:
    """Writes sessions' ``used`` in batches, in the background: ``touch`` returns at
    once; touches made while a batch is being written go in the next one (one UPDATE).
    A touch lost to a failed write only makes the idle limit count from an hour
    earlier, so a failure is logged, not retried."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._pending: dict[str, datetime] = {}
        self._task: asyncio.Task[None] | None = None
        self.batches = 0  # UPDATEs sent (for tests)

    def touch(self, token_hash: str, now: datetime) -> None:
        self._pending[token_hash] = now
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(),
                                                                name="session-toucher")

    async def _run(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, {}
            try:
                async with self.db.transaction() as s:
                    await s.execute(update(Session).where(Session.token_hash.in_(list(batch)))
                                    .values(used=max(batch.values())))
                self.batches += 1
            except Exception as exc:  # best effort: see the class doc
                log.warning("could not record %d sessions' last use: %s", len(batch), exc)

    async def written(self) -> None:
        """Wait for the touches already made."""
        if self._task is not None:
            await self._task

    async def close(self) -> None:
        await self.written()


async def authenticate(db: Database, token: str, policy: SessionPolicy = DEFAULT_POLICY,
                       now: datetime | None = None, toucher: Toucher | None = None) -> Authed:
    """The player and session of a live token; TokenRefused says why not. The session's
    last use is recorded (hourly) through ``toucher``, else here and now."""
    now = now or utcnow()
    async with db.read() as s:
        found = await _lookup(s, token)
    if found is None:
        raise TokenRefused("unknown")
    sess, player = found
    if sess.revoked is not None:
        raise TokenRefused("revoked")
    if player.banned:
        raise TokenRefused("banned")
    if player.retired is not None:  # a retired bot account: whatever session it has
        raise TokenRefused("revoked")
    if now >= policy.ends(sess, player.token_only):
        raise TokenRefused("expired")
    last = sess.used or sess.created
    if now - last >= TOUCH:
        last = now
        if toucher is not None:
            toucher.touch(sess.token_hash, now)
        else:
            async with db.transaction() as s:
                await s.execute(update(Session).where(Session.token_hash == sess.token_hash)
                                .values(used=now))
    return Authed(player, sess.id, policy.end_of(sess.created, last, player.token_only))


async def ends_of(db: Database, session_ids: Collection[str],
                  policy: SessionPolicy = DEFAULT_POLICY) -> dict[str, datetime | None]:
    """When each of these sessions ends unless used again, as the database has it now
    (a use since the last look moves an idle end on); None for one that was revoked
    or whose player is banned or a retired bot. Sessions not found are left out."""
    async with db.read() as s:
        rows = (await s.execute(
            select(Session, Player.is_guest, Player.bot_owner, Player.banned, Player.retired)
            .join(Player, Session.player_id == Player.id)
            .where(Session.id.in_(list(session_ids))))).all()
    return {sess.id: None if sess.revoked is not None or banned or retired is not None
            else policy.ends(sess, guest or owner is not None)
            for sess, guest, owner, banned, retired in rows}


async def player_of(db: Database, token: str) -> Player | None:
    """The player a token belongs to if its session was not revoked, even when it has
    expired: the lockout's known-device proof (hall.store.lockout)."""
    async with db.read() as s:
        found = await _lookup(s, token)
    return None if found is None or found[0].revoked is not None else found[1]


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """One line of ``GET /api/sessions``: never the token, nor its hash."""

    id: str
    created: datetime
    used: datetime
    expires: datetime
    agent: str
    current: bool

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "created": self.created.isoformat(),
                "used": self.used.isoformat(), "expires": self.expires.isoformat(),
                "agent": self.agent, "current": self.current}


async def live_sessions(db: Database, player: Player, current: str,
                        policy: SessionPolicy = DEFAULT_POLICY,
                        now: datetime | None = None) -> list[SessionInfo]:
    """The player's sessions that still work, newest first (``current``: the asker's)."""
    now = now or utcnow()
    async with db.read() as s:
        rows = (await s.execute(
            select(Session).where(Session.player_id == player.id, Session.revoked.is_(None))
            .order_by(Session.created.desc(), Session.id))).scalars().all()
    out = []
    for sess in rows:
        ends = policy.ends(sess, player.token_only)
        if now < ends:
            out.append(SessionInfo(sess.id, sess.created, sess.used or sess.created, ends,
                                   sess.agent, sess.id == current))
    return out


async def revoke(db: Database, player_id: str, session_id: str,
                 now: datetime | None = None) -> None:
    """End one of the player's sessions; NotFound if he has no such live session."""
    async with db.transaction() as s:
        result = await s.execute(
            update(Session).where(Session.id == session_id, Session.player_id == player_id,
                                  Session.revoked.is_(None)).values(revoked=now or utcnow()))
        if not result.rowcount:  # type: ignore[attr-defined]
            raise NotFound("no such session (it has ended already, or is not yours)")


async def revoke_others(s: AsyncSession, player_id: str, keep: str | None,
                        now: datetime) -> list[str]:
    """End every live session of the player but ``keep``; their ids (in ``s``)."""
    where = [Session.player_id == player_id, Session.revoked.is_(None)]
    if keep is not None:
        where.append(Session.id != keep)
    ids = list((await s.execute(select(Session.id).where(*where))).scalars())
    if ids:
        await s.execute(update(Session).where(Session.id.in_(ids)).values(revoked=now))
    return ids


async def session_id(db: Database, token: str) -> str | None:
    """The public id of a token's session (None: unknown)."""
    async with db.read() as s:
        return await s.scalar(select(Session.id).where(Session.token_hash == hash_token(token)))
