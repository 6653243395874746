"""Group commit: every move a process stores goes through one writer thread that commits the
moves waiting at that moment in one transaction.

Under load the cost of a commit (and its fsync) is shared by all the tables that moved meanwhile,
and a move costs plain DB-API statements instead of a round through the ORM layer. On PostgreSQL
a move is one statement and a batch is one pipeline ending in one Sync, on a connection of its
own in autocommit: the statements between two Syncs are one implicit transaction, committed
whole at the Sync or rolled back whole (PostgreSQL's extended query protocol), so a batch is
one round trip; an explicit transaction added a COMMIT round trip to each: 100-140 us of this
process's CPU and 0.3-0.4 ms of the move's latency with batches of one to four moves. Nobody is told
about a move before the transaction holding it committed: each waiting move's future is
settled only after the batch's commit returned. A move whose table is no longer at its `start`
(another process wrote first) changes nothing and gets `Conflict`; the others in the batch are
unaffected.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from campfire.i18n import N_
from campfire.kernel.errors import Refusal
from campfire.server.metrics import DB_COMMIT_SECONDS, timed
from campfire.server.store.storage import Conflict, Storage, dumps

log = logging.getLogger("campfire.server")

#: moves one transaction takes at most
BATCH_LIMIT = 256


@dataclass
class _Append:
    table_id: str
    start: int
    entries: Sequence[dict[str, Any]]
    status: str
    winners: Sequence[int]
    to_move: int | None
    deadline: float | None
    mover: int | None
    timeouts: int
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[int]


class Writer:
    """One thread, one connection, one transaction per batch of waiting moves."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._queue: queue.SimpleQueue[_Append | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        mark = "?" if storage.sqlite else "%s"
        self._update = (
            f"UPDATE campfire_tables SET moves = {mark}, status = {mark}, winners = {mark}, "
            f"updated = {mark}, version = version + 1, to_move = {mark}, deadline = {mark} "
            f"WHERE id = {mark} AND moves = {mark} RETURNING version"
        )
        self._timeouts = (
            f"UPDATE campfire_seats SET timeouts = {mark} "
            f"WHERE table_id = {mark} AND seat = {mark} AND timeouts != {mark}"
        )
        self._insert = (
            f"INSERT INTO campfire_moves (table_id, idx, entry) VALUES ({mark}, {mark}, {mark})"
        )
        # PostgreSQL: a move is one statement (the table's row, its entries, the mover's count
        # of run-out clocks; the entries and the count only where the table was still at
        # `start`), and a batch is one pipeline of such statements: one round trip a batch
        # instead of two or three a move
        self._move = (
            "WITH moved AS ("
            " UPDATE campfire_tables SET moves = %(moves)s, status = %(status)s,"
            " winners = %(winners)s, updated = %(now)s, version = version + 1,"
            " to_move = %(to_move)s, deadline = %(deadline)s"
            " WHERE id = %(id)s AND moves = %(start)s RETURNING version"
            "), stored AS ("
            " INSERT INTO campfire_moves (table_id, idx, entry)"
            " SELECT %(id)s, %(start)s + e.n - 1, e.entry"
            " FROM moved, unnest(%(entries)s::text[]) WITH ORDINALITY AS e(entry, n)"
            "), timed AS ("
            " UPDATE campfire_seats SET timeouts = %(timeouts)s"
            " WHERE table_id = %(id)s AND seat = %(mover)s AND timeouts != %(timeouts)s"
            " AND EXISTS (SELECT 1 FROM moved)"
            ") SELECT version FROM moved"
        )

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="campfire-writer", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=30)
            self._thread = None

    async def append(
        self,
        table_id: str,
        start: int,
        entries: Sequence[dict[str, Any]],
        status: str,
        winners: Sequence[int],
        to_move: int | None,
        deadline: float | None = None,
        mover: int | None = None,
        timeouts: int = 0,
    ) -> int:
        """Store entries `start...`, the table's new status and when the next turn's clock runs
        out (`mover`'s count of run-out clocks in a row becomes `timeouts`); the table's new
        version once committed, `Conflict` when the table is no longer at `start`."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int] = loop.create_future()
        self._queue.put(
            _Append(
                table_id,
                start,
                entries,
                status,
                winners,
                to_move,
                deadline,
                mover,
                timeouts,
                loop,
                future,
            )
        )
        return await future

    # --- the writer thread -----------------------------------------------------------------
    def _run(self) -> None:
        connection: Any = None
        while True:
            first = self._queue.get()
            if first is None:
                break
            batch = [first]
            while len(batch) < BATCH_LIMIT:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)
                    break
                batch.append(more)
            try:
                if connection is None:
                    connection = self._connect()
                results = self._write(connection, batch)
            except Exception as error:
                log.warning("a group commit of %d moves failed (%s): one by one", len(batch), error)
                connection = self._discard(connection)
                results = []
                for item in batch:
                    try:
                        if connection is None:
                            connection = self._connect()
                        results.extend(self._write(connection, [item]))
                    except Exception as single:
                        connection = self._discard(connection)
                        results.append(single)
            for item, result in zip(batch, results, strict=True):
                item.loop.call_soon_threadsafe(_settle, item.future, result)
        self._discard(connection)

    def _connect(self) -> Any:
        connection = self.storage.raw_engine.raw_connection()
        if self.storage.sqlite:
            return connection
        driver = connection.driver_connection
        if driver is None:
            raise RuntimeError("the writer's connection has no driver connection")
        # the writer's own from now on: closed for good when discarded, never handed back to
        # the pool in autocommit
        connection.detach()
        if self.storage.schema is not None:
            cursor = connection.cursor()
            cursor.execute(f'SET search_path TO "{self.storage.schema}"')
            cursor.close()
            connection.commit()
        driver.autocommit = True
        return connection

    @staticmethod
    def _discard(connection: Any) -> None:
        if connection is not None:
            try:
                connection.rollback()
                connection.close()
            except Exception as error:
                log.debug("closing the writer's connection: %s", error)
        return None

    def _write(self, connection: Any, batch: list[_Append]) -> list[int | BaseException]:
        """One transaction for the batch: committed whole, or rolled back whole."""
        cursor = connection.cursor()
        try:
            store = self._store_one_by_one if self.storage.sqlite else self._store_pipelined
            with timed(DB_COMMIT_SECONDS):
                results = store(cursor, batch, time.time())
                if self.storage.sqlite:  # PostgreSQL's batch committed at its pipeline's Sync
                    connection.commit()
        except BaseException:
            connection.rollback()
            raise
        finally:
            cursor.close()
        return results

    def _store_one_by_one(
        self, cursor: Any, batch: list[_Append], now: float
    ) -> list[int | BaseException]:
        results: list[int | BaseException] = []
        for item in batch:
            cursor.execute(
                self._update,
                (
                    item.start + len(item.entries),
                    item.status,
                    dumps(list(item.winners)),
                    now,
                    item.to_move,
                    item.deadline,
                    item.table_id,
                    item.start,
                ),
            )
            rows = cursor.fetchall()
            if not rows:
                results.append(_lost(item))
                continue
            rows_in = [
                (item.table_id, item.start + i, dumps(e)) for i, e in enumerate(item.entries)
            ]
            if len(rows_in) == 1:  # most moves: one entry, and executemany costs more
                cursor.execute(self._insert, rows_in[0])
            elif rows_in:
                cursor.executemany(self._insert, rows_in)
            if item.mover is not None:
                cursor.execute(
                    self._timeouts, (item.timeouts, item.table_id, item.mover, item.timeouts)
                )
            results.append(int(rows[0][0]))
        return results

    def _store_pipelined(
        self, cursor: Any, batch: list[_Append], now: float
    ) -> list[int | BaseException]:
        """One pipeline, one Sync at its end: the batch's transaction (autocommit, see above).
        A batch of one move is one statement, which autocommit makes its own transaction: no
        pipeline to enter and leave (below saturation most batches are of one, and the
        pipeline's own work was a third of the writer's CPU for such a batch)."""
        if len(batch) == 1:
            item = batch[0]
            cursor.execute(self._move, self._move_values(item, now))
            row = cursor.fetchone()
            return [int(row[0]) if row is not None else _lost(item)]
        return self._pipeline(cursor, batch, now)

    def _pipeline(self, cursor: Any, batch: list[_Append], now: float) -> list[int | BaseException]:
        cursor.executemany(
            self._move, [self._move_values(item, now) for item in batch], returning=True
        )
        results: list[int | BaseException] = []
        for item in batch:
            row = cursor.fetchone()
            results.append(int(row[0]) if row is not None else _lost(item))
            cursor.nextset()
        return results

    @staticmethod
    def _move_values(item: _Append, now: float) -> dict[str, Any]:
        return {
            "moves": item.start + len(item.entries),
            "status": item.status,
            "winners": dumps(list(item.winners)),
            "now": now,
            "to_move": item.to_move,
            "deadline": item.deadline,
            "id": item.table_id,
            "start": item.start,
            "entries": [dumps(e) for e in item.entries],
            "timeouts": item.timeouts,
            "mover": item.mover,
        }


def _lost(item: _Append) -> Conflict:
    return Conflict(
        Refusal(
            N_("table {table_id} is no longer at entry {start}"),
            table_id=item.table_id,
            start=item.start,
        )
    )


def _settle(future: asyncio.Future[int], result: int | BaseException) -> None:
    if future.done():
        return
    if isinstance(result, BaseException):
        future.set_exception(result)
    else:
        future.set_result(result)
