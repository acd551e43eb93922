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
    Double,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    false,
    text,
    true,
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
    that the level title is read from, ``points_at`` when it last changed.

    On PostgreSQL ``ix_players_name_key_prefix`` serves the friends search's prefix
    ``LIKE`` (the unique index does not, under a collation other than C); SQLite has no
    such index (its ``LIKE`` folds case, so no index would serve it)."""

    __tablename__ = "players"
    __table_args__ = (Index("ix_players_name_key_prefix", "name_key",
                            postgresql_ops={"name_key": "varchar_pattern_ops"}
                            ).ddl_if(dialect="postgresql"),)

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
    #: A bot account's owner (hall.store.bots): the registered player who made it. A bot
    #: has no password, only its token; None: a person's account.
    bot_owner: Mapped[str | None] = mapped_column(ForeignKey("players.id"), index=True)
    #: When its owner retired this bot (it logs in no more; its games and ratings stay).
    retired: Mapped[datetime | None] = mapped_column(UTCDateTime)

    @property
    def is_bot(self) -> bool:
        """A bot account (played by its owner's program): marked as a bot everywhere."""
        return self.bot_owner is not None

    @property
    def token_only(self) -> bool:
        """His token is his only key (a guest's, a bot's): it has no fixed lifetime."""
        return self.is_guest or self.bot_owner is not None


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
    #: A private table's: who opened it, and whether others than admins may watch it
    #: (观战): what its owner chose last, kept for a table rebuilt from the log.
    owner: Mapped[str | None] = mapped_column(String(32))
    spectators: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())


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


class PuzzleRow(Base):
    """A 残局 puzzle (cardhall.puzzles): the built-in ones (``source`` "classic", id as in
    ``puzzles.classic``) and those mined from finished games (``game_id`` and ``ply``:
    the decision the player missed). ``mu``/``sigma`` are its openskill rating, moved
    by each rated attempt of a registered player (a guest's leaves it: a throwaway
    account must not push it), as are ``attempts`` and ``solved``; ``winning`` is how
    many first moves win. A three-hand puzzle (puzzles.position3) also has ``third``,
    the hand before the player's (``other`` is the one after it; ``last`` third's
    play), and ``landlord``: 0 the player, 1 other, 2 third; a two-hand puzzle has
    neither."""

    __tablename__ = "puzzles"
    __table_args__ = (UniqueConstraint("game_id", "ply", name="uq_puzzles_game_id"),
                      Index("ix_puzzles_mu", "mu"))

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    source: Mapped[str] = mapped_column(String(16))
    rules: Mapped[str] = mapped_column(String(32))
    hand: Mapped[str] = mapped_column(String(32))
    other: Mapped[str] = mapped_column(String(32))
    last: Mapped[str | None] = mapped_column(String(32))
    title: Mapped[str] = mapped_column(String(64))
    title_en: Mapped[str] = mapped_column(String(96))
    level: Mapped[int] = mapped_column(Integer)
    winning: Mapped[int] = mapped_column(Integer)
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id"))
    ply: Mapped[int | None] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    third: Mapped[str | None] = mapped_column(String(32))
    landlord: Mapped[int | None] = mapped_column(Integer)


class PuzzleRating(Base):
    """A player's puzzle rating (openskill ``mu``/``sigma``), guests' too; no row yet:
    the starting rating."""

    __tablename__ = "puzzle_ratings"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class PuzzleAttempt(Base):
    """One attempt of a player at a puzzle: ``line`` the moves so far (his and the
    defence's, in turn), ``status`` "playing", "solved" or "failed". Only a player's
    first attempt at a puzzle is ``rated``; its ``change`` (the shown rating's move) is
    written once, when it ends, by the update that ends it. A player has at most one
    attempt at a puzzle that is "playing" (``uq_puzzle_attempts_open``, a partial
    index): a second opened beside it could be failed on purpose to show the solution
    for the first."""

    __tablename__ = "puzzle_attempts"
    __table_args__ = (Index("ix_puzzle_attempts_player_puzzle", "player_id", "puzzle_id"),
                      Index("uq_puzzle_attempts_open", "player_id", "puzzle_id", unique=True,
                            sqlite_where=text("status = 'playing'"),
                            postgresql_where=text("status = 'playing'")))

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    puzzle_id: Mapped[str] = mapped_column(ForeignKey("puzzles.id"))
    line: Mapped[list[str]] = mapped_column(Json)
    #: ``len(line)``: each write names the count it read, so two racing moves cannot
    #: both land (compare-and-set).
    plies: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="playing")
    rated: Mapped[bool] = mapped_column(Boolean)
    change: Mapped[int | None] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    ended: Mapped[datetime | None] = mapped_column(UTCDateTime)


