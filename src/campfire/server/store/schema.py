"""The database layout at the newest migration: what the queries in `storage` are written against.

The layout itself is created and changed only by the migrations in `migrations/`, never by
`create_all`, so several processes starting together cannot race on it.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, Integer, MetaData, String, Table, Text

WAITING = "waiting"
PLAYING = "playing"
FINISHED = "finished"

metadata = MetaData()

tables_t = Table(
    "campfire_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", Text, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("moves", Integer, nullable=False, default=0),
    Column("winners", Text, nullable=False, default="[]"),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("next_id", String(32), nullable=True),
    # migration 0002: every change counts up, so a process can tell it is behind in one query
    Column("version", Integer, nullable=False, default=0),
    # migration 0002: the seat to move (None between games and while waiting)
    Column("to_move", Integer, nullable=True),
    # migration 0003: shown in the lobby (otherwise reachable by its invite link only)
    Column("listed", Boolean, nullable=False, default=False),
    # migration 0003: the creator's seat token hash (may remove people from the waiting room)
    Column("host_hash", String(64), nullable=True),
    # migration 0003: a hash of the address that opened it (bounds its waiting tables)
    Column("address", String(64), nullable=True, index=True),
    # migration 0003: seconds per turn (None: no clock) and when the running clock runs out
    Column("clock", Integer, nullable=True),
    Column("deadline", Float, nullable=True),
    # migration 0004_removed: the names the host removed, folded (a JSON list): kept out
    Column("removed", Text, nullable=False, default="[]"),
    # migration 0005_accounts: ratings move after each game (every person at it signed in)
    Column("rated", Boolean, nullable=False, default=False),
)

seats_t = Table(
    "campfire_seats",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # human or bot
    Column("level", String(40), nullable=True),  # the bot's level
    Column("name", String(80), nullable=True),  # None: the seat is free
    Column("token_hash", String(64), nullable=True, unique=True),
    # migration 0002: the token hash that held the seat before a bot took it over
    Column("retired_hash", String(64), nullable=True),
    # migration 0003: turns in a row the clock ran out on this seat
    Column("timeouts", Integer, nullable=False, default=0),
    # migration 0005_accounts: the account of the person sitting here (None: a guest or bot)
    Column("account_id", String(32), nullable=True, index=True),
)

moves_t = Table(
    "campfire_moves",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("entry", Text, nullable=False),
)

#: migration 0003: what people said at a table (kept with the table, not in its record)
chat_t = Table(
    "campfire_chat",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=True),
    Column("name", String(80), nullable=False),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
    # migration 0004_removed: the record length when it was said (None: not known)
    Column("step", Integer, nullable=True),
)

# --- migration 0005_accounts: player accounts -------------------------------------------------
accounts_t = Table(
    "campfire_accounts",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(40), nullable=False),
    Column("name_key", String(80), nullable=False, unique=True),
    Column("password_hash", String(200), nullable=True),
    Column("user_handle", String(100), nullable=False, unique=True),
    Column("created", Float, nullable=False),
)

#: signed-in browsers: a row per session, deleted at sign out (revocable)
sessions_t = Table(
    "campfire_sessions",
    metadata,
    Column("id_hash", String(64), primary_key=True),
    Column("account_id", String(32), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=False),
    Column("expires", Float, nullable=False),
)

passkeys_t = Table(
    "campfire_passkeys",
    metadata,
    Column("credential_id", String(1400), primary_key=True),
    Column("account_id", String(32), nullable=False, index=True),
    Column("public_key", Text, nullable=False),
    Column("sign_count", Integer, nullable=False, default=0),
    Column("created", Float, nullable=False),
    Column("used", Float, nullable=True),
)

#: WebAuthn challenges handed out and not yet answered (any process may get the answer)
challenges_t = Table(
    "campfire_challenges",
    metadata,
    Column("id_hash", String(64), primary_key=True),
    Column("challenge", String(200), nullable=False),
    Column("account_id", String(32), nullable=True),
    Column("expires", Float, nullable=False, index=True),
)

# --- migration 0006_ratings: results of finished games and ratings ----------------------------
#: a finished game whose results are written (its key makes that happen once)
results_t = Table(
    "campfire_results",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("at", Float, nullable=False),
)

#: an account's rating in one game (openskill's mu and sigma)
ratings_t = Table(
    "campfire_ratings",
    metadata,
    Column("account_id", String(32), primary_key=True),
    Column("game", String(40), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False, default=0),
    Column("wins", Integer, nullable=False, default=0),
    Column("updated", Float, nullable=False),
)

#: one row per account seat of a finished game: the profile's games and rating history
player_games_t = Table(
    "campfire_player_games",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", String(32), nullable=False),
    Column("game", String(40), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("rank", Integer, nullable=False),
    Column("players", Integer, nullable=False),
    Column("left", Boolean, nullable=False),
    Column("mu_before", Float, nullable=True),
    Column("sigma_before", Float, nullable=True),
    Column("mu_after", Float, nullable=True),
    Column("sigma_after", Float, nullable=True),
    Column("stats", Text, nullable=False, default="{}"),
    Column("at", Float, nullable=False),
)
