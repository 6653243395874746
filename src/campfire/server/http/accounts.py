"""The accounts API: sign up, sign in and out (everywhere too), the signed-in account, a new
password, deleting the account, and passkeys. Contract in README.md ("Accounts") and
docs/accounts.md.

The session is a cookie (`campfire_session`); a request that changes anything and carries it
must come from this server's own pages (`Origin`, as the table sockets check it), so another
site's page cannot act with a visitor's cookie. Bodies are JSON only, bounded as every body.
A wrong password and an unknown name get the same 401 after the same argon2 work.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from pydantic import Field, StrictStr
from starlette.requests import HTTPConnection

from campfire.accounts import passkeys
from campfire.accounts.limits import SignInLimit, TooMany
from campfire.accounts.names import BadName, account_name
from campfire.accounts.passwords import PASSWORD_MAX, BadPassword, Busy, Hasher, check_password
from campfire.accounts.sessions import COOKIE, clearing_header, cookie_header, plausible
from campfire.i18n import N_
from campfire.kernel.errors import Refusal
from campfire.server.http.requests import _Body, read_body
from campfire.server.refusals import Refused, said
from campfire.server.store.accounts import Account, AccountStore, AccountTaken
from campfire.server.tables.admission import same_host

WRONG = Refusal(N_("wrong name or password"))
#: new accounts one address may open in an hour
SIGNUPS_PER_HOUR = 20


class Credentials(_Body):
    name: StrictStr = Field(max_length=200)
    password: StrictStr = Field(max_length=PASSWORD_MAX * 4)


class NewPassword(_Body):
    current: StrictStr = Field(max_length=PASSWORD_MAX * 4)
    password: StrictStr = Field(max_length=PASSWORD_MAX * 4)


class Confirm(_Body):
    password: StrictStr = Field(max_length=PASSWORD_MAX * 4)


class PasskeyAnswer(_Body):
    challenge: StrictStr = Field(max_length=100)
    credential: dict[str, Any] = Field(max_length=10)


def too_many(reason: str, wait: float) -> Refused:
    """429 with `Retry-After`: the seconds until an attempt is counted again."""
    seconds = max(1, math.ceil(wait))
    return Refused(
        429,
        Refusal(N_("{reason}: try again in {seconds} s"), reason=reason, seconds=seconds),
        retry_after=seconds,
    )


def busy() -> Refused:
    """503 with `Retry-After`: every hashing thread is busy and the queue is full."""
    return Refused(
        503,
        Refusal(N_("the server is checking many passwords right now: try again in a moment")),
        retry_after=2,
    )


def page_origin(request: HTTPConnection) -> str | None:
    """The `Origin` of a write sent with the session cookie, refused (403) when it names
    another site than this server; None when the client sent none (not a browser page)."""
    origin = request.headers.get("origin")
    fetch_site = request.headers.get("sec-fetch-site")
    if fetch_site == "cross-site":
        raise Refused(403, Refusal(N_("a signed-in change must come from this site's own pages")))
    if origin is None:
        return None
    if not same_host(origin, request.headers.get("host")):
        raise Refused(
            403,
            Refusal(
                N_("a signed-in change must come from this site's own pages, not {origin!r}"),
                origin=origin[:80],
            ),
        )
    return origin


class Accounts:
    """The accounts service of one server process."""

    def __init__(
        self,
        store: AccountStore,
        hasher: Hasher,
        limit: SignInLimit,
        hit: Any,
        renamed: Callable[[list[str]], Awaitable[None]] | None = None,
    ) -> None:
        self.store = store
        self.hasher = hasher
        self.limit = limit
        self.hit = hit
        #: told the tables whose seats a deleted account left (their pages show the new name)
        self.renamed = renamed

    async def _db(self, fn: Any, *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    async def current(self, request: HTTPConnection, *, write: bool = False) -> Account | None:
        """The signed-in account of a request or a WebSocket (None: a guest). For a write that
        carries the cookie, the page it came from must be this server's."""
        session_id = request.cookies.get(COOKIE)
        if not plausible(session_id):
            return None
        assert session_id is not None
        if write:
            page_origin(request)
        found: Account | None = await self._db(self.store.session, session_id)
        return found

    async def required(self, request: Request, *, write: bool = False) -> Account:
        account = await self.current(request, write=write)
        if account is None:
            raise Refused(
                401, Refusal(N_("you are not signed in (or your session ended): sign in first"))
            )
        return account


def _secure(request: Request) -> bool:
    """Over HTTPS, directly or through a trusted proxy's X-Forwarded-Proto (uvicorn's
    --forwarded-allow-ips sets the scheme)."""
    return request.url.scheme in ("https", "wss")


