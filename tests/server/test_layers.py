"""The server's imports point down its layers, and no modules import each other round a circle.

Read from the source (`ast`), not imported, so the test sees `if TYPE_CHECKING:` imports too: a
type that names a module above is still a dependency on it. A module may import modules of its
own layer and of the layers below; `protocol` imports nothing of the server at all.
"""

from __future__ import annotations

import ast
from pathlib import Path

import campfire.server

ROOT = Path(campfire.server.__file__).parent
PACKAGE = "campfire.server"

#: the layers, lowest first; a new module goes into the one whose modules it may import (and no
#: higher): pure helpers at the bottom, then the database, Redis, live tables, HTTP on top
LAYERS: list[tuple[str, list[str]]] = [
    ("pure", ["protocol", "refusals", "names", "batch", "collector"]),
    (
        "store",
        [
            "store",
            "store.schema",
            "store.migrate",
            "store.storage",
            "store.writer",
            "store.migrations",
            "store.migrations.env",
            "store.migrations.versions",
            "store.migrations.versions.*",  # every revision
        ],
    ),
    ("cluster", ["cluster", "cluster.bus"]),
    (
        "tables",
        [
            "tables",
            "tables.connections",
            "tables.admission",
            "tables.webgame",
            "tables.live",
            "tables.chat",
            "tables.clock",
            "tables.driver",
            "tables.sync",
            "tables.hub",
        ],
    ),
    (
        "http",
        [
            "http",
            "http.headers",
            "http.requests",
            "http.language",
            "http.pages",
            "http.sockets",
            "http.app",
        ],
    ),
    ("package", [""]),  # campfire.server itself: gives `create_app`
]

#: modules that must not import anything of the server
PURE = {"protocol"}

#: edges known to close a circle, each only a type under `if TYPE_CHECKING:` (a helper of the
#: hub naming `Hub`); each is to be replaced by the narrow callable the helper needs, and then
#: taken out of this list (the test fails on an entry that no longer exists)
KNOWN_CIRCLES = {
    ("tables.chat", "tables.hub"),
    ("tables.clock", "tables.hub"),
    ("tables.driver", "tables.hub"),
    ("tables.sync", "tables.hub"),
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def layer_of(name: str) -> int | None:
    for index, (_, members) in enumerate(LAYERS):
        for member in members:
            if name == member or (member.endswith(".*") and name.startswith(member[:-1])):
                return index
    return None


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The server modules `name` imports (relative to `campfire.server`; "" is the package)."""
    found: set[str] = set()
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".") if package else []
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([PACKAGE, *base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            # `from package import module` imports the module; `from module import name` the module
            targets = [
                f"{module}.{alias.name}"
                if f"{module}.{alias.name}".removeprefix(PACKAGE + ".") in known
                else module
                for alias in node.names
            ]
        for target in targets:
            if target == PACKAGE:
                found.add("")
            elif target.startswith(PACKAGE + "."):
                found.add(target.removeprefix(PACKAGE + "."))
    found.discard(name)
    return found


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports(name, path, set(found)) for name, path in found.items()}


def test_every_module_has_a_layer() -> None:
    unlisted = [name for name in modules() if layer_of(name) is None]
    assert not unlisted, (
        f"campfire.server modules without a layer: {unlisted}; add each to LAYERS in "
        f"{Path(__file__).name} (the lowest layer whose modules it may import) and to the table "
        "in docs/architecture.md"
    )


def test_protocol_imports_nothing_of_the_server() -> None:
    edges = graph()
    for name in PURE:
        assert not edges[name], f"{name} must stay pure, yet imports {sorted(edges[name])}"


def test_imports_point_down() -> None:
    upward = []
    for name, targets in graph().items():
        own = layer_of(name)
        for target in targets:
            theirs = layer_of(target)
            if (name, target) in KNOWN_CIRCLES:
                continue
            if own is not None and theirs is not None and theirs > own:
                upward.append(f"{name} ({LAYERS[own][0]}) imports {target} ({LAYERS[theirs][0]})")
    assert not upward, "imports that point up a layer:\n" + "\n".join(upward)


def test_no_import_circles() -> None:
    edges = graph()
    for edge in KNOWN_CIRCLES:
        assert edge[1] in edges[edge[0]], f"{edge} is gone: take it out of KNOWN_CIRCLES"
    edges = {
        name: targets - {t for n, t in KNOWN_CIRCLES if n == name}
        for name, targets in edges.items()
    }
    circles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(name: str) -> None:
        state[name] = 1
        path.append(name)
        for target in sorted(edges.get(name, ())):
            if state.get(target) == 1:
                circles.append([*path[path.index(target) :], target])
            elif target not in state:
                walk(target)
        path.pop()
        state[name] = 2

    for name in sorted(edges):
        if name not in state:
            walk(name)
    assert not circles, "import circles:\n" + "\n".join(" -> ".join(c) for c in circles)


def test_the_walker_sees_an_upward_import_and_a_circle(tmp_path: Path) -> None:
    """The checks above can fail: a store module importing the hub is caught."""
    known = set(modules())
    source = tmp_path / "storage.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "from campfire.server.tables import hub\n"
        "if TYPE_CHECKING:\n    from campfire.server.http.app import create_app\n"
    )
    found = imports("store.storage", source, known)
    assert found == {"tables.hub", "http.app"}
    own, theirs = layer_of("store.storage"), layer_of("tables.hub")
    assert own is not None and theirs is not None and theirs > own
