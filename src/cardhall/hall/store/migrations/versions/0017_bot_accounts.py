"""Bot accounts (issue 23): a registered player's programs, which connect with a token.

- ``players.bot_owner``: the player who made the bot (None for a person's account);
  indexed, as an owner's bots are listed and counted on every creation.
- ``players.retired``: when its owner retired it (it logs in no more; its games and
  ratings stay, and so does its name).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FK = "fk_players_bot_owner_players"


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        # Not a batch: it would copy ``players``, which every other table refers to (and
        # SQLite alters no constraint in place); a column added with its reference
        # inline needs neither.
        op.execute("ALTER TABLE players ADD COLUMN bot_owner VARCHAR(32) "
                   f"CONSTRAINT {FK} REFERENCES players (id)")
    else:
        op.add_column("players", sa.Column("bot_owner", sa.String(length=32), nullable=True))
        op.create_foreign_key(FK, "players", "players", ["bot_owner"], ["id"])
    op.add_column("players", sa.Column("retired", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_players_bot_owner", "players", ["bot_owner"])


def downgrade() -> None:
    op.drop_index("ix_players_bot_owner", table_name="players")
    op.drop_column("players", "retired")
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint(FK, "players", type_="foreignkey")
    op.drop_column("players", "bot_owner")
