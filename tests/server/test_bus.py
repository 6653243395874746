"""What moves between processes: presence read for many tables in one look agrees with reading
each table alone, on Redis and in one process alike."""

from __future__ import annotations

import asyncio
import secrets

import orjson
import pytest

from campfire.server.bus import Bus, Presence, RedisBus


def bus_of(kind: str, redis_url: str) -> Bus:
    return RedisBus(redis_url, f"test-{secrets.token_hex(6)}") if kind == "redis" else Bus()


@pytest.mark.parametrize("kind", ["local", "redis"])
def test_presence_of_many_tables_at_once_is_each_tables_presence(kind: str, redis_url: str) -> None:
    async def main() -> None:
        bus = bus_of(kind, redis_url)
        await bus.start(lambda *_: None, list)
        try:
            await bus.present("t1", 0, True)
            await bus.present("t2", 1, True)
            await bus.present("t2", 1, False)  # came and went
            wanted = [("t1", [0, 1]), ("t2", [0, 1]), ("t3", [2])]
            at_once = await bus.presence_at(wanted)
            one_by_one = [await bus.presence(table_id, seats) for table_id, seats in wanted]
            assert at_once == one_by_one
            assert at_once[0][0] == Presence(True, None)
            assert not at_once[0][1].online
            gone = at_once[1][1]
            assert not gone.online and gone.away_since is not None
            assert at_once[2] == {2: Presence(False, None)}
        finally:
            await bus.stop()

    asyncio.run(main())


def test_notices_reach_the_other_process_in_order_many_to_a_message(redis_url: str) -> None:
    async def main() -> None:
        namespace = f"test-{secrets.token_hex(6)}"
        sender, receiver = RedisBus(redis_url, namespace), RedisBus(redis_url, namespace)
        heard: list[tuple[str, str, object]] = []
        await sender.start(lambda *_: None, list)
        await receiver.start(lambda t, k, d: heard.append((t, k, d)), list)
        watcher = receiver.redis.pubsub(ignore_subscribe_messages=True)
        await watcher.subscribe(receiver.channel)
        try:
            # fifty moves made at once on one process, as its tables' sockets send them
            await asyncio.gather(
                *(sender.publish(f"t{i % 5}", "moves", {"start": i}) for i in range(50))
            )
            # and one notice as a process of the earlier, one-notice-a-message kind sends it
            old = {"t": "t9", "k": "seats", "p": "elsewhere", "d": None}
            await sender.redis.publish(sender.channel, orjson.dumps(old))
            for _ in range(500):
                if len(heard) >= 51:
                    break
                await asyncio.sleep(0.01)
            messages = 0
            while await watcher.get_message(timeout=0.2) is not None:
                messages += 1
            assert heard[:50] == [(f"t{i % 5}", "moves", {"start": i}) for i in range(50)]
            assert heard[50] == ("t9", "seats", None)
            assert messages < 51  # the fifty travelled together, not one message each
        finally:
            await watcher.aclose()
            await sender.stop()
            await receiver.stop()

    asyncio.run(main())
