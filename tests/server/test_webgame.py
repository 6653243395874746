"""The compact controls the page draws stand for exactly the legal actions, in every position."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest

from campfire.bots import make_bot
from campfire.kernel import get_game
from campfire.server.tables.webgame import GENERIC_LIMIT, WebGame, option_fields, web_game


def key(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


@pytest.mark.parametrize(
    ("name", "players", "options"),
    [
        ("powwow", 4, {"tomahawks": True}),
        ("powwow", 2, {}),
        ("powwow", 8, {"tomahawks": True, "buzzards": 2}),
        ("wakatanka", 3, {}),
        ("wakatanka", 6, {}),
    ],
)
def test_controls_expand_to_exactly_the_legal_actions(
    name: str, players: int, options: dict[str, Any]
) -> None:
    game = get_game(name)
    web = web_game(game)
    rng = random.Random(players)
    positions = 0
    for _ in range(6):
        state = game.new_state(players, options)
        bots = [make_bot(game, "random", rng.randrange(2**32)) for _ in range(players)]
        while not state.is_terminal:
            seat = state.to_move
            if seat is None:
                state.apply(state.sample_chance(rng))
                continue
            view = state.view(seat)
            legal = state.legal_actions()
            controls = web.controls(view, legal)
            json.dumps(controls)  # it goes over the wire
            offered = sorted(map(key, web.expand(controls)))
            assert offered == sorted(key(game.action_to_json(a)) for a in legal)
            positions += 1
            state.apply(bots[seat].choose(view, legal))
    assert positions > 50


def test_extras_come_from_the_view_alone() -> None:
    game = get_game("powwow")
    web = web_game(game)
    state = game.new_state(3, {})
    rng = random.Random(1)
    state.apply(state.sample_chance(rng))
    assert web.extras(state.view(0)) == {"last_round": None}
    state.apply(game.action_from_json({"action": "guess", "value": 200}))
    state.apply(game.action_from_json({"action": "dispute"}))
    while state.to_move is None and not state.is_terminal:
        state.apply(state.sample_chance(rng))
    last = web.extras(state.view(None))["last_round"]
    result = state.view(None).rounds[-1]
    assert last["round"] == 1
    assert last["green_sum"] + last["others"] == result.total
    assert web.pause_factor({"total"}) > web.pause_factor({"guess"}) == 1.0
    waka = web_game(get_game("wakatanka"))
    assert waka.pause_factor({"call"}) > 1.0
    wstate = get_game("wakatanka").new_state(3)
    while wstate.to_move is None:
        wstate.apply(wstate.sample_chance(rng))
    extras = waka.extras(wstate.view(0))
    assert len(extras["neighbours"]) == 2 and extras["tiles"][0] == "coyote"


def test_option_fields_follow_each_game_s_options_model() -> None:
    fields = {f["name"]: f for f in web_game(get_game("powwow")).options()}
    assert fields["buzzards"] == {
        "name": "buzzards",
        "type": "int",
        "nullable": False,
        "default": 3,
        "description": "buzzards that put a player out",
        "min": 1,
        "max": 10,
    }
    assert (
        fields["end_after_eliminations"]["nullable"]
        and fields["end_after_eliminations"]["min"] == 1
    )
    from pydantic import BaseModel

    class Plain(BaseModel):
        label: str = "x"

    assert option_fields(Plain)[0]["type"] == "text"


class _Odd:
    """A stand-in game without a `web` package: the generic page lists its actions."""

    name = "odd"
    title = "Odd"

    def action_to_json(self, action: int) -> dict[str, Any]:
        return {"action": "take", "n": action}

    def default_options(self) -> dict[str, Any]:
        return {"rounds": 3, "fast": True}


def test_a_game_without_a_web_package_gets_the_generic_page() -> None:
    web = WebGame(_Odd())  # type: ignore[arg-type]
    assert web.module is None and not web.has_page
    controls = web.controls(None, list(range(GENERIC_LIMIT + 5)))
    assert controls["more"] is True and len(controls["actions"]) == GENERIC_LIMIT
    assert web.expand(controls)[0] == {"action": "take", "n": 0}
    assert web.extras(None) == {} and web.pause_factor({"x"}) == 1.0
    assert [(o["name"], o["type"]) for o in web.options()] == [("rounds", "int"), ("fast", "bool")]
    assert web.file("table.js") is None


def test_only_plain_file_names_are_served_from_a_game_folder() -> None:
    web = web_game(get_game("wakatanka"))
    assert web.file("table.js") is not None and web.file("rules.html") is not None
    for name in (
        "__init__.py",
        "../game.py",
        "table.js/..",
        ".hidden.js",
        "TABLE.JS",
        "x" * 60 + ".js",
    ):
        assert web.file(name) is None, name


def test_serve_command_checks_its_arguments(tmp_path: Any) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "campfire", "serve", *args],
            capture_output=True,
            text=True,
            timeout=60,
        )

    help_text = run("--help")
    assert help_text.returncode == 0
    for option in (
        "--host",
        "--port",
        "--db",
        "--bot-pause",
        "--away-seconds",
        "--tables-per-minute",
        "--waiting-hours",
        "--forwarded-allow-ips",
    ):
        assert option in help_text.stdout
    bad_port = run("--port", "70000")
    assert bad_port.returncode == 2 and "--port" in bad_port.stderr
    assert "Traceback" not in bad_port.stderr
    bad_db = run("--db", "nonsense://", "--port", "8")
    assert bad_db.returncode == 2 and "cannot open the database" in bad_db.stderr
    assert "Traceback" not in bad_db.stderr
    negative = run("--bot-pause", "-1")
    assert negative.returncode == 2 and "--bot-pause" in negative.stderr
    never = run("--away-seconds", "-5")
    assert never.returncode == 2 and "--away-seconds" in never.stderr
    closed = run("--tables-per-minute", "0")
    assert closed.returncode == 2 and "--tables-per-minute" in closed.stderr
    expired = run("--waiting-hours", "0")
    assert expired.returncode == 2 and "--waiting-hours" in expired.stderr
