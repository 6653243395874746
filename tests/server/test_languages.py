"""Pages in the reader's language: `?lang=`, then the remembered choice (a cookie), then
`Accept-Language`, then English; `<html lang>` on every page, a picker to change it, the rules
of both games translated, and the page scripts' catalogue."""

from __future__ import annotations

import json
import re

import httpx
import pytest
from websockets.sync.client import connect

from campfire.i18n import LANGUAGES, translator
from tests.server.conftest import Client, Socket

OTHERS = ("fr", "de", "it", "es")
#: a sentence of each translated rules page, by game and language
RULES = {
    ("powwow", "fr"): "Chacun porte une plume",
    ("powwow", "de"): "Jeder trägt eine Feder",
    ("powwow", "it"): "Ognuno porta una piuma",
    ("powwow", "es"): "Cada uno lleva una pluma",
    ("wakatanka", "fr"): "Six tuiles animaux",
    ("wakatanka", "de"): "Sechs Tierplättchen",
    ("wakatanka", "it"): "Sei tessere animale",
    ("wakatanka", "es"): "Seis losetas de animales",
}


def fresh(client: Client) -> httpx.Client:
    """A browser with no cookie yet."""
    return httpx.Client(base_url=client.base, timeout=20)


@pytest.mark.parametrize("lang", OTHERS)
def test_the_lobby_speaks_the_browsers_language_or_the_asked_one(client: Client, lang: str) -> None:
    with fresh(client) as browser:
        page = browser.get("/", headers={"Accept-Language": f"{lang}-XX,{lang};q=0.9,en;q=0.5"})
        assert page.status_code == 200
        assert f'<html lang="{lang}"' in page.text
        assert translator(lang).gettext("Start a table") in page.text
        assert "Start a table" not in page.text
    with fresh(client) as browser:
        assert f'<html lang="{lang}"' in browser.get(f"/?lang={lang}").text


def test_asked_then_remembered_then_accept_language_then_english(client: Client) -> None:
    with fresh(client) as browser:
        assert '<html lang="en"' in browser.get("/").text
        assert '<html lang="en"' in browser.get("/", headers={"Accept-Language": "ja"}).text
        asked = browser.get("/?lang=it", headers={"Accept-Language": "de"})
        assert '<html lang="it"' in asked.text
        assert browser.cookies.get("lang") == "it"
        # remembered: beats the browser's language on the next page
        assert '<html lang="it"' in browser.get("/", headers={"Accept-Language": "de"}).text
        assert '<html lang="es"' in browser.get("/?lang=es").text
        assert browser.cookies.get("lang") == "es"
        # an unknown language asked is no choice: the remembered one stays
        assert '<html lang="es"' in browser.get("/?lang=tlh").text


def test_every_page_carries_its_language_and_a_picker(client: Client) -> None:
    made = client.create("powwow", 2, name="Ana")
    with fresh(client) as browser:
        for path in ("/", f"/t/{made['id']}", f"/replay/{made['id']}", "/rules/wakatanka"):
            page = browser.get(path, headers={"Accept-Language": "de"}).text
            assert '<html lang="de"' in page, path
            picker = re.search(r'<nav class="lang-picker"[^>]*>(.*?)</nav>', page)
            assert picker is not None, path
            for code in LANGUAGES:
                assert f'href="{path}?lang={code}"' in picker[1], (path, code)
            assert not re.search(r"\{\{|_\(", page), path  # every mark filled


@pytest.mark.parametrize(("game", "lang"), sorted(RULES))
def test_the_rules_of_both_games_in_each_language(client: Client, game: str, lang: str) -> None:
    with fresh(client) as browser:
        page = browser.get(f"/rules/{game}?lang={lang}")
        assert page.status_code == 200
        assert f'<html lang="{lang}"' in page.text
        assert RULES[(game, lang)] in page.text
        assert "The idea" not in page.text
        english = browser.get(f"/rules/{game}?lang=en").text
        assert "The idea" in english and RULES[(game, lang)] not in english


def test_the_scripts_catalogue_is_served_per_language(client: Client) -> None:
    with fresh(client) as browser:
        german = browser.get("/i18n/de.json").json()
        assert german["lang"] == "de"
        assert german["messages"]["Start a table"] == "Einen Tisch eröffnen"
        assert german["messages"]["command\x04dispute"] == "anzweifeln"
        assert browser.get("/i18n/en.json").json()["messages"] == {}
        refused = browser.get("/i18n/tlh.json")
        assert refused.status_code == 404
        assert "languages: en, fr, de, it, es" in refused.text


