"""Private tables, their host and creator, the turn clock, and each table's chat.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("campfire_tables") as batch:
        # tables made before this revision were all in the lobby: they stay there
        batch.add_column(sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("host_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("address", sa.String(64), nullable=True))
        batch.add_column(sa.Column("clock", sa.Integer, nullable=True))
        batch.add_column(sa.Column("deadline", sa.Float, nullable=True))
    op.create_index("ix_campfire_tables_address", "campfire_tables", ["address"])
    with op.batch_alter_table("campfire_seats") as batch:
        batch.add_column(sa.Column("timeouts", sa.Integer, nullable=False, server_default="0"))
    op.create_table(
        "campfire_chat",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
