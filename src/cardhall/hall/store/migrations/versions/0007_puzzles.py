"""Puzzles (残局): the puzzles with their ratings, each player's puzzle rating and his
attempts (issue 21; hall.store.puzzles).

Revision ID: 0007
Revises: 0005
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0007"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIME = sa.DateTime(timezone=True)
JSON = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("rules", sa.String(length=32), nullable=False),
        sa.Column("hand", sa.String(length=32), nullable=False),
        sa.Column("other", sa.String(length=32), nullable=False),
        sa.Column("last", sa.String(length=32), nullable=True),
        sa.Column("title", sa.String(length=64), nullable=False),
        sa.Column("title_en", sa.String(length=96), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("winning", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("ply", sa.Integer(), nullable=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("created", TIME, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name=op.f("fk_puzzles_game_id_games")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_puzzles")),
        sa.UniqueConstraint("game_id", "ply", name="uq_puzzles_game_id"),
    )
    op.create_index("ix_puzzles_mu", "puzzles", ["mu"])
    op.create_table(
        "puzzle_ratings",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("updated", TIME, nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_puzzle_ratings_player_id_players")),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_puzzle_ratings")),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("puzzle_id", sa.String(length=32), nullable=False),
        sa.Column("line", JSON, nullable=False),
        sa.Column("plies", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("change", sa.Integer(), nullable=True),
        sa.Column("created", TIME, nullable=False),
        sa.Column("ended", TIME, nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_puzzle_attempts_player_id_players")),
        sa.ForeignKeyConstraint(["puzzle_id"], ["puzzles.id"],
                                name=op.f("fk_puzzle_attempts_puzzle_id_puzzles")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_puzzle_attempts")),
    )
    op.create_index("ix_puzzle_attempts_player_puzzle", "puzzle_attempts",
                    ["player_id", "puzzle_id"])


def downgrade() -> None:
    op.drop_index("ix_puzzle_attempts_player_puzzle", table_name="puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_ratings")
    op.drop_index("ix_puzzles_mu", table_name="puzzles")
    op.drop_table("puzzles")
