"""Your moves stay in view: whole games against bots on a laptop, a large screen and a phone.

Every turn the banner and every control of the seat (Pow Wow: the guess, Guess, Dispute, the
tomahawk moves; Waka Tanka: each card of the hand, Call, Spell or Accept) must lie inside the
window and be the topmost thing at its centre, with the page scrolled to the top and to the
bottom. Reveals and counts must open in view and wait for Continue.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.server import browsing
from tests.server.browsing import after_move, at, snap, wait_for_turn_or_end
from tests.server.conftest import Client

browser = browsing.browser
open_page = browsing.open_page
shots = browsing.shots

SIZES = [(1366, 768), (1920, 1080), (390, 844)]

# for each selector: whether every match lies in the window and is on top at its centre
IN_VIEW = """(selectors) => {
  const out = [];
  const w = window.innerWidth, h = window.innerHeight;
  for (const selector of selectors) {
    const nodes = [...document.querySelectorAll(selector)];
    if (!nodes.length) { out.push(`${selector}: missing`); continue; }
    for (const node of nodes) {
      const r = node.getBoundingClientRect();
      const box = [r.left, r.top, r.width, r.height].map(Math.round).join(",");
      const where = `${selector} at ${box}`;
      if (!r.width || !r.height) { out.push(`${where}: not shown`); continue; }
      if (r.left < -1 || r.top < -1 || r.right > w + 1 || r.bottom > h + 1) {
        out.push(`${where}: outside ${w}x${h}`);
        continue;
      }
      const x = Math.min(w - 1, Math.max(0, r.left + r.width / 2));
      const y = Math.min(h - 1, Math.max(0, r.top + r.height / 2));
      const top = document.elementFromPoint(x, y);
      if (!top || !(node === top || node.contains(top))) {
        out.push(`${where}: covered by ${top ? top.outerHTML.slice(0, 80) : "nothing"}`);
      }
    }
  }
  return out;
}"""


def check_in_view(page: Page, selectors: list[str], when: str) -> None:
    """The selectors are in view at the top of the page and when scrolled to its bottom."""
    for scroll in ("0", "document.documentElement.scrollHeight"):
        page.evaluate(f"window.scrollTo(0, {scroll})")
        page.wait_for_timeout(30)
        problems = page.evaluate(IN_VIEW, selectors)
        assert problems == [], f"{when}, scrolled to {scroll}: {problems}"
    page.evaluate("window.scrollTo(0, 0)")


def size_name(width: int, height: int) -> str:
    return f"{width}x{height}"


def read_reveal(page: Page, checked: list[str], label: str) -> None:
    """A reveal or count that opened is in view with the moves, and stays until Continue."""
    panel = page.locator(".reveal-panel")
    if not panel.count():
        return
    told = panel.inner_text()
    assert "You's" not in told and "You guess" not in told, told
    check_in_view(page, ["#banner", ".reveal-panel h2", "#continue-btn"], f"{label}: a reveal")
    checked.append("reveal")
    page.locator("#continue-btn").click()
    expect(panel).to_have_count(0)


def start(page: Page, client: Client, game: str, options: dict[str, Any]) -> str:
    made = client.create(game, 3, {1: "random", 2: "random"}, options=options, name="Ana", seat=0)
    page.goto(f"{client.base}/")
    page.evaluate(
        "([id, seat, token]) => localStorage.setItem(`campfire:seat:${id}`,"
        " JSON.stringify({seat, token}))",
        [made["id"], made["seat"], made["token"]],
    )
    page.goto(f"{client.base}/t/{made['id']}")
    expect(page.locator("body")).to_have_attribute("data-status", "playing")
    return str(made["id"])


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[size_name(*s) for s in SIZES])
def test_pow_wow_moves_stay_in_view_for_a_whole_game(
    client: Client, open_page: Any, shots: Path, width: int, height: int
) -> None:
    watched = open_page(width, height)
    page = watched.page
    start(page, client, "powwow", {"tomahawks": True, "buzzards": 1})
    rng = random.Random(width)
    checked: list[str] = []
    label = size_name(width, height)
    for turn in range(200):
        if wait_for_turn_or_end(page) == "end":
            break
        moves = ["#banner", "#guess-value", "#guess-btn", "#dispute-btn", "#agree-btn"]
        moves += ["#reverse-btn", ".pw-extra input"]
        check_in_view(page, moves, f"{label}, turn {turn}")
        checked.append("turn")
        if page.locator(".reveal-panel").count() and width != 1920:
            # the count waits for Continue while the moves stay usable beside or under it
            snap(page, shots / f"layout-powwow-count-{label}.png")
        read_reveal(page, checked, label)
        before = at(page)
        dispute = page.locator("#dispute-btn")
        guessing = page.locator("#guess-value").is_enabled()
        if dispute.is_enabled() and (not guessing or rng.random() < 0.35):
            dispute.click()
        else:
            guess = page.locator("#guess-value")
            low, high = (int(guess.get_attribute(k) or 0) for k in ("min", "max"))
            guess.fill(str(min(high, low + rng.randrange(3))))
            page.locator("#guess-btn").click()
        after_move(page, before)
    expect(page.locator("body")).to_have_attribute("data-status", "finished")
    check_in_view(page, ["#banner"], f"{label}, game over")
    assert "turn" in checked
    assert watched.errors == [] and watched.toasts() == []


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[size_name(*s) for s in SIZES])
def test_waka_tanka_moves_stay_in_view_for_a_whole_game(
    client: Client, open_page: Any, shots: Path, width: int, height: int
) -> None:
    watched = open_page(width, height)
    page = watched.page
    start(page, client, "wakatanka", {})
    rng = random.Random(width)
    checked: list[str] = []
    label = size_name(width, height)
    for turn in range(300):
        if wait_for_turn_or_end(page) == "end":
            break
        call = page.locator("#call-btn")
        accept = page.locator("#accept-btn")
        moves = ["#banner"]
        moves += ["#accept-btn"] if accept.count() else [".hand-card", "#spell-btn"]
        if call.count():
            moves.append("#call-btn")
        check_in_view(page, moves, f"{label}, turn {turn}")
        checked.append("turn")
        panel = page.locator(".reveal-panel")
        if width == 1366 and panel.count() and "waited" not in checked:
            # a reveal stays until Continue: longer than it would linger when asked to go by itself
            page.wait_for_timeout(5000)
            expect(panel).to_have_count(1)
            checked.append("waited")
        elif width == 1366 and panel.count() and "auto" not in checked:
            # asked to continue by itself (remembered), the next reveal steps aside on its own
            page.locator("#auto-continue").check()
            assert page.evaluate("localStorage.getItem('campfire:auto-continue')") == "1"
            checked.append("auto")
        elif width == 1366 and panel.count() and "auto" in checked:
            expect(panel).to_have_count(0, timeout=15_000)
            checked.append("went by itself")
        read_reveal(page, checked, label)
        if turn == 2 and width == 390:
            snap(page, shots / f"layout-wakatanka-{label}.png")
        before = at(page)
        if accept.count() or (call.count() and call.is_enabled() and rng.random() < 0.5):
            call.click()
        else:
            # a tile from the table, then a card from the hand (which stays in view)
            target = page.locator(".wt-tile.target")
            target.nth(rng.randrange(target.count())).click()
            check_in_view(page, [".hand-card:enabled"], f"{label}, turn {turn}, a tile chosen")
            cards = page.locator(".hand-card:enabled")
            cards.nth(rng.randrange(cards.count())).click()
        after_move(page, before)
    expect(page.locator("body")).to_have_attribute("data-status", "finished")
    assert "turn" in checked and "reveal" in checked
    if width == 1366:
        assert "waited" in checked and "auto" in checked, checked
    assert watched.errors == [] and watched.toasts() == []


# --- your turn ------------------------------------------------------------------------------------
WATCH_ALERTS = """
window.__beeps = 0;
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.__beeps += 1;
  return start.apply(this, args);
};
window.__notes = [];
const Real = window.Notification;
window.Notification = new Proxy(Real, {
  construct(target, args) { window.__notes.push(args[0]); return new target(...args); },
  get(target, prop) {
    const value = Reflect.get(target, prop);
    return typeof value === "function" ? value.bind(target) : value;
  },
});
window.__hidden = false;
Object.defineProperty(Document.prototype, "hidden", {
  get() { return window.__hidden; },
  configurable: true,
});
"""


def test_your_turn_sounds_notifies_a_hidden_tab_and_marks_the_title(
    client: Client, open_page: Any
) -> None:
    watched = open_page(1366, 768, permissions=["notifications"])
    page = watched.page
    page.add_init_script(WATCH_ALERTS)
    start(page, client, "powwow", {"buzzards": 3})
    sound = page.locator("#sound-btn")
    expect(sound).to_have_attribute("aria-pressed", "true")
    # the sound can be turned off, and the page remembers it
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "false")
    page.reload()
    expect(page.locator("#sound-btn")).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("localStorage.getItem('campfire:sound')") == "0"
    page.locator("#sound-btn").click()  # on again: it plays the sound once to say so
    expect(sound).to_have_attribute("aria-pressed", "true")
    page.wait_for_function("window.__beeps >= 2")
    assert wait_for_turn_or_end(page) == "turn"
    assert page.title().startswith("▶ Your turn")
    beeps = page.evaluate("window.__beeps")
    # the player moves, then looks at another tab: their next turn brings a notification
    before = at(page)
    page.locator("#guess-btn").click()
    after_move(page, before)
    page.evaluate("window.__hidden = true")
    for _ in range(20):
        if wait_for_turn_or_end(page) == "end" or page.evaluate("window.__notes.length"):
            break
        before = at(page)
        page.locator("#guess-btn").click()
        after_move(page, before)
    notes = page.evaluate("window.__notes")
    assert notes and notes[0].startswith("Your turn"), notes
    assert page.evaluate("window.__beeps") > beeps
    assert page.title().startswith("▶ Your turn")
    assert watched.errors == [] and watched.toasts() == []


# --- a strict content security policy ------------------------------------------------------------
def test_every_page_works_under_the_servers_content_security_policy(
    client: Client, open_page: Any
) -> None:
    """The server's own policy (no inline script, no inline handler, no style attribute from
    markup) is on every page and refuses nothing the pages do."""
    watched = open_page(1366, 768, bypass_csp=False)
    page = watched.page
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    created: list[Any] = []
    policies: dict[str, str | None] = {}

    def on_request(request: Any) -> None:
        if request.method == "POST" and request.url.endswith("/api/tables"):
            created.append(json.loads(request.post_data or "{}"))

    def on_response(response: Any) -> None:
        if response.request.resource_type == "document":
            policies[response.url] = response.headers.get("content-security-policy")

    page.on("request", on_request)
    page.on("response", on_response)
    page.goto(f"{client.base}/")
    page.get_by_label("Your name", exact=True).fill("Ana")
    page.get_by_label("List in the lobby").check()
    page.get_by_label("Turn clock").select_option("60")
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url(lambda url: "/t/" in url)
    assert created[0]["listed"] is True and created[0]["clock"] == 60
    assert created[0]["game"] == "powwow" and created[0]["name"] == "Ana"
    # (no wait_for_function here: the policy forbids the evaluation it needs)
    expect(page.locator("body")).to_have_attribute("data-turn", "you")
    before = page.locator("body").get_attribute("data-at")
    page.locator("#guess-btn").click()
    expect(page.locator("body")).not_to_have_attribute("data-at", str(before))
    page.get_by_role("button", name="Rules").first.click()
    expect(page.locator("#rules-body")).to_contain_text("feather")
    page.keyboard.press("Escape")
    made = client.create("wakatanka", 3, dict.fromkeys(range(3), "random"), options={})
    client.wait_for(made["id"], lambda s: s["table"]["status"] == "finished")
    page.goto(f"{client.base}/replay/{made['id']}")
    expect(page.locator("#step-label")).to_contain_text("step 0 of")
    page.get_by_role("button", name="Next step").click()
    expect(page.locator("#step-label")).to_contain_text("step 1 of")
    page.goto(f"{client.base}/rules/powwow")
    expect(page.locator(".rules")).to_contain_text("feather")
    assert refused == [] and watched.errors == []
    assert len(policies) >= 4
    for url, policy in policies.items():
        assert policy is not None, url
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert "unsafe" not in policy