def socket_in(client: Client, table_id: str, token: str | None, **how: str) -> Socket:
    """A WebSocket whose reader chose a language: `?lang=` in the address (`query`), the
    remembered cookie (`cookie`) or the browser's `Accept-Language` (`accept`)."""
    url = f"{client.ws_base}/ws/tables/{table_id}"
    if "query" in how:
        url += f"?lang={how['query']}"
    headers = {}
    if "cookie" in how:
        headers["Cookie"] = f"lang={how['cookie']}"
    if "accept" in how:
        headers["Accept-Language"] = how["accept"]
    ws = connect(url, open_timeout=10, additional_headers=headers, legacy=True)
    ws.send(json.dumps({"type": "hello", "token": token}))
    return Socket(ws)


def test_two_seats_and_a_spectator_each_read_their_own_language(client: Client) -> None:
    made = client.create("powwow", 2, name="Ana")
    table_id = made["id"]
    second = client.join(table_id, "Bea")["token"]
    german = socket_in(client, table_id, made["token"], accept="de-DE,de;q=0.9")
    italian = socket_in(client, table_id, second, query="it")
    french = socket_in(client, table_id, None, cookie="fr")
    firsts = [s.recv() for s in (german, italian, french)]
    for sock in (german, italian, french):
        sock.drain(0.2)
    at = firsts[0]["at"]
    # out of turn: the refusal in the reader's language, with its key and arguments
    italian.send({"type": "act", "id": 1, "action": {"action": "guess", "value": 3}, "at": at})
    refused = italian.until(lambda m: m["type"] == "error")
    assert refused["reason"] == "tocca al posto 0, non al posto 1"
    assert refused["key"] == "it is seat {who}'s turn, not seat {seat}'s"
    assert refused["args"] == {"who": 0, "seat": 1}
    german.send({"type": "act", "id": 2, "action": {"action": "guess", "value": 7}, "at": at})
    told = [
        s.until(lambda m: m["type"] == "update" and m["at"] == at + 1)["events"]
        for s in (german, italian, french)
    ]
    # the same meaning (kind and data) for all, each told it in their own words
    assert {(e["kind"], str(e["data"])) for e in told[0]} == {
        (e["kind"], str(e["data"])) for e in told[2]
    }
    assert [e["text"] for e in told[0]] == ["Du tippst 7."]
    assert [e["text"] for e in told[1]] == ["Il posto 0 stima 7."]
    assert [e["text"] for e in told[2]] == ["La place 0 annonce 7."]
    # the opening narration, as each first read it
    assert "Die 36 Federn werden zum Stapel gemischt." in [e["text"] for e in firsts[0]["events"]]
    assert "Le 36 piume vengono mescolate nel mazzo." in [e["text"] for e in firsts[1]["events"]]
    for sock in (german, italian, french):
        sock.close()
    # what is kept carries no language: the state over HTTP in English, the chat untouched
    english = client.state(table_id, made["token"])
    assert "You guess 7." in [e["text"] for e in english["events"]]


def test_an_account_refusal_and_a_refused_page_in_the_requests_language(client: Client) -> None:
    wrong = {"name": "Nobody", "password": "not it at all"}
    de = client.http.post("/api/session", json=wrong, headers={"Accept-Language": "de"})
    en = client.http.post("/api/session", json=wrong)
    # the same shape, the reason in the asker's language
    assert en.status_code == de.status_code == 401
    assert en.json() == {
        "error": "wrong name or password",
        "key": "wrong name or password",
        "args": {},
    }
    assert de.json()["error"] == translator("de").gettext("wrong name or password")
    assert de.json()["key"] == en.json()["key"]
    assert de.json()["error"] != en.json()["error"]
    page = client.http.get("/rules/chess?lang=fr", headers={"Accept": "text/html"})
    fr = translator("fr")
    assert page.status_code == 404 and '<html lang="fr"' in page.text
    assert fr.gettext("Nothing here") in page.text and "Nothing here" not in page.text
    assert fr.gettext("Back to the lobby") in page.text
