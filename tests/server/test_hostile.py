"""Malformed and hostile requests: always a 4xx with a reason, never a 500 or a hang."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.conftest import Client


def reason(response: httpx.Response) -> str:
    assert 400 <= response.status_code < 500, (response.status_code, response.text)
    try:
        return str(response.json()["error"])
    except ValueError:
        return response.text


def test_bodies_that_are_not_what_the_api_expects(client: Client) -> None:
    post = client.http.post
    headers = {"Content-Type": "application/json"}
    assert "not valid JSON" in reason(post("/api/tables", content=b"{nope", headers=headers))
    assert "needs a JSON body" in reason(post("/api/tables", content=b""))
    assert "JSON object" in reason(post("/api/tables", json=[1, 2]))
    assert "game" in reason(post("/api/tables", json={}))
    assert "extra" in reason(post("/api/tables", json={"game": "powwow", "hack": 1})).lower()
    assert "players" in reason(post("/api/tables", json={"game": "powwow", "players": "four"}))
    deep = b"[" * 5000 + b"]" * 5000
    assert post("/api/tables", content=deep, headers=headers).status_code == 413
    nested = b"[" * 1000 + b"]" * 1000
    reason(post("/api/tables", content=nested, headers=headers))
    huge_int = b'{"game": "powwow", "players": ' + b"9" * 5000 + b"}"
    assert "not valid JSON" in reason(post("/api/tables", content=huge_int, headers=headers))
    digits = b'{"game": "powwow", "players": ' + b"9" * 4000 + b"}"
    assert "players" in reason(post("/api/tables", content=digits, headers=headers))
    utf = '{"game": "pow\udcffwow"}'.encode("utf-8", "surrogatepass")
    reason(post("/api/tables", content=utf, headers=headers))


def test_bodies_and_names_are_bounded(client: Client) -> None:
    big = {"game": "powwow", "name": "x" * 20_000}
    response = client.http.post("/api/tables", json=big)
    assert response.status_code == 413
    long_name = client.http.post("/api/tables", json={"game": "powwow", "name": "x" * 25})
    assert "at most 24 characters" in reason(long_name)
    for bad in ("", "   ", "\u0000abc", "a\u200bb", "tab\there\u0007"):
        response = client.http.post("/api/tables", json={"game": "powwow", "name": bad})
        assert response.status_code == 422, bad
    spaced = client.http.post("/api/tables", json={"game": "powwow", "name": "  Ana   Lee "})
    assert spaced.status_code == 201 and spaced.json()["table"]["seats"][0]["name"] == "Ana Lee"
    table = client.create("powwow", 2)
    too_long = client.http.post(f"/api/tables/{table['id']}/join", json={"name": "é" * 30})
    assert "at most 24" in reason(too_long)


def test_tokens_ids_and_headers(client: Client) -> None:
    made = client.create("powwow", 2, name="Ana")
    table_id = made["id"]
    for header in ("Basic abc", "Bearer", "Bearer " + "x" * 200, "token"):
        response = client.http.get(
            f"/api/tables/{table_id}/state", headers={"Authorization": header}
        )
        assert response.status_code == 401, header
    for table in ("x", "../etc/passwd", "ABCDEFGHJKMN", "a" * 500, "%00"):
        response = client.http.get(f"/api/tables/{table}")
        assert response.status_code == 404, table
    response = client.http.get(f"/api/tables/{table_id}/replay", params={"step": "many"})
    assert response.status_code == 422


def test_hostile_actions_are_refused(client: Client) -> None:
    made = client.create("powwow", 2, name="Ana", options={"tomahawks": True})
    client.join(made["id"], "Bob")
    at = client.state(made["id"], made["token"])["at"]
    refusals: list[dict[str, Any]] = [
        {"action": "guess"},
        {"action": "guess", "value": "12"},
        {"action": "guess", "value": 12.5},
        {"action": "guess", "value": True},
        {"action": "guess", "value": 10**30},
        {"action": "guess", "value": -21},
        {"action": "guess", "value": 239},
        {"action": "guess", "value": 5, "extra_feather_to": 0},
        {"action": "guess", "value": 5, "extra_feather_to": 9},
        {"action": "guess", "value": 5, "extra_feather_to": -1},
        {"action": "guess", "value": 5, "extra_feather_to": [1]},
        {"action": "guess", "value": 5, "extra": 1},
        {"action": "dispute"},
        {"action": "agree"},
        {"action": "play", "tile": "owl", "card": "owl"},
        {"action": None},
        {},
    ]
    for action in refusals:
        response = client.act(made["id"], made["token"], action, at)
        assert response.status_code in (409, 422), (action, response.text)
        assert response.json()["error"]
    for body in (
        {"action": "guess"},
        {"action": {}, "at": -1},
        {"action": {}, "at": "x"},
        {"action": {"action": "dispute"}, "at": at, "seat": 1},
    ):
        response = client.http.post(
            f"/api/tables/{made['id']}/actions",
            json=body,
            headers={"Authorization": f"Bearer {made['token']}"},
        )
        assert response.status_code == 422, (body, response.text)
    assert client.state(made["id"])["at"] == at


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)
action_like = st.fixed_dictionaries(
    {"action": st.sampled_from(["guess", "dispute", "agree", "reverse", "play", "x", 3])},
    optional={"value": json_values, "extra_feather_to": json_values, "tile": json_values},
)


@pytest.fixture
def roomy(serve: Callable[..., Client]) -> Client:
    """A server that lets one address open a table per example (sixty in a few seconds)."""
    return serve(tables_per_minute=1_000)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=st.one_of(
        json_values, st.fixed_dictionaries({"action": action_like}, optional={"at": json_values})
    )
)
def test_random_bodies_never_break_the_server(roomy: Client, body: Any) -> None:
    client = roomy
    made = client.create("powwow", 2, name="Ana", options={"tomahawks": True})
    client.join(made["id"], "Bob")
    for path in (
        "/api/tables",
        f"/api/tables/{made['id']}/join",
        f"/api/tables/{made['id']}/actions",
    ):
        response = client.http.post(
            path,
            content=json.dumps(body).encode(),
            headers={
                "Content-Type": "application/json",
                "Authorization": f"Bearer {made['token']}",
            },
        )
        assert response.status_code < 500, (path, body, response.text)
        if response.status_code >= 400:
            assert response.json()["error"]


def test_hostile_websocket_messages(client: Client) -> None:
    made = client.create("powwow", 2, name="Ana")
    client.join(made["id"], "Bob")
    sock = client.socket(made["id"], made["token"])
    opening = sock.recv()
    for raw, expected in (
        ("not json", "must be JSON"),
        ("[1, 2]", "JSON object"),
        (json.dumps({"type": "dance"}), "unknown message type"),
        (json.dumps({"type": "act"}), "action"),
        (json.dumps({"type": "act", "action": {"action": "guess", "value": "x"}}), "whole number"),
        (json.dumps({"type": "act", "action": {"action": "guess", "value": 3}, "at": -5}), "at"),
        ("x" * 5000, "at most"),
        (b"\xff\xfe binary", "must be JSON"),
    ):
        sock.send(raw)
        answer = sock.until(lambda m: m["type"] == "error")
        assert expected in answer["reason"], (raw[:40], answer)
    sock.send({"type": "ping", "id": 9})
    assert sock.until(lambda m: m["type"] == "pong") == {"type": "pong", "id": 9}
    assert client.state(made["id"])["at"] == opening["at"]
    sock.close()


def test_a_websocket_must_say_hello_with_a_valid_token(client: Client) -> None:
    made = client.create("powwow", 2, name="Ana")
    from websockets.sync.client import connect

    url = f"{client.ws_base}/ws/tables/{made['id']}"
    with connect(url) as ws:
        ws.send(json.dumps({"type": "act", "action": {"action": "dispute"}}))
        answer = json.loads(ws.recv(timeout=10))
        assert answer["fatal"] and "first message" in answer["reason"]
    with connect(url) as ws:
        ws.send(json.dumps({"type": "hello", "token": 5}))
        assert "seat token" in json.loads(ws.recv(timeout=10))["reason"]
    with connect(f"{client.ws_base}/ws/tables/nosuchtable1") as ws:
        answer = json.loads(ws.recv(timeout=10))
        assert answer["status"] == 404 and answer["fatal"]


def test_one_address_opens_only_so_many_tables_a_minute(serve: Callable[..., Client]) -> None:
    client = serve(tables_per_minute=3)
    body = {"game": "powwow", "players": 2, "bots": {"1": "random"}}
    refused = client.http.post("/api/tables", json={**body, "players": 99})
    assert refused.status_code == 422  # a refused table does not count
    made = [client.http.post("/api/tables", json=body) for _ in range(3)]
    assert [r.status_code for r in made] == [201, 201, 201]
    before = client.http.get("/api/tables").json()
    over = client.http.post("/api/tables", json=body)
    assert over.status_code == 429
    assert "3 a minute" in reason(over) and "try again in" in reason(over)
    assert client.http.get("/api/tables").json() == before  # nothing was made
    table = made[0].json()["id"]
    assert client.join(table, "Ana")["seat"] == 0  # joining and playing are not limited
