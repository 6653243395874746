"""The waiting room in the browser: leaving before the game starts frees the seat (issue 24,
item 5); the host sends someone away from the page, and removal keeps that browser and that
name out of the table (item 4)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.server import browsing
from tests.server.conftest import Client

browser = browsing.browser
open_page = browsing.open_page


def seated_page(client: Client, page: Page, table_id: str, seat: int, token: str) -> None:
    """This browser holds `seat` at the table (as after joining it), and opens the table."""
    page.goto(f"{client.base}/")
    page.evaluate(
        "([id, seat, token]) => localStorage.setItem(`campfire:seat:${id}`,"
        " JSON.stringify({seat, token}))",
        [table_id, seat, token],
    )
    page.goto(f"{client.base}/t/{table_id}")


def test_leaving_the_waiting_room_frees_the_seat(client: Client, open_page: Any) -> None:
    made = client.create("powwow", 3, name="Ana", seat=0)
    bob = client.join(made["id"], "Bob", 1)
    watched = open_page(1280, 900)
    page = watched.page
    seated_page(client, page, made["id"], 1, bob["token"])
    expect(page.locator("#waiting")).to_contain_text("You sit at seat 1")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Leave — free my seat").click()
    expect(page.locator("#join-form")).to_be_visible()
    seat = client.state(made["id"])["table"]["seats"][1]
    assert (seat["kind"], seat["taken"], seat["name"]) == ("human", False, None)
    # the seat is anyone's again, and the game starts when it is taken
    assert client.join(made["id"], "Cy", 1)["seat"] == 1
    assert client.join(made["id"], "Dee", 2)["table"]["status"] == "playing"
    assert watched.errors == []


def test_the_host_removes_someone_from_the_page_and_they_stay_out(
    client: Client, open_page: Any
) -> None:
    made = client.create("powwow", 3, name="Ana", seat=0)
    bob = client.join(made["id"], "Bob", 1)
    host, guest = open_page(1280, 900), open_page(390, 844)
    seated_page(client, host.page, made["id"], 0, made["token"])
    seated_page(client, guest.page, made["id"], 1, bob["token"])
    expect(guest.page.locator("#waiting")).to_contain_text("You sit at seat 1")
    expect(host.page.locator("#remove-seat-0")).to_have_count(0)  # not the host's own seat
    host.page.once("dialog", lambda dialog: dialog.accept())
    host.page.locator("#remove-seat-1").click()
    expect(host.page.locator("#remove-seat-1")).to_have_count(0)
    # that browser is told, and is not offered the join form again, even after a reload
    expect(guest.page.locator("#removed-note")).to_be_visible()
    expect(guest.page.locator("#join-form")).to_have_count(0)
    guest.page.reload()
    expect(guest.page.locator("#removed-note")).to_be_visible()
    expect(guest.page.locator("#join-form")).to_have_count(0)
    # that name stays out, however it is written; the seat is anyone else's
    for name in ("Bob", "BOB", " bob "):
        again = client.http.post(f"/api/tables/{made['id']}/join", json={"name": name})
        assert again.status_code == 403 and "removed" in again.json()["error"], name
    assert client.join(made["id"], "Cy")["seat"] == 1
    assert host.errors == [] and guest.errors == []


def test_a_removed_name_stays_out_after_a_restart(serve: Any, db_url: str) -> None:
    first = serve()
    made = first.create("powwow", 3, name="Ana")
    bob = first.join(made["id"], "Bob")
    removed = first.http.post(
        f"/api/tables/{made['id']}/seats/{bob['seat']}/remove",
        headers={"Authorization": f"Bearer {made['token']}"},
    )
    assert removed.status_code == 200, removed.text
    again = serve(db_url)
    refused = again.http.post(f"/api/tables/{made['id']}/join", json={"name": "bob"})
    assert refused.status_code == 403 and "removed 'bob'" in refused.json()["error"]


def test_a_visitor_without_a_seat_is_not_offered_invite(client: Client, open_page: Any) -> None:
    made = client.create("powwow", 3, name="Ana", seat=0)
    host, visitor = open_page(1280, 900), open_page(1280, 900)
    seated_page(client, host.page, made["id"], 0, made["token"])
    visitor.page.goto(f"{client.base}/t/{made['id']}")
    expect(visitor.page.locator("#join-form")).to_be_visible()
    expect(host.page.locator("#invite-btn")).to_be_visible()
    expect(visitor.page.locator("#invite-btn")).to_be_hidden()
    assert host.errors == [] and visitor.errors == []
