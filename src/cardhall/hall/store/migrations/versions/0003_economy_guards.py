"""The economy's guards: one seat per player, beans held for live games, private games.

- ``seatings``: one row per seated player, keyed by the player, so the database
  refuses a second seat whatever races to take it (two joins, two processes).
- ``holds``: the beans a live game may take from each player, held from its start to
  its end (platform ruling 15): they cannot be spent meanwhile.
- ``games.private``: a private table's (好友房) game, played for points only and left
  off the leaderboards (ruling 14); ``players.ranked_points`` and the ``stats.ranked_*``
  columns are the leaderboards' values without such games. Existing rows start with
  their current values: games before this revision are not known to be private.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "seatings",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("table_id", sa.String(length=64), nullable=False),
        sa.Column("created", TIME, nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_seatings_player_id_players")),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_seatings")),
    )
    op.create_index(op.f("ix_seatings_table_id"), "seatings", ["table_id"], unique=False)
    op.create_table(
        "holds",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("created", TIME, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_holds_game_id_games")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_holds_player_id_players")),
        sa.PrimaryKeyConstraint("game_id", "player_id", name=op.f("pk_holds")),
    )
    op.create_index(op.f("ix_holds_player_id"), "holds", ["player_id"], unique=False)
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("private", sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ranked_points", sa.BigInteger(), nullable=False,
                                      server_default="0"))
        batch_op.add_column(sa.Column("ranked_points_at", TIME, nullable=True))
    with op.batch_alter_table("stats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ranked_games", sa.Integer(), nullable=False,
                                      server_default="0"))
        batch_op.add_column(sa.Column("ranked_points", sa.BigInteger(), nullable=False,
                                      server_default="0"))
        batch_op.add_column(sa.Column("ranked_points_at", TIME, nullable=True))
    op.execute("UPDATE players SET ranked_points = points, ranked_points_at = points_at")
    op.execute("UPDATE stats SET ranked_games = games, ranked_points = points, "
               "ranked_points_at = points_at")


def downgrade() -> None:
    with op.batch_alter_table("stats", schema=None) as batch_op:
        batch_op.drop_column("ranked_points_at")
        batch_op.drop_column("ranked_points")
        batch_op.drop_column("ranked_games")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_column("ranked_points_at")
        batch_op.drop_column("ranked_points")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("private")
    op.drop_index(op.f("ix_holds_player_id"), table_name="holds")
    op.drop_table("holds")
    op.drop_index(op.f("ix_seatings_table_id"), table_name="seatings")
    op.drop_table("seatings")
