"""Ratings, profiles and leaderboards through the server: a finished rated game moves the ratings
of its signed-in players once (also when two processes on PostgreSQL + Redis both see it end);
a player who leaves ranks last; casual games show on the profile without moving a rating."""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, func, insert, select

from campfire.accounts.folding import name_key
from campfire.server.store.results import Results
from campfire.server.store.schema import accounts_t, ratings_t, results_t
from campfire.server.store.storage import Storage, engine_url
from tests.server.conftest import PG_URL, Client, free_port, run_server_process, wait_until_up
from tests.server.test_api import pick, play_to_end

Serve = Callable[..., Client]


def engine_of(client: Client) -> Engine:
    hub = client.app.state.hub
    return hub.storage.engine  # type: ignore[no-any-return]


def account(engine: Engine, name: str) -> str:
    """An account row as sign-up leaves it, written straight to the database (for pages with
    many players)."""
    ident = uuid.uuid4().hex
    with engine.begin() as db:
        db.execute(
            insert(accounts_t).values(
                id=ident,
                name=name,
                name_key=name_key(name),
                password_hash=None,
                user_handle=uuid.uuid4().hex,
                created=time.time(),
            )
        )
    return ident


def profile_when(client: Client, name: str, done: Callable[[Any], bool]) -> Any:
    """The profile once `done` holds (results are written off the event loop, just after)."""
    deadline = time.monotonic() + 30
    while True:
        response = client.http.get(f"/api/players/{name}")
        assert response.status_code == 200, response.text
        if done(response.json()):
            return response.json()
        assert time.monotonic() < deadline, response.json()
        time.sleep(0.05)


PASSWORD = "correct horse battery"


def signed_up(client: Client, name: str) -> Client:
    """`client` with a new account's session cookie (the accounts API is tested on its own)."""
    response = client.http.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert response.status_code == 201, response.text
    return client


def browser_of(client: Client) -> Client:
    """Another browser at the same server: its own cookies."""
    other = Client(client.base, client.ws_base)
    other.app = client.app
    return other


def rated_game(client: Client, game: str = "powwow") -> tuple[str, dict[int, str], Client]:
    """Ana (this client) opens a rated table with a random bot; Bob (another browser) joins."""
    signed_up(client, "Ana")
    bob = signed_up(browser_of(client), "Bob")
    made = client.create(game, 3, {2: "random"}, name="Ana", rated=True)
    assert made["table"]["rated"] is True
    joined = bob.join(made["id"], "Bob")
    tokens = {0: made["token"], 1: joined["token"]}
    return made["id"], tokens, bob


def play_through(
    via: dict[int, Client], table_id: str, tokens: dict[int, str], rng: random.Random, game: str
) -> None:
    """Each person moves through their own server (random legal moves) until the game ends."""
    watch = via[0]
    for _ in range(5000):
        state = watch.wait_for(
            table_id,
            lambda s: s["table"]["to_move"] in tokens or s["table"]["status"] == "finished",
        )
        if state["table"]["status"] == "finished":
            return
        seat = state["table"]["to_move"]
        mine = via[seat].state(table_id, tokens[seat])
        if mine["controls"] is not None:
            via[seat].act(table_id, tokens[seat], pick(game, mine["controls"], rng), mine["at"])
    raise AssertionError("the game did not end")


def test_a_rated_game_moves_the_ratings_once(client: Client) -> None:
    table_id, tokens, bob = rated_game(client)
    bob.close()  # Bob plays by his seat token from here
    beside = client.http.get(f"/api/seat-ratings?tables={table_id},nosuchtable").json()
    start = {"rating": 1500, "provisional": True}
    assert beside == {"tables": {table_id: {"0": start, "1": start}}}
    final = play_to_end(client, table_id, tokens, random.Random(3), "powwow")
    winners = final["table"]["winners"]
    profiles = {
        name: profile_when(client, name, lambda p: p["ratings"]["powwow"]["games"] == 1)
        for name in ("Ana", "Bob")
    }
    for seat, name in enumerate(("Ana", "Bob")):
        p = profiles[name]
        assert p["name"] == name
        mine = p["ratings"]["powwow"]
        assert mine["wins"] == int(seat in winners)
        assert mine["provisional"] is True
        assert mine["sigma"] < 25 / 3  # what the model knows of the player moved
        assert [g["table"] for g in p["games"]] == [table_id]
        (g,) = p["games"]
        assert (g["game"], g["rated"], g["won"]) == ("powwow", True, seat in winners)
        assert g["rating_after"] == mine["rating"] == mine["history"][-1]["rating"]
        assert p["ratings"]["wakatanka"]["games"] == 0
        assert p["ratings"]["wakatanka"]["rating"] == 1500
    beside = client.http.get(f"/api/seat-ratings?tables={table_id}").json()["tables"][table_id]
    assert beside["1"]["rating"] == profiles["Bob"]["ratings"]["powwow"]["rating"]
    ranked = sorted(profiles.values(), key=lambda p: -p["ratings"]["powwow"]["rating"])
    board = client.http.get("/api/leaderboard/powwow").json()
    assert board["game"] == "powwow"
    assert [p["name"] for p in board["players"]] == [p["name"] for p in ranked]
    assert [p["games"] for p in board["players"]] == [1, 1]
    # written once: another look (this process or another) finds it done
    results = Results(engine_of(client))
    assert results.settle(table_id) is False
    with engine_of(client).connect() as db:
        assert db.execute(select(func.sum(ratings_t.c.games))).scalar_one() == 2


