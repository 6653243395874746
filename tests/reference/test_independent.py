"""The reference implementations stay a second opinion: nothing of the engine's games in them."""

from __future__ import annotations

import ast
from pathlib import Path

HERE = Path(__file__).parent


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_no_reference_module_imports_the_engines_games() -> None:
    files = sorted(HERE.glob("*.py"))
    assert {p.name for p in files} >= {"powwow.py", "wakatanka.py", "test_differential.py"}
    for path in files:
        games = sorted(n for n in imported(path) if n.startswith("campfire.games"))
        assert games == [], f"{path.name} imports {games}"


def test_the_rules_themselves_import_nothing_of_campfire() -> None:
    for name in ("powwow.py", "wakatanka.py"):
        assert not any(n.startswith("campfire") for n in imported(HERE / name)), name
