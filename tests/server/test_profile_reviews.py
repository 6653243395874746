"""The profile adds up the stored reviews of a player's games (issue 27: "when accounts exist,
the profile aggregates them"): per game the reviewed games, the average accuracy and the
statistics that teach, in `GET /api/players/{name}` ("review") and on `/p/{name}`; a profile
view never has a review made."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.server import browsing
from tests.server.conftest import Client
from tests.server.test_api import play_to_end
from tests.server.test_ratings_api import profile_when, signed_up

browser = browsing.browser
open_page = browsing.open_page
shots = browsing.shots

COUNTS = {
    "powwow": ("disputes_right", "disputes_wrong", "guesses_held", "guesses_failed"),
    "wakatanka": ("bluffs_played", "bluffs_caught", "calls_right", "calls_wrong"),
}


def finished_game(client: Client, game: str, seed: int) -> str:
    """A casual game of the signed-in client against random bots, played to its end."""
    players = 2 if game == "powwow" else 3
    bots = {s: "random" for s in range(1, players)}
    made = client.create(game, players, bots, name="ignored")
    play_to_end(client, made["id"], {0: made["token"]}, random.Random(seed), game)
    return str(made["id"])


def reviewed(client: Client, table_id: str) -> dict[str, Any]:
    response = client.http.get(f"/api/tables/{table_id}/review", timeout=120)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def test_the_profile_adds_up_the_stored_reviews(client: Client) -> None:
    signed_up(client, "Cleo")
    first = finished_game(client, "powwow", 1)
    second = finished_game(client, "powwow", 2)
    cards = finished_game(client, "wakatanka", 3)
    before = profile_when(client, "Cleo", lambda p: len(p["games"]) == 3)
    # nobody asked for a review yet: nothing to add up, and the profile made none
    assert set(before["review"]) == {"powwow", "wakatanka"}
    assert before["review"]["powwow"] == {"games": 0, "accuracy": None, "stats": {}}
    assert all(g["accuracy"] is None for g in before["games"])
    assert client.app.state.reviews.computed == 0
    # the old fields stay as they were
    assert set(before["ratings"]["powwow"]) >= {"rating", "games", "wins", "stats", "history"}
    docs = {t: reviewed(client, t) for t in (first, second, cards)}
    assert client.app.state.reviews.computed == 3
    after = client.http.get("/api/players/Cleo").json()
    assert client.app.state.reviews.computed == 3  # read from what is stored, never made here
    pw = after["review"]["powwow"]
    assert pw["games"] == 2
    accuracies = [docs[t]["seats"]["0"]["accuracy"] for t in (first, second)]
    assert pw["accuracy"] == round(sum(accuracies) / 2, 1)
    for key in COUNTS["powwow"]:
        assert pw["stats"][key] == sum(docs[t]["statistics"]["0"][key] for t in (first, second))
    losses = [docs[t]["statistics"]["0"]["average_loss"] for t in (first, second)]
    assert abs(pw["stats"]["average_loss"] - sum(losses) / 2) < 1e-3
    wt = after["review"]["wakatanka"]
    assert wt["games"] == 1 and wt["accuracy"] == docs[cards]["seats"]["0"]["accuracy"]
    for key in COUNTS["wakatanka"]:
        assert wt["stats"][key] == docs[cards]["statistics"]["0"][key]
    by_table = {g["table"]: g["accuracy"] for g in after["games"]}
    assert by_table == {t: docs[t]["seats"]["0"]["accuracy"] for t in docs}


def test_the_profile_page_shows_what_the_reviews_say(
    client: Client, open_page: Any, shots: Path
) -> None:
    signed_up(client, "Dana")
    table_id = finished_game(client, "powwow", 4)
    profile_when(client, "Dana", lambda p: p["games"])
    for width, height in ((1366, 768), (390, 844)):
        watched = open_page(width, height)
        page = watched.page
        page.goto(f"{client.base}/p/Dana")
        expect(page.locator(".rating-card[data-game=powwow]")).to_be_visible()
        expect(page.locator(".review-card")).to_have_count(0)
    doc = reviewed(client, table_id)
    page.goto(f"{client.base}/p/Dana")
    card = page.locator(".review-card[data-game=powwow]")
    expect(card).to_be_visible()
    expect(card.locator(".accuracy")).to_have_text(f"{doc['seats']['0']['accuracy']:g}%")
    expect(card).to_contain_text("over 1 reviewed game")
    expect(card.locator("dl.stats")).to_contain_text("Disputes right")
    right = str(doc["statistics"]["0"]["disputes_right"])
    expect(card.locator("dt", has_text="Disputes right").locator("+ dd")).to_have_text(right)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    browsing.snap(page, shots / "profile-review-390.png")
    # in French, from the catalogue
    page.goto(f"{client.base}/p/Dana?lang=fr")
    expect(page.locator(".review-card .accuracy")).to_be_visible()
    assert "what the reviews say" not in page.locator(".review-card h2").inner_text()
    assert watched.errors == []
