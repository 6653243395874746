"""A finished game's review in the browser: the end panel's statistics and "Review this game",
then the replay with each move's label, the better move and the odds that decided it, and the
chart of every seat's loss move by move."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from campfire.bots import make_bot
from campfire.kernel import get_game
from tests.server import browsing
from tests.server.conftest import Client
from tests.server.test_waiting_room_ui import seated_page

browser = browsing.browser
open_page = browsing.open_page
Serve = Callable[..., Client]


def test_a_finished_game_is_reviewed_in_the_end_panel_and_the_replay(
    serve: Serve, open_page: Any
) -> None:
    client = serve(seed=3, id_salt="review")
    made = client.create("powwow", 2, {1: "random"}, name="Ana")
    table_id = made["id"]
    watched = open_page(1280, 900)
    page = watched.page
    seated_page(client, page, table_id, 0, made["token"])
    game = get_game("powwow")
    player = make_bot(game, "medium", 1)
    while (state := client.state(table_id, made["token"]))["table"]["status"] != "finished":
        if state["controls"] is None:
            client.wait_for(
                table_id,
                lambda s: s["controls"] is not None or s["table"]["status"] == "finished",
                made["token"],
            )
            continue
        table = client.app.state.hub.tables[table_id]
        action = player.choose(table.state.view(0), table.state.legal_actions())
        client.act(table_id, made["token"], game.action_to_json(action), state["at"])

    dialog = page.locator("#end-dialog")
    expect(dialog).to_be_visible(timeout=30_000)
    review_box = page.locator("#end-review")
    expect(review_box).to_contain_text("How everyone played")
    expect(review_box.locator("table.review-stats")).to_be_visible(timeout=60_000)
    review = client.http.get(f"/api/tables/{table_id}/review").json()
    assert client.app.state.reviews.computed == 1  # the panel's ask and ours: one review
    ana = review_box.locator("tr[data-seat='0']")
    expect(ana).to_contain_text(f"{review['seats']['0']['accuracy']:.1f}%")
    stats = review["statistics"]["0"]
    expect(review_box).to_contain_text("disputes right")
    expect(review_box).to_contain_text("guesses that held")
    cells = ana.locator("td").all_inner_texts()
    assert str(stats["disputes_right"]) in cells and str(stats["guesses_held"]) in cells

    page.locator("#review-link").click()
    expect(page).to_have_url(f"{client.base}/replay/{table_id}?review=1")
    chart = page.locator("svg.loss-chart")
    expect(chart).to_be_visible(timeout=60_000)
    decisions = review["decisions"]
    expect(chart.locator("circle.loss-dot")).to_have_count(len(decisions))
    expect(chart.locator("polyline.loss-line")).to_have_count(2)  # a line a seat
    expect(page.locator("#review-stats table.review-stats")).to_be_visible()

    # a move that lost something: its dot takes the replay there, and the move is told with
    # its label, the better move and the odds that decided it
    lost = next(d for d in decisions if d["best"] != d["played"])
    chart.locator(f"circle.loss-dot[data-index='{lost['index']}']").click()
    expect(page.locator("#step-label")).to_contain_text(f"step {lost['index'] + 1} of")
    verdict = page.locator("#review-move")
    expect(verdict.locator(".review-label")).to_have_text(lost["label"])
    expect(verdict).to_contain_text("better: ")
    expect(verdict).to_contain_text(lost["note"])
    expect(chart.locator(f"circle.loss-dot.current[data-index='{lost['index']}']")).to_have_count(1)
    # a chance entry has no verdict beside it
    page.keyboard.press("Home")
    expect(page.locator("#step-label")).to_contain_text("step 0 of")
    expect(verdict).to_be_empty()
    assert client.app.state.reviews.computed == 1
    assert watched.errors == []
