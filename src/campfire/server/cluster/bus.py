"""What moves between server processes: change notices, table ownership, acts forwarded to a
table's owner, presence, counters.

The database is the record of truth; the bus only says *that* a table changed, and each process
catches up from the database by record index, so a lost notice delays an update but never
reorders or loses one (every process also compares versions every few seconds).

`LocalBus` is the embedded default: one process, nothing to run. `RedisBus` serves any number of
processes on one database: a pub/sub channel per table for its notices, which a process
subscribes to only while it holds sockets of that table (so a process reads no
notice of a table it does not serve, however many tables the others play); an owner lease per
live table (`SET NX PX`, renewed every third of its life while the process holds the table):
only the owner applies the table's moves, drives its bots and plays its clock, and another
process takes the lease when it runs out; a channel per process, on which the owner is asked
to apply an act that reached another process and answers; a hash per table for who is
connected where, and sorted sets for per-address rate limits.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import logging
import os
import secrets
import socket
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, cast

import orjson

from campfire.server.batch import Batcher, Each
from campfire.server.metrics import (
    NOTICES_PUBLISHED,
    NOTICES_RECEIVED,
    NOTICES_UNHEARD,
    NOTICES_UNSERVED,
)
from campfire.server.protocol import (
    EVERY_TABLE,
    NOTHING_LEFT_OUT,
    ActAnswered,
    Answered,
    Asked,
    Carried,
    Envelope,
    LeftOut,
    Listening,
    NoticeKind,
    PresenceCarried,
    Question,
    left_out,
)

log = logging.getLogger("campfire.server")

#: seconds a table's owner lease lasts unless its process renews it (every third of that):
#: how long a table whose owner died waits before another process takes it
OWNER_SECONDS = 6.0
#: connections to Redis a process keeps at most (commands beyond wait for one), and the
#: seconds a command waits for a connection before it fails
REDIS_CONNECTIONS = 64
REDIS_WAIT = 10.0
#: the most leases one script renews, or tables' presence one heartbeat script refreshes: each
#: call keeps Redis busy for a moment, so thousands of tables go in several calls of a pipeline
PER_SCRIPT = 500
#: the most tables a process remembers as heard by nobody else (then it forgets them all and
#: publishes until it learns again: a bound on memory, not on correctness)
QUIET_TABLES = 100_000
#: seconds between a process's presence heartbeats, and how long one counts
HEARTBEAT_SECONDS = 4.0
PRESENCE_SECONDS = 12.0


@dataclass(frozen=True)
class _PresenceChange:
    """A seat's connection came (`online`) or went at `at` (wall-clock seconds); `seated`:
    the seat was just taken, so its player is away from then on until their page connects."""

    table_id: str
    seat: int
    online: bool
    seated: bool
    at: float


#: a script, its keys and its arguments, for `RedisBus._scripts`
ScriptCall = tuple[Any, list[str], list[Any]]

#: notice(table_id, kind, data): data is what the notice carries, or None
Notice = Callable[[str, str, "dict[str, Any] | None"], None]
#: what the owner does with an act another process forwards to it: the answer to send back
Answerer = Callable[[Question], Awaitable[ActAnswered]]
#: told when this process lost a table's owner lease it thought it held
Lost = Callable[[str], None]


@dataclass(frozen=True)
class Presence:
    """Whether a seat's player has a connection anywhere, and since when they are away."""

    online: bool
    away_since: float | None  # wall-clock seconds; None when unknown

    def carried(self, seat: int) -> PresenceCarried:
        """What a notice carries of it, so the other processes need not read it again."""
        return PresenceCarried(seat=seat, online=self.online, since=self.away_since)

    @staticmethod
    def from_carried(data: Any) -> tuple[int, Presence] | None:
        """The seat and its presence a notice carried; None for a notice without (an older
        process's) or one that is malformed: the receiver reads the presence itself."""
        if not isinstance(data, dict):
            return None
        seat, online, since = data.get("seat"), data.get("online"), data.get("since")
        if not isinstance(seat, int) or not isinstance(online, bool):
            return None
        if since is not None and not isinstance(since, (int, float)):
            return None
        return seat, Presence(online, None if since is None else float(since))


