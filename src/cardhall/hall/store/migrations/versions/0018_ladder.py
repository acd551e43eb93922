"""Challenges and the bot ladder (issue 23): who opted in, and each finished match with
the ladder ratings it moved (the matches themselves are events: ``events``).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

TIME = sa.DateTime(timezone=True)

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ladder_optins",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("created", TIME, nullable=False))
    op.create_table(
        "ladder_matches",
        sa.Column("event_id", sa.String(32), sa.ForeignKey("events.id"), primary_key=True),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("a", sa.String(48), nullable=False),
        sa.Column("b", sa.String(48), nullable=False),
        sa.Column("a_name", sa.String(32), nullable=False),
        sa.Column("b_name", sa.String(32), nullable=False),
        sa.Column("score", sa.Double(), nullable=False),
        sa.Column("a_points", sa.Integer(), nullable=False),
        sa.Column("b_points", sa.Integer(), nullable=False),
        sa.Column("a_before", sa.Integer(), nullable=False),
        sa.Column("a_after", sa.Integer(), nullable=False),
        sa.Column("b_before", sa.Integer(), nullable=False),
        sa.Column("b_after", sa.Integer(), nullable=False),
        sa.Column("ended", TIME, nullable=False))
    op.create_index("ix_ladder_matches_variant_ended", "ladder_matches", ["variant", "ended"])


def downgrade() -> None:
    op.drop_index("ix_ladder_matches_variant_ended", table_name="ladder_matches")
    op.drop_table("ladder_matches")
    op.drop_table("ladder_optins")
