"""The JSON API over a real socket: tables, seats, tokens, actions, records and pages."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

from campfire.kernel import Record, get_game
from campfire.server.tables.webgame import web_game
from tests.server.conftest import Client


def pick(game: str, controls: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal action from the compact controls (as the page offers them)."""
    actions = web_game(get_game(game)).expand(controls)
    return rng.choice(actions)


def play_to_end(
    client: Client, table_id: str, tokens: dict[int, str], rng: random.Random, game: str
) -> Any:
    """Every human seat plays random legal moves through the API until the game ends."""
    for _ in range(5000):
        state = client.state(table_id)
        if state["table"]["status"] == "finished":
            return state
        seat = state["table"]["to_move"]
        if seat not in tokens:
            state = client.wait_for(
                table_id,
                lambda s: s["table"]["to_move"] in tokens or s["table"]["status"] == "finished",
            )
            continue
        mine = client.state(table_id, tokens[seat])
        if mine["controls"] is None:
            continue
        response = client.act(table_id, tokens[seat], pick(game, mine["controls"], rng), mine["at"])
        assert response.status_code == 200, response.text
    raise AssertionError("the game did not end")


def test_games_lists_both_games_with_options_and_bot_levels(client: Client) -> None:
    games = {g["name"]: g for g in client.http.get("/api/games").json()}
    assert set(games) >= {"powwow", "wakatanka"}
    powwow = games["powwow"]
    assert powwow["title"] == "Pow Wow"
    assert (powwow["min_players"], powwow["max_players"]) == (2, 8)
    assert "random" in powwow["bot_levels"]
    options = {o["name"]: o for o in powwow["options"]}
    assert options["tomahawks"]["type"] == "bool" and options["tomahawks"]["default"] is False
    assert options["buzzards"]["min"] == 1 and options["buzzards"]["max"] == 10
    assert options["end_after_eliminations"]["nullable"] is True
    assert games["wakatanka"]["has_page"] is True


def test_a_table_waits_for_every_seat_then_deals(client: Client) -> None:
    made = client.create(
        "powwow", 3, {2: "random"}, name="Ana", options={"tomahawks": True}, listed=True
    )
    assert made["seat"] == 0 and made["token"]
    assert made["invite"] == f"/t/{made['id']}"
    table = client.http.get(f"/api/tables/{made['id']}").json()
    assert table["status"] == "waiting"
    assert [s["taken"] for s in table["seats"]] == [True, False, True]
    assert table["seats"][0]["name"] == "Ana" and table["seats"][2]["kind"] == "bot"
    assert "token" not in json.dumps(table) and "hash" not in json.dumps(table)
    waiting = client.state(made["id"], made["token"])
    assert waiting["at"] == 0 and waiting["controls"] is None
    open_tables = client.http.get("/api/tables").json()["waiting"]
    assert made["id"] in [t["id"] for t in open_tables]

    bob = client.join(made["id"], "Bob")
    assert bob["seat"] == 1
    started = client.state(made["id"], bob["token"])
    assert started["table"]["status"] == "playing"
    assert started["at"] >= 1  # the opening shuffle is in the record
    assert started["view"]["seat"] == 1 and started["view"]["round"] == 1
    kinds = [e["kind"] for e in started["events"]]
    assert kinds[:2] == ["shuffle", "round"]


def test_only_the_seat_to_move_acts_and_only_with_its_own_token(client: Client) -> None:
    made = client.create("powwow", 2, name="Ana")
    bob = client.join(made["id"], "Bob")
    state = client.state(made["id"], made["token"])
    assert state["table"]["to_move"] == 0 and state["controls"] is not None
    assert client.state(made["id"], bob["token"])["controls"] is None

    not_yours = client.act(made["id"], bob["token"], {"action": "guess", "value": 3})
    assert not_yours.status_code == 409
    assert "seat 0's turn" in not_yours.json()["error"]

    forged = client.act(made["id"], "not-a-real-token", {"action": "guess", "value": 3})
    assert forged.status_code == 403
    other = client.create("powwow", 2, name="Cy")
    foreign = client.act(made["id"], other["token"], {"action": "guess", "value": 3})
    assert foreign.status_code == 403 and "does not belong" in foreign.json()["error"]
    anonymous = client.http.post(
        f"/api/tables/{made['id']}/actions", json={"action": {"action": "guess", "value": 3}}
    )
    assert anonymous.status_code == 401

    done = client.act(made["id"], made["token"], {"action": "guess", "value": 3}, state["at"])
    assert done.status_code == 200
    update = done.json()
    assert update["at"] == state["at"] + 1
    assert update["view"]["guess"] == 3 and update["view"]["owner"] == 0
    assert [e["text"] for e in update["events"]] == ["You guess 3."]


