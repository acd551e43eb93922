"""Friends (issue 22): requests waiting for an answer, friendships (one row each way)
and blocks.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UTC_TIME = sa.DateTime(timezone=True)

#: (table, first column, second column): each a pair of players.
PAIRS = (("friend_requests", "asker", "asked"), ("friendships", "player", "friend"),
         ("blocks", "blocker", "blocked"))
#: The second column is indexed where someone reads by it (requests to me, who blocks me).
INDEXED = {"friend_requests": "asked", "blocks": "blocked"}


def upgrade() -> None:
    for table, one, two in PAIRS:
        op.create_table(
            table,
            sa.Column(one, sa.String(32), nullable=False),
            sa.Column(two, sa.String(32), nullable=False),
            sa.Column("created", UTC_TIME, nullable=False),
            sa.ForeignKeyConstraint([one], ["players.id"], name=f"fk_{table}_{one}_players"),
            sa.ForeignKeyConstraint([two], ["players.id"], name=f"fk_{table}_{two}_players"),
            sa.PrimaryKeyConstraint(one, two, name=f"pk_{table}"),
        )
        if table in INDEXED:
            column = INDEXED[table]
            op.create_index(f"ix_{table}_{column}", table, [column])


def downgrade() -> None:
    for table, _, _ in reversed(PAIRS):
        if table in INDEXED:
            op.drop_index(f"ix_{table}_{INDEXED[table]}", table_name=table)
        op.drop_table(table)
