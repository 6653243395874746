"""The server's refusals and quick messages in the reader's language: each refusal carries its
stable `key` and `args` (what it means) beside the `reason` (or the HTTP `error`) told in the
connection's or the request's language; an emote travels as its key and each reader sees it in
their own words."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

import campfire.accounts
import campfire.server
from campfire.i18n import refusal_text, translator
from campfire.server.http.accounts import too_many
from campfire.server.refusals import Refusal, from_meaning, meaning, ngettext, told
from campfire.server.tables.chat import CHAT_LENGTH
from campfire.server.tables.live import EMOTES
from tests.server.conftest import Client, Socket
from tests.server.test_languages import socket_in


def error_for(sock: Socket, ref: int) -> Any:
    return sock.until(lambda m: m["type"] == "error" and m.get("id") == ref)


def error_or_ok(sock: Socket, ref: int) -> Any:
    return sock.until(lambda m: m["type"] in ("error", "ok") and m.get("id") == ref)


def said_in(lang: str, message: dict[str, Any]) -> str:
    """What the refusal's key and args say in `lang`, as the server should have said it."""
    tr = translator(lang)
    args = dict(message["args"])
    plural = args.pop("plural", None)
    named: dict[str, Any] = {
        k: tr.number(v) if isinstance(v, float) else v for k, v in args.items()
    }
    if plural is not None:
        n = int(named.pop("n"))
        return tr.ngettext(message["key"], plural, n, **named)
    return tr.gettext(message["key"], **named)


def test_socket_refusals_in_french_and_german_keep_one_key(client: Client) -> None:
    made = client.create("powwow", 2, name="Ana")
    table_id = made["id"]
    bea = client.join(table_id, "Bea")["token"]
    french = socket_in(client, table_id, made["token"], query="fr")
    german = socket_in(client, table_id, bea, accept="de-DE,de;q=0.9")
    watcher = socket_in(client, table_id, None, cookie="de")
    at = french.recv()["at"]
    german.recv()
    watcher.recv()

    sent: list[tuple[Socket, dict[str, Any]]] = [
        (french, {"type": "dance"}),
        (german, {"type": "dance"}),
        (french, {"type": "chat", "text": "x" * (CHAT_LENGTH + 1)}),
        (german, {"type": "chat", "text": "x" * (CHAT_LENGTH + 1)}),
        (french, {"type": "chat", "text": "   "}),
        (german, {"type": "act", "action": {"action": "guess", "value": 3}, "at": at + 5}),
        (french, {"type": "act", "action": {"action": "guess", "value": 3}, "at": at + 5}),
        (watcher, {"type": "act", "action": {"action": "guess", "value": 3}}),
        (german, {"type": "chat", "emote": "shrug"}),
    ]
    answers = []
    for ref, (sock, message) in enumerate(sent, start=1):
        sock.send({**message, "id": ref})
        answers.append(error_for(sock, ref))
    keys = [a["key"] for a in answers]
    assert keys == [
        "unknown message type {kind!r} (types: {types})",
        "unknown message type {kind!r} (types: {types})",
        "a chat message has at most {limit} characters, not {length}",
        "a chat message has at most {limit} characters, not {length}",
        "a chat message cannot be empty",
        "the table has moved on since you looked (your move {at}, now {now}): nothing was applied",
        "the table has moved on since you looked (your move {at}, now {now}): nothing was applied",
        "spectators watch: join a seat to play",
        "'emote' must be one of the quick messages: {emotes}",
    ]
    langs = ["fr", "de", "fr", "de", "fr", "de", "fr", "de", "de"]
    for answer, lang in zip(answers, langs, strict=True):
        assert answer["reason"] == said_in(lang, answer), answer
        assert answer["reason"] != said_in("en", answer), answer
    # one meaning, two languages
    assert (
        answers[0]["args"]
        == answers[1]["args"]
        == {
            "kind": "dance",
            "types": "act, bot, chat, ping",
        }
    )
    assert answers[0]["reason"] == "type de message inconnu 'dance' (types : act, bot, chat, ping)"
    assert (
        answers[1]["reason"] == "unbekannter Nachrichtentyp 'dance' (Typen: act, bot, chat, ping)"
    )
    assert answers[2]["args"] == {"limit": CHAT_LENGTH, "length": CHAT_LENGTH + 1}
    assert answers[2]["reason"] == "un message a au plus 300 caractères, pas 301"
    assert answers[3]["reason"] == "eine Chatnachricht hat höchstens 300 Zeichen, nicht 301"
    assert answers[7]["status"] == 403
    assert answers[7]["reason"] == "Zuschauer sehen zu: nimm einen Platz, um zu spielen"
    for sock in (french, german, watcher):
        sock.close()


