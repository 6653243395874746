"""docs/research.md's observation tables are the encodings' sections: every section, in order,
with its size for every number of players, so the page cannot drift from the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from campfire.kernel import get_game

DOC = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text()
SECTION_ROW = re.compile(r"^\| `(\w+)` \| ([^|]+) \| (.+) \|$", re.M)


def documented(game_title: str) -> list[tuple[str, str, str]]:
    """The rows of the section table that follows the paragraph opening with `game_title (`."""
    start = DOC.index("### Observation sections")
    start = DOC.index(f"\n{game_title} (", start)
    table = DOC[start:].split("\n\n")[1]  # the paragraph, then the table
    return SECTION_ROW.findall(table)


def size_for(expression: str, n: int) -> int:
    """Evaluate a size such as `6 × (8 + n)` for n players (digits, n, +, ×, brackets only)."""
    python = expression.strip().replace("×", "*")
    assert re.fullmatch(r"[\dn+*() ]+", python), expression
    return int(eval(python, {"__builtins__": {}}, {"n": n}))


CASES = [
    ("powwow", "Pow Wow", {}),
    ("powwow", "Pow Wow", {"tomahawks": True}),
    ("wakatanka", "Waka Tanka", {}),
]


@pytest.mark.parametrize(("name", "title", "options"), CASES)
def test_every_section_is_documented_in_order_with_its_size(name, title, options):
    game = get_game(name)
    rows = documented(title)
    assert rows, f"no observation table for {title}"
    for n in range(game.min_players, game.max_players + 1):
        sections = game.encoding(n, options).sections
        assert [row[0] for row in rows] == [section for section, _ in sections]
        assert [size_for(row[1], n) for row in rows] == [size for _, size in sections]
        for section, _, meaning in rows:
            assert meaning.strip(), f"{section} has no meaning"


def test_the_summary_names_the_section_tables():
    assert "`encoding.sections`" in DOC
    assert "tests/envs/test_observation_docs.py" in DOC
