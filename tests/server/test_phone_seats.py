"""On a phone the players sit in even rows above (Waka Tanka) or below (Pow Wow) the play: at
390x844, for every player count, no row holds two seats more or fewer than another (4 players
make 2+2, not 3+1), each row is centred, and nothing reaches past the window's sides (issue 24,
item 13)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server import browsing
from tests.server.browsing import snap
from tests.server.conftest import Client

browser = browsing.browser
open_page = browsing.open_page
shots = browsing.shots

COUNTS = [("wakatanka", n) for n in range(3, 7)] + [("powwow", n) for n in range(2, 9)]

#: each seat's box and the ring's, in page pixels
BOXES = """() => {
  const box = (n) => {
    const r = n.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  return {
    seats: [...document.querySelectorAll('.ring .seat')].map(box),
    ring: box(document.querySelector('.ring')),
    wide: [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().width)
      .filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5)
      .map((e) => `${e.tagName}#${e.id}.${e.className}`),
    scroll: document.documentElement.scrollWidth,
  };
}"""


def rows_of(seats: list[list[float]]) -> list[list[list[float]]]:
    """The seat boxes grouped into rows: boxes whose tops lie within a few pixels."""
    rows: list[list[list[float]]] = []
    for seat in sorted(seats, key=lambda b: (b[1], b[0])):
        if rows and abs(rows[-1][0][1] - seat[1]) < 4:
            rows[-1].append(seat)
        else:
            rows.append([seat])
    return rows


@pytest.mark.parametrize(("game", "players"), COUNTS, ids=[f"{g}-{n}" for g, n in COUNTS])
def test_seats_sit_in_even_rows_on_a_phone(
    client: Client, open_page: Any, shots: Path, game: str, players: int
) -> None:
    bots = {s: "random" for s in range(1, players)}
    made = client.create(game, players, bots, name="Ana", seat=0)
    watched = open_page(390, 844)
    page = watched.page
    page.goto(f"{client.base}/t/{made['id']}")
    expect(page.locator(".ring .seat")).to_have_count(players)
    snap(page, shots / f"phone-seats-{game}-{players}.png")
    found = page.evaluate(BOXES)
    rows = rows_of(found["seats"])
    sizes = [len(r) for r in rows]
    assert max(sizes) - min(sizes) <= 1, f"{players} seats in rows of {sizes}"
    assert max(sizes) <= 3, f"{players} seats in rows of {sizes}"
    left, _, right, _ = found["ring"]
    for row in rows:
        margin_left = row[0][0] - left
        margin_right = right - max(b[2] for b in row)
        assert abs(margin_left - margin_right) <= 2, f"row of {len(row)} not centred: {row}"
        widths = {round(b[2] - b[0]) for b in row}
        assert len(widths) == 1, f"seats of unequal widths in a row: {row}"
    assert found["scroll"] <= 390 and found["wide"] == [], found["wide"]
    assert watched.errors == []
