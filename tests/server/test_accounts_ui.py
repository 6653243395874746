"""The account pages in Debian's Chromium: sign up, sign out, sign in with the password, add a
passkey and sign in with it (a virtual authenticator through the DevTools protocol), and the
lobby saying who is signed in and seating them under their account name.

The pages are opened at http://localhost:<port>: passkeys need a secure context, which
localhost is, and the relying party id is the host name the page came from."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.server import browsing
from tests.server.conftest import Client

browser = browsing.browser
open_page = browsing.open_page
PASSWORD = "correct horse battery"


def local(client: Client) -> str:
    return client.base.replace("127.0.0.1", "localhost")


def signed_in_as(page: Page, name: str) -> None:
    expect(page.locator("#signed-in")).to_be_visible()
    expect(page.locator("#me-name")).to_have_text(name)


def test_sign_up_out_in_with_password_and_with_a_passkey(client: Client, open_page: Any) -> None:
    watched = open_page(1366, 768)
    page = watched.page
    cdp = watched.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
            }
        },
    )
    base = local(client)
    page.goto(f"{base}/")
    expect(page.locator("#rated")).to_be_disabled()  # a guest opens casual tables only
    page.get_by_role("link", name="Sign in or sign up").click()
    page.wait_for_url(f"{base}/account")

    # sign up
    expect(page.locator("#signed-out")).to_be_visible()
    page.locator("#signup-name").fill("Alice")
    page.locator("#signup-password").fill("short")
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator("#signup-error")).to_contain_text("at least 8")
    page.locator("#signup-password").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    signed_in_as(page, "Alice")

    # add a passkey
    page.get_by_role("button", name="Add a passkey").click()
    expect(page.locator("#passkeys li")).to_have_text(re.compile(r"^Passkey 1"))

    # sign out, sign in with the password
    page.get_by_role("button", name="Sign out", exact=True).click()
    expect(page.locator("#signed-out")).to_be_visible()
    page.locator("#signin-name").fill("alice")
    page.locator("#signin-password").fill("not the password")
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page.locator("#signin-error")).to_have_text("wrong name or password")
    page.locator("#signin-password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()
    signed_in_as(page, "Alice")

    # sign out, sign in with the passkey: no name, no password
    page.get_by_role("button", name="Sign out", exact=True).click()
    expect(page.locator("#signed-out")).to_be_visible()
    page.get_by_role("button", name="Sign in with a passkey").click()
    signed_in_as(page, "Alice")

    # the lobby says so, and a new table seats Alice under her account name
    page.goto(f"{base}/")
    expect(page.locator("#signed-in-name")).to_have_text("Alice")
    expect(page.get_by_label("Your name", exact=True)).to_have_value("Alice")
    expect(page.locator("#rated")).to_be_enabled()
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url(re.compile(r"/t/[a-z0-9]{12}$"))
    expect(page.locator("body")).to_have_attribute("data-turn", "you")
    table_url = page.url
    # the two refusals asked for above (a short password, a wrong one), nothing else
    assert len(watched.errors) == 2
    assert "422" in watched.errors[0] and "401" in watched.errors[1]

    # another device: signed in, "Your games" has the table, and opening it seats Alice there
    phone = open_page(390, 844)
    other = phone.page
    other.goto(f"{base}/account")
    other.locator("#signin-name").fill("Alice")
    other.locator("#signin-password").fill(PASSWORD)
    other.get_by_role("button", name="Sign in", exact=True).click()
    signed_in_as(other, "Alice")
    other.goto(f"{base}/")
    mine = other.locator("#my-tables")
    expect(mine.locator("li")).to_have_count(1)
    mine.get_by_role("link").click()
    other.wait_for_url(table_url)
    expect(other.locator("body")).to_have_attribute("data-turn", "you")
    assert phone.errors == []


def test_a_name_with_script_is_shown_as_text(client: Client, open_page: Any) -> None:
    watched = open_page(390, 844)
    page = watched.page
    page.goto(f"{local(client)}/account")
    page.locator("#signup-name").fill("<b>x</b>")
    page.locator("#signup-password").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    error = page.locator("#signup-error")
    expect(error).to_contain_text("letters, digits")
    assert page.locator("#signup-error b").count() == 0
    assert [e for e in watched.errors if "422" not in e] == []
