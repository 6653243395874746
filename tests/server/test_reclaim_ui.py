"""A seat lost to the turn clock is taken back from the page: the clock runs out twice on Ana's
turns, a bot takes her seat, she presses "Take my seat back" and plays on (issue 24, item 12,
in the browser)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from tests.server import browsing
from tests.server.browsing import plain_powwow_move, wait_for_turn_or_end
from tests.server.conftest import Client

browser = browsing.browser
open_page = browsing.open_page

#: a short clock (seconds a turn) beside the usual ones
CHOICES = (3, 30, 60, 120, 86400)


def test_a_seat_lost_to_the_clock_is_taken_back_from_the_page(
    serve: Callable[..., Client], open_page: Any
) -> None:
    client = serve(clock_choices=CHOICES, bot_pause=0.3)
    # ten buzzards a player: a long game, still going on when Ana comes back
    made = client.create(
        "powwow", 3, {1: "random", 2: "random"}, name="Ana", clock=3, options={"buzzards": 10}
    )
    watched = open_page()
    page = watched.page
    page.goto(f"{client.base}/")
    page.evaluate(
        "([id, seat, token]) => localStorage.setItem(`campfire:seat:${id}`,"
        " JSON.stringify({seat, token}))",
        [made["id"], made["seat"], made["token"]],
    )
    page.goto(f"{client.base}/t/{made['id']}")
    expect(page.locator(".seat.me")).to_have_count(1)
    # Ana does nothing: her time runs out twice in a row and a bot takes the seat
    back = page.get_by_role("button", name="Take my seat back")
    expect(back).to_be_visible(timeout=40_000)
    expect(page.locator(".seat.me")).to_have_count(0)
    seat = client.state(made["id"])["table"]["seats"][0]
    assert (seat["kind"], seat["name"]) == ("bot", "Ana")
    log = page.locator("#log")
    expect(log).to_contain_text("Your time ran out")
    ran_out = log.inner_text().count("time ran out")
    assert ran_out == 2, log.inner_text()

    back.click()
    expect(page.locator(".seat.me")).to_have_count(1)
    expect(back).to_have_count(0)
    expect(page.locator("#leave-btn")).to_be_visible()
    seat = client.state(made["id"])["table"]["seats"][0]
    assert (seat["kind"], seat["name"]) == ("human", "Ana")

    # she plays on: her own move, from the page, at her next turn
    assert wait_for_turn_or_end(page) == "turn"
    plain_powwow_move(page)
    state = client.state(made["id"], made["token"])
    assert state["view"]["seat"] == 0 and state["table"]["seats"][0]["kind"] == "human"
    # the move was hers, not the clock's: no third "time ran out"
    assert page.locator("#log").inner_text().count("time ran out") == ran_out
    assert watched.errors == [] and watched.toasts() == []
