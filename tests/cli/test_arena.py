"""`campfire arena`: the report a person or a script reads, and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.conftest import Run


def test_json_report_with_parallel_games_and_a_plot(campfire: Run, tmp_path: Path) -> None:
    plot = tmp_path / "arena.png"
    result = campfire(
        "arena",
        "powwow",
        "--players",
        "4",
        "--bots",
        "medium,random,random,easy",
        "--games",
        "8",
        "--seed",
        "3",
        "--option",
        "tomahawks=true",
        "--jobs",
        "2",
        "--json",
        "--plot",
        str(plot),
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["games"] == 8 and report["options"] == {"tomahawks": True}
    bots = report["bots"]
    assert set(bots) == {"medium", "random", "easy"}
    assert bots["random"]["games"] == 16 and bots["medium"]["games"] == 8
    assert sum(b["wins"] for b in bots.values()) == pytest.approx(8)
    for row in bots.values():
        lo, hi = row["ci95"]
        assert 0 <= lo <= row["win_rate"] <= hi <= 1
        assert row["win_rate"] == pytest.approx(row["wins"] / row["games"], abs=1e-4)
        assert isinstance(row["rating"], float)
    assert plot.read_bytes()[:4] == b"\x89PNG"


def test_the_table_names_every_bot(campfire: Run) -> None:
    result = campfire(
        "arena", "wakatanka", "--bots", "medium,easy,easy,random", "--games", "4", "--jobs", "1"
    )
    assert result.returncode == 0, result.stderr
    assert "medium" in result.stdout and "easy" in result.stdout and "random" in result.stdout
    assert "95% CI" in result.stdout and "Parity 25.0%" in result.stdout


def test_same_seed_same_report(campfire: Run) -> None:
    runs = [
        campfire(
            "arena",
            "wakatanka",
            "--players",
            "3",
            "--bots",
            "easy,medium,random",
            "--games",
            "6",
            "--seed",
            "11",
            "--jobs",
            str(jobs),
            "--json",
        )
        for jobs in (1, 2)
    ]
    reports = []
    for run in runs:
        assert run.returncode == 0, run.stderr
        data = json.loads(run.stdout)
        data.pop("seconds")
        for row in data["bots"].values():
            row.pop("ms_per_decision")
        reports.append(data)
    assert reports[0] == reports[1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chess"], "unknown game"),
        (["powwow", "--bots", "hard,medium"], "--bots names 2 levels for 4 seats"),
        (["powwow", "--bots", "genius"], "unknown bot level 'genius'"),
        (["powwow", "--games", "0"], "--games must be at least 1"),
        (["powwow", "--jobs", "0"], "--jobs must be at least 1"),
        (["powwow", "--players", "9"], "2 to 8 players"),
        (["powwow", "--option", "colour=red"], "unknown option 'colour'"),
        (["powwow", "--plot", "chart.svg"], "ending in .png"),
        (["powwow", "--plot", "/no/such/folder/chart.png"], "cannot write the plot"),
    ],
)
def test_bad_input_is_one_clear_line(campfire: Run, args: list[str], message: str) -> None:
    result = campfire("arena", *args, "--games" if "--games" not in args else "--seed", "1")
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_a_bot_of_ones_own_joins_the_arena(campfire: Run) -> None:
    result = campfire(
        "arena",
        "powwow",
        "--players",
        "2",
        "--bots",
        "tests.bots.own_bot:Cautious,random",
        "--games",
        "6",
        "--jobs",
        "2",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    bots = json.loads(result.stdout)["bots"]
    assert bots["tests.bots.own_bot:Cautious"]["games"] == 6
    assert bots["tests.bots.own_bot:Cautious"]["ms_per_decision"] > 0


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("no_such_module:Bot", "cannot import 'no_such_module'"),
        ("tests.bots.own_bot:Missing", "has no bot factory named 'Missing'"),
        ("tests.bots.own_bot:NOT_A_FACTORY", "has no bot factory named 'NOT_A_FACTORY'"),
    ],
)
def test_a_bot_that_cannot_be_loaded_is_named(campfire: Run, spec: str, message: str) -> None:
    result = campfire("arena", "powwow", "--players", "2", "--bots", f"{spec},random")
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_other_commands_do_not_import_bots(campfire: Run) -> None:
    result = campfire(
        "simulate", "powwow", "--players", "2", "--bots", "tests.bots.own_bot:Cautious,random"
    )
    assert result.returncode == 2
    assert "unknown bot level" in result.stderr