def test_leaving_a_rated_game_ranks_last(client: Client) -> None:
    table_id, tokens, bob = rated_game(client, "wakatanka")
    bob.close()
    response = client.http.post(
        f"/api/tables/{table_id}/seats/0/bot",
        headers={"Authorization": f"Bearer {tokens[0]}"},
    )
    assert response.status_code == 200, response.text
    play_to_end(client, table_id, {1: tokens[1]}, random.Random(5), "wakatanka")
    ana = profile_when(client, "Ana", lambda p: p["games"])
    (game,) = ana["games"]
    assert (game["rank"], game["left"], game["won"]) == (3, True, False)
    assert ana["ratings"]["wakatanka"]["rating"] < 1500
    bob = profile_when(client, "Bob", lambda p: p["games"])
    assert bob["games"][0]["rank"] < 3


def test_a_casual_game_shows_on_the_profile_and_moves_no_rating(client: Client) -> None:
    signed_up(client, "Cleo")
    made = client.create("powwow", 2, {1: "random"}, name="Cleo")
    play_to_end(client, made["id"], {0: made["token"]}, random.Random(1), "powwow")
    p = profile_when(client, "cleo", lambda p: p["games"])
    assert p["name"] == "Cleo"  # found by its name as compared, shown as written
    assert p["games"][0]["rated"] is False
    assert p["games"][0]["rating_after"] is None
    assert p["ratings"]["powwow"]["games"] == 0
    assert p["ratings"]["powwow"]["played"] == 1
    assert set(p["ratings"]["powwow"]["stats"]) >= {"disputes_won", "disputes_lost"}
    assert client.http.get("/api/leaderboard/powwow").json()["players"] == []


def test_unknown_names_games_and_bad_paging_are_refused(client: Client) -> None:
    assert client.http.get("/api/players/Nobody").status_code == 404
    assert client.http.get("/api/leaderboard/chess").status_code == 404
    many = ",".join(f"t{i}" for i in range(61))
    assert client.http.get(f"/api/seat-ratings?tables={many}").status_code == 422
    assert client.http.get("/leaderboard/chess").status_code == 404
    for query in ("limit=0", "limit=101", "offset=-1", "limit=x"):
        response = client.http.get(f"/api/leaderboard/powwow?{query}")
        assert response.status_code == 422, query
        assert "must be" in response.json()["error"]


def test_the_leaderboard_pages(client: Client) -> None:
    engine = engine_of(client)
    idents = [account(engine, f"P{i}x") for i in range(3)]
    with engine.begin() as db:
        for i, (ident, mu) in enumerate(zip(idents, [20.0, 30.0, 25.0], strict=True)):
            db.execute(
                insert(ratings_t).values(
                    account_id=ident, game="powwow", mu=mu, sigma=5.0, games=i, wins=0, updated=0.0
                )
            )
    first = client.http.get("/api/leaderboard/powwow?limit=2").json()
    assert [p["name"] for p in first["players"]] == ["P1x", "P2x"]
    assert [p["rank"] for p in first["players"]] == [1, 2]
    assert first["total"] == 3
    rest = client.http.get("/api/leaderboard/powwow?limit=2&offset=2").json()
    assert [(p["name"], p["rank"], p["rating"]) for p in rest["players"]] == [("P0x", 3, 1400)]


def test_two_processes_rate_a_game_once(serve: Serve, pg_schema: str, redis_url: str) -> None:
    a = serve(PG_URL, schema=pg_schema, redis_url=redis_url)
    b = serve(PG_URL, schema=pg_schema, redis_url=redis_url)
    engine = engine_of(a)
    signed_up(a, "Ana")
    signed_up(b, "Bob")
    made = a.create("wakatanka", 3, {2: "random"}, name="Ana", rated=True)
    joined = b.join(made["id"], "Bob")
    b.state(made["id"])  # the second process holds the table too, and sees it end
    # Ana plays through one process, Bob through the other
    tokens = {0: made["token"], 1: joined["token"]}
    play_through({0: a, 1: b}, made["id"], tokens, random.Random(11), "wakatanka")
    b.wait_for(made["id"], lambda s: s["table"]["status"] == "finished")
    profile_when(a, "Ana", lambda p: p["ratings"]["wakatanka"]["games"] >= 1)
    # both processes settled (or found it settled); a direct race of two more writers too
    engines = [engine_of(a), engine_of(b)]
    outcomes: list[bool] = []
    start = threading.Barrier(2)

    def settle(engine: Engine) -> None:
        start.wait()
        outcomes.append(Results(engine).settle(made["id"]))

    threads = [threading.Thread(target=settle, args=(e,)) for e in engines]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes == [False, False]
    with engine.connect() as db:
        assert db.execute(select(func.count()).select_from(results_t)).scalar_one() == 1
        games = db.execute(select(ratings_t.c.games)).scalars().all()
    assert sorted(games) == [1, 1]
    for c in (a, b):
        p = c.http.get("/api/players/Bob").json()
        assert p["ratings"]["wakatanka"]["games"] == 1
        assert len(p["games"]) == 1