def test_illegal_moves_are_refused_with_the_rules_reason_and_change_nothing(client: Client) -> None:
    made = client.create("powwow", 2, name="Ana")
    bob = client.join(made["id"], "Bob")
    at = client.state(made["id"], made["token"])["at"]
    assert (
        client.act(made["id"], made["token"], {"action": "guess", "value": 10}, at).status_code
        == 200
    )
    low = client.act(made["id"], bob["token"], {"action": "guess", "value": 10})
    assert low.status_code == 409
    assert "higher than the standing guess 10" in low.json()["error"]
    tomahawk = client.act(made["id"], bob["token"], {"action": "agree"})
    assert tomahawk.status_code == 409 and "tomahawk" in tomahawk.json()["error"]
    unknown = client.act(made["id"], bob["token"], {"action": "fly"})
    assert unknown.status_code == 422 and "unknown action" in unknown.json()["error"]
    after = client.state(made["id"], bob["token"])
    assert after["at"] == at + 1 and after["view"]["guess"] == 10


def test_a_stale_move_is_refused_not_misapplied(client: Client) -> None:
    made = client.create("powwow", 2, name="Ana")
    bob = client.join(made["id"], "Bob")
    at = client.state(made["id"], made["token"])["at"]
    assert (
        client.act(made["id"], made["token"], {"action": "guess", "value": 1}, at).status_code
        == 200
    )
    stale = client.act(made["id"], bob["token"], {"action": "guess", "value": 2}, at)
    assert stale.status_code == 409
    assert "moved on" in stale.json()["error"] and "nothing was applied" in stale.json()["error"]


def test_a_move_sent_again_after_a_lost_answer_is_done_once(client: Client) -> None:
    """A client that never heard its answer (a dropped connection) may send the same move with
    the same `at` again: it is told the move is done, and it is in the record once."""
    made = client.create("powwow", 2, name="Ana")
    bob = client.join(made["id"], "Bob")
    tokens = [made["token"], bob["token"]]
    public = client.state(made["id"])
    seat, at = public["table"]["to_move"], public["at"]
    move = {"action": "guess", "value": 3}
    assert client.act(made["id"], tokens[seat], move, at).status_code == 200
    again = client.act(made["id"], tokens[seat], move, at)
    assert again.status_code == 200, again.text
    assert again.json()["at"] == at + 1
    # a different move with the old `at` is still refused, and so is the other seat's
    other = client.act(made["id"], tokens[seat], {"action": "guess", "value": 4}, at)
    assert other.status_code == 409 and "moved on" in other.json()["error"]
    assert client.act(made["id"], tokens[1 - seat], move, at).status_code == 409
    assert client.state(made["id"])["at"] == at + 1


def test_joining_refuses_taken_seats_duplicate_names_and_full_tables(client: Client) -> None:
    made = client.create("wakatanka", 3, {2: "random"}, name="Ana")
    taken = client.http.post(f"/api/tables/{made['id']}/join", json={"name": "Bob", "seat": 0})
    assert taken.status_code == 409 and "taken by Ana" in taken.json()["error"]
    bot = client.http.post(f"/api/tables/{made['id']}/join", json={"name": "Bob", "seat": 2})
    assert bot.status_code == 409 and "a bot" in bot.json()["error"]
    same = client.http.post(f"/api/tables/{made['id']}/join", json={"name": " Ana "})
    assert same.status_code == 409 and "already called 'Ana'" in same.json()["error"]
    nowhere = client.http.post(f"/api/tables/{made['id']}/join", json={"name": "Bob", "seat": 5})
    assert nowhere.status_code == 422
    client.join(made["id"], "Bob")
    full = client.http.post(f"/api/tables/{made['id']}/join", json={"name": "Cy"})
    assert full.status_code == 409 and "you can watch" in full.json()["error"]


def test_create_refuses_bad_games_options_and_bots(client: Client) -> None:
    def create(body: dict[str, Any]) -> Any:
        return client.http.post("/api/tables", json=body)

    assert "unknown game 'chess'" in create({"game": "chess"}).json()["error"]
    assert create({"game": "powwow", "players": 9}).status_code == 422
    bad_option = create({"game": "powwow", "options": {"buzzards": 0}})
    assert bad_option.status_code == 422 and "buzzards" in bad_option.json()["error"]
    unknown = create({"game": "powwow", "options": {"feathers": 3}})
    assert unknown.status_code == 422 and "unknown option 'feathers'" in unknown.json()["error"]
    level = create({"game": "powwow", "bots": {"1": "genius"}})
    assert level.status_code == 422 and "unknown bot level 'genius'" in level.json()["error"]
    seat = create({"game": "powwow", "players": 3, "bots": {"5": "random"}})
    assert seat.status_code == 422 and "no seat 5" in seat.json()["error"]


