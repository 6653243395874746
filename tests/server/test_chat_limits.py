"""The chat cannot be silenced from one address: spectators share one rate limit per address,
and a full chat rolls over instead of closing (issue 24, item 2)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from campfire.server.tables import chat
from tests.server.conftest import Client
from tests.server.test_chat import error_for, said

Serve = Callable[..., Client]


def test_many_spectator_sockets_from_one_address_share_one_rate_limit(client: Client) -> None:
    made = client.create("powwow", 2, {1: "random"}, name="Ana", listed=True)
    crowd = [client.socket(made["id"]) for _ in range(8)]
    answers = [
        error_for(sock, {"type": "chat", "id": i, "text": f"spam {i}"})
        for i, sock in enumerate(crowd)
    ]
    limit = chat.CHAT_RATE[0]
    assert [a["type"] for a in answers] == ["ok"] * limit + ["error"] * (8 - limit)
    assert all(a["status"] == 429 for a in answers[limit:])
    # a seated player still talks: their budget is their seat's own
    ana = client.socket(made["id"], made["token"])
    assert error_for(ana, {"type": "chat", "id": "ana", "text": "still here"})["type"] == "ok"
    for sock in [*crowd, ana]:
        sock.close()


def test_a_full_chat_rolls_over_and_stays_open(
    serve: Serve, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(chat, "CHAT_KEPT", 5)
    monkeypatch.setattr(chat, "CHAT_RATE", (100, 10.0))
    first = serve()
    made = first.create("powwow", 2, {1: "random"}, name="Ana")
    sock = first.socket(made["id"], made["token"])
    for i in range(8):
        assert error_for(sock, {"type": "chat", "id": i, "text": f"line {i}"})["type"] == "ok"
    kept = first.http.get(f"/api/tables/{made['id']}/chat").json()["messages"]
    assert [m["text"] for m in kept] == [f"line {i}" for i in range(3, 8)]
    sock.close()
    again = serve(db_url)  # a restart reads only what is kept, and goes on from there
    back = again.socket(made["id"], made["token"])
    history = back.until(lambda m: m["type"] == "chat_history")
    assert [m["text"] for m in history["messages"]] == [f"line {i}" for i in range(3, 8)]
    assert error_for(back, {"type": "chat", "id": "more", "text": "line 8"})["type"] == "ok"
    assert said(back, "line 8")["name"] == "Ana"
    kept = again.http.get(f"/api/tables/{made['id']}/chat").json()["messages"]
    assert [m["text"] for m in kept] == [f"line {i}" for i in range(4, 9)]
    back.close()
