"""What every part of the server refuses with: an HTTP status and a reason a person can act on."""

from __future__ import annotations


class Refused(Exception):
    """A request the table turns down: an HTTP status and a reason a person can act on."""

    def __init__(self, status: int, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        #: seconds until the same request may succeed, when known (a 429's `Retry-After`)
        self.retry_after = retry_after
