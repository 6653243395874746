"""The coach's hint: off by default, for the asking seat only, over the API and in the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.server import browsing
from tests.server.conftest import Client

browser = browsing.browser
open_page = browsing.open_page
shots = browsing.shots


def test_the_coach_reads_the_table_for_the_asking_seat_only(client: Client) -> None:
    made = client.create("powwow", 3, {2: "random"}, name="Ana")
    bob = client.join(made["id"], "Bob")
    url = f"/api/tables/{made['id']}/coach"
    for seat, token in ((0, made["token"]), (1, bob["token"])):
        answer = client.http.get(url, headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.text
        data = answer.json()
        assert data["seat"] == seat
        read = data["coach"]["read"]
        assert abs(sum(row["p"] for row in read["distribution"]) - 1) < 1e-3
        assert [r["guess"] for r in read["at_least"]] == sorted(
            r["guess"] for r in read["at_least"]
        )
    assert client.http.get(url).status_code == 401
    refused = client.http.get(url, headers={"Authorization": "Bearer not-a-seat"})
    assert refused.status_code == 403
    waka = client.create("wakatanka", 3, {1: "random", 2: "random"}, name="Ana")
    none = client.http.get(
        f"/api/tables/{waka['id']}/coach", headers={"Authorization": f"Bearer {waka['token']}"}
    )
    assert none.status_code == 409 and "no coach" in none.json()["error"]


def test_the_page_shows_the_hint_only_when_asked(
    client: Client, open_page: Any, shots: Path
) -> None:
    made = client.create("powwow", 3, {1: "random", 2: "random"}, name="Ana", seat=0)
    watched = open_page(1366, 768)
    page = watched.page
    page.goto(f"{client.base}/")
    page.evaluate(
        "([id, seat, token]) => localStorage.setItem(`campfire:seat:${id}`,"
        " JSON.stringify({seat, token}))",
        [made["id"], made["seat"], made["token"]],
    )
    page.goto(f"{client.base}/t/{made['id']}")
    expect(page.locator("body")).to_have_attribute("data-turn", "you", timeout=20000)
    hint = page.locator("#hint")
    expect(hint).to_be_hidden()  # off by default
    button = page.locator("#hint-btn")
    expect(button).to_have_text("Hint off")
    button.click()
    expect(button).to_have_text("Hint on")
    expect(hint).to_contain_text("Hint: a total of")
    expect(hint).to_contain_text("reading the bids")
    button.click()
    expect(hint).to_be_hidden()
    assert watched.errors == []
