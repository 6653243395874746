"""Profiles and leaderboards in Debian's Chromium: a rated game played from the page against
bots to its end changes the rating the profile shows; the profile and the leaderboard fit a
laptop (1366x768) and a phone (390x844) with nothing overflowing; names are shown as text."""

from __future__ import annotations

import random
import re
import time
import uuid
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect
from sqlalchemy import insert, select

from campfire.server.store.schema import accounts_t, player_games_t, ratings_t
from tests.server import browsing
from tests.server.browsing import after_move, at, snap, wait_for_turn_or_end
from tests.server.conftest import Client
from tests.server.test_browser import powwow_turn
from tests.server.test_ratings_api import PASSWORD, account, engine_of

browser = browsing.browser
open_page = browsing.open_page
shots = browsing.shots

SIZES = [(1366, 768), (390, 844)]
#: a name no sign-up would take, written straight into the database: the pages must show it as
#: the text it is
HOSTILE = '<img src=x onerror="document.body.dataset.pwned=1">'


def overflowing(page: Page) -> list[str]:
    """Elements that stick out of the window sideways (and whether the page scrolls sideways)."""
    return list(
        page.evaluate(
            """() => {
            const width = document.documentElement.clientWidth;
            const out = [];
            if (document.scrollingElement.scrollWidth > width) out.push('scrolls sideways');
            for (const node of document.querySelectorAll('main *, header *')) {
              const box = node.getBoundingClientRect();
              if (box.width && (box.right > width + 0.5 || box.left < -0.5))
                out.push(`${node.tagName}.${node.className} ${box.left}..${box.right}`);
            }
            return out;
        }"""
        )
    )


def rating_shown(page: Page) -> str:
    card = page.locator(".rating-card[data-game=powwow] .rating")
    expect(card).to_be_visible()
    return card.inner_text()


def test_a_rated_game_against_bots_changes_the_rating_on_the_profile(
    client: Client, open_page: Any, shots: Path
) -> None:
    watched = open_page(1366, 768)
    page = watched.page
    engine = engine_of(client)
    # sign up on the account page, as a person would
    page.goto(f"{client.base}/account")
    page.locator("#signup-name").fill("Ana")
    page.locator("#signup-password").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator("#signed-in")).to_be_visible()
    page.goto(f"{client.base}/p/Ana")
    assert rating_shown(page) == "1500?"
    expect(page.locator(".recent-games")).to_have_count(0)
    # a rated table against two bots, from the lobby
    page.goto(f"{client.base}/")
    expect(page.locator("#signed-in-name")).to_have_text("Ana")
    page.locator("label[for=game-powwow]").click()
    page.get_by_label("Players", exact=True).select_option("3")
    page.locator("#seat-1").select_option("bot:random")
    page.locator("#seat-2").select_option("bot:medium")
    page.locator("#rated").check()
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url(re.compile(r"/t/[a-z0-9]{12}$"))
    table_id = page.url.rsplit("/", 1)[1]
    assert client.http.get(f"/api/tables/{table_id}").json()["rated"] is True
    # the rating beside the signed-in player's name; none beside the bots'
    expect(page.locator(".seat-rating")).to_have_count(1)
    expect(page.locator(".seat-rating")).to_have_text("1500?")
    rng, used = random.Random(4), set[str]()
    for _ in range(400):
        if wait_for_turn_or_end(page) == "end":
            break
        before = at(page)
        powwow_turn(page, rng, used)
        after_move(page, before)
    expect(page.locator("#end-dialog")).to_be_visible(timeout=15_000)
    # the results are written just after the game ends, off the event loop
    deadline = time.monotonic() + 30
    while True:
        with engine.connect() as db:
            if db.execute(select(player_games_t.c.table_id)).first():
                break
        assert time.monotonic() < deadline, "the game's results were not written"
        time.sleep(0.05)
    page.goto(f"{client.base}/p/Ana")
    shown = rating_shown(page)
    with engine.connect() as db:
        mu = db.execute(select(ratings_t.c.mu)).scalar_one()
    assert shown == f"{round(1500 + 20 * (mu - 25))}?" != "1500?"
    card = page.locator(".rating-card[data-game=powwow]")
    expect(card).to_contain_text("1 rated game")
    # the chart: where it started, and after the game
    expect(card.locator("svg.rating-chart circle")).to_have_count(2)
    expect(card.locator("svg.rating-chart polyline")).to_have_count(1)
    recent = page.locator(".recent-games li")
    expect(recent).to_have_count(1)
    assert recent.get_by_role("link").get_attribute("href") == f"/replay/{table_id}"
    expect(recent).to_contain_text("rated")
    expect(card.locator("dl.stats")).to_contain_text("Disputes won")
    snap(page, shots / "profile.png")
    assert watched.errors == [] and watched.toasts() == []


def seed_players(client: Client) -> None:
    """A hostile name and enough players for two pages of the leaderboard."""
    engine = engine_of(client)
    with engine.begin() as db:
        for i, name in enumerate([HOSTILE, *[f"Player{i}" for i in range(12)]]):
            ident = uuid.uuid4().hex
            db.execute(
                insert(accounts_t).values(
                    id=ident,
                    name=name,
                    name_key=name.casefold(),
                    password_hash=None,
                    user_handle=ident,
                    created=0.0,
                )
            )
            db.execute(
                insert(ratings_t).values(
                    account_id=ident,
                    game="powwow",
                    mu=40.0 - i,
                    sigma=3.0,
                    games=12 + i,
                    wins=3,
                    updated=0.0,
                )
            )


def test_profile_and_leaderboard_fit_a_laptop_and_a_phone_and_show_names_as_text(
    client: Client, open_page: Any, shots: Path
) -> None:
    seed_players(client)
    engine = engine_of(client)
    account(engine, "Averyveryverylongnm")
    for width, height in SIZES:
        watched = open_page(width, height)
        page = watched.page
        page.goto(f"{client.base}/leaderboard/powwow?limit=10")
        rows = page.locator("table.leaderboard tbody tr")
        expect(rows).to_have_count(10)
        expect(rows.first.locator(".player")).to_have_text(HOSTILE)
        assert page.locator("table.leaderboard img").count() == 0
        expect(rows.first).to_contain_text("1800")
        assert overflowing(page) == [], (width, overflowing(page))
        snap(page, shots / f"leaderboard-{width}.png")
        page.get_by_role("link", name="Next").click()
        expect(rows).to_have_count(3)
        expect(rows.first).to_contain_text("11")  # the 11th best, on the second page
        rows.first.get_by_role("link").click()
        expect(page.locator("#title")).to_have_text("Player9")
        expect(page.locator(".rating-card[data-game=powwow] .rating")).to_have_text("1600")
        assert overflowing(page) == [], (width, overflowing(page))
        page.goto(f"{client.base}/p/{HOSTILE}")
        expect(page.locator("#title")).to_have_text(HOSTILE)
        assert page.locator("main img, header img").count() == 0
        assert overflowing(page) == [], (width, overflowing(page))
        snap(page, shots / f"profile-{width}.png")
        page.goto(f"{client.base}/p/Averyveryverylongnm")
        expect(page.locator(".rating-card")).to_have_count(2)
        assert overflowing(page) == [], (width, overflowing(page))
        page.goto(f"{client.base}/p/Nobody")
        expect(page.locator("main")).to_contain_text("There is no player by that name.")
        assert page.evaluate("document.body.dataset.pwned") is None
        assert [e for e in watched.errors if "404" not in e] == []
