"""What a player reads at the end and after a takeover (issue 24, item 13): the end dialog says
"You win!" once, not also "Winner: you"; after the clock takes a seat, the story told to that
player still says "Your time ran out"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from campfire.bots import make_bot
from campfire.kernel import get_game
from tests.server import browsing
from tests.server.conftest import Client
from tests.server.test_clock import CHOICES
from tests.server.test_waiting_room_ui import seated_page

browser = browsing.browser
open_page = browsing.open_page
Serve = Callable[..., Client]


def test_after_the_clock_took_the_seat_the_story_still_says_your(serve: Serve) -> None:
    client = serve(clock_choices=CHOICES, bot_pause=0.5)
    made = client.create("powwow", 2, {1: "random"}, name="Ana", clock=1)
    ana = client.socket(made["id"], made["token"])
    ana.until(lambda m: m["type"] == "seat")
    told = ana.until(lambda m: m["type"] == "update" and m["full"])
    clocks = [e["text"] for e in told["events"] if e["kind"] == "clock"]
    assert len(clocks) == 2 and all(t.startswith("Your time ran out") for t in clocks), clocks
    assert told["view"]["seat"] is None  # what they see is a spectator's
    ana.close()


def test_the_end_dialog_says_you_win_once(serve: Serve, open_page: Any) -> None:
    client = serve(seed=3, id_salt="end")
    made = client.create("powwow", 2, {1: "random"}, name="Ana")
    watched = open_page(1280, 900)
    page = watched.page
    seated_page(client, page, made["id"], 0, made["token"])
    game = get_game("powwow")
    player = make_bot(game, "expert", 1)
    while True:  # Ana plays as the expert bot would, through the API
        state = client.state(made["id"], made["token"])
        if state["table"]["status"] == "finished":
            break
        if state["controls"] is None:
            client.wait_for(
                made["id"],
                lambda s: s["controls"] is not None or s["table"]["status"] == "finished",
                made["token"],
            )
            continue
        table = client.app.state.hub.tables[made["id"]]
        view = table.state.view(0)
        action = player.choose(view, table.state.legal_actions())
        client.act(made["id"], made["token"], game.action_to_json(action), state["at"])
    assert state["table"]["winners"] == [0]  # this seed's game is Ana's
    dialog = page.locator("#end-dialog")
    expect(dialog).to_be_visible(timeout=30_000)
    expect(page.locator("#end-title")).to_have_text("You win!")
    expect(dialog).not_to_contain_text("Winner")
    assert watched.errors == []


def test_the_replay_shows_the_chat_and_the_seats_as_they_were_at_each_step(
    client: Client, open_page: Any
) -> None:
    made = client.create("powwow", 2, {1: "random"}, name="Ana")
    ana = client.socket(made["id"], made["token"])
    ana.send({"type": "chat", "id": 1, "text": "good luck"})
    ana.until(lambda m: m["type"] == "ok")
    game = get_game("powwow")
    player = make_bot(game, "random", 2)
    while (state := client.state(made["id"], made["token"]))["table"]["status"] != "finished":
        if state["controls"] is None:
            client.wait_for(
                made["id"],
                lambda s: s["controls"] is not None or s["table"]["status"] == "finished",
                made["token"],
            )
            continue
        table = client.app.state.hub.tables[made["id"]]
        action = player.choose(table.state.view(0), table.state.legal_actions())
        client.act(made["id"], made["token"], game.action_to_json(action), state["at"])
    ana.send({"type": "chat", "id": 2, "text": "well played"})
    ana.until(lambda m: m["type"] == "ok" and m["id"] == 2)
    ana.close()  # Ana is away now: that is not part of the game the replay shows
    client.wait_for(made["id"], lambda s: s["table"]["seats"][0]["away"])
    watched = open_page(1280, 900)
    page = watched.page
    page.goto(f"{client.base}/replay/{made['id']}")
    expect(page.locator("#step-label")).to_contain_text("step 0 of")
    expect(page.locator("#chat-log")).not_to_contain_text("good luck")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#step-label")).to_contain_text("step 1 of")
    expect(page.locator("#chat-log")).to_contain_text("good luck")
    expect(page.locator("#chat-log")).not_to_contain_text("well played")
    expect(page.locator(".pw-seat[data-seat='0']")).not_to_contain_text("away")
    page.keyboard.press("End")
    expect(page.locator("#chat-log")).to_contain_text("well played")
    expect(page.locator(".pw-seat[data-seat='0']")).not_to_contain_text("away")
    assert watched.errors == []
