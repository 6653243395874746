"""Pages in a real browser in another language: the lobby's script reads its words from the
page language's catalogue, and in the pseudo-locale (every message accented and 40% longer) no
text overflows its box or the screen, on a laptop (1366x768) and a phone (390x844)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from campfire.i18n import translator
from campfire.i18n.pseudo import pseudo
from tests.server import browsing
from tests.server.conftest import Client

browser = browsing.browser
open_page = browsing.open_page

#: elements whose own text is wider than their box (one that scrolls on purpose excepted), or
#: that reach past the window's right edge
OVERFLOWING = """() => [...document.querySelectorAll('body *')].filter((e) => {
  const style = getComputedStyle(e);
  if (style.display === 'none' || style.visibility === 'hidden' || !e.getClientRects().length) {
    return false;
  }
  if (e.getBoundingClientRect().right > window.innerWidth + 0.5) return true;
  if (['INPUT', 'SELECT', 'TEXTAREA', 'OPTION', 'svg'].includes(e.tagName)) return false;
  if (['auto', 'scroll'].includes(style.overflowX)) return false;
  // text of its own (a box holding only a picture is not text that overflows)
  if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) return false;
  return e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1;
}).map((e) => `${e.tagName}#${e.id}.${e.className}: ${e.textContent.slice(0, 40)}`)"""

SIZES = [(1366, 768), (390, 844)]


def test_the_lobbys_script_speaks_the_pages_language(client: Client, open_page: Any) -> None:
    watched = open_page(1366, 768)
    page = watched.page
    page.goto(f"{client.base}/?lang=de")
    de = translator("de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("button", name=de.gettext("Start the table"))).to_be_visible()
    # words drawn by the script, from /i18n/de.json
    expect(page.locator("#seats")).to_contain_text(de.gettext("A friend (invite link)"))
    expect(page.locator("#players")).to_contain_text(de.ngettext("{n} player", "{n} players", 4))
    expect(page.locator("#open-tables")).to_contain_text(
        de.gettext("No table is waiting for players.")
    )
    # the game's option descriptions, marked in its options and drawn by the script
    page.get_by_text(de.gettext("Options"), exact=True).click()
    expect(page.locator("#options")).to_contain_text(
        de.gettext("buzzards that put a player out")[1:]  # the script capitalises the first
    )
    expect(page.locator("#options")).not_to_contain_text("buzzards that put a player out")
    # the picker changes the language, and the choice is remembered
    page.get_by_role("link", name="Italiano").click()
    expect(page.locator("html")).to_have_attribute("lang", "it")
    page.goto(f"{client.base}/")
    expect(page.locator("html")).to_have_attribute("lang", "it")
    assert watched.errors == []


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_no_pseudo_locale_text_overflows_its_box_or_the_screen(
    client: Client, open_page: Any, width: int, height: int
) -> None:
    made = client.create("powwow", 3, {2: "random"}, name="Ana", listed=True)
    watched = open_page(width, height)
    page = watched.page
    pages = {
        "/": pseudo("Start the table"),
        "/rules/powwow": pseudo("Back to the lobby"),
        "/rules/wakatanka": pseudo("Back to the lobby"),
        f"/t/{made['id']}": pseudo("Invite"),
    }
    for path, shown in pages.items():
        page.goto(f"{client.base}{path}?lang=xx")
        expect(page.locator("body")).to_contain_text(shown)
        if path == "/":
            expect(page.locator("#seats")).to_contain_text(pseudo("A friend (invite link)"))
        assert page.evaluate("document.documentElement.scrollWidth") <= width, path
        assert page.evaluate(OVERFLOWING) == [], (path, width)
    # the check sees a text too wide for its box
    page.evaluate(
        """() => { const probe = document.createElement('p'); probe.id = 'probe';
        probe.style.width = '40px'; probe.style.overflow = 'hidden';
        probe.textContent = 'Ŵíđéŵóŕđŵíťĥóúťáƀŕéáķ'; document.body.append(probe); }"""
    )
    assert [e for e in page.evaluate(OVERFLOWING) if e.startswith("P#probe")]
    assert watched.errors == []


def test_the_table_page_and_its_story_in_the_pages_language(client: Client, open_page: Any) -> None:
    de = translator("de")
    waiting = client.create("powwow", 3, {2: "random"}, name="Ana")
    playing = client.create("powwow", 2, {1: "random"}, name="Bea")
    watched = open_page(1366, 768)
    page = watched.page
    page.goto(f"{client.base}/t/{waiting['id']}?lang=de")
    expect(page.locator("#banner")).to_contain_text(
        de.ngettext(
            "Waiting for players: {taken} of {n} seat taken.",
            "Waiting for players: {taken} of {n} seats taken.",
            3,
            taken=2,
        )
    )
    expect(page.locator("#stage")).to_contain_text(de.gettext("Waiting for players"))
    # the socket of the page reads the remembered language: the story is told in German
    page.goto(f"{client.base}/t/{playing['id']}")
    expect(page.locator("#log")).to_contain_text("Die 36 Federn werden zum Stapel gemischt.")
    expect(page.locator("#log")).not_to_contain_text("The 36 feathers")
    # the game's own drawing code too (Pow Wow's controls, for a spectator)
    expect(page.locator("#controls")).to_contain_text(
        de.gettext("You are watching: every feather stays hidden from you.")
    )
    assert watched.errors == []
