"""The hub of one process, driven in-process on a shared SQLite file: what it reloads from the
database when it looks for changes made by other processes."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from campfire.server.bus import Bus
from campfire.server.hub import Hub, TableSpec
from campfire.server.refusals import Refused
from campfire.server.storage import Storage


def started(tmp_path: Path, here_bus: Bus, there_bus: Bus) -> tuple[Hub, Hub]:
    """Two processes' hubs on one SQLite file, their writers running."""
    url = f"sqlite:///{tmp_path / 'hub.sqlite3'}"
    here, there = Hub(Storage(url), here_bus, seed=1), Hub(Storage(url), there_bus, seed=2)
    for hub in (here, there):
        hub.writer.start()
    return here, there


def stopped(*hubs: Hub) -> None:
    for hub in hubs:
        hub.writer.stop()
        hub.storage.close()


def test_a_look_taken_before_a_move_does_not_reload_the_table_and_a_change_elsewhere_does(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        here, there = started(tmp_path, Bus(), Bus())
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
            stopped(here, there)

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
    async def main() -> None:
        bus = Recording()
        here, there = started(tmp_path, Recording(), bus)
        reads: list[int] = []
        load_since = here.storage.load_since

        def counted(*args: Any) -> Any:
            reads.append(args[1])
            return load_since(*args)

        here.storage.load_since = counted  # type: ignore[method-assign,assignment]
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
            stopped(here, there)

    asyncio.run(main())


def test_presence_travels_with_its_notice_and_the_other_process_reads_nothing(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        bus = Recording()
        here, there = started(tmp_path, Recording(), bus)
        looks: list[str] = []
        read = here.bus.presence

        async def counted(table_id: str, seats: Any) -> Any:
            looks.append(table_id)
            return await read(table_id, seats)

        here.bus.presence = counted  # type: ignore[method-assign]
        try:
            table = await here.create(TableSpec("powwow", 3, {}, {}))
            elsewhere = await there.get(table.id)
            await there.join(elsewhere, "Ana", 1)
            here._notice(*bus.sent[-1])
            await asyncio.gather(*here._tasks)
            joined_at = table.presence[1]
            assert not joined_at.online and joined_at.away_since is not None
            # Ana's page connects through the other process, then closes
            conn = await there.connect(elsewhere, 1)
            assert bus.sent[-1][1:] == ("presence", {"seat": 1, "online": True, "since": None})
            here._notice(*bus.sent[-1])
            assert table.away_for(1) is None and looks == []
            await there.disconnect(elsewhere, conn)
            here._notice(*bus.sent[-1])
            assert table.presence[1] == elsewhere.presence[1]
            assert not table.presence[1].online and looks == []
            # a notice without the presence (an older process): read from the bus
            here._notice(table.id, "presence", None)
            await asyncio.gather(*here._tasks)
            assert looks == [table.id]
        finally:
            stopped(here, there)

    asyncio.run(main())


def test_a_join_on_a_copy_that_is_behind_reads_nothing_first_and_the_claim_makes_it_current(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        here, there = started(tmp_path, Recording(), Recording())
        reads: list[int] = []
        load_since = here.storage.load_since

        def counted(*args: Any) -> Any:
            reads.append(args[1])
            return load_since(*args)

        here.storage.load_since = counted  # type: ignore[method-assign,assignment]
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
