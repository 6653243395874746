"""What moves between processes: presence read for many tables in one look agrees with reading
each table alone, on Redis and in one process alike."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable

import orjson
import pytest
from prometheus_client import REGISTRY

from campfire.server.cluster import bus as bus_module
from campfire.server.cluster.bus import Bus, Presence, RedisBus


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
    """Each table's notices come in the order they were made, on that table's channel, and
    many notices travel in few messages (one per table per batch, not one per notice)."""

    async def main() -> None:
        namespace = f"test-{secrets.token_hex(6)}"
        sender, receiver = RedisBus(redis_url, namespace), RedisBus(redis_url, namespace)
        heard: list[tuple[str, str, object]] = []
        tables = [f"t{i}" for i in range(5)]
        await sender.start(lambda *_: None, list)
        await receiver.start(lambda t, k, d: heard.append((t, k, d)), list)
        for table_id in [*tables, "t9"]:  # the receiver holds sockets of these tables
            await receiver.serve(table_id, True)
        watcher = receiver.redis.pubsub(ignore_subscribe_messages=True)
        await watcher.subscribe(*(receiver.table_channel(table_id) for table_id in tables))
        try:
            # fifty moves made at once on one process, as its tables' sockets send them
            await asyncio.gather(
                *(sender.publish(f"t{i % 5}", "moves", {"start": i}) for i in range(50))
            )
            # and one notice as a process of the earlier, one-notice-a-message kind sends it
            old = {"t": "t9", "k": "seats", "p": "elsewhere", "d": None}
            await sender.redis.publish(sender.table_channel("t9"), orjson.dumps(old))
            for _ in range(500):
                if len(heard) >= 51:
                    break
                await asyncio.sleep(0.01)
            messages = 0
            while await watcher.get_message(timeout=0.2) is not None:
                messages += 1
            for table_id in tables:
                starts = [d for t, k, d in heard if t == table_id and k == "moves"]
                expected = [{"start": i} for i in range(50) if f"t{i % 5}" == table_id]
                assert starts == expected, table_id
            assert ("t9", "seats", None) in heard
            assert len(heard) == 51
            assert messages < 50  # the fifty travelled together, not one message each
        finally:
            await watcher.aclose()
            await sender.stop()
            await receiver.stop()

    asyncio.run(main())


@pytest.mark.parametrize("kind", ["local", "redis"])
def test_a_presence_change_gives_the_seats_presence_as_every_process_sees_it(
    kind: str, redis_url: str
) -> None:
    async def main() -> None:
        namespace = f"test-{secrets.token_hex(6)}"
        bus = RedisBus(redis_url, namespace) if kind == "redis" else Bus()
        await bus.start(lambda *_: None, list)
        try:
            came = await bus.present("t1", 0, True)
            assert came == Presence(True, None) == (await bus.presence("t1", [0]))[0]
            went = await bus.present("t1", 0, False)
            assert not went.online and went.away_since is not None
            assert went == (await bus.presence("t1", [0]))[0]
            # someone new takes the seat: their away clock starts now, not at the last one's
            await asyncio.sleep(0.05)
            seated = await bus.present("t1", 0, False, seated=True)
            assert seated.away_since is not None and seated.away_since > went.away_since
            if isinstance(bus, RedisBus):
                # the seat is connected through another process too: still online after this
                # process's last connection for it closed
                other = RedisBus(redis_url, namespace)
                await other.start(lambda *_: None, list)
                try:
                    await other.present("t1", 1, True)
                    await bus.present("t1", 1, True)
                    assert await bus.present("t1", 1, False) == Presence(True, None)
                    assert (await bus.presence("t1", [1]))[1] == Presence(True, None)
                finally:
                    await other.stop()
        finally:
            await bus.stop()

    asyncio.run(main())


def test_what_a_presence_notice_carries_reads_back_and_a_malformed_one_is_refused() -> None:
    away = Presence(False, 1234.5)
    assert Presence.from_carried(orjson.loads(orjson.dumps(away.carried(2)))) == (2, away)
    assert Presence.from_carried(Presence(True, None).carried(0)) == (0, Presence(True, None))
    bad: object
    for bad in (
        None,
        [],
        {"seat": "1", "online": True},
        {"seat": 1, "online": 1},
        {"seat": 1, "online": False, "since": "yesterday"},
    ):
        assert Presence.from_carried(bad) is None


def test_one_process_owns_a_table_until_it_lets_go_and_a_lost_lease_is_told(
    redis_url: str,
) -> None:
    """The owner lease: the first process to ask owns the table, the other is told who does;
    letting go lets the other take it; a lease taken away (it ran out) is noticed at the next
    renewal and told to the process, which no longer counts itself the owner."""

    async def main() -> None:
        namespace = f"test-{secrets.token_hex(6)}"
        a, b = RedisBus(redis_url, namespace), RedisBus(redis_url, namespace)
        lost: list[str] = []
        a.on_lost = lost.append
        await a.start(lambda *_: None, list)
        await b.start(lambda *_: None, list)
        try:
            assert await a.own("t1") == a.process
            assert await b.own("t1") == a.process  # taken: b is told the owner
            assert a.owns("t1") and not b.owns("t1")
            await a.disown("t1")
            assert not a.owns("t1")
            assert await b.own("t1") == b.process
            assert await a.own("t1") == b.process
            await b.disown_all()
            assert await a.own("t2") == a.process
            # the lease runs out (deleted here) and another process takes it meanwhile
            await a.redis.delete(a._owner_key("t2"))
            assert await b.own("t2") == b.process
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 10  # the next renewal, every third of a lease
            while not lost:
                assert loop.time() < deadline, "the lost lease was not noticed"
                await asyncio.sleep(0.05)
            assert lost == ["t2"] and not a.owns("t2") and b.owns("t2")
        finally:
            await a.stop()
            await b.stop()

    asyncio.run(main())


def test_one_process_leads_a_duty_until_it_resigns_or_its_lease_runs_out(redis_url: str) -> None:
    """A deployment-wide duty (a sweep of the database): the first process to ask leads it and
    keeps it while it asks again; the other leads once the first resigns or stops asking (its
    lease runs out). One process alone always leads."""

    async def main() -> None:
        assert await Bus().lead("clock", 1.0)
        namespace = f"test-{secrets.token_hex(6)}"
        a, b = RedisBus(redis_url, namespace), RedisBus(redis_url, namespace)
        try:
            assert await a.lead("clock", 30.0) and await a.lead("clock", 30.0)
            assert not await b.lead("clock", 30.0)
            assert await b.lead("stalled", 30.0)  # duties are apart
            await a.resign()
            assert await b.lead("clock", 30.0) and not await a.lead("clock", 30.0)
            # b stops asking (it died): a leads once b's lease ran out, and not before
            assert await b.lead("clock", 0.3)
            assert not await a.lead("clock", 30.0)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 10
            while not await a.lead("clock", 30.0):
                assert loop.time() < deadline, "the lapsed lease was not taken"
                await asyncio.sleep(0.05)
            assert not await b.lead("clock", 30.0)
            # a process that goes away lets its duties go with its tables
            await a.disown_all()
            assert await b.lead("clock", 30.0)
        finally:
            await a.redis.aclose()
            await b.redis.aclose()

    asyncio.run(main())


def test_a_question_to_the_owner_is_answered_on_the_askers_channel(redis_url: str) -> None:
    """An act forwarded to the owner comes back answered, paired by its id; a process that
    does not answer (gone) leaves the asker with None after its timeout."""
    from campfire.server.protocol import ActAnswered, ActAsked, Question

    async def main() -> None:
        namespace = f"test-{secrets.token_hex(6)}"
        owner, asker = RedisBus(redis_url, namespace), RedisBus(redis_url, namespace)
        asked: list[Question] = []

        async def answer(question: Question) -> ActAnswered:
            asked.append(question)
            return ActAnswered(
                id=question["id"], status=409, at=7, reason="no", key="no", args={}, moved=False
            )

        owner.on_ask = answer
        await owner.start(lambda *_: None, list)
        await asker.start(lambda *_: None, list)
        try:
            question = ActAsked(id="q1", table="t1", seat=2, action={"action": "pass"}, at=6)
            got = await asker.ask(owner.process, question, 10)
            assert asked == [question]
            assert got is not None and (got["id"], got["status"], got["at"]) == ("q1", 409, 7)
            gone = await asker.ask("nobody:1:abc", ActAsked(**{**question, "id": "q2"}), 0.3)
            assert gone is None
        finally:
            await owner.stop()
            await asker.stop()

    asyncio.run(main())


class Listener:
    """The notices a receiving process heard, and a way to wait for one."""

    def __init__(self) -> None:
        self.heard: list[tuple[str, str, object]] = []
        self.arrived = asyncio.Event()

    def __call__(self, table_id: str, kind: str, data: object) -> None:
        self.heard.append((table_id, kind, data))
        self.arrived.set()

    async def until(self, expected: tuple[str, str, object]) -> None:
        async with asyncio.timeout(10):
            while expected not in self.heard:
                self.arrived.clear()
                await self.arrived.wait()


async def started_pair(redis_url: str) -> tuple[RedisBus, RedisBus, Listener]:
    """A sending and a receiving process on one namespace, both started."""
    namespace = f"test-{secrets.token_hex(6)}"
    sender, receiver = RedisBus(redis_url, namespace), RedisBus(redis_url, namespace)
    listener = Listener()
    await sender.start(lambda *_: None, list)
    await receiver.start(listener, list)
    return sender, receiver, listener


def before_first_answer(bus: RedisBus, meanwhile: Callable[[], Awaitable[None]]) -> None:
    """Hold the answer of `bus`'s first publish (Redis has counted its receivers) until
    `meanwhile` has run: what happens between a publish and the reading of its count."""
    real_pipeline = bus.redis.pipeline
    once = [True]

    def pipeline(*args: object, **kwargs: object) -> object:
        pipe = real_pipeline(*args, **kwargs)
        real_execute = pipe.execute

        async def execute(*eargs: object, **ekwargs: object) -> object:
            out = await real_execute(*eargs, **ekwargs)
            if once:
                once.clear()
                await meanwhile()
            return out

        pipe.execute = execute
        return pipe

    bus.redis.pipeline = pipeline


def heard_listening(bus: RedisBus) -> asyncio.Event:
    """Set once `bus` has taken in another process's `Listening` (what it does with it done)."""
    listened = asyncio.Event()
    real_heard_by = bus._heard_by

    def heard_by(tables: object) -> None:
        real_heard_by(tables)
        listened.set()

    bus._heard_by = heard_by  # type: ignore[method-assign]
    return listened


