"""Tables on disk: each table is its seats plus its record, one row per record entry.

A move is written (and committed) before anyone is told about it, so a killed server loses
nothing it acknowledged. Every writing transaction starts by counting up the table's `version`,
which takes the table's row lock: writers of one table go one at a time on every database, and
what they read after that is current. The primary key (table, index) and the `moves` guard make
a second writer of the same entry fail instead of forking the game. A seat that fills the table
is committed together with the deal, so no kill leaves a full table that never starts.
SQLite by default, PostgreSQL (or any SQLAlchemy URL) by URL; the layout comes from `migrate`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import (
    Connection,
    Engine,
    String,
    and_,
    any_,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, IntegrityError

from campfire.i18n import N_
from campfire.kernel.errors import Refusal
from campfire.server.names import name_key
from campfire.server.store import migrate
from campfire.server.store.schema import (
    FINISHED,
    PLAYING,
    WAITING,
    chat_t,
    moves_t,
    reviews_t,
    seats_t,
    tables_t,
)

__all__ = [
    "FINISHED",
    "PLAYING",
    "WAITING",
    "ChatRow",
    "Claim",
    "Conflict",
    "Deal",
    "NameRemoved",
    "NameTaken",
    "SeatRow",
    "Storage",
    "TableRow",
    "engine_url",
]

#: a list of table ids as one PostgreSQL parameter
_IDS = ARRAY(String)


class Conflict(Exception):
    """Someone else changed the same row first (a seat taken, an entry already written)."""


class NameTaken(Conflict):
    """Someone at the table already goes by that name (whatever its case)."""


class NameRemoved(Conflict):
    """The host removed someone of that name from this table: it stays out."""


@dataclass
class SeatRow:
    seat: int
    kind: str
    level: str | None
    name: str | None
    token_hash: str | None
    retired_hash: str | None = None
    timeouts: int = 0


@dataclass(frozen=True)
class Claim:
    """A seat given away: the table's version after it, whether that started the game, and
    the waiting table's seats and host as they stood in the same transaction, so that a
    process whose copy was behind is current again without reading the table once more."""

    version: int
    dealt: bool
    seats: list[SeatRow]
    host_hash: str | None


@dataclass
class ChatRow:
    idx: int
    seat: int | None
    name: str
    text: str
    at: float
    #: the record length when it was said (None: said before that was kept)
    step: int | None = None


@dataclass
class TableRow:
    id: str
    game: str
    players: int
    options: dict[str, Any]
    status: str
    moves: int
    winners: list[int]
    created: float
    updated: float
    next_id: str | None
    seats: list[SeatRow] = field(default_factory=list)
    version: int = 0
    to_move: int | None = None
    listed: bool = False
    host_hash: str | None = None
    address: str | None = None
    clock: int | None = None
    deadline: float | None = None
    #: the names the host removed, folded (`names.name_key`)
    removed: list[str] = field(default_factory=list)
    #: ratings move after each game (migration 0005_accounts)
    rated: bool = False


@dataclass
class Deal:
    """The entries that start a game (the opening chance outcomes) and where they leave it."""

    entries: list[dict[str, Any]]
    status: str
    winners: list[int]
    to_move: int | None
    #: when the clock of the seat to move runs out (None: no clock runs)
    deadline: float | None = None


def engine_url(url: str) -> str:
    """Plain `postgresql://` URLs use psycopg (version 3), the driver Campfire ships with."""
    for plain in ("postgresql://", "postgres://"):
        if url.startswith(plain):
            return "postgresql+psycopg://" + url[len(plain) :]
    return url


def dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


class Storage:
    """Synchronous storage; the server calls it from worker threads.

    `schema` puts the tables in a PostgreSQL schema (tests give each run its own). The layout is
    brought up to date on opening unless `upgrade=False` (`campfire db upgrade` does it apart).
    """

    def __init__(self, url: str, schema: str | None = None, *, upgrade: bool = True) -> None:
        url = engine_url(url)
        try:
            parsed = make_url(url)
        except ArgumentError:
            raise ValueError(f"not a database URL: {url!r}") from None
        self.url = url
        self.schema = schema
        self.sqlite = parsed.get_backend_name() == "sqlite"
        kwargs: dict[str, Any] = {}
        if self.sqlite:
            database = parsed.database
            if database and database != ":memory:":
                Path(database).parent.mkdir(parents=True, exist_ok=True)
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            kwargs.update(pool_size=10, max_overflow=20, pool_pre_ping=True)
        engine = create_engine(url, **kwargs)
        if self.sqlite:
            event.listen(engine, "connect", _sqlite_pragmas)
        self.raw_engine: Engine = engine
        if upgrade:
            migrate.upgrade(engine, schema)
        if schema is not None:
            engine = engine.execution_options(schema_translate_map={None: schema})
        self.engine: Engine = engine

    def close(self) -> None:
        self.engine.dispose()

    # --- writing ---------------------------------------------------------------------------
    def create(self, row: TableRow, deal: Deal | None = None) -> int:
        """A new table with its seats; with `deal`, already started (a table of bots only)."""
        now = time.time()
        with self.engine.begin() as db:
            db.execute(
                insert(tables_t).values(
                    id=row.id,
                    game=row.game,
                    players=row.players,
                    options=dumps(row.options),
                    status=row.status,
                    moves=row.moves,
                    winners=dumps(row.winners),
                    created=row.created,
                    updated=row.updated,
                    next_id=row.next_id,
                    version=1,
                    to_move=row.to_move,
                    listed=row.listed,
                    host_hash=row.host_hash,
                    address=row.address,
                    clock=row.clock,
                    deadline=row.deadline,
                    rated=row.rated,
                )
            )
            db.execute(
                insert(seats_t),
                [
                    {
                        "table_id": row.id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "level": s.level,
                        "name": s.name,
                        "token_hash": s.token_hash,
                        "retired_hash": s.retired_hash,
                    }
                    for s in row.seats
                ],
            )
            if deal is not None:
                return _write(db, row.id, 0, deal, now=now)
        return 1

    def claim_seat(
        self,
        table_id: str,
        seat: int,
        name: str,
        token_hash: str,
        deal: Deal | None = None,
        host: bool = False,
        account_id: str | None = None,
    ) -> Claim:
        """Give a free human seat to `name` (the table's host, with `host`); Conflict when
        someone took it first, NameTaken when someone there goes by that name already.

        With `deal`, a seat that fills the table starts the game in the same transaction.
        The version bump locks the table's row first (on PostgreSQL; SQLite has one writer),
        so the seats read after it are as every other writer of this table will find them."""
        with self.engine.begin() as db:
            bumped = db.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id)
                .values(
                    version=tables_t.c.version + 1, **({"host_hash": token_hash} if host else {})
                )
                # the removed names come back from the locked row: no second look at it
                .returning(tables_t.c.version, tables_t.c.host_hash, tables_t.c.removed)
            ).first()
            if bumped is None:
                raise Conflict(Refusal(N_("there is no table {table_id}"), table_id=table_id))
            version, host_hash, removed = int(bumped.version), bumped.host_hash, bumped.removed
            seats = [
                _seat(r)
                for r in db.execute(
                    select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat)
                )
            ]
            wanted = name_key(name)
            if wanted in orjson.loads(removed or "[]"):
                raise NameRemoved(f"the host removed {name!r} from this table")
            if any(s.name is not None and name_key(s.name) == wanted for s in seats):
                raise NameTaken(f"someone at this table is already called {name!r}")
            place = next((s for s in seats if s.seat == seat), None)
            if place is None or place.kind != "human" or place.token_hash is not None:
                raise Conflict(Refusal(N_("seat {seat} is already taken"), seat=seat))
            _change_seat(
                db, table_id, seat, None, name=name, token_hash=token_hash, account_id=account_id
            )
            place.name, place.token_hash = name, token_hash
            full = all(s.kind != "human" or s.token_hash is not None for s in seats)
            if deal is None or not full:
                return Claim(version, False, seats, host_hash)
            return Claim(_write(db, table_id, 0, deal), True, seats, host_hash)

    def begin(self, table_id: str, deal: Deal) -> int:
        """Start a full waiting table that was never dealt (a database from an older server)."""
        with self.engine.begin() as db:
            _bump(db, table_id)
            if not _full(db, table_id):
                raise Conflict(
                    Refusal(N_("table {table_id} still has free seats"), table_id=table_id)
                )
            return _write(db, table_id, 0, deal)

    def hand_to_bot(self, table_id: str, seat: int, level: str, token_hash: str) -> int:
        """A bot of `level` takes over a person's seat and the seat token stops working;
        Conflict when the seat changed hands first."""
        with self.engine.begin() as db:
            version = _bump(db, table_id)
            handed = _change_seat(
                db,
                table_id,
                seat,
                token_hash,
                kind="bot",
                level=level,
                token_hash=None,
                retired_hash=token_hash,
            )
            if not handed:
                raise Conflict(Refusal(N_("seat {seat} is no longer that player's"), seat=seat))
            # a bot's turn runs no clock
            db.execute(
                update(tables_t)
                .where(and_(tables_t.c.id == table_id, tables_t.c.to_move == seat))
                .values(deadline=None)
            )
            return version

    def reclaim_seat(
        self, table_id: str, seat: int, token_hash: str, deadline: float | None
    ) -> int:
        """The person whose seat the clock handed to a bot takes it back with their old token
        (the clock runs for them again if it is their turn); Conflict when the seat is no
        longer that bot's, or the game ended."""
        with self.engine.begin() as db:
            version = _bump(db, table_id)
            back = db.execute(
                update(seats_t)
                .where(
                    and_(
                        seats_t.c.table_id == table_id,
                        seats_t.c.seat == seat,
                        seats_t.c.kind == "bot",
                        seats_t.c.retired_hash == token_hash,
                    )
                )
                .values(
                    kind="human", level=None, token_hash=token_hash, retired_hash=None, timeouts=0
                )
            )
            status = db.execute(
                select(tables_t.c.status).where(tables_t.c.id == table_id)
            ).scalar_one()
            if back.rowcount != 1 or status != PLAYING:
                raise Conflict(Refusal(N_("seat {seat} can no longer be taken back"), seat=seat))
            if deadline is not None:
                db.execute(
                    update(tables_t)
                    .where(and_(tables_t.c.id == table_id, tables_t.c.to_move == seat))
                    .values(deadline=deadline)
                )
            return version

    def cancel(self, table_id: str) -> None:
        """The host calls off a waiting table: it is deleted with its seats and chat;
        Conflict when the game started first."""
        with self.engine.begin() as db:
            _bump(db, table_id)
            status = db.execute(
                select(tables_t.c.status).where(tables_t.c.id == table_id)
            ).scalar_one()
            if status != WAITING:
                raise Conflict(Refusal(N_("the game has started")))
            for t in (moves_t, seats_t, chat_t, reviews_t):
                db.execute(delete(t).where(t.c.table_id == table_id))
            db.execute(delete(tables_t).where(tables_t.c.id == table_id))

    def remove_seat(self, table_id: str, seat: int, token_hash: str, retire: bool = True) -> int:
        """The host sends a person away from a waiting table (or they leave it): the seat is
        free again and the token stops working (a removed one is remembered, `retire`);
        Conflict when the seat changed hands or the game started first."""
        with self.engine.begin() as db:
            version = _bump(db, table_id)
            status = db.execute(
                select(tables_t.c.status).where(tables_t.c.id == table_id)
            ).scalar_one()
            if status != WAITING:
                raise Conflict(Refusal(N_("the game has started")))
            name = db.execute(
                select(seats_t.c.name).where(
                    and_(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                )
            ).scalar()
            retired = {"retired_hash": token_hash} if retire else {}
            freed = _change_seat(
                db,
                table_id,
                seat,
                token_hash,
                name=None,
                token_hash=None,
                account_id=None,
                **retired,
            )
            if not freed:
                raise Conflict(Refusal(N_("seat {seat} is no longer that player's"), seat=seat))
            if retire and name is not None:  # the name stays out of this table
                removed = db.execute(
                    select(tables_t.c.removed).where(tables_t.c.id == table_id)
                ).scalar_one()
                kept = sorted({*orjson.loads(removed or "[]"), name_key(name)})
                db.execute(
                    update(tables_t).where(tables_t.c.id == table_id).values(removed=dumps(kept))
                )
            return version

    def append(
        self,
        table_id: str,
        start: int,
        entries: Sequence[dict[str, Any]],
        status: str,
        winners: Sequence[int],
        to_move: int | None = None,
        deadline: float | None = None,
        mover: int | None = None,
        timeouts: int = 0,
    ) -> int:
        """Write record entries `start...` and the table's new status (and when the next turn's
        clock runs out) in one transaction; `mover`'s count of clock timeouts in a row becomes
        `timeouts`. Gives the table's new version."""
        deal = Deal(list(entries), status, list(winners), to_move, deadline)
        try:
            with self.engine.begin() as db:
                version = _write(db, table_id, start, deal)
                if mover is not None:
                    db.execute(
                        update(seats_t)
                        .where(
                            and_(
                                seats_t.c.table_id == table_id,
                                seats_t.c.seat == mover,
                                seats_t.c.timeouts != timeouts,
                            )
                        )
                        .values(timeouts=timeouts)
                    )
                return version
        except IntegrityError:
            raise Conflict(
                Refusal(
                    N_("entry {start} of table {table_id} was already written"),
                    start=start,
                    table_id=table_id,
                )
            ) from None

    # --- chat ------------------------------------------------------------------------------
    def add_chat(
        self,
        table_id: str,
        seat: int | None,
        name: str,
        text: str,
        at: float,
        keep: int,
        step: int | None = None,
    ) -> ChatRow:
        """Append one chat line after the table's last, keeping only the last `keep` lines (a
        full chat rolls over, it never closes); Conflict when another process wrote the same
        line number first (the caller tries again)."""
        try:
            with self.engine.begin() as db:
                last = db.execute(
                    select(func.max(chat_t.c.idx)).where(chat_t.c.table_id == table_id)
                ).scalar()
                idx = 0 if last is None else int(last) + 1
                db.execute(
                    insert(chat_t).values(
                        table_id=table_id,
                        idx=idx,
                        seat=seat,
                        name=name,
                        text=text,
                        at=at,
                        step=step,
                    )
                )
                if idx >= keep:
                    db.execute(
                        delete(chat_t).where(
                            and_(chat_t.c.table_id == table_id, chat_t.c.idx <= idx - keep)
                        )
                    )
                return ChatRow(idx, seat, name, text, at, step)
        except IntegrityError:
            raise Conflict(Refusal(N_("another message took that place"))) from None

    def chat_since(self, table_id: str, start: int) -> list[ChatRow]:
        with self.engine.connect() as db:
            return [
                ChatRow(r.idx, r.seat, r.name, r.text, r.at, r.step)
                for r in db.execute(
                    select(chat_t)
                    .where(and_(chat_t.c.table_id == table_id, chat_t.c.idx >= start))
                    .order_by(chat_t.c.idx)
                )
            ]

    def set_next(self, table_id: str, next_id: str) -> int:
        with self.engine.begin() as db:
            version = _bump(db, table_id)
            db.execute(update(tables_t).where(tables_t.c.id == table_id).values(next_id=next_id))
            return version

    def delete(self, table_id: str) -> None:
        with self.engine.begin() as db:
            for t in (moves_t, seats_t, chat_t, reviews_t):
                db.execute(delete(t).where(t.c.table_id == table_id))
            db.execute(delete(tables_t).where(tables_t.c.id == table_id))

    def save_review(self, table_id: str, text: str) -> str:
        """Keep a finished table's review; the one kept, when another process kept one first
        (the first stays: every review of the same record is the same)."""
        try:
            with self.engine.begin() as db:
                db.execute(
                    insert(reviews_t).values(table_id=table_id, review=text, created=time.time())
                )
        except IntegrityError:
            kept = self.review(table_id)
            if kept is not None:
                return kept
            raise
        return text

    # --- reading ---------------------------------------------------------------------------
    def review(self, table_id: str) -> str | None:
        """A finished table's review as kept (JSON text), or None before one is made."""
        with self.engine.connect() as db:
            found: str | None = db.execute(
                select(reviews_t.c.review).where(reviews_t.c.table_id == table_id)
            ).scalar()
            return found

    def load(self, table_id: str) -> tuple[TableRow, list[dict[str, Any]]] | None:
        """The table and its record entries, or None when there is no such table."""
        return self.load_since(table_id, 0)

    def load_since(
        self, table_id: str, start: int, version: int | None = None
    ) -> tuple[TableRow, list[dict[str, Any]]] | None:
        """The table with its seats, and its record entries from `start` up to its `moves`.

        A caller whose copy is at `version` gets only the table's row (no seats, no entries)
        while the table is still at that version: most looks find nothing new."""
        with self.engine.connect() as db:
            row = db.execute(select(tables_t).where(tables_t.c.id == table_id)).mappings().first()
            if row is None:
                return None
            table = _table(row)
            if version is not None and table.version == version:
                return table, []
            table.seats = [
                _seat(r)
                for r in db.execute(
                    select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat)
                )
            ]
            # entries past `moves` may have been committed since the row was read: the next
            # look takes them, together with the row that counts them
            entries = [
                orjson.loads(r.entry)
                for r in db.execute(
                    select(moves_t.c.entry)
                    .where(
                        and_(
                            moves_t.c.table_id == table_id,
                            moves_t.c.idx >= start,
                            moves_t.c.idx < table.moves,
                        )
                    )
                    .order_by(moves_t.c.idx)
                )
            ]
        return table, entries

    def versions(self, ids: Iterable[str]) -> dict[str, int]:
        """Each table's version, to tell in one query which ones changed elsewhere. On
        PostgreSQL the ids go as one array (`= ANY`): a process watches thousands of tables
        every two seconds, and an `IN` list of 500 costs 2.5 times the CPU of the array; SQLite
        has no arrays and takes them 500 to a query (its limit on parameters)."""
        wanted = list(ids)
        found: dict[str, int] = {}
        if not wanted:
            return found
        columns = select(tables_t.c.id, tables_t.c.version)
        with self.engine.connect() as db:
            if self.sqlite:
                queries = [
                    columns.where(tables_t.c.id.in_(wanted[i : i + 500]))
                    for i in range(0, len(wanted), 500)
                ]
            else:
                queries = [columns.where(tables_t.c.id == any_(bindparam("ids", wanted, _IDS)))]
            for query in queries:
                found.update({r.id: r.version for r in db.execute(query)})
        return found

    def stalled(self, before: float) -> list[str]:
        """Tables that wait on the server itself since `before`: a bot to move, or every seat
        filled and no deal yet (left so by a server that stopped between the two)."""
        with self.engine.connect() as db:
            ids = [r.id for r in db.execute(_to_move_by("bot", tables_t.c.updated < before))]
            free = (
                select(func.count())
                .select_from(seats_t)
                .where(
                    and_(
                        seats_t.c.table_id == tables_t.c.id,
                        seats_t.c.kind == "human",
                        seats_t.c.token_hash.is_(None),
                    )
                )
                .scalar_subquery()
            )
            full = db.execute(
                select(tables_t.c.id).where(
                    and_(tables_t.c.status == WAITING, tables_t.c.updated < before, free == 0)
                )
            )
            ids.extend(r.id for r in full)
        return ids

    def ids(self, statuses: Sequence[str], waiting_since: float | None = None) -> list[str]:
        """Tables of these statuses; waiting ones only if made after `waiting_since`."""
        with self.engine.connect() as db:
            rows = db.execute(
                select(tables_t.c.id)
                .where(and_(tables_t.c.status.in_(list(statuses)), _not_expired(waiting_since)))
                .order_by(tables_t.c.created)
            )
            return [r.id for r in rows]

    def overdue(self, now: float) -> list[str]:
        """Tables where a person's turn clock has run out."""
        with self.engine.connect() as db:
            rows = db.execute(
                _to_move_by("human", tables_t.c.deadline.is_not(None), tables_t.c.deadline <= now)
            )
            return [r.id for r in rows]

    def waiting_from(self, address: str, waiting_since: float) -> int:
        """How many unexpired tables opened from `address` still wait for players."""
        with self.engine.connect() as db:
            found = db.execute(
                select(func.count())
                .select_from(tables_t)
                .where(
                    and_(
                        tables_t.c.address == address,
                        tables_t.c.status == WAITING,
                        tables_t.c.created > waiting_since,
                    )
                )
            ).scalar_one()
            return int(found)

    def listed_count(self, status: str, waiting_since: float | None = None) -> int:
        with self.engine.connect() as db:
            found = db.execute(
                select(func.count())
                .select_from(tables_t)
                .where(
                    and_(
                        tables_t.c.status == status,
                        tables_t.c.listed.is_(True),
                        _not_expired(waiting_since),
                    )
                )
            ).scalar_one()
            return int(found)

    def listing(
        self,
        status: str,
        limit: int,
        offset: int = 0,
        waiting_since: float | None = None,
        listed_only: bool = False,
    ) -> list[TableRow]:
        """The most recently updated tables of one status (only those listed in the lobby
        when `listed_only`; no waiting ones made before `waiting_since`), with their seats."""
        wanted = [tables_t.c.status == status, _not_expired(waiting_since)]
        if listed_only:
            wanted.append(tables_t.c.listed.is_(True))
        with self.engine.connect() as db:
            rows = (
                db.execute(
                    select(tables_t)
                    .where(and_(*wanted))
                    .order_by(tables_t.c.updated.desc(), tables_t.c.id)
                    .offset(offset)
                    .limit(limit)
                )
                .mappings()
                .all()
            )
            found = [_table(r) for r in rows]
            if not found:
                return found
            by_id = {t.id: t for t in found}
            for r in db.execute(
                select(seats_t).where(seats_t.c.table_id.in_(list(by_id))).order_by(seats_t.c.seat)
            ):
                by_id[r.table_id].seats.append(_seat(r))
            return found

    def count(self) -> int:
        with self.engine.connect() as db:
            return int(db.execute(select(func.count()).select_from(tables_t)).scalar_one())


def _to_move_by(kind: str, *conditions: Any) -> Any:
    """The ids of tables being played whose seat to move is a `kind` ("bot" or "human")."""
    return (
        select(tables_t.c.id)
        .join(
            seats_t,
            and_(seats_t.c.table_id == tables_t.c.id, seats_t.c.seat == tables_t.c.to_move),
        )
        .where(and_(tables_t.c.status == PLAYING, seats_t.c.kind == kind, *conditions))
    )


def _bump(db: Connection, table_id: str) -> int:
    """Count the table's version up: the row lock that makes this table's writers take turns."""
    version = db.execute(
        update(tables_t)
        .where(tables_t.c.id == table_id)
        .values(version=tables_t.c.version + 1)
        .returning(tables_t.c.version)
    ).scalar()
    if version is None:
        raise Conflict(Refusal(N_("there is no table {table_id}"), table_id=table_id))
    return int(version)


def _not_expired(waiting_since: float | None) -> Any:
    """Every table but the waiting ones made before `waiting_since` (None: every table)."""
    if waiting_since is None:
        return tables_t.c.id.is_not(None)
    return or_(tables_t.c.status != WAITING, tables_t.c.created > waiting_since)


def _write(
    db: Connection,
    table_id: str,
    start: int,
    deal: Deal,
    now: float | None = None,
) -> int:
    """Entries `start...` and the new status, guarded by the table still being at `start`."""
    entries = deal.entries
    version = db.execute(
        update(tables_t)
        .where(and_(tables_t.c.id == table_id, tables_t.c.moves == start))
        .values(
            moves=start + len(entries),
            status=deal.status,
            winners=dumps(list(deal.winners)),
            updated=time.time() if now is None else now,
            version=tables_t.c.version + 1,
            to_move=deal.to_move,
            deadline=deal.deadline,
        )
        .returning(tables_t.c.version)
    ).scalar()
    if version is None:
        raise Conflict(
            Refusal(
                N_("table {table_id} is no longer at entry {start}"), table_id=table_id, start=start
            )
        )
    if entries:
        db.execute(
            insert(moves_t),
            [
                {"table_id": table_id, "idx": start + i, "entry": dumps(e)}
                for i, e in enumerate(entries)
            ],
        )
    return int(version)


def _change_seat(
    db: Connection, table_id: str, seat: int, holder: str | None, **values: Any
) -> bool:
    """Set `values` on a human seat only while `holder` (a token hash, None: nobody) holds it,
    so two requests racing for one seat cannot both win; True when it changed."""
    held = seats_t.c.token_hash.is_(None) if holder is None else seats_t.c.token_hash == holder
    done = db.execute(
        update(seats_t)
        .where(
            and_(
                seats_t.c.table_id == table_id,
                seats_t.c.seat == seat,
                seats_t.c.kind == "human",
                held,
            )
        )
        .values(**values)
    )
    return bool(done.rowcount == 1)


def _full(db: Connection, table_id: str) -> bool:
    free = db.execute(
        select(func.count())
        .select_from(seats_t)
        .where(
            and_(
                seats_t.c.table_id == table_id,
                seats_t.c.kind == "human",
                seats_t.c.token_hash.is_(None),
            )
        )
    ).scalar_one()
    return int(free) == 0


def _table(row: Any) -> TableRow:
    return TableRow(
        id=row["id"],
        game=row["game"],
        players=row["players"],
        options=orjson.loads(row["options"]),
        status=row["status"],
        moves=row["moves"],
        winners=orjson.loads(row["winners"]),
        created=row["created"],
        updated=row["updated"],
        next_id=row["next_id"],
        version=row["version"],
        to_move=row["to_move"],
        listed=bool(row["listed"]),
        host_hash=row["host_hash"],
        address=row["address"],
        clock=row["clock"],
        deadline=row["deadline"],
        removed=orjson.loads(row["removed"] or "[]"),
        rated=bool(row["rated"]),
    )


def _seat(r: Any) -> SeatRow:
    return SeatRow(r.seat, r.kind, r.level, r.name, r.token_hash, r.retired_hash, r.timeouts)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """WAL lets readers work during a write; FULL sync makes a commit survive a power cut."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
