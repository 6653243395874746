"""The group-commit writer on SQLite and PostgreSQL: what a batch of moves stores, and that a
move on a table that moved on stores nothing and says so, without spoiling the others."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

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
