"""Several processes: a version per table, the seat to move, the token a bot took over from.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("campfire_tables") as batch:
        batch.add_column(sa.Column("version", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("to_move", sa.Integer, nullable=True))
    with op.batch_alter_table("campfire_seats") as batch:
        batch.add_column(sa.Column("retired_hash", sa.String(64), nullable=True))