def test_a_whole_game_with_bots_then_record_replay_and_play_again(client: Client) -> None:
    made = client.create(
        "powwow",
        3,
        {1: "random", 2: "random"},
        name="Ana",
        options={"tomahawks": True},
        listed=True,
    )
    table_id = made["id"]
    early = client.http.get(f"/api/tables/{table_id}/record")
    assert early.status_code == 409 and "when the game ends" in early.json()["error"]
    assert client.http.get(f"/api/tables/{table_id}/replay").status_code == 409

    final = play_to_end(client, table_id, {0: made["token"]}, random.Random(1), "powwow")
    assert final["view"]["terminal"] and final["table"]["winners"] == final["view"]["winners"]

    download = client.http.get(f"/api/tables/{table_id}/record")
    assert download.status_code == 200
    assert "attachment" in download.headers["content-disposition"]
    record = Record.loads(download.text)
    replayed = record.replay()
    assert replayed.is_terminal and replayed.winners() == final["view"]["winners"]
    assert len(record.moves) == final["at"]

    last = client.http.get(f"/api/tables/{table_id}/replay", params={"step": final["at"]}).json()
    assert last["steps"] == final["at"] and last["public"]["terminal"] is True
    assert last["story"][-1].startswith("Game over")
    assert len(last["views"]) == 3
    first = client.http.get(f"/api/tables/{table_id}/replay", params={"step": 1}).json()
    assert first["entry"]["chance"] == "shuffle"
    assert [e["kind"] for e in first["events"]][:2] == ["shuffle", "round"]
    beyond = client.http.get(f"/api/tables/{table_id}/replay", params={"step": 10**6})
    assert beyond.status_code == 422
    assert table_id in [t["id"] for t in client.http.get("/api/tables").json()["finished"]]

    again = client.http.post(
        f"/api/tables/{table_id}/again", headers={"Authorization": f"Bearer {made['token']}"}
    )
    assert again.status_code == 200, again.text
    nxt = again.json()
    assert nxt["id"] != table_id and nxt["seat"] == 0
    assert client.http.get(f"/api/tables/{table_id}").json()["next"] == nxt["id"]
    fresh = client.state(nxt["id"], nxt["token"])
    assert fresh["table"]["status"] == "playing"  # the bots kept their seats
    assert fresh["table"]["options"]["tomahawks"] is True
    assert fresh["table"]["seats"][0]["name"] == "Ana"
    twice = client.http.post(
        f"/api/tables/{table_id}/again", headers={"Authorization": f"Bearer {made['token']}"}
    )
    assert twice.status_code == 409


def test_a_whole_waka_tanka_game_between_two_people_and_a_bot(client: Client) -> None:
    made = client.create("wakatanka", 3, {2: "random"}, name="Ana")
    bob = client.join(made["id"], "Bob")
    tokens = {0: made["token"], 1: bob["token"]}
    final = play_to_end(client, made["id"], tokens, random.Random(2), "wakatanka")
    record = Record.loads(client.http.get(f"/api/tables/{made['id']}/record").text)
    assert record.replay().winners() == final["view"]["winners"]
    assert any(m.get("player") in (0, 1) for m in record.moves)


def test_pages_and_game_files_are_served(client: Client) -> None:
    made = client.create("powwow", 2, name="Ana")
    for path in ("/", f"/t/{made['id']}", f"/replay/{made['id']}"):
        page = client.http.get(path)
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert 'type="module"' in client.http.get("/").text
    rules = client.http.get("/rules/wakatanka")
    assert rules.status_code == 200 and "apprentice token" in rules.text
    module = client.http.get("/games/powwow/table.js")
    assert module.status_code == 200
    assert module.headers["content-type"].startswith("text/javascript")
    assert "export function createBoard" in module.text
    assert client.http.get("/static/table.js").status_code == 200
    for bad in (
        "/games/powwow/__init__.py",
        "/games/powwow/..%2F..%2Fkernel%2Fstate.py",
        "/games/chess/table.js",
        "/rules/chess",
        "/static/../app.py",
    ):
        response = client.http.get(bad)
        assert response.status_code == 404, bad
    assert client.http.get("/api/tables/nosuchtable1").status_code == 404
    assert "there is no table" in client.http.get("/api/tables/abcdefghjkmn").json()["error"]


def test_finished_tables_leave_memory_and_come_back_from_storage(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("campfire.server.tables.hub.FINISHED_KEPT", 1)
    hub = client.app.state.hub
    ids = [client.create("powwow", 2, {0: "random", 1: "random"})["id"] for _ in range(3)]
    for table_id in ids:
        client.wait_for(table_id, lambda s: s["table"]["status"] == "finished")
    client.socket(ids[0]).close()  # a game ending or a connection closing tidies up
    deadline = time.monotonic() + 10
    while len([t for t in ids if t in hub.tables]) > 1:
        assert time.monotonic() < deadline, "finished tables were never let go"
        time.sleep(0.01)
    for table_id in ids:
        record = Record.loads(client.http.get(f"/api/tables/{table_id}/record").text)
        assert record.replay().is_terminal