def test_a_table_nobody_else_hears_is_quiet_until_a_process_listens(redis_url: str) -> None:
    """A notice that no other process heard makes its table quiet: the next ones are not sent
    at all (a process whose tables' sockets are all its own publishes nothing). A process that
    starts hearing the table says so, and gets a RESYNC for what it missed, then every notice;
    a process's own subscription to the table does not count as someone hearing it."""

    def unheard() -> float:
        return REGISTRY.get_sample_value("campfire_notices_unheard_total") or 0.0

    async def main() -> None:
        sender, receiver, listener = await started_pair(redis_url)
        until_heard = listener.until

        async def until_quiet(table_id: str) -> int:
            """Publish until a notice is left out; gives how many were sent before."""
            async with asyncio.timeout(10):
                for sent in range(1000):
                    before = unheard()
                    await sender.publish(table_id, "moves", {"start": sent})
                    if unheard() == before + 1:
                        return sent
                    await asyncio.sleep(0.01)  # the sender's own subscription settling
            raise AssertionError("never quiet")

        try:
            # nobody else hears t1: the first notice goes out, the next is left out
            assert await until_quiet("t1") == 1
            await receiver.serve("t1", True)
            await until_heard(("t1", "resync", None))
            await sender.publish("t1", "moves", {"start": 5})
            await until_heard(("t1", "moves", {"start": 5}))
            assert not [n for n in listener.heard if n[1] == "moves" and n[2] != {"start": 5}]
            # the sender holds sockets of t2 itself: still quiet while nobody else listens
            await sender.serve("t2", True)
            await until_quiet("t2")
            await receiver.serve("t2", True)
            await until_heard(("t2", "resync", None))
            await sender.publish("t2", "chat")
            await until_heard(("t2", "chat", None))
        finally:
            await sender.stop()
            await receiver.stop()

    asyncio.run(main())


