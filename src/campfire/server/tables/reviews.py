"""`Reviews`: a finished table's review, computed once, kept in the database, shared by all.

A review judges every move of the game (`campfire.review`): seconds of CPU. It runs in a
worker process, never on the event loop and never in this process's threads (which would hold
the interpreter lock the moves need), at a lower priority than the server (`nice`), so the
tables in play keep their pace. The first request starts it; every request for the same table
while it runs waits for that one computation; the result is written to the database, so every
later request (from any process, after any restart) costs a read.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

import orjson

from campfire.i18n import N_
from campfire.kernel.records import Record
from campfire.review import review_document
from campfire.server.refusals import Refusal, Refused, said
from campfire.server.store.storage import Storage
from campfire.server.tables.live import LiveTable

T = TypeVar("T")
Store = Callable[..., Awaitable[Any]]
#: reviews finished in this process kept in memory, newest last (each is also in the database)
KEPT = 64
#: how much nicer than the server the reviewing process runs
NICENESS = 10


class Reviews:
    """The reviews of finished tables. `store` runs a storage call off the event loop (the
    hub's, so a database that fails is a clear 503)."""

    def __init__(self, storage: Storage, store: Store) -> None:
        self.storage = storage
        self.store = store
        self.computed = 0  # reviews this process computed (each table's at most once)
        self._tasks: OrderedDict[str, asyncio.Task[dict[str, Any]]] = OrderedDict()
        self._pool: ProcessPoolExecutor | None = None

    async def of(self, table: LiveTable) -> dict[str, Any]:
        """The review of the finished `table` (the caller checked that it is finished)."""
        task = self._tasks.get(table.id)
        if task is None:
            record = Record.of(table.state).to_json()
            task = asyncio.get_running_loop().create_task(self._review(table.id, record))
            self._tasks[table.id] = task
            while len(self._tasks) > KEPT:
                self._tasks.popitem(last=False)
        try:
            return await asyncio.shield(task)  # one request leaving does not stop the others'
        except Refused:
            if task.done() and self._tasks.get(table.id) is task:
                del self._tasks[table.id]  # asked again later, it is tried again
            raise

    async def _review(self, table_id: str, record: dict[str, Any]) -> dict[str, Any]:
        kept: str | None = await self.store(self.storage.review, table_id)
        if kept is None:
            self.computed += 1
            try:
                data = await asyncio.get_running_loop().run_in_executor(
                    self._executor(), review_document, record
                )
            except BrokenProcessPool:
                self._pool = None
                raise Refused(503, Refusal(N_("the review could not be made: try again"))) from None
            except ValueError as error:  # a game without a judge
                raise Refused(409, said(error)) from None
            kept = await self.store(self.storage.save_review, table_id, orjson.dumps(data).decode())
        result: dict[str, Any] = orjson.loads(kept)
        return result

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"), initializer=_nicer
            )
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _nicer() -> None:
    os.nice(NICENESS)
