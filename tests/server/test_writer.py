"""The group-commit writer on SQLite and PostgreSQL: what a batch of moves stores, and that a
move on a table that moved on stores nothing and says so, without spoiling the others."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from campfire.server.store.storage import FINISHED, PLAYING, Conflict, SeatRow, Storage, TableRow
from campfire.server.store.writer import Writer
from tests.server.conftest import PG_URL


@pytest.fixture(params=["sqlite", "postgresql"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    if request.param == "sqlite":
        store = Storage(f"sqlite:///{tmp_path / 'writer.sqlite3'}")
    else:
        store = Storage(PG_URL, schema=request.getfixturevalue("pg_schema"))
    yield store
    store.close()


def playing(table_id: str) -> TableRow:
    now = time.time()
    seats = [SeatRow(s, "human", None, f"P{s}", f"{table_id}{s}") for s in range(3)]
    return TableRow(table_id, "powwow", 3, {}, PLAYING, 0, [], now, now, None, seats)


def test_a_batch_stores_every_move_and_refuses_only_the_one_that_lost_its_place(
    storage: Storage,
) -> None:
    storage.create(playing("tablea"))
    storage.create(playing("tableb"))
    # seat 1 of table b ran out of time twice: the clock played its turn
    storage.append("tableb", 0, [{"player": 1, "guess": 2}], PLAYING, [], 1, None, 1, 2)
    found = storage.load("tableb")
    assert found is not None and [s.timeouts for s in found[0].seats] == [0, 2, 0]
    deal = [{"kind": "draw", "n": i} for i in range(3)]

    async def main() -> tuple[int | BaseException, ...]:
        writer = Writer(storage)
        writer.start()
        try:
            return await asyncio.gather(
                # a deal and a move in one append; seat 0 moved in time (its count stays 0)
                writer.append(
                    "tablea", 0, [*deal, {"player": 0, "guess": 5}], PLAYING, [], 1, None, 0, 0
                ),
                # seat 1 of table b moved in time after two run-out clocks: its count is reset
                writer.append(
                    "tableb", 1, [{"player": 1, "guess": 7}], FINISHED, [1], None, None, 1, 0
                ),
                # sent twice (a second process, or a retry): table a is no longer at entry 0
                writer.append("tablea", 0, [{"player": 0, "guess": 6}], PLAYING, [], 1, None, 0, 0),
                # and its next move follows on
                writer.append("tablea", 4, [{"player": 1, "guess": 8}], PLAYING, [], 2, 12.5),
                return_exceptions=True,
            )
        finally:
            writer.stop()

    first, other, twice, after = asyncio.run(main())
    assert isinstance(twice, Conflict) and "no longer at entry 0" in str(twice)
    assert isinstance(first, int) and isinstance(other, int) and isinstance(after, int)
    assert after == first + 1
    found = storage.load("tablea")
    assert found is not None
    row, entries = found
    assert entries == [*deal, {"player": 0, "guess": 5}, {"player": 1, "guess": 8}]
    assert (row.moves, row.status, row.to_move, row.deadline) == (5, PLAYING, 2, 12.5)
    assert row.version == after
    found = storage.load("tableb")
    assert found is not None
    row, entries = found
    assert entries == [{"player": 1, "guess": 2}, {"player": 1, "guess": 7}]
    assert (row.status, row.winners, row.to_move) == (FINISHED, [1], None)
    assert [s.timeouts for s in row.seats] == [0, 0, 0]


def test_a_batch_that_fails_in_the_database_stores_nothing_of_it_then_each_move_alone(
    pg_schema: str,
) -> None:
    """PostgreSQL commits a batch at its pipeline's one Sync: a statement that fails there
    rolls back the moves before it too, and the writer then stores the moves one by one, so
    only the failing move is refused. The writer's autocommit connection is its own, not the
    pool's."""
    storage = Storage(PG_URL, schema=pg_schema)
    try:
        for table_id in ("tablea", "tableb", "tablec"):
            storage.create(playing(table_id))
        # a stray row where table b's next entry goes: storing it breaks the primary key
        with storage.engine.begin() as connection:
            connection.execute(
                sa.text(
                    "INSERT INTO campfire_moves (table_id, idx, entry) VALUES ('tableb', 0, '{}')"
                )
            )

        async def main() -> tuple[int | BaseException, ...]:
            writer = Writer(storage)
            # the three moves wait in the queue until the writer starts: one batch
            appends = [
                asyncio.ensure_future(
                    writer.append(t, 0, [{"player": 0, "guess": 4}], PLAYING, [], 1, None, 0, 0)
                )
                for t in ("tablea", "tableb", "tablec")
            ]
            await asyncio.sleep(0)
            writer.start()
            try:
                return tuple(await asyncio.gather(*appends, return_exceptions=True))
            finally:
                pool = storage.raw_engine.pool
                assert isinstance(pool, sa.pool.QueuePool) and pool.checkedout() == 0
                writer.stop()

        stored_a, refused_b, stored_c = asyncio.run(main())
        assert isinstance(stored_a, int) and isinstance(stored_c, int)
        assert isinstance(refused_b, Exception) and not isinstance(refused_b, Conflict)
        for table_id, moves in (("tablea", 1), ("tablec", 1), ("tableb", 0)):
            found = storage.load(table_id)
            assert found is not None and found[0].moves == moves
        found = storage.load("tablea")
        assert found is not None and found[1] == [{"player": 0, "guess": 4}]
    finally:
        storage.close()