def test_more_commands_at_once_than_connections_wait_for_one(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A busy process may have more Redis commands out than its pool has connections (at
    saturation, moves were refused with "Too many connections"): they wait for a connection
    and every one is answered."""
    monkeypatch.setattr(bus_module, "REDIS_CONNECTIONS", 2)

    async def main() -> None:
        bus = RedisBus(redis_url, f"test-{secrets.token_hex(6)}")
        await bus.start(lambda *_: None, list)  # its listener holds one of the two
        try:
            tables = [f"t{i}" for i in range(40)]
            holders = await asyncio.gather(*(bus.own(t) for t in tables))
            assert holders == [bus.process] * len(tables)
            assert all(bus.owns(t) for t in tables)
        finally:
            await bus.stop()

    asyncio.run(main())


def test_a_process_that_listens_while_a_notice_is_out_is_not_left_out(redis_url: str) -> None:
    """The race of quiet tables: Redis counts nobody hearing a notice, then a process starts
    hearing the table and says so before the sender has read that count. The sender must not
    go quiet on that count (it would never tell the newcomer anything again)."""

    async def main() -> None:
        sender, receiver, listener = await started_pair(redis_url)
        listened = heard_listening(sender)

        async def receiver_listens() -> None:  # after Redis counted nobody
            await receiver.serve("t1", True)
            async with asyncio.timeout(10):  # its Listening reached the sender
                await listened.wait()

        before_first_answer(sender, receiver_listens)
        try:
            await sender.publish("t1", "moves", {"start": 0})
            await sender.publish("t1", "moves", {"start": 1})
            await listener.until(("t1", "moves", {"start": 1}))
        finally:
            await sender.stop()
            await receiver.stop()

    asyncio.run(main())


def test_a_sender_whose_own_subscription_is_taken_while_its_notice_is_out_is_not_quiet(
    redis_url: str,
) -> None:
    """The other race of quiet tables: Redis counts one receiver of a notice (another
    process), then takes the sender's own subscription to the table, and the sender reads that
    confirmation before the count. The one receiver was not the sender itself: the sender must
    not go quiet on that count (the other process heard nothing more of the table, its chat
    read only when it said something itself)."""

    async def main() -> None:
        sender, receiver, listener = await started_pair(redis_url)
        listened, confirmed = heard_listening(sender), asyncio.Event()
        real_subscription = sender._subscription

        def subscription(kind: str, raw: object) -> None:
            real_subscription(kind, raw)
            if "t1" in sender._confirmed:
                confirmed.set()

        sender._subscription = subscription  # type: ignore[method-assign]

        async def sender_listens() -> None:  # after Redis counted the receiver
            await sender.serve("t1", True)  # a socket of t1 opened on the sender
            async with asyncio.timeout(10):
                await confirmed.wait()

        try:
            await receiver.serve("t1", True)
            async with asyncio.timeout(10):  # the sender knows the receiver listens
                await listened.wait()
            before_first_answer(sender, sender_listens)
            await sender.publish("t1", "chat")
            await listener.until(("t1", "chat", None))
            await sender.publish("t1", "moves", {"start": 1})
            await listener.until(("t1", "moves", {"start": 1}))
        finally:
            await sender.stop()
            await receiver.stop()

    asyncio.run(main())


def test_a_resync_says_what_the_quiet_table_left_out(redis_url: str) -> None:
    """The RESYNC a quiet table's sender owes a new listener says the highest table version
    among the notices nobody heard (the one that found no listener as well as those not sent)
    and whether chat was among them; a notice without a version makes it say nothing."""

    async def main() -> None:
        sender, receiver, listener = await started_pair(redis_url)

        async def quiet(table_id: str, first: dict[str, object]) -> None:
            async with asyncio.timeout(10):
                while table_id not in sender._quiet:
                    await sender.publish(table_id, "joined", first)
                    await asyncio.sleep(0.01)

        try:
            await quiet("t1", {"version": 4})
            await sender.publish("t1", "joined", {"version": 3})  # not sent: left out
            await sender.publish("t1", "presence", {"seat": 0, "online": True, "since": None})
            await receiver.serve("t1", True)
            await listener.until(("t1", "resync", {"version": 4, "chat": False}))
            await quiet("t2", {"version": 2})
            await sender.publish("t2", "chat")
            await sender.publish("t2", "moves", {"start": 3, "version": 6})
            await receiver.serve("t2", True)
            await listener.until(("t2", "resync", {"version": 6, "chat": True}))
            await quiet("t3", {"version": 2})
            await sender.publish("t3", "seats")  # says no version: anything may be missing
            await sender.publish("t3", "joined", {"version": 9})
            await receiver.serve("t3", True)
            await listener.until(("t3", "resync", None))
        finally:
            await sender.stop()
            await receiver.stop()

    asyncio.run(main())


def test_presence_changes_made_at_once_go_in_one_round_trip_each_with_its_own_answer(
    redis_url: str,
) -> None:
    """The four seats of a table connect, or leave at a game's end, at about the same moment:
    their scripts travel together, a script that fails fails its own change only, and a
    script Redis does not have yet is loaded on the way."""

    async def main() -> None:
        bus = RedisBus(redis_url, f"test-{secrets.token_hex(6)}")
        await bus.start(lambda *_: None, list)
        trips: list[int] = []
        evalshas = bus._evalshas

        async def counted(calls: list[bus_module.ScriptCall]) -> list[object]:
            trips.append(len(calls))
            return await evalshas(calls)

        bus._evalshas = counted  # type: ignore[method-assign]
        try:
            # a table whose presence key holds something else: its script fails in Redis
            await bus.redis.set(bus._presence_key("broken"), "not a hash")
            changes = [("t1", seat, True) for seat in range(4)] + [("broken", 0, True)]
            changes += [("t2", 0, False)]
            answers = await asyncio.gather(
                *(bus.present(table_id, seat, online) for table_id, seat, online in changes)
            )
            assert sum(trips) == len(changes) and len(trips) < len(changes)
            for (table_id, seat, _), answer in zip(changes, answers, strict=True):
                if table_id != "broken":
                    assert answer == (await bus.presence(table_id, [seat]))[seat]
            assert answers[:4] == [Presence(True, None)] * 4
            assert answers[4] == Presence(True, None)  # this process's own connection counts
            assert not answers[5].online and answers[5].away_since is not None

            # a script this Redis never saw: loaded, then run, in the calls' order
            trips.clear()
            key = bus._presence_key(f"fresh-{secrets.token_hex(4)}")
            fresh = bus.redis.register_script(
                f"-- {secrets.token_hex(8)}\nreturn ARGV[1] .. redis.call('incr', KEYS[1])"
            )
            assert await bus._scripts([(fresh, [key], ["a"]), (fresh, [key], ["b"])]) == [
                b"a1",
                b"b2",
            ]
            assert trips == [2, 2]
            await bus.redis.delete(key)
        finally:
            await bus.redis.delete(bus._presence_key("broken"))
            await bus.stop()

    asyncio.run(main())