def test_the_chat_limit_says_the_wait_as_the_readers_number(client: Client) -> None:
    made = client.create("powwow", 2, name="Ana")
    client.join(made["id"], "Bea")
    french = socket_in(client, made["id"], made["token"], query="fr")
    french.recv()
    ref = 0
    while True:  # at most CHAT_RATE lines a window: the next is refused with 429
        ref += 1
        assert ref <= 20, "the chat never refused a line"
        french.send({"type": "chat", "id": ref, "text": f"line {ref}"})
        answer = error_or_ok(french, ref)
        if answer["type"] == "error":
            break
    assert answer["status"] == 429
    assert answer["key"] == "at most {limit} messages in {window} s: wait {wait} s"
    wait = answer["args"]["wait"]
    assert isinstance(wait, float) and 0 < wait <= answer["args"]["window"]
    # the seconds written the French way ("2,5"), in a French sentence
    assert answer["reason"].startswith("au plus 5 messages en 10 s : attendez ")
    assert answer["reason"].endswith(f" {translator('fr').number(wait)} s")
    french.close()


def test_a_waiting_table_counts_its_free_seats_in_each_language(client: Client) -> None:
    made = client.create("powwow", 3, name="Ana")
    french = socket_in(client, made["id"], made["token"], query="fr")
    at = french.recv()["at"]
    french.send({"type": "act", "id": 1, "action": {"action": "guess", "value": 3}, "at": at})
    answer = error_for(french, 1)
    assert answer["key"] == "the game has not started: {n} seat still free"
    assert answer["args"] == {"n": 2, "plural": "the game has not started: {n} seats still free"}
    assert answer["reason"] == "la partie n'a pas commencé : 2 places encore libres"
    english = client.act(made["id"], made["token"], {"action": "guess", "value": 3}, at)
    assert english.json()["error"] == "the game has not started: 2 seats still free"
    german = client.http.post(
        f"/api/tables/{made['id']}/actions",
        json={"action": {"action": "guess", "value": 3}, "at": at},
        headers={"Authorization": f"Bearer {made['token']}", "Accept-Language": "de"},
    )
    assert german.json()["error"] == "das Spiel hat nicht begonnen: 2 Plätze sind noch frei"
    assert german.json()["key"] == english.json()["key"] == answer["key"]
    french.close()


def test_a_fatal_refusal_at_hello_is_told_in_the_connections_language(client: Client) -> None:
    from websockets.sync.client import connect

    made = client.create("powwow", 2, name="Ana")
    url = f"{client.ws_base}/ws/tables/{made['id']}?lang=de"
    with connect(url, open_timeout=10, legacy=True) as ws:
        sock = Socket(ws)
        sock.send({"type": "hi"})
        refused = sock.until(lambda m: m["type"] == "error")
    assert refused["fatal"] is True and refused["status"] == 422
    assert refused["key"] == "the first message must be {hello}"
    assert refused["reason"] == 'die erste Nachricht muss {"type": "hello", "token": ...} sein'


