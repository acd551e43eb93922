"""Duplicate events (复式, issue 22): an event's deals' seeds, chosen when it starts, and
the deal each counted game played.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("seeds", JSON, nullable=True))
    with op.batch_alter_table("event_games") as batch:
        batch.add_column(sa.Column("deal", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("event_games") as batch:
        batch.drop_column("deal")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("seeds")
