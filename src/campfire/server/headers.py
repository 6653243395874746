"""Headers every HTTP response carries, added as plain ASGI middleware (Starlette's
BaseHTTPMiddleware costs a task and a stream per request)."""

from __future__ import annotations

from collections.abc import Iterable

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send


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
