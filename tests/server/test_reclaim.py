"""A seat the turn clock gave to a bot can be taken back with its token while the game goes on,
and its player can follow "Play again" (issue 24, item 12)."""

from __future__ import annotations

from collections.abc import Callable

from tests.server.conftest import Client
from tests.server.test_clock import CHOICES

Serve = Callable[..., Client]


def reclaim(client: Client, table_id: str, token: str) -> tuple[int, dict[str, object]]:
    response = client.http.post(
        f"/api/tables/{table_id}/reclaim", headers={"Authorization": f"Bearer {token}"}
    )
    return response.status_code, response.json()


def test_a_seat_lost_to_the_clock_is_taken_back_with_its_token(serve: Serve) -> None:
    client = serve(clock_choices=CHOICES, bot_pause=0.5)
    made = client.create("powwow", 2, {1: "random"}, name="Ana", clock=1)
    ana = client.socket(made["id"], made["token"])
    lost = ana.until(lambda m: m["type"] == "seat")
    assert lost["seat"] is None and lost["reclaim"] is True
    taken = client.state(made["id"])["table"]["seats"][0]
    assert (taken["kind"], taken["name"]) == ("bot", "Ana")
    status, body = reclaim(client, made["id"], made["token"])
    assert status == 200 and body["seat"] == 0, body
    back = client.state(made["id"], made["token"])
    assert back["view"]["seat"] == 0 and back["table"]["seats"][0]["kind"] == "human"
    assert back["table"]["seats"][0]["name"] == "Ana"
    # once back, the token is the seat's again: a second take-back has nothing to take
    status, body = reclaim(client, made["id"], made["token"])
    assert status == 403 and "lost no seat" in str(body["error"])
    ana.close()


def test_a_seat_given_away_is_not_reclaimed_but_its_player_follows_play_again(
    serve: Serve,
) -> None:
    client = serve()
    made = client.create("powwow", 2, {1: "random"}, name="Ana")
    left = client.http.post(
        f"/api/tables/{made['id']}/seats/0/bot",
        json={"level": "random"},
        headers={"Authorization": f"Bearer {made['token']}"},
    )
    assert left.status_code == 200, left.text
    status, body = reclaim(client, made["id"], made["token"])
    assert status == 409 and "not taken by the clock" in str(body["error"])
    client.wait_for(made["id"], lambda s: s["table"]["status"] == "finished")
    again = client.http.post(
        f"/api/tables/{made['id']}/again", headers={"Authorization": f"Bearer {made['token']}"}
    )
    assert again.status_code == 200, again.text
    nxt = again.json()
    assert nxt["table"]["seats"][nxt["seat"]]["name"] == "Ana"


def test_after_the_clock_took_the_seat_its_player_follows_play_again(serve: Serve) -> None:
    client = serve(clock_choices=CHOICES)
    made = client.create("powwow", 2, {1: "random"}, name="Ana", clock=1)
    client.wait_for(made["id"], lambda s: s["table"]["status"] == "finished")
    status, body = reclaim(client, made["id"], made["token"])
    assert status == 409 and "Play again" in str(body["error"])
    again = client.http.post(
        f"/api/tables/{made['id']}/again", headers={"Authorization": f"Bearer {made['token']}"}
    )
    assert again.status_code == 200, again.text
