"""How many sign-in attempts an account and an address get: counted with the server's shared
counters (`hit`: in-process, or in Redis when several processes serve together), so the limit
holds whichever process an attempt reaches. Passkey sign-ins are not counted: a person kept
out by someone guessing at their password can still come in with their passkey."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from campfire.accounts.folding import name_key
from campfire.i18n import N_
from campfire.kernel.errors import Refusal

#: attempts per account and per address in WINDOW seconds
PER_ACCOUNT = 10
PER_ADDRESS = 30
WINDOW = 300.0

Hit = Callable[[str, int, float], Awaitable[float | None]]


class TooMany(Exception):
    """Too many attempts: `wait` seconds until the next one is counted."""

    def __init__(self, reason: str, wait: float) -> None:
        # `reason` is a Refusal: told in each reader's language
        super().__init__(reason)
        self.reason = reason
        self.wait = wait


class SignInLimit:
    def __init__(
        self,
        hit: Hit,
        *,
        per_account: int = PER_ACCOUNT,
        per_address: int = PER_ADDRESS,
        window: float = WINDOW,
    ) -> None:
        self.hit = hit
        self.per_account = per_account
        self.per_address = per_address
        self.window = window

    async def attempt(self, name: str, address: str) -> None:
        """Count one attempt at `name` from `address`, or `TooMany` saying when to retry.
        The name is counted as folded, so "ALICE" and "alice" share one count."""
        wait = await self.hit(f"signin-address:{address}", self.per_address, self.window)
        if wait is not None:
            raise TooMany(Refusal(N_("too many sign-in attempts from your address")), wait)
        wait = await self.hit(
            f"signin-account:{name_key(name)[:80]}", self.per_account, self.window
        )
        if wait is not None:
            raise TooMany(Refusal(N_("too many sign-in attempts for this account")), wait)
