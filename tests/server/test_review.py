"""`GET /api/tables/{id}/review`: only for a finished table, computed once in a worker process,
kept in the database, and shared by every spectator asking at once."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import httpx

from campfire.kernel import Record
from campfire.review import review_record
from tests.server.conftest import Client

LINEUP = {0: "random", 1: "easy", 2: "medium", 3: "expert"}


def finished_table(client: Client) -> str:
    table_id: str = client.create("powwow", 4, LINEUP)["id"]
    client.wait_for(table_id, lambda s: s["table"]["status"] == "finished")
    return table_id


async def ask_together(base: str, path: str, count: int) -> list[httpx.Response]:
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        return await asyncio.gather(*(http.get(path) for _ in range(count)))


def test_a_review_waits_for_the_end(client: Client) -> None:
    made = client.create("powwow", 2, {1: "random"}, name="Ana")
    early = client.http.get(f"/api/tables/{made['id']}/review")
    assert early.status_code == 409
    assert "ready when the game ends" in early.json()["error"]
    assert client.http.get("/api/tables/nosuchtable0/review").status_code == 404
    assert client.app.state.reviews.computed == 0


def test_a_hundred_spectators_cost_one_review(serve: Callable[..., Client]) -> None:
    client = serve()
    table_id = finished_table(client)
    path = f"/api/tables/{table_id}/review"
    answers = asyncio.run(ask_together(client.base, path, 100))
    assert [a.status_code for a in answers] == [200] * 100
    bodies = [a.json() for a in answers]
    assert all(body == bodies[0] for body in bodies)
    assert client.app.state.reviews.computed == 1
    assert client.app.state.storage.review(table_id) is not None  # kept in the database

    # the same review `campfire review` gives of the downloaded record, move by move
    record = Record.loads(client.http.get(f"/api/tables/{table_id}/record").text)
    local = review_record(record).to_full_json()
    doc: dict[str, Any] = bodies[0]
    assert {k: doc[k] for k in ("game", "players", "decisions", "seats")} == {
        k: local[k] for k in ("game", "players", "decisions", "seats")
    }
    moves = [i for i, raw in enumerate(record.moves) if "player" in raw]
    assert [d["index"] for d in doc["decisions"]] == moves
    assert set(doc["statistics"]) == {"0", "1", "2", "3"}
    assert {"disputes_right", "disputes_wrong", "guesses_held", "average_loss"} <= set(
        doc["statistics"]["0"]
    )
    assert doc["winners"] == record.replay().winners()

    # another server on the same database (a restart, another process) reads the kept one
    again = serve(seed=8)
    assert again.http.get(path).json() == bodies[0]
    assert again.app.state.reviews.computed == 0


def test_the_review_notes_are_told_in_the_requests_language(client: Client) -> None:
    from campfire.i18n import message_text, translator

    table_id = finished_table(client)
    path = f"/api/tables/{table_id}/review"
    english = client.http.get(path).json()
    german = client.http.get(path, params={"lang": "de"}).json()
    italian = client.http.get(path, headers={"Accept-Language": "it-IT,it;q=0.9"}).json()
    assert client.app.state.reviews.computed == 1  # one review, told three ways
    judged = [d for d in english["decisions"] if not d["forced"]]
    assert judged
    for told, lang in ((german, "de"), (italian, "it")):
        assert len(told["decisions"]) == len(english["decisions"])
        for en, other in zip(english["decisions"], told["decisions"], strict=True):
            assert other["note"] == message_text(en["note_message"], translator(lang))
            assert {k: v for k, v in other.items() if k != "note"} == {
                k: v for k, v in en.items() if k != "note"
            }
        assert all(
            o["note"] != e["note"]
            for e, o in zip(english["decisions"], told["decisions"], strict=True)
            if not e["forced"]
        )
    assert any("Geier" in d["note"] for d in german["decisions"])
    assert any("avvoltoio" in d["note"] for d in italian["decisions"])
