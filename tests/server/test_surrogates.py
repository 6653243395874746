"""A lone surrogate (`"\\ud800"` in JSON) anywhere in a WebSocket message or a request body is
refused with a clear error, nothing is stored, and the connection goes on (issue 24, item 6)."""

from __future__ import annotations

import logging

import pytest

from tests.server.conftest import Client

LONE = "\\ud800"  # as it travels: a JSON escape of half a surrogate pair


def test_a_lone_surrogate_in_a_socket_message_is_refused_and_nothing_is_stored(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    made = client.create("powwow", 2, {1: "random"}, name="Ana")
    sock = client.socket(made["id"], made["token"])
    sock.until(lambda m: m["type"] == "chat_history")
    for raw in (
        f'{{"type": "ping", "id": "{LONE}"}}',
        f'{{"type": "chat", "text": "hello", "id": "{LONE}"}}',
        f'{{"type": "chat", "text": "he{LONE}llo", "id": 1}}',
        f'{{"type": "act", "action": {{"action": "guess", "{LONE}": 1}}, "id": 2}}',
    ):
        with caplog.at_level(logging.ERROR):
            sock.send(raw)
            answer = sock.until(lambda m: m["type"] == "error")
        assert answer["status"] == 400 and "lone surrogate" in answer["reason"], raw
    sock.send({"type": "ping", "id": 9})
    assert sock.until(lambda m: m["type"] == "pong") == {"type": "pong", "id": 9}
    assert client.http.get(f"/api/tables/{made['id']}/chat").json()["messages"] == []
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    sock.close()


def test_a_lone_surrogate_in_a_request_body_is_refused(client: Client) -> None:
    headers = {"Content-Type": "application/json"}
    for body in (
        f'{{"game": "powwow", "name": "An{LONE}a"}}',
        f'{{"game": "powwow", "options": {{"{LONE}": 1}}}}',
    ):
        response = client.http.post("/api/tables", content=body.encode(), headers=headers)
        assert response.status_code == 400, body
        assert "lone surrogate" in response.json()["error"]
    assert client.app.state.storage.count() == 0  # nothing was made
