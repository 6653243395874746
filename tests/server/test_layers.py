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
    ("pure", ["protocol", "refusals", "names", "batch", "collector", "metrics", "logs"]),
    (
        "store",
        [
            "store",
            "store.schema",
            "store.migrate",
            "store.storage",
            "store.writer",
            "store.results",
            "store.accounts",
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
            "tables.room",
            "tables.owner",
            "tables.sync",
            "tables.reviews",
            "tables.hub",
            "tables.handover",
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
            "http.profiles",
            "http.sockets",
            "http.ops",
            "http.accounts",
            "http.app",
        ],
    ),
    ("package", [""]),  # campfire.server itself: gives `create_app`
]

#: modules that must not import anything of the server
PURE = {"protocol"}

#: edges known to close a circle, each to be replaced by the narrow protocol the helper needs
#: (the test fails on an entry that no longer exists); none are left
KNOWN_CIRCLES: set[tuple[str, str]] = set()


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


#: what only a table's `Room` may assign: the stored version it reflects, its state, its place
#: in the record
ROOM_ONLY = {"version", "state", "at"}


def assigned_attributes(path: Path) -> set[str]:
    """The attribute names a module assigns on any object (`x.name = ...`, `x.name += ...`)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        while targets:
            target = targets.pop()
            if isinstance(target, (ast.Tuple, ast.List)):
                targets.extend(target.elts)
            elif isinstance(target, ast.Attribute):  # `app.state.hub = ...` assigns `hub`
                found.add(target.attr)
    return found


def test_only_the_room_moves_a_table_on() -> None:
    """One writer per table: no module but `tables.room` assigns a table's version, state or
    record position (the connections' own `seat` and the like are theirs)."""
    writers = {
        name: sorted(assigned_attributes(path) & ROOM_ONLY)
        for name, path in modules().items()
        if name != "tables.room" and not name.startswith("store")
    }
    assert not {n: a for n, a in writers.items() if a}, writers


def test_the_room_check_sees_an_assignment(tmp_path: Path) -> None:
    source = tmp_path / "hub.py"
    source.write_text(
        "table.version = 3\ntable.at += 1\nt.status, t.state = 1, 2\napp.state.x = 1\n"
    )
    assert assigned_attributes(source) & ROOM_ONLY == {"version", "at", "state"}
