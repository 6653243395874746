"""Reviews of finished tables (`campfire.review`): each computed once and kept, so everyone who
asks for it afterwards costs a read.

Revision ID: 0007_reviews
Revises: 0006_ratings
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_reviews"
# the newest revision on the main line when this one was written; 0006_ratings comes in on
# another line and is put before this one when it is merged
down_revision = "0006_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "campfire_reviews",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("review", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("campfire_reviews")
