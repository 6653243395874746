"""Private tables: only listed tables reach the lobby (in pages), the host may send someone away
from the waiting room, waiting tables expire, and one address has only so many waiting."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import httpx

from tests.server.conftest import Client

Serve = Callable[..., Client]


def refused(response: httpx.Response, status: int, *words: str) -> str:
    assert response.status_code == status, response.text
    reason: str = response.json()["error"]
    for word in words:
        assert word in reason, reason
    return reason


def remove(client: Client, table_id: str, seat: int | str, token: str | None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.http.post(f"/api/tables/{table_id}/seats/{seat}/remove", headers=headers)


def test_tables_are_private_unless_listed_and_the_lobby_comes_in_pages(client: Client) -> None:
    private = client.create("powwow", 3, name="Ana")
    assert private["table"]["listed"] is False and private["table"]["host"] == 0
    listed = [client.create("powwow", 3, name=f"Host{i}", listed=True)["id"] for i in range(5)]
    lobby = client.http.get("/api/tables").json()
    assert set(lobby) == {"waiting", "playing", "finished", "paging"}
    ids = [t["id"] for t in lobby["waiting"]]
    assert private["id"] not in ids and set(ids) == set(listed)
    assert lobby["paging"] == {
        "offset": 0,
        "limit": 30,
        "total": {"waiting": 5, "playing": 0, "finished": 0},
        "more": {"waiting": False, "playing": False, "finished": False},
    }
    # the private table is still reachable by its link
    assert client.http.get(f"/api/tables/{private['id']}").status_code == 200
    first = client.http.get("/api/tables", params={"limit": 2}).json()
    second = client.http.get("/api/tables", params={"limit": 2, "offset": 2}).json()
    last = client.http.get("/api/tables", params={"limit": 2, "offset": 4}).json()
    pages = [[t["id"] for t in page["waiting"]] for page in (first, second, last)]
    assert [len(p) for p in pages] == [2, 2, 1]
    assert sorted(itertools.chain(*pages)) == sorted(listed)
    assert first["paging"]["more"]["waiting"] and not last["paging"]["more"]["waiting"]
    for params, word in (
        ({"limit": 0}, "limit must be between 1 and 100"),
        ({"limit": 101}, "limit must be between 1 and 100"),
        ({"offset": -1}, "offset must be between 0 and 10000"),
        ({"offset": "two"}, "offset must be a whole number"),
        ({"limit": "1e3"}, "limit must be a whole number"),
    ):
        refused(client.http.get("/api/tables", params=params), 422, word)


def test_the_host_removes_someone_from_the_waiting_room(client: Client) -> None:
    made = client.create("powwow", 4, name="Ana")
    bob = client.join(made["id"], "Bob")
    cy = client.join(made["id"], "Cy")
    table_id, host = made["id"], made["token"]
    bobs_socket = client.socket(table_id, bob["token"])
    assert bobs_socket.recv()["view"]["seat"] == 1
    refused(remove(client, table_id, 1, None), 401, "only the host")
    refused(remove(client, table_id, 1, cy["token"]), 403, "only the host")
    refused(remove(client, table_id, 1, "x" * 30), 403, "only the host")
    refused(remove(client, table_id, 9, host), 404, "no seat 9")
    refused(remove(client, table_id, 0, host), 409, "cannot remove yourself")
    refused(remove(client, table_id, 3, host), 409, "seat 3 is free")
    refused(remove(client, table_id, "one", host), 422, "seat")
    done = remove(client, table_id, 1, host)
    assert done.status_code == 200, done.text
    seats = done.json()["table"]["seats"]
    assert [(s["name"], s["taken"]) for s in seats] == [
        ("Ana", True),
        (None, False),
        ("Cy", True),
        (None, False),
    ]
    # Bob's socket is told, and watches from now on
    notice = bobs_socket.until(lambda m: m["type"] == "seat")
    assert notice["seat"] is None and "host removed you" in notice["reason"]
    watching = bobs_socket.until(lambda m: m["type"] == "update")
    assert watching["view"]["seat"] is None
    bobs_socket.send({"type": "act", "id": 1, "action": {"action": "dispute"}})
    assert bobs_socket.until(lambda m: m["type"] == "error")["status"] == 403
    bobs_socket.close()
    # the removed token stops working, on the API and on a new socket
    refused(
        client.http.get(
            f"/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {bob['token']}"}
        ),
        403,
        "host removed",
    )
    again = client.socket(table_id, bob["token"])
    denied = again.recv()
    assert denied["type"] == "error" and denied["fatal"] and "host removed" in denied["reason"]
    refused(remove(client, table_id, 1, host), 409, "seat 1 is free")
    # once the game starts, nobody can be removed
    client.join(table_id, "Dee")
    client.join(table_id, "Eve")
    assert client.state(table_id)["table"]["status"] == "playing"
    refused(remove(client, table_id, 2, host), 409, "the game has started")


def test_a_table_made_without_a_name_has_no_host(client: Client) -> None:
    made = client.create("powwow", 3)
    bob = client.join(made["id"], "Bob")
    assert client.http.get(f"/api/tables/{made['id']}").json()["host"] is None
    refused(remove(client, made["id"], 0, bob["token"]), 403, "only the host")


def test_waiting_tables_expire_and_are_not_restored(serve: Serve, db_url: str) -> None:
    short = 1.5 / 3600  # a second and a half
    client = serve(waiting_hours=short)
    waiting = client.create("powwow", 3, name="Ana", listed=True)
    playing = client.create("powwow", 2, name="Ana", listed=True)
    client.join(playing["id"], "Bob")
    watcher = client.socket(waiting["id"])
    assert watcher.recv()["type"] == "update"
    closed = watcher.until(lambda m: m["type"] == "error", timeout=20)
    assert closed["status"] == 410 and closed["fatal"]
    hub = client.app.state.hub
    assert waiting["id"] not in hub.tables and playing["id"] in hub.tables
    join = client.http.post(f"/api/tables/{waiting['id']}/join", json={"name": "Bob"})
    refused(join, 410, "waited", "has closed")
    refused(client.http.get(f"/api/tables/{waiting['id']}"), 410, "has closed")
    lobby = client.http.get("/api/tables").json()
    assert lobby["waiting"] == [] and [t["id"] for t in lobby["playing"]] == [playing["id"]]
    # a playing table never expires; a new server restores it, and not the expired one
    again = serve(db_url, waiting_hours=short)
    assert set(again.app.state.hub.tables) == {playing["id"]}
    refused(again.http.post(f"/api/tables/{waiting['id']}/join", json={"name": "Cy"}), 410)


def test_one_address_has_only_so_many_waiting_tables(serve: Serve) -> None:
    client = serve(waiting_per_address=3)
    made = [client.create("powwow", 2, name="Ana") for _ in range(3)]
    reason = refused(
        client.http.post("/api/tables", json={"game": "powwow", "players": 2}),
        429,
        "3 tables opened from your address are still waiting",
    )
    assert "3 at most" in reason
    # a table of bots only waits for nobody; a table that starts frees a place
    assert (
        client.http.post(
            "/api/tables",
            json={"game": "powwow", "players": 2, "bots": {"0": "random", "1": "random"}},
        ).status_code
        == 201
    )
    client.join(made[0]["id"], "Bob")
    assert client.http.post("/api/tables", json={"game": "powwow", "players": 2}).status_code == 201


def test_reserved_names_are_refused(client: Client) -> None:
    table = client.create("powwow", 3)
    for name in ("You", "you", "Seat 2", "seat3", "BOT 1", "Medium", "random", "Spectator"):
        for response in (
            client.http.post("/api/tables", json={"game": "powwow", "name": name}),
            client.http.post(f"/api/tables/{table['id']}/join", json={"name": name}),
        ):
            refused(response, 422, "is reserved")
    assert client.join(table["id"], "Seattle")["seat"] == 0
    assert client.join(table["id"], "Bottom")["seat"] == 1
    # names differing only in case are the same name at a table
    clash = client.http.post(f"/api/tables/{table['id']}/join", json={"name": "SEATTLE"})
    refused(clash, 409, "already called")
