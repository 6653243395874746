"""The browser table, end to end: Debian's Chromium driven by Playwright against a real server.

Whole games are played through the page the way a person would (the lobby form, clicks and the
keyboard), against bots and between two browsers joined by the invite link. Screenshots go to
a temporary folder, or to `CAMPFIRE_SCREENSHOTS` (e.g. docs/screenshots) when it is set.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any, cast

import pytest
from playwright.sync_api import Page, expect

from campfire.games.powwow.state import PowwowState
from campfire.kernel import Record
from tests.server import browsing
from tests.server.browsing import after_move, at, snap, wait_for_turn_or_end
from tests.server.conftest import Client

# the fixtures shared by the browser tests
browser = browsing.browser
open_page = browsing.open_page
shots = browsing.shots


def start_table(
    page: Page,
    base: str,
    game: str,
    players: int,
    seats: dict[int, str],
    options: dict[str, Any],
    shot: Path | None = None,
) -> str:
    """Fill in the lobby form as a person would and start the table; returns its id."""
    page.goto(base + "/")
    page.get_by_label("Your name", exact=True).fill("Ana")
    page.locator(f"label[for=game-{game}]").click()
    page.get_by_label("Players", exact=True).select_option(str(players))
    for seat, choice in seats.items():
        page.locator(f"#seat-{seat}").select_option(choice)
    if options:
        page.get_by_text("Options").click()
        for name, value in options.items():
            field = page.locator(f"[data-option={name}]")
            if isinstance(value, bool):
                field.set_checked(value)
            else:
                field.fill(str(value))
    if shot is not None:
        snap(page, shot)
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url(re.compile(r"/t/[a-z0-9]{12}$"))
    return page.url.rsplit("/", 1)[1]


def record_of(client: Client, table_id: str) -> Record:
    response = client.http.get(f"/api/tables/{table_id}/record")
    assert response.status_code == 200, response.text
    return Record.loads(response.text)


# --- Pow Wow -------------------------------------------------------------------------------------
def powwow_turn(page: Page, rng: random.Random, used: set[str]) -> None:
    """One move through the page: a tomahawk when one is ready, else guess low or dispute."""
    dispute = page.locator("#dispute-btn")
    agree = page.locator("#agree-btn")
    reverse = page.locator("#reverse-btn")
    extra = page.locator(".pw-extra input[type=radio]:not([value='']):enabled")
    guess = page.locator("#guess-value")
    expect(guess).to_be_visible()
    standing = page.locator(".pw-guess").inner_text()
    high = standing.isdigit() and int(standing) > 25
    if extra.count() and "extra" not in used:
        used.add("extra")
        extra.first.check()
        expect(page.locator("#guess-btn")).to_contain_text("feather")
        page.locator("#guess-btn").click()
    elif agree.is_visible() and agree.is_enabled() and "agree" not in used and not high:
        used.add("agree")
        agree.click()
    elif reverse.is_visible() and reverse.is_enabled() and "reverse" not in used:
        used.add("reverse")
        reverse.click()
    elif dispute.is_enabled() and (high or rng.random() < 0.3):
        dispute.click()
    else:
        # the keyboard path: type a guess and press Enter
        low = int(guess.get_attribute("min") or 0)
        guess.fill(str(low + rng.randrange(3)))
        guess.press("Enter")


def test_a_whole_pow_wow_game_with_tomahawks_against_bots(
    client: Client, open_page: Any, shots: Path
) -> None:
    watched = open_page(1360, 920)
    page = watched.page
    table_id = start_table(
        page,
        client.base,
        "powwow",
        4,
        {1: "bot:random", 2: "bot:random", 3: "bot:random"},
        {"tomahawks": True, "buzzards": 2},
        shots / "lobby.png",
    )
    expect(page.locator("#title")).to_have_text("Pow Wow")
    expect(page.locator(".pw-seat")).to_have_count(4)
    rng = random.Random(4)
    used: set[str] = set()
    shot_table = shot_reveal = False
    for _ in range(400):
        if wait_for_turn_or_end(page) == "end":
            break
        me = page.locator(".pw-seat.me")
        # your own feathers are drawn as hidden backs, everyone else's face up
        expect(me.locator(".feather-hidden")).to_have_count(me.locator(".feather").count())
        if not shot_table and page.locator(".pw-turns li").count() >= 2:
            snap(page, shots / "powwow-table.png")
            shot_table = True
        if not shot_reveal and page.locator(".pw-reveal").count():
            page.wait_for_timeout(4500)  # let the count play out
            snap(page, shots / "powwow-count.png")
            shot_reveal = True
        if page.locator(".pw-reveal").count() and rng.random() < 0.5:
            page.locator(".pw-reveal").get_by_role("button", name="Continue").click()
            expect(page.locator(".pw-reveal")).to_have_count(0)
        before = at(page)
        powwow_turn(page, rng, used)
        after_move(page, before)
    dialog = page.locator("#end-dialog")
    expect(dialog).to_be_visible(timeout=15_000)
    expect(dialog).to_contain_text(re.compile("Winner|You win!"))
    snap(page, shots / "powwow-end.png")
    record = record_of(client, table_id)
    state = record.replay()
    assert state.is_terminal
    mine = [m for m in record.moves if m.get("player") == 0]
    tomahawk_moves = [
        m for m in mine if m["action"] in ("agree", "reverse") or "extra_feather_to" in m
    ]
    assert tomahawk_moves, "the page never used a tomahawk"
    assert any(m["action"] == "guess" for m in mine)
    winners = ["You" if s == 0 else f"Bot {s}" for s in state.winners()]
    for name in winners:
        expect(dialog).to_contain_text(name if name != "You" else "You win!")
    assert watched.errors == [] and watched.toasts() == []


# --- Waka Tanka ----------------------------------------------------------------------------------
def wakatanka_turn(page: Page, rng: random.Random, shots: Path, moves: list[str]) -> None:
    """First a play with the keyboard alone, then one with clicks (a tile, then a card), then
    call every play a bot makes (random bots mostly bluff, so calls win tokens)."""
    call = page.locator("#call-btn")
    target = page.locator(".wt-tile.target")
    can_call = call.count() > 0 and call.is_enabled()
    played = {"keyboard", "clicked"} <= set(moves)
    if can_call and (played or target.count() == 0):
        moves.append("call")
        call.click()
        return
    expect(target.first).to_be_visible()
    if "keyboard" not in moves:
        # the first play with the keyboard alone: Enter on a tile, Tab to a card, Enter
        target.first.focus()
        page.keyboard.press("Enter")
        expect(page.locator(".wt-tile.selected")).to_be_focused()
        for _ in range(8):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.classList.contains('hand-card')"):
                break
        expect(page.locator(".hand-card:focus")).to_have_count(1)
        page.keyboard.press("Enter")
        moves.extend(["keyboard", "play"])
        return
    target.nth(rng.randrange(target.count())).click()
    expect(page.locator(".wt-tile.selected")).to_have_count(1)
    if "clicked" not in moves:
        snap(page, shots / "wakatanka-table.png")
    cards = page.locator(".hand-card:enabled")
    cards.nth(rng.randrange(cards.count())).click()
    moves.extend(["clicked", "play"])


def test_a_whole_waka_tanka_game_against_bots(client: Client, open_page: Any, shots: Path) -> None:
    watched = open_page(1360, 960)
    page = watched.page
    table_id = start_table(
        page, client.base, "wakatanka", 4, {1: "bot:random", 2: "bot:random", 3: "bot:random"}, {}
    )
    expect(page.locator(".wt-tile")).to_have_count(6)
    expect(page.locator(".wt-tile.marker")).to_have_count(1)
    rng = random.Random(6)
    moves: list[str] = []
    shot_reveal = False
    for _ in range(300):
        if wait_for_turn_or_end(page) == "end":
            break
        if page.locator(".wt-reveal").count() and not shot_reveal:
            page.wait_for_timeout(2500)
            snap(page, shots / "wakatanka-reveal.png")
            shot_reveal = True
        # a person reads the reveal and presses Continue (it also steps aside on its own)
        page.evaluate("document.querySelector('.wt-reveal .primary')?.click()")
        before = at(page)
        wakatanka_turn(page, rng, shots, moves)
        after_move(page, before)
    dialog = page.locator("#end-dialog")
    expect(dialog).to_be_visible(timeout=15_000)
    snap(page, shots / "wakatanka-end.png")
    record = record_of(client, table_id)
    assert record.replay().is_terminal
    mine = {m["action"] for m in record.moves if m.get("player") == 0}
    assert {"play", "call"} <= mine
    assert {"keyboard", "clicked", "call"} <= set(moves)
    assert watched.errors == [] and watched.toasts() == []


# --- two people ----------------------------------------------------------------------------------
def test_two_people_join_by_the_invite_link_and_play_a_game(
    client: Client, open_page: Any, shots: Path
) -> None:
    ana = open_page(1280, 900)
    bob = open_page(390, 844)  # on a phone
    table_id = start_table(
        ana.page, client.base, "powwow", 3, {1: "open", 2: "bot:random"}, {"buzzards": 1}
    )
    room = ana.page.locator("#waiting")
    expect(room).to_contain_text("Waiting for players")
    invite = ana.page.locator("#room-invite").input_value()
    assert invite.endswith(f"/t/{table_id}")
    snap(ana.page, shots / "waiting-room.png")

    bob.page.goto(invite)
    bob.page.get_by_label("Your name").fill("Bob")
    bob.page.get_by_role("button", name="Join the game").click()
    for person in (ana, bob):
        expect(person.page.locator("body")).to_have_attribute("data-status", "playing")
    expect(ana.page.locator(".pw-seat[data-seat='1'] .seat-name")).to_have_text("Bob")
    expect(bob.page.locator(".pw-seat[data-seat='0'] .seat-name")).to_have_text("Ana")
    # each sees the other's feather, never their own
    expect(bob.page.locator(".pw-seat[data-seat='0'] .feather-hidden")).to_have_count(0)
    expect(ana.page.locator(".pw-seat[data-seat='0'] .feather-hidden")).to_have_count(1)
    snap(bob.page, shots / "powwow-phone.png")

    rng = random.Random(9)
    reloaded = False
    for _ in range(200):
        statuses = [p.page.locator("body").get_attribute("data-status") for p in (ana, bob)]
        if all(s == "finished" for s in statuses):
            break
        for person in (ana, bob):
            page = person.page
            if page.locator("body").get_attribute("data-turn") != "you":
                continue
            before = at(page)
            dispute = page.locator("#dispute-btn")
            guess = page.locator("#guess-value")
            if dispute.is_enabled() and (not guess.is_enabled() or rng.random() < 0.5):
                dispute.click()
            else:
                low, high = (int(guess.get_attribute(k) or 0) for k in ("min", "max"))
                guess.fill(str(min(high, low + rng.randrange(4))))
                page.locator("#guess-btn").click()
            after_move(page, before)
        if not reloaded:
            # a closed tab comes back to its seat
            bob.page.reload()
            expect(bob.page.locator(".pw-seat.me .seat-name")).to_have_text("Bobyou")
            expect(bob.page.locator(".pw-seat.me .you-badge")).to_have_text("you")
            reloaded = True
        ana.page.wait_for_timeout(50)
    for person in (ana, bob):
        expect(person.page.locator("#end-dialog")).to_be_visible(timeout=15_000)
    snap(bob.page, shots / "phone-end.png")
    winners = record_of(client, table_id).replay().winners()
    names = {0: "Ana", 1: "Bob", 2: "Bot 2"}
    for s in winners:
        # your own win is the title, "You win!"; the others are named
        expect(ana.page.locator("#end-dialog")).to_contain_text("You win!" if s == 0 else names[s])
        expect(bob.page.locator("#end-dialog")).to_contain_text("You win!" if s == 1 else names[s])

    # play again: both land at the same next table
    ana.page.get_by_role("button", name="Play again").click()
    ana.page.wait_for_url(lambda url: "/t/" in url and not url.endswith(table_id))
    next_id = ana.page.url.rsplit("/", 1)[1]
    assert next_id != table_id
    expect(bob.page.get_by_role("button", name="Join the next game")).to_be_visible()
    bob.page.get_by_role("button", name="Join the next game").click()
    bob.page.wait_for_url(re.compile(f"/t/{next_id}$"))
    for person in (ana, bob):
        expect(person.page.locator("body")).to_have_attribute("data-status", "playing")
    assert ana.errors == [] and bob.errors == []


# --- replays -------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["powwow", "wakatanka"])
def test_the_replay_page_steps_through_a_finished_game_with_everything_revealed(
    client: Client, open_page: Any, shots: Path, game: str
) -> None:
    made = client.create(game, 4, dict.fromkeys(range(4), "random"), options={})
    final = client.wait_for(made["id"], lambda s: s["table"]["status"] == "finished")
    watched = open_page(1360, 960)
    page = watched.page
    page.goto(f"{client.base}/replay/{made['id']}")
    expect(page.locator("#step-label")).to_have_text(f"step 0 of {final['at']}")
    page.get_by_role("button", name="Next step").click()
    expect(page.locator("#step-label")).to_have_text(f"step 1 of {final['at']}")
    # each step is told in sentences, never as the raw record entry
    expect(page.locator("#step-events")).to_contain_text("shuffle")
    assert "{" not in page.locator(".controls").first.inner_text()
    middle = min(13, final["at"])
    if game == "powwow":
        # a step at which feathers are worn: between two rounds every head is bare (a fixed
        # step of a random game was bare in 1 game of 40)
        record = record_of(client, made["id"])
        worn = [
            k for k in range(1, final["at"] + 1) if any(cast(PowwowState, record.replay(k)).worn)
        ]
        middle = next((k for k in worn if k >= middle), worn[-1])
    for _ in range(middle - 1):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#step-label")).to_have_text(f"step {middle} of {final['at']}")
    if game == "powwow":
        # every worn feather is face up in a replay
        expect(page.locator(".pw-seat .feather")).not_to_have_count(0)
        expect(page.locator(".pw-seat .feather-hidden")).to_have_count(0)
    else:
        expect(page.locator(".open-hand")).to_have_count(4)
    snap(page, shots / f"{game}-replay.png")
    page.keyboard.press("End")
    expect(page.locator("#step-label")).to_have_text(f"step {final['at']} of {final['at']}")
    expect(page.locator("#banner")).to_contain_text("Game over")
    href = page.locator("#download").get_attribute("href")
    assert href == f"/api/tables/{made['id']}/record"
    assert watched.errors == []


# --- a player who left ---------------------------------------------------------------------------
def test_a_game_stalled_on_an_away_player_moves_on_when_a_bot_takes_the_seat(
    serve: Any, open_page: Any, shots: Path
) -> None:
    """Bob joins and never comes: Ana lets a bot play his seat, then leaves herself."""
    client = serve(away_seconds=0.2)
    watched = open_page(1280, 900)
    page = watched.page
    table_id = start_table(page, client.base, "powwow", 3, {1: "open", 2: "bot:random"}, {})
    bob = client.join(table_id, "Bob")
    expect(page.locator("body")).to_have_attribute("data-status", "playing")
    expect(page.get_by_role("button", name="Leave — a bot plays on")).to_be_visible()
    rng = random.Random(12)
    banner = page.locator("#banner")
    for _ in range(60):
        page.wait_for_function(
            "document.body.dataset.turn === 'you'"
            " || document.getElementById('banner').textContent.startsWith('Waiting for Bob')"
        )
        if banner.inner_text().startswith("Waiting for Bob"):
            break
        before = at(page)
        guess = page.locator("#guess-value")
        guess.fill(str(int(guess.get_attribute("min") or 0) + rng.randrange(3)))
        page.locator("#guess-btn").click()
        after_move(page, before)
    expect(banner).to_have_text("Waiting for Bob (not connected)")
    stalled = at(page)
    let_bot = page.get_by_role("button", name="Let a bot play")
    expect(let_bot).to_be_visible()
    expect(page.locator("#seat-tools")).to_contain_text("Bob has been away")
    snap(page, shots / "let-a-bot-play.png")
    let_bot.click()
    expect(page.locator(".pw-seat[data-seat='1']")).to_contain_text("medium bot")
    expect(let_bot).to_have_count(0)
    page.wait_for_function(f"Number(document.body.dataset.at) > {stalled}")
    assert client.state(table_id)["table"]["seats"][1]["kind"] == "bot"
    response = client.http.get(
        f"/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {bob['token']}"}
    )
    assert response.status_code == 403

    # Ana has to go as well: after a confirmation a bot plays on for her and she watches
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Leave — a bot plays on").click()
    expect(page.locator("#conn")).to_have_text("watching")
    expect(page.locator(".pw-seat[data-seat='0']")).to_contain_text("medium bot")
    expect(page.locator("#seat-tools")).to_be_hidden()
    expect(page.locator("#end-dialog")).to_be_visible(timeout=60_000)
    expect(page.get_by_role("button", name="Play again")).to_have_count(0)
    assert page.evaluate(f"localStorage.getItem('campfire:seat:{table_id}')") is None
    assert record_of(client, table_id).replay().is_terminal
    assert watched.errors == [] and watched.toasts() == []
