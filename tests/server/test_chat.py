"""Table chat: seats and spectators talk over the table's WebSocket; every connection hears it,
a new one gets the history, refusals are clear, and the chat is kept with the table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.server.conftest import PG_URL, Client, Socket
from tests.server.test_wire import seat_sockets

Serve = Callable[..., Client]


def said(sock: Socket, text: str) -> Any:
    """The chat message with `text`, already received or still to come: live, or in the
    history a socket gets when it opens after the line was stored."""

    def line(message: Any) -> Any:
        if message["type"] == "chat" and message["text"] == text:
            return message
        if message["type"] == "chat_history":
            return next((m for m in message["messages"] if m.get("text") == text), None)
        return None

    for message in sock.received:
        if (found := line(message)) is not None:
            return found
    return line(sock.until(lambda m: line(m) is not None))


def error_for(sock: Socket, message: dict[str, Any]) -> Any:
    sock.send(message)
    return sock.until(lambda m: m["type"] in ("ok", "error") and m.get("id") == message["id"])


def test_seats_and_spectators_chat_and_everyone_hears(client: Client) -> None:
    table_id, tokens = seat_sockets(client, "powwow", 2)
    ana, bob = (client.socket(table_id, t) for t in tokens)
    watcher = client.socket(table_id)
    for sock in (ana, bob, watcher):
        assert sock.recv()["type"] == "update"
        assert sock.recv() == {"type": "chat_history", "messages": [], "length": 300}
    ana.send({"type": "chat", "id": 1, "text": "  good luck!  "})
    assert ana.until(lambda m: m["type"] in ("ok", "error")) == {"type": "ok", "id": 1}
    heard = [said(s, "good luck!") for s in (ana, bob, watcher)]
    assert all(set(m) == {"type", "seat", "name", "text", "at"} for m in heard)
    assert {(m["seat"], m["name"]) for m in heard} == {(0, "P0")}
    watcher.send({"type": "chat", "id": 2, "text": "go Bob"})
    from_watcher = said(bob, "go Bob")
    assert (from_watcher["seat"], from_watcher["name"]) == (None, "Spectator")
    # a spectator may give a name in hello; a reserved one or a player's is refused
    fan = client.socket(table_id, name="Big Fan")
    assert fan.recv()["type"] == "update"
    history = fan.recv()
    assert history["type"] == "chat_history"
    assert [(m["name"], m["text"]) for m in history["messages"]] == [
        ("P0", "good luck!"),
        ("Spectator", "go Bob"),
    ]
    fan.send({"type": "chat", "id": 3, "text": "hi"})
    assert said(ana, "hi")["name"] == "Big Fan"
    for name, status, word in (("You", 422, "reserved"), ("p1", 409, "called"), (7, 422, "name")):
        refused = client.socket(table_id, name=name).recv()
        assert refused["type"] == "error" and refused["fatal"], refused
        assert refused["status"] == status and word in refused["reason"], refused
    for sock in (ana, bob, watcher, fan):
        sock.close()


def test_chat_refusals_are_clear_and_rate_limited(client: Client) -> None:
    table_id, tokens = seat_sockets(client, "powwow", 2)
    ana = client.socket(table_id, tokens[0])
    for bad, word in (
        ("", "cannot be empty"),
        ("   ", "cannot be empty"),
        ("x" * 301, "at most 300 characters"),
        ("bell\u0007", "control or invisible"),
        ("zero\u200bwidth", "control or invisible"),
        (12, "'text' must be"),
        (None, "'text' must be"),
    ):
        answer = error_for(ana, {"type": "chat", "id": "bad", "text": bad})
        assert answer["type"] == "error" and answer["status"] == 422, answer
        assert word in answer["reason"], answer
    assert error_for(ana, {"type": "chat", "id": "x", "text": "x" * 300})["type"] == "ok"
    for i in range(4):
        assert error_for(ana, {"type": "chat", "id": i, "text": f"m{i}"})["type"] == "ok"
    limited = error_for(ana, {"type": "chat", "id": "many", "text": "one too many"})
    assert limited["type"] == "error" and limited["status"] == 429
    assert "at most 5 messages in 10 s" in limited["reason"]
    # the limit is the seat's, not the connection's: a second tab does not reset it
    second = client.socket(table_id, tokens[0])
    assert error_for(second, {"type": "chat", "id": "tab", "text": "again"})["status"] == 429
    # nothing refused was stored
    log = client.http.get(f"/api/tables/{table_id}/chat").json()["messages"]
    assert [m["text"] for m in log] == ["x" * 300, "m0", "m1", "m2", "m3"]
    ana.close()
    second.close()


def test_the_chat_survives_a_restart_and_is_not_in_the_record(serve: Serve, db_url: str) -> None:
    first = serve()
    made = first.create("powwow", 2, {1: "random"}, name="Ana")
    sock = first.socket(made["id"], made["token"])
    sock.send({"type": "chat", "id": 1, "text": "hello, bot"})
    said(sock, "hello, bot")
    sock.close()
    final = first.wait_for(made["id"], lambda s: s["table"]["status"] != "waiting")
    assert final["table"]["status"] in ("playing", "finished")
    again = serve(db_url)
    log = again.http.get(f"/api/tables/{made['id']}/chat").json()
    assert [(m["seat"], m["name"], m["text"]) for m in log["messages"]] == [
        (0, "Ana", "hello, bot")
    ]
    back = again.socket(made["id"], made["token"])
    assert back.recv()["type"] == "update"
    assert back.recv()["messages"][0]["text"] == "hello, bot"
    back.close()
    missing = again.http.get("/api/tables/abcdefghijkm/chat")
    assert missing.status_code == 404


def test_chat_reaches_sockets_on_another_process_in_order(
    serve: Serve, pg_schema: str, redis_url: str
) -> None:
    a, b = (serve(PG_URL, schema=pg_schema, redis_url=redis_url) for _ in range(2))
    made = a.create("powwow", 3, name="Ana")
    bob = b.join(made["id"], "Bob")
    on_a = a.socket(made["id"], made["token"])
    on_b = b.socket(made["id"], bob["token"])
    for sock in (on_a, on_b):
        sock.until(lambda m: m["type"] == "chat_history")
    texts = []
    for i in range(4):  # both seats talk at once, through both processes
        on_a.send({"type": "chat", "id": f"a{i}", "text": f"a{i}"})
        on_b.send({"type": "chat", "id": f"b{i}", "text": f"b{i}"})
        texts += [f"a{i}", f"b{i}"]
    streams = []
    for sock in (on_a, on_b):
        got: list[str] = []
        while len(got) < len(texts):
            got.append(sock.until(lambda m: m["type"] == "chat")["text"])
        streams.append(got)
    stored = [m["text"] for m in a.http.get(f"/api/tables/{made['id']}/chat").json()["messages"]]
    assert sorted(stored) == sorted(texts)
    assert streams == [stored, stored]  # every process tells the chat in the stored order
    on_a.close()
    on_b.close()
