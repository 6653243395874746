"""Calls made while one is on its way travel together in the next.

A process with hundreds of tables asks the same shared service the same kind of small thing
many times a second (tell the other processes of a move; read a table's version before showing
it to a socket). Each ask alone is a round trip and a few hundred microseconds of CPU; asked
while one is out, they wait for it to come back and go together, in order, in one round trip.
Nobody waits longer than one round trip more than they would have alone, and every batch
starts after its asks were made, so an answer is never older than its question.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")
A = TypeVar("A")


class Batcher(Generic[T, R]):
    """`await batcher(item)` hands `item` to `send` together with every item asked for while
    the previous batch was out, and gives what `send` gave for that batch (or raises what it
    raised)."""

    def __init__(self, send: Callable[[list[T]], Awaitable[R]]) -> None:
        self._send = send
        self._waiting: list[T] = []
        self._answer: asyncio.Future[R] | None = None
        self._task: asyncio.Task[None] | None = None

    async def __call__(self, item: T) -> R:
        self._waiting.append(item)
        loop = asyncio.get_running_loop()
        answer = self._answer
        if answer is None:
            answer = self._answer = loop.create_future()
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._run())
        # one asker giving up (a closed socket) does not take the batch down with it
        return await asyncio.shield(answer)

    async def _run(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            answer, self._answer = self._answer, None
            assert answer is not None
            try:
                answer.set_result(await self._send(batch))
            except asyncio.CancelledError:
                answer.cancel()
                raise
            except Exception as error:
                answer.set_exception(error)
                answer.exception()  # retrieved: every asker who still waits sees it raised

    @property
    def waiting(self) -> int:
        """How many asks wait for the next batch."""
        return len(self._waiting)

    async def flush(self, timeout: float) -> None:
        """Wait (up to `timeout` seconds) for what was asked to have gone out."""
        if self._task is not None and not self._task.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._task), timeout)


class Each(Generic[T, A]):
    """A `Batcher` whose `send` answers every item of its batch, in order: `await each(item)`
    gives that item's own answer (an exception in its place is raised to its asker alone)."""

    def __init__(self, send: Callable[[list[T]], Awaitable[list[A | BaseException]]]) -> None:
        self._batcher: Batcher[T, list[A | BaseException]] = Batcher(send)

    async def __call__(self, item: T) -> A:
        # the batch that takes this item takes every ask waiting before it, in order
        index = self._batcher.waiting
        answer = (await self._batcher(item))[index]
        if isinstance(answer, BaseException):
            raise answer
        return answer