class Idle(Results):
    """Writes nothing: the game ends without its results, for the writers below to race on."""

    def settle(self, table_id: str) -> bool:
        return False


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_racing_writers_settle_once(
    backend: str, tmp_path: Path, pg_schema: str, serve: Serve
) -> None:
    """Two engines (as two processes have) write one finished game's results at the same
    moment: exactly one writes it."""
    url = f"sqlite:///{tmp_path / 'race.sqlite3'}" if backend == "sqlite" else PG_URL
    schema = None if backend == "sqlite" else pg_schema
    client = serve(url, schema=schema)
    engine = engine_of(client)
    client.app.state.hub.results = Idle(engine)
    signed_up(client, "Dana")
    made = client.create("powwow", 2, {1: "random"}, name="Dana", rated=True)
    play_to_end(client, made["id"], {0: made["token"]}, random.Random(2), "powwow")
    other = Storage(url, schema=schema)
    outcomes: list[bool] = []
    start = threading.Barrier(2)

    def settle(e: Engine) -> None:
        start.wait()
        outcomes.append(Results(e).settle(made["id"]))

    threads = [threading.Thread(target=settle, args=(e,)) for e in (engine, other.engine)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    other.close()
    assert sorted(outcomes) == [False, True]
    with engine.connect() as db:
        assert db.execute(select(ratings_t.c.games)).scalars().all() == [1]
        assert db.execute(select(func.count()).select_from(results_t)).scalar_one() == 1


def test_two_server_processes_on_postgresql_and_redis_rate_a_game_once(
    pg_database: str, redis_url: str
) -> None:
    """Two `campfire serve` processes: Ana plays through one, Bob through the other; both see
    the game end, and the ratings move once."""
    flags = ("--redis", redis_url, "--bot-pause", "0", "--seed", "5")
    ports = [free_port(), free_port()]
    processes = [run_server_process(pg_database, port, *flags) for port in ports]
    clients: list[Client] = []
    engine = create_engine(engine_url(pg_database))
    try:
        for port, process in zip(ports, processes, strict=True):
            base = f"http://127.0.0.1:{port}"
            wait_until_up(base, process)
            clients.append(Client(base, f"ws://127.0.0.1:{port}"))
        a, b = clients
        signed_up(a, "Ana")
        signed_up(b, "Bob")
        made = a.create("wakatanka", 3, {2: "random"}, name="Ana", rated=True)
        joined = b.join(made["id"], "Bob")
        tokens = {0: made["token"], 1: joined["token"]}
        play_through({0: a, 1: b}, made["id"], tokens, random.Random(8), "wakatanka")
        for c in (a, b):
            c.wait_for(made["id"], lambda s: s["table"]["status"] == "finished")
            profile_when(c, "Bob", lambda p: p["ratings"]["wakatanka"]["games"] >= 1)
        with engine.connect() as db:
            assert db.execute(select(func.count()).select_from(results_t)).scalar_one() == 1
            assert sorted(db.execute(select(ratings_t.c.games)).scalars()) == [1, 1]
        for c in (a, b):
            p = c.http.get("/api/players/Ana").json()
            assert p["ratings"]["wakatanka"]["games"] == 1
            assert [g["table"] for g in p["games"]] == [made["id"]]
    finally:
        for c in clients:
            c.close()
        engine.dispose()
        for process in processes:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=10)
            if process.stdout is not None:
                process.stdout.close()


def test_a_starting_process_writes_the_results_a_stopped_one_left(
    serve: Serve, db_url: str
) -> None:
    first = serve()
    engine = engine_of(first)
    first.app.state.hub.results = Idle(engine)  # stops before writing the results
    signed_up(first, "Erin")
    made = first.create("powwow", 2, {1: "random"}, name="Erin", rated=True)
    play_to_end(first, made["id"], {0: made["token"]}, random.Random(6), "powwow")
    assert first.http.get("/api/players/Erin").json()["games"] == []
    second = serve(db_url)
    p = profile_when(second, "Erin", lambda p: p["games"])
    assert [g["table"] for g in p["games"]] == [made["id"]]
    assert p["ratings"]["powwow"]["games"] == 1
