"""The names the host sent away from a waiting table, kept out of it for good; the record
length at which each chat line was said (a replay shows the chat as it stood).

Revision ID: 0004_removed
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_removed"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("campfire_tables") as batch:
        # a JSON list of the removed names as compared (folded)
        batch.add_column(sa.Column("removed", sa.Text, nullable=False, server_default="[]"))
    with op.batch_alter_table("campfire_chat") as batch:
        # lines said before this revision have none: a replay shows them at its end
        batch.add_column(sa.Column("step", sa.Integer, nullable=True))
