"""`DELETE /api/me` takes the account's ratings off the leaderboards, the profiles and the
ratings beside names; the game stays in the other players' profiles, and a new account under
the freed name starts afresh."""

from __future__ import annotations

import random

from sqlalchemy import func, select

from campfire.server.store.schema import player_games_t, ratings_t
from tests.server.conftest import Client
from tests.server.test_api import play_to_end
from tests.server.test_ratings_api import (
    PASSWORD,
    browser_of,
    engine_of,
    profile_when,
    rated_game,
    signed_up,
)


def test_deleting_an_account_takes_its_ratings_away(client: Client) -> None:
    table_id, tokens, bob = rated_game(client)
    play_to_end(client, table_id, tokens, random.Random(3), "powwow")
    for name in ("Ana", "Bob"):
        profile_when(client, name, lambda p: p["ratings"]["powwow"]["games"] == 1)
    board = client.http.get("/api/leaderboard/powwow").json()
    assert sorted(p["name"] for p in board["players"]) == ["Ana", "Bob"] and board["total"] == 2
    bob_id = bob.http.get("/api/me").json()
    gone = bob.http.request("DELETE", "/api/me", json={"password": PASSWORD})
    assert gone.status_code == 204, gone.text
    assert bob_id["name"] == "Bob"
    # off the leaderboard, its count too
    board = client.http.get("/api/leaderboard/powwow").json()
    assert [p["name"] for p in board["players"]] == ["Ana"]
    assert board["total"] == 1 and board["players"][0]["rank"] == 1
    # no profile; no rating beside the seat (now "Former player")
    assert client.http.get("/api/players/Bob").status_code == 404
    beside = client.http.get(f"/api/seat-ratings?tables={table_id}").json()["tables"][table_id]
    assert set(beside) == {"0"}
    seats = client.http.get(f"/api/tables/{table_id}").json()["seats"]
    assert seats[1]["name"] == "Former player"
    # Ana's profile keeps the game
    ana = client.http.get("/api/players/Ana").json()
    assert [g["table"] for g in ana["games"]] == [table_id]
    # nothing of it is left in the database: one account's rows remain
    with engine_of(client).connect() as db:
        assert db.execute(select(func.count()).select_from(ratings_t)).scalar_one() == 1
        assert db.execute(select(func.count()).select_from(player_games_t)).scalar_one() == 1
    # a new account under the freed name starts at the beginning
    again = signed_up(browser_of(client), "Bob")
    fresh = again.http.get("/api/players/Bob").json()
    assert fresh["ratings"]["powwow"]["games"] == 0 and fresh["games"] == []
    assert fresh["ratings"]["powwow"]["rating"] == 1500
    assert [p["name"] for p in client.http.get("/api/leaderboard/powwow").json()["players"]] == [
        "Ana"
    ]
