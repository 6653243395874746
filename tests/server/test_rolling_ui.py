"""The table page through a restart (issue 26): two processes on PostgreSQL + Redis behind
Debian's nginx routing by table; the process holding a person's page is stopped as an upgrade
stops it (SIGTERM). The page is told 1012, comes back at once through the proxy to the other
process, and the person plays their next move from the page there."""

from __future__ import annotations

import os
from typing import Any

import httpx
import pytest
from benchmarks.cluster import NGINX, REDIS_URL, deployment
from playwright.sync_api import expect

from tests.server import browsing
from tests.server.browsing import plain_powwow_move, wait_for_turn_or_end
from tests.server.test_ops import scrape
from tests.server.test_rolling import BACK_WITHIN, wait_for

browser = browsing.browser
open_page = browsing.open_page

#: every socket the page opens, with when it opened and closed, the close code, its hello and
#: the updates it brought (their `at`, `full` and the `at` of their events)
SOCKETS = """
window.__sockets = [];
const Real = window.WebSocket;
window.WebSocket = class extends Real {
  constructor(...args) {
    super(...args);
    const seen = { opened: null, closed: null, code: null, hello: null, updates: [] };
    window.__sockets.push(seen);
    this.addEventListener("open", () => { seen.opened = performance.now(); });
    this.addEventListener("close", (e) => { seen.closed = performance.now(); seen.code = e.code; });
    this.addEventListener("message", (e) => {
      const m = JSON.parse(e.data);
      if (m.type !== "update") return;
      seen.updates.push({ at: m.at, full: m.full, events: m.events.map((x) => x.at) });
    });
  }
  send(data) {
    const seen = window.__sockets[window.__sockets.length - 1];
    if (seen.hello === null) seen.hello = JSON.parse(data);
    super.send(data);
  }
};
"""


@pytest.fixture(autouse=True)
def need_nginx() -> None:
    if not os.access(NGINX, os.X_OK):
        pytest.fail(f"{NGINX} is missing: `make nginx` installs Debian's nginx")


def test_the_page_comes_back_at_once_after_its_process_restarts(open_page: Any) -> None:
    with deployment(2, "postgresql", redis=REDIS_URL, bot_pause=0.2, seed=3, by_table=True) as (
        cluster,
        _,
    ):
        try:
            with httpx.Client(base_url=cluster.base, timeout=20, trust_env=False) as http:
                made = http.post(
                    "/api/tables",
                    json={
                        "game": "powwow",
                        "players": 3,
                        "bots": {"1": "random", "2": "random"},
                        "name": "Ana",
                        # ten buzzards a player: the game is still on after the restart
                        "options": {"buzzards": 10},
                    },
                )
                assert made.status_code == 201, made.text
                table = made.json()
            watched = open_page()
            watched.context.add_init_script(SOCKETS)
            page = watched.page
            page.goto(f"{cluster.base}/")
            page.evaluate(
                "([id, seat, token]) => localStorage.setItem(`campfire:seat:${id}`,"
                " JSON.stringify({seat, token}))",
                [table["id"], table["seat"], table["token"]],
            )
            page.goto(f"{cluster.base}/t/{table['id']}")
            expect(page.locator(".seat.me")).to_have_count(1)
            expect(page.locator("#conn")).to_have_class("conn conn-ok")
            # nginx routes by table: the page's socket is on exactly one of the processes
            wait_for(
                lambda: (
                    sorted(scrape(s.base)["campfire_sockets"] for s in cluster.servers) == [0, 1]
                )
            )
            holder = next(
                i for i, s in enumerate(cluster.servers) if scrape(s.base)["campfire_sockets"] == 1
            )
            other = cluster.servers[1 - holder]
            # the log so far: a reconnect goes on from it (a whole-table update would redo it)
            page.wait_for_function("document.querySelector('#log li:not(.empty)') !== null")
            page.evaluate("document.querySelector('#log li:not(.empty)').dataset.kept = 'yes'")

            assert cluster.servers[holder].terminate() == 0, cluster.logs()
            page.wait_for_function(
                "window.__sockets.length >= 2 && window.__sockets[1].opened !== null"
            )
            first, second = page.evaluate("window.__sockets.slice(0, 2)")
            # told to reconnect because of a restart, and back within the contract's 3 s
            assert first["code"] == 1012, first
            assert second["opened"] - first["closed"] < BACK_WITHIN * 1000, (first, second)
            expect(page.locator("#conn")).to_have_class("conn conn-ok")
            wait_for(lambda: scrape(other.base)["campfire_sockets"] == 1)
            # it asked for what it missed since its last update, and got only that
            seen = first["updates"][-1]["at"]
            assert first["hello"]["at"] is None and second["hello"]["at"] == seen, second
            page.wait_for_function("window.__sockets[1].updates.length > 0")
            resumed = page.evaluate("window.__sockets[1].updates[0]")
            assert resumed["full"] is False and resumed["at"] >= seen, resumed
            assert all(at > seen for at in resumed["events"]), resumed
            expect(page.locator("#log li[data-kept='yes']")).to_have_count(1)

            # the person plays on from the page, served by the other process
            assert wait_for_turn_or_end(page) == "turn"
            before = plain_powwow_move(page)
            with httpx.Client(base_url=cluster.base, timeout=20, trust_env=False) as http:
                state = http.get(
                    f"/api/tables/{table['id']}/state",
                    headers={"Authorization": f"Bearer {table['token']}"},
                ).json()
            assert state["at"] > before, state
            assert watched.errors == [] and watched.toasts() == []
        except BaseException:
            print(cluster.logs())
            raise