class GameAnalysis(Base):
    """A finished game's analysis for one seat (``cardhall.analysis``), kept with the game:
    a game never changes, so neither does its analysis, and a second request for it is
    read, not computed again. ``body`` is the analysis JSON (docs/protocol.md)."""

    __tablename__ = "analyses"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    body: Mapped[dict[str, Any]] = mapped_column(Json)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Rating(Base):
    """A subject's current skill rating in one variant, or overall (``variant`` "all"):
    openskill's μ and σ and the rated games that made it (hall.domain.ratings). A
    subject is a player id or a bot's fixed identity (``bot:planning``), so it has no
    key into ``players``. Written only by a game's settlement, in its transaction."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_variant_games", "variant", "games"),)

    subject: Mapped[str] = mapped_column(String(48), primary_key=True)
    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Double)
    sigma: Mapped[float] = mapped_column(Double)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class RatingEntry(Base):
    """One game's move of one subject's rating (per variant and overall): the history a
    player's chart draws, and what a settlement tried again reports (the primary key
    holds a game to one move per subject and variant)."""

    __tablename__ = "rating_history"
    __table_args__ = (
        Index("ix_rating_history_subject_variant", "subject", "variant", "created"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    subject: Mapped[str] = mapped_column(String(48), primary_key=True)
    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Double)
    sigma: Mapped[float] = mapped_column(Double)
    games: Mapped[int] = mapped_column(Integer)
    before: Mapped[int] = mapped_column(Integer)
    after: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Event(Base):
    """An event (比赛场, hall.events): its ``kind`` and the kind's settings as they were
    when it opened (``config``: a config changed later does not change it), ``status``
    "open" (entries taken; one open event per kind, ``uq_events_open``), "running",
    "done" or "cancelled", and the ``round`` it is in (0-based)."""

    __tablename__ = "events"
    __table_args__ = (Index("ix_events_status", "status"),
                      Index("uq_events_open", "kind", unique=True,
                            sqlite_where=text("status = 'open'"),
                            postgresql_where=text("status = 'open'")))

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    format: Mapped[str] = mapped_column(String(16))
    config: Mapped[dict[str, Any]] = mapped_column(Json)
    status: Mapped[str] = mapped_column(String(16))
    round: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    started: Mapped[datetime | None] = mapped_column(UTCDateTime)
    ended: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: A duplicate event's deals (复式): their seeds, chosen once when it starts.
    seeds: Mapped[list[int] | None] = mapped_column(Json)


class EventEntrant(Base):
    """One entrant of an event: ``no`` his number in entry order, ``player_id`` None for a
    bot. ``status`` "in" (entered, or playing on), "left" (left before the start: his fee
    refunded), "out" (knocked out) or "done" (the event ended). ``fee`` is what he paid
    and ``prize`` what he was paid: each moves beans once, with the update that sets it.
    A player is "in" at most one event at a time (``uq_event_entrants_in``)."""

    __tablename__ = "event_entrants"
    __table_args__ = (UniqueConstraint("event_id", "no", name="uq_event_entrants_event_id"),
                      Index("uq_event_entrants_in", "player_id", unique=True,
                            sqlite_where=text("status = 'in'"),
                            postgresql_where=text("status = 'in'")))

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id"))
    no: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    name: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(8))
    chips: Mapped[int] = mapped_column(BigInteger)
    #: Chips when the current round began (the ranking's first tie-break).
    before: Mapped[int] = mapped_column(BigInteger)
    place: Mapped[int | None] = mapped_column(Integer)
    out_round: Mapped[int | None] = mapped_column(Integer)
    fee: Mapped[int] = mapped_column(BigInteger, default=0)
    prize: Mapped[int | None] = mapped_column(BigInteger)
    entered: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class EventTable(Base):
    """A table of an event's round: ``seats`` the entrants' numbers by seat. Its games
    are the ``games`` of ``table_id``; it plays the round's deals, then closes."""

    __tablename__ = "event_tables"

    table_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id"), index=True)
    round: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[int]] = mapped_column(Json)


class EventGame(Base):
    """A finished game of an event's table, counted in its entrants' chips once: the row
    is written with the chips it moved (``moves``: entrant number → chips), in the
    transaction that moves them; its key is the game."""

    __tablename__ = "event_games"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id"), index=True)
    table_id: Mapped[str] = mapped_column(String(64))
    moves: Mapped[dict[str, int]] = mapped_column(Json)
    #: A duplicate event's: which of its deals the game played (its seed's index).
    deal: Mapped[int | None] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class FriendRequest(Base):
    """``asker`` asked ``asked`` to be friends and has no answer yet (the only state a
    request has: an answer deletes it, a refusal leaves nothing behind, and the asker
    may ask again later, rate-limited). A request from a player the asked one blocks is
    kept but never shown to him (hall.store.friends)."""

    __tablename__ = "friend_requests"

    asker: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    asked: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True,
                                       index=True)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Friendship(Base):
    """Two players are friends: one row each way (``player`` sees ``friend``), written
    and deleted together, so a player's friends are one indexed read."""

    __tablename__ = "friendships"

    player: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    friend: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Block(Base):
    """``blocker`` hears nothing from ``blocked``: no request, no invite, no chat."""

    __tablename__ = "blocks"

    blocker: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    blocked: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True,
                                         index=True)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class LadderOptIn(Base):
    """A competitor who takes part in the bot ladder (``hall.events.ladder``): he accepts
    challenges without being asked and the continuous ladder pairs him while online."""

    __tablename__ = "ladder_optins"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class LadderMatch(Base):
    """A finished challenge (a duplicate match of two, ``hall.events.challenge``): its
    competitors (``a`` challenged ``b``; a player id or an anchor's ``bot:NAME``), the
    first's score (1 won, 0.5 drawn, 0 lost), each one's matchpoints and ladder rating
    (shown numbers) before and after. Written once, with the event's change to done."""

    __tablename__ = "ladder_matches"
    __table_args__ = (Index("ix_ladder_matches_variant_ended", "variant", "ended"),)

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id"), primary_key=True)
    variant: Mapped[str] = mapped_column(String(32))
    deals: Mapped[int] = mapped_column(Integer)
    a: Mapped[str] = mapped_column(String(48))
    b: Mapped[str] = mapped_column(String(48))
    a_name: Mapped[str] = mapped_column(String(32))
    b_name: Mapped[str] = mapped_column(String(32))
    score: Mapped[float] = mapped_column(Double)
    a_points: Mapped[int] = mapped_column(Integer)
    b_points: Mapped[int] = mapped_column(Integer)
    a_before: Mapped[int] = mapped_column(Integer)
    a_after: Mapped[int] = mapped_column(Integer)
    b_before: Mapped[int] = mapped_column(Integer)
    b_after: Mapped[int] = mapped_column(Integer)
    ended: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