def test_moves_that_come_one_at_a_time_are_stored_alone_and_a_late_one_is_refused(
    storage: Storage,
) -> None:
    """Below saturation the writer's batches are of one move (on PostgreSQL one statement,
    its own transaction): each is stored with its entries, the table's row and the mover's
    count; one sent again after its table moved on stores nothing and says so."""
    storage.create(playing("tablea"))
    deal: list[dict[str, Any]] = [{"kind": "draw", "n": i} for i in range(3)]
    # start, entries, status, winners, to_move, mover, the mover's run-out clocks in a row
    moves: list[tuple[int, list[dict[str, Any]], str, list[int], int | None, int, int]] = [
        (0, [*deal, {"player": 0, "guess": 5}], PLAYING, [], 1, 0, 0),
        (4, [{"player": 1, "guess": 6}], PLAYING, [], 2, 1, 1),  # its clock ran out
        (4, [{"player": 1, "guess": 9}], PLAYING, [], 2, 1, 0),  # the same place again
        (5, [{"player": 2, "guess": 7}], FINISHED, [2], None, 2, 0),
    ]

    async def main() -> list[int | BaseException]:
        writer = Writer(storage)
        writer.start()
        out: list[int | BaseException] = []
        try:
            for start, entries, status, winners, to_move, mover, timeouts in moves:
                try:
                    out.append(
                        await writer.append(
                            "tablea",
                            start,
                            entries,
                            status,
                            winners,
                            to_move,
                            None,
                            mover,
                            timeouts,
                        )
                    )
                except Conflict as refused:
                    out.append(refused)
        finally:
            writer.stop()
        return out

    first, second, again, last = asyncio.run(main())
    assert isinstance(again, Conflict) and "no longer at entry 4" in str(again)
    assert isinstance(first, int) and isinstance(second, int) and isinstance(last, int)
    assert first < second < last
    found = storage.load("tablea")
    assert found is not None
    row, entries = found
    assert entries == [
        *deal,
        {"player": 0, "guess": 5},
        {"player": 1, "guess": 6},
        {"player": 2, "guess": 7},
    ]
    assert (row.moves, row.status, row.winners, row.to_move, row.version) == (
        6,
        FINISHED,
        [2],
        None,
        last,
    )
    assert [s.timeouts for s in row.seats] == [0, 1, 0]
