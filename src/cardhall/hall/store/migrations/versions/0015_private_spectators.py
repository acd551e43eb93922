"""A private table's owner and its spectators (观战, issue 22), kept with its live game.

- ``games.owner``: the player who opened the private table (None for any other).
- ``games.spectators``: whether others than admins may watch it: its owner may close it
  or open it again while it lives, and a table rebuilt from the log keeps his choice.
  The live private games of before this revision are closed, as their tables were when
  rebuilt before it (the choice was not kept).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("owner", sa.String(length=32), nullable=True))
        batch.add_column(sa.Column("spectators", sa.Boolean(), nullable=False,
                                   server_default=sa.true()))
    games = sa.table("games", sa.column("private", sa.Boolean()),
                     sa.column("status", sa.String()), sa.column("spectators", sa.Boolean()))
    op.execute(games.update().where(games.c.private.is_(True), games.c.status == "live")
               .values(spectators=False))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("spectators")
        batch.drop_column("owner")
