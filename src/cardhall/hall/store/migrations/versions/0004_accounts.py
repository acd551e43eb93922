"""Accounts: sessions get a public id, a last-use time and the client that made them;
players get the skeleton of their name (unique) and their failed-login count.

- ``sessions.id``: the name a session is listed and revoked by (never the token or
  its hash); existing sessions get a random one.
- ``sessions.used``: when the token was last used (the idle limit reads it);
  ``sessions.agent``: the User-Agent that logged in, cut to 128 characters.
- ``players.name_skeleton``: ``names.skeleton(name)``, unique, so two names that
  look alike cannot both exist even when registered at the same moment. Existing
  names that already collide keep their names: the later account's skeleton gets
  ``#<its id>`` so the column can be unique without renaming anyone.
- ``players.failed_logins``, ``locked_until``, ``last_failed``: the per-account
  login lockout (hall.store.lockout).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-06
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from cardhall.hall.domain.names import skeleton

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    conn = op.get_bind()
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("id", sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column("used", TIME, nullable=True))
        batch_op.add_column(sa.Column("agent", sa.String(length=128), nullable=False,
                                      server_default=""))
    sessions = sa.table("sessions", sa.column("token_hash", sa.String),
                        sa.column("id", sa.String))
    for (token_hash,) in conn.execute(sa.select(sessions.c.token_hash)).all():
        conn.execute(sa.update(sessions).where(sessions.c.token_hash == token_hash)
                     .values(id=secrets.token_hex(16)))
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.alter_column("id", existing_type=sa.String(length=32), nullable=False)
        batch_op.create_unique_constraint(batch_op.f("uq_sessions_id"), ["id"])

    # Columns added in place and a unique index (not a constraint): SQLite would rebuild
    # the players table for a constraint, which its foreign keys (ledger, sessions...)
    # forbid while they hold rows.
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("name_skeleton", sa.String(length=96), nullable=False,
                                      server_default=""))
        batch_op.add_column(sa.Column("failed_logins", sa.Integer(), nullable=False,
                                      server_default="0"))
        batch_op.add_column(sa.Column("locked_until", TIME, nullable=True))
        batch_op.add_column(sa.Column("last_failed", TIME, nullable=True))
    players = sa.table("players", sa.column("id", sa.String), sa.column("name", sa.String),
                       sa.column("created", TIME), sa.column("name_skeleton", sa.String))
    seen: set[str] = set()
    rows = conn.execute(sa.select(players.c.id, players.c.name)
                        .order_by(players.c.created, players.c.id)).all()
    for player_id, name in rows:
        skel = skeleton(name)
        if skel in seen:  # an older account has a look-alike name: keep both names
            skel = f"{skel}#{player_id}"
        seen.add(skel)
        conn.execute(sa.update(players).where(players.c.id == player_id)
                     .values(name_skeleton=skel))
    op.create_index("ix_players_name_skeleton", "players", ["name_skeleton"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_players_name_skeleton", table_name="players")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_column("last_failed")
        batch_op.drop_column("locked_until")
        batch_op.drop_column("failed_logins")
        batch_op.drop_column("name_skeleton")
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_sessions_id"), type_="unique")
        batch_op.drop_column("agent")
        batch_op.drop_column("used")
        batch_op.drop_column("id")
