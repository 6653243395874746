"""The move writer's commit on PostgreSQL: what a batch of moves costs this process.

    .venv/bin/python -m benchmarks.commit               # batches of 1, 4 and 20 moves
    .venv/bin/python -m benchmarks.commit --batches 1 --rounds 5000

`campfire.server.store.writer.Writer` stores a batch as one pipeline on an autocommit connection
(one Sync: one implicit transaction, one round trip). The reference, in the same run and
alternating with it: the same pipeline inside an explicit transaction (BEGIN in the pipeline,
then COMMIT: a second round trip), as the writer did before. Each batch is `--batch` moves of
as many tables through `Writer.append`, awaited together, in a schema of its own in PostgreSQL's
`test` database at 127.0.0.1:5432 (dropped afterwards). Figures: this process's CPU time
(`time.process_time`, the event loop and the writer thread together) per move and wall time
per batch, the median of the rounds' slices.
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


class ExplicitWriter(Writer):
    """The reference: the same statements, committed by a COMMIT after the pipeline."""

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
            print("Reference: the same pipeline in an explicit transaction (BEGIN ... COMMIT).")
            print(
                "| moves a batch | writer: CPU µs a move | wall µs a batch "
                "| reference: CPU µs a move | wall µs a batch | CPU vs reference |"
            )
            print("|---:|---:|---:|---:|---:|---:|")
            for size in args.batches:
                mine: list[tuple[float, float]] = []
                theirs: list[tuple[float, float]] = []
                per_slice = max(1, args.rounds // args.slices)
                for _ in range(args.slices):
                    mine.append(measure(storage, Writer, ids[:size], at, per_slice))
                    theirs.append(measure(storage, ExplicitWriter, ids[:size], at, per_slice))
                cpu = statistics.median(m[0] for m in mine)
                wall = statistics.median(m[1] for m in mine)
                ref_cpu = statistics.median(t[0] for t in theirs)
                ref_wall = statistics.median(t[1] for t in theirs)
                print(
                    f"| {size} | {cpu:.0f} | {wall:.0f} | {ref_cpu:.0f} | {ref_wall:.0f} "
                    f"| {cpu / ref_cpu:.2f}x |",
                    flush=True,
                )
        finally:
            storage.close()


if __name__ == "__main__":
    main()