def test_http_api_errors_in_spanish(client: Client) -> None:
    es = {"Accept-Language": "es-ES,es;q=0.9"}
    tr = translator("es")
    missing = client.http.get("/api/tables/nonesuch/state", headers=es)
    assert missing.status_code == 404
    assert missing.json() == {
        "error": "no hay ninguna mesa 'nonesuch'",
        "key": "there is no table {table_id!r}",
        "args": {"table_id": "nonesuch"},
    }
    made = client.create("powwow", 2, name="Ana")
    empty = client.http.post(f"/api/tables/{made['id']}/join", json={"name": "  "}, headers=es)
    assert empty.status_code == 422
    assert empty.json()["error"] == "un nombre no puede estar vacío"
    long = client.http.post(f"/api/tables/{made['id']}/join", json={"name": "n" * 30}, headers=es)
    assert long.json()["error"] == tr.gettext(
        "a name has at most {limit} characters, not {length}", limit=24, length=30
    )
    plain = client.http.post(
        "/api/tables", content=b"{}", headers={**es, "Content-Type": "text/plain"}
    )
    assert plain.status_code == 415
    assert plain.json()["error"] == (
        "el cuerpo debe enviarse como 'Content-Type: application/json', no 'text/plain'"
    )
    big = b'{"game": "' + b"x" * 20000 + b'"}'
    huge = client.http.post(
        "/api/tables", content=big, headers={**es, "Content-Type": "application/json"}
    )
    assert huge.status_code == 413
    assert huge.json()["key"] == "the request body has at most {limit} bytes"
    assert huge.json()["error"] == "el cuerpo de la petición tiene como máximo 8192 bytes"
    unknown = client.http.post("/nowhere/at/all", headers=es)
    assert unknown.status_code in (404, 405)
    assert unknown.json()["error"] in ("No encontrado", "Método no permitido")
    # the same requests without a language: English, the same keys
    english = client.http.get("/api/tables/nonesuch/state")
    assert english.json()["error"] == "there is no table 'nonesuch'"
    assert english.json()["key"] == missing.json()["key"]


def test_an_emote_from_a_french_seat_reads_german_to_a_german_seat(client: Client) -> None:
    made = client.create("powwow", 2, name="Ana")
    table_id = made["id"]
    bea = client.join(table_id, "Bea")["token"]
    french = socket_in(client, table_id, made["token"], query="fr")
    german = socket_in(client, table_id, bea, query="de")
    english = socket_in(client, table_id, None)
    for sock in (french, german, english):
        sock.recv()
    french.send({"type": "chat", "id": 1, "emote": "gg"})
    lines = [s.until(lambda m: m["type"] == "chat") for s in (french, german, english)]
    assert [line["emote"] for line in lines] == ["gg"] * 3
    assert [line["text"] for line in lines] == [
        translator(lang).gettext(EMOTES["gg"]) for lang in ("fr", "de", "en")
    ]
    assert len({line["text"] for line in lines}) == 3  # three languages, three wordings
    # a later reader in Italian finds it in the history in Italian
    italian = socket_in(client, table_id, None, query="it")
    history = italian.until(lambda m: m["type"] == "chat_history")
    said = [m for m in history["messages"] if m.get("emote") == "gg"]
    assert [m["text"] for m in said] == [translator("it").gettext("Good game")]
    # a typed line stays as typed for everyone, and a line cannot be both
    french.send({"type": "chat", "id": 2, "text": "Bluff!"})
    typed = german.until(lambda m: m["type"] == "chat" and "emote" not in m)
    assert typed["text"] == "Bluff!"
    german.send({"type": "chat", "id": 3, "text": "hi", "emote": "gg"})
    assert error_for(german, 3)["key"] == "a chat message is 'text' or an 'emote', not both"
    for sock in (french, german, english, italian):
        sock.close()


def test_the_emotes_differ_between_the_languages() -> None:
    for key, english in EMOTES.items():
        words = {translator(lang).gettext(english) for lang in ("fr", "de", "it", "es")}
        assert all(words), key
    assert translator("de").gettext(EMOTES["gg"]) != EMOTES["gg"]