def process_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class Bus:
    """One process on its own: notices go nowhere, every lease is granted."""

    shared = False

    def __init__(self) -> None:
        self.process = process_name()
        self._presence: dict[tuple[str, int], float | None] = {}
        self._hits: dict[str, deque[float]] = {}

    async def start(self, notice: Notice, present: Callable[[], Iterable[tuple[str, int]]]) -> None:
        """Begin delivering other processes' notices to `notice(table_id, kind)`; `present`
        lists the (table, seat) pairs this process has connections for."""

    async def stop(self) -> None:
        pass

    async def publish(self, table_id: str, kind: str, data: Carried | None = None) -> None:
        pass

    def heard(self, table_id: str) -> bool:
        """Whether another process may hear the table's next notice (one process: never)."""
        return False

    # --- which tables' notices this process hears ---------------------------------------------
    async def serve(self, table_id: str, serving: bool) -> None:
        """This process holds sockets of the table (True), or its last one closed (False)."""

    def serves(self, table_id: str) -> bool:
        """Whether this process hears the table's notices (one process hears everything)."""
        return True

    # --- table ownership ---------------------------------------------------------------------
    #: what this process answers when another forwards it an act (set before `start`)
    on_ask: Answerer | None = None
    #: told when a lease this process held ran out or was taken (set before `start`)
    on_lost: Lost | None = None

    def owns(self, table_id: str) -> bool:
        """Whether this process holds the table's owner lease (one process owns everything)."""
        return True

    async def own(self, table_id: str) -> str | None:
        """Take the table's owner lease when nobody holds it (or renew it when this process
        does); gives the process that holds it now (None: the bus could not say)."""
        return self.process

    async def lead(self, duty: str, seconds: float) -> bool:
        """Take (or renew) the lease of a deployment-wide `duty` for `seconds`: whether this
        process is the one that does it now (one process: always). A sweep of the database
        that any process could make is made by one, and by another within `seconds` of its
        leader's death."""
        return True

    async def resign(self) -> None:
        """Let every duty this process leads go (it is going away): another process leads at
        its next sweep, not after the lease runs out."""

    async def disown(self, table_id: str) -> None:
        """Let the table's owner lease go (hand-over, the game ended, the table left memory)."""

    def give_up(self, table_id: str) -> None:
        """`disown` from code that cannot wait: this process stops counting itself the owner
        at once, the lease goes a moment later."""

    async def disown_all(self) -> list[str]:
        """Let every owner lease go; gives the tables this process owned."""
        return []

    async def disown_many(self, table_ids: Iterable[str]) -> list[str]:
        """Let these tables' owner leases go, in one round trip; gives those it held."""
        return []

    async def ask(self, owner: str, question: Question, timeout: float) -> ActAnswered | None:
        """Ask the owning process to apply an act (or make a seat change); its answer, or
        None when it did not answer within `timeout` seconds (it may have died)."""
        return None

    # --- presence --------------------------------------------------------------------------
    async def present(
        self, table_id: str, seat: int, online: bool, *, seated: bool = False
    ) -> Presence:
        """This process's first connection for the seat opened (True) or its last closed;
        gives the seat's presence after the change, every process counted, so that the
        notice telling the others can carry it. `seated`: someone new just took the seat,
        and their away clock starts now, whatever the seat's last player left behind."""
        self._presence[(table_id, seat)] = None if online else time.time()
        return (await self.presence(table_id, [seat]))[seat]

    async def presence(self, table_id: str, seats: Iterable[int]) -> dict[int, Presence]:
        out = {}
        for seat in seats:
            known = (table_id, seat) in self._presence
            since = self._presence.get((table_id, seat))
            out[seat] = Presence(known and since is None, since)
        return out

    async def presence_at(self, wanted: list[tuple[str, list[int]]]) -> list[dict[int, Presence]]:
        """`presence` for many tables at once: (table id, seats) each, answers in that order."""
        return [await self.presence(table_id, seats) for table_id, seats in wanted]

    # --- shared counters -------------------------------------------------------------------
    async def hit(self, key: str, limit: int, window: float) -> float | None:
        """Count one event for `key` unless `limit` happened in the last `window` seconds;
        None when counted, else the seconds until the oldest one leaves the window."""
        now = time.monotonic()
        if len(self._hits) > 10_000:  # forget the keys that have gone quiet
            self._hits = {k: q for k, q in self._hits.items() if q and now - q[-1] < window}
        recent = self._hits.setdefault(key, deque())
        while recent and now - recent[0] >= window:
            recent.popleft()
        if len(recent) >= limit:
            return window - (now - recent[0])
        recent.append(now)
        return None


