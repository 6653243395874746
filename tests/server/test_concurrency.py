"""Two requests at the same instant: exactly one is applied, the other gets a clear error."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Any

import httpx

from tests.server.conftest import Client


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls in threads released together by a barrier."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int, call: Callable[[], Any]) -> None:
        barrier.wait()
        results[i] = call()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return results


def two_clients(client: Client) -> tuple[httpx.Client, httpx.Client]:
    return httpx.Client(base_url=client.base, timeout=20), httpx.Client(
        base_url=client.base, timeout=20
    )


def test_two_moves_at_once_exactly_one_is_applied(client: Client) -> None:
    made = client.create("powwow", 2, name="Ana")
    bob = client.join(made["id"], "Bob")
    tokens = [made["token"], bob["token"]]
    first, second = two_clients(client)
    applied = 0
    for attempt in range(12):
        state = client.state(made["id"])
        if state["table"]["status"] == "finished":
            break
        seat = state["table"]["to_move"]
        mine = client.state(made["id"], tokens[seat])
        low = mine["controls"]["guess"]["min"]
        headers = {"Authorization": f"Bearer {tokens[seat]}"}
        url = f"/api/tables/{made['id']}/actions"
        # odd attempts send no `at`: the turn passing on is what refuses the second
        at = mine["at"] if attempt % 2 == 0 else None
        body = [{"action": {"action": "guess", "value": v}, "at": at} for v in (low, low + 1)]
        results = at_once(
            partial(first.post, url, headers=headers, json=body[0]),
            partial(second.post, url, headers=headers, json=body[1]),
        )
        codes = sorted(r.status_code for r in results)
        assert codes == [200, 409], [r.text for r in results]
        refused = next(r for r in results if r.status_code == 409).json()["error"]
        assert "moved on" in refused or "turn" in refused
        winner = next(r for r in results if r.status_code == 200).json()
        after = client.state(made["id"])
        assert after["at"] == mine["at"] + 1
        assert after["view"]["guess"] == winner["view"]["guess"] in (low, low + 1)
        applied += 1
    assert applied >= 10
    first.close()
    second.close()
    # one turn per applied move, nothing twice
    guesses = [e for e in client.state(made["id"])["view"]["turns"] if e["action"] == "guess"]
    assert len(guesses) == applied


def test_two_sockets_of_one_seat_at_once(client: Client) -> None:
    made = client.create("wakatanka", 3, name="Ana")
    client.join(made["id"], "Bob")
    client.join(made["id"], "Cy")
    a = client.socket(made["id"], made["token"])
    b = client.socket(made["id"], made["token"])
    update = a.recv()
    b.recv()
    controls = update["controls"]
    tile = controls["play"]["tiles"][0]
    cards = controls["play"]["cards"]
    plays = [
        {
            "type": "act",
            "id": "a",
            "action": {"action": "play", "tile": tile, "card": cards[0]},
            "at": update["at"],
        },
        {
            "type": "act",
            "id": "b",
            "action": {"action": "play", "tile": tile, "card": cards[-1]},
            "at": update["at"],
        },
    ]
    at_once(lambda: a.send(plays[0]), lambda: b.send(plays[1]))
    answers = [s.until(lambda m: m["type"] in ("ok", "error")) for s in (a, b)]
    assert sorted(m["type"] for m in answers) == ["error", "ok"]
    assert "moved on" in next(m for m in answers if m["type"] == "error")["reason"]
    after = client.state(made["id"], made["token"])
    assert after["at"] == update["at"] + 1
    assert sum(after["view"]["hand_sizes"]) == sum(update["view"]["hand_sizes"]) - 1
    a.close()
    b.close()


def test_two_people_race_for_the_last_seat(client: Client) -> None:
    for _ in range(5):
        made = client.create("powwow", 2, name="Ana")
        first, second = two_clients(client)
        url = f"/api/tables/{made['id']}/join"
        results = at_once(
            partial(first.post, url, json={"name": "Bob", "seat": 1}),
            partial(second.post, url, json={"name": "Cy", "seat": 1}),
        )
        assert sorted(r.status_code for r in results) == [200, 409]
        seated = client.http.get(f"/api/tables/{made['id']}").json()["seats"][1]["name"]
        winner = next(r for r in results if r.status_code == 200)
        assert seated == ("Bob" if winner is results[0] else "Cy")
        first.close()
        second.close()
