"""Headers every HTTP response carries, and the bound on request bodies, added as plain ASGI
middleware (Starlette's BaseHTTPMiddleware costs a task and a stream per request)."""

from __future__ import annotations

from collections.abc import Iterable

from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from campfire.i18n import N_
from campfire.server.http.language import page_language
from campfire.server.refusals import Refusal, Refused, told


class DefaultHeaders:
    """Set each header a response does not set itself."""

    def __init__(self, app: ASGIApp, headers: Iterable[tuple[str, str]]) -> None:
        self.app = app
        self.headers = list(headers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in self.headers:
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, with_headers)


class BodyLimit:
    """Refuse a request body over `limit` bytes with 413 and the usual `{"error": ...}`: at
    once when its Content-Length says so, else as soon as the bytes read pass the limit (the
    refusal then reaches the error handlers as any other)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    def refusal(self) -> Refused:
        return Refused(
            413, Refusal(N_("the request body has at most {limit} bytes"), limit=self.limit)
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            refused = self.refusal()
            lang = page_language(Request(scope))
            said = told({"error": ""}, refused.reason, lang, "error")
            response = JSONResponse(said, status_code=refused.status)
            await response(scope, receive, send)
            return
        seen = 0

        async def bounded() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise self.refusal()
            return message

        await self.app(scope, bounded, send)
