"""A malformed action (from the page or the API) is refused in the reader's language, with its
stable key and arguments: the games' `action_from_json` reasons are message templates."""

from __future__ import annotations

from typing import Any

from campfire.i18n import translator
from tests.server.conftest import Client, Socket
from tests.server.test_languages import socket_in
from tests.server.test_languages_refusals import said_in


def error_for(sock: Socket, ref: int) -> Any:
    return sock.until(lambda m: m["type"] == "error" and m.get("id") == ref)


def test_malformed_pow_wow_actions_over_the_socket_in_french_and_german(client: Client) -> None:
    made = client.create("powwow", 2, name="Ana")
    bea = client.join(made["id"], "Bea")["token"]
    french = socket_in(client, made["id"], made["token"], query="fr")
    german = socket_in(client, made["id"], bea, accept="de-DE,de;q=0.9")
    french.recv()
    german.recv()
    sent: list[tuple[Socket, str, dict[str, Any]]] = [
        (french, "fr", {"action": "dance"}),
        (german, "de", {"action": "dance"}),
        (french, "fr", {"action": "guess"}),
        (german, "de", {"action": "guess", "value": "seven"}),
        (french, "fr", {"action": "guess", "value": 7, "colour": "red"}),
        (german, "de", {"action": "dispute", "value": 7}),
    ]
    answers = []
    for ref, (sock, _, action) in enumerate(sent, start=1):
        sock.send({"type": "act", "id": ref, "action": action})
        answers.append(error_for(sock, ref))
    assert [a["key"] for a in answers] == [
        "unknown action {action} ({game} actions: {actions})",
        "unknown action {action} ({game} actions: {actions})",
        "a guess needs a 'value'",
        "a guess is a whole number, not {value}",
        "unexpected key {key} in a guess",
        "unexpected key {key} in {action}",
    ]
    for answer, (_, lang, _) in zip(answers, sent, strict=True):
        assert answer["status"] == 422
        assert answer["reason"] == said_in(lang, answer), answer
        assert answer["reason"] != said_in("en", answer), answer
    assert answers[0]["args"] == answers[1]["args"]
    assert answers[0]["reason"] == (
        "action inconnue 'dance' (actions de Pow Wow : guess, dispute, agree, reverse)"
    )
    assert answers[2]["reason"] == "une annonce a besoin d'une 'value'"
    for sock in (french, german):
        sock.close()


def test_a_malformed_waka_tanka_action_over_the_api_in_german(client: Client) -> None:
    made = client.create("wakatanka", 3, name="Ana")
    client.join(made["id"], "Bea")
    client.join(made["id"], "Cy")
    de = {"Accept-Language": "de", "Authorization": f"Bearer {made['token']}"}
    tr = translator("de")
    bad = client.http.post(
        f"/api/tables/{made['id']}/actions",
        json={"action": {"action": "play", "tile": "moon", "card": "bear"}},
        headers=de,
    )
    assert bad.status_code == 422
    body = bad.json()
    assert body["key"] == "{value} is not a {what} (one of: {names})"
    assert body["args"]["value"] == "'moon'"
    assert body["error"] == tr.gettext(body["key"], **body["args"])
    assert body["error"] != body["key"].format(**body["args"])
    missing = client.http.post(
        f"/api/tables/{made['id']}/actions", json={"action": {"action": "spell"}}, headers=de
    )
    assert missing.json()["key"] == "a spell needs a {key}"
    assert missing.json()["error"] == tr.gettext("a spell needs a {key}", key="'tile'")
    assert missing.json()["error"] != "a spell needs a 'tile'"
    english = client.http.post(
        f"/api/tables/{made['id']}/actions",
        json={"action": {"action": "spell"}},
        headers={"Authorization": f"Bearer {made['token']}"},
    )
    assert english.json()["error"] == "a spell needs a 'tile'"
