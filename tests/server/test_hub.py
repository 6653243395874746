"""The hub of one process, driven in-process on a shared SQLite file: what it reloads from the
database when it looks for changes made by other processes."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from campfire.server.bus import Bus
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


class Recording(Bus):
    """The bus of one process among several, with the notices it sends kept for a test to
    deliver (as Redis would) to another process's hub."""

    shared = True

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[tuple[str, str, dict[str, Any] | None]] = []

    async def publish(self, table_id: str, kind: str, data: dict[str, Any] | None = None) -> None:
        self.sent.append((table_id, kind, data))


def test_a_seat_taken_on_another_process_arrives_with_its_notice_and_needs_no_database_read(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'hub.sqlite3'}"

    async def main() -> None:
        bus = Recording()
        here, there = Hub(Storage(url), Recording(), seed=1), Hub(Storage(url), bus, seed=2)
        reads: list[int] = []
        load_since = here.storage.load_since

        def counted(*args: Any) -> Any:
            reads.append(args[1])
            return load_since(*args)

        here.storage.load_since = counted  # type: ignore[method-assign,assignment]
        for hub in (here, there):
            hub.writer.start()
        try:
            table = await here.create(TableSpec("powwow", 3, {}, {}))
            elsewhere = await there.get(table.id)
            await there.join(elsewhere, "Ana", 1)
            [(table_id, kind, data)] = bus.sent
            assert (table_id, kind) == (table.id, "joined")
            here._notice(table_id, kind, data)
            await asyncio.gather(*here._tasks)
            assert reads == []
            assert table.seats[1].name == "Ana" and table.version == elsewhere.version
            assert here.outdated(here.storage.versions([table.id]), [table]) == []
            # the same notice again (or one that does not follow this copy): nothing, or a read
            here._notice(table_id, kind, data)
            await asyncio.gather(*here._tasks)
            assert reads == []
            await there.join(elsewhere, "Ben", 0)
            await there.join(elsewhere, "Cy", 2)  # fills the table: dealt, a "moves" notice
            assert [k for _, k, _ in bus.sent] == ["joined", "joined", "moves"]
            here._notice(*bus.sent[2])
            await asyncio.gather(*here._tasks)
            assert len(reads) == 1  # the deal is read from the database, seats and all
            assert [s.name for s in table.seats] == ["Ben", "Ana", "Cy"]
            assert table.status == "playing" and table.at == elsewhere.at
        finally:
            for hub in (here, there):
                hub.writer.stop()
                hub.storage.close()

    asyncio.run(main())
