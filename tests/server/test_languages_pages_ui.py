"""The account, profile, leaderboard, replay and refused pages in another language, in Debian's
Chromium: in the pseudo-locale (every message accented and 40% longer) no text overflows its box
or the screen on a laptop and a phone, and in German none of their known English phrases is left
(the page template's words, the scripts' words and the review's)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from campfire.bots import make_bot
from campfire.i18n import translator
from campfire.i18n.pseudo import pseudo
from campfire.kernel import get_game
from tests.server import browsing
from tests.server.conftest import Client
from tests.server.test_languages_ui import SIZES
from tests.server.test_profile_ui import seed_players

browser = browsing.browser
open_page = browsing.open_page

#: English a person reads on these pages; none of it may be left on a German page
ENGLISH = [
    "Your account",
    "Sign in",
    "Sign up",
    "Password",
    "optional",
    "Loading",
    "rated game",
    "Recent games",
    "leaderboard",
    "provisional",
    "Nobody",
    "Player",
    "Rating",
    "Games",
    "Next",
    "step ",
    "Everything is revealed",
    "Game over",
    "accuracy",
    "mistakes",
    "blunders",
    "disputes right",
    "guesses that held",
    "moves of the game",
    "Each seat",
    "Download the record",
    "Story so far",
    "Nothing here",
    "Back to the lobby",
    "Try again",
    "There is no player",
]


#: as the lobby's check (tests/server/test_languages_ui.py), with two kinds of box it must read
#: differently: what sits inside a box that scrolls sideways on purpose (the review's table of
#: statistics) may reach past the window, and a drawing's text (the review's chart, in SVG)
#: overflows when it reaches past its drawing
OVERFLOWING = """() => [...document.querySelectorAll('body *')].filter((e) => {
  const style = getComputedStyle(e);
  if (style.display === 'none' || style.visibility === 'hidden' || !e.getClientRects().length) {
    return false;
  }
  const drawing = e.ownerSVGElement;
  if (drawing) {
    const box = e.getBoundingClientRect(), frame = drawing.getBoundingClientRect();
    return box.left < frame.left - 0.5 || box.right > frame.right + 0.5;
  }
  let scrolled = false;
  for (let up = e.parentElement; up; up = up.parentElement) {
    if (['auto', 'scroll'].includes(getComputedStyle(up).overflowX)) scrolled = true;
  }
  if (!scrolled && e.getBoundingClientRect().right > window.innerWidth + 0.5) return true;
  if (['INPUT', 'SELECT', 'TEXTAREA', 'OPTION', 'svg'].includes(e.tagName)) return false;
  if (['auto', 'scroll'].includes(style.overflowX)) return false;
  if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) return false;
  return e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1;
}).map((e) => `${e.tagName}#${e.id}: ${e.textContent.slice(0, 40)}`)"""


def finished_game(client: Client) -> str:
    """A Pow Wow game played to its end through the API (a person against a bot)."""
    made = client.create("powwow", 2, {1: "random"}, name="Ana")
    table_id, token = made["id"], made["token"]
    game = get_game("powwow")
    player = make_bot(game, "random", 1)
    while (state := client.state(table_id, token))["table"]["status"] != "finished":
        if state["controls"] is None:
            client.wait_for(
                table_id,
                lambda s: s["controls"] is not None or s["table"]["status"] == "finished",
                token,
            )
            continue
        table = client.app.state.hub.tables[table_id]
        action = player.choose(table.state.view(0), table.state.legal_actions())
        client.act(table_id, token, game.action_to_json(action), state["at"])
    return str(table_id)


def pages(client: Client, table_id: str, tr: Any) -> dict[str, tuple[str, str]]:
    """Each page, a selector and a text that shows its script has drawn it in `tr`'s words."""
    return {
        "/account": ("#signup-title", tr.gettext("Sign up")),
        "/p/Player1": ("#profile", tr.gettext("Recent games")),
        "/p/Nobody": ("#profile", tr.gettext("There is no player by that name.")),
        "/leaderboard/powwow?limit=5": (".pager", tr.gettext("Next")),
        f"/replay/{table_id}": ("#review-stats", tr.gettext("accuracy")),
        "/rules/chess": ("main", tr.gettext("Nothing here")),
    }


def visit(page: Page, url: str, selector: str, shown: str) -> None:
    page.goto(url, wait_until="domcontentloaded")
    expect(page.locator(selector)).to_contain_text(shown, timeout=60_000)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_no_pseudo_locale_text_overflows_on_the_account_profile_leaderboard_and_replay(
    client: Client, open_page: Any, width: int, height: int
) -> None:
    seed_players(client)
    table_id = finished_game(client)
    watched = open_page(width, height)
    page = watched.page
    for path, (selector, english) in pages(client, table_id, translator("en")).items():
        shown = pseudo(english)
        url = f"{client.base}{path}{'&' if '?' in path else '?'}lang=xx"
        visit(page, url, selector, shown)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, path
        over = page.evaluate(OVERFLOWING)
        assert over == [], (path, width, *over)
    assert [e for e in watched.errors if "404" not in e] == []


def test_a_german_page_of_each_kind_has_no_english_left(client: Client, open_page: Any) -> None:
    seed_players(client)
    table_id = finished_game(client)
    de = translator("de")
    watched = open_page(1366, 768)
    page = watched.page
    for path, (selector, shown) in pages(client, table_id, de).items():
        url = f"{client.base}{path}{'&' if '?' in path else '?'}lang=de"
        visit(page, url, selector, shown)
        expect(page.locator("html")).to_have_attribute("lang", "de")
        if path.startswith("/replay/"):
            page.locator("#last").click()
            expect(page.locator("#banner")).to_contain_text("Spielende", timeout=10_000)
        # the seeded players' names (Player0, Player1...) are names, not English
        text = re.sub(r"Player\d+", "", page.locator("body").inner_text())
        title = re.sub(r"Player\d+", "", page.title())
        left = [phrase for phrase in ENGLISH if phrase in text or phrase in title]
        assert left == [], (path, left)
    # the same pages in English still say the English words
    page.goto(f"{client.base}/account?lang=en")
    expect(page.locator("#signup-title")).to_have_text("Sign up")
    # the console notes the refused loads (the missing player and rules), and nothing else
    assert [e for e in watched.errors if "404" not in e] == []
