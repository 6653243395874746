"""The hub of one process among several, driven in-process on a shared SQLite file: joins
on a copy of the table that is behind."""

from __future__ import annotations

import asyncio
from pathlib import Path

from campfire.server.refusals import Refused
from campfire.server.tables.hub import TableSpec
from tests.server.hubs import Recording, counted_reads, started, stopped


def test_a_join_on_a_copy_that_is_behind_reads_nothing_first_and_the_claim_makes_it_current(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        here, there = started(tmp_path, Recording(), Recording())
        reads = counted_reads(here)
        try:
            table = await here.create(TableSpec("powwow", 3, {}, {}))
            elsewhere = await there.get(table.id)
            await there.join(elsewhere, "Ana", 0)  # this copy never hears of it
            # a name taken elsewhere is refused by the claim itself, whatever its case
            try:
                await here.join(table, "ANA", 2)
                raise AssertionError("a second Ana was seated")
            except Refused as refused:
                assert refused.status == 409 and "already called" in refused.reason
            assert table.seats[0].name == "Ana"  # and the refusal brought the copy up to date
            reads.clear()
            await there.join(elsewhere, "Ben", 1)  # again unheard of here
            # the copy counts seats 1 and 2 free; seat 2 fills the table: dealt all the same
            seat, _ = await here.join(table, "Cy", 2)
            assert seat == 2 and reads == []
            assert [s.name for s in table.seats] == ["Ana", "Ben", "Cy"]
            assert table.status == "playing" and table.at > 0
            stored = here.storage.load(table.id)
            assert stored is not None and stored[0].version == table.version
            assert stored[0].moves == table.at
        finally:
            stopped(here, there)

    asyncio.run(main())