def _signed_in(request: Request, session_id: str, body: dict[str, Any], status: int) -> Response:
    response = JSONResponse(body, status_code=status)
    response.headers.append("set-cookie", cookie_header(session_id, secure=_secure(request)))
    response.headers["cache-control"] = "no-store"
    return response


def _address(request: Request) -> str:
    return request.client.host if request.client else ""


def _relying_party(request: Request) -> tuple[str, str]:
    """The relying party id (the host name of this server as the page reached it) and the
    origin the passkey answer must name (the page's own)."""
    host = urlsplit(f"//{request.headers.get('host', '')}").hostname
    if not host:
        raise Refused(400, Refusal(N_("passkeys need the request's Host")))
    origin = page_origin(request)
    if origin is None:
        scheme = "https" if _secure(request) else "http"
        origin = f"{scheme}://{request.headers.get('host', '')}"
    return host, origin


def add_account_routes(app: FastAPI, accounts: Accounts) -> None:
    store = accounts.store
    db = accounts._db

    def me(account: Account) -> dict[str, Any]:
        return {"name": account.name, "created": account.created}

    @app.post("/api/accounts", status_code=201)
    async def sign_up(request: Request) -> Response:
        page_origin(request)
        body = await read_body(request, Credentials)
        try:
            name = account_name(body.name)
            password = check_password(body.password, name)
        except (BadName, BadPassword) as error:
            raise Refused(422, said(error)) from None
        wait = await accounts.hit(f"signup:{_address(request)}", SIGNUPS_PER_HOUR, 3600.0)
        if wait is not None:
            raise too_many(Refusal(N_("too many new accounts from your address")), wait)
        if await db(store.named, name) is not None:
            raise Refused(
                409,
                Refusal(
                    N_("the name {name} is taken (ignoring case and look-alike letters)"),
                    name=repr(name),
                ),
            )
        try:
            hashed = await accounts.hasher.hash(password)
        except Busy:
            raise busy() from None
        try:
            account = await db(store.create, name, hashed)
        except AccountTaken:
            raise Refused(
                409,
                Refusal(
                    N_("the name {name!r} is taken (ignoring case and look-alike letters)"),
                    name=name,
                ),
            ) from None
        session_id = await db(store.open_session, account.id, request.cookies.get(COOKIE))
        return _signed_in(request, session_id, {"name": account.name}, 201)

    @app.post("/api/session")
    async def sign_in(request: Request) -> Response:
        page_origin(request)
        body = await read_body(request, Credentials)
        try:
            await accounts.limit.attempt(body.name, _address(request))
        except TooMany as error:
            raise too_many(error.reason, error.wait) from None
        account: Account | None = await db(store.named, body.name)
        try:
            ok = await accounts.hasher.verify(
                body.password, account.password_hash if account is not None else None
            )
        except Busy:
            raise busy() from None
        if account is None or not ok:
            raise Refused(401, WRONG)
        session_id = await db(store.open_session, account.id, request.cookies.get(COOKIE))
        return _signed_in(request, session_id, {"name": account.name}, 200)

    @app.delete("/api/session", status_code=204)
    async def sign_out(request: Request) -> Response:
        session_id = request.cookies.get(COOKIE)
        if plausible(session_id):
            assert session_id is not None
            page_origin(request)
            await db(store.close_session, session_id)
        response = Response(status_code=204)
        response.headers.append("set-cookie", clearing_header(secure=_secure(request)))
        return response

    @app.delete("/api/sessions", status_code=204)
    async def sign_out_everywhere(request: Request) -> Response:
        account = await accounts.required(request, write=True)
        await db(store.close_all, account.id)
        response = Response(status_code=204)
        response.headers.append("set-cookie", clearing_header(secure=_secure(request)))
        return response

    @app.get("/api/me")
    async def who_am_i(request: Request) -> Response:
        return JSONResponse(
            await described(await accounts.required(request)),
            headers={"cache-control": "no-store"},
        )

    @app.get("/api/session")
    async def session_now(request: Request) -> Response:
        """What `/api/me` says, or `{"name": null}` for a guest (a page asks without a 401)."""
        account = await accounts.current(request)
        out = await described(account) if account is not None else {"name": None}
        return JSONResponse(out, headers={"cache-control": "no-store"})

    async def described(account: Account) -> dict[str, Any]:
        keys = await db(store.passkeys, account.id)
        tables = await db(store.tables_of, account.id)
        sessions = await db(store.session_count, account.id)
        out: dict[str, Any] = me(account) | {
            "passkeys": [
                {"id": k.credential_id, "created": k.created, "used": k.used} for k in keys
            ],
            "sessions": sessions,
            "tables": tables,
        }
        return out

    @app.post("/api/me/password")
    async def change_password(request: Request) -> dict[str, Any]:
        account = await accounts.required(request, write=True)
        body = await read_body(request, NewPassword)
        try:
            password = check_password(body.password, account.name)
        except BadPassword as error:
            raise Refused(422, said(error)) from None
        try:
            await accounts.limit.attempt(account.name, _address(request))
        except TooMany as error:
            raise too_many(error.reason, error.wait) from None
        try:
            if not await accounts.hasher.verify(body.current, account.password_hash):
                raise Refused(403, Refusal(N_("the current password is not right")))
            hashed = await accounts.hasher.hash(password)
        except Busy:
            raise busy() from None
        await db(store.set_password, account.id, hashed, request.cookies.get(COOKIE))
        return me(account) | {"changed": True}

    @app.delete("/api/me", status_code=204)
    async def delete_account(request: Request) -> Response:
        account = await accounts.required(request, write=True)
        body = await read_body(request, Confirm)
        try:
            ok = await accounts.hasher.verify(body.password, account.password_hash)
        except Busy:
            raise busy() from None
        if not ok:
            raise Refused(403, Refusal(N_("the password is not right: the account stays")))
        tables = await db(store.delete, account.id)
        if accounts.renamed is not None:
            await accounts.renamed(tables)
        response = Response(status_code=204)
        response.headers.append("set-cookie", clearing_header(secure=_secure(request)))
        return response

    # --- passkeys --------------------------------------------------------------------------
    @app.post("/api/passkeys/register/options")
    async def passkey_register_options(request: Request) -> dict[str, Any]:
        account = await accounts.required(request, write=True)
        rp_id, _origin = _relying_party(request)
        existing = [k.credential_id for k in await db(store.passkeys, account.id)]
        handle = bytes(account.user_handle, "ascii")
        options, challenge = passkeys.registration_options(rp_id, handle, account.name, existing)
        seconds = passkeys.TIMEOUT_MS / 1000
        challenge_id = await db(store.put_challenge, challenge, account.id, seconds)
        return {"challenge": challenge_id, "options": options}

    @app.post("/api/passkeys/register", status_code=201)
    async def passkey_register(request: Request) -> dict[str, Any]:
        account = await accounts.required(request, write=True)
        body = await read_body(request, PasskeyAnswer)
        rp_id, origin = _relying_party(request)
        kept = await db(store.take_challenge, body.challenge)
        if kept is None or kept[1] != account.id:
            raise Refused(400, Refusal(N_("that passkey request has expired: start again")))
        try:
            made = passkeys.verify_registration(body.credential, kept[0], rp_id, origin)
        except passkeys.PasskeyRefused as error:
            raise Refused(400, said(error)) from None
        added = await db(
            store.add_passkey, account.id, made.credential_id, made.public_key, made.sign_count
        )
        if not added:
            raise Refused(409, Refusal(N_("that passkey is registered already")))
        return {"id": made.credential_id}

    @app.delete("/api/passkeys/{credential_id}", status_code=204)
    async def passkey_remove(credential_id: str, request: Request) -> Response:
        account = await accounts.required(request, write=True)
        if not await db(store.remove_passkey, account.id, credential_id[:1400]):
            raise Refused(404, Refusal(N_("this account has no such passkey")))
        return Response(status_code=204)

    @app.post("/api/passkeys/signin/options")
    async def passkey_signin_options(request: Request) -> dict[str, Any]:
        rp_id, _origin = _relying_party(request)
        wait = await accounts.hit(f"passkey:{_address(request)}", 60, 60.0)
        if wait is not None:
            raise too_many(Refusal(N_("too many passkey sign-ins from your address")), wait)
        options, challenge = passkeys.authentication_options(rp_id)
        seconds = passkeys.TIMEOUT_MS / 1000
        challenge_id = await db(store.put_challenge, challenge, None, seconds)
        return {"challenge": challenge_id, "options": options}

    @app.post("/api/passkeys/signin")
    async def passkey_signin(request: Request) -> Response:
        body = await read_body(request, PasskeyAnswer)
        rp_id, origin = _relying_party(request)
        kept = await db(store.take_challenge, body.challenge)
        if kept is None or kept[1] is not None:
            raise Refused(400, Refusal(N_("that passkey request has expired: start again")))
        credential_id = passkeys.credential_id_of(body.credential)
        key = await db(store.passkey, credential_id) if credential_id else None
        if key is None:
            raise Refused(401, Refusal(N_("this passkey belongs to no account here")))
        try:
            count = passkeys.verify_authentication(
                body.credential, kept[0], rp_id, origin, key.public_key, key.sign_count
            )
        except passkeys.PasskeyRefused as error:
            raise Refused(401, said(error)) from None
        await db(store.passkey_used, key.credential_id, count)
        account = await db(store.by_id, key.account_id)
        if account is None:
            raise Refused(401, Refusal(N_("this passkey belongs to no account here")))
        session_id = await db(store.open_session, account.id, request.cookies.get(COOKIE))
        return _signed_in(request, session_id, {"name": account.name}, 200)