_RENEW = """
local renewed = {}
for i, key in ipairs(KEYS) do
    if redis.call('get', key) == ARGV[1] then
        renewed[i] = redis.call('pexpire', key, ARGV[2])
    else
        renewed[i] = 0
    end
end
return renewed
"""
_HEARTBEAT = """
for i, key in ipairs(KEYS) do
    for seat in string.gmatch(ARGV[i + 2], '[^,]+') do
        redis.call('hset', key, seat .. '@' .. ARGV[2], ARGV[1])
    end
end
return #KEYS
"""
_OWN = """
local holder = redis.call('get', KEYS[1])
if holder == ARGV[1] then
    redis.call('pexpire', KEYS[1], ARGV[2])
    return holder
end
if not holder then
    redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
    return ARGV[1]
end
return holder
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
end
return 0
"""
_PRESENT = """
if ARGV[2] == '1' then
    redis.call('hset', KEYS[1], ARGV[1], ARGV[3])
    redis.call('hdel', KEYS[1], ARGV[5])
else
    redis.call('hdel', KEYS[1], ARGV[1])
    local fields = redis.call('hgetall', KEYS[1])
    local fresh = false
    for i = 1, #fields, 2 do
        if string.sub(fields[i], 1, #ARGV[7]) == ARGV[7]
            and tonumber(fields[i + 1]) > tonumber(ARGV[4]) then
            fresh = true
        end
    end
    if ARGV[8] == '1' then
        redis.call('hset', KEYS[1], ARGV[5], ARGV[4])
    elseif not fresh then
        redis.call('hsetnx', KEYS[1], ARGV[5], ARGV[4])
    end
end
redis.call('expire', KEYS[1], ARGV[6])
return redis.call('hgetall', KEYS[1])
"""
_HIT = """
redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1] - ARGV[2])
local count = redis.call('zcard', KEYS[1])
if count >= tonumber(ARGV[3]) then
    local oldest = redis.call('zrange', KEYS[1], 0, 0, 'WITHSCORES')
    return tostring(oldest[2])
end
redis.call('zadd', KEYS[1], ARGV[1], ARGV[4])
redis.call('pexpire', KEYS[1], math.ceil(ARGV[2] * 1000))
return false
"""


