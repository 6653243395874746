"""Names at a table are compared as people read them: look-alikes (another script's letters,
compatibility forms, case, accents) cannot sit beside each other; emoji joined with a
zero-width joiner are ordinary names (issue 24, item 11)."""

from __future__ import annotations

from campfire.server.names import invisible, name_key
from tests.server.conftest import Client
from tests.server.test_chat import error_for

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # man, woman, girl: one emoji
LOOKALIKES = (
    "\u0410lice",  # Cyrillic capital A
    "ALİCE",  # Latin capital I with a dot: folds to "i" and a combining dot
    "Ａｌｉｃｅ",  # fullwidth
    "alic\u0435",  # Cyrillic small ie
    "Alicé",
)


def test_look_alike_names_cannot_sit_beside_each_other(client: Client) -> None:
    made = client.create("powwow", 4, name="Alice")
    for name in LOOKALIKES:
        assert name_key(name) == name_key("Alice"), name
        response = client.http.post(f"/api/tables/{made['id']}/join", json={"name": name})
        assert response.status_code == 409, (name, response.text)
        assert "already called" in response.json()["error"]
        watcher = client.socket(made["id"], name=name)
        refused = watcher.until(lambda m: m["type"] == "error")
        assert refused["status"] == 409 and refused["fatal"], name
        watcher.close()
    assert client.join(made["id"], "Alicia")["seat"] == 1  # another name is another name


def test_emoji_joined_by_a_zero_width_joiner_are_a_name_and_a_chat_line(client: Client) -> None:
    made = client.create("powwow", 2, {1: "random"}, name=FAMILY)
    assert made["table"]["seats"][0]["name"] == FAMILY
    sock = client.socket(made["id"], made["token"])
    answer = error_for(sock, {"type": "chat", "id": 1, "text": f"hello {FAMILY}\ufe0f"})
    assert answer["type"] == "ok", answer
    sock.close()
    # a joiner that joins no emoji is still an invisible character
    for hidden in ("a\u200db", "\U0001f468\u200d", "\u200d\U0001f469", "x\u200d\U0001f469"):
        assert invisible(hidden), hidden
        response = client.http.post("/api/tables", json={"game": "powwow", "name": hidden})
        assert response.status_code == 422 and "invisible" in response.json()["error"]
