"""A fencing token on each game: the database refuses a stale owner's writes.

When several processes run the hall, each live table is run by one of them under a
lease; the lease's fencing token is written on the table's live games when a process
takes the table over, and every append and settlement checks it in its own
transaction (docs/deploy.md). A single process writes 0 and never changes it.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("fence", sa.BigInteger(), nullable=False,
                                      server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("fence")
