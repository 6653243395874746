"""The move writer's commit on PostgreSQL: what a batch of moves costs this process.

    .venv/bin/python -m benchmarks.commit               # batches of 1, 4 and 20 moves
    .venv/bin/python -m benchmarks.commit --batches 1 --rounds 5000

`campfire.server.store.writer.Writer` stores a batch as one pipeline on an autocommit connection
(one Sync: one implicit transaction, one round trip), and a batch of one move as one plain
statement (its own transaction). Two references, in the same run and in turns with it: every
batch as a pipeline on the autocommit connection, one move too (the writer before batches of
one went without a pipeline); and the same pipeline inside an explicit transaction (BEGIN in
the pipeline, then COMMIT: a second round trip), as the writer did before that. Each batch is
`--batch` moves of as many tables through `Writer.append`, awaited together, in a schema of its
own in PostgreSQL's `test` database at 127.0.0.1:5432 (dropped afterwards). Figures: this
process's CPU time (`time.process_time`, the event loop and the writer thread together) per
move and wall time per batch, the median of the rounds' slices.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg

from campfire.server.store.storage import PLAYING, SeatRow, Storage, TableRow
from campfire.server.store.writer import Writer

PG_ADMIN = "host=127.0.0.1 port=5432 dbname=test user=postgres"
PG_URL = "postgresql://postgres@127.0.0.1:5432/test"


class PipelineWriter(Writer):
    """The first reference: every batch a pipeline, a batch of one move too."""

    def _store_pipelined(self, cursor: Any, batch: list[Any], now: float) -> list[Any]:
        return self._pipeline(cursor, batch, now)


class ExplicitWriter(PipelineWriter):
    """The second reference: the same pipeline, committed by a COMMIT after it."""

    def _connect(self) -> Any:
        connection = super()._connect()
        connection.dbapi_connection.autocommit = False  # detached: no pool record
        return connection

    def _store_pipelined(self, cursor: Any, batch: list[Any], now: float) -> list[Any]:
        results = super()._store_pipelined(cursor, batch, now)
        cursor.connection.commit()
        return results


@contextmanager
def schema() -> Iterator[str]:
    name = f"campfire_commit_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as admin:
        admin.execute(f'CREATE SCHEMA "{name}"')
        try:
            yield name
        finally:
            admin.execute(f'DROP SCHEMA "{name}" CASCADE')


def table(table_id: str) -> TableRow:
    now = time.time()
    seats = [SeatRow(s, "human", None, f"P{s}", f"{table_id}{s}") for s in range(4)]
    return TableRow(table_id, "powwow", 4, {}, PLAYING, 0, [], now, now, None, seats)


async def rounds(
    writer: Writer, ids: list[str], at: dict[str, int], count: int
) -> tuple[float, float]:
    """CPU µs a move and wall µs a batch over `count` batches of one move per table."""

    async def one(table_id: str) -> int:
        start = at[table_id]
        at[table_id] += 1
        entry = {"player": start % 4, "guess": 4}
        return await writer.append(table_id, start, [entry], PLAYING, [], 1, None, 0, 0)

    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(count):
        await asyncio.gather(*(one(t) for t in ids))
    return (
        1e6 * (time.process_time() - cpu) / (count * len(ids)),
        1e6 * (time.perf_counter() - wall) / count,
    )


def measure(
    storage: Storage, kind: type[Writer], ids: list[str], at: dict[str, int], n: int
) -> tuple[float, float]:
    async def main() -> tuple[float, float]:
        writer = kind(storage)
        writer.start()
        try:
            await rounds(writer, ids, at, 50)  # connection, prepared statement, caches
            return await rounds(writer, ids, at, n)
        finally:
            writer.stop()

    return asyncio.run(main())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--batches",
        type=lambda text: [int(t) for t in text.split(",")],
        default=[1, 4, 20],
        help="moves a batch (comma-separated)",
    )
    parser.add_argument("--rounds", type=int, default=3000, help="batches a measurement")
    parser.add_argument("--slices", type=int, default=5, help="alternating slices")
    args = parser.parse_args(argv)
    with schema() as name:
        storage = Storage(PG_URL, schema=name)
        try:
            ids = [f"t{i}" for i in range(max(args.batches))]
            for table_id in ids:
                storage.create(table(table_id))
            at = dict.fromkeys(ids, 0)
            kinds: list[tuple[str, type[Writer]]] = [
                ("writer", Writer),
                ("every batch a pipeline", PipelineWriter),
                ("explicit transaction", ExplicitWriter),
            ]
            print(
                "References: every batch a pipeline (autocommit); the same pipeline in an "
                "explicit transaction (BEGIN ... COMMIT)."
            )
            print(
                "| moves a batch | "
                + " | ".join(f"{name}: CPU µs a move | wall µs a batch" for name, _ in kinds)
                + " | CPU vs each reference |"
            )
            print("|---:|" + "---:|---:|" * len(kinds) + "---|")
            for size in args.batches:
                got: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in kinds}
                per_slice = max(1, args.rounds // args.slices)
                for _ in range(args.slices):
                    for name, kind in kinds:
                        got[name].append(measure(storage, kind, ids[:size], at, per_slice))
                cpu = {name: statistics.median(m[0] for m in got[name]) for name, _ in kinds}
                wall = {name: statistics.median(m[1] for m in got[name]) for name, _ in kinds}
                cells = " | ".join(f"{cpu[n]:.0f} | {wall[n]:.0f}" for n, _ in kinds)
                versus = ", ".join(f"{cpu['writer'] / cpu[n]:.2f}x" for n, _ in kinds[1:])
                print(f"| {size} | {cells} | {versus} |", flush=True)
        finally:
            storage.close()


if __name__ == "__main__":
    main()
