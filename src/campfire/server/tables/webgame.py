"""What the browser table needs from a game beyond the kernel API.

A game may ship a `web` package in its own folder (`campfire.games.<game>.web`) with:

- `controls(view, legal) -> dict`: a compact description of the legal actions of the seat to move
  (Pow Wow has about two thousand of them), enough for the page to offer exactly those moves;
- `expand(controls) -> list[dict]`: the legal actions (record JSON) the description stands for,
  which the tests compare with `legal_actions()`;
- `extras(view) -> dict`: figures the page shows that follow from the view alone;
- `pause_factor(kinds) -> float`: how much longer bots wait after events of these kinds;
- `OPTIONS`: the game's options model (for the lobby's form);
- static files beside it: `table.js` (an ES module that draws the table), `table.css`,
  `rules.html`.

A game without one still plays in the browser: the generic page lists its legal actions as
buttons. So a new game touches one folder.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Iterable, Mapping, Sequence
from importlib.resources import files
from importlib.resources.abc import Traversable
from types import ModuleType
from typing import Any

from pydantic import BaseModel

from campfire.kernel.state import Game

#: the names a game's static file may have (nothing else is served from its folder)
FILE_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,40}(\.[a-z]{2})?\.(js|css|html|svg)$")
#: past this many legal actions the generic page shows only the first ones
GENERIC_LIMIT = 200


class WebGame:
    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        package = type(game).__module__.rsplit(".", 1)[0]
        self.module: ModuleType | None
        try:
            self.module = importlib.import_module(package + ".web")
        except ModuleNotFoundError as error:
            if error.name != package + ".web":
                raise
            self.module = None
        self.folder: Traversable | None = (
            files(package + ".web") if self.module is not None else None
        )

    @functools.cached_property
    def has_page(self) -> bool:
        """Whether the game draws its own table (asked for every update: looked up once)."""
        return self.file("table.js") is not None

    def controls(self, view: Any, legal: Sequence[Any]) -> dict[str, Any]:
        if self.module is not None:
            out: dict[str, Any] = self.module.controls(view, legal)
            return out
        listed = [self.game.action_to_json(a) for a in legal[:GENERIC_LIMIT]]
        return {"actions": listed, "more": len(legal) > GENERIC_LIMIT}

    def expand(self, controls: Mapping[str, Any]) -> list[dict[str, Any]]:
        if self.module is not None:
            out: list[dict[str, Any]] = self.module.expand(controls)
            return out
        return list(controls["actions"])

    def extras(self, view: Any) -> dict[str, Any]:
        if self.module is not None:
            out: dict[str, Any] = self.module.extras(view)
            return out
        return {}

    def pause_factor(self, kinds: Iterable[str]) -> float:
        if self.module is not None and hasattr(self.module, "pause_factor"):
            return float(self.module.pause_factor(set(kinds)))
        return 1.0

    def options(self) -> list[dict[str, Any]]:
        """The lobby's option fields: name, type, default, description and bounds."""
        model = getattr(self.module, "OPTIONS", None)
        if isinstance(model, type) and issubclass(model, BaseModel):
            return option_fields(model)
        return [
            {"name": k, "type": _kind(v), "default": v, "description": k.replace("_", " ")}
            for k, v in self.game.default_options().items()
        ]

    def file(self, name: str) -> Traversable | None:
        if self.folder is None or not FILE_NAME.match(name):
            return None
        path = self.folder / name
        return path if path.is_file() else None


def option_fields(model: type[BaseModel]) -> list[dict[str, Any]]:
    schema = model.model_json_schema()
    out = []
    for name, prop in schema.get("properties", {}).items():
        kinds = [p.get("type") for p in prop.get("anyOf", [prop])]
        kind = "bool" if "boolean" in kinds else "int" if "integer" in kinds else "text"
        numeric: dict[str, Any] = next(
            (p for p in prop.get("anyOf", [prop]) if p.get("type") == "integer"), {}
        )
        out.append(
            {
                "name": name,
                "type": kind,
                "nullable": "null" in kinds,
                "default": prop.get("default"),
                "description": prop.get("description", name.replace("_", " ")),
                "min": numeric.get("minimum"),
                "max": numeric.get("maximum"),
            }
        )
    return out


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    return "text"


_CACHE: dict[str, WebGame] = {}


def web_game(game: Game[Any]) -> WebGame:
    found = _CACHE.get(game.name)
    if found is None:
        found = _CACHE[game.name] = WebGame(game)
    return found
