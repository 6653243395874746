"""The accounts API on a real socket, as the contract says: sign up, sign in and out, who is
signed in, rated tables and seats of the account; and the hostile cases (cross-origin writes,
a session from before sign-in, look-alike names, the sign-in limit across two processes)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from campfire.accounts.sessions import COOKIE
from tests.server.conftest import (
    PG_URL,
    Client,
    free_port,
    run_server_process,
    wait_until_up,
)

Serve = Callable[..., Client]
PASSWORD = "correct horse battery"


def sign_up(client: Client, name: str, password: str = PASSWORD) -> httpx.Response:
    return client.http.post("/api/accounts", json={"name": name, "password": password})


def fresh(client: Client) -> httpx.Client:
    """Another browser: the same server, no cookies."""
    return httpx.Client(base_url=client.base, timeout=20)


def test_sign_up_sign_in_sign_out_as_the_contract_says(client: Client) -> None:
    made = sign_up(client, "Alice")
    assert made.status_code == 201 and made.json() == {"name": "Alice"}
    cookie = made.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    me = client.http.get("/api/me")
    assert me.status_code == 200 and me.json()["name"] == "Alice"

    # another browser: not signed in; signs in with any case of the name
    with fresh(client) as other:
        assert other.get("/api/me").status_code == 401
        signed = other.post("/api/session", json={"name": "alice", "password": PASSWORD})
        assert signed.status_code == 200 and signed.json() == {"name": "Alice"}
        assert other.get("/api/me").json()["name"] == "Alice"
        assert other.delete("/api/session").status_code == 204
        assert other.get("/api/me").status_code == 401

    # the first browser is still signed in, and signs out
    assert client.http.get("/api/me").status_code == 200
    assert client.http.delete("/api/session").status_code == 204
    assert client.http.get("/api/me").status_code == 401


def test_refusals_of_the_contract(client: Client) -> None:
    assert sign_up(client, "Alice").status_code == 201
    with fresh(client) as other:
        for name in ("alice", "ALICE", "Аlice", "ａlice"):  # case, Cyrillic А, fullwidth
            taken = other.post("/api/accounts", json={"name": name, "password": PASSWORD})
            assert taken.status_code == 409, name
            assert "taken" in taken.json()["error"]
        short = other.post("/api/accounts", json={"name": "Bob", "password": "1234567"})
        assert short.status_code == 422 and "at least 8" in short.json()["error"]
        common = other.post("/api/accounts", json={"name": "Bob", "password": "password1"})
        assert common.status_code == 422 and "common" in common.json()["error"]
        bad = other.post("/api/accounts", json={"name": "Bob Smith", "password": PASSWORD})
        assert bad.status_code == 422 and "letters, digits" in bad.json()["error"]
        seat = other.post("/api/accounts", json={"name": "Seat2", "password": PASSWORD})
        assert seat.status_code == 422 and "reserved" in seat.json()["error"]
        form = other.post("/api/accounts", data={"name": "Bob", "password": PASSWORD})
        assert form.status_code == 415
        assert other.get("/api/me").status_code == 401

        wrong = other.post("/api/session", json={"name": "Alice", "password": "not it at all"})
        unknown = other.post("/api/session", json={"name": "Nobody", "password": PASSWORD})
        assert wrong.status_code == unknown.status_code == 401
        assert wrong.content == unknown.content
        assert "set-cookie" not in wrong.headers


def test_the_password_is_kept_only_as_an_argon2id_hash(client: Client) -> None:
    from sqlalchemy import text

    assert sign_up(client, "Alice").status_code == 201
    with client.app.state.storage.engine.connect() as db:
        rows = db.execute(text("SELECT * FROM campfire_accounts")).all()
        sessions = db.execute(text("SELECT * FROM campfire_sessions")).all()
    assert len(rows) == 1
    stored = rows[0]._mapping["password_hash"]
    assert stored.startswith("$argon2id$")
    assert all(PASSWORD not in str(v) for row in rows for v in row)
    cookie = client.http.cookies[COOKIE]
    assert all(cookie not in str(v) for row in sessions for v in row)


def test_sign_out_everywhere_change_password_and_delete(client: Client) -> None:
    assert sign_up(client, "Alice").status_code == 201
    with fresh(client) as phone, fresh(client) as tablet:
        for device in (phone, tablet):
            assert (
                device.post(
                    "/api/session", json={"name": "Alice", "password": PASSWORD}
                ).status_code
                == 200
            )
        assert client.http.get("/api/me").json()["sessions"] == 3
        # a new password ends every other session
        changed = client.http.post(
            "/api/me/password", json={"current": PASSWORD, "password": "a new passphrase"}
        )
        assert changed.status_code == 200
        assert phone.get("/api/me").status_code == 401
        assert client.http.get("/api/me").status_code == 200
        assert (
            phone.post("/api/session", json={"name": "Alice", "password": PASSWORD}).status_code
            == 401
        )
        assert (
            phone.post(
                "/api/session", json={"name": "Alice", "password": "a new passphrase"}
            ).status_code
            == 200
        )
        # sign out everywhere
        assert phone.delete("/api/sessions").status_code == 204
        assert client.http.get("/api/me").status_code == 401
        assert tablet.get("/api/me").status_code == 401

    assert (
        client.http.post(
            "/api/session", json={"name": "Alice", "password": "a new passphrase"}
        ).status_code
        == 200
    )
    table = client.create("powwow", 2, {1: "random"}, name="whatever")
    assert table["table"]["seats"][0]["name"] == "Alice"
    wrong = client.http.request("DELETE", "/api/me", json={"password": "not the password"})
    assert wrong.status_code == 403
    gone = client.http.request("DELETE", "/api/me", json={"password": "a new passphrase"})
    assert gone.status_code == 204
    assert client.http.get("/api/me").status_code == 401
    # the game stays, under an anonymous name; the name is free again
    seats = client.http.get(f"/api/tables/{table['id']}").json()["seats"]
    assert seats[0]["name"] == "Former player"
    assert sign_up(client, "alice").status_code == 201


def test_seats_belong_to_the_account(client: Client) -> None:
    assert sign_up(client, "Alice").status_code == 201
    made = client.create("wakatanka", 3, {2: "random"}, name="Someone else")
    assert made["table"]["seats"][made["seat"]]["name"] == "Alice"
    # the seat token works as ever
    assert client.state(made["id"], made["token"])["view"]["seat"] == made["seat"]
    # a guest cannot take the account's name at a table
    with fresh(client) as guest:
        posing = guest.post(f"/api/tables/{made['id']}/join", json={"name": "ALICE"})
        assert posing.status_code == 409
        assert "account" in posing.json()["error"] or "already" in posing.json()["error"]
    # "Your games" on another device, signed in
    with fresh(client) as phone:
        phone.post("/api/session", json={"name": "Alice", "password": PASSWORD})
        tables = phone.get("/api/me").json()["tables"]
        assert [(t["id"], t["seat"]) for t in tables] == [(made["id"], made["seat"])]


def test_a_signed_in_device_without_the_token_takes_the_accounts_seat(client: Client) -> None:
    assert sign_up(client, "Alice").status_code == 201
    made = client.create("powwow", 3, {2: "random"}, name="Alice")
    with fresh(client) as guest:
        assert guest.post(f"/api/tables/{made['id']}/seat").status_code == 401
        guest.post("/api/accounts", json={"name": "Bob", "password": PASSWORD})
        nothing = guest.post(f"/api/tables/{made['id']}/seat")
        assert nothing.status_code == 404 and "no seat" in nothing.json()["error"]
    with fresh(client) as phone:
        phone.post("/api/session", json={"name": "Alice", "password": PASSWORD})
        got = phone.post(f"/api/tables/{made['id']}/seat")
        assert got.status_code == 200, got.text
        assert got.json()["seat"] == made["seat"] and got.json()["token"] != made["token"]
        assert client.state(made["id"], got.json()["token"])["view"]["seat"] == made["seat"]
        # the host's powers follow the seat: the phone may cancel the waiting table
        old = client.http.get(
            f"/api/tables/{made['id']}/state",
            headers={"Authorization": f"Bearer {made['token']}"},
        )
        assert old.status_code == 403
        cancel = phone.post(
            f"/api/tables/{made['id']}/cancel",
            headers={"Authorization": f"Bearer {got.json()['token']}"},
        )
        assert cancel.status_code == 200, cancel.text


def test_rated_tables_are_for_signed_in_people(client: Client) -> None:
    refused = client.http.post(
        "/api/tables", json={"game": "powwow", "players": 2, "rated": True, "name": "Ana"}
    )
    assert refused.status_code == 401 and "sign" in refused.json()["error"]
    assert sign_up(client, "Alice").status_code == 201
    made = client.create("powwow", 3, {2: "random"}, name="Alice", rated=True, listed=True)
    assert made["table"]["rated"] is True
    waiting = client.http.get("/api/tables").json()["waiting"]
    assert [(t["id"], t["rated"]) for t in waiting] == [(made["id"], True)]
    with fresh(client) as guest:
        join = guest.post(f"/api/tables/{made['id']}/join", json={"name": "Bob"})
        assert join.status_code in (401, 403)
        assert "rated" in join.json()["error"] and "sign" in join.json()["error"]
        guest.post("/api/accounts", json={"name": "Bob", "password": PASSWORD})
        joined = guest.post(f"/api/tables/{made['id']}/join", json={"name": "B"})
        assert joined.status_code == 200, joined.text
        assert joined.json()["table"]["seats"][joined.json()["seat"]]["name"] == "Bob"
        assert joined.json()["table"]["status"] == "playing"
        bob_token = joined.json()["token"]
        # both hand their seats to bots: the game plays to its end
        for token, seat in ((made["token"], made["seat"]), (bob_token, joined.json()["seat"])):
            handed = client.http.post(
                f"/api/tables/{made['id']}/seats/{seat}/bot",
                headers={"Authorization": f"Bearer {token}"},
            )
            assert handed.status_code == 200, handed.text
        client.wait_for(made["id"], lambda s: s["table"]["status"] == "finished", limit=120)
        # the next game is rated too: Bob's session cannot follow with Alice's seat token
        alice_token = {"Authorization": f"Bearer {made['token']}"}
        posing = guest.post(f"/api/tables/{made['id']}/again", headers=alice_token)
        assert posing.status_code == 403 and "another account" in posing.json()["error"]
    with fresh(client) as nobody:
        anonymous = nobody.post(f"/api/tables/{made['id']}/again", headers=alice_token)
        assert anonymous.status_code == 401 and "sign in" in anonymous.json()["error"]
    again = client.http.post(f"/api/tables/{made['id']}/again", headers=alice_token)
    assert again.status_code == 200, again.text
    nxt = again.json()["table"]
    assert nxt["rated"] is True and nxt["seats"][again.json()["seat"]]["name"] == "Alice"


def test_passkey_answers_that_do_not_check_out_are_refused(client: Client) -> None:
    headers = {"Origin": client.base}
    asked = client.http.post("/api/passkeys/signin/options", headers=headers)
    assert asked.status_code == 200
    options = asked.json()["options"]
    assert options["rpId"] == "127.0.0.1" and options["challenge"]
    forged = {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "response": {}}
    answer = client.http.post(
        "/api/passkeys/signin",
        json={"challenge": asked.json()["challenge"], "credential": forged},
        headers=headers,
    )
    assert answer.status_code == 401 and "no account" in answer.json()["error"]
    # the challenge was used up by that answer
    again = client.http.post(
        "/api/passkeys/signin",
        json={"challenge": asked.json()["challenge"], "credential": forged},
        headers=headers,
    )
    assert again.status_code == 400 and "expired" in again.json()["error"]
    # adding a passkey needs a session
    assert client.http.post("/api/passkeys/register/options").status_code == 401


# --- hostile ---------------------------------------------------------------------------------
def test_a_cross_origin_write_with_the_cookie_is_refused(client: Client) -> None:
    assert sign_up(client, "Alice").status_code == 201
    evil = {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}
    for method, path, body in [
        ("DELETE", "/api/sessions", None),
        ("POST", "/api/me/password", {"current": PASSWORD, "password": "evil passphrase"}),
        ("POST", "/api/tables", {"game": "powwow", "players": 2, "name": "x", "rated": True}),
        ("DELETE", "/api/me", {"password": PASSWORD}),
    ]:
        answer = client.http.request(method, path, json=body, headers=evil)
        assert answer.status_code == 403, (path, answer.text)
        assert "this site" in answer.json()["error"]
    # only the Origin, no fetch metadata (an older browser)
    answer = client.http.request(
        "DELETE", "/api/sessions", headers={"Origin": "http://evil.example"}
    )
    assert answer.status_code == 403
    assert client.http.get("/api/me").status_code == 200  # nothing happened
    # the server's own page may
    own = {"Origin": client.base, "Sec-Fetch-Site": "same-origin"}
    assert client.http.delete("/api/sessions", headers=own).status_code == 204


def test_a_session_from_before_sign_in_is_not_valid_after_it(client: Client) -> None:
    assert sign_up(client, "Alice").status_code == 201
    planted = client.http.cookies[COOKIE]  # e.g. set in a victim's browser by someone else
    with fresh(client) as victim:
        signed = victim.post(
            "/api/session",
            json={"name": "Alice", "password": PASSWORD},
            headers={"Cookie": f"{COOKIE}={planted}"},
        )
        assert signed.status_code == 200
        rotated = signed.cookies[COOKIE]
        assert rotated != planted
        # the id the browser held before signing in is worth nothing now
        with fresh(client) as attacker:
            attacker.cookies.set(COOKIE, planted)
            assert attacker.get("/api/me").status_code == 401
        assert victim.get("/api/me").status_code == 200


def test_script_in_a_name_is_refused_and_never_served_as_markup(client: Client) -> None:
    answer = sign_up(client, "<img src=x onerror=alert(1)>")
    assert answer.status_code == 422
    assert answer.headers["content-type"].startswith("application/json")


def test_sign_in_attempts_are_limited_with_retry_after(serve: Serve) -> None:
    client = serve(signin_per_account=3, signin_per_address=100)
    assert sign_up(client, "Alice").status_code == 201
    for _ in range(3):
        wrong = client.http.post("/api/session", json={"name": "Alice", "password": "nope nope"})
        assert wrong.status_code == 401
    limited = client.http.post("/api/session", json={"name": "ALICE", "password": PASSWORD})
    assert limited.status_code == 429
    assert int(limited.headers["retry-after"]) >= 1
    assert "too many" in limited.json()["error"]


def test_the_sign_in_limit_holds_across_two_processes(
    serve: Serve, pg_schema: str, redis_url: str
) -> None:
    options = {"schema": pg_schema, "redis_url": redis_url, "signin_per_account": 4}
    a = serve(PG_URL, **options)
    b = serve(PG_URL, **options)
    assert sign_up(a, "Alice").status_code == 201
    for client in (a, b, a, b):
        wrong = client.http.post("/api/session", json={"name": "Alice", "password": "nope nope"})
        assert wrong.status_code == 401
    for client in (a, b):
        limited = client.http.post("/api/session", json={"name": "Alice", "password": PASSWORD})
        assert limited.status_code == 429, limited.text
        assert int(limited.headers["retry-after"]) >= 1


@pytest.mark.parametrize("name", ["Аlice", "ALİCE", "Alicе", "ａｌｉｃｅ"])
def test_look_alike_names_are_refused(client: Client, name: str) -> None:
    assert sign_up(client, "alice").status_code == 201
    with fresh(client) as other:
        answer = other.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 409


def test_the_cookie_is_secure_when_a_trusted_proxy_says_https(tmp_path: Path) -> None:
    port = free_port()
    db = f"sqlite:///{tmp_path / 'proxied.sqlite3'}"
    process = run_server_process(db, port, "--forwarded-allow-ips", "127.0.0.1")
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_up(base, process)
        body = {"name": "Alice", "password": PASSWORD}
        over_https = httpx.post(
            base + "/api/accounts", json=body, headers={"X-Forwarded-Proto": "https"}
        )
        assert over_https.status_code == 201
        assert "; Secure" in over_https.headers["set-cookie"]
        plain = httpx.post(base + "/api/session", json=body)
        assert plain.status_code == 200
        assert "Secure" not in plain.headers["set-cookie"]
    finally:
        process.kill()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()
