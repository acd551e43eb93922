"""The hall's tables, as SQLAlchemy 2 declarative models.

The schema is owned by the Alembic migrations in ``migrations/versions``; these models
must say the same (a test compares them against a migrated database). Two rules shape
it:

- **Money is append-only.** A balance is the sum of a player's ``ledger`` entries and
  an item count the sum of his ``items`` entries; nothing is ever updated or deleted,
  so every bean can be traced to a reason, and a game's entries are unique per
  (game, player, reason), which makes a settlement impossible to apply twice.
- **A table's history is its action log.** ``actions`` holds every accepted action of
  a live game with its sequence number, unique per game; a restarted server (or
  another process) rebuilds a live game by replaying it.

Ids are random strings (the wire contract's ``"id": str``); times are UTC and come
back timezone-aware from SQLite too.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    false,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class UTCDateTime(TypeDecorator[datetime]):
    """A UTC timestamp that reads back aware on every backend (SQLite drops the zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the database; use UTC-aware times")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


#: Integer ids that autoincrement on SQLite (which needs INTEGER PRIMARY KEY) and are
#: 64-bit on PostgreSQL: the ledger outlives any 32-bit counter.
BigId = BigInteger().with_variant(Integer(), "sqlite")
Json = JSON().with_variant(JSONB(), "postgresql")

# Constraint names fixed by convention so migrations can name what they change.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


def utcnow() -> datetime:
    return datetime.now(UTC)


class Player(Base):
    """An account. Guests have no password; ``name_key`` is the name folded for the
    case-insensitive uniqueness rule. ``points`` is the cumulative 积分 (floored at 0)
    that the level title is read from, ``points_at`` when it last changed."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(64), unique=True)
    #: ``names.skeleton(name)``: two names that look alike share it, and it is unique
    #: (an index: see migration 0004; every write sets it, the default is never used).
    name_skeleton: Mapped[str] = mapped_column(String(96), index=True, unique=True,
                                               server_default="")
    password_hash: Mapped[str | None] = mapped_column(String(255))
    is_guest: Mapped[bool] = mapped_column(Boolean, default=False)
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    banned: Mapped[bool] = mapped_column(Boolean, default=False)
    points: Mapped[int] = mapped_column(BigInteger, default=0)
    points_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: ``points`` without private tables' games (docs/rulings.md, "The hall"): the overall
    #: all-time leaderboard's value; floored at 0 the same way.
    ranked_points: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    ranked_points_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    #: Wrong passwords in a row and when logins are refused until (hall.store.lockout).
    failed_logins: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    locked_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_failed: Mapped[datetime | None] = mapped_column(UTCDateTime)


class Session(Base):
    """A login. Only the SHA-256 of the token is stored, so a leaked database does not
    leak usable tokens; ``id`` is the public name of the session (listed to its owner,
    revoked by it), never the token. ``revoked`` is set on logout and never cleared;
    ``used`` is when the token was last used (refreshed at most hourly), which the idle
    limit is read from (hall.store.sessions)."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    id: Mapped[str] = mapped_column(String(32), unique=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    used: Mapped[datetime | None] = mapped_column(UTCDateTime)
    agent: Mapped[str] = mapped_column(String(128), default="", server_default="")
    revoked: Mapped[datetime | None] = mapped_column(UTCDateTime)


class Game(Base):
    """One game (局) at a table. ``players`` lists player ids by seat (None for a bot);
    ``beans`` each seat's bean change once settled, keyed by seat number as text, and
    ``fees`` the fee (服务费) in each of those changes, keyed the same (None: settled
    before the hall kept it)."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(64), index=True)
    room_id: Mapped[str] = mapped_column(String(64))
    variant: Mapped[str] = mapped_column(String(32))
    players: Mapped[list[str | None]] = mapped_column(Json)
    record: Mapped[dict[str, Any] | None] = mapped_column(Json)
    result: Mapped[dict[str, Any] | None] = mapped_column(Json)
    beans: Mapped[dict[str, int] | None] = mapped_column(Json)
    fees: Mapped[dict[str, int] | None] = mapped_column(Json)
    status: Mapped[str] = mapped_column(String(16), default="live", index=True)
    started: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    ended: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: The fencing token of the process that owns the game's table (0: one process).
    #: Appends and settlements carry their writer's token and are refused when it is
    #: not this one: a process that lost its lease cannot write (docs/deploy.md).
    fence: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    #: Played at a private table (好友房): for points only, no beans, and left off the
    #: leaderboards (docs/rulings.md, "The hall").
    private: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class Action(Base):
    """The append-only action log of a game: what was accepted, by which seat, in order.
    The primary key (game, seq) refuses a second action with the same number, which is
    how two processes racing on one table are told apart."""

    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class LedgerEntry(Base):
    """One bean movement. ``reason`` is one of ledger.REASONS."""

    __tablename__ = "ledger"
    __table_args__ = (
        UniqueConstraint("game_id", "player_id", "reason", name="uq_ledger_game_player_reason"),
        Index("ix_ledger_player_created", "player_id", "created"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    delta: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(String(16))
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id"))
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ItemEntry(Base):
    """One change of a player's items (e.g. +1 Golden Eye bought, −1 used in a game)."""

    __tablename__ = "items"
    __table_args__ = (Index("ix_items_player_kind", "player_id", "kind"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    kind: Mapped[str] = mapped_column(String(32))
    delta: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(16))
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id"))
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Seating(Base):
    """Where a player sits: one row while he is seated at a table. The primary key is
    the player, so a second seat anywhere (a racing join, another process) is refused
    by the database itself; the row goes when he leaves the table or it closes."""

    __tablename__ = "seatings"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(64), index=True)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Hold(Base):
    """Beans held for a live game: the most its player can lose in it, taken at the
    game's start. Held beans cannot be spent; the settlement takes the loss from them
    and the game's end (settled or dissolved) deletes the hold."""

    __tablename__ = "holds"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True,
                                           index=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Score(Base):
    """A player's points (X) in one scored game: the rows period leaderboards sum."""

    __tablename__ = "scores"
    __table_args__ = (Index("ix_scores_variant_created", "variant", "created"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    variant: Mapped[str] = mapped_column(String(32))
    points: Mapped[int] = mapped_column(BigInteger)
    beans: Mapped[int] = mapped_column(BigInteger)
    won: Mapped[bool] = mapped_column(Boolean)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Stat(Base):
    """A player's all-time record in one variant (/api/me); the ``ranked_`` columns
    leave private tables' games out (the all-time boards)."""

    __tablename__ = "stats"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[int] = mapped_column(BigInteger, default=0)
    beans: Mapped[int] = mapped_column(BigInteger, default=0)
    points_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    ranked_games: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    ranked_points: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    ranked_points_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