class RedisBus(Bus):
    """Processes on one database, joined through one Redis server."""

    shared = True

    def __init__(self, url: str, namespace: str) -> None:
        super().__init__()
        import redis.asyncio as aioredis

        self.url = url
        # a busy process may have more commands out at once than the pool has connections
        # (redis-py's default pool then fails the command: "Too many connections", which
        # refused moves at saturation): those wait for a connection instead
        pool = aioredis.BlockingConnectionPool.from_url(
            url,
            max_connections=REDIS_CONNECTIONS,
            timeout=REDIS_WAIT,
            socket_connect_timeout=5,
            health_check_interval=10,
        )
        self.redis: Any = aioredis.Redis.from_pool(pool)
        self.ns = f"campfire:{namespace}:"
        #: this process's own channel: always subscribed (a pub/sub connection needs one)
        self.channel = f"{self.ns}process:{self.process}"
        #: the tables this process holds sockets of, whose channels it wants, and has asked
        #: Redis for (its answer comes later: `_confirmed`)
        self.served: set[str] = set()
        self._subscribed: set[str] = set()
        #: when this process last asked to (un)subscribe each table, numbered: a publish
        #: whose count came back after a new ask says nothing about who heard it
        self._asks = itertools.count()
        self._asked_at: dict[str, int] = {}
        self._pubsub: Any = None
        self._subscribing = asyncio.Lock()
        self._tasks: list[asyncio.Task[None]] = []
        self._notice: Notice | None = None
        self._present: Callable[[], Iterable[tuple[str, int]]] = list
        self._renew = self.redis.register_script(_RENEW)
        self._heartbeat_script = self.redis.register_script(_HEARTBEAT)
        #: the channel every process hears, on which a process says which tables it now hears
        self.listening_channel = f"{self.ns}listening"
        #: the tables whose channel Redis confirmed this process is subscribed to
        self._confirmed: set[str] = set()
        #: the tables whose last notice nobody else heard: their notices are not sent until
        #: a process says it listens (`Listening`); each with what it left out meanwhile
        #: (None: something that says no version), which its RESYNC then carries
        self._quiet: dict[str, LeftOut | None] = {}
        #: how many `Listening` messages this process has taken in: a publish whose answer
        #: comes back after one arrived says nothing about who hears now
        self._listenings = 0
        self._own = self.redis.register_script(_OWN)
        #: the tables whose owner lease this process holds (renewed by `_keep_owning`)
        self.owned: set[str] = set()
        #: the deployment-wide duties this process leads (`lead`)
        self.leading: set[str] = set()
        #: the questions this process asked an owner and awaits the answer of, by id
        self._asked: dict[str, asyncio.Future[ActAnswered]] = {}
        self._answering: set[asyncio.Task[None]] = set()
        self._release = self.redis.register_script(_RELEASE)
        self._hit = self.redis.register_script(_HIT)
        self._present_script = self.redis.register_script(_PRESENT)
        self._presence_changes: Each[_PresenceChange, Any] = Each(self._change_presence)
        self._outbox: Batcher[tuple[str, str, Carried | None], None] = Batcher(self._send)

    async def start(self, notice: Notice, present: Callable[[], Iterable[tuple[str, int]]]) -> None:
        self._notice, self._present = notice, present
        try:
            await self.redis.ping()
        except Exception as error:
            raise RuntimeError(f"cannot reach Redis at {self.url}: {error}") from None
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        self._tasks = [
            loop.create_task(self._listen(ready)),
            loop.create_task(self._heartbeat()),
            loop.create_task(self._keep_owning()),
        ]
        await ready

    async def stop(self) -> None:
        await self._outbox.flush(2.0)  # the last notices still go out
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def _listen(self, ready: asyncio.Future[None]) -> None:
        """Deliver notices; after a lost connection, say every table may have changed."""
        first = True
        while True:
            try:
                pubsub = self.redis.pubsub()
                async with self._subscribing:
                    wanted = sorted(self.served)
                    self._confirmed.clear()
                    self._quiet.clear()  # what others hear may have changed meanwhile
                    self._asked_at.clear()
                    for table_id in wanted:
                        self._asked_at[table_id] = next(self._asks)
                    self._pubsub, self._subscribed = pubsub, set(wanted)
                    await pubsub.subscribe(
                        self.channel, self.listening_channel, *map(self.table_channel, wanted)
                    )
                if first:
                    ready.set_result(None)
                else:
                    assert self._notice is not None
                    self._notice(EVERY_TABLE, NoticeKind.RESYNC, None)
                first = False
                async for message in pubsub.listen():
                    kind = message.get("type")
                    if kind in ("subscribe", "unsubscribe"):
                        self._subscription(kind, message.get("channel"))
                        continue
                    if kind != "message":
                        continue
                    try:
                        data = orjson.loads(message["data"])
                        if data["p"] == self.process or self._notice is None:
                            continue
                        if "q" in data or "a" in data:  # on this process's own channel
                            NOTICES_RECEIVED.inc()
                            self._asked_or_answered(data)
                            continue
                        if "listening" in data:
                            self._heard_by(data["listening"])
                            continue
                        # a batch of notices, or one (as an older process sends it)
                        batch = data.get("n") or [[data["t"], data["k"], data.get("d")]]
                        NOTICES_RECEIVED.inc(len(batch))
                        for table_id, kind, carried in batch:
                            if table_id not in self.served:  # just left, or never held
                                NOTICES_UNSERVED.inc()
                            self._notice(str(table_id), str(kind), carried)
                    except (ValueError, KeyError, TypeError):
                        log.warning("ignored a malformed notice on %s", message.get("channel"))
            except asyncio.CancelledError:
                raise
            except Exception as error:
                self._pubsub = None
                self._confirmed.clear()
                if not ready.done():
                    ready.set_exception(RuntimeError(f"cannot listen on Redis: {error}"))
                    return
                log.warning("lost the Redis connection (%s); retrying", error)
                await asyncio.sleep(0.5)

    async def publish(self, table_id: str, kind: str, data: Carried | None = None) -> None:
        """Send a notice; returns once it is on its way. Notices made while one message is
        out travel together in the next: one Redis round trip, and one message for every
        other process to read, for however many moves the process made meanwhile (a
        message per move was a seventh of a process's time at 500 tables). A table whose
        last notice no other process heard is quiet: its notices are not sent at all until a
        process says it listens (then it gets a RESYNC for what it missed)."""
        if table_id in self._quiet:
            NOTICES_UNHEARD.inc()
            self._quiet[table_id] = left_out(self._quiet[table_id], kind, data)
            return
        await self._outbox((table_id, kind, data))

    def heard(self, table_id: str) -> bool:
        """A table whose last notice another process heard, or that has sent none yet."""
        return table_id not in self._quiet

    async def _send(self, batch: list[tuple[str, str, Carried | None]]) -> None:
        """Each table's notices on its own channel, every channel in one round trip; a table
        nobody else heard becomes quiet."""
        by_table: dict[str, list[tuple[str, str, Carried | None]]] = {}
        for notice in batch:
            by_table.setdefault(notice[0], []).append(notice)
        listenings = self._listenings
        before = {table_id: self._own_count(table_id) for table_id in by_table}
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for table_id, notices in by_table.items():
                    channel = self.table_channel(table_id)
                    pipe.publish(channel, orjson.dumps(Envelope(p=self.process, n=notices)))
                heard = await pipe.execute()
            NOTICES_PUBLISHED.inc(len(batch))
        except Exception as error:  # the others catch up from the database anyway
            log.warning("could not publish %d notices: %s", len(batch), error)
            return
        if listenings != self._listenings:
            # a process said it listens while these were out (maybe to one of these tables,
            # after Redis counted its receivers): it must not be left out from now on
            return
        for table_id, receivers in zip(by_table, heard, strict=True):
            mine, asked = before[table_id]
            if mine is None or (mine, asked) != self._own_count(table_id):
                continue  # this process's own count was unknown, or changed while out
            if int(receivers) - int(mine) <= 0:
                if len(self._quiet) >= QUIET_TABLES:
                    self._quiet.clear()
                # what nobody heard: these notices, and what is left out from now on
                known: LeftOut | None = self._quiet.get(table_id, NOTHING_LEFT_OUT)
                for _, kind, data in by_table[table_id]:
                    known = left_out(known, kind, data)
                self._quiet[table_id] = known

    def _own_count(self, table_id: str) -> tuple[bool | None, int | None]:
        """Whether Redis counts this process among the table's receivers (True when it
        confirmed the subscription, False when none was asked, None while a change is under
        way), and which ask that is. A publish's count says who else heard it only when
        this was known as the publish left and was the same when its answer came: a
        confirmation read in between may be of a subscription Redis took after the publish,
        which then did not count this process (the other process that listened was left
        unheard, its chat and moves read only when it made its own)."""
        confirmed = table_id in self._confirmed
        asked = self._asked_at.get(table_id)
        if confirmed != (table_id in self._subscribed):
            return None, asked
        return confirmed, asked

    def _subscription(self, kind: str, raw: Any) -> None:
        """Redis confirmed a (un)subscription. A table's confirmed subscription is said on the
        listening channel, so that a process that stopped publishing the table starts again."""
        channel = raw.decode() if isinstance(raw, bytes) else str(raw)
        prefix = self.table_channel("")
        if not channel.startswith(prefix):
            return
        table_id = channel[len(prefix) :]
        if kind == "unsubscribe":
            self._confirmed.discard(table_id)
            if table_id not in self._subscribed:
                self._asked_at.pop(table_id, None)
            return
        self._confirmed.add(table_id)
        task = asyncio.get_running_loop().create_task(self._listening(table_id))
        self._answering.add(task)
        task.add_done_callback(self._answering.discard)

    async def _listening(self, table_id: str) -> None:
        try:
            message = Listening(p=self.process, listening=[table_id])
            await self.redis.publish(self.listening_channel, orjson.dumps(message))
        except Exception as error:  # the version look catches this process up instead
            log.warning("could not say that this process hears table %s: %s", table_id, error)

    def _heard_by(self, tables: Any) -> None:
        """Another process now hears these tables: the quiet ones are published again, first
        a RESYNC that says what this process left out, so that the newcomer reads it from
        the database if its copy lacks it (a table made here and first served there has
        its joins in the copy already)."""
        if not isinstance(tables, list):
            raise ValueError("a listening message without its tables")
        self._listenings += 1
        for table_id in tables:
            if table_id in self._quiet:
                missed = self._quiet.pop(table_id)
                task = asyncio.get_running_loop().create_task(
                    self.publish(str(table_id), NoticeKind.RESYNC, missed)
                )
                self._answering.add(task)
                task.add_done_callback(self._answering.discard)

    # --- which tables' notices this process hears ---------------------------------------------
    def table_channel(self, table_id: str) -> str:
        return f"{self.ns}table:{table_id}"

    def serves(self, table_id: str) -> bool:
        """Only once Redis confirmed the subscription: a notice published before then may
        not reach this process."""
        return table_id in self._confirmed and table_id in self.served

    async def serve(self, table_id: str, serving: bool) -> None:
        """Subscribe to the table's channel, or leave it; calls that cross each other end
        as the last one asked (the wanted set is changed at once, the subscription follows)."""
        if serving:
            self.served.add(table_id)
        else:
            self.served.discard(table_id)
        await self._follow(table_id)

    async def _follow(self, table_id: str) -> None:
        """Hear the table's channel while this process holds its sockets (an owner without
        sockets reads the database before each change instead: `Hub.act`)."""
        async with self._subscribing:
            pubsub = self._pubsub
            want = table_id in self.served
            if pubsub is None or want == (table_id in self._subscribed):
                return
            # said before the ask leaves: from then on, Redis may count this process or not
            self._asked_at[table_id] = next(self._asks)
            try:
                if want:
                    self._subscribed.add(table_id)
                    await pubsub.subscribe(self.table_channel(table_id))
                else:
                    self._subscribed.discard(table_id)
                    await pubsub.unsubscribe(self.table_channel(table_id))
            except Exception as error:  # the listener subscribes again when it reconnects
                (self._subscribed.discard if want else self._subscribed.add)(table_id)
                log.warning("could not change the subscription of table %s: %s", table_id, error)

    # --- table ownership ---------------------------------------------------------------------
    def _owner_key(self, table_id: str) -> str:
        return f"{self.ns}owner:{table_id}"

    def owns(self, table_id: str) -> bool:
        return table_id in self.owned

    async def own(self, table_id: str) -> str | None:
        try:
            raw = await self._own(
                keys=[self._owner_key(table_id)], args=[self.process, int(OWNER_SECONDS * 1000)]
            )
        except Exception as error:
            log.warning("could not look at the owner of table %s: %s", table_id, error)
            return None
        holder = raw.decode() if isinstance(raw, bytes) else str(raw)
        if holder == self.process:
            self.owned.add(table_id)
        elif table_id in self.owned:
            self._lose(table_id)
        return holder

    async def lead(self, duty: str, seconds: float) -> bool:
        try:
            raw = await self._own(
                keys=[f"{self.ns}lead:{duty}"], args=[self.process, int(seconds * 1000)]
            )
        except Exception as error:  # nobody leads while Redis does not answer: the next try
            log.warning("could not look at who leads %s: %s", duty, error)
            return False
        leads = (raw.decode() if isinstance(raw, bytes) else str(raw)) == self.process
        if leads:
            self.leading.add(duty)
        else:
            self.leading.discard(duty)
        return leads

    def _lose(self, table_id: str) -> None:
        self.owned.discard(table_id)
        if self.on_lost is not None:
            self.on_lost(table_id)

    def give_up(self, table_id: str) -> None:
        if table_id not in self.owned:
            return
        self.owned.discard(table_id)
        task = asyncio.get_running_loop().create_task(self._let_go(table_id))
        self._answering.add(task)
        task.add_done_callback(self._answering.discard)

    async def disown(self, table_id: str) -> None:
        if table_id not in self.owned:
            return
        self.owned.discard(table_id)
        await self._let_go(table_id)

    async def _let_go(self, table_id: str) -> None:
        with contextlib.suppress(Exception):
            await self._release(keys=[self._owner_key(table_id)], args=[self.process])

    async def resign(self) -> None:
        for duty in sorted(self.leading):
            with contextlib.suppress(Exception):
                await self._release(keys=[f"{self.ns}lead:{duty}"], args=[self.process])
        self.leading.clear()

    async def disown_all(self) -> list[str]:
        await self.resign()
        return await self.disown_many(list(self.owned))

    async def disown_many(self, table_ids: Iterable[str]) -> list[str]:
        owned = sorted(t for t in table_ids if t in self.owned)
        self.owned.difference_update(owned)
        if not owned:
            return owned
        try:
            released = await self._scripts(
                [(self._release, [self._owner_key(t)], [self.process]) for t in owned]
            )
            _raise_first(released)
        except Exception as error:  # the leases run out by themselves
            log.warning("could not let %d owner leases go: %s", len(owned), error)
        return owned

    async def _keep_owning(self) -> None:
        """Renew every owner lease this process holds, every third of a lease's life, in one
        round trip; a lease that could not be renewed is lost (another process may take it)."""
        while True:
            await asyncio.sleep(OWNER_SECONDS / 3)
            owned = sorted(self.owned)
            if not owned:
                continue
            try:
                parts = await self._scripts(
                    [
                        (
                            self._renew,
                            [self._owner_key(t) for t in owned[i : i + PER_SCRIPT]],
                            [self.process, int(OWNER_SECONDS * 1000)],
                        )
                        for i in range(0, len(owned), PER_SCRIPT)
                    ]
                )
                renewed = [done for part in _raise_first(parts) for done in part]
            except asyncio.CancelledError:
                raise
            except Exception as error:  # kept until the next round; the database fences
                log.warning("could not renew %d owner leases: %s", len(owned), error)
                continue
            for table_id, done in zip(owned, renewed, strict=True):
                if not done and table_id in self.owned:
                    log.warning("lost the owner lease of table %s", table_id)
                    self._lose(table_id)

    async def _scripts(self, calls: list[ScriptCall]) -> list[Any]:
        """Several scripts in one round trip, each answer (or its error) in its place.
        redis-py's own pipelined scripts ask Redis `SCRIPT EXISTS` first, a second round trip
        every time; here each goes as `EVALSHA`, and only a script Redis does not have (it
        restarted, or its scripts were flushed) is loaded and its calls sent again."""
        from redis.exceptions import NoScriptError

        answers = await self._evalshas(calls)
        missing = [i for i, answer in enumerate(answers) if isinstance(answer, NoScriptError)]
        if missing:
            for script in {id(calls[i][0]): calls[i][0] for i in missing}.values():
                await self.redis.script_load(script.script)
            again = await self._evalshas([calls[i] for i in missing])
            for i, answer in zip(missing, again, strict=True):
                answers[i] = answer
        return answers

    async def _evalshas(self, calls: list[ScriptCall]) -> list[Any]:
        async with self.redis.pipeline(transaction=False) as pipe:
            for script, keys, args in calls:
                pipe.evalsha(script.sha, len(keys), *keys, *args)
            return list(await pipe.execute(raise_on_error=False))

    def process_channel(self, process: str) -> str:
        return f"{self.ns}process:{process}"

    async def ask(self, owner: str, question: Question, timeout: float) -> ActAnswered | None:
        waiting: asyncio.Future[ActAnswered] = asyncio.get_running_loop().create_future()
        self._asked[question["id"]] = waiting
        try:
            message = Asked(p=self.process, q=question)
            await self.redis.publish(self.process_channel(owner), orjson.dumps(message))
            NOTICES_PUBLISHED.inc()
            async with asyncio.timeout(timeout):
                return await waiting
        except TimeoutError:
            return None
        except Exception as error:
            log.warning("could not ask %s about table %s: %s", owner, question["table"], error)
            return None
        finally:
            self._asked.pop(question["id"], None)

    def _asked_or_answered(self, data: Any) -> None:
        """A question for this process as a table's owner, or the answer to one it asked."""
        answer = data.get("a")
        if isinstance(answer, dict):
            waiting = self._asked.get(str(answer.get("id")))
            if waiting is not None and not waiting.done():
                waiting.set_result(cast(ActAnswered, answer))
            return
        question = data.get("q")
        if not isinstance(question, dict) or self.on_ask is None:
            raise ValueError("a question without a body")
        if question.get("table") not in self.served:  # an owner without sockets of it
            NOTICES_UNSERVED.inc()
        task = asyncio.get_running_loop().create_task(self._answer(str(data["p"]), question))
        self._answering.add(task)
        task.add_done_callback(self._answering.discard)

    async def _answer(self, asker: str, question: Any) -> None:
        assert self.on_ask is not None
        answer = await self.on_ask(question)
        try:
            message = Answered(p=self.process, a=answer)
            await self.redis.publish(self.process_channel(asker), orjson.dumps(message))
            NOTICES_PUBLISHED.inc()
        except Exception as error:  # the asker takes the table when its lease runs out
            log.warning("could not answer %s: %s", asker, error)

    # --- presence --------------------------------------------------------------------------
    def _presence_key(self, table_id: str) -> str:
        return f"{self.ns}presence:{table_id}"

    async def present(
        self, table_id: str, seat: int, online: bool, *, seated: bool = False
    ) -> Presence:
        """One script: the change, the seat's "away since" when no process holds a fresh
        connection for it any more, and the table's presence as it is afterwards (it was
        three to four round trips, and every other process read the hash again on the notice).
        Changes asked for while others are on their way go together in one round trip (the
        four seats of a table connect, and leave at the end of a game, at about the same
        moment)."""
        change = _PresenceChange(table_id, seat, online, seated, time.time())
        try:
            flat = await self._presence_changes(change)
        except Exception as error:
            log.warning("could not record presence at table %s: %s", table_id, error)
            return Presence(online, None if online else change.at)
        fields = dict(zip(flat[::2], flat[1::2], strict=True))
        return _presence_from(fields, [seat], change.at)[seat]

    async def _change_presence(self, changes: list[_PresenceChange]) -> list[Any]:
        """The presence scripts of one batch in one pipeline, each answer (or error) in its
        place."""
        return await self._scripts(
            [
                (
                    self._present_script,
                    [self._presence_key(change.table_id)],
                    [
                        f"{change.seat}@{self.process}",
                        int(change.online),
                        change.at + PRESENCE_SECONDS,
                        change.at,
                        f"away{change.seat}",
                        7 * 86400,
                        f"{change.seat}@",
                        int(change.seated),
                    ],
                )
                for change in changes
            ]
        )

    async def presence(self, table_id: str, seats: Iterable[int]) -> dict[int, Presence]:
        try:
            fields = await self.redis.hgetall(self._presence_key(table_id))
        except Exception as error:
            log.warning("could not read presence at table %s: %s", table_id, error)
            fields = {}
        return _presence_from(fields, seats, time.time())

    async def presence_at(self, wanted: list[tuple[str, list[int]]]) -> list[dict[int, Presence]]:
        """One round trip for every table a process watches, not one each."""
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for table_id, _ in wanted:
                    pipe.hgetall(self._presence_key(table_id))
                found = await pipe.execute()
        except Exception as error:
            log.warning("could not read presence: %s", error)
            found = [{} for _ in wanted]
        now = time.time()
        return [
            _presence_from(fields, seats, now)
            for fields, (_, seats) in zip(found, wanted, strict=True)
        ]

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                seats: dict[str, list[str]] = {}
                for table_id, seat in self._present():
                    seats.setdefault(table_id, []).append(str(seat))
                if seats:
                    until = time.time() + PRESENCE_SECONDS
                    tables = list(seats)
                    parts = [tables[i : i + PER_SCRIPT] for i in range(0, len(tables), PER_SCRIPT)]
                    beaten = await self._scripts(
                        [
                            (
                                self._heartbeat_script,
                                [self._presence_key(t) for t in part],
                                [until, self.process, *(",".join(seats[t]) for t in part)],
                            )
                            for part in parts
                        ]
                    )
                    _raise_first(beaten)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("presence heartbeat failed: %s", error)

    # --- counters --------------------------------------------------------------------------
    async def hit(self, key: str, limit: int, window: float) -> float | None:
        now = time.time()
        try:
            oldest = await self._hit(
                keys=[f"{self.ns}hits:{key}"],
                args=[now, window, limit, f"{now}:{secrets.token_hex(4)}"],
            )
        except Exception as error:  # counting locally beats refusing everyone
            log.warning("shared rate limit unavailable (%s): counting in this process", error)
            return await super().hit(key, limit, window)
        if oldest is None:
            return None
        return max(0.0, window - (now - float(oldest)))


