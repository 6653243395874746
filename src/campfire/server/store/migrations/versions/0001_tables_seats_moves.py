"""Tables, seats and record entries: the layout every database had before migrations.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "campfire_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("moves", sa.Integer, nullable=False),
        sa.Column("winners", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("next_id", sa.String(32), nullable=True),
    )
    op.create_index("ix_campfire_tables_status", "campfire_tables", ["status"])
    op.create_table(
        "campfire_seats",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("level", sa.String(40), nullable=True),
        sa.Column("name", sa.String(80), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
    )
    op.create_table(
        "campfire_moves",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("entry", sa.Text, nullable=False),
    )
