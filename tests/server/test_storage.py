"""Storage against SQLite and PostgreSQL: the same behaviour on both."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from campfire.server.store.storage import (
    FINISHED,
    PLAYING,
    WAITING,
    Conflict,
    NameTaken,
    SeatRow,
    Storage,
    TableRow,
    engine_url,
)
from tests.server.conftest import PG_URL, Client
from tests.server.test_api import pick


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str | None]]:
    """A URL and schema: a fresh SQLite file, or a schema of its own in PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.sqlite3'}", None
    else:
        yield PG_URL, request.getfixturevalue("pg_schema")


@pytest.fixture
def storage(database: tuple[str, str | None]) -> Iterator[Storage]:
    store = Storage(database[0], schema=database[1])
    yield store
    store.close()


def table_row(table_id: str, status: str = WAITING, seats: int = 3) -> TableRow:
    now = time.time()
    return TableRow(
        table_id,
        "powwow",
        seats,
        {"buzzards": 3, "tomahawks": True},
        status,
        0,
        [],
        now,
        now,
        None,
        [
            SeatRow(s, "bot" if s == 2 else "human", "random" if s == 2 else None, None, None)
            for s in range(seats)
        ],
    )


def test_a_table_and_its_entries_round_trip(storage: Storage) -> None:
    storage.create(table_row("t1"))
    storage.claim_seat("t1", 0, "Ana", "h0")
    entries: list[dict[str, Any]] = [
        {"chance": "shuffle", "order": ["1", "2"]},
        {"player": 0, "action": "guess", "value": 3},
    ]
    storage.append("t1", 0, entries[:1], PLAYING, [])
    storage.append("t1", 1, entries[1:], FINISHED, [0])
    found = storage.load("t1")
    assert found is not None
    row, stored = found
    assert stored == entries
    assert (row.status, row.moves, row.winners) == (FINISHED, 2, [0])
    assert row.options == {"buzzards": 3, "tomahawks": True}
    assert [(s.kind, s.name, s.token_hash) for s in row.seats] == [
        ("human", "Ana", "h0"),
        ("human", None, None),
        ("bot", None, None),
    ]
    assert storage.load("nope") is None


def test_a_look_from_a_copy_at_the_current_version_reads_only_the_row(storage: Storage) -> None:
    storage.create(table_row("t9"))
    storage.claim_seat("t9", 0, "Ana", "h0")
    version = storage.append("t9", 0, [{"player": 0, "action": "guess", "value": 3}], PLAYING, [])
    found = storage.load_since("t9", 0, version)
    assert found is not None
    row, entries = found
    assert (row.version, row.moves, row.seats, entries) == (version, 1, [], [])
    found = storage.load_since("t9", 0, version - 1)  # a copy one change behind: everything
    assert found is not None
    row, entries = found
    assert entries == [{"player": 0, "action": "guess", "value": 3}]
    assert [s.name for s in row.seats] == ["Ana", None, None]


def test_versions_of_many_tables_are_each_tables_version(storage: Storage) -> None:
    """More tables than one look takes on SQLite, some of them moved on, some unknown."""
    ids = [f"v{n:03d}" for n in range(520)]
    for table_id in ids:
        storage.create(table_row(table_id))
    for table_id in ids[::7]:
        storage.claim_seat(table_id, 0, "Ana", f"h{table_id}")
    found = storage.versions([*ids, "nowhere"])
    assert set(found) == set(ids)
    for table_id in ids:
        stored = storage.load_since(table_id, 0, -1)
        assert stored is not None and found[table_id] == stored[0].version
    assert found[ids[7]] == found[ids[1]] + 1  # a seat taken counts the version up
    assert storage.versions([]) == {}


def test_a_seat_is_claimed_once(storage: Storage) -> None:
    storage.create(table_row("t2"))
    storage.claim_seat("t2", 1, "Bob", "hb")
    with pytest.raises(Conflict):
        storage.claim_seat("t2", 1, "Cy", "hc")
    with pytest.raises(Conflict):
        storage.claim_seat("t2", 2, "Cy", "hc")  # a bot's seat
    with pytest.raises(NameTaken):
        storage.claim_seat("t2", 0, "bOB", "hd")  # a name is one name whatever its case
    claim = storage.claim_seat("t2", 0, "Dee", "hd", host=True)
    assert [(s.name, s.token_hash) for s in claim.seats][:2] == [("Dee", "hd"), ("Bob", "hb")]
    assert claim.host_hash == "hd" and not claim.dealt


