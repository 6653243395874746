"""Accounts on disk: accounts, sessions, passkeys and passkey challenges (migration
0005_accounts), and the tables an account sits at. Synchronous, like `storage`: the server
calls it from worker threads. Session ids and challenge ids are kept as SHA-256 only."""

from __future__ import annotations

import base64
import secrets
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, and_, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from campfire.accounts.folding import name_key
from campfire.accounts.names import FORMER
from campfire.accounts.sessions import IDLE_SECONDS, LIFETIME_SECONDS, id_hash, new_id
from campfire.server.store.schema import (
    accounts_t,
    challenges_t,
    chat_t,
    passkeys_t,
    player_games_t,
    ratings_t,
    seats_t,
    sessions_t,
    tables_t,
)

#: a session's `seen` is written at most this often (not on every request)
SEEN_EVERY = 3600.0


class AccountTaken(Exception):
    """An account of that name (as people read it) exists already."""


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    password_hash: str | None
    user_handle: str
    created: float


@dataclass(frozen=True)
class Passkey:
    credential_id: str
    account_id: str
    public_key: str
    sign_count: int
    created: float
    used: float | None


def _account(row: Any) -> Account:
    return Account(row.id, row.name, row.password_hash, row.user_handle, row.created)


def _passkey(row: Any) -> Passkey:
    return Passkey(
        row.credential_id, row.account_id, row.public_key, row.sign_count, row.created, row.used
    )


class AccountStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # --- accounts --------------------------------------------------------------------------
    def create(self, name: str, password_hash: str | None) -> Account:
        account = Account(
            secrets.token_hex(16),
            name,
            password_hash,
            base64.urlsafe_b64encode(secrets.token_bytes(32)).decode().rstrip("="),
            time.time(),
        )
        try:
            with self.engine.begin() as db:
                db.execute(
                    insert(accounts_t).values(
                        id=account.id,
                        name=account.name,
                        name_key=name_key(name),
                        password_hash=account.password_hash,
                        user_handle=account.user_handle,
                        created=account.created,
                    )
                )
        except IntegrityError:
            raise AccountTaken(name) from None
        return account

    def named(self, name: str) -> Account | None:
        """The account whose name reads as `name` (any case, any look-alike letters)."""
        with self.engine.connect() as db:
            row = db.execute(
                select(accounts_t).where(accounts_t.c.name_key == name_key(name))
            ).first()
        return _account(row) if row is not None else None

    def by_id(self, account_id: str) -> Account | None:
        with self.engine.connect() as db:
            row = db.execute(select(accounts_t).where(accounts_t.c.id == account_id)).first()
        return _account(row) if row is not None else None

    def set_password(self, account_id: str, password_hash: str, keep_session: str | None) -> None:
        """A new password; every session but `keep_session` (the one changing it) ends."""
        with self.engine.begin() as db:
            db.execute(
                update(accounts_t)
                .where(accounts_t.c.id == account_id)
                .values(password_hash=password_hash)
            )
            kept = id_hash(keep_session) if keep_session is not None else ""
            db.execute(
                delete(sessions_t).where(
                    and_(sessions_t.c.account_id == account_id, sessions_t.c.id_hash != kept)
                )
            )

    def delete(self, account_id: str) -> list[str]:
        """The account goes with its sessions, passkeys, ratings and profile's games; its
        seats stay in the records under an anonymous name, and its chat lines under the same.
        The ids of the tables whose seats were renamed (their version counts up, so every
        process sees it)."""
        with self.engine.begin() as db:
            seats = db.execute(
                select(seats_t.c.table_id, seats_t.c.seat).where(seats_t.c.account_id == account_id)
            ).all()
            for table_id, seat in seats:
                db.execute(
                    update(chat_t)
                    .where(and_(chat_t.c.table_id == table_id, chat_t.c.seat == seat))
                    .values(name=FORMER)
                )
            db.execute(
                update(seats_t)
                .where(seats_t.c.account_id == account_id)
                .values(account_id=None, name=FORMER)
            )
            ids = sorted({table_id for table_id, _ in seats})
            if ids:
                db.execute(
                    update(tables_t)
                    .where(tables_t.c.id.in_(ids))
                    .values(version=tables_t.c.version + 1)
                )
            # its ratings and its profile's games go too: off the leaderboards and the profiles
            for t in (sessions_t, passkeys_t, challenges_t, ratings_t, player_games_t):
                db.execute(delete(t).where(t.c.account_id == account_id))
            db.execute(delete(accounts_t).where(accounts_t.c.id == account_id))
        return ids

    # --- sessions --------------------------------------------------------------------------
    def open_session(self, account_id: str, replaces: str | None = None) -> str:
        """A new session id for the account (rotated at every sign-in); the session the
        browser held before, if any, ends."""
        session_id = new_id()
        now = time.time()
        with self.engine.begin() as db:
            if replaces is not None:
                db.execute(delete(sessions_t).where(sessions_t.c.id_hash == id_hash(replaces)))
            db.execute(
                insert(sessions_t).values(
                    id_hash=id_hash(session_id),
                    account_id=account_id,
                    created=now,
                    seen=now,
                    expires=now + IDLE_SECONDS,
                )
            )
        return session_id

    def session(self, session_id: str) -> Account | None:
        """The account a live session belongs to; its idle time starts again (written at
        most once an hour), up to the session's whole lifetime."""
        now = time.time()
        hashed = id_hash(session_id)
        with self.engine.connect() as db:
            row = db.execute(
                select(
                    sessions_t.c.created.label("opened"),
                    sessions_t.c.seen,
                    sessions_t.c.expires,
                    *accounts_t.c,
                )
                .join(accounts_t, accounts_t.c.id == sessions_t.c.account_id)
                .where(sessions_t.c.id_hash == hashed)
            ).first()
            if row is None:
                return None
            if row.expires <= now:
                db.execute(delete(sessions_t).where(sessions_t.c.id_hash == hashed))
                db.commit()
                return None
            if now - row.seen > SEEN_EVERY:
                db.execute(
                    update(sessions_t)
                    .where(sessions_t.c.id_hash == hashed)
                    .values(
                        seen=now, expires=min(now + IDLE_SECONDS, row.opened + LIFETIME_SECONDS)
                    )
                )
                db.commit()
        return _account(row)

    def close_session(self, session_id: str) -> None:
        with self.engine.begin() as db:
            db.execute(delete(sessions_t).where(sessions_t.c.id_hash == id_hash(session_id)))

    def close_all(self, account_id: str) -> int:
        with self.engine.begin() as db:
            done = db.execute(delete(sessions_t).where(sessions_t.c.account_id == account_id))
        return int(done.rowcount)

    def session_count(self, account_id: str) -> int:
        with self.engine.connect() as db:
            return len(
                db.execute(
                    select(sessions_t.c.id_hash).where(
                        and_(
                            sessions_t.c.account_id == account_id,
                            sessions_t.c.expires > time.time(),
                        )
                    )
                ).all()
            )

    # --- passkeys --------------------------------------------------------------------------
    def add_passkey(self, account_id: str, credential_id: str, public_key: str, count: int) -> bool:
        """False when that credential is registered already."""
        try:
            with self.engine.begin() as db:
                db.execute(
                    insert(passkeys_t).values(
                        credential_id=credential_id,
                        account_id=account_id,
                        public_key=public_key,
                        sign_count=count,
                        created=time.time(),
                    )
                )
        except IntegrityError:
            return False
        return True

    def passkeys(self, account_id: str) -> list[Passkey]:
        with self.engine.connect() as db:
            rows = db.execute(
                select(passkeys_t)
                .where(passkeys_t.c.account_id == account_id)
                .order_by(passkeys_t.c.created)
            ).all()
        return [_passkey(r) for r in rows]

    def passkey(self, credential_id: str) -> Passkey | None:
        with self.engine.connect() as db:
            row = db.execute(
                select(passkeys_t).where(passkeys_t.c.credential_id == credential_id)
            ).first()
        return _passkey(row) if row is not None else None

    def passkey_used(self, credential_id: str, sign_count: int) -> None:
        with self.engine.begin() as db:
            db.execute(
                update(passkeys_t)
                .where(passkeys_t.c.credential_id == credential_id)
                .values(sign_count=sign_count, used=time.time())
            )

    def remove_passkey(self, account_id: str, credential_id: str) -> bool:
        with self.engine.begin() as db:
            done = db.execute(
                delete(passkeys_t).where(
                    and_(
                        passkeys_t.c.account_id == account_id,
                        passkeys_t.c.credential_id == credential_id,
                    )
                )
            )
        return bool(done.rowcount)

    # --- challenges ------------------------------------------------------------------------
    def put_challenge(self, challenge: bytes, account_id: str | None, seconds: float) -> str:
        """Keep a WebAuthn challenge; the id the page sends back with the answer."""
        handle = new_id()
        now = time.time()
        with self.engine.begin() as db:
            db.execute(delete(challenges_t).where(challenges_t.c.expires < now))
            db.execute(
                insert(challenges_t).values(
                    id_hash=id_hash(handle),
                    challenge=base64.urlsafe_b64encode(challenge).decode(),
                    account_id=account_id,
                    expires=now + seconds,
                )
            )
        return handle

    def take_challenge(self, handle: str) -> tuple[bytes, str | None] | None:
        """The challenge and its account, once: a second answer to it finds nothing."""
        with self.engine.begin() as db:
            row = db.execute(
                select(challenges_t).where(challenges_t.c.id_hash == id_hash(handle))
            ).first()
            if row is None:
                return None
            gone = db.execute(delete(challenges_t).where(challenges_t.c.id_hash == row.id_hash))
            if gone.rowcount != 1 or row.expires < time.time():
                return None
        return base64.urlsafe_b64decode(row.challenge), row.account_id

    # --- seats -----------------------------------------------------------------------------
    def tables_of(self, account_id: str, limit: int = 50) -> list[dict[str, Any]]:
        """The tables the account sits at, the most recently changed first."""
        with self.engine.connect() as db:
            rows = db.execute(
                select(
                    tables_t.c.id,
                    tables_t.c.game,
                    tables_t.c.status,
                    tables_t.c.updated,
                    tables_t.c.rated,
                    seats_t.c.seat,
                    seats_t.c.name,
                )
                .join(seats_t, seats_t.c.table_id == tables_t.c.id)
                .where(seats_t.c.account_id == account_id)
                .order_by(tables_t.c.updated.desc(), tables_t.c.id)
                .limit(limit)
            ).all()
        return [
            {
                "id": r.id,
                "game": r.game,
                "status": r.status,
                "updated": r.updated,
                "rated": bool(r.rated),
                "seat": r.seat,
                "name": r.name,
            }
            for r in rows
        ]

    def seat_of(self, table_id: str, account_id: str) -> int | None:
        with self.engine.connect() as db:
            row = db.execute(
                select(seats_t.c.seat).where(
                    and_(seats_t.c.table_id == table_id, seats_t.c.account_id == account_id)
                )
            ).first()
        return None if row is None else int(row.seat)

    def retoken_seat(self, table_id: str, seat: int, account_id: str, token_hash: str) -> bool:
        """A new seat token for the account's own seat (a signed-in player on another device,
        or a browser whose storage was cleared); the seat's old token stops working, and the
        host's powers follow the seat. The table's version counts up: every process sees it."""
        with self.engine.begin() as db:
            old = db.execute(
                select(seats_t.c.token_hash).where(
                    and_(
                        seats_t.c.table_id == table_id,
                        seats_t.c.seat == seat,
                        seats_t.c.account_id == account_id,
                        seats_t.c.kind == "human",
                    )
                )
            ).scalar()
            if old is None:
                return False
            db.execute(
                update(seats_t)
                .where(and_(seats_t.c.table_id == table_id, seats_t.c.seat == seat))
                .values(token_hash=token_hash)
            )
            db.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id)
                .values(version=tables_t.c.version + 1)
            )
            db.execute(
                update(tables_t)
                .where(and_(tables_t.c.id == table_id, tables_t.c.host_hash == old))
                .values(host_hash=token_hash)
            )
        return True
