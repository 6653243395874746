"""Session ids and the cookie that carries one.

A session id is 32 random bytes (URL-safe text); the server keeps only its SHA-256, so a copy
of the database signs nobody in. Every sign-in makes a new id (an id someone planted before
sign-in is worth nothing after it); sign out deletes the row, sign out everywhere all of the
account's rows.
"""

from __future__ import annotations

import hashlib
import secrets

COOKIE = "campfire_session"
#: how long a session lasts without use, and at most
IDLE_SECONDS = 30 * 24 * 3600
LIFETIME_SECONDS = 365 * 24 * 3600
ID_LENGTH = 43  # 32 bytes in URL-safe base64


def new_id() -> str:
    return secrets.token_urlsafe(32)


def id_hash(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


def plausible(session_id: str | None) -> bool:
    """Whether a cookie value could be a session id at all (others are not looked up)."""
    return (
        session_id is not None
        and len(session_id) == ID_LENGTH
        and all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in session_id)
    )


def cookie_header(session_id: str, *, secure: bool, max_age: int = IDLE_SECONDS) -> str:
    """The `Set-Cookie` value: HttpOnly (scripts never read it), SameSite=Lax (other sites'
    forms do not send it), Secure when the page came over HTTPS."""
    parts = [f"{COOKIE}={session_id}", "Path=/", f"Max-Age={max_age}", "HttpOnly", "SameSite=Lax"]
    if secure:
        parts.append("Secure")
    return "; ".join(parts)


def clearing_header(*, secure: bool) -> str:
    return cookie_header("", secure=secure, max_age=0)
