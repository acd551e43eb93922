"""The friends search's prefix match on PostgreSQL (issue 22): ``name_key LIKE 'abc%'``
uses an index with ``varchar_pattern_ops``; the unique index on ``name_key`` serves only
equality there unless the database's collation is C. SQLite gets none (its ``LIKE``
folds case: no index would serve it, and a small hall's scan is cheap).

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.create_index("ix_players_name_key_prefix", "players", ["name_key"],
                        postgresql_ops={"name_key": "varchar_pattern_ops"})


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.drop_index("ix_players_name_key_prefix", table_name="players")