def _raise_first(answers: list[Any]) -> list[Any]:
    """The answers of `_scripts`, or the first error among them raised."""
    for answer in answers:
        if isinstance(answer, BaseException):
            raise answer
    return answers


def _presence_from(fields: dict[Any, Any], seats: Iterable[int], now: float) -> dict[int, Presence]:
    """A seat is online while a heartbeat of some process for it is fresh; else away since its
    goodbye, or since the heartbeat of a process that stopped without one ran out."""
    out = {}
    for seat in seats:
        online = False
        since: float | None = None
        for raw_field, raw_value in fields.items():
            name = raw_field.decode() if isinstance(raw_field, bytes) else str(raw_field)
            value = float(raw_value)
            if name == f"away{seat}":
                since = max(since or 0.0, value)
            elif name.startswith(f"{seat}@"):
                if value > now:
                    online = True
                else:  # a process that stopped without saying goodbye
                    since = max(since or 0.0, value - PRESENCE_SECONDS)
        out[seat] = Presence(online, None if online else since)
    return out


def _fresh(raw_field: Any, raw_value: Any, seat: int, now: float) -> bool:
    name = raw_field.decode() if isinstance(raw_field, bytes) else str(raw_field)
    return name.startswith(f"{seat}@") and float(raw_value) > now


def namespace(db_url: str, schema: str | None) -> str:
    """Processes on the same database share Redis keys; other databases never meet them."""
    return hashlib.sha256(f"{db_url}|{schema or ''}".encode()).hexdigest()[:12]


def make_bus(redis_url: str | None, db_url: str, schema: str | None) -> Bus:
    if redis_url is None:
        return Bus()
    return RedisBus(redis_url, namespace(db_url, schema))
