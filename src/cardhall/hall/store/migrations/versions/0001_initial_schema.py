"""The initial schema: players, sessions, games and their action log, the bean ledger,
items, per-game scores and per-variant stats.

Written out in full (no imports from cardhall.hall.store.models) so that later changes to the
models cannot change what this revision creates.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
TIME = sa.DateTime(timezone=True)
BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("table_id", sa.String(length=64), nullable=False),
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("players", JSON, nullable=False),
        sa.Column("record", JSON, nullable=True),
        sa.Column("result", JSON, nullable=True),
        sa.Column("beans", JSON, nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("started", TIME, nullable=False),
        sa.Column("ended", TIME, nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_games_status"), ["status"], unique=False)
        batch_op.create_index(batch_op.f("ix_games_table_id"), ["table_id"], unique=False)

    op.create_table(
        "players",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("name_key", sa.String(length=64), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=True),
        sa.Column("is_guest", sa.Boolean(), nullable=False),
        sa.Column("is_admin", sa.Boolean(), nullable=False),
        sa.Column("banned", sa.Boolean(), nullable=False),
        sa.Column("points", sa.BigInteger(), nullable=False),
        sa.Column("points_at", TIME, nullable=True),
        sa.Column("created", TIME, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("name_key", name=op.f("uq_players_name_key")),
    )
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("action", sa.Text(), nullable=False),
        sa.Column("created", TIME, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_actions_game_id_games")),
        sa.PrimaryKeyConstraint("game_id", "seq", name=op.f("pk_actions")),
    )
    op.create_table(
        "items",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("delta", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("created", TIME, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_items_game_id_games")),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_items_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_items")),
    )
    with op.batch_alter_table("items", schema=None) as batch_op:
        batch_op.create_index("ix_items_player_kind", ["player_id", "kind"], unique=False)

    op.create_table(
        "ledger",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("delta", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("created", TIME, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_ledger_game_id_games")),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_ledger_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger")),
        sa.UniqueConstraint("game_id", "player_id", "reason", name="uq_ledger_game_player_reason"),
    )
    with op.batch_alter_table("ledger", schema=None) as batch_op:
        batch_op.create_index("ix_ledger_player_created", ["player_id", "created"], unique=False)

    op.create_table(
        "scores",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("points", sa.BigInteger(), nullable=False),
        sa.Column("beans", sa.BigInteger(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("created", TIME, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_scores_game_id_games")),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_scores_player_id_players")
        ),
        sa.PrimaryKeyConstraint("game_id", "player_id", name=op.f("pk_scores")),
    )
    with op.batch_alter_table("scores", schema=None) as batch_op:
        batch_op.create_index("ix_scores_variant_created", ["variant", "created"], unique=False)

    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("created", TIME, nullable=False),
        sa.Column("revoked", TIME, nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_sessions_player_id_players")
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_sessions")),
    )
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_sessions_player_id"), ["player_id"], unique=False)

    op.create_table(
        "stats",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("points", sa.BigInteger(), nullable=False),
        sa.Column("beans", sa.BigInteger(), nullable=False),
        sa.Column("points_at", TIME, nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_stats_player_id_players")
        ),
        sa.PrimaryKeyConstraint("player_id", "variant", name=op.f("pk_stats")),
    )


def downgrade() -> None:
    op.drop_table("stats")
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_sessions_player_id"))

    op.drop_table("sessions")
    with op.batch_alter_table("scores", schema=None) as batch_op:
        batch_op.drop_index("ix_scores_variant_created")

    op.drop_table("scores")
    with op.batch_alter_table("ledger", schema=None) as batch_op:
        batch_op.drop_index("ix_ledger_player_created")

    op.drop_table("ledger")
    with op.batch_alter_table("items", schema=None) as batch_op:
        batch_op.drop_index("ix_items_player_kind")

    op.drop_table("items")
    op.drop_table("actions")
    op.drop_table("players")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_table_id"))
        batch_op.drop_index(batch_op.f("ix_games_status"))

    op.drop_table("games")