def test_a_bot_takes_over_a_seat_once_and_only_from_its_player(storage: Storage) -> None:
    storage.create(table_row("t5", PLAYING))
    storage.claim_seat("t5", 0, "Ana", "ha")
    storage.claim_seat("t5", 1, "Bob", "hb")
    with pytest.raises(Conflict):
        storage.hand_to_bot("t5", 1, "medium", "ha")  # not the token that holds seat 1
    storage.hand_to_bot("t5", 1, "medium", "hb")
    with pytest.raises(Conflict):
        storage.hand_to_bot("t5", 1, "hard", "hb")  # a bot plays it already
    with pytest.raises(Conflict):
        storage.hand_to_bot("t5", 2, "hard", "hb")  # a bot's seat from the start
    found = storage.load("t5")
    assert found is not None
    assert [(s.kind, s.level, s.name, s.token_hash) for s in found[0].seats] == [
        ("human", None, "Ana", "ha"),
        ("bot", "medium", "Bob", None),
        ("bot", "random", None, None),
    ]
    # the freed token hash may be handed out again (it is unique among seats)
    storage.create(table_row("t6"))
    storage.claim_seat("t6", 0, "Bob", "hb")


def test_an_entry_is_written_once(storage: Storage) -> None:
    storage.create(table_row("t3", PLAYING))
    storage.append("t3", 0, [{"player": 0, "action": "dispute"}], PLAYING, [])
    with pytest.raises(Conflict):
        storage.append("t3", 0, [{"player": 0, "action": "agree"}], PLAYING, [])
    with pytest.raises(Conflict):
        storage.append("t3", 5, [], PLAYING, [])  # the table is at entry 1, not 5
    found = storage.load("t3")
    assert found is not None and found[1] == [{"player": 0, "action": "dispute"}]


def test_two_writers_racing_for_one_entry(database: tuple[str, str | None]) -> None:
    """Two servers on one database: exactly one of them writes the entry."""
    stores = [Storage(database[0], schema=database[1]) for _ in range(2)]
    stores[0].create(table_row("t4", PLAYING))
    for index in range(8):
        barrier = threading.Barrier(2)
        outcome: list[str] = []

        def write(
            store: Storage,
            value: int,
            index: int = index,
            barrier: threading.Barrier = barrier,
            outcome: list[str] = outcome,
        ) -> None:
            barrier.wait()
            try:
                store.append(
                    "t4", index, [{"player": 0, "action": "guess", "value": value}], PLAYING, []
                )
                outcome.append("ok")
            except Conflict:
                outcome.append("conflict")

        threads = [threading.Thread(target=write, args=(s, i)) for i, s in enumerate(stores)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(outcome) == ["conflict", "ok"]
    found = stores[1].load("t4")
    assert found is not None and len(found[1]) == 8 and found[0].moves == 8
    for store in stores:
        store.close()


def test_listings_by_status(storage: Storage) -> None:
    for i, status in enumerate([WAITING, PLAYING, PLAYING, FINISHED]):
        storage.create(table_row(f"l{i}", status))
    assert sorted(storage.ids([WAITING, PLAYING])) == ["l0", "l1", "l2"]
    playing = storage.listing(PLAYING, 10)
    assert {t.id for t in playing} == {"l1", "l2"}
    assert all(len(t.seats) == 3 for t in playing)
    assert [t.id for t in storage.listing(FINISHED, 10)] == ["l3"]
    assert storage.listing(WAITING, 0) == []
    assert storage.count() == 4


def test_urls() -> None:
    assert engine_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert engine_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert engine_url("sqlite:///x.db") == "sqlite:///x.db"
    with pytest.raises(ValueError, match="not a database URL"):
        Storage("nonsense")


def test_a_server_on_each_database_plays_and_a_second_server_continues(
    serve: Callable[..., Client], database: tuple[str, str | None]
) -> None:
    url, schema = database
    first = serve(url, schema=schema)
    made = first.create("wakatanka", 3, {2: "random"}, name="Ana")
    bob = first.join(made["id"], "Bob")
    tokens = {0: made["token"], 1: bob["token"]}
    rng = random.Random(5)
    for _ in range(6):
        public = first.wait_for(made["id"], lambda s: s["table"]["to_move"] in tokens)
        seat = public["table"]["to_move"]
        mine = first.state(made["id"], tokens[seat])
        response = first.act(
            made["id"], tokens[seat], pick("wakatanka", mine["controls"], rng), mine["at"]
        )
        assert response.status_code == 200, response.text
    # a person's turn: no bot on the first server is about to move
    first.wait_for(made["id"], lambda s: s["table"]["to_move"] in tokens)
    before = {s: first.state(made["id"], t) for s, t in tokens.items()}
    second = serve(url, schema=schema)
    for s, token in tokens.items():
        after = second.state(made["id"], token)
        assert after["view"] == before[s]["view"] and after["at"] == before[s]["at"]
        assert [e["text"] for e in after["events"]] == [e["text"] for e in before[s]["events"]]
