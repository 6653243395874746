"""Ratings: each account's rating per game, each finished game's row per account (the rating
history and the profile's games), and one row per finished game that settles it exactly once.

Revision ID: 0006_ratings
Revises: 0005_accounts
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_ratings"
down_revision = "0005_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        # a finished game whose results are written: its key makes the write happen once
        "campfire_results",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "campfire_ratings",
        sa.Column("account_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(40), primary_key=True),
        # openskill's Plackett-Luce belief (the shown number is derived from mu)
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False, server_default="0"),
        sa.Column("wins", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_campfire_ratings_game_mu", "campfire_ratings", ["game", "mu"])
    op.create_table(
        # one row per account seat of a finished game, rated or casual
        "campfire_player_games",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        # left the game or lost the seat to the clock (ranked last)
        sa.Column("left", sa.Boolean, nullable=False),
        # the rating before and after (None at a casual table)
        sa.Column("mu_before", sa.Float, nullable=True),
        sa.Column("sigma_before", sa.Float, nullable=True),
        sa.Column("mu_after", sa.Float, nullable=True),
        sa.Column("sigma_after", sa.Float, nullable=True),
        # the seat's statistics of the game (a JSON object of counts)
        sa.Column("stats", sa.Text, nullable=False, server_default="{}"),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index(
        "ix_campfire_player_games_account_at", "campfire_player_games", ["account_id", "at"]
    )


def downgrade() -> None:
    op.drop_index("ix_campfire_player_games_account_at", "campfire_player_games")
    op.drop_table("campfire_player_games")
    op.drop_index("ix_campfire_ratings_game_mu", "campfire_ratings")
    op.drop_table("campfire_ratings")
    op.drop_table("campfire_results")
