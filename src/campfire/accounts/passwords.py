"""Passwords: the rules of NIST SP 800-63B and argon2id hashes computed off the event loop.

The rules (800-63B 5.1.1.2): at least 8 characters, long passphrases welcome (up to 256), no
composition rules, and none of the most common passwords (`common-passwords.txt`, shipped here).
A password is kept nowhere but as its argon2id hash.

Hashing costs about 20 ms of one core at the chosen cost (docs/accounts.md), so it runs in a
small pool of threads (argon2 lets go of the GIL) behind a bounded queue: a flood of sign-ins
waits there, or is told to come back, while the event loop goes on serving the tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

from pwdlib import PasswordHash
from pwdlib.exceptions import PwdlibError
from pwdlib.hashers.argon2 import Argon2Hasher

from campfire.i18n import N_
from campfire.kernel.errors import Refusal

PASSWORD_MIN = 8
PASSWORD_MAX = 256
COMMON = Path(__file__).parent / "common-passwords.txt"

#: argon2id at OWASP's first recommended setting (19 MiB, 2 passes, 1 lane): about 20 ms of
#: one core here; RFC 9106's 64 MiB x 3 would cost 4x that per sign-in on a shared 2-core host
TIME_COST = 2
MEMORY_COST = 19 * 1024
PARALLELISM = 1
#: hashes computed at once (threads) and sign-ins allowed to wait for one: one thread does
#: about 30 checks a second and never takes more than one core from the tables
WORKERS = 1
QUEUE = 64
#: the hashing threads' nice value: when the cores are busy, the thread serving the tables
#: (nice 0) is run first and the sign-ins wait (Linux schedules each thread on its own)
NICE = 10


class BadPassword(ValueError):
    """A password the rules refuse, with the reason a person reads."""


class Busy(Exception):
    """Too many sign-ins wait for a hash: the caller answers 503 with Retry-After."""


@cache
def _common() -> frozenset[str]:
    lines = COMMON.read_text().splitlines()
    return frozenset(w.casefold() for w in lines if w and not w.startswith("#"))


def check_password(password: str, name: str | None = None) -> str:
    """The password as hashed (NFKC, as 800-63B asks), or `BadPassword` saying why."""
    password = unicodedata.normalize("NFKC", password)
    if len(password) < PASSWORD_MIN:
        raise BadPassword(
            Refusal(
                N_(
                    "a password has at least {least} characters, not {length}; a "
                    "few words in a row make a good one"
                ),
                least=PASSWORD_MIN,
                length=len(password),
            )
        )
    if len(password) > PASSWORD_MAX:
        raise BadPassword(
            Refusal(N_("a password has at most {most} characters"), most=PASSWORD_MAX)
        )
    if password.casefold() in _common():
        raise BadPassword(
            Refusal(
                N_(
                    "that password is one of the most common ones, tried first by anyone "
                    "guessing: pick another"
                )
            )
        )
    if name is not None and password.casefold() == name.casefold():
        raise BadPassword(Refusal(N_("a password cannot be the account name")))
    return password


def _lower_priority() -> None:
    """Run this (hashing) thread behind the event loop's when the machine is busy."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)


class Hasher:
    """argon2id hashing and checking in a bounded pool of threads."""

    def __init__(
        self,
        *,
        time_cost: int = TIME_COST,
        memory_cost: int = MEMORY_COST,
        parallelism: int = PARALLELISM,
        workers: int = WORKERS,
        queue: int = QUEUE,
    ) -> None:
        self.hash_ = PasswordHash(
            (Argon2Hasher(time_cost=time_cost, memory_cost=memory_cost, parallelism=parallelism),)
        )
        self.pool = ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="argon2", initializer=_lower_priority
        )
        self.slots = asyncio.Semaphore(workers + queue)
        # a hash of nothing anyone knows: an unknown name is checked against it, so it takes
        # as long as a wrong password
        self.dummy = self.hash_.hash("campfire: no such account")

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)

    async def _run(self, work: object, *args: str) -> object:
        if self.slots.locked():
            raise Busy("too many sign-ins at once")
        async with self.slots:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self.pool, work, *args)  # type: ignore[arg-type]

    async def hash(self, password: str) -> str:
        """The argon2id hash of a password that passed `check_password`."""
        out = await self._run(self.hash_.hash, password)
        assert isinstance(out, str)
        return out

    async def verify(self, password: str, stored: str | None) -> bool:
        """Whether `password` matches `stored`; with None (no such account) the same work is
        done against a dummy hash and the answer is False."""
        password = unicodedata.normalize("NFKC", password)[: PASSWORD_MAX + 1]
        target = stored if stored is not None else self.dummy
        try:
            ok = await self._run(self.hash_.verify, password, target)
        except (ValueError, TypeError, PwdlibError):  # a malformed stored hash: no match
            ok = False
        return bool(ok) and stored is not None
