"""Three-hand puzzles: a mined 三人斗地主 endgame keeps its third hand and where the
landlord sits (issue 21; puzzles.position3). Both are empty for a two-hand puzzle, so
every puzzle stored before reads as it did.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("puzzles") as batch:
        batch.add_column(sa.Column("third", sa.String(length=32), nullable=True))
        batch.add_column(sa.Column("landlord", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("puzzles") as batch:
        batch.drop_column("landlord")
        batch.drop_column("third")
