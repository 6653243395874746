"""The accounts' storage: sessions end when they run out or are closed, challenges answer once,
a deleted account leaves its seats under an anonymous name."""

from __future__ import annotations

import time
from pathlib import Path

from sqlalchemy import update

from campfire.accounts.sessions import id_hash
from campfire.server.store.accounts import AccountStore, AccountTaken
from campfire.server.store.schema import sessions_t
from campfire.server.store.storage import Storage


def store(tmp_path: Path) -> tuple[Storage, AccountStore]:
    storage = Storage(f"sqlite:///{tmp_path / 'accounts.sqlite3'}")
    return storage, AccountStore(storage.engine)


def test_names_are_unique_as_people_read_them(tmp_path: Path) -> None:
    storage, accounts = store(tmp_path)
    made = accounts.create("Alice", "$argon2id$x")
    try:
        accounts.create("АLICE", "$argon2id$y")  # Cyrillic А
        raise AssertionError("a look-alike name was stored")
    except AccountTaken:
        pass
    found = accounts.named("alice")
    assert found is not None and found.id == made.id
    storage.close()


def test_a_session_ends_when_it_runs_out_or_is_closed(tmp_path: Path) -> None:
    storage, accounts = store(tmp_path)
    account = accounts.create("Alice", "$argon2id$x")
    first = accounts.open_session(account.id)
    second = accounts.open_session(account.id, replaces=first)  # a sign-in rotates the id
    assert accounts.session(first) is None
    found = accounts.session(second)
    assert found is not None and found.name == "Alice"
    with storage.engine.begin() as db:
        db.execute(
            update(sessions_t)
            .where(sessions_t.c.id_hash == id_hash(second))
            .values(expires=time.time() - 1)
        )
    assert accounts.session(second) is None
    third = accounts.open_session(account.id)
    accounts.close_session(third)
    assert accounts.session(third) is None
    assert accounts.session_count(account.id) == 0
    storage.close()


def test_a_challenge_answers_once(tmp_path: Path) -> None:
    storage, accounts = store(tmp_path)
    handle = accounts.put_challenge(b"challenge bytes", None, 60)
    assert accounts.take_challenge(handle) == (b"challenge bytes", None)
    assert accounts.take_challenge(handle) is None
    late = accounts.put_challenge(b"late", None, -1)  # already expired
    assert accounts.take_challenge(late) is None
    storage.close()
