"""Tables on disk: each table is its seats plus its record, one row per record entry.

A move is written (and committed) before anyone is told about it, so a killed server loses
nothing it acknowledged. The primary key (table, index) makes a second writer of the same entry
fail instead of forking the game. SQLite by default, PostgreSQL (or any SQLAlchemy URL) by URL.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Column,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, IntegrityError

WAITING = "waiting"
PLAYING = "playing"
FINISHED = "finished"

metadata = MetaData()

tables_t = Table(
    "campfire_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", Text, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("moves", Integer, nullable=False, default=0),
    Column("winners", Text, nullable=False, default="[]"),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("next_id", String(32), nullable=True),
)

seats_t = Table(
    "campfire_seats",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # human or bot
    Column("level", String(40), nullable=True),  # the bot's level
    Column("name", String(80), nullable=True),  # None: the seat is free
    Column("token_hash", String(64), nullable=True, unique=True),
)

moves_t = Table(
    "campfire_moves",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("entry", Text, nullable=False),
)


class Conflict(Exception):
    """Someone else changed the same row first (a seat taken, an entry already written)."""


@dataclass
class SeatRow:
    seat: int
    kind: str
    level: str | None
    name: str | None
    token_hash: str | None


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


def engine_url(url: str) -> str:
    """Plain `postgresql://` URLs use psycopg (version 3), the driver Campfire ships with."""
    for plain in ("postgresql://", "postgres://"):
        if url.startswith(plain):
            return "postgresql+psycopg://" + url[len(plain) :]
    return url


class Storage:
    """Synchronous storage; the server calls it from worker threads.

    `schema` puts the tables in a PostgreSQL schema (tests give each run its own).
    """

    def __init__(self, url: str, schema: str | None = None) -> None:
        url = engine_url(url)
        try:
            parsed = make_url(url)
        except ArgumentError:
            raise ValueError(f"not a database URL: {url!r}") from None
        self.sqlite = parsed.get_backend_name() == "sqlite"
        kwargs: dict[str, Any] = {}
        if self.sqlite:
            database = parsed.database
            if database and database != ":memory:":
                Path(database).parent.mkdir(parents=True, exist_ok=True)
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        engine = create_engine(url, **kwargs)
        if self.sqlite:
            event.listen(engine, "connect", _sqlite_pragmas)
        if schema is not None:
            engine = engine.execution_options(schema_translate_map={None: schema})
        self.engine: Engine = engine
        metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # --- writing ---------------------------------------------------------------------------
    def create(self, row: TableRow) -> None:
        with self.engine.begin() as db:
            db.execute(
                insert(tables_t).values(
                    id=row.id,
                    game=row.game,
                    players=row.players,
                    options=json.dumps(row.options),
                    status=row.status,
                    moves=row.moves,
                    winners=json.dumps(row.winners),
                    created=row.created,
                    updated=row.updated,
                    next_id=row.next_id,
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
                    }
                    for s in row.seats
                ],
            )

    def claim_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> None:
        """Give a free human seat to `name`; Conflict when someone took it first."""
        taken = self._change_seat(table_id, seat, None, name=name, token_hash=token_hash)
        if not taken:
            raise Conflict(f"seat {seat} is already taken")

    def hand_to_bot(self, table_id: str, seat: int, level: str, token_hash: str) -> None:
        """A bot of `level` takes over a person's seat and the seat token stops working;
        Conflict when the seat changed hands first."""
        handed = self._change_seat(
            table_id, seat, token_hash, kind="bot", level=level, token_hash=None
        )
        if not handed:
            raise Conflict(f"seat {seat} is no longer that player's")

    def _change_seat(self, table_id: str, seat: int, holder: str | None, **values: Any) -> bool:
        """Set `values` on a human seat only while `holder` (a token hash, None: nobody) holds
        it, so two requests racing for one seat cannot both win; True when it changed."""
        held = seats_t.c.token_hash.is_(None) if holder is None else seats_t.c.token_hash == holder
        with self.engine.begin() as db:
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

    def append(
        self,
        table_id: str,
        start: int,
        entries: Sequence[dict[str, Any]],
        status: str,
        winners: Sequence[int],
    ) -> None:
        """Write record entries `start...` and the table's new status in one transaction."""
        now = time.time()
        try:
            with self.engine.begin() as db:
                if entries:
                    db.execute(
                        insert(moves_t),
                        [
                            {"table_id": table_id, "idx": start + i, "entry": json.dumps(e)}
                            for i, e in enumerate(entries)
                        ],
                    )
                done = db.execute(
                    update(tables_t)
                    .where(and_(tables_t.c.id == table_id, tables_t.c.moves == start))
                    .values(
                        moves=start + len(entries),
                        status=status,
                        winners=json.dumps(list(winners)),
                        updated=now,
                    )
                )
                if done.rowcount != 1:
                    raise Conflict(f"table {table_id} is no longer at entry {start}")
        except IntegrityError:
            raise Conflict(f"entry {start} of table {table_id} was already written") from None

    def set_next(self, table_id: str, next_id: str) -> None:
        with self.engine.begin() as db:
            db.execute(update(tables_t).where(tables_t.c.id == table_id).values(next_id=next_id))

    def delete(self, table_id: str) -> None:
        with self.engine.begin() as db:
            for t in (moves_t, seats_t):
                db.execute(delete(t).where(t.c.table_id == table_id))
            db.execute(delete(tables_t).where(tables_t.c.id == table_id))

    # --- reading ---------------------------------------------------------------------------
    def load(self, table_id: str) -> tuple[TableRow, list[dict[str, Any]]] | None:
        """The table and its record entries, or None when there is no such table."""
        with self.engine.connect() as db:
            row = db.execute(select(tables_t).where(tables_t.c.id == table_id)).mappings().first()
            if row is None:
                return None
            table = _table(row)
            table.seats = [
                SeatRow(r.seat, r.kind, r.level, r.name, r.token_hash)
                for r in db.execute(
                    select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat)
                )
            ]
            entries = [
                json.loads(r.entry)
                for r in db.execute(
                    select(moves_t.c.entry)
                    .where(moves_t.c.table_id == table_id)
                    .order_by(moves_t.c.idx)
                )
            ]
        return table, entries

    def ids(self, statuses: Sequence[str]) -> list[str]:
        with self.engine.connect() as db:
            rows = db.execute(
                select(tables_t.c.id)
                .where(tables_t.c.status.in_(list(statuses)))
                .order_by(tables_t.c.created)
            )
            return [r.id for r in rows]

    def listing(self, status: str, limit: int) -> list[TableRow]:
        """The most recently updated tables of one status, with their seats."""
        with self.engine.connect() as db:
            rows = (
                db.execute(
                    select(tables_t)
                    .where(tables_t.c.status == status)
                    .order_by(tables_t.c.updated.desc())
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
                by_id[r.table_id].seats.append(
                    SeatRow(r.seat, r.kind, r.level, r.name, r.token_hash)
                )
            return found

    def count(self) -> int:
        with self.engine.connect() as db:
            return int(db.execute(select(func.count()).select_from(tables_t)).scalar_one())


def _table(row: Any) -> TableRow:
    return TableRow(
        id=row["id"],
        game=row["game"],
        players=row["players"],
        options=json.loads(row["options"]),
        status=row["status"],
        moves=row["moves"],
        winners=json.loads(row["winners"]),
        created=row["created"],
        updated=row["updated"],
        next_id=row["next_id"],
    )


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """WAL lets readers work during a write; FULL sync makes a commit survive a power cut."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
