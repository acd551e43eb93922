"""One open puzzle attempt per player and puzzle: a practice attempt opened beside the
rated one could be failed on purpose to show the solution, then played on the rated one.
Open attempts beside a player's oldest open one at the same puzzle are deleted (they
never ended, so no rating moved by them), then a partial unique index keeps it so.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OPEN = sa.text("status = 'playing'")


def upgrade() -> None:
    op.execute(
        "DELETE FROM puzzle_attempts WHERE status = 'playing' AND EXISTS ("
        "SELECT 1 FROM puzzle_attempts o WHERE o.player_id = puzzle_attempts.player_id"
        " AND o.puzzle_id = puzzle_attempts.puzzle_id AND o.status = 'playing'"
        " AND (o.created < puzzle_attempts.created"
        " OR (o.created = puzzle_attempts.created AND o.id < puzzle_attempts.id)))")
    op.create_index("uq_puzzle_attempts_open", "puzzle_attempts", ["player_id", "puzzle_id"],
                    unique=True, sqlite_where=OPEN, postgresql_where=OPEN)


def downgrade() -> None:
    op.drop_index("uq_puzzle_attempts_open", table_name="puzzle_attempts")
