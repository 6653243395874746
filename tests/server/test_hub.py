"""The hub of one process, driven in-process on a shared SQLite file: what it reloads from the
database when it looks for changes made by other processes."""

from __future__ import annotations

import asyncio
from pathlib import Path

from campfire.server.hub import Hub, TableSpec
from campfire.server.storage import Storage


def test_a_look_taken_before_a_move_does_not_reload_the_table_and_a_change_elsewhere_does(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'hub.sqlite3'}"

    async def main() -> None:
        here, there = Hub(Storage(url), seed=1), Hub(Storage(url), seed=2)
        for hub in (here, there):
            hub.writer.start()
        try:
            spec = TableSpec("powwow", 3, {}, {})
            table = await here.create(spec)
            await here.join(table, "Ana", 0)
            # a look at the database, then a change this copy makes itself: the look is older
            looked = await asyncio.to_thread(here.storage.versions, [table.id])
            await here.join(table, "Ben", 1)
            assert looked[table.id] < table.version
            assert here.outdated(looked, [table]) == []
            # a seat taken through another process: the stored version is ahead of this copy
            elsewhere = await there.get(table.id)
            await there.join(elsewhere, "Cy", 2)
            now = await asyncio.to_thread(here.storage.versions, [table.id])
            assert here.outdated(now, [table]) == [table]
            await here.refresh(table)
            assert table.version == elsewhere.version and here.outdated(now, [table]) == []
            assert [s.name for s in table.seats] == ["Ana", "Ben", "Cy"]
        finally:
            for hub in (here, there):
                hub.writer.stop()
                hub.storage.close()

    asyncio.run(main())
