"""Shared pieces of the browser tests: Debian's Chromium under Playwright, watched pages."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--autoplay-policy=no-user-gesture-required",
    # pages served through a test's route count as public: let them reach the local server
    "--disable-features=LocalNetworkAccessChecks",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"the browser tests need Debian's Chromium at {CHROMIUM}: `make test` installs it"
        )
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = os.environ.get("CAMPFIRE_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


class Watched:
    """A page whose script errors and error notices are collected, to be asserted on."""

    def __init__(self, context: BrowserContext) -> None:
        self.context = context
        self.page = context.new_page()
        self.page.set_default_timeout(20_000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        self.page.on(
            "console",
            lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None,
        )

    def toasts(self) -> list[str]:
        return [t.strip() for t in self.page.locator(".toast-error").all_inner_texts()]


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Any]:
    contexts: list[BrowserContext] = []

    def make(width: int = 1280, height: int = 900, **options: Any) -> Watched:
        # the server's policy forbids eval, which Playwright's wait_for_function needs: the
        # tests wait that way; one test checks the pages under the policy itself
        options.setdefault("bypass_csp", True)
        context = browser.new_context(viewport={"width": width, "height": height}, **options)
        contexts.append(context)
        return Watched(context)

    yield make
    for context in contexts:
        context.close()


def snap(page: Page, path: Path) -> None:
    """A screenshot of the top of the page, as someone arriving at it sees it."""
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(150)
    page.screenshot(path=str(path))


def at(page: Page) -> int:
    return int(page.locator("body").get_attribute("data-at") or 0)


def wait_for_turn_or_end(page: Page) -> str:
    page.wait_for_function(
        "document.body.dataset.turn === 'you' || document.body.dataset.status === 'finished'",
        timeout=30_000,
    )
    return "end" if page.locator("body").get_attribute("data-status") == "finished" else "turn"


def after_move(page: Page, before: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.at) > {before}")


def plain_powwow_move(page: Page) -> int:
    """The person's Pow Wow move from the page, the plainest there is: dispute when it may,
    else the lowest guess; waits until the page heard it and gives the record index before."""
    before = at(page)
    dispute = page.locator("#dispute-btn")
    if dispute.is_enabled():
        dispute.click()
    else:
        guess = page.locator("#guess-value")
        guess.fill(guess.get_attribute("min") or "0")
        page.locator("#guess-btn").click()
    after_move(page, before)
    return before
