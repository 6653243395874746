"""Keeping a process's tables in step, driven in-process on a shared SQLite file: what a
copy reloads from the database when it looks for changes made by other processes, and what it
takes from their notices without reading anything."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from campfire.server.cluster.bus import Bus
from campfire.server.tables.hub import TableSpec
from tests.server.hubs import Recording, counted_reads, started, stopped


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
            assert here.sync.outdated(looked, [table]) == []
            # a seat taken through another process: the stored version is ahead of this copy
            elsewhere = await there.get(table.id)
            await there.join(elsewhere, "Cy", 2)
            now = await asyncio.to_thread(here.storage.versions, [table.id])
            assert here.sync.outdated(now, [table]) == [table]
            await here.sync.refresh(table)
            assert table.version == elsewhere.version and here.sync.outdated(now, [table]) == []
            assert [s.name for s in table.seats] == ["Ana", "Ben", "Cy"]
        finally:
            stopped(here, there)

    asyncio.run(main())


def test_a_seat_taken_on_another_process_arrives_with_its_notice_and_needs_no_database_read(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        bus = Recording()
        here, there = started(tmp_path, Recording(), bus)
        reads = counted_reads(here)
        try:
            table = await here.create(TableSpec("powwow", 3, {}, {}))
            elsewhere = await there.get(table.id)
            await there.join(elsewhere, "Ana", 1)
            [(table_id, kind, data)] = bus.sent
            assert (table_id, kind) == (table.id, "joined")
            here.sync.notice(table_id, kind, data)
            await asyncio.gather(*here._tasks)
            assert reads == []
            assert table.seats[1].name == "Ana" and table.version == elsewhere.version
            assert here.sync.outdated(here.storage.versions([table.id]), [table]) == []
            # the same notice again (or one that does not follow this copy): nothing, or a read
            here.sync.notice(table_id, kind, data)
            await asyncio.gather(*here._tasks)
            assert reads == []
            await there.join(elsewhere, "Ben", 0)
            await there.join(elsewhere, "Cy", 2)  # fills the table: dealt, a "moves" notice
            assert [k for _, k, _ in bus.sent] == ["joined", "joined", "moves"]
            here.sync.notice(*bus.sent[2])
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
            here.sync.notice(*bus.sent[-1])
            await asyncio.gather(*here._tasks)
            joined_at = table.presence[1]
            assert not joined_at.online and joined_at.away_since is not None
            # Ana's page connects through the other process, then closes
            conn = await there.connect(elsewhere, 1)
            assert bus.sent[-1][1:] == ("presence", {"seat": 1, "online": True, "since": None})
            here.sync.notice(*bus.sent[-1])
            assert table.away_for(1) is None and looks == []
            await there.disconnect(elsewhere, conn)
            here.sync.notice(*bus.sent[-1])
            assert table.presence[1] == elsewhere.presence[1]
            assert not table.presence[1].online and looks == []
            # a notice without the presence (an older process): read from the bus
            here.sync.notice(table.id, "presence", None)
            await asyncio.gather(*here._tasks)
            assert looks == [table.id]
        finally:
            stopped(here, there)

    asyncio.run(main())


def test_a_resync_that_says_what_was_left_out_reads_only_what_this_copy_lacks(
    tmp_path: Path,
) -> None:
    """A process that kept a table to itself (nobody else listened) says, when one starts to,
    up to which version it changed the table and whether it stored chat: a copy read after
    those changes (a table made there, its seats then taken here) reads nothing again."""

    async def main() -> None:
        here, there = started(tmp_path, Recording(), Recording())
        reads = counted_reads(here)
        chats: list[str] = []
        chat_since = here.storage.chat_since

        def counted_chat(table_id: str, *args: Any) -> Any:
            chats.append(table_id)
            return chat_since(table_id, *args)

        here.storage.chat_since = counted_chat  # type: ignore[method-assign,assignment]
        try:
            elsewhere = await there.create(TableSpec("powwow", 3, {}, {}))
            await there.join(elsewhere, "Ana", 0)
            table = await here.get(elsewhere.id)  # read after Ana's seat was taken
            reads.clear()
            chats.clear()
            said = {"version": elsewhere.version, "chat": False}
            here.sync.notice(table.id, "resync", said)
            await asyncio.gather(*here._tasks)
            assert reads == [] and chats == [] and not table.behind
            # a change this copy has not seen: read, and the chat when the resync says so
            await there.join(elsewhere, "Ben", 1)
            said = {"version": elsewhere.version, "chat": True}
            here.sync.notice(table.id, "resync", said)
            await asyncio.gather(*here._tasks)
            assert len(reads) == 1 and chats == [table.id]
            assert [s.name for s in table.seats][:2] == ["Ana", "Ben"]
            assert table.version == elsewhere.version
            # a resync that says nothing (an older process, or a change without a version)
            # reads the table and its chat, as before
            here.sync.notice(table.id, "resync", None)
            await asyncio.gather(*here._tasks)
            assert len(reads) == 2 and chats == [table.id] * 2
        finally:
            stopped(here, there)

    asyncio.run(main())
