"""Skill ratings (issue 21): each subject's current rating per variant and overall, and
each game's move of it, written in the game's settlement transaction.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UTC_TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("subject", sa.String(48), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated", UTC_TIME, nullable=False),
        sa.PrimaryKeyConstraint("subject", "variant", name="pk_ratings"),
    )
    op.create_index("ix_ratings_variant_games", "ratings", ["variant", "games"])
    op.create_table(
        "rating_history",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("subject", sa.String(48), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("before", sa.Integer(), nullable=False),
        sa.Column("after", sa.Integer(), nullable=False),
        sa.Column("created", UTC_TIME, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name="fk_rating_history_game_id_games"),
        sa.PrimaryKeyConstraint("game_id", "subject", "variant", name="pk_rating_history"),
    )
    op.create_index("ix_rating_history_subject_variant", "rating_history",
                    ["subject", "variant", "created"])


def downgrade() -> None:
    op.drop_index("ix_rating_history_subject_variant", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_variant_games", table_name="ratings")
    op.drop_table("ratings")
