"""`campfire replay`: the public examples exactly, and one clear line for anything refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import Run

EXAMPLES = Path(__file__).parent.parent / "data" / "records"
NAMES = sorted(p.name.removesuffix(".expected.json") for p in EXAMPLES.glob("*.expected.json"))


@pytest.mark.parametrize("name", NAMES)
def test_examples_replay_exactly(campfire: Run, name: str) -> None:
    result = campfire("replay", str(EXAMPLES / f"{name}.json"), "--json")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    expected = json.loads((EXAMPLES / f"{name}.expected.json").read_text())
    assert json.loads(result.stdout) == expected
    assert list(json.loads(result.stdout)) == list(expected)  # same keys in the same order


@pytest.mark.parametrize("name", NAMES)
def test_examples_narrated(campfire: Run, name: str) -> None:
    result = campfire("replay", str(EXAMPLES / f"{name}.json"))
    assert result.returncode == 0, result.stderr
    expected = json.loads((EXAMPLES / f"{name}.expected.json").read_text())
    winners = " and ".join(f"seat {s}" for s in expected["winners"])
    assert f"Winner: {winners}" in result.stdout or f"Winners: {winners}" in result.stdout
    assert "Finished after" in result.stdout


def test_unfinished_record_position(campfire: Run, tmp_path: Path) -> None:
    doc = json.loads((EXAMPLES / "wakatanka-4p.json").read_text())
    doc["moves"] = doc["moves"][:14]
    path = tmp_path / "part.json"
    path.write_text(json.dumps(doc))
    result = campfire("replay", str(path), "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["terminal"] is False and out["winners"] == [] and out["moves_applied"] == 14
    assert out["to_move"] == 0
    assert sum(len(h) for h in out["hands"]) + sum(len(s) for s in out["stacks"].values()) == 35


def test_chance_due_means_no_one_to_move(campfire: Run, tmp_path: Path) -> None:
    path = tmp_path / "start.json"
    path.write_text(json.dumps({"format": 1, "game": "powwow", "players": 5, "moves": []}))
    out = json.loads(campfire("replay", str(path), "--json").stdout)
    assert out == {
        "game": "powwow",
        "terminal": False,
        "winners": [],
        "to_move": None,
        "buzzards": [0] * 5,
        "out": [],
        "rounds": [],
        "moves_applied": 0,
    }


def refused(campfire: Run, tmp_path: Path, doc: Any, raw: str | None = None) -> str:
    path = tmp_path / "record.json"
    path.write_text(raw if raw is not None else json.dumps(doc))
    result = campfire("replay", str(path), "--json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr
    return result.stderr


def example(name: str = "powwow-tomahawks-5p") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text())
    return data


@pytest.mark.parametrize(
    ("index", "entry", "reason"),
    [
        (1, {"player": 1, "action": "guess", "value": 22}, "it is seat 0's turn, not seat 1's"),
        (2, {"player": 1, "action": "guess", "value": 22}, "higher than the standing guess 22"),
        (2, {"player": 1, "action": "guess", "value": "23"}, "whole number"),
        (2, {"player": 1, "action": "guess", "value": 23.0}, "whole number"),
        (2, {"player": 1, "action": "guess", "value": 239}, "between 23 and 238"),
        (2, {"player": 1, "action": "guess"}, "needs a 'value'"),
        (2, {"player": 1, "action": "bid", "value": 30}, "unknown action 'bid'"),
        (2, {"player": 1, "action": "dispute", "value": 3}, "unexpected key 'value'"),
        (2, {"player": 9, "action": "dispute"}, "no seat 9"),
        (2, {"player": "1", "action": "dispute"}, "seat number"),
        (2, {"action": "dispute"}, "needs 'player'"),
        (2, {"chance": "shuffle", "order": []}, "no chance outcome is due"),
        (2, {"chance": "dice", "value": 3}, "unknown chance kind 'dice'"),
        (2, "dispute", "must be a JSON object"),
        (2, {"player": 1, "action": "guess", "value": 30, "extra_feather_to": 1}, "another player"),
        (0, {"player": 0, "action": "guess", "value": 3}, "shuffle of 36 items is due"),
        (0, {"chance": "shuffle", "order": ["1"] * 36}, "missing"),
    ],
)
def test_refused_entries_name_index_entry_and_reason(
    campfire: Run, tmp_path: Path, index: int, entry: Any, reason: str
) -> None:
    doc = example()
    doc["moves"][index] = entry
    line = refused(campfire, tmp_path, doc)
    assert f"entry {index} {json.dumps(entry)}" in line
    assert reason in line


def test_without_tomahawks_agree_is_refused(campfire: Run, tmp_path: Path) -> None:
    doc = example("powwow-basic-4p")
    doc["moves"][2] = {"player": 1, "action": "agree"}
    assert "tomahawks are not in play" in refused(campfire, tmp_path, doc)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"options": {"tomahawks": "yes"}}, "option 'tomahawks'"),
        ({"options": {"buzzards": 0}}, "option 'buzzards'"),
        ({"options": {"colour": "red"}}, "unknown option 'colour'"),
        ({"players": 9}, "2 to 8 players"),
        ({"game": "poker"}, "unknown game 'poker'"),
        ({"format": "1"}, "unsupported format"),
        ({"moves": None}, "'moves' must be a list"),
    ],
)
def test_refused_headers(
    campfire: Run, tmp_path: Path, change: dict[str, Any], reason: str
) -> None:
    doc = example()
    doc.update(change)
    assert reason in refused(campfire, tmp_path, doc)


@pytest.mark.parametrize("raw", ["", "{", "[1, 2", "null", "\x00\x01", "[" * 100000])
def test_unreadable_documents(campfire: Run, tmp_path: Path, raw: str) -> None:
    refused(campfire, tmp_path, None, raw=raw)


def test_missing_file(campfire: Run, tmp_path: Path) -> None:
    result = campfire("replay", str(tmp_path / "nope.json"), "--json")
    assert result.returncode == 2 and result.stdout == ""
    assert "cannot read" in result.stderr and result.stderr.count("\n") == 1


def test_entry_after_the_end(campfire: Run, tmp_path: Path) -> None:
    doc = example("wakatanka-4p")
    doc["moves"].append({"player": 2, "action": "call"})
    line = refused(campfire, tmp_path, doc)
    assert "entry 48" in line and "the game is over" in line


def test_the_seats_header_is_accepted_and_ignored(campfire: Run, tmp_path: Path) -> None:
    doc = json.loads((EXAMPLES / "wakatanka-4p.json").read_text())
    doc["seats"] = [{"name": None, "bot": None}] + [{"name": None, "bot": "medium"}] * 3
    path = tmp_path / "seated.json"
    path.write_text(json.dumps(doc))
    result = campfire("replay", str(path), "--json")
    assert result.returncode == 0, result.stderr
    expected = json.loads((EXAMPLES / "wakatanka-4p.expected.json").read_text())
    assert json.loads(result.stdout) == expected
    doc["seats"] = doc["seats"][:3]
    path.write_text(json.dumps(doc))
    for args in ([str(path), "--json"], [str(path)]):
        result = campfire("replay", *args)
        assert result.returncode == 2 and result.stdout == ""
        assert result.stderr == "campfire: 'seats' lists 3 seats for 4 players\n"


def _variant_game(name: str, players: int, options: dict[str, Any]) -> Any:
    import random

    from campfire.kernel import get_game

    game = get_game(name)
    state = game.new_state(players, options)
    rng = random.Random(9)
    bots = [game.bot_levels()["medium"](s) for s in range(players)]
    while not state.is_terminal:
        spec = state.chance_due()
        if spec is not None:
            state.apply(spec.sample(rng))
        else:
            state.apply(
                bots[state.to_move].choose(state.view(state.to_move), state.legal_actions())
            )
    return state


@pytest.mark.parametrize(
    ("name", "players", "options"),
    [
        (
            "powwow",
            3,
            {
                "buzzards": 2,
                "feathers": "1 2 3 4 5 x2 ? zero",
                "guess_max": 20,
                "tomahawks": True,
                "max_guesses": 4,
            },
        ),
        ("wakatanka", 3, {"animals": 3, "cards": 2, "tokens_to_win": 1, "max_turns": 9}),
    ],
)
def test_research_variant_records_replay(
    campfire: Run, tmp_path: Path, name: str, players: int, options: dict[str, Any]
) -> None:
    """A research variant's record carries its options and replays like any record."""
    from campfire.kernel import Record

    state = _variant_game(name, players, options)
    doc = Record.of(state).to_json()
    assert {key: doc["options"][key] for key in options} == options
    path = tmp_path / "variant.json"
    path.write_text(json.dumps(doc))
    result = campfire("replay", str(path), "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["terminal"] is True and out["winners"] == state.winners()