def test_a_reason_inside_a_reason_and_a_count_are_told_in_the_language() -> None:
    inner = Refusal("seat {seat} is already taken", seat=2)
    outer = Refusal("{error}: nothing was changed", error=inner)
    assert str(outer) == "seat 2 is already taken: nothing was changed"
    assert (
        refusal_text(outer, translator("de")) == "Platz 2 ist schon besetzt: nichts wurde geändert"
    )
    assert meaning(outer) == (
        "{error}: nothing was changed",
        {"error": {"key": "seat {seat} is already taken", "args": {"seat": 2}}},
    )
    one = ngettext(
        "the game has not started: {n} seat still free",
        "the game has not started: {n} seats still free",
        1,
    )
    assert str(one) == "the game has not started: 1 seat still free"
    assert refusal_text(one, translator("it")) == "la partita non è iniziata: 1 posto ancora libero"
    message = told({"type": "error", "reason": ""}, one, "es")
    assert message["reason"] == "la partida no ha empezado: queda 1 asiento libre"
    assert message["key"] == "the game has not started: {n} seat still free"


def test_a_refusal_sent_by_another_process_is_told_whole_in_each_language() -> None:
    """An owner answers a forwarded act with its refusal's key and arguments; the asking
    process rebuilds it, a reason inside it and a count included, for its sockets."""
    inner = Refusal("seat {seat} is already taken", seat=2)
    outer = Refusal("{error}: nothing was changed", error=inner)
    again = from_meaning(*meaning(outer))  # type: ignore[arg-type]
    assert str(again) == str(outer)
    assert refusal_text(again, translator("de")) == refusal_text(outer, translator("de"))
    three = ngettext(
        "the game has not started: {n} seat still free",
        "the game has not started: {n} seats still free",
        3,
    )
    back = from_meaning(*meaning(three))  # type: ignore[arg-type]
    assert str(back) == "the game has not started: 3 seats still free"
    assert refusal_text(back, translator("it")) == refusal_text(three, translator("it"))
    assert "3" in refusal_text(back, translator("it")) and refusal_text(
        back, translator("it")
    ) != str(back)


def test_a_429_of_the_sign_in_says_its_reason_and_seconds_in_the_language() -> None:
    refused = too_many(Refusal("too many sign-in attempts for this account"), 2.2)
    assert refused.retry_after == 3
    assert refusal_text(refused.reason, translator("de")) == (
        "zu viele Anmeldeversuche für dieses Konto: versuche es in 3 s noch einmal"
    )
    assert refusal_text(refused.reason, translator("en")) == (
        "too many sign-in attempts for this account: try again in 3 s"
    )
    assert refusal_text(Refusal("wait {wait} s", wait=2.5), translator("fr")) == "wait 2,5 s"


#: the calls whose first text is a reason a person reads
REASONS = {
    "Refused": 1,
    "Conflict": 0,
    "BadName": 0,
    "BadPassword": 0,
    "PasskeyRefused": 0,
    "TooMany": 0,
    "too_many": 0,
}


def _plain(node: ast.expr) -> bool:
    """A text no catalogue could translate: a string literal, an f-string, or one put
    together from them (`"..." + ("..." if x else "")`)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return _plain(node.left) or _plain(node.right)
    if isinstance(node, ast.IfExp):
        return _plain(node.body) or _plain(node.orelse)
    return False


@pytest.mark.parametrize(
    "root", [Path(campfire.server.__file__).parent, Path(campfire.accounts.__file__).parent]
)
def test_no_server_refusal_is_plain_english(root: Path) -> None:
    """Every refusal the server and the accounts raise is a `Refusal` (a template and its
    values) or passes one on: none is a string literal or an f-string, which no catalogue
    could translate."""
    plain = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            at = REASONS.get(str(name))
            if at is None or len(node.args) <= at:
                continue
            if _plain(node.args[at]):
                plain.append(f"{path.relative_to(root)}:{node.lineno}")
    assert not plain, plain


@pytest.mark.parametrize("lang", ["fr", "de", "it", "es"])
def test_the_pseudo_locale_and_each_language_say_every_server_reason_otherwise(lang: str) -> None:
    samples = [
        "spectators watch: join a seat to play",
        "every seat at this table is taken: you can watch",
        "the host cancelled this table before it started",
        "this seat opened in another window: this one is closed",
    ]
    for sample in samples:
        assert translator(lang).gettext(sample) != sample
        assert translator("xx").gettext(sample) != sample
