"""Player accounts: accounts, their sessions and passkeys, the passkey challenges in flight, the
account a seat belongs to, and whether a table is rated.

Revision ID: 0005_accounts
Revises: 0004_removed
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_accounts"
down_revision = "0004_removed"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "campfire_accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        # the name as compared (case, width, accents and look-alikes folded): one account each
        sa.Column("name_key", sa.String(80), nullable=False, unique=True),
        # argon2id; None for an account that signs in with passkeys only
        sa.Column("password_hash", sa.String(200), nullable=True),
        # the WebAuthn user handle (random, base64url): names the account to an authenticator
        sa.Column("user_handle", sa.String(100), nullable=False, unique=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "campfire_sessions",
        # SHA-256 of the session id the cookie carries: the id itself is kept nowhere
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), nullable=False, index=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_table(
        "campfire_passkeys",
        sa.Column("credential_id", sa.String(1400), primary_key=True),
        sa.Column("account_id", sa.String(32), nullable=False, index=True),
        sa.Column("public_key", sa.Text, nullable=False),
        sa.Column("sign_count", sa.Integer, nullable=False, server_default="0"),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("used", sa.Float, nullable=True),
    )
    op.create_table(
        "campfire_challenges",
        # SHA-256 of the id handed to the page with the options
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("challenge", sa.String(200), nullable=False),
        # the account a passkey is being added to (None: a sign-in)
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("expires", sa.Float, nullable=False, index=True),
    )
    with op.batch_alter_table("campfire_seats") as batch:
        # the account the person at this seat is signed in as (None: a guest, a bot)
        batch.add_column(sa.Column("account_id", sa.String(32), nullable=True))
    op.create_index("ix_campfire_seats_account_id", "campfire_seats", ["account_id"])
    with op.batch_alter_table("campfire_tables") as batch:
        # tables made before this revision were all casual
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
