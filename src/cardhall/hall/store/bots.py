"""Bot accounts (issue 23; docs/bots.md): programs a registered player runs in the hall.

A bot account is a player row with ``bot_owner`` set. It has no password: its token
(a session, as a login's) is its only key, shown to its owner once when the bot is made
and each time he replaces it; like a guest's, it has no fixed lifetime and ends when
unused for ``guest_idle_days`` (``sessions.SessionPolicy``), when replaced, or when the
bot is retired. The owner holds at most ``bots_per_owner`` live bots.

- **Names** follow the players' rules and share their uniqueness (a look-alike of any
  player's or bot's name is taken): a bot cannot pass for a person, nor for another bot.
- **Who**: only a registered player, not banned, who is not a bot himself.
- **Retired** bots (``retired`` set) log in no more: every session ends, the row stays
  (its games, ratings and name are history) and it no longer counts towards the limit.
- A ban of the owner bans his bots too (``accounts.set_banned``).

Every new bot gets the starting beans, as every account does (``accounts``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, and_, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from cardhall.hall.domain.config import Economy
from cardhall.hall.domain.errors import Forbidden, NotFound, TooManyBots
from cardhall.hall.domain.names import name_key
from cardhall.hall.store import sessions
from cardhall.hall.store.accounts import Login, _create, _name_taken, _taken, check_new_name
from cardhall.hall.store.db import Database
from cardhall.hall.store.models import Player, utcnow

#: The agent a bot's session is listed with (the owner made it, not a browser).
AGENT = "bot account"


@dataclass(frozen=True, slots=True)
class Bot:
    """One line of ``GET /api/bots``: never its token."""

    id: str
    name: str
    created: datetime

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name, "created": self.created.isoformat(),
                "bot": True}


def _may_own(owner: Player) -> None:
    if owner.is_guest:
        raise Forbidden("register a name and password to make bot accounts")
    if owner.is_bot:
        raise Forbidden("a bot account cannot make bots")
    if owner.banned:
        raise Forbidden("this account is banned")


async def _lock_owner(s: AsyncSession, owner_id: str) -> None:
    """Take the owner's row for the transaction (PostgreSQL): two makings at once count
    each other's bot, so the limit holds; and his ban is read again under it (a ban
    takes the same row), so a bot made while he is banned never outlives the ban.
    SQLite's writers take turns already."""
    banned = await s.scalar(select(Player.banned).where(Player.id == owner_id)
                            .with_for_update())
    if banned:
        raise Forbidden("this account is banned")


def _live(owner_id: str) -> ColumnElement[bool]:
    return and_(Player.bot_owner == owner_id, Player.retired.is_(None))


async def create(db: Database, owner: Player, name: object, economy: Economy, most: int,
                 now: datetime | None = None) -> Login:
    """A new bot of ``owner`` named ``name``, and its token (shown once). Forbidden for a
    guest, a bot or a banned player; BadName, NameTaken as for a person's name;
    TooManyBots past ``most`` live bots."""
    _may_own(owner)
    n = check_new_name(name)
    if await _name_taken(db, n):
        raise _taken(n)

    async def within_limit(s: AsyncSession) -> None:
        await _lock_owner(s, owner.id)
        held = await s.scalar(select(func.count()).select_from(Player)
                              .where(_live(owner.id))) or 0
        if held >= most:
            raise TooManyBots(f"you hold {held} bot accounts, the most one player may: "
                              "retire one first")

    try:
        return await _create(db, n, None, economy, now or utcnow(), AGENT, bot_owner=owner.id,
                             check=within_limit)
    except IntegrityError:  # the same name, or a look-alike, taken just now
        raise _taken(n) from None


async def mine(db: Database, owner_id: str) -> list[Bot]:
    """The owner's live bots, oldest first."""
    async with db.read() as s:
        rows = (await s.scalars(select(Player).where(_live(owner_id))
                                .order_by(Player.created, Player.id))).all()
    return [Bot(p.id, p.name, p.created) for p in rows]


async def _bot(s: AsyncSession, owner_id: str, name: str) -> Player:
    """The owner's live bot of that name, its row taken for the transaction: a new token
    and a retirement at once take turns, and the second finds what the first left (on
    PostgreSQL a new token made beside a retirement outlived it)."""
    bot = (await s.scalars(select(Player).where(
        Player.name_key == name_key(name), _live(owner_id)).with_for_update())).one_or_none()
    if bot is None:
        raise NotFound(f"you have no bot named {name[:32]!r}")
    return bot


@dataclass(frozen=True, slots=True)
class Ended:
    """A bot whose sessions ended: its id and theirs (their sockets are the caller's
    to close)."""

    bot: Player
    sessions: list[str]


async def new_token(db: Database, owner: Player, name: str,
                    now: datetime | None = None) -> tuple[Login, Ended]:
    """Replace the bot's token: every session it had ends at once, a new one is made."""
    _may_own(owner)
    now = now or utcnow()
    async with db.transaction() as s:
        bot = await _bot(s, owner.id, name)
        ended = await sessions.revoke_others(s, bot.id, None, now)
        sess, token = sessions.new_session(bot.id, now, AGENT)
        s.add(sess)
    return Login(bot, token), Ended(bot, ended)


async def retire(db: Database, owner: Player, name: str, now: datetime | None = None) -> Ended:
    """Retire the bot: it logs in no more (every session ends); its games stay."""
    now = now or utcnow()
    async with db.transaction() as s:
        bot = await _bot(s, owner.id, name)
        await s.execute(update(Player).where(Player.id == bot.id).values(retired=now))
        return Ended(bot, await sessions.revoke_others(s, bot.id, None, now))


async def bots_of(s: AsyncSession, owner_id: str) -> list[str]:
    """The ids of every bot the owner made, retired or not (in ``s``)."""
    return list(await s.scalars(select(Player.id).where(Player.bot_owner == owner_id)))


async def owner_of(db: Database, bot: Player) -> Player | None:
    """The bot's owner (None: a person's account, or its owner is gone)."""
    if bot.bot_owner is None:
        return None
    async with db.read() as s:
        return await s.get(Player, bot.bot_owner)
