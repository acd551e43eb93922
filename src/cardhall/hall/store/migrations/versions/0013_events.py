"""Events (比赛场, issue 22): an event, its entrants (fee, chips, place, prize), its
round's tables, and each finished game counted in the chips once.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UTC_TIME = sa.DateTime(timezone=True)
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
IN = sa.text("status = 'in'")
OPEN = sa.text("status = 'open'")


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("config", JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("created", UTC_TIME, nullable=False),
        sa.Column("started", UTC_TIME, nullable=True),
        sa.Column("ended", UTC_TIME, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_events"),
    )
    op.create_index("ix_events_status", "events", ["status"])
    op.create_index("uq_events_open", "events", ["kind"], unique=True,
                    sqlite_where=OPEN, postgresql_where=OPEN)
    op.create_table(
        "event_entrants",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("event_id", sa.String(32), nullable=False),
        sa.Column("no", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("chips", sa.BigInteger(), nullable=False),
        sa.Column("before", sa.BigInteger(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("out_round", sa.Integer(), nullable=True),
        sa.Column("fee", sa.BigInteger(), nullable=False),
        sa.Column("prize", sa.BigInteger(), nullable=True),
        sa.Column("entered", UTC_TIME, nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"],
                                name="fk_event_entrants_event_id_events"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name="fk_event_entrants_player_id_players"),
        sa.PrimaryKeyConstraint("id", name="pk_event_entrants"),
        sa.UniqueConstraint("event_id", "no", name="uq_event_entrants_event_id"),
    )
    op.create_index("uq_event_entrants_in", "event_entrants", ["player_id"], unique=True,
                    sqlite_where=IN, postgresql_where=IN)
    op.create_table(
        "event_tables",
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("event_id", sa.String(32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("seats", JSON, nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"],
                                name="fk_event_tables_event_id_events"),
        sa.PrimaryKeyConstraint("table_id", name="pk_event_tables"),
    )
    op.create_index("ix_event_tables_event_id", "event_tables", ["event_id"])
    op.create_table(
        "event_games",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("event_id", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("moves", JSON, nullable=False),
        sa.Column("created", UTC_TIME, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name="fk_event_games_game_id_games"),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"],
                                name="fk_event_games_event_id_events"),
        sa.PrimaryKeyConstraint("game_id", name="pk_event_games"),
    )
    op.create_index("ix_event_games_event_id", "event_games", ["event_id"])


def downgrade() -> None:
    op.drop_index("ix_event_games_event_id", table_name="event_games")
    op.drop_table("event_games")
    op.drop_index("ix_event_tables_event_id", table_name="event_tables")
    op.drop_table("event_tables")
    op.drop_index("uq_event_entrants_in", table_name="event_entrants")
    op.drop_table("event_entrants")
    op.drop_index("uq_events_open", table_name="events")
    op.drop_index("ix_events_status", table_name="events")
    op.drop_table("events")
